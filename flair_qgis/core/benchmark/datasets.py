"""Benchmark datasets on disk: find the samples of a FLAIR #1, FLAIR-HUB or WeedSense folder.

Three layouts are recognised, each as its authors publish it:

* ``flair1``: IGN's ``D0xx_YYYY/Zn_XX/img/IMG_<id>.tif`` with ``msk/MSK_<id>.tif``, or any folder
  tree where ``IMG_<id>.tif`` and ``MSK_<id>.tif`` pair by id.
* ``flairhub``: one file per modality and patch, named as in IGN's FLAIR-HUB index,
  ``<Dxxx>-<year>_<MODALITY>_<zone>_<row>-<col>.tif`` (e.g. ``D012-2019_AERIAL_RGBI_AF-S1-27_5-10.tif``,
  ``D012-195X_AERIAL-RLT_PAN_AF-S1-27_5-10.tif``), in any folder tree. Modalities of one patch share
  domain, zone and position; the year may differ (historic panchromatic imagery is ``195X``).
* ``weedsense``: ``images/<stem>.(png|jpg|jpeg|tif|tiff)``, ``masks/<stem>.png`` and ``labels.csv``
  with columns ``image,height_cm,growth_week``.

Discovery only lists paths (a few hundred bytes per sample); pixels are read later, one batch at
a time, by :mod:`flair_qgis.core.benchmark`.
"""

from __future__ import annotations

import csv
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..errors import InputError

LAYOUT_FLAIR1 = "flair1"
LAYOUT_FLAIRHUB = "flairhub"
LAYOUT_WEEDSENSE = "weedsense"
LAYOUTS = (LAYOUT_FLAIR1, LAYOUT_FLAIRHUB, LAYOUT_WEEDSENSE)

ON_UNPAIRED = ("skip", "fail")

#: Modality key of the single image of FLAIR #1 and WeedSense samples.
IMAGE = "IMAGE"

#: FLAIR-HUB modality names as in IGN's index CSV columns.
FLAIRHUB_MODALITIES = (
    "AERIAL_RGBI",
    "AERIAL-RLT_PAN",
    "DEM_ELEV",
    "SPOT_RGBI",
    "SENTINEL2_TS",
    "SENTINEL2_MSK-SC",
    "SENTINEL1-ASC_TS",
    "SENTINEL1-DESC_TS",
    "AERIAL_LABEL-COSIA",
    "ALL_LABEL-LPIS",
)
FLAIRHUB_LABELS = ("AERIAL_LABEL-COSIA", "ALL_LABEL-LPIS")

_RASTER_EXT = (".tif", ".tiff")
_FLAIR1_RE = re.compile(r"^(IMG|MSK)_(.+)\.tiff?$", re.IGNORECASE)
_FLAIRHUB_RE = re.compile(
    r"^(?P<domain>D\d{3})-(?P<year>[0-9X]{4})_(?P<modality>"
    + "|".join(re.escape(m) for m in sorted(FLAIRHUB_MODALITIES, key=len, reverse=True))
    + r")_(?P<patch>.+)\.tiff?$"
)
_WEEDSENSE_IMAGE_EXT = (".png", ".jpg", ".jpeg", ".tif", ".tiff")
WEEDSENSE_COLUMNS = ("image", "height_cm", "growth_week")


@dataclass(frozen=True)
class Sample:
    """One benchmark sample: its input files, its reference and its per-image targets.

    Attributes:
        sample_id: the id in the dataset's own naming (``000473``, ``D012-2019_AF-S1-27_5-10``,
            the WeedSense image stem).
        inputs: modality -> file (``IMAGE`` for single-image layouts, ``AERIAL_RGBI``... for FLAIR-HUB).
        reference: the reference mask file.
        height_cm: WeedSense plant height, or None.
        growth_week: WeedSense growth stage (week 1..11), or None.
    """

    sample_id: str
    inputs: Mapping[str, str]
    reference: str
    height_cm: float | None = None
    growth_week: int | None = None


