"""Tiled segmentation of a raster extent: the one function behind the task and the algorithm.

The pipeline runs three stages at once so that the model never waits for I/O:

``reader thread`` reads a batch of tiles (GDAL releases the GIL) and normalises it in place
into a float32 ``(batch, channels, rows, cols)`` array; ``calling thread`` runs onnxruntime on
it (which releases the GIL); ``writer thread`` turns scores into classes on the tile cores only
and writes whole GeoTIFF blocks. Queues of two batches bound memory to a few batches, whatever
the extent.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np
import rasterio

from .engine import SessionInfo, create_session
from .errors import Canceled, InputError, ModelError, NotSupportedError
from .grid import Grid, Tile, batched, core_stride_px, tile_layout
from .model import TASK_SEGMENTATION, InputSpec, ModelInfo, OutputSpec
from .sources import PixelSource, WindowReader
from .writer import WRITE_CACHE_MB, AtomicGeoTiff, check_output_path, nodata_for

CONFIDENCE_NODATA = -1.0
_QUEUE_BATCHES = 2


@dataclass(frozen=True)
class SegmentRequest:
    """A frozen description of one run; everything the worker needs.

    Attributes:
        output_path: class-map GeoTIFF to write.
        confidence_path: optional GeoTIFF of the winning class's probability (0..1).
        tile_size_px: model input edge; None for the model's default.
        overlap_px: overlap between tiles; None for the model's default.
        batch_size: tiles per onnxruntime call.
        device: ``auto``, ``cuda`` or ``cpu``.
        threads: CPU threads for onnxruntime; None for all cores.
    """

    output_path: str
    confidence_path: str | None = None
    tile_size_px: int | None = None
    overlap_px: int | None = None
    batch_size: int = 4
    device: str = "auto"
    threads: int | None = None


@dataclass
class SegmentResult:
    """What a run produced.

    Attributes:
        output_path: the class map written.
        confidence_path: the confidence raster written, or None.
        session: which execution provider ran.
        grid: the output grid.
        tiles: tiles processed.
        seconds: wall time of the run, session creation included.
        class_pixels: pixel count per class value over the valid pixels.
        warnings: messages the user should see.
    """

    output_path: str
    confidence_path: str | None
    session: SessionInfo
    grid: Grid
    tiles: int
    seconds: float
    class_pixels: dict[int, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    @property
    def km2_per_hour(self) -> float:
        """Ground area processed per hour."""
        return self.grid.area_km2 / self.seconds * 3600.0 if self.seconds > 0 else 0.0


def _noop_progress(_percent: float) -> None:
    return None


def _never() -> bool:
    return False


def _resolve_tiling(model: ModelInfo, request: SegmentRequest) -> tuple[int, int, int]:
    spec = model.input
    tile = request.tile_size_px or model.tile_size_px
    if spec.tile_size_px is not None and tile != spec.tile_size_px:
        raise InputError(
            f"The model has a fixed input of {spec.tile_size_px} px: set TILE_SIZE to "
            f"{spec.tile_size_px} (or leave it empty)."
        )
    overlap = model.overlap_px if request.overlap_px is None else request.overlap_px
    overlap = min(overlap, tile - 16) if request.overlap_px is None else overlap
    batch = max(1, int(request.batch_size))
    if spec.fixed_batch is not None:
        batch = spec.fixed_batch
    return tile, overlap, batch


def check_supported(model: ModelInfo) -> OutputSpec:
    """The segmentation head to run; raises for models this engine does not run yet."""
    if len(model.inputs) != 1:
        raise NotSupportedError(
            f"The model has {len(model.inputs)} inputs ({', '.join(i.name for i in model.inputs)}): "
            "multi-input models are not supported by flair:segment yet."
        )
    heads = [o for o in model.outputs if o.task == TASK_SEGMENTATION and o.is_per_pixel]
    if len(model.outputs) != 1 or len(heads) != 1:
        raise NotSupportedError(
            f"The model has {len(model.outputs)} outputs "
            f"({', '.join(f'{o.name}: {o.task}' for o in model.outputs)}): several outputs are not supported "
            "by flair:segment yet; it runs models with a single segmentation output."
        )
    return heads[0]


def segment(
    model: ModelInfo,
    source: PixelSource,
    grid: Grid,
    request: SegmentRequest,
    *,
    is_canceled: Callable[[], bool] = _never,
    on_progress: Callable[[float], None] = _noop_progress,
) -> SegmentResult:
    """Segment ``grid`` with ``model``, reading pixels from ``source``.

    Args:
        model: the model description.
        source: pixels, already bound to ``grid`` and to the model's band order.
        grid: the output grid.
        request: outputs, tiling and device.
        is_canceled: polled between batches; True stops the run and deletes partial outputs.
        on_progress: receives 0..100.

    Returns:
        What was written and how.

    Raises:
        Canceled: ``is_canceled`` answered True; nothing was written.
        InputError, ModelError, NotSupportedError: the request cannot be run.
    """
    started = time.perf_counter()
    head = check_supported(model)
    if source.band_count < 1:
        raise InputError("The source has no band.")
    tile_px, overlap_px, batch_size = _resolve_tiling(model, request)
    check_output_path(request.output_path)
    if request.confidence_path:
        check_output_path(request.confidence_path, "confidence")
    if request.confidence_path and not head.dtype.startswith("float"):
        raise InputError(
            f"Output '{head.name}' gives class indices, not scores: a confidence raster cannot be "
            "computed; leave OUTPUT_CONFIDENCE empty."
        )
    tiles = tile_layout(grid.width, grid.height, tile_px, overlap_px)
    block_px = core_stride_px(tile_px, overlap_px)

    session, info = create_session(model.path, request.device, request.threads)
    warnings = [info.warning] if info.warning else []
    if not grid.crs_wkt:
        warnings.append("The layer has no CRS: the class map is written without one.")

    postprocess = _Postprocess(head, model.seg_threshold, want_confidence=bool(request.confidence_path))
    dtype, nodata = nodata_for([c.value for c in head.classes])
    class_map = AtomicGeoTiff(
        request.output_path, grid, dtype, nodata, block_px, classes=head.classes,
        description="class", tags={"FLAIR_MODEL": model.path, "FLAIR_PROVIDER": info.provider},
    )  # fmt: skip
    confidence = (
        AtomicGeoTiff(request.confidence_path, grid, "float32", CONFIDENCE_NODATA, block_px, description="confidence")
        if request.confidence_path
        else None
    )
    lut = np.array([c.value for c in head.classes], dtype=dtype)
    counts = np.zeros(len(head.classes), dtype=np.int64)

    pipeline = _Pipeline(
        session=session,
        spec=model.input,
        head=head,
        source=source,
        tiles=tiles,
        tile_px=tile_px,
        batch_size=batch_size,
        is_canceled=is_canceled,
    )

    def write_batch(batch: list[Tile], scores: np.ndarray, valid: np.ndarray) -> None:
        for i, tile in enumerate(batch):
            r, c = tile.core_offset
            core_valid = valid[i][r : r + tile.core_rows, c : c + tile.core_cols]
            dr, dc = output_margin(scores.shape[-2:], tile_px, tile, overlap_px)
            index, prob = postprocess(scores[i], np.s_[r - dr : r - dr + tile.core_rows, c - dc : c - dc + tile.core_cols])
            counts[:] += np.bincount(index[core_valid], minlength=len(lut))[: len(lut)]
            classes = lut[index]
            classes[~core_valid] = nodata
            class_map.write(classes, tile.core_row, tile.core_col)
            if confidence is not None and prob is not None:
                prob[~core_valid] = CONFIDENCE_NODATA
                confidence.write(prob, tile.core_row, tile.core_col)

    outputs = [class_map] + ([confidence] if confidence is not None else [])
    try:
        pipeline.run(write_batch, outputs, on_progress)
    except BaseException:
        for out in outputs:
            out.abort()
        raise
    for out in outputs:
        out.commit()
    warnings.extend(pipeline.warnings)
    on_progress(100.0)
    return SegmentResult(
        output_path=class_map.path,
        confidence_path=confidence.path if confidence is not None else None,
        session=info,
        grid=grid,
        tiles=len(tiles),
        seconds=time.perf_counter() - started,
        class_pixels={int(lut[i]): int(n) for i, n in enumerate(counts) if n},
        warnings=warnings,
    )


def output_margin(out_shape: tuple[int, ...], tile_px: int, tile: Tile, overlap_px: int) -> tuple[int, int]:
    """Rows and columns an output smaller than its input lacks on each side (0 when same size).

    Some models return only the centre of their input (valid convolutions, e.g. 512 -> 484 px);
    the output is then taken as centred on the tile, and every core must fall inside it.

    Raises:
        InputError: the output does not cover the tile core; the message gives the overlap needed.
    """
    rows, cols = int(out_shape[0]), int(out_shape[1])
    if (rows, cols) == (tile_px, tile_px):
        return 0, 0
    lack = max(tile_px - rows, tile_px - cols)
    if lack < 0 or (tile_px - rows) % 2 or (tile_px - cols) % 2:
        raise InputError(f"The model returns {rows}x{cols} px for {tile_px} px tiles: only outputs centred on "
                         "their input and smaller by an even number of pixels are supported.")  # fmt: skip
    dr, dc = (tile_px - rows) // 2, (tile_px - cols) // 2
    r, c = tile.core_offset
    if r < dr or c < dc or r - dr + tile.core_rows > rows or c - dc + tile.core_cols > cols:
        raise InputError(
            f"The model returns {rows}x{cols} px for {tile_px} px tiles (it drops {dr} px on each side): "
            f"set OVERLAP to at least {lack} (currently {overlap_px})."
        )
    return dr, dc


class _Postprocess:
    """Scores of one tile -> (class index uint8/uint16, winning probability or None), on its core."""

    def __init__(self, head: OutputSpec, threshold: float, want_confidence: bool) -> None:
        self.head = head
        self.threshold = threshold
        self.want_confidence = want_confidence
        self.activation = head.activation

    def _detect(self, scores: np.ndarray) -> str:
        """``softmax`` when the scores already are probabilities, else ``logits``."""
        sample = scores[..., ::16, ::16]
        if sample.min() < 0.0 or sample.max() > 1.0:
            return "logits"
        if scores.ndim == 3 and scores.shape[0] > 1:
            sums = sample.sum(axis=0)
            return "softmax" if np.allclose(sums, 1.0, atol=1e-3) else "logits"
        return "sigmoid"

    def __call__(self, scores: np.ndarray, core: tuple[slice, slice]) -> tuple[np.ndarray, np.ndarray | None]:
        if not scores.dtype.kind == "f":
            index = np.ascontiguousarray(scores.reshape(scores.shape[-2:])[core])
            return index.astype(np.uint16 if index.max(initial=0) > 255 else np.uint8), None
        if scores.ndim == 2:
            scores = scores[None]
        if self.activation == "auto":
            self.activation = self._detect(scores)
        scores = scores[(slice(None), *core)]
        if scores.shape[0] == 1:
            prob = scores[0]
            if self.activation == "logits":
                prob = 1.0 / (1.0 + np.exp(-prob))
            positive = prob >= self.threshold
            index = positive.astype(np.uint8)
            confidence = np.where(positive, prob, 1.0 - prob).astype(np.float32) if self.want_confidence else None
            return index, confidence
        index, best = argmax_channels(scores)
        if not self.want_confidence:
            return index, None
        if self.activation in ("softmax", "sigmoid", "none"):
            return index, best
        # Probability of the winner under a softmax of logits: 1 / sum_c exp(s_c - s_max).
        total = np.zeros_like(best)
        for channel in scores:
            total += np.exp(channel - best)
        return index, np.reciprocal(total, out=total)


def argmax_channels(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index and value of the largest channel per pixel; ties go to the lowest index.

    A running maximum over the channels, each pass a contiguous ``(rows, cols)`` plane: several
    times faster than ``np.argmax(axis=0)``, which walks the channel axis with a stride.

    Args:
        scores: ``(channels, rows, cols)`` float array.

    Returns:
        ``(index, best)``: uint8 (uint16 above 256 channels) ``(rows, cols)`` indices and the
        float32 maxima.
    """
    channels = scores.shape[0]
    index = np.zeros(scores.shape[1:], dtype=np.uint8 if channels <= 256 else np.uint16)
    best = np.array(scores[0], dtype=np.float32, copy=True)
    better = np.empty(scores.shape[1:], dtype=bool)
    for c in range(1, channels):
        np.greater(scores[c], best, out=better)
        index[better] = c
        np.maximum(best, scores[c], out=best)
    return index, best


