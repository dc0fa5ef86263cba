"""Score a model on every sample of a benchmark folder with a published protocol, streaming.

One function, :func:`run_benchmark`, behind ``flair:benchmark``. Three stages run at once, as in
:mod:`flair_qgis.core.segment`: a reader thread opens each sample's files (GDAL releases the
GIL), selects and normalises the model's bands and stacks samples of equal shape into batches;
the calling thread runs onnxruntime; a scorer thread turns scores into class maps, adds each
sample's confusion counts to the dataset's, updates the per-image metrics, writes the per-sample
CSV row and, when asked, the prediction file. Queues of two batches bound memory to a few
batches whatever the number of samples; the only things kept for the whole run are the
confusion counts, a few sums and the ten worst samples.

Outputs are complete or absent: the CSV and the prediction files are written under temporary
names and moved into place, with the report, only when the run ends; a cancel or an error
deletes them. A sample that fails to read is reported with its path and the run goes on.
"""

from __future__ import annotations

import csv
import heapq
import json
import os
import shutil
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import rasterio
import rasterio.errors
from rasterio.enums import Resampling
from rasterio.windows import Window, from_bounds

from .alignment import ClassAlignment, align_classes
from .bands import BandChoice, band_choice
from .datasets import (
    FLAIRHUB_LABELS,
    LAYOUT_FLAIR1,
    LAYOUT_FLAIRHUB,
    LAYOUT_WEEDSENSE,
    Dataset,
    Sample,
    detect_layout,
    discover,
)
from .engine import SessionInfo, create_session, run_batch
from .errors import FlairError, InputError, ModelError
from .metrics import ConfusionMatrix, build_report
from .model import InputSpec, ModelInfo, OutputSpec, read_model_info
from .multi import Heads, class_values, input_modalities, per_image_value, resolve_heads
from .nomenclature import ClassInfo
from .paths import check_folder_not_input, check_outputs_not_inputs, resolved
from .pipeline import run_stages
from .protocols import Protocol, get_protocol
from .segment import Postprocess
from .task_metrics import ClassificationMetrics, RegressionMetrics
from .writer import check_output_path

_WORST_KEPT = 10
_LISTED_MAX = 1000
GROWTH_WEEKS = tuple(range(1, 12))
_UNIT_TO_CM = {"cm": 1.0, "m": 100.0, "mm": 0.1, "": 1.0}


@dataclass(frozen=True)
class BenchmarkRequest:
    """A frozen description of one benchmark run.

    Attributes:
        dataset: the dataset folder.
        model_path: the ONNX model.
        protocol: ``flair1``, ``flairhub-landcover``, ``flairhub-croptype``, ``weedsense`` or ``custom``.
        report_path: the report JSON to write.
        samples_csv_path: the per-sample CSV; None for ``<report>_samples.csv``.
        predictions_dir: folder for one prediction raster per sample (``PRED_<id>.tif``), or None.
        layout: ``auto``, ``flair1``, ``flairhub`` or ``weedsense``.
        on_unpaired: ``skip`` or ``fail`` for images without masks and masks without images.
        batch_size: samples per onnxruntime call.
        device: ``auto``, ``cuda`` or ``cpu``.
        threads: CPU threads for onnxruntime; None for all cores.
        absent: score of a class absent from both sides (``skip``, ``one``, ``zero``); None for
            the protocol's own.
        class_map: explicit ``model value -> protocol code`` (``CLASS_MAP``); None to align the
            model's classes by value or name (:func:`flair_qgis.core.alignment.align_classes`).
    """

    dataset: str
    model_path: str
    protocol: str
    report_path: str
    samples_csv_path: str | None = None
    predictions_dir: str | None = None
    layout: str = "auto"
    on_unpaired: str = "skip"
    batch_size: int = 4
    device: str = "auto"
    threads: int | None = None
    absent: str | None = None
    class_map: Mapping[int, int] | None = None


@dataclass
class BenchmarkResult:
    """What a run produced.

    Attributes:
        report: the report written (DESIGN.md format plus the protocol's own metrics).
        report_path: the report JSON.
        samples_csv_path: the per-sample CSV.
        predictions_dir: the folder of prediction rasters, or None.
        session: the execution provider that ran.
        samples: samples scored.
        failed: samples that could not be read or scored.
        seconds: wall time, session creation included.
        warnings: messages the user should see.
    """

    report: dict
    report_path: str
    samples_csv_path: str
    predictions_dir: str | None
    session: SessionInfo
    samples: int
    failed: int
    seconds: float
    warnings: list[str] = field(default_factory=list)


