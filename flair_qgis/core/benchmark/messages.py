"""The messages of the benchmark's errors (datasets, plan, scoring): key -> English template.

Registered in the plugin's catalogue (:mod:`flair_qgis.core.messages`) when the package is imported;
raised as ``InputError.of(key, **params)``; the French is in ``flair_qgis/i18n/flair_qgis_fr.ts``.
"""

from __future__ import annotations

from ..messages import register

MESSAGES = register(
    {
        # datasets.py
        "dataset_folder_not_found": "Dataset folder not found: {root}",
        "bad_on_unpaired": "ON_UNPAIRED must be 'skip' or 'fail', got {on_unpaired!r}.",
        "no_benchmark_samples": (
            "No benchmark samples found in {root}. "
            "Looked for: FLAIR #1 (IMG_<id>.tif paired with MSK_<id>.tif, e.g. D004_2021/Z6_NU/img/"
            "IMG_000473.tif and .../msk/MSK_000473.tif); FLAIR-HUB (per-modality files such as "
            "D012-2019_AERIAL_RGBI_AF-S1-27_5-10.tif with D012-2019_AERIAL_LABEL-COSIA_AF-S1-27_5-10.tif); "
            "WeedSense (images/<name>.png|jpg|tif, masks/<name>.png, labels.csv)."
        ),
        "unknown_layout": "Unknown dataset layout {layout!r}: use auto, {choices}.",
        "unpaired_files": (
            "{count} file(s) in {root} have no partner (ON_UNPAIRED=fail):\n{shown}{more}\nAdd the missing "
            "files, remove these, or set ON_UNPAIRED=skip to score the complete samples only."
        ),
        "no_complete_sample": (
            "No complete {layout} sample in {root}. "
            "Looked for: FLAIR #1 (IMG_<id>.tif paired with MSK_<id>.tif, e.g. D004_2021/Z6_NU/img/"
            "IMG_000473.tif and .../msk/MSK_000473.tif); FLAIR-HUB (per-modality files such as "
            "D012-2019_AERIAL_RGBI_AF-S1-27_5-10.tif with D012-2019_AERIAL_LABEL-COSIA_AF-S1-27_5-10.tif); "
            "WeedSense (images/<name>.png|jpg|tif, masks/<name>.png, labels.csv)."
        ),
        "no_complete_sample_unpaired": (
            "No complete {layout} sample in {root}. Unpaired files: {unpaired}. "
            "Looked for: FLAIR #1 (IMG_<id>.tif paired with MSK_<id>.tif, e.g. D004_2021/Z6_NU/img/"
            "IMG_000473.tif and .../msk/MSK_000473.tif); FLAIR-HUB (per-modality files such as "
            "D012-2019_AERIAL_RGBI_AF-S1-27_5-10.tif with D012-2019_AERIAL_LABEL-COSIA_AF-S1-27_5-10.tif); "
            "WeedSense (images/<name>.png|jpg|tif, masks/<name>.png, labels.csv)."
        ),
        "bad_flairhub_reference": "FLAIR-HUB reference must be one of {choices}, got {label!r}.",
        "no_flairhub_reference": (
            "No {label} reference file in {root} (found references: {present}): choose the protocol that "
            "matches the labels present."
        ),
        "dataset_lacks_modality": "The model needs modality {missing} but {root} holds only {present}.",
        "duplicate_image_name": "Two images share the name {stem!r} in {image_dir}: keep one.",
        "weedsense_missing_columns": "{path} lacks column(s) {missing}: it needs a header {columns} (found: {found}).",
        "weedsense_not_numbers": (
            "{path}, line {line}: height_cm and growth_week must be numbers, got {height!r} and {week!r}."
        ),
        "bad_growth_week": "{path}, line {line}: growth_week is a week number 1..11, got {week}.",
        "image_listed_twice": "{path}, line {line}: image {stem!r} is listed twice.",
        # plan.py
        "overwrites_dataset": "{name} would overwrite a file of DATASET ({path}): choose another output file.",
        "cannot_open": "Cannot open {path}: {error}",
        "output_classes_mismatch": "Output '{name}' has {channels} channels but declares {class_count} classes.",
        "no_segmentation_output": (
            "The model has no per-pixel segmentation output ({outputs}): a benchmark scores a class map. "
            "Declare the class-map output as task 'segmentation' in 'outputs'."
        ),
        "bad_height_unit": "Output '{name}' has unit {unit!r}: height must be in cm, m or mm.",
        # runner.py
        "predictions_folder_missing": "The folder for predictions cannot be created: {parent} does not exist.",
        "onnxruntime_failed_samples": "onnxruntime failed on samples {ids} (inputs {shapes}): {error}",
        "no_sample_scored": "No sample of {root} could be scored ({failed} failed: {first}).",
        # scorer.py
        "class_index_out_of_range": "Output '{name}' gives class index {index} but declares {class_count} classes.",
        # task_metrics.py
        "height_not_finite": (
            "Height values must be finite numbers, got reference {reference} and prediction {prediction}."
        ),
        "bad_growth_stage": "Growth stage {stage} is not one of {first}..{last}.",
        "duplicate_flair1_patches": "The same FLAIR #1 patch id occurs twice (remove or move one copy): {duplicates}",
        "duplicate_flairhub_patches": "The same FLAIR-HUB patch and modality occur twice: {duplicates}",
    },
    words=(
        "none",
        "no input modality",
        "no header",
        "report",
        "per-sample CSV",
    ),
)