@dataclass
class Dataset:
    """The samples found in a folder and what could not be paired.

    Attributes:
        root: the folder searched.
        layout: ``flair1``, ``flairhub`` or ``weedsense``.
        samples: paired samples, sorted by id.
        unpaired: human-readable lines, one per file that has no partner (already filtered by
            the ON_UNPAIRED policy: when the policy is ``fail`` discovery raises instead).
        modalities: input modalities present in the folder (FLAIR-HUB), else ``(IMAGE,)``.
        label_modality: FLAIR-HUB label modality used as reference, else ``""``.
        has_labels_csv: WeedSense ``labels.csv`` was found and read.
        image_targets: per-image targets the layout provides (WeedSense: ``height_cm``,
            ``growth_week``), which :attr:`Sample.height_cm` / :attr:`Sample.growth_week` hold.
    """

    root: str
    layout: str
    samples: list[Sample]
    unpaired: list[str] = field(default_factory=list)
    modalities: tuple[str, ...] = (IMAGE,)
    label_modality: str = ""
    has_labels_csv: bool = False
    image_targets: tuple[str, ...] = ()


def _walk_files(root: str) -> Iterable[tuple[str, str]]:
    """``(directory, file name)`` of every file under ``root``, in a stable order."""
    for directory, dirs, files in os.walk(root):
        dirs.sort()
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in sorted(files):
            if not name.startswith("."):
                yield directory, name


def detect_layout(root: str) -> str | None:
    """The layout of ``root``, or None when no known layout is recognised.

    WeedSense is recognised by its ``images/`` and ``masks/`` folders; otherwise the first
    FLAIR-HUB modality file or FLAIR #1 ``IMG_``/``MSK_`` file found decides.
    """
    if os.path.isdir(os.path.join(root, "images")) and os.path.isdir(os.path.join(root, "masks")):
        return LAYOUT_WEEDSENSE
    for _, name in _walk_files(root):
        if _FLAIRHUB_RE.match(name):
            return LAYOUT_FLAIRHUB
        if _FLAIR1_RE.match(name):
            return LAYOUT_FLAIR1
    return None


def discover(
    root: str | os.PathLike[str],
    layout: str = "auto",
    *,
    label_modality: str | None = None,
    required_modalities: Sequence[str] = (),
    on_unpaired: str = "skip",
) -> Dataset:
    """Find the samples of a benchmark folder.

    Args:
        root: the dataset folder.
        layout: ``auto`` or one of :data:`LAYOUTS`.
        label_modality: FLAIR-HUB reference modality (``AERIAL_LABEL-COSIA`` for land cover,
            ``ALL_LABEL-LPIS`` for crop types); default land cover.
        required_modalities: FLAIR-HUB input modalities every sample must have (the model's).
        on_unpaired: ``skip`` (list unpaired files in ``Dataset.unpaired`` and go on) or ``fail``
            (raise, listing them).

    Returns:
        The dataset.

    Raises:
        InputError: missing folder, no recognisable sample, unpaired files with ``fail``, a
            ``labels.csv`` without the needed columns, or modalities the model needs but the
            folder lacks.
    """
    root = os.path.abspath(os.fspath(root))
    if not os.path.isdir(root):
        raise InputError.of("dataset_folder_not_found", root=root)
    if on_unpaired not in ON_UNPAIRED:
        raise InputError.of("bad_on_unpaired", on_unpaired=on_unpaired)
    if layout in ("", "auto", None):
        found = detect_layout(root)
        if found is None:
            raise InputError.of("no_benchmark_samples", root=root)
        layout = found
    if layout == LAYOUT_FLAIR1:
        dataset = _discover_flair1(root)
    elif layout == LAYOUT_FLAIRHUB:
        dataset = _discover_flairhub(root, label_modality or FLAIRHUB_LABELS[0], tuple(required_modalities))
    elif layout == LAYOUT_WEEDSENSE:
        dataset = _discover_weedsense(root)
    else:
        raise InputError.of("unknown_layout", layout=layout, choices=", ".join(LAYOUTS))
    if dataset.unpaired and on_unpaired == "fail":
        shown = "\n".join(f"  {line}" for line in dataset.unpaired[:20])
        more = f"\n  ... and {len(dataset.unpaired) - 20} more" if len(dataset.unpaired) > 20 else ""
        raise InputError.of("unpaired_files", count=len(dataset.unpaired), root=root, shown=shown, more=more)
    if not dataset.samples:
        if dataset.unpaired:
            unpaired = "; ".join(dataset.unpaired[:5])
            raise InputError.of("no_complete_sample_unpaired", layout=layout, root=root, unpaired=unpaired)
        raise InputError.of("no_complete_sample", layout=layout, root=root)
    return dataset