def _noop(*_args: object) -> None:
    return None


def _never() -> bool:
    return False


def default_samples_csv(report_path: str) -> str:
    """``report.json`` -> ``report_samples.csv`` in the same folder."""
    stem = os.path.splitext(report_path)[0]
    return stem + "_samples.csv"


def label_modality_for(protocol: str) -> str:
    """The FLAIR-HUB reference modality a protocol scores (LPIS for crop types, COSIA otherwise)."""
    return FLAIRHUB_LABELS[1] if protocol == "flairhub-croptype" else FLAIRHUB_LABELS[0]


@dataclass(frozen=True)
class InputPlan:
    """How one model input is fed: its modality and the file bands selected."""

    spec: InputSpec
    modality: str
    choice: BandChoice

    def to_dict(self) -> dict:
        return {
            "name": self.spec.name,
            "modality": self.modality,
            "bands": list(self.choice.bands),
            "band_choice": self.choice.how,
            "mean": list(self.spec.mean),
            "std": list(self.spec.std),
            "resolution_m": self.spec.resolution_m,
        }


@dataclass(frozen=True)
class BenchmarkPlan:
    """Everything decided before the run: dataset, model, protocol, inputs, heads.

    Built by :func:`plan_benchmark`, which checks the request without running the model.
    """

    dataset: Dataset
    model: ModelInfo
    protocol: Protocol
    inputs: tuple[InputPlan, ...]
    heads: Heads
    class_lut: np.ndarray
    alignment: ClassAlignment
    height_head: OutputSpec | None
    stage_head: OutputSpec | None
    warnings: tuple[str, ...]


def check_outputs(request: BenchmarkRequest, dataset: Dataset) -> None:
    """Refuse outputs that would overwrite an input: the model, the dataset folder or one of its files.

    Raises:
        InputError: the message names both parameters.
    """
    report = request.report_path
    samples_csv = request.samples_csv_path or (default_samples_csv(report) if report else None)
    outputs = {"OUTPUT_REPORT": report, "OUTPUT_SAMPLES": samples_csv}
    check_outputs_not_inputs(outputs, {"MODEL": request.model_path, "DATASET": request.dataset})
    check_folder_not_input("OUTPUT_PREDICTIONS", request.predictions_dir, "DATASET", request.dataset)
    check_folder_not_input("OUTPUT_PREDICTIONS", request.predictions_dir, "MODEL", request.model_path)
    files = {resolved(path) for s in dataset.samples for path in (s.reference, *s.inputs.values())}
    for name, path in outputs.items():
        if path and resolved(path) in files:
            raise InputError(f"{name} would overwrite a file of DATASET ({path}): choose another output file.")


