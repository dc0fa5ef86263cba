"""One quantisation, start to end: refuse, draw tiles, read them, quantise, validate.

Both shells (``flair:quantize`` and ``scripts/export-onnx --quantize``) capture their layers and
call :func:`quantize`::

    result = quantize(QuantizeRequest("fp32.onnx", "int8.onnx"), [capture_file("a.tif")])
    result.validation.agreement   # share of held-out pixels where INT8 == FP32
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..segment.model import read_model_info
from ..segment.pipeline import ignore_progress, never_canceled
from ..segment.plan import CapturedRaster, SourceFactory, file_source
from .cpu import Int8Capability, int8_capability
from .int8 import QuantizeOptions, calibration_names, check_quantizable, end_convolutions, quantize_file
from .tiles import TileDraw, draw_tiles, layer_tiles, read_tiles
from .validation import Agreement, centred_valid, class_maps, compare_class_maps

DEFAULT_CALIBRATION_TILES = 32
DEFAULT_VALIDATION_TILES = 8


@dataclass(frozen=True)
class QuantizeRequest:
    """What the user asks of one quantisation.

    Attributes:
        model_path: the FP32 ONNX model.
        output_path: the INT8 ONNX model to write (never ``model_path``).
        calibration_tiles: tiles the activation ranges are measured on (static method).
        validation_tiles: held-out tiles INT8 is compared with FP32 on (0: no comparison).
        seed: draws the tiles; the same seed and inputs give the same file.
        method: ``static`` or ``dynamic``.
        calibrator: ``minmax``, ``percentile`` or ``entropy``.
        keep_ends_fp32: keep the first and the last convolution in FP32.
        reduce_range: 7-bit weights (see :class:`.int8.QuantizeOptions`).
        threads: CPU threads for calibration and validation runs; None for all cores.
    """

    model_path: str
    output_path: str
    calibration_tiles: int = DEFAULT_CALIBRATION_TILES
    validation_tiles: int = DEFAULT_VALIDATION_TILES
    seed: int = 0
    method: str = "static"
    calibrator: str = "minmax"
    keep_ends_fp32: bool = False
    reduce_range: bool = False
    threads: int | None = None


@dataclass(frozen=True)
class QuantizeResult:
    """What a quantisation wrote and measured.

    Attributes:
        output_path: the INT8 model.
        sha256: its SHA-256.
        draw: the calibration and validation tiles.
        validation: INT8 against FP32 on the validation tiles, None without any.
        capability: the CPU's INT8 capability.
        seconds: wall time.
        warnings: what the user should read.
        sources: the calibration layers' names.
    """

    output_path: str
    sha256: str
    draw: TileDraw
    validation: Agreement | None
    capability: Int8Capability
    seconds: float
    warnings: tuple[str, ...] = ()
    sources: tuple[str, ...] = field(default_factory=tuple)


def quantize(
    request: QuantizeRequest,
    rasters: Sequence[CapturedRaster],
    make_source: SourceFactory = file_source,
    *,
    is_canceled: Callable[[], bool] = never_canceled,
    on_progress: Callable[[float], None] = ignore_progress,
) -> QuantizeResult:
    """Quantise ``request.model_path`` to INT8, calibrated and validated on ``rasters``.

    Raises:
        InputError: OUTPUT is MODEL or cannot be written, bad counts, bands that do not fit.
        ModelError: an already quantised model, operators the quantiser cannot handle.
        NotSupportedError: a multi-input model.
        Canceled: the user canceled; nothing was written.
    """
    start = time.perf_counter()
    output = check_quantizable(request.model_path, request.output_path)
    model = read_model_info(request.model_path)
    layers, tile_px = layer_tiles(model, rasters, make_source)
    wanted_calibration = request.calibration_tiles if request.method == "static" else 1
    draw = draw_tiles(
        [len(layer.tiles) for layer in layers], wanted_calibration, request.validation_tiles, request.seed
    )
    if request.method != "static":
        draw = TileDraw((), draw.validation, ())
    on_progress(5.0)
    calibration, _ = read_tiles(model, layers, draw.calibration, tile_px, is_canceled)
    on_progress(15.0)
    names = calibration_names([layer.name for layer in layers])
    options = QuantizeOptions(
        method=request.method,
        calibrator=request.calibrator,
        nodes_to_exclude=end_convolutions(request.model_path) if request.keep_ends_fp32 else (),
        reduce_range=request.reduce_range,
    )
    record = {"calibration_source": names, "calibration_tiles": len(draw.calibration), "seed": request.seed,
              "tile_size_px": tile_px, "fp32_name": model.display_name}  # fmt: skip
    sha256 = quantize_file(request.model_path, output, model.input.name, calibration, options, record)
    on_progress(60.0)
    validation = None
    if draw.validation:
        inputs, valid = read_tiles(model, layers, draw.validation, tile_px, is_canceled)
        fp32 = class_maps(request.model_path, model, inputs, threads=request.threads, is_canceled=is_canceled)
        on_progress(80.0)
        int8 = class_maps(output, read_model_info(output), inputs, threads=request.threads, is_canceled=is_canceled)
        validation = compare_class_maps(fp32, int8, centred_valid(valid, fp32.shape), model, len(draw.validation))
    on_progress(100.0)
    return QuantizeResult(
        output_path=output,
        sha256=sha256,
        draw=draw,
        validation=validation,
        capability=int8_capability(),
        seconds=time.perf_counter() - start,
        warnings=draw.warnings,
        sources=tuple(names),
    )
