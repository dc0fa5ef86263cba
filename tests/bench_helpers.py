"""Exact toy models and small generated datasets for the benchmark and multi-head tests.

Models are built with ``onnx.helper``; every one computes integer-exact scores on integer pixels
(small integer weights, normalisation by powers of two), so a test can recompute the class map
with numpy and expect the same pixels. Datasets are written with a fixed seed in the layouts
their authors publish: FLAIR #1 (IGN folders), FLAIR-HUB (per-modality files) and WeedSense.
"""

from __future__ import annotations

import csv
import shutil
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import rasterio
import rasterio.errors
from onnx import TensorProto, helper, numpy_helper
from rasterio.crs import CRS
from rasterio.transform import from_origin
from toy_models import OPSET, save

LAMBERT93 = CRS.from_epsg(2154)


def _model(nodes: list, inputs: list, outputs: list, inits: list) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "toy", inputs, outputs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])


def _value(name: str, dims: Sequence[Any]) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, list(dims))


def int_weights(shape: tuple[int, ...], seed: int, low: int = -3, high: int = 4) -> np.ndarray:
    """Small integer weights as float32: sums of their products with integers stay exact."""
    return np.random.default_rng(seed).integers(low, high, size=shape).astype(np.float32)


def pixel_conv_model(path: Path, weights: np.ndarray, metadata: Mapping[str, Any] | None = None, *,
                     tile: int | None = None, batch: int | None = None) -> Path:  # fmt: skip
    """scores = W x per pixel (a 1x1 convolution without bias), ``W`` of shape ``(classes, channels)``."""
    classes, channels = weights.shape
    w = numpy_helper.from_array(weights.reshape(classes, channels, 1, 1).astype(np.float32), "w")
    dims_in = [batch or "N", channels, tile or "H", tile or "W"]
    dims_out = [batch or "N", classes, tile or "H", tile or "W"]
    model = _model([helper.make_node("Conv", ["x", "w"], ["scores"])], [_value("x", dims_in)],
                   [_value("scores", dims_out)], [w])  # fmt: skip
    return save(model, path, metadata)


def fusion_model(path: Path, w_aerial: np.ndarray, w_dem: np.ndarray, metadata: Mapping[str, Any]) -> Path:
    """Two inputs: ``aerial`` (N, 3, H, W) and ``dem`` (N, 2, H/2, W/2) at half the resolution.

    scores = W_a aerial + W_d upsample2(dem), the DEM repeated over 2x2 pixels (nearest).
    """
    classes = w_aerial.shape[0]
    inits = [
        numpy_helper.from_array(w_aerial.reshape(classes, 3, 1, 1).astype(np.float32), "wa"),
        numpy_helper.from_array(w_dem.reshape(classes, 2, 1, 1).astype(np.float32), "wd"),
        numpy_helper.from_array(np.array([1, 1, 2, 2], dtype=np.float32), "scales"),
    ]
    nodes = [
        helper.make_node("Conv", ["aerial", "wa"], ["sa"]),
        helper.make_node("Conv", ["dem", "wd"], ["sd_low"]),
        helper.make_node(
            "Resize",
            ["sd_low", "", "scales"],
            ["sd"],
            mode="nearest",
            coordinate_transformation_mode="asymmetric",
            nearest_mode="floor",
        ),
        helper.make_node("Add", ["sa", "sd"], ["scores"]),
    ]
    inputs = [_value("aerial", ["N", 3, "H", "W"]), _value("dem", ["N", 2, "h", "w"])]
    return save(_model(nodes, inputs, [_value("scores", ["N", classes, "H", "W"])], inits), path, metadata)