def plan_benchmark(request: BenchmarkRequest) -> BenchmarkPlan:
    """Check a request and decide how every input and head is used (no inference).

    Raises:
        InputError, ModelError: dataset, model and protocol do not fit together; the message says
            what to change.
    """
    model = read_model_info(request.model_path)
    protocol = get_protocol(request.protocol, absent=request.absent)
    notes: list[str] = []
    layout = request.layout if request.layout not in ("", None) else "auto"
    root = os.path.abspath(request.dataset)
    if layout == "auto" and os.path.isdir(root):
        layout = detect_layout(root) or "auto"
    label_modality = label_modality_for(protocol.name)
    required: tuple[str, ...] = ()
    if layout == LAYOUT_FLAIRHUB:
        required = tuple((s.modality.strip().upper() or "AERIAL_RGBI") for s in model.inputs)
    dataset = discover(
        root, layout, label_modality=label_modality, required_modalities=required, on_unpaired=request.on_unpaired
    )
    check_outputs(request, dataset)
    expected_layout = {
        "flair1": LAYOUT_FLAIR1, "flairhub-landcover": LAYOUT_FLAIRHUB, "flairhub-croptype": LAYOUT_FLAIRHUB,
        "weedsense": LAYOUT_WEEDSENSE,
    }.get(protocol.name)  # fmt: skip
    if expected_layout and expected_layout != dataset.layout:
        notes.append(
            f"Protocol {protocol.name} is scored on a {dataset.layout} folder (its own layout is {expected_layout})."
        )
    modalities = input_modalities(model, dataset.modalities if dataset.layout == LAYOUT_FLAIRHUB else None)
    first = dataset.samples[0]
    plans = []
    for spec, modality in zip(model.inputs, modalities):
        key = (
            modality
            if dataset.layout == LAYOUT_FLAIRHUB
            else ("FLAIR1_IMG" if dataset.layout == LAYOUT_FLAIR1 else "RGB")
        )
        path = first.inputs["IMAGE" if dataset.layout != LAYOUT_FLAIRHUB else modality]
        try:
            with _Quiet(), rasterio.open(path) as src:
                band_count = src.count
        except rasterio.errors.RasterioIOError as err:
            raise InputError(f"Cannot open {path}: {err}") from err
        choice = band_choice(spec, key, band_count)
        if choice.warning:
            notes.append(choice.warning)
        plans.append(InputPlan(spec, modality, choice))
    heads = resolve_heads(model)
    if heads.segmentation is None:
        listed = ", ".join(f"{o.name}: {o.task}" for o in model.outputs)
        raise ModelError(
            f"The model has no per-pixel segmentation output ({listed}): "
            "a benchmark scores a class map. Declare the class-map output as task 'segmentation' in 'outputs'."
        )
    for head in heads.ignored:
        notes.append(
            f"Output '{head.name}' is a further segmentation output: only '{heads.segmentation.name}' is scored."
        )
    lut = class_values(model, heads.segmentation, protocol.name)
    declared = tuple(ClassInfo(int(v), c.name, c.color) for v, c in zip(lut, heads.segmentation.classes))
    alignment = align_classes(declared, protocol, request.class_map, what="model")
    lut = alignment.apply(lut)
    if alignment.changes:
        notes.append(alignment.describe())
    if heads.segmentation.channels not in (None, 1) and len(lut) < heads.segmentation.channels:
        raise ModelError(
            f"Output '{heads.segmentation.name}' has {heads.segmentation.channels} channels but declares "
            f"{len(lut)} classes."
        )
    height_head = heads.regression[0] if heads.regression else None
    stage_head = heads.classification[0] if heads.classification else None
    if dataset.layout == LAYOUT_WEEDSENSE:
        if not dataset.has_labels_csv:
            notes.append("No labels.csv in the dataset: height and growth-stage metrics are not computed.")
        if height_head is None:
            notes.append("The model has no regression output: plant height is not scored.")
        if stage_head is None:
            notes.append("The model has no classification output: growth stage is not scored.")
        if height_head is not None and height_head.unit.lower() not in _UNIT_TO_CM:
            raise ModelError(
                f"Output '{height_head.name}' has unit {height_head.unit!r}: height must be in cm, m or mm."
            )
    return BenchmarkPlan(
        dataset, model, protocol, tuple(plans), heads, lut, alignment, height_head, stage_head, tuple(notes)
    )


class _Quiet(warnings.catch_warnings):
    """Silence rasterio's NotGeoreferencedWarning for plain PNG/JPG images (WeedSense)."""

    def __enter__(self):
        result = super().__enter__()
        warnings.simplefilter("ignore", rasterio.errors.NotGeoreferencedWarning)
        return result


@dataclass
class _Loaded:
    """One sample read: normalised inputs, reference, and where the reference sits."""

    sample: Sample
    inputs: dict[str, np.ndarray]
    reference: np.ndarray
    valid: np.ndarray | None
    profile: dict

    def key(self) -> tuple:
        return tuple((name, a.shape) for name, a in self.inputs.items())


@dataclass
class _Batch:
    loaded: list[_Loaded]
    feeds: dict[str, np.ndarray]


@dataclass
class _Failed:
    sample: Sample
    path: str
    message: str


