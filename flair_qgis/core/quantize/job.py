"""One quantisation, start to end: refuse, draw tiles, read them, quantise, validate.

Both shells (``flair:quantize`` and ``scripts/export-onnx --quantize``) capture their layers and
call :func:`quantize`, which also times INT8 against FP32 on this CPU (:mod:`.speed`)::

    result = quantize(QuantizeRequest("fp32.onnx", "int8.onnx"), [capture_file("a.tif")])
    result.validation.agreement   # share of held-out pixels where INT8 == FP32
    result.speed.speedup          # FP32 seconds / INT8 seconds here, with flair:segment's threads
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ..atomic import job_outputs
from ..engine.model import ModelInfo, read_model_info
from ..engine.pixel_sources import CapturedRaster, SourceFactory, file_source
from ..engine.sessions import create_session, default_threads
from ..engine.stages import ignore_progress, never_canceled
from .cpu import CpuIdentity, Int8Capability, Int8Format, choose_format, cpu_identity, int8_capability
from .int8 import QuantizeOptions, calibration_names, check_quantizable, quantization_entry, quantize_model, write_int8
from .speed import SpeedUp, measure_speedup, model_pass
from .tiles import LayerTiles, TileDraw, draw_tiles, layer_tiles, read_tiles
from .validation import Agreement, centred_valid, class_maps, compare_class_maps

DEFAULT_CALIBRATION_TILES = 32
DEFAULT_VALIDATION_TILES = 8
NOT_TIMED = "INT8 was not timed against FP32: no validation or calibration tile to time it on."
NOT_VALIDATED = "No validation tile: INT8 was not compared with FP32."


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
        threads: intra-op threads of the validation and timing sessions; None for all cores, as
            ``flair:segment`` uses (the speed-up is measured and recorded for this count).
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
        warnings: what the user should read, in this order: fewer tiles than asked, INT8 not
            compared with FP32 or agreeing with it too little, INT8 not timed or not worth it. Every
            shell shows them as they are.
        sources: the calibration layers' names.
        speed: INT8 timed against FP32 on this CPU (validation tiles, else calibration tiles),
            None when there was no tile to time.
        cpu: the CPU it was timed on.
        int8_format: the format written for this CPU.
    """

    output_path: str
    sha256: str
    draw: TileDraw
    validation: Agreement | None
    capability: Int8Capability
    seconds: float
    warnings: tuple[str, ...] = ()
    sources: tuple[str, ...] = field(default_factory=tuple)
    speed: SpeedUp | None = None
    cpu: CpuIdentity | None = None
    int8_format: Int8Format | None = None


def quantize(
    request: QuantizeRequest,
    rasters: Sequence[CapturedRaster],
    make_source: SourceFactory = file_source,
    *,
    is_canceled: Callable[[], bool] = never_canceled,
    on_progress: Callable[[float], None] = ignore_progress,
) -> QuantizeResult:
    """Quantise ``request.model_path`` to INT8, calibrated, validated and timed on ``rasters``.

    The FP32 model is pre-processed and quantised into a working folder; INT8 is compared with
    FP32 and timed against it there, and only then written to ``request.output_path`` with what
    was measured in its ``quantization`` metadata.

    Raises:
        InputError: OUTPUT is MODEL or cannot be written, bad counts, bands that do not fit.
        ModelError: an already quantised model, operators the quantiser cannot handle.
        NotSupportedError: a multi-input model.
        Canceled: the user canceled; ``removed`` lists the files deleted (none unless the cancel
            came once the INT8 model was in place: a file already at OUTPUT stays until then).
    """
    start = time.perf_counter()
    output = check_quantizable(request.model_path, request.output_path)
    model = read_model_info(request.model_path)
    layers, tile_px = layer_tiles(model, rasters, make_source)
    draw, calibration, validation_inputs = _draw_and_read(request, model, layers, tile_px, is_canceled)
    on_progress(15.0)
    names = calibration_names([layer.name for layer in layers])
    capability, cpu = int8_capability(), cpu_identity()
    options = _quantize_options(request, capability)
    threads = request.threads or default_threads()
    timing_inputs = validation_inputs[0] if validation_inputs else calibration[:DEFAULT_VALIDATION_TILES]
    with job_outputs(is_canceled) as written, tempfile.TemporaryDirectory(prefix="flair_quantize_") as folder:
        int8_path = os.path.join(folder, "int8.onnx")
        excluded = quantize_model(request.model_path, int8_path, model.input.name, calibration, options)
        on_progress(50.0)
        validation, speed = _compare(
            request.model_path, int8_path, model, validation_inputs, timing_inputs, threads, is_canceled, on_progress
        )
        record = {
            **_calibration_record(names, draw, request.seed, tile_px, model),
            **_speed_record(speed, cpu, threads),
        }
        entry = quantization_entry(request.model_path, replace(options, nodes_to_exclude=excluded), record)
        sha256 = write_int8(int8_path, request.model_path, output, entry)
        written.add(output)
        on_progress(100.0)
    return QuantizeResult(
        output_path=output,
        sha256=sha256,
        draw=draw,
        validation=validation,
        capability=capability,
        seconds=time.perf_counter() - start,
        warnings=_warnings(draw, validation, speed),
        sources=tuple(names),
        speed=speed,
        cpu=cpu,
        int8_format=options.int8_format,
    )


