"""Engine: what every job shares to run a model over rasters, one module per thing it owns.

- the model: :mod:`.model` (what it eats and returns, from :mod:`.metadata`), :mod:`.bands`
  (which layer band feeds which channel), :mod:`.heads` and :mod:`.multi` (what each output means);
- its session: :mod:`.sessions` (provider and device, decided once), :mod:`.wrapped_graph` and
  :mod:`.graph_nodes` (pre- and post-processing inside the graph), :mod:`.half_precision` (fp16),
  :mod:`.io_binding`, :mod:`.postprocess` (scores into classes);
- the rasters: :mod:`.grid` (grids and tile layouts), :mod:`.pixel_sources` (windows read with a
  validity mask), :mod:`.tile_reads` (tiles into feeds), :mod:`.source_stamps` (every file behind a
  raster), :mod:`.geotiff` (outputs written completely or not at all);
- :mod:`.plain_json`: frozen requests as JSON (what crosses to Dask workers, never a pickle);
- :mod:`.stages`: the three-stage runner every pipeline uses.

It imports only the shared modules at ``core/`` root; every job (``segment``, ``score``, ``review``,
``vectorize``, ``quantize``, ``benchmark``) imports it, and no job imports another's inner modules.
Callers outside ``core/`` import the names below.
"""

from . import messages  # noqa: F401 - registers the package's message templates before any of its errors
from .bands import band_label, channel_labels, check_band_numbers, choose_bands, parse_band_list, propose_bands
from .geotiff import cap_gdal_cache, qml_style
from .grid import Grid, Tile, affine_xy, tile_layout
from .half_precision import PRECISIONS
from .heads import HeadPlan, check_supported, plan_heads
from .messages import Note
from .metadata import GUESSED_CLASSES, GUESSED_NORMALISATION
from .model import TASK_SEGMENTATION, InputSpec, ModelInfo, OutputSpec, read_model_info
from .pixel_sources import (
    CapturedRaster,
    PixelSource,
    RasterFile,
    RasterioSource,
    SourceFactory,
    WindowReader,
    capture_file,
    file_source,
)
from .plain_json import from_json, from_plain, to_json, to_plain
from .sessions import CPU, CUDA, DEVICES, DeviceDecision, SessionInfo, create_session, cuda_available, decide_device
from .source_stamps import describe_source_files, is_remote
from .wrapped_graph import Fusion

__all__ = [
    "CPU",
    "CUDA",
    "DEVICES",
    "GUESSED_CLASSES",
    "GUESSED_NORMALISATION",
    "PRECISIONS",
    "TASK_SEGMENTATION",
    "CapturedRaster",
    "DeviceDecision",
    "Fusion",
    "Grid",
    "HeadPlan",
    "InputSpec",
    "ModelInfo",
    "Note",
    "OutputSpec",
    "PixelSource",
    "RasterFile",
    "RasterioSource",
    "SessionInfo",
    "SourceFactory",
    "Tile",
    "WindowReader",
    "affine_xy",
    "band_label",
    "cap_gdal_cache",
    "capture_file",
    "channel_labels",
    "check_band_numbers",
    "check_supported",
    "choose_bands",
    "create_session",
    "cuda_available",
    "decide_device",
    "describe_source_files",
    "file_source",
    "from_json",
    "from_plain",
    "is_remote",
    "parse_band_list",
    "plan_heads",
    "propose_bands",
    "qml_style",
    "read_model_info",
    "tile_layout",
    "to_json",
    "to_plain",
]