class _Reader:
    """Reads samples into batches (runs in the reader thread)."""

    def __init__(self, plan: BenchmarkPlan, batch_size: int) -> None:
        self.plan = plan
        self.batch_size = batch_size
        self.layout = plan.dataset.layout
        self.norm = {
            p.spec.name: (
                (1.0 / np.asarray(p.spec.std, dtype=np.float32))[:, None, None],
                (-np.asarray(p.spec.mean, dtype=np.float32) / np.asarray(p.spec.std, dtype=np.float32))[:, None, None],
            )
            for p in plan.inputs
        }

    def items(self, samples: Sequence[Sample], stop: threading.Event) -> Iterator[_Batch | _Failed]:
        pending: list[_Loaded] = []
        for sample in samples:
            if stop.is_set():
                return
            try:
                loaded = self.read(sample)
            except _SampleError as err:
                yield _Failed(sample, err.path, err.message)
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

    def _stack(self, loaded: list[_Loaded]) -> _Batch:
        feeds = {}
        for p in self.plan.inputs:
            stacked = np.stack([item.inputs[p.spec.name] for item in loaded])
            feeds[p.spec.name] = stacked if p.spec.dtype == "float32" else stacked.astype(p.spec.dtype)
        return _Batch(loaded, feeds)

    def read(self, sample: Sample) -> _Loaded:
        path = sample.reference
        try:
            with _Quiet(), rasterio.open(path) as ref:
                reference = ref.read(1)
                nodata = ref.nodata
                georeferenced = ref.crs is not None or not ref.transform.is_identity
                profile = {"crs": ref.crs, "transform": ref.transform, "bounds": tuple(ref.bounds),
                           "georeferenced": georeferenced}  # fmt: skip
            valid = reference != nodata if nodata is not None and not np.isnan(nodata) else None
            inputs = {}
            for p in self.plan.inputs:
                path = sample.inputs["IMAGE" if self.layout != LAYOUT_FLAIRHUB else p.modality]
                inputs[p.spec.name] = self._read_input(path, p, profile, reference.shape)
        except _SampleError:
            raise
        except (rasterio.errors.RasterioError, OSError, InputError, ValueError) as err:
            raise _SampleError(path, f"{err.__class__.__name__}: {err}") from err
        return _Loaded(sample, inputs, reference, valid, profile)

    def _read_input(self, path: str, plan: InputPlan, profile: dict, ref_shape: tuple[int, int]) -> np.ndarray:
        spec, bands = plan.spec, plan.choice.bands
        with _Quiet(), rasterio.open(path) as src:
            if max(bands) > src.count:
                raise _SampleError(
                    path, f"has {src.count} band(s) but model input '{spec.name}' reads band(s) {list(bands)}"
                )
            if profile["georeferenced"] and (src.crs is not None or not src.transform.is_identity):
                window = from_bounds(*profile["bounds"], transform=src.transform)
                window = Window(round(window.col_off), round(window.row_off), round(window.width), round(window.height))
            else:
                window = Window(0, 0, src.width, src.height)
            rows, cols = int(window.height), int(window.width)
            if spec.tile_size_px:
                rows = cols = spec.tile_size_px
            elif spec.resolution_m and profile["georeferenced"]:
                left, bottom, right, top = profile["bounds"]
                res_rows, res_cols = (
                    round((top - bottom) / spec.resolution_m),
                    round((right - left) / spec.resolution_m),
                )
                # A file at the model's resolution is read as is (float noise in transforms).
                if abs(res_rows - rows) > 1 or abs(res_cols - cols) > 1:
                    rows, cols = res_rows, res_cols
            inside = (window.col_off >= 0 and window.row_off >= 0 and window.col_off + window.width <= src.width
                      and window.row_off + window.height <= src.height)  # fmt: skip
            if window.width <= 0 or window.height <= 0:
                raise _SampleError(path, "does not overlap its reference mask")
            # fill_value only for boundless reads: rasterio also fills masked pixels with it, and a
            # 4-band uint8 GeoTIFF's 4th band (NIR) is often flagged as alpha.
            extra = {} if inside else {"boundless": True, "fill_value": 0}
            if (rows, cols) == (int(window.height), int(window.width)):
                data = src.read(list(bands), window=window, **extra)
            else:
                data = src.read(
                    list(bands), window=window, out_shape=(len(bands), rows, cols), resampling=Resampling.bilinear,
                    **extra,
                )  # fmt: skip
        scale, offset = self.norm[spec.name]
        out = np.empty(data.shape, dtype=np.float32)
        np.multiply(data, scale, out=out, casting="unsafe")
        out += offset
        return out


