"""Model-alone limits for bench_gpu.py: the wrapped session fed one batch again and again.

``host_limit``: host arrays in and out (``session.run``), as the engine feeds it. On CUDA,
``device_limits`` adds the same with inputs and outputs resident on the GPU (IO binding, no copy),
an FP16 conversion of the model (inputs and outputs kept float32), and the CUDA provider options
the engine leaves at onnxruntime's defaults until measured (cuDNN exhaustive search, NHWC,
CUDA graphs).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from flair_qgis.core.engine import sessions as engine
from flair_qgis.core.engine.wrapped_graph import create_run_session, fused_model, plan_fusion
from flair_qgis.core.segment.tile_pipeline import TilePipeline

SECONDS = 3.0


def _batch(plan, batch: int):
    """One batch of raw feeds read by the engine's reader, and the fusion it was read for (the
    engine rows' own: no confidence)."""
    dtypes = [getattr(s, "dtype", None) for s in plan.sources]
    fusion = plan_fusion(plan.model, plan.heads, dtypes, want_confidence=False)
    pipeline = TilePipeline(
        None, plan.model.inputs, plan.sources, [1.0], [], list(plan.tiles[:batch]), plan.tile_px, batch,
        lambda: False, fusion=fusion, readers=1,
    )  # fmt: skip
    _tiles, feeds, _valid = next(iter(pipeline.reads(threading.Event())))
    return feeds, fusion


def _rate(run: Callable[[], object], tiles: int) -> float:
    run()  # warm-up: cuDNN search, arena growth
    run()
    count, started = 0, time.perf_counter()
    while time.perf_counter() - started < SECONDS:
        run()
        count += 1
    return count * tiles / (time.perf_counter() - started)


def host_limit(plan, device: str, batch: int) -> float:
    """Tiles/s of the wrapped session alone: raw host arrays in, class indices back to the host."""
    feeds, fusion = _batch(plan, batch)
    session, _info, fusion = create_run_session(
        plan.model, plan.heads, [f.dtype for f in fusion.inputs], True, device, None
    )
    names = fusion.output_names
    return _rate(lambda: session.run(names, feeds), len(plan.tiles[:batch]))


def _resident(session, feeds: dict, outputs: dict) -> Callable[[], object]:
    """A run with inputs copied to the GPU once and outputs written to preallocated GPU buffers
    (fixed addresses, as CUDA graphs need)."""
    import onnxruntime as ort

    io = session.io_binding()
    kept = []
    for name, value in feeds.items():
        kept.append(ort.OrtValue.ortvalue_from_numpy(value, "cuda", 0))
        io.bind_ortvalue_input(name, kept[-1])
    for name, (shape, dtype) in outputs.items():
        kept.append(ort.OrtValue.ortvalue_from_shape_and_type(shape, dtype, "cuda", 0))
        io.bind_ortvalue_output(name, kept[-1])
    return lambda: (session.run_with_iobinding(io), kept)


def _session(plan, fusion, model_bytes: bytes | None = None, **cuda_options: str):
    saved = dict(engine.CUDA_OPTIONS)
    engine.CUDA_OPTIONS.update(cuda_options)
    try:
        data = fused_model(plan.model.path, plan.model, fusion, model_bytes)
        return engine.create_session(plan.model.path, "cuda", None, model_bytes=data.data)[0]
    finally:
        engine.CUDA_OPTIONS.clear()
        engine.CUDA_OPTIONS.update(saved)


def fp16_bytes(path: str) -> bytes:
    """The model converted to FP16 with float32 inputs and outputs (onnxruntime's converter)."""
    import onnx
    from onnxruntime.transformers.float16 import convert_float_to_float16

    return convert_float_to_float16(onnx.load(path), keep_io_types=True).SerializeToString()


def device_limits(plan, batch: int, line: Callable[[str, str], None], name: str) -> dict:
    """Model-alone rows on CUDA: resident, FP16 resident, and each provider option."""
    feeds, fusion = _batch(plan, batch)
    names, tiles = fusion.output_names, len(plan.tiles[:batch])
    probe = _session(plan, fusion).run(names, feeds)  # the outputs' shapes, for the GPU buffers
    outputs = {name: (value.shape, value.dtype.type) for name, value in zip(names, probe)}
    figures = {}
    variants: dict[str, tuple[bytes | None, dict[str, str]]] = {
        "resident": (None, {}),
        "resident cudnn exhaustive": (None, {"cudnn_conv_algo_search": "EXHAUSTIVE"}),
        "resident nhwc": (None, {"prefer_nhwc": "1"}),
        "resident cuda graph": (None, {"enable_cuda_graph": "1"}),
    }
    try:
        variants["resident fp16"] = (fp16_bytes(plan.model.path), {})
    except Exception as err:  # a row skipped with its reason
        line(f"{name}: model alone, fp16", f"skipped ({str(err)[:100]})")
    for label, (data, options) in variants.items():
        try:
            session = _session(plan, fusion, data, **options)
            rate = _rate(_resident(session, feeds, outputs), tiles)
        except Exception as err:  # an option this onnxruntime refuses is a row, not a stop
            line(f"{name}: model alone, {label}", f"failed ({str(err).splitlines()[0][:100]})")
            continue
        figures[f"model_{label.replace(' ', '_')}_tiles_s"] = rate
        line(f"{name}: model alone, {label}", f"{rate:.1f} tiles/s")
    return figures