class _Pipeline:
    """Reader thread -> onnxruntime in the calling thread -> writer thread."""

    def __init__(
        self,
        session,  # noqa: ANN001 - onnxruntime.InferenceSession
        spec: InputSpec,
        head: OutputSpec,
        source: PixelSource,
        tiles: list[Tile],
        tile_px: int,
        batch_size: int,
        is_canceled: Callable[[], bool],
    ) -> None:
        self.session = session
        self.spec = spec
        self.head = head
        self.source = source
        self.tiles = tiles
        self.tile_px = tile_px
        self.batch_size = batch_size
        self.is_canceled = is_canceled
        self.scale = (1.0 / np.asarray(spec.std, dtype=np.float32))[:, None, None]
        self.offset = (-np.asarray(spec.mean, dtype=np.float32) / np.asarray(spec.std, dtype=np.float32))[:, None, None]
        self.stop = threading.Event()
        self.errors: list[BaseException] = []
        self.warnings: list[str] = []
        self.single_tiles = False

    def _read_batches(self, out_queue: queue.Queue) -> None:
        try:
            with self.source.open() as reader:
                for batch in batched(self.tiles, self.batch_size):
                    if self.stop.is_set():
                        return
                    out_queue.put(self._read_batch(reader, batch))
        except BaseException as err:  # handed to the calling thread, re-raised there
            self.errors.append(err)
        finally:
            out_queue.put(None)

    def _read_batch(self, reader: WindowReader, batch: list[Tile]) -> tuple[list[Tile], np.ndarray, np.ndarray]:
        t = self.tile_px
        inputs = np.empty((len(batch), self.spec.channels, t, t), dtype=np.float32)
        valid = np.empty((len(batch), t, t), dtype=bool)
        for i, tile in enumerate(batch):
            data, valid[i] = reader.read(tile.read_row, tile.read_col, t, t)
            # (pixel - mean) / std as one fused multiply-add, in place, in float32.
            np.multiply(data, self.scale, out=inputs[i], casting="unsafe")
            inputs[i] += self.offset
            if not valid[i].all():
                # Zero in normalised space, as a network's own zero padding sees its borders.
                inputs[i][:, ~valid[i]] = 0.0
        if self.spec.dtype != "float32":
            inputs = inputs.astype(self.spec.dtype)
        return batch, inputs, valid

    def _write_batches(self, in_queue: queue.Queue, write: Callable, outputs: list[AtomicGeoTiff], on_progress) -> None:  # noqa: ANN001
        done = 0
        try:
            with rasterio.Env(GDAL_CACHEMAX=WRITE_CACHE_MB):
                try:
                    for out in outputs:
                        out.open()
                    for batch, scores, valid in _until_none(in_queue):
                        if self.stop.is_set():
                            continue
                        write(batch, scores, valid)
                        done += len(batch)
                        on_progress(99.0 * done / len(self.tiles))
                finally:
                    for out in outputs:
                        out.close()
        except BaseException as err:
            self.errors.append(err)
            self.stop.set()
            while in_queue.get() is not None:  # drain so the producer never blocks
                pass

    def _infer(self, inputs: np.ndarray) -> np.ndarray:
        """Run the model on a batch; models that only run one tile at a time get one at a time.

        Some exports declare a dynamic batch axis but reshape to a batch of 1 inside the graph:
        the first failing batch switches the run to single tiles, with a warning.
        """
        names, feed = [self.head.name], self.spec.name
        if not self.single_tiles:
            try:
                return self.session.run(names, {feed: inputs})[0]
            except Exception as err:  # onnxruntime raises untyped errors
                if len(inputs) == 1:
                    raise ModelError(f"onnxruntime failed on a tile: {str(err).splitlines()[0][:300]}") from err
                self.single_tiles = True
                self.warnings.append(
                    f"The model failed on a batch of {len(inputs)} tiles and runs one tile at a time "
                    "(its graph fixes the batch size to 1 although it declares a dynamic one)."
                )
        try:
            return np.concatenate([self.session.run(names, {feed: inputs[i : i + 1]})[0] for i in range(len(inputs))])
        except Exception as err:
            raise ModelError(f"onnxruntime failed on a tile: {str(err).splitlines()[0][:300]}") from err

    def run(self, write: Callable, outputs: list[AtomicGeoTiff], on_progress: Callable[[float], None]) -> None:
        read_queue: queue.Queue = queue.Queue(maxsize=_QUEUE_BATCHES)
        write_queue: queue.Queue = queue.Queue(maxsize=_QUEUE_BATCHES)
        reader = threading.Thread(target=self._read_batches, args=(read_queue,), name="flair-read", daemon=True)
        writer = threading.Thread(
            target=self._write_batches, args=(write_queue, write, outputs, on_progress), name="flair-write", daemon=True
        )
        reader.start()
        writer.start()
        canceled = False
        try:
            for batch, inputs, valid in _until_none(read_queue):
                if self.stop.is_set():
                    continue
                if self.is_canceled():
                    canceled = True
                    self.stop.set()
                    continue
                write_queue.put((batch, self._infer(inputs), valid))
        finally:
            if canceled or self.errors:
                self.stop.set()
            write_queue.put(None)
            writer.join()
            # Unblock a reader waiting on a full queue, then wait for it.
            while reader.is_alive():
                try:
                    read_queue.get(timeout=0.05)
                except queue.Empty:
                    pass
            reader.join()
        if self.errors:
            raise self.errors[0]
        if canceled:
            raise Canceled()


def _until_none(q: queue.Queue) -> Iterator:
    while True:
        item = q.get()
        if item is None:
            return
        yield item