class _SampleError(Exception):
    """A sample that cannot be read; reported with its path, the run goes on."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


def _resize_nearest(array: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """Nearest-neighbour resampling of a ``(rows, cols)`` class map to ``shape`` (pixel centres)."""
    rows = ((np.arange(shape[0]) + 0.5) * array.shape[0] / shape[0]).astype(np.int64)
    cols = ((np.arange(shape[1]) + 0.5) * array.shape[1] / shape[1]).astype(np.int64)
    return array[np.minimum(rows, array.shape[0] - 1)[:, None], np.minimum(cols, array.shape[1] - 1)[None, :]]


class _Scorer:
    """Turns model outputs into scores, CSV rows and prediction files (runs in the scorer thread)."""

    def __init__(self, plan: BenchmarkPlan, csv_handle, predictions_tmp: str | None) -> None:
        self.plan = plan
        self.protocol = plan.protocol
        self.sample_protocol = replace(plan.protocol, absent="skip")
        self.total = ConfusionMatrix()
        self.heights = RegressionMetrics()
        stage_labels = GROWTH_WEEKS
        if plan.stage_head is not None:
            stage_labels = tuple(sorted(set(GROWTH_WEEKS) | {c.value for c in plan.stage_head.classes}))
        self.stages = ClassificationMetrics(stage_labels)
        self.predictions_tmp = predictions_tmp
        self.scored = 0
        self.failed: list[dict] = []
        self.failed_count = 0
        self.worst: list[tuple[float, int, dict]] = []
        head = plan.heads.segmentation
        assert head is not None, "the benchmark plan always has a segmentation head"
        self.head: OutputSpec = head
        self.postprocess = Postprocess(head, plan.model.seg_threshold, want_confidence=False)
        lut = plan.class_lut
        self.lut = lut.astype(np.uint8) if lut.size and lut.min() >= 0 and lut.max() <= 255 else lut.astype(np.int64)
        self.submission_lut = self._submission_lut(lut)
        self.height_scale = _UNIT_TO_CM.get(plan.height_head.unit.lower(), 1.0) if plan.height_head else 1.0
        self.modalities = [p.modality for p in plan.inputs]
        self.columns = self._columns()
        self.csv = csv.DictWriter(csv_handle, fieldnames=self.columns, extrasaction="ignore")
        self.csv.writeheader()

    def _submission_lut(self, lut: np.ndarray) -> np.ndarray:
        """Values written to ``PRED_<id>.tif``: IGN's class index 0..12 for FLAIR #1, else class values."""
        if self.protocol.name == "flair1":
            return np.array([self.protocol.class_value(int(v)) - 1 for v in lut], dtype=np.int64)
        return lut.astype(np.int64)

    def _columns(self) -> list[str]:
        columns = ["sample_id", "status", "miou", "oa", "pixels_evaluated"]
        if self.plan.dataset.layout == LAYOUT_WEEDSENSE:
            columns += ["height_cm", "height_pred_cm", "height_abs_error_cm", "growth_week", "growth_week_pred"]
        columns += ["reference"] + [f"input_{m}" for m in dict.fromkeys(self.modalities)]
        columns += ["prediction", "error"]
        return columns

    def _base_row(self, sample: Sample) -> dict:
        row = {"sample_id": sample.sample_id, "reference": sample.reference}
        for modality, path in sample.inputs.items():
            row[f"input_{modality}"] = path
        return row

    def fail(self, item: _Failed) -> None:
        self.failed_count += 1
        if len(self.failed) < _LISTED_MAX:
            self.failed.append({"sample_id": item.sample.sample_id, "path": item.path, "error": item.message})
        row = self._base_row(item.sample)
        row.update(status="failed", error=f"{item.path}: {item.message}")
        self.csv.writerow(row)

    def score(self, batch: _Batch, outputs: dict[str, np.ndarray]) -> None:
        scores = outputs[self.head.name]
        per_image = {}
        for head in (self.plan.height_head, self.plan.stage_head):
            if head is not None:
                per_image[head.name] = per_image_value(head, outputs[head.name][: len(batch.loaded)])
        for i, loaded in enumerate(batch.loaded):
            self._score_one(loaded, scores[i], {k: v[i] for k, v in per_image.items()})

    def _score_one(self, loaded: _Loaded, scores: np.ndarray, per_image: dict[str, float]) -> None:
        sample = loaded.sample
        index = self.postprocess(scores, np.s_[:, :])[0]
        if index.max(initial=0) >= len(self.lut):
            raise ModelError(
                f"Output '{self.head.name}' gives class index {int(index.max())} but declares {len(self.lut)} classes."
            )
        if index.shape != loaded.reference.shape:
            index = _resize_nearest(index, (loaded.reference.shape[0], loaded.reference.shape[1]))
        row = self._base_row(sample)
        height = stage = None
        if sample.height_cm is not None:
            row["height_cm"] = sample.height_cm
            if self.plan.height_head is not None:
                height = float(per_image[self.plan.height_head.name]) * self.height_scale
        if sample.growth_week is not None:
            row["growth_week"] = sample.growth_week
            if self.plan.stage_head is not None:
                stage = round(float(per_image[self.plan.stage_head.name]))
                bad = [w for w in (sample.growth_week, stage) if w not in self.stages.labels]
                if bad:
                    self.fail(_Failed(sample, sample.reference, f"growth week {bad[0]} is not one of 1..11"))
                    return
        prediction = self.lut[index]
        matrix = ConfusionMatrix()
        matrix.update(loaded.reference, prediction, loaded.valid)
        self.total.merge(matrix)
        sample_report = build_report(matrix, self.sample_protocol, strict=False)
        row.update(
            status="ok",
            miou=_fmt(sample_report["miou"]),
            oa=_fmt(sample_report["oa"]),
            pixels_evaluated=sample_report["pixels_evaluated"],
        )
        if height is not None and sample.height_cm is not None:
            error = self.heights.update(sample.height_cm, height)
            row.update(height_pred_cm=_fmt(height), height_abs_error_cm=_fmt(error))
        if stage is not None and sample.growth_week is not None:
            self.stages.update(sample.growth_week, stage)
            row["growth_week_pred"] = stage
        if self.predictions_tmp is not None:
            row["prediction"] = self._write_prediction(loaded, index)
        self.csv.writerow(row)
        self.scored += 1
        if sample_report["miou"] is not None:
            entry = {"sample_id": sample.sample_id, "miou": sample_report["miou"], "oa": sample_report["oa"],
                     "reference": sample.reference, "inputs": dict(sample.inputs)}  # fmt: skip
            # Min-heap on (-mIoU) keeps the lowest mIoU; the counter keeps ties deterministic.
            item = (-sample_report["miou"], -self.scored, entry)
            if len(self.worst) < _WORST_KEPT:
                heapq.heappush(self.worst, item)
            elif item[:2] > self.worst[0][:2]:
                heapq.heapreplace(self.worst, item)

    def _write_prediction(self, loaded: _Loaded, index: np.ndarray) -> str:
        values = self.submission_lut[index]
        dtype = "uint8" if values.min(initial=0) >= 0 and values.max(initial=0) <= 255 else "int32"
        name = f"PRED_{loaded.sample.sample_id}.tif"
        profile = {
            "driver": "GTiff", "width": values.shape[1], "height": values.shape[0], "count": 1, "dtype": dtype,
            "compress": "deflate",
        }  # fmt: skip
        if loaded.profile["georeferenced"]:
            profile["transform"] = loaded.profile["transform"]
            if loaded.profile["crs"] is not None:
                profile["crs"] = loaded.profile["crs"]
        assert self.predictions_tmp is not None
        with _Quiet(), rasterio.open(os.path.join(self.predictions_tmp, name), "w", **profile) as dst:
            dst.write(values.astype(dtype), 1)
        return name

    def worst_samples(self) -> list[dict]:
        return [entry for _, _, entry in sorted(self.worst, key=lambda t: (-t[0], -t[1]))]


