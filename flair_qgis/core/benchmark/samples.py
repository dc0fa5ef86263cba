"""Benchmark samples read into normalised batches (the producer stage of the benchmark run).

Each sample's reference is read first; every model input is read from its modality's file over
the reference's bounds (georeferenced files) or whole (plain images), resampled bilinearly when
the model wants another size or resolution, and normalised with the model's mean and std
(:func:`flair_qgis.core.engine.stages.normalisation`). Samples of equal shapes are stacked into
batches. A sample that cannot be read becomes a :class:`Failed` item: reported, and the run goes on.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import rasterio
import rasterio.errors
from rasterio.enums import Resampling
from rasterio.windows import Window, from_bounds

from ..engine.stages import normalisation
from ..errors import InputError
from .datasets import IMAGE, LAYOUT_FLAIRHUB, Sample
from .plan import BenchmarkPlan, InputPlan, Quiet


@dataclass
class Loaded:
    """One sample read: normalised inputs, reference, and where the reference sits."""

    sample: Sample
    inputs: dict[str, np.ndarray]
    reference: np.ndarray
    valid: np.ndarray | None
    profile: dict

    def key(self) -> tuple:
        return tuple((name, a.shape) for name, a in self.inputs.items())


@dataclass
class Batch:
    """Samples of equal shapes and the model feeds stacked from them."""

    loaded: list[Loaded]
    feeds: dict[str, np.ndarray]


@dataclass
class Failed:
    """A sample that could not be read or scored: which file, and why."""

    sample: Sample
    path: str
    message: str


class SampleError(Exception):
    """A sample that cannot be read; reported with its path, the run goes on."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


def _window(src: rasterio.DatasetReader, profile: dict) -> Window:
    """The reference's bounds in a georeferenced file, else the whole file."""
    if profile["georeferenced"] and (src.crs is not None or not src.transform.is_identity):
        window = from_bounds(*profile["bounds"], transform=src.transform)
        return Window(round(window.col_off), round(window.row_off), round(window.width), round(window.height))
    return Window(0, 0, src.width, src.height)


def _model_shape(spec, window: Window, profile: dict) -> tuple[int, int]:
    """``(rows, cols)`` the model reads: its fixed tile, its resolution, else the window's."""
    rows, cols = int(window.height), int(window.width)
    if spec.tile_size_px:
        return spec.tile_size_px, spec.tile_size_px
    if spec.resolution_m and profile["georeferenced"]:
        left, bottom, right, top = profile["bounds"]
        res_rows, res_cols = round((top - bottom) / spec.resolution_m), round((right - left) / spec.resolution_m)
        # A file at the model's resolution is read as is (float noise in transforms).
        if abs(res_rows - rows) > 1 or abs(res_cols - cols) > 1:
            return res_rows, res_cols
    return rows, cols


class SampleReader:
    """Reads samples into batches (runs in the producer thread).

    Args:
        plan: the benchmark plan (inputs, bands, normalisation).
        batch_size: samples per batch at most.
    """

    def __init__(self, plan: BenchmarkPlan, batch_size: int) -> None:
        self.plan = plan
        self.batch_size = batch_size
        self.layout = plan.dataset.layout
        self.norm = {p.spec.name: normalisation(p.spec.mean, p.spec.std) for p in plan.inputs}

    def items(self, samples: Sequence[Sample], stop: threading.Event) -> Iterator[Batch | Failed]:
        """Batches of samples of equal shapes, and the samples that failed, in dataset order."""
        pending: list[Loaded] = []
        for sample in samples:
            if stop.is_set():
                return
            try:
                loaded = self.read(sample)
            except SampleError as err:
                yield Failed(sample, err.path, err.message)
                continue
            if pending and loaded.key() != pending[0].key():
                yield self._stack(pending)
                pending = []
            pending.append(loaded)
            if len(pending) >= self.batch_size:
                yield self._stack(pending)
                pending = []
        if pending:
            yield self._stack(pending)

    def _stack(self, loaded: list[Loaded]) -> Batch:
        feeds = {}
        for p in self.plan.inputs:
            stacked = np.stack([item.inputs[p.spec.name] for item in loaded])
            feeds[p.spec.name] = stacked if p.spec.dtype == "float32" else stacked.astype(p.spec.dtype)
        return Batch(loaded, feeds)

    def read(self, sample: Sample) -> Loaded:
        """Read one sample.

        Raises:
            SampleError: a file is unreadable or does not fit; the run goes on without it.
        """
        path = sample.reference
        try:
            with Quiet(), rasterio.open(path) as ref:
                reference = ref.read(1)
                nodata = ref.nodata
                georeferenced = ref.crs is not None or not ref.transform.is_identity
                profile = {
                    "crs": ref.crs,
                    "transform": ref.transform,
                    "bounds": tuple(ref.bounds),
                    "georeferenced": georeferenced,
                }
            valid = reference != nodata if nodata is not None and not np.isnan(nodata) else None
            inputs = {}
            for p in self.plan.inputs:
                path = sample.inputs[IMAGE if self.layout != LAYOUT_FLAIRHUB else p.modality]
                inputs[p.spec.name] = self._read_input(path, p, profile)
        except SampleError:
            raise
        except (rasterio.errors.RasterioError, OSError, InputError, ValueError) as err:
            raise SampleError(path, f"{err.__class__.__name__}: {err}") from err
        return Loaded(sample, inputs, reference, valid, profile)

    def _read_input(self, path: str, plan: InputPlan, profile: dict) -> np.ndarray:
        spec, bands = plan.spec, list(plan.choice.bands)
        with Quiet(), rasterio.open(path) as src:
            if max(bands) > src.count:
                raise SampleError(path, f"has {src.count} band(s) but model input '{spec.name}' reads band(s) {bands}")
            window = _window(src, profile)
            if window.width <= 0 or window.height <= 0:
                raise SampleError(path, "does not overlap its reference mask")
            rows, cols = _model_shape(spec, window, profile)
            inside = (
                window.col_off >= 0
                and window.row_off >= 0
                and window.col_off + window.width <= src.width
                and window.row_off + window.height <= src.height
            )
            # fill_value only for boundless reads: rasterio also fills masked pixels with it, and a
            # 4-band uint8 GeoTIFF's 4th band (NIR) is often flagged as alpha.
            extra = {} if inside else {"boundless": True, "fill_value": 0}
            if (rows, cols) == (int(window.height), int(window.width)):
                data = src.read(bands, window=window, **extra)
            else:
                data = src.read(
                    bands, window=window, out_shape=(len(bands), rows, cols), resampling=Resampling.bilinear, **extra
                )
        scale, offset = self.norm[spec.name]
        out = np.empty(data.shape, dtype=np.float32)
        np.multiply(data, scale, out=out, casting="unsafe")
        out += offset
        return out


def resize_nearest(array: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """Nearest-neighbour resampling of a ``(rows, cols)`` class map to ``shape`` (pixel centres)."""
    rows = ((np.arange(shape[0]) + 0.5) * array.shape[0] / shape[0]).astype(np.int64)
    cols = ((np.arange(shape[1]) + 0.5) * array.shape[1] / shape[1]).astype(np.int64)
    return array[np.minimum(rows, array.shape[0] - 1)[:, None], np.minimum(cols, array.shape[1] - 1)[None, :]]
