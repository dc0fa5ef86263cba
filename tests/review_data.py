"""Inputs of the label-review tests: the demo model's prediction on a real FLAIR patch, its
real reference mask, the same reference in other CRSs and as polygons."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import rasterio
from conftest import FLAIR_DATA, REPO

DEMO_MODEL = REPO / "resources" / "models" / "flair-demo-unet.onnx"
PATCH_ID = "000473"


def demo_prediction(folder: Path) -> tuple[Path, Path, Path]:
    """``(prediction, confidence, reference mask)`` for a real patch: the demo model run through
    ``flair:segment`` (QGIS must be up with the flair provider) and the patch's own MSK."""
    import processing

    folder.mkdir(parents=True, exist_ok=True)
    image = shutil.copy(FLAIR_DATA / f"IMG_{PATCH_ID}.tif", folder / f"IMG_{PATCH_ID}.tif")
    reference = shutil.copy(FLAIR_DATA / f"MSK_{PATCH_ID}.tif", folder / f"MSK_{PATCH_ID}.tif")
    result = processing.run(
        "flair:segment",
        {
            "INPUT": str(image),
            "MODEL": str(DEMO_MODEL),
            "OUTPUT": str(folder / "prediction.tif"),
            "OUTPUT_CONFIDENCE": str(folder / "confidence.tif"),
            "DEVICE": "cpu",
        },
    )
    return Path(result["OUTPUT"]), Path(result["OUTPUT_CONFIDENCE"]), Path(reference)


def reprojected(source: Path, target: Path, crs: str) -> Path:
    """``source`` warped to ``crs`` with nearest neighbour (class values kept)."""
    from rasterio.warp import Resampling, calculate_default_transform, reproject

    with rasterio.open(source) as src:
        src_crs = src.crs if src.crs and src.crs.to_epsg() else rasterio.crs.CRS.from_epsg(2154)
        transform, width, height = calculate_default_transform(src_crs, crs, src.width, src.height, *src.bounds)
        profile = {**src.profile, "crs": crs, "transform": transform, "width": width, "height": height, "nodata": 0}
        with rasterio.open(target, "w", **profile) as dst:
            reproject(
                src.read(1), rasterio.band(dst, 1), src_transform=src.transform, src_crs=src_crs, dst_crs=crs,
                resampling=Resampling.nearest, dst_nodata=0,
            )  # fmt: skip
    return target


def polygons_of_mask(mask: Path, target: Path, crs: str | None = None) -> Path:
    """The mask's regions as polygons with a ``code`` field (EPSG:2154, or moved to ``crs``)."""
    import geopandas as gpd
    from rasterio.features import shapes
    from shapely.geometry import shape

    with rasterio.open(mask) as src:
        data = src.read(1)
        regions = [(shape(g), int(v)) for g, v in shapes(data, transform=src.transform)]
    gdf = gpd.GeoDataFrame({"code": [v for _, v in regions]}, geometry=[g for g, _ in regions], crs="EPSG:2154")
    if crs:
        gdf = gdf.to_crs(crs)
    gdf.to_file(target, layer="labels", driver="GPKG")
    return target


def read_band(path: Path | str) -> np.ndarray:
    with rasterio.open(path) as src:
        return src.read(1)


def value_at(path: Path | str, x: float, y: float) -> int:
    """The raster value under a map point (same CRS)."""
    with rasterio.open(path) as src:
        row, col = src.index(x, y)
        return int(src.read(1)[row, col])


def classes_array(rng_seed: int = 0) -> np.ndarray:
    """A 1100 x 2000 class map over two 1 Mpx windows: classes 1..4 in bands, a 7-pixel class 9,
    and a nodata (0) border."""
    rows, cols = 1100, 2000
    data = np.ones((rows, cols), dtype=np.uint8)
    data[:, 600:1400] = 2
    data[:, 1400:1900] = 3
    data[:, 1900:] = 4
    data[700:, :] = np.where(data[700:, :] == 1, 3, data[700:, :])
    data[1000, 100:107] = 9
    data[:5, :] = 0
    rng = np.random.default_rng(rng_seed)
    flip = rng.random((rows, cols)) < 0.01
    data[flip & (data > 0) & (data != 9)] = 4
    return data