def _fmt(value: float | None) -> str:
    return "" if value is None else f"{value:.6f}"


def run_benchmark(
    request: BenchmarkRequest,
    *,
    is_canceled: Callable[[], bool] = _never,
    on_progress: Callable[[float], None] = _noop,
    on_info: Callable[[str], None] = _noop,
    plan: BenchmarkPlan | None = None,
) -> BenchmarkResult:
    """Run ``request``: score every sample, write the report, the per-sample CSV and predictions.

    Args:
        request: what to run.
        is_canceled: polled between batches; True stops the run and deletes partial outputs.
        on_progress: receives 0..100.
        on_info: receives log lines (dataset found, unpaired files, which inputs feed the model).
        plan: a plan from :func:`plan_benchmark` for this request (made here when None).

    Returns:
        What was written.

    Raises:
        Canceled: nothing was written.
        InputError, ModelError: the request cannot be run, or no sample could be scored.
    """
    started = time.perf_counter()
    plan = plan or plan_benchmark(request)
    dataset = plan.dataset
    report_path = check_output_path(request.report_path, "report")
    csv_path = check_output_path(request.samples_csv_path or default_samples_csv(report_path), "per-sample CSV")
    predictions_dir = None
    if request.predictions_dir:
        predictions_dir = os.path.abspath(request.predictions_dir)
        if not os.path.isdir(predictions_dir):
            parent = os.path.dirname(predictions_dir)
            if not os.path.isdir(parent):
                raise InputError(f"The folder for predictions cannot be created: {parent} does not exist.")
            os.makedirs(predictions_dir)
    on_info(f"{dataset.layout} dataset: {len(dataset.samples)} sample(s) in {dataset.root}.")
    for line in dataset.unpaired[:50]:
        on_info(f"Skipped, {line}")
    if len(dataset.unpaired) > 50:
        on_info(f"... and {len(dataset.unpaired) - 50} more unpaired file(s), listed in the report.")
    for p in plan.inputs:
        on_info(f"Model input '{p.spec.name}' <- {p.modality} bands {list(p.choice.bands)} ({p.choice.how}).")
    notes = list(plan.warnings)

    session, info = create_session(plan.model.path, request.device, request.threads)
    if info.warning:
        notes.append(info.warning)
    batch_size = max(1, int(request.batch_size))
    fixed = plan.model.inputs[0].fixed_batch
    if fixed is not None:
        batch_size = fixed

    csv_fd, csv_tmp = tempfile.mkstemp(prefix=".", suffix=".partial.csv", dir=os.path.dirname(csv_path))
    predictions_tmp = tempfile.mkdtemp(prefix=".flair-partial-", dir=predictions_dir) if predictions_dir else None
    try:
        with os.fdopen(csv_fd, "w", newline="", encoding="utf-8") as handle:
            scorer = _Scorer(plan, handle, predictions_tmp)
            pipeline_started = time.perf_counter()
            _Pipeline(plan, session, scorer, batch_size, fixed, is_canceled, on_progress).run()
            pipeline_seconds = time.perf_counter() - pipeline_started
        if scorer.scored == 0:
            first = "; ".join(f"{f['path']}: {f['error']}" for f in scorer.failed[:3])
            raise InputError(f"No sample of {dataset.root} could be scored ({scorer.failed_count} failed: {first}).")
        seconds = time.perf_counter() - started
        report = _report(plan, scorer, info, request, csv_path, predictions_dir, (seconds, pipeline_seconds), notes)
        _publish(csv_tmp, csv_path)
        if predictions_tmp is not None and predictions_dir is not None:
            for name in sorted(os.listdir(predictions_tmp)):
                os.replace(os.path.join(predictions_tmp, name), os.path.join(predictions_dir, name))
        _write_json_atomic(report_path, report)
    finally:
        if os.path.exists(csv_tmp):
            os.remove(csv_tmp)
        if predictions_tmp is not None and os.path.isdir(predictions_tmp):
            shutil.rmtree(predictions_tmp)
    on_progress(100.0)
    return BenchmarkResult(
        report=report,
        report_path=report_path,
        samples_csv_path=csv_path,
        predictions_dir=predictions_dir,
        session=info,
        samples=scorer.scored,
        failed=scorer.failed_count,
        seconds=seconds,
        warnings=notes,
    )


