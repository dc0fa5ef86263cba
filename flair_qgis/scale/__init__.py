"""Département-scale runs: the core segmentation engine driven by Dask distributed.

Pure planning (work units, manifest, mosaic) imports no Dask; :mod:`.runner` and
:mod:`.cluster` import it lazily, so the plugin loads and runs in-process without Dask installed.
Nothing here imports qgis.
"""