def _discover_flair1(root: str) -> Dataset:
    images: dict[str, str] = {}
    masks: dict[str, str] = {}
    duplicates: list[str] = []
    for directory, name in _walk_files(root):
        match = _FLAIR1_RE.match(name)
        if not match:
            continue
        kind, sample_id = match.group(1).upper(), match.group(2)
        target = images if kind == "IMG" else masks
        path = os.path.join(directory, name)
        if sample_id in target:
            duplicates.append(f"{target[sample_id]} and {path}")
        target[sample_id] = path
    if duplicates:
        raise InputError.of("duplicate_flair1_patches", duplicates="; ".join(duplicates[:10]))
    unpaired = [f"image without mask: {images[i]}" for i in sorted(images.keys() - masks.keys())]
    unpaired += [f"mask without image: {masks[i]}" for i in sorted(masks.keys() - images.keys())]
    samples = [Sample(i, {IMAGE: images[i]}, masks[i]) for i in sorted(images.keys() & masks.keys())]
    return Dataset(root, LAYOUT_FLAIR1, samples, unpaired)


def _discover_flairhub(root: str, label_modality: str, required: tuple[str, ...]) -> Dataset:
    if label_modality not in FLAIRHUB_LABELS:
        raise InputError.of("bad_flairhub_reference", choices=", ".join(FLAIRHUB_LABELS), label=label_modality)
    # key (domain, patch) -> modality -> (year, path)
    patches: dict[tuple[str, str], dict[str, tuple[str, str]]] = {}
    duplicates: list[str] = []
    for directory, name in _walk_files(root):
        match = _FLAIRHUB_RE.match(name)
        if not match:
            continue
        key = (match["domain"], match["patch"])
        entry = patches.setdefault(key, {})
        path = os.path.join(directory, name)
        if match["modality"] in entry:
            duplicates.append(f"{entry[match['modality']][1]} and {path}")
        entry[match["modality"]] = (match["year"], path)
    if duplicates:
        raise InputError.of("duplicate_flairhub_patches", duplicates="; ".join(duplicates[:10]))
    present = sorted({m for entry in patches.values() for m in entry if m not in FLAIRHUB_LABELS})
    labels_present = sorted({m for entry in patches.values() for m in entry if m in FLAIRHUB_LABELS})
    if patches and label_modality not in labels_present:
        raise InputError.of(
            "no_flairhub_reference", label=label_modality, root=root, present=", ".join(labels_present) or "none"
        )
    missing = [m for m in required if m not in present]
    if patches and missing:
        raise InputError.of(
            "dataset_lacks_modality",
            missing=", ".join(missing),
            root=root,
            present=", ".join(present) or "no input modality",
        )
    needed = required or tuple(m for m in ("AERIAL_RGBI",) if m in present) or tuple(present[:1])
    samples: list[Sample] = []
    unpaired: list[str] = []
    for key in sorted(patches):
        entry = patches[key]
        if label_modality not in entry:
            for modality in needed:
                if modality in entry:
                    unpaired.append(f"{modality} without {label_modality}: {entry[modality][1]}")
            continue
        year, reference = entry[label_modality]
        lacking = [m for m in needed if m not in entry]
        if lacking:
            unpaired.append(f"reference without {', '.join(lacking)}: {reference}")
            continue
        sample_id = f"{key[0]}-{year}_{key[1]}"
        samples.append(Sample(sample_id, {m: entry[m][1] for m in needed}, reference))
    return Dataset(root, LAYOUT_FLAIRHUB, samples, unpaired, tuple(present), label_modality)