class _Pipeline:
    """Reader thread -> onnxruntime in the calling thread -> scorer thread."""

    def __init__(
        self,
        plan: BenchmarkPlan,
        session,
        scorer: _Scorer,
        batch_size: int,
        fixed_batch: int | None,
        is_canceled: Callable[[], bool],
        on_progress: Callable[[float], None],
    ) -> None:
        self.plan = plan
        self.session = session
        self.scorer = scorer
        self.reader = _Reader(plan, batch_size)
        self.fixed_batch = fixed_batch
        self.is_canceled = is_canceled
        self.on_progress = on_progress
        self.output_names = [h.name for h in plan.heads.used]
        self.total = len(plan.dataset.samples)
        self.done = 0

    def _process(self, item: _Batch | _Failed) -> _Failed | tuple[_Batch, dict[str, np.ndarray]]:
        """Inference on a batch; a sample that failed to read goes straight to the scorer."""
        return item if isinstance(item, _Failed) else (item, self._infer(item))

    def _consume(self, item: _Failed | tuple[_Batch, dict[str, np.ndarray]]) -> None:
        if isinstance(item, _Failed):
            self.scorer.fail(item)
            self.done += 1
        else:
            batch, outputs = item
            self.scorer.score(batch, outputs)
            self.done += len(batch.loaded)
        self.on_progress(99.0 * self.done / self.total)

    def _infer(self, batch: _Batch) -> dict[str, np.ndarray]:
        feeds = batch.feeds
        try:
            results = run_batch(self.session, self.output_names, feeds, self.fixed_batch)
        except Exception as err:  # onnxruntime raises untyped errors (shape mismatch...)
            shapes = ", ".join(f"{k} {tuple(v.shape)}" for k, v in feeds.items())
            ids = f"{batch.loaded[0].sample.sample_id}..{batch.loaded[-1].sample.sample_id}"
            raise ModelError(
                f"onnxruntime failed on samples {ids} (inputs {shapes}): {str(err).splitlines()[0][:300]}"
            ) from err
        return dict(zip(self.output_names, results))

    def run(self) -> None:
        self.done = 0
        run_stages(
            lambda stop: self.reader.items(self.plan.dataset.samples, stop),
            self._process,
            self._consume,
            is_canceled=self.is_canceled,
            name="flair-bench",
        )


