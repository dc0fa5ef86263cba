"""Département-scale runs: the core segmentation engine driven by Dask distributed.

Pure planning (work units, manifest, mosaic) imports no Dask; :mod:`.runner` and
:mod:`.cluster` import it lazily, so the plugin loads and runs in-process without Dask installed.
Nothing here imports qgis. Its refusals come from the plugin's message catalogue (:mod:`.messages`,
registered here so that every module's errors can be translated by the shells).
"""

from . import messages  # noqa: F401  (registers the catalogue keys of its refusals)
