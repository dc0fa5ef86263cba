"""The messages of distributed runs' errors (scheduler, workers, output folder, resume): key -> English template.

Registered in the plugin's catalogue (:mod:`flair_qgis.core.messages`) when :mod:`flair_qgis.scale` is
imported; raised as ``InputError.of(key, **params)``; the dock and Processing translate them
(:func:`flair_qgis.i18n.errors.error_text`), ``scripts/flair`` prints the English. Refusals of
``scripts/flair``'s own flags (``--workers``, ``--gpus``, ``--vector…``) are here too: the same
catalogue, whoever meets them.
"""

from __future__ import annotations

from ..core.messages import register

MESSAGES = register(
    {
        # chunks.py
        "chunk_tiles_too_low": "--chunk-tiles must be at least 1, got {chunk_tiles}.",
        # cluster.py
        "dask_missing": (
            "Dask distributed is not installed in this Python: install it with "
            "`python3 -m pip install 'dask[distributed]'` (the project's `make setup` does), or run without a "
            "scheduler."
        ),
        "local_workers_too_low": "SCHEDULER local:N needs a number of workers N >= 1, got {text!r}.",
        "bad_scheduler": "SCHEDULER must be empty, local:N or an address like tcp://host:8786, got {text!r}.",
        "no_gpu_for_gpus": (
            "--gpus needs an NVIDIA GPU, and nvidia-smi lists none on this machine: "
            "drop --gpus to run on the CPU, or run where `nvidia-smi -L` answers."
        ),
        "bad_gpus": "--gpus must be 'all' or distinct GPU indices among {available} (nvidia-smi -L), got {text!r}.",
        "scheduler_unreachable": (
            "Cannot reach the Dask scheduler at {scheduler} within {seconds} s ({reason}): check the address and "
            "that `dask scheduler` runs there, or drop --scheduler for a local cluster."
        ),
        "scheduler_without_workers": (
            "The Dask scheduler at {scheduler} has no worker: start some with `dask worker {scheduler}` on "
            "machines that see the input and the model."
        ),
        "workers_lack_packages": (
            "{workers}. Install onnxruntime, rasterio and this project on every worker (or put it on the "
            "workers' PYTHONPATH) and restart them."
        ),
        "workers_not_pinned": (
            "The workers are not pinned one per GPU ({seen}; expected {expected}): check that nothing overrides "
            "CUDA_VISIBLE_DEVICES in the workers."
        ),
        # manifest.py
        "output_dir_is_file": "--output-dir {folder} is a file: give a folder (new or holding an earlier run).",
        "output_dir_dangling_link": (
            "--output-dir {folder} is a link to {target}, which does not exist: create that folder or give "
            "another --output-dir."
        ),
        "output_dir_not_creatable": "Cannot create --output-dir {folder} ({reason}): give a folder you can write to.",
        "output_dir_not_a_run": (
            "The output folder {folder} holds other files ({entries}) and no {manifest}: choose a new or empty "
            "folder (nothing was changed)."
        ),
        "manifest_unreadable": "{path} cannot be read ({reason}): remove it or choose another folder.",
        "not_a_manifest": "{path} is not a flair run manifest: choose a new or empty folder.",
        "input_changed_since_run": (
            "Input file {file}{more} changed since the run in {folder} started: its chunks would mix old and new "
            "pixels. Give --force to recompute every chunk, or restore the file."
        ),
        "other_run_in_folder": (
            "The output folder {folder} holds a run with {differences}: its chunks would not match. Give --force "
            "(scripts/flair) to discard it and start again, run with the same options, or choose another folder "
            "(another OUTPUT in flair:segment)."
        ),
        # mosaic.py
        "mosaic_failed": "GDAL could not build the mosaic {path}: {reason}",
        # plan.py
        "distributed_one_input": (
            "The model has {inputs} inputs: distributed runs take one input raster; run it in-process (no scheduler)."
        ),
        "distributed_no_cache": (
            "CACHE is not used by distributed runs (they resume by chunk): leave CACHE or SCHEDULER empty."
        ),
        "distributed_no_mask": "A MASK is not applied by distributed runs yet: leave MASK or SCHEDULER empty.",
        "model_file_missing": "The model file {path} does not exist.",
        "input_raster_unreadable": "Cannot open the input raster {path}: {reason}",
        # vector.py
        "vector_option_negative": "{flag} must be 0 or more, got {value:g}.",
        "vector_path_is_folder": "--vector {path} is a folder: give a file name such as predictions.gpkg.",
        "chunk_polygons_unreadable": "Cannot read the chunk polygons {path} ({reason}): delete it and run again.",
        # worker.py
        "worker_model_differs": (
            "Worker {host} sees another file at {path} than the one the run was planned with: give every worker "
            "the same model file."
        ),
        # cli.py (scripts/flair segment's flags)
        "workers_too_low": "--workers must be at least 1, got {workers}.",
        "gpus_with_cpu": "--gpus runs one worker per GPU: drop --device cpu, or drop --gpus to run on the CPU.",
        "vector_options_need_vector": (
            "--vector-min-area, --vector-simplify and --vector-fill-holes need --vector PATH.gpkg."
        ),
    }
)
