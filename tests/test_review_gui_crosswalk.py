"""The Review tab on a review drawn through a crosswalk (issue 40): the card shows the reference's
own code beside the label class; where the class decided has several codes the tab offers them,
the most frequent first, and the code picked is what flair:apply_review writes back."""

from __future__ import annotations

import json

import geopandas as gpd
import numpy as np
import rasterio
from gui_helpers import show_review_tab
from rasters import write_raster
from shapely.geometry import box

from flair_qgis.core.nomenclature import FLAIR1_MODEL_CLASSES
from flair_qgis.core.review import SampleRequest, create_review
from flair_qgis.core.review.polygon_apply import apply_review_polygons
from flair_qgis.core.review.store import ReviewStore
from flair_qgis.core.score import parse_crosswalk

CSV = "reference,class\nCS1.1.1.1,building\nCS2.1.1.1,deciduous\nCS2.1.1.3,7\n"
# Six cells: CS2.1.1.3 is the more frequent deciduous code (3 cells against 1).
CODES = ["CS1.1.1.1", "CS2.1.1.1", "CS2.1.1.3", "CS2.1.1.3", "CS2.1.1.3", "CS1.1.1.1"]
PREDICTED = [7, 1, 1, 1, 1, 7]


def _review(tmp_path, double_review: float = 0.0):
    classes = np.repeat(np.array(PREDICTED, dtype=np.uint8), 10)[None, None, :].repeat(20, axis=1)
    prediction = write_raster(tmp_path / "map.tif", classes)
    declared = [{"value": c.value, "name": c.name, "color": c.color} for c in FLAIR1_MODEL_CLASSES]
    with rasterio.open(prediction, "r+") as dst:
        dst.update_tags(1, CLASSES=json.dumps(declared))
        left, bottom, right, top = dst.bounds
    step = (right - left) / len(CODES)
    cells = [box(left + k * step, bottom, left + (k + 1) * step, top) for k in range(len(CODES))]
    gdf = gpd.GeoDataFrame({"cs": CODES}, geometry=cells, crs="EPSG:2154")
    review = tmp_path / "review.gpkg"
    create_review(SampleRequest(str(prediction), str(review), design="suspicious", samples=10, reference_polygons=gdf,
                                reference_field="cs", crosswalk=parse_crosswalk(CSV, "ocsge.csv"),
                                double_review=double_review))  # fmt: skip
    return prediction, gdf, review


def test_codes_beside_the_class_and_offered_most_frequent_first(plugin, qgis_canvas, qtbot, tmp_path):
    prediction, gdf, review = _review(tmp_path)
    panel = show_review_tab(plugin, qgis_canvas, prediction)
    assert panel.open_review(str(review))
    session = panel.session
    # Go to the item of the building-coded cell predicted deciduous (cell 0).
    with ReviewStore.open(review) as store:
        own = store.column("reference_code")
    target = next(k for k, i in enumerate(session.items) if own[i.item_id] == "CS1.1.1.1")
    session.go_to(target)
    panel.show_current()
    assert "CS1.1.1.1" in panel.card.text() and not panel.code_chooser.isVisibleTo(panel)
    deciduous_row = next(r for r in range(panel.class_table.rowCount()) if panel.class_table.item(r, 0).text() == "7")
    panel.advance_check.setChecked(False)
    panel._on_class_clicked(deciduous_row, 0)  # the ground is deciduous: 7 has two codes
    combo = panel.code_chooser.combo
    assert panel.code_chooser.isVisibleTo(panel)
    assert [combo.itemText(k) for k in range(1, combo.count())] == ["CS2.1.1.3", "CS2.1.1.1"]
    item_id = session.current.item_id
    # Not named yet: apply_review lists the polygon, never guesses.
    result = apply_review_polygons(gdf, "cs", str(review), str(tmp_path / "a.gpkg"))
    assert result.changed == 0 and len(result.conflicts) == 1
    combo.activated.emit(2)  # CS2.1.1.1
    with ReviewStore.open(review) as store:
        assert store.column("true_code")[item_id] == "CS2.1.1.1"
        assert store.item(item_id).true_class == 7 and store.item(item_id).verdict == "wrong"
    assert combo.currentText() == "CS2.1.1.1"
    apply_review_polygons(gdf, "cs", str(review), str(tmp_path / "b.gpkg"))
    fixed = gpd.read_file(tmp_path / "b.gpkg", layer="reference_corrected")
    assert fixed["cs"].tolist()[0] == "CS2.1.1.1"


def _row_of(panel, value: int) -> int:
    return next(r for r in range(panel.class_table.rowCount()) if panel.class_table.item(r, 0).text() == str(value))


def _as(panel, name: str, mode: str, item_id: int) -> None:
    """Reopen the review as ``name`` in ``mode``, on item ``item_id``."""
    panel.reviewer_edit.setText(name)
    panel.reviewer_edit.editingFinished.emit()
    panel.mode_combo.setCurrentIndex(panel.mode_combo.findData(mode))
    panel.session.go_to(next(k for k, i in enumerate(panel.session.items) if i.item_id == item_id))
    panel.show_current()


def test_code_picker_in_blind_second_review_and_adjudication(plugin, qgis_canvas, qtbot, tmp_path):
    prediction, gdf, review = _review(tmp_path, double_review=1.0)
    panel = show_review_tab(plugin, qgis_canvas, prediction)
    assert panel.open_review(str(review))
    with ReviewStore.open(review) as store:
        item_id = next(k for k, v in store.column("reference_code").items() if v == "CS1.1.1.1")
    combo = panel.code_chooser.combo
    panel.advance_check.setChecked(False)
    try:
        _as(panel, "ana", "first", item_id)
        panel._on_class_clicked(_row_of(panel, 7), 0)
        combo.activated.emit(2)  # the first interpreter names CS2.1.1.1
        _as(panel, "ben", "second", item_id)
        assert not panel.code_chooser.isVisibleTo(panel)  # no verdict of ben's yet
        panel._on_class_clicked(_row_of(panel, 7), 0)
        # Blind: the first interpreter's code is not shown as chosen.
        assert panel.code_chooser.isVisibleTo(panel) and combo.currentIndex() == 0
        combo.activated.emit(1)  # CS2.1.1.3, the most frequent
        assert combo.currentText() == "CS2.1.1.3"
        with ReviewStore.open(review) as store:
            assert store.true_codes("second") == {item_id: "CS2.1.1.3"}
            assert store.true_codes("first") == {item_id: "CS2.1.1.1"}
        panel._on_class_clicked(_row_of(panel, 1), 0)  # ben now sees building: a disagreement
        _as(panel, "chief", "adjudicate", item_id)
        panel._on_class_clicked(_row_of(panel, 7), 0)
        assert panel.code_chooser.isVisibleTo(panel) and combo.currentIndex() == 0
        combo.activated.emit(1)
        with ReviewStore.open(review) as store:
            assert store.adjudications()[item_id][0] == 7
            assert store.true_codes("adjudicate") == {item_id: "CS2.1.1.3"}
        assert combo.currentText() == "CS2.1.1.3"
    finally:
        panel.mode_combo.setCurrentIndex(0)
        panel.close_review()
    # The adjudicated code wins over the first interpreter's CS2.1.1.1.
    apply_review_polygons(gdf, "cs", str(review), str(tmp_path / "fixed.gpkg"))
    fixed = gpd.read_file(tmp_path / "fixed.gpkg", layer="reference_corrected")
    assert fixed["cs"].tolist()[0] == "CS2.1.1.3"