def weedsense_model(path: Path, w_seg: np.ndarray, w_stage: np.ndarray, height_gain: float,
                    metadata: Mapping[str, Any]) -> Path:  # fmt: skip
    """Three heads on an RGB image (N, 3, H, W):

    * ``mask`` (N, 17, H, W) = W_seg x per pixel;
    * ``height`` (N, 1) = height_gain * mean over pixels of the first (red) channel;
    * ``stage`` (N, 11) = W_stage times the per-channel means.
    """
    classes = w_seg.shape[0]
    inits = [
        numpy_helper.from_array(w_seg.reshape(classes, 3, 1, 1).astype(np.float32), "ws"),
        numpy_helper.from_array(w_stage.astype(np.float32).T.copy(), "wt"),  # (3, 11)
        numpy_helper.from_array(np.array([height_gain], dtype=np.float32), "gain"),
        numpy_helper.from_array(np.array([0], dtype=np.int64), "start"),
        numpy_helper.from_array(np.array([1], dtype=np.int64), "end"),
        numpy_helper.from_array(np.array([1], dtype=np.int64), "axis1"),
        numpy_helper.from_array(np.array([-1, 3], dtype=np.int64), "flat"),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "ws"], ["mask"]),
        helper.make_node("GlobalAveragePool", ["x"], ["means4"]),  # (N, 3, 1, 1)
        helper.make_node("Reshape", ["means4", "flat"], ["means"]),  # (N, 3)
        helper.make_node("Slice", ["means", "start", "end", "axis1"], ["red"]),  # (N, 1)
        helper.make_node("Mul", ["red", "gain"], ["height"]),
        helper.make_node("MatMul", ["means", "wt"], ["stage"]),  # (N, 11)
    ]
    outputs = [_value("mask", ["N", classes, "H", "W"]), _value("height", ["N", 1]), _value("stage", ["N", 11])]
    return save(_model(nodes, [_value("x", ["N", 3, "H", "W"])], outputs, inits), path, metadata)


# ----------------------------------------------------------------------------- datasets


def write_tif(path: Path, array: np.ndarray, *, origin: tuple[float, float] = (650000.0, 6860000.0),
              res: float = 0.2, crs: CRS | None = LAMBERT93, nodata: float | None = None) -> Path:  # fmt: skip
    """A GeoTIFF of ``(bands, rows, cols)`` or ``(rows, cols)`` at ``origin`` (top left) and ``res`` m."""
    data = array if array.ndim == 3 else array[None]
    path.parent.mkdir(parents=True, exist_ok=True)
    profile = {"driver": "GTiff", "width": data.shape[2], "height": data.shape[1], "count": data.shape[0],
               "dtype": str(data.dtype), "transform": from_origin(origin[0], origin[1], res, res)}  # fmt: skip
    if crs is not None:
        profile["crs"] = crs
    if nodata is not None:
        profile["nodata"] = nodata
    with rasterio.open(path, "w", **profile) as dst:
        dst.write(data)
    return path


def flair1_ign_layout(root: Path, images: Sequence[Path], masks: Sequence[Path]) -> list[tuple[Path, Path]]:
    """Copy IMG/MSK pairs into IGN's ``D0xx_YYYY/Zn_XX/img|msk`` tree (two domains, two zones)."""
    placed = []
    for i, (img, msk) in enumerate(zip(images, masks)):
        zone = root / ("D004_2021" if i % 2 == 0 else "D068_2021") / f"Z{i % 3 + 1}_UF"
        (zone / "img").mkdir(parents=True, exist_ok=True)
        (zone / "msk").mkdir(parents=True, exist_ok=True)
        placed.append(
            (Path(shutil.copy(img, zone / "img" / img.name)), Path(shutil.copy(msk, zone / "msk" / msk.name)))
        )
    return placed


def make_flair1_dataset(root: Path, count: int, size: int = 32, seed: int = 0) -> list[str]:
    """Random 5-band uint8 patches and masks of codes 1..19, in IGN's layout; returns the ids."""
    rng = np.random.default_rng(seed)
    ids = []
    staging = root.parent / f".{root.name}-staging"
    images, masks = [], []
    for i in range(count):
        patch = f"{i * 37 + 11:06d}"
        ids.append(patch)
        origin = (650000.0 + i * size * 0.2, 6860000.0)
        images.append(
            write_tif(
                staging / f"IMG_{patch}.tif", rng.integers(0, 256, (5, size, size), dtype=np.uint8), origin=origin
            )
        )
        masks.append(
            write_tif(staging / f"MSK_{patch}.tif", rng.integers(1, 20, (size, size), dtype=np.uint8), origin=origin)
        )
    flair1_ign_layout(root, images, masks)
    shutil.rmtree(staging)
    return ids


