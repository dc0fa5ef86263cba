"""Builders for evaluation tests: predictions perturbed from real FLAIR masks, polygons made from
masks, and an independent per-class computation of the published metrics (loops over classes,
boolean masks: deliberately not the confusion-matrix code under test)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import rasterio
from conftest import FLAIR_DATA
from rasterio.crs import CRS

FLAIR_IDS = ("000473", "000687", "002115", "024577", "034217", "036294", "050549", "084558", "087873")


def read_mask(patch: str) -> tuple[np.ndarray, dict]:
    """A real FLAIR reference mask and its profile (LOCAL_CS, float-noise transform)."""
    with rasterio.open(FLAIR_DATA / f"MSK_{patch}.tif") as src:
        return src.read(1), src.profile


def perturb(mask: np.ndarray, seed: int, rate: float, values: np.ndarray | list[int]) -> np.ndarray:
    """Copy of ``mask`` where a ``rate`` share of pixels get a random value from ``values``,
    plus a shifted block (spatially structured errors)."""
    rng = np.random.default_rng(seed)
    pred = mask.copy()
    hit = rng.random(mask.shape) < rate
    pred[hit] = rng.choice(np.asarray(values), size=int(hit.sum()))
    pred[100:200, 50:300] = np.roll(mask, 17, axis=1)[100:200, 50:300]
    return pred


def write_raster(
    path: Path, array: np.ndarray, profile: dict, *, nodata=None, crs=None, transform=None, dtype=None
) -> Path:
    """Write ``array`` with a FLAIR profile, optionally changing nodata, CRS, transform, dtype."""
    out = dict(profile)
    out.update(
        driver="GTiff", count=1, dtype=dtype or array.dtype.name, nodata=nodata, height=array.shape[0],
        width=array.shape[1], compress="deflate",
    )  # fmt: skip
    if crs is not None:
        out["crs"] = crs
    if transform is not None:
        out["transform"] = transform
    with rasterio.open(path, "w", **out) as dst:
        dst.write(array.astype(out["dtype"]), 1)
    return path


def image_crs() -> CRS:
    """The EPSG:2154 CRS the FLAIR images carry (the masks carry a LOCAL_CS of the same name)."""
    with rasterio.open(FLAIR_DATA / "IMG_000473.tif") as src:
        return src.crs


def polygons_from_mask(mask: np.ndarray, transform, crs, path: Path, field: str = "code", as_text: bool = False):
    """A GeoPackage of the mask's regions (rasterio.features.shapes), class in ``field``."""
    import geopandas as gpd
    from rasterio.features import shapes
    from shapely.geometry import shape

    geoms, values = [], []
    for geom, value in shapes(mask, transform=transform):
        geoms.append(shape(geom))
        values.append(str(int(value)) if as_text else int(value))
    gdf = gpd.GeoDataFrame({field: values}, geometry=geoms, crs=crs)
    gdf.to_file(path, driver="GPKG")
    return path


def independent_scores(ref: np.ndarray, pred: np.ndarray, protocol: str, absent: str | None = None) -> dict:
    """The published computations, written per class with boolean masks.

    flair1: IGN generate_miou (codes >= 13 -> other on both sides, IoU over 1..12 from the 13-class
    counts, NaN skipped, OA over the 13 classes). flairhub-*: IGN compute_and_save_metrics (pixels of
    dropped classes on either side removed, NaN IoU -> 0). weedsense: evaluation card (255 ignored,
    absent -> 1.0).
    """
    ref = ref.astype(np.int64).ravel()
    pred = pred.astype(np.int64).ravel()
    if protocol == "flair1":
        ref = np.where(ref >= 13, 13, ref)
        pred = np.where(pred >= 13, 13, pred)
        keep = np.isin(ref, range(1, 14)) & np.isin(pred, range(1, 14))
        evaluated, default_absent = list(range(1, 13)), "skip"
    elif protocol == "flairhub-landcover":
        evaluated, default_absent = list(range(15)), "zero"
        keep = np.isin(ref, evaluated) & np.isin(pred, evaluated)
    elif protocol == "flairhub-croptype":
        evaluated, default_absent = [v for v in range(23) if v not in (5, 9)], "zero"
        keep = np.isin(ref, evaluated) & np.isin(pred, evaluated)
    elif protocol == "weedsense":
        evaluated, default_absent = list(range(17)), "one"
        keep = (ref != 255) & (pred != 255)
    else:
        raise ValueError(protocol)
    absent = absent or default_absent
    ref, pred = ref[keep], pred[keep]
    ious = {}
    for c in evaluated:
        p, g = pred == c, ref == c
        inter, union = int(np.sum(p & g)), int(np.sum(p | g))
        if union == 0:
            ious[c] = {"skip": None, "one": 1.0, "zero": 0.0}[absent]
        else:
            ious[c] = inter / union
    kept = [v for v in ious.values() if v is not None]
    return {
        "ious": ious,
        "miou": float(np.mean(kept)) if kept else None,
        "oa": float(np.mean(ref == pred)) if len(ref) else None,
        "pixels": len(ref),
    }
