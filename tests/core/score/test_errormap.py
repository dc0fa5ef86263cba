"""core.score.errormap and core.score.errormap_writer: error codes of pixel pairs under a protocol, written
window by window, published with a legend; nothing left behind on abort."""

from __future__ import annotations

import numpy as np
import rasterio
from affine import Affine

from flair_qgis.core.engine.grid import Grid
from flair_qgis.core.score.errormap import CORRECT, FIRST_MISSED, NOT_EVALUATED, error_classes, error_window, uint8_lut
from flair_qgis.core.score.errormap_writer import ErrorMapOutput
from flair_qgis.core.score.protocols import get_protocol


def _expected(protocol, ref: np.ndarray, pred: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Codes written out one pixel at a time from the protocol's definitions."""
    index = {c.value: i for i, c in enumerate(protocol.classes)}
    out = np.zeros(ref.shape, dtype=np.int64)
    for (r, c), ok in np.ndenumerate(valid):
        a, b = int(ref[r, c]), int(pred[r, c])
        if not ok or a in protocol.ignore or b in protocol.ignore:
            continue
        a, b = protocol.class_value(a), protocol.class_value(b)
        if a not in index or b not in index:
            continue
        if protocol.drop_excluded and (a not in protocol.evaluated or b not in protocol.evaluated):
            continue
        out[r, c] = CORRECT if a == b else FIRST_MISSED + index[a]
    return out


def test_flair1_codes_regroup_other_and_keep_it_in_the_map():
    protocol = get_protocol("flair1")
    rng = np.random.default_rng(2)
    ref = rng.integers(1, 20, (40, 40)).astype(np.uint8)
    pred = rng.integers(1, 20, (40, 40)).astype(np.uint8)
    valid = rng.random((40, 40)) > 0.1
    lut = uint8_lut(protocol, protocol.classes, "uint8")
    got = error_window(protocol, protocol.classes, reference=ref, prediction=pred, valid=valid, dtype="uint8", lut=lut)
    np.testing.assert_array_equal(got, _expected(protocol, ref, pred, valid))
    # 14 (snow) against 19 (other) is correct once both are regrouped into 13.
    snow, other, one_px = np.array([[14]], np.uint8), np.array([[19]], np.uint8), np.ones((1, 1), bool)
    one = error_window(
        protocol, protocol.classes, reference=snow, prediction=other, valid=one_px, dtype="uint8", lut=lut
    )
    assert one[0, 0] == CORRECT


def test_weedsense_ignored_and_wide_values_take_the_slow_path():
    protocol = get_protocol("weedsense")
    ref = np.array([[0, 5, 255, 3]], dtype=np.int32)
    pred = np.array([[0, 6, 5, 300]], dtype=np.int32)
    valid = np.ones(ref.shape, bool)
    got = error_window(protocol, protocol.classes, reference=ref, prediction=pred, valid=valid, dtype="uint8", lut=None)
    assert got.tolist() == [[CORRECT, FIRST_MISSED + 5, NOT_EVALUATED, NOT_EVALUATED]]


def test_legend_names_the_missed_class():
    legend = error_classes(get_protocol("flair1").classes)
    assert [e.value for e in legend[:3]] == [NOT_EVALUATED, CORRECT, FIRST_MISSED]
    assert "building" in legend[2].name and "(1)" in legend[2].name


def test_output_written_by_windows_and_published_with_style(tmp_path):
    protocol = get_protocol("flair1")
    grid = Grid(Affine(0.2, 0, 650000, 0, -0.2, 6860000), 64, 48, rasterio.crs.CRS.from_epsg(2154).to_wkt())
    path = tmp_path / "errors.tif"
    out = ErrorMapOutput(str(path), grid, protocol)
    ref = np.full((48, 64), 7, np.uint8)
    pred = ref.copy()
    pred[:, 32:] = 2
    valid = np.ones(ref.shape, bool)
    out.write(ref[:24], pred[:24], valid[:24], 0, 0)
    out.write(ref[24:], pred[24:], valid[24:], 24, 0)
    assert not path.exists()  # published on commit only
    assert out.commit() == str(path)
    with rasterio.open(path) as src:
        codes = src.read(1)
        assert src.tags()["FLAIR_ERROR_MAP"] == "1"
    assert (codes[:, :32] == CORRECT).all() and (codes[:, 32:] == FIRST_MISSED + 6).all()
    assert (tmp_path / "errors.qml").is_file()


def test_abort_leaves_nothing(tmp_path):
    grid = Grid(Affine(1, 0, 0, 0, -1, 16), 16, 16, None)
    out = ErrorMapOutput(str(tmp_path / "e.tif"), grid, get_protocol("flair1"))
    out.write(np.ones((16, 16), np.uint8), np.ones((16, 16), np.uint8), np.ones((16, 16), bool), 0, 0)
    out.abort()
    assert list(tmp_path.iterdir()) == []