def _quantize_options(request: QuantizeRequest, capability: Int8Capability) -> QuantizeOptions:
    """The quantiser's options: the request's method and choices, in the INT8 format this CPU runs.

    Args:
        request: the method, calibrator, FP32 ends and weight range asked for.
        capability: this CPU's INT8 capability, which decides the format (:func:`.cpu.choose_format`).

    Returns:
        The options :func:`.int8.quantize_model` quantises with.
    """
    return QuantizeOptions(
        method=request.method,
        calibrator=request.calibrator,
        keep_ends_fp32=request.keep_ends_fp32,
        reduce_range=request.reduce_range,
        int8_format=choose_format(capability),
    )


def _draw_and_read(
    request: QuantizeRequest,
    model: ModelInfo,
    layers: Sequence[LayerTiles],
    tile_px: int,
    is_canceled: Callable[[], bool],
) -> tuple[TileDraw, np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
    """Draw the tiles; read the calibration tiles and the validation ``(inputs, valid)`` (None without any)."""
    wanted_calibration = request.calibration_tiles if request.method == "static" else 1
    draw = draw_tiles(
        [len(layer.tiles) for layer in layers], wanted_calibration, request.validation_tiles, request.seed
    )
    if request.method != "static":
        draw = TileDraw((), draw.validation, ())
    calibration, _ = read_tiles(model, layers, draw.calibration, tile_px, is_canceled)
    validation = read_tiles(model, layers, draw.validation, tile_px, is_canceled) if draw.validation else None
    return draw, calibration, validation


def _compare(
    model_path: str,
    int8_path: str,
    model: ModelInfo,
    validation: tuple[np.ndarray, np.ndarray] | None,
    timing_inputs: np.ndarray,
    threads: int,
    is_canceled: Callable[[], bool],
    on_progress: Callable[[float], None],
) -> tuple[Agreement | None, SpeedUp | None]:
    """INT8 against FP32: class maps on the validation tiles, then time on ``timing_inputs``.

    Both sessions are built as ``flair:segment`` builds them, with ``threads``; the validation
    passes warm them up for the timing.
    """
    fp32_session, _ = create_session(model_path, "cpu", threads)
    int8_session, _ = create_session(int8_path, "cpu", threads)
    agreement = None
    if validation is not None:
        inputs, valid = validation
        fp32 = class_maps(model_path, model, inputs, session=fp32_session, is_canceled=is_canceled)
        on_progress(60.0)
        int8 = class_maps(int8_path, model, inputs, session=int8_session, is_canceled=is_canceled)
        agreement = compare_class_maps(fp32, int8, centred_valid(valid, fp32.shape), model, len(inputs))
        on_progress(70.0)
    if not len(timing_inputs):
        return agreement, None
    fixed = model.input.fixed_batch
    speed = measure_speedup(
        model_pass(fp32_session, timing_inputs, fixed),
        model_pass(int8_session, timing_inputs, fixed),
        threads=threads,
        tiles=len(timing_inputs),
        warm_up=validation is None,
        is_canceled=is_canceled,
    )
    on_progress(95.0)
    return agreement, speed


def _calibration_record(
    names: list[str], draw: TileDraw, seed: int, tile_px: int, model: ModelInfo
) -> dict[str, object]:
    """The ``quantization`` metadata of the calibration: what the INT8 model was calibrated on.

    Args:
        names: the calibration layers' names.
        draw: the tiles drawn (their calibration tiles are counted).
        seed: the seed that drew them.
        tile_px: the tiles' side in pixels.
        model: the FP32 model (its display name is recorded).

    Returns:
        The record's calibration keys, in the order the metadata has always listed them.
    """
    return {
        "calibration_source": names,
        "calibration_tiles": len(draw.calibration),
        "seed": seed,
        "tile_size_px": tile_px,
        "fp32_name": model.display_name,
    }


def _speed_record(speed: SpeedUp | None, cpu: CpuIdentity, threads: int) -> dict[str, object]:
    """The ``quantization`` metadata of the timing: speed-up, threads, and the CPU it holds for."""
    timing: dict[str, object] = dict(speed.record()) if speed else {"speedup": None, "threads": threads}
    return {**timing, "cpu": cpu.name, "cpu_flags": list(cpu.flags)}


def _warnings(draw: TileDraw, validation: Agreement | None, speed: SpeedUp | None) -> tuple[str, ...]:
    """What the user must read, in the order every shell shows it (:attr:`QuantizeResult.warnings`).

    Args:
        draw: the tiles drawn (fewer than asked is said first).
        validation: INT8 against FP32, None when not compared.
        speed: INT8 timed against FP32, None when not timed.

    Returns:
        The tile draw's warnings, then the comparison's, then the timing's.
    """
    return (*draw.warnings, *_validation_warnings(validation), *_speed_warnings(speed))


def _validation_warnings(validation: Agreement | None) -> tuple[str, ...]:
    """What the user must read about the comparison: none made, or an agreement below the threshold."""
    if validation is None:
        return (NOT_VALIDATED,)
    return (validation.warning,) if validation.warning else ()


def _speed_warnings(speed: SpeedUp | None) -> tuple[str, ...]:
    """What the user must read about speed: INT8 not worth it here, or not timed at all."""
    if speed is None:
        return (NOT_TIMED,)
    return (speed.warning,) if speed.warning else ()
