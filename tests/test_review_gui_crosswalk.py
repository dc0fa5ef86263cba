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


def _review(tmp_path):
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
                                reference_field="cs", crosswalk=parse_crosswalk(CSV, "ocsge.csv")))  # fmt: skip
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