def _report(
    plan: BenchmarkPlan,
    scorer: _Scorer,
    info: SessionInfo,
    request: BenchmarkRequest,
    csv_path: str,
    predictions_dir: str | None,
    timing: tuple[float, float],
    notes: list[str],
) -> dict:
    """The DESIGN.md report plus the benchmark block and the protocol's own metrics.

    ``timing`` is ``(total seconds, pipeline seconds)``; samples per second is the pipeline's
    throughput (reading, inference and scoring; session creation and discovery excluded).
    """
    report = build_report(scorer.total, plan.protocol, strict=False)
    if "undeclared_values" in report:
        notes.append(
            "Values outside the protocol's classes were left out of the scores: "
            + json.dumps(report["undeclared_values"])
            + ". Check that the protocol matches the dataset and the model's classes."
        )
    dataset = plan.dataset
    evaluated_f1 = [c["f1"] for c in report["classes"] if c["f1"] is not None]
    report["mf1"] = float(np.mean(evaluated_f1)) if evaluated_f1 else None
    report["benchmark"] = {
        "dataset": dataset.root,
        "layout": dataset.layout,
        "label_modality": dataset.label_modality or None,
        "model": plan.model.path,
        "device": info.device,
        "provider": info.provider,
        "inputs": [p.to_dict() for p in plan.inputs],
        "segmentation_output": plan.heads.segmentation.name if plan.heads.segmentation else None,
        "class_values": [int(v) for v in plan.class_lut],
        "samples_found": len(dataset.samples),
        "samples_scored": scorer.scored,
        "samples_failed": scorer.failed_count,
        "failed": scorer.failed,
        "unpaired_count": len(dataset.unpaired),
        "unpaired": dataset.unpaired[:_LISTED_MAX],
        "on_unpaired": request.on_unpaired,
        "seconds": timing[0],
        "pipeline_seconds": timing[1],
        "samples_per_second": scorer.scored / timing[1] if timing[1] > 0 else None,
        "samples_csv": csv_path,
        "predictions_dir": predictions_dir,
        "per_sample_miou": "mean IoU of the evaluated classes present in the sample (reference or prediction)",
        "worst_samples": scorer.worst_samples(),
    }
    if dataset.layout == LAYOUT_WEEDSENSE or plan.protocol.name == "weedsense":
        miou = report["miou"]
        report["miou_percent"] = miou * 100.0 if miou is not None else None
        report["mf1_percent"] = report["mf1"] * 100.0 if report["mf1"] is not None else None
        height = scorer.heights.result("cm")
        stages = scorer.stages.result()
        report["height"] = height if plan.height_head is not None else None
        for key in ("mae_cm", "rmse_cm", "r2", "max_error_cm", "within_1cm", "within_2cm", "within_5cm"):
            report[key] = height[key] if plan.height_head is not None else None
        for key in ("within_1cm", "within_2cm", "within_5cm"):
            value = report[key]
            report[key + "_percent"] = value * 100.0 if value is not None else None
        report["growth_stage"] = stages if plan.stage_head is not None else None
        report["accuracy"] = stages["accuracy"] if plan.stage_head is not None else None
        report["f1"] = stages["f1"] if plan.stage_head is not None else None
        report["accuracy_percent"] = report["accuracy"] * 100.0 if report["accuracy"] is not None else None
        report["f1_percent"] = report["f1"] * 100.0 if report["f1"] is not None else None
    report["class_alignment"] = plan.alignment.to_dict()
    report["warnings"] = list(notes)
    return report


def _publish(tmp: str, path: str) -> None:
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)
    os.replace(tmp, path)


def _write_json_atomic(path: str, data: dict) -> None:
    folder = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(prefix=".", suffix=".partial.json", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2, allow_nan=False, default=_json_default)
            handle.write("\n")
        _publish(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def _json_default(value: object) -> object:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, FlairError):
        return str(value)
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")
