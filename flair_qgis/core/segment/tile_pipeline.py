"""The tile pipeline: reader threads -> onnxruntime in the calling thread -> writer thread.

Reader threads (each with its own dataset handles: GDAL handles are not shared across threads)
read batches of tiles (GDAL releases the GIL) and hand them on in tile order
(:func:`~flair_qgis.core.engine.stages.ordered_map`): either normalised on the host into a float32
``(batch, channels, rows, cols)`` array, or raw with a validity plane when the graph normalises
(:mod:`~flair_qgis.core.engine.wrapped_graph`). The calling thread runs onnxruntime (which
releases the GIL); the writer turns scores (or the graph's class indices) into classes on the
tile cores only and writes whole GeoTIFF blocks (:func:`~flair_qgis.core.engine.stages.run_stages`).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import rasterio

from ..engine.geotiff import AtomicGeoTiff
from ..engine.grid import Tile, batched
from ..engine.io_binding import BoundSession
from ..engine.model import InputSpec
from ..engine.pixel_sources import PixelSource, WindowReader
from ..engine.postprocess import GraphScores
from ..engine.sessions import run_batch
from ..engine.stages import normalisation, ordered_map, run_stages
from ..engine.wrapped_graph import Fusion
from ..errors import ModelError


@dataclass(frozen=True)
class CachedTile:
    """A tile whose arrays came from the tile cache: it skips the reader and the model."""

    tile: Tile
    arrays: dict[str, np.ndarray]


class TilePipeline:
    """Reader thread -> onnxruntime in the calling thread -> writer thread.

    With ``lookup`` (the tile cache), the reader first asks it for each tile: a tile it returns
    goes straight to the writer as a :class:`CachedTile`; the others are read and batched for the
    model as usual.
    """

    def __init__(
        self,
        session,
        specs: Sequence[InputSpec],
        sources: Sequence[PixelSource],
        factors: Sequence[float],
        output_names: Sequence[str],
        tiles: list[Tile],
        tile_px: int,
        batch_size: int,
        is_canceled: Callable[[], bool],
        lookup: Callable[[Tile], dict[str, np.ndarray] | None] | None = None,
        make_session: Callable[[], object] | None = None,
        fusion: Fusion | None = None,
        readers: int = 1,
    ) -> None:
        self.lookup = lookup
        # None when every tile is expected from the cache: made on the first tile that is not.
        # IO binding with output buffers reused batch after batch (.binding).
        self.session = BoundSession(session) if session is not None else None
        self.make_session = make_session
        self.specs = tuple(specs)
        self.sources = tuple(sources)
        self.factors = tuple(factors)
        self.fusion = fusion
        self.output_names = fusion.output_names if fusion is not None else list(output_names)
        self.readers = max(1, readers)
        self.tiles = tiles
        self.tile_px = tile_px
        self.batch_size = batch_size
        self.is_canceled = is_canceled
        # (pixel - mean) / std == pixel * scale + offset, per channel.
        self.affine = [normalisation(s.mean, s.std) for s in self.specs]
        self.fixed_batch = next((s.fixed_batch for s in self.specs if s.fixed_batch is not None), None)
        self.warnings: list[str] = []
        self.single_tiles = False

    def _read_batch(self, readers: list[WindowReader], batch: list[Tile]) -> tuple[list[Tile], dict, np.ndarray]:
        if self.fusion is not None and self.fusion.inputs:
            feeds, valid = read_raw_batch(readers, self.specs, self.fusion.inputs, self.factors, batch, self.tile_px)
        else:
            feeds, valid = read_batch(readers, self.specs, self.factors, self.affine, batch, self.tile_px)
        return batch, feeds, valid

    @contextlib.contextmanager
    def _open_readers(self) -> Iterator[list[WindowReader]]:
        """One reader per input, opened in the calling (reader) thread, GDAL decoding on
        :func:`decode_threads` threads (``GDAL_NUM_THREADS`` is thread-local in rasterio's child
        threads)."""
        threads = decode_threads(self.readers)
        with contextlib.ExitStack() as stack:
            if threads > 1:  # no Env of its own otherwise: see the note in decode_threads
                stack.enter_context(rasterio.Env(GDAL_NUM_THREADS=threads))
            yield [stack.enter_context(source.open()) for source in self.sources]

    def reads(self, stop: threading.Event) -> Iterator[CachedTile | tuple[list[Tile], dict, np.ndarray]]:
        """Every batch read (or taken from the cache), in tile order, by the reader threads.

        The run's first stage; ``bench/bench_gpu.py`` times it alone (the read limit).
        """
        return ordered_map(self._work(), self._open_readers, self._read_work, workers=self.readers, stop=stop)

    def _read_work(self, readers: list[WindowReader], work: CachedTile | list[Tile]):
        return work if isinstance(work, CachedTile) else self._read_batch(readers, work)

    def infer(self, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray | GraphScores]:
        """Run the model on a batch; models that only run one tile at a time get one at a time.

        Some exports declare a dynamic batch axis but reshape to a batch of 1 inside the graph:
        the first failing batch switches the run to single tiles, with a warning.
        """
        if self.session is None and self.make_session is not None:
            self.session = BoundSession(self.make_session())
        outputs = self._run(feeds)
        if self.fusion is not None:
            return self.fusion.unpack(outputs)
        return dict(outputs)

    def _run(self, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        names = self.output_names
        count = len(next(iter(feeds.values())))
        if not self.single_tiles:
            try:
                return dict(zip(names, run_batch(self.session, names, feeds, self.fixed_batch)))
            except Exception as err:  # onnxruntime raises untyped errors
                if count == 1:
                    raise ModelError.of("onnxruntime_failed_tile", error=str(err).splitlines()[0][:300]) from err
                self.single_tiles = True
                self.warnings.append(
                    f"The model failed on a batch of {count} tiles and runs one tile at a time "
                    "(its graph fixes the batch size to 1 although it declares a dynamic one)."
                )
        try:
            runs = [
                run_batch(self.session, names, {k: v[i : i + 1] for k, v in feeds.items()}, self.fixed_batch)
                for i in range(count)
            ]
        except Exception as err:
            raise ModelError.of("onnxruntime_failed_tile", error=str(err).splitlines()[0][:300]) from err
        return {name: np.concatenate([run[j] for run in runs]) for j, name in enumerate(names)}

    def _work(self) -> Iterator[CachedTile | list[Tile]]:
        """Cached tiles one by one, the others in batches of ``batch_size`` for the model."""
        if self.lookup is None:
            yield from batched(self.tiles, self.batch_size)
            return
        pending: list[Tile] = []
        for tile in self.tiles:
            arrays = self.lookup(tile)
            if arrays is not None:
                yield CachedTile(tile, arrays)
                continue
            pending.append(tile)
            if len(pending) == self.batch_size:
                yield pending
                pending = []
        if pending:
            yield pending

    def run(self, write: Callable, outputs: list[AtomicGeoTiff], on_progress: Callable[[float], None]) -> None:
        """Read (or take from the cache), infer and write every tile.

        ``write`` receives a :class:`CachedTile` or a ``(tiles, scores, valid)`` batch; outputs
        are opened and closed in the writing thread.
        """
        done = 0

        def produce(stop: threading.Event) -> Iterator[CachedTile | tuple[list[Tile], dict, np.ndarray]]:
            yield from self.reads(stop)

        def infer(
            item: CachedTile | tuple[list[Tile], dict, np.ndarray],
        ) -> CachedTile | tuple[list[Tile], dict, np.ndarray]:
            if isinstance(item, CachedTile):
                return item
            batch, feeds, valid = item
            return batch, self.infer(feeds), valid

        def consume(item: CachedTile | tuple[list[Tile], dict, np.ndarray]) -> None:
            nonlocal done
            write(item)
            done += 1 if isinstance(item, CachedTile) else len(item[0])
            on_progress(99.0 * done / len(self.tiles))

        @contextlib.contextmanager
        def opened_outputs() -> Iterator[None]:
            try:
                for out in outputs:
                    out.open()
                yield
            finally:
                for out in outputs:
                    out.close()

        run_stages(produce, infer, consume, is_canceled=self.is_canceled, consumer_context=opened_outputs)


from ..engine.tile_reads import decode_threads, read_batch, read_raw_batch  # noqa: E402