def flairhub_name(domain: str, year: str, modality: str, zone: str, tile: str) -> str:
    """A FLAIR-HUB file path relative to the dataset root, as in IGN's index."""
    return f"{domain}-{year}_{modality}/{zone}/{domain}-{year}_{modality}_{zone}_{tile}.tif"


def make_flairhub_dataset(root: Path, count: int, size: int = 32, seed: int = 0,
                          modalities: Sequence[str] = ("AERIAL_RGBI", "DEM_ELEV")) -> list[dict]:  # fmt: skip
    """FLAIR-HUB patches: RGBI uint8 at 0.2 m, DEM float32 (DSM, DTM) at 0.4 m, COSIA 0..18 and
    LPIS 0..22 labels at 0.2 m. Returns, per patch, its id and arrays."""
    rng = np.random.default_rng(seed)
    patches = []
    for i in range(count):
        domain, year, zone, tile = ("D012", "2019", "AF-S1-27", f"{i}-{i + 3}") if i % 2 == 0 else (
            "D006", "2020", "FU-S2-12", f"{i}-{i + 5}")  # fmt: skip
        origin = (700000.0 + i * size * 0.2, 6500000.0)
        rgbi = rng.integers(0, 256, (4, size, size), dtype=np.uint8)
        dem = rng.integers(100, 400, (2, size // 2, size // 2)).astype(np.float32)
        cosia = rng.integers(0, 19, (size, size), dtype=np.uint8)
        lpis = rng.integers(0, 23, (size, size), dtype=np.uint8)
        arrays = {"AERIAL_RGBI": (rgbi, 0.2), "DEM_ELEV": (dem, 0.4), "AERIAL_LABEL-COSIA": (cosia, 0.2),
                  "ALL_LABEL-LPIS": (lpis, 0.2)}  # fmt: skip
        for modality, (array, res) in arrays.items():
            if modality in modalities or "LABEL" in modality:
                write_tif(root / flairhub_name(domain, year, modality, zone, tile), array, origin=origin, res=res)
        patches.append({"id": f"{domain}-{year}_{zone}_{tile}", "rgbi": rgbi, "dem": dem, "cosia": cosia, "lpis": lpis})
    return patches


def write_png(path: Path, array: np.ndarray) -> Path:
    """A PNG (no georeferencing) of ``(bands, rows, cols)`` or ``(rows, cols)`` uint8."""
    data = array if array.ndim == 3 else array[None]
    path.parent.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rasterio.errors.NotGeoreferencedWarning)
        with rasterio.open(
            path, "w", driver="PNG", width=data.shape[2], height=data.shape[1], count=data.shape[0], dtype="uint8"
        ) as dst:
            dst.write(data)
    return path


def make_weedsense_dataset(root: Path, count: int, size: int = 32, seed: int = 0) -> list[dict]:
    """WeedSense images (PNG RGB), masks (PNG 0..16 with some 255) and labels.csv."""
    rng = np.random.default_rng(seed)
    samples = []
    rows = []
    for i in range(count):
        stem = f"plant_{i:03d}"
        image = rng.integers(0, 256, (3, size, size), dtype=np.uint8)
        mask = rng.integers(0, 17, (size, size), dtype=np.uint8)
        mask[rng.random((size, size)) < 0.05] = 255
        write_png(root / "images" / f"{stem}.png", image)
        write_png(root / "masks" / f"{stem}.png", mask)
        height = round(float(rng.uniform(1, 60)), 2)
        week = int(rng.integers(1, 12))
        rows.append({"image": f"{stem}.png", "height_cm": height, "growth_week": week})
        samples.append({"id": stem, "image": image, "mask": mask, "height_cm": height, "growth_week": week})
    with open(root / "labels.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["image", "height_cm", "growth_week"])
        writer.writeheader()
        writer.writerows(rows)
    return samples
