"""A real FLAIR mask recoded to a numbering of its own, for apply_review through a numeric crosswalk
(issue 40): deciduous (7) has two codes (71 left half, 72 right half), herbaceous (10) becomes 99,
left out of the crosswalk; nodata 0."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from eval_helpers import perturb, read_mask, write_raster

PATCH = "024577"  # classes 1, 2, 3, 5, 7, 8, 10
OWN = {1: 11, 2: 20, 3: 30, 5: 50, 8: 80, 10: 99}  # 7 -> 71 / 72 by half
CSV = "reference,class\n11,1\n20,2\n30,3\n50,5\n71,7\n72,7\n80,8\n"  # 99 not listed
NODATA = 0


def own_codes(mask: np.ndarray) -> np.ndarray:
    codes = np.zeros_like(mask)
    for value, code in OWN.items():
        codes[mask == value] = code
    half = mask.shape[1] // 2
    codes[:, :half][mask[:, :half] == 7] = 71
    codes[:, half:][mask[:, half:] == 7] = 72
    return codes


def raster_case(tmp_path: Path) -> tuple[Path, Path]:
    """``(reference with own codes, prediction)`` GeoTIFFs of the patch."""
    mask, profile = read_mask(PATCH)
    reference = write_raster(tmp_path / "own.tif", own_codes(mask), profile, nodata=NODATA)
    prediction = write_raster(tmp_path / "pred.tif", perturb(mask, seed=5, rate=0.3, values=[1, 7, 8]), profile)
    return reference, prediction


def cell_of(src, item) -> tuple[int, int]:
    """The (row, col) of the raster ``src`` under a review item."""
    from shapely import wkt

    point = wkt.loads(item.wkt).representative_point()
    return src.index(point.x, point.y)