def _discover_weedsense(root: str) -> Dataset:
    images: dict[str, str] = {}
    masks: dict[str, str] = {}
    image_dir, mask_dir = os.path.join(root, "images"), os.path.join(root, "masks")
    for name in sorted(os.listdir(image_dir)):
        stem, ext = os.path.splitext(name)
        if ext.lower() in _WEEDSENSE_IMAGE_EXT and not name.startswith("."):
            if stem in images:
                raise InputError.of("duplicate_image_name", stem=stem, image_dir=image_dir)
            images[stem] = os.path.join(image_dir, name)
    for name in sorted(os.listdir(mask_dir)):
        stem, ext = os.path.splitext(name)
        if ext.lower() == ".png" and not name.startswith("."):
            masks[stem] = os.path.join(mask_dir, name)
    labels = _read_weedsense_labels(os.path.join(root, "labels.csv"))
    unpaired = [f"image without mask: {images[s]}" for s in sorted(images.keys() - masks.keys())]
    unpaired += [f"mask without image: {masks[s]}" for s in sorted(masks.keys() - images.keys())]
    samples = []
    for stem in sorted(images.keys() & masks.keys()):
        if labels is not None and stem not in labels:
            unpaired.append(f"image without a labels.csv row: {images[stem]}")
            continue
        height, week = labels[stem] if labels is not None else (None, None)
        samples.append(Sample(stem, {IMAGE: images[stem]}, masks[stem], height, week))
    if labels is not None:
        unpaired += [f"labels.csv row without image: {s}" for s in sorted(labels.keys() - images.keys())]
    return Dataset(
        root,
        LAYOUT_WEEDSENSE,
        samples,
        unpaired,
        has_labels_csv=labels is not None,
        image_targets=("height_cm", "growth_week"),
    )


def _read_weedsense_labels(path: str) -> dict[str, tuple[float, int]] | None:
    """``stem -> (height_cm, growth_week)`` from ``labels.csv``, or None when it is absent.

    Raises:
        InputError: a column is missing or a value is not a number (the line is named).
    """
    if not os.path.isfile(path):
        return None
    labels: dict[str, tuple[float, int]] = {}
    with open(path, newline="", encoding="utf-8-sig") as handle:
        reader = csv.DictReader(handle)
        columns = [c.strip() for c in (reader.fieldnames or [])]
        missing = [c for c in WEEDSENSE_COLUMNS if c not in columns]
        if missing:
            raise InputError.of(
                "weedsense_missing_columns",
                path=path,
                missing=", ".join(missing),
                columns=",".join(WEEDSENSE_COLUMNS),
                found=",".join(columns) or "no header",
            )
        for line, raw_row in enumerate(reader, start=2):
            row = {k.strip(): (v or "").strip() for k, v in raw_row.items() if k is not None}
            stem = os.path.splitext(os.path.basename(row["image"]))[0]
            try:
                height = float(row["height_cm"])
                week_f = float(row["growth_week"])
            except ValueError:
                raise InputError.of(
                    "weedsense_not_numbers", path=path, line=line, height=row["height_cm"], week=row["growth_week"]
                ) from None
            if week_f != int(week_f):
                raise InputError.of("bad_growth_week", path=path, line=line, week=week_f)
            if stem in labels:
                raise InputError.of("image_listed_twice", path=path, line=line, stem=stem)
            labels[stem] = (height, int(week_f))
    return labels
