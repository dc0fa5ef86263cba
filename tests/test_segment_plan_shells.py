"""The dock and flair:segment plan the same run: same bands, same mask, same refusals."""

from __future__ import annotations

import numpy as np
import pytest
import rasterio
from gui_helpers import add_raster, messages, run_and_wait
from qgis.core import (
    Qgis,
    QgsFeature,
    QgsGeometry,
    QgsPointXY,
    QgsProcessingException,
    QgsProject,
    QgsRectangle,
    QgsVectorLayer,
)
from rasters import random_image, read, write_raster
from toy_models import identity_model

from flair_qgis.core.engine.grid import affine_xy
from flair_qgis.core.vocabulary import EXTENT_LAYER, EXTENT_POLYGONS

RGBI_MODEL = {
    "model_type": "Segmentor",
    "mean": [0.0] * 4,
    "std": [1.0] * 4,
    "bands": ["R", "G", "B", "NIR"],
    "classes": [{"value": v, "name": n, "color": c} for v, n, c in
                [(1, "r", "#ff0000"), (2, "g", "#00ff00"), (3, "b", "#0000ff"), (4, "nir", "#888888")]],
    "tile_size": 64,
}  # fmt: skip


@pytest.fixture
def bgri(tmp_path):
    """A 4-band raster whose band descriptions are Blue, Green, Red, NIR."""
    folder = tmp_path / "in"
    folder.mkdir()
    path = write_raster(folder / "bgri.tif", random_image(120, 90, bands=4, seed=3))
    with rasterio.open(path, "r+") as dst:
        for index, name in enumerate(["Blue", "Green", "Red", "NIR"], start=1):
            dst.set_band_description(index, name)
    return path


@pytest.fixture
def rgbi_model(tmp_path):
    return identity_model(tmp_path / "models" / "rgbi.onnx", 4, metadata=RGBI_MODEL)


def _segment(run_alg, raster, model, out, **params):
    return run_alg("flair:segment", {"INPUT": str(raster), "MODEL": str(model), "OUTPUT": str(out), **params})


def test_dock_and_processing_choose_the_same_bands(plugin, qtbot, run_alg, tmp_path, bgri, rgbi_model):
    out = tmp_path / "out"
    out.mkdir()
    explicit = read(_segment(run_alg, bgri, rgbi_model, out / "explicit.tif", BANDS="3,2,1,4")["OUTPUT"])
    by_name = read(_segment(run_alg, bgri, rgbi_model, out / "default.tif")["OUTPUT"])
    in_order = read(_segment(run_alg, bgri, rgbi_model, out / "in_order.tif", BANDS="1,2,3,4")["OUTPUT"])

    dock = plugin.dock
    layer = add_raster(bgri)
    assert dock.set_model(str(rgbi_model))
    dock.layer_combo.setLayer(layer)
    assert dock.bands() == (3, 2, 1, 4)
    dock.set_extent_mode(EXTENT_LAYER)
    dock.segment.run_section.output_widget.setFilePath(str(out / "dock.tif"))
    run_and_wait(qtbot, dock)
    from_dock = read(out / "dock.tif")

    with rasterio.open(bgri) as src:
        image = src.read()
    expected = np.argmax(image[[2, 1, 0, 3]], axis=0) + 1  # classes 1..4 = model channels R, G, B, NIR
    assert (explicit == expected).all()
    assert (by_name == explicit).all() and (from_dock == explicit).all()
    assert (in_order != explicit).mean() > 0.3  # the band order matters for this image


def _triangle_layer(raster_path) -> tuple[QgsVectorLayer, list[QgsPointXY]]:
    with rasterio.open(raster_path) as src:
        left, bottom = src.bounds.left, src.bounds.bottom
    triangle = [QgsPointXY(left + 2, bottom + 2), QgsPointXY(left + 15, bottom + 4), QgsPointXY(left + 5, bottom + 20)]
    layer = QgsVectorLayer("Polygon?crs=EPSG:2154", "zones", "memory")
    feature = QgsFeature()
    feature.setGeometry(QgsGeometry.fromPolygonXY([triangle]))
    other = QgsFeature()
    other.setGeometry(QgsGeometry.fromRect(QgsRectangle(left + 16, bottom + 21, left + 17, bottom + 22)))
    layer.dataProvider().addFeatures([feature, other])
    QgsProject.instance().addMapLayer(layer)
    return layer, triangle


def test_mask_parameter_matches_the_docks_selected_polygons(plugin, qtbot, run_alg, tmp_path, bgri, rgbi_model):
    from shapely.geometry import Point, Polygon

    zones, triangle = _triangle_layer(bgri)
    zones.selectByIds([f.id() for f in zones.getFeatures()][:1])  # the dock: only the triangle
    dock = plugin.dock
    dock.set_model(str(rgbi_model))
    dock.layer_combo.setLayer(add_raster(bgri))
    dock.set_extent_mode(EXTENT_POLYGONS)
    dock.segment.extent_section.polygon_combo.setLayer(zones)
    dock.segment.run_section.output_widget.setFilePath(str(tmp_path / "dock.tif"))
    run_and_wait(qtbot, dock)

    triangle_only = QgsVectorLayer("Polygon?crs=EPSG:2154", "triangle", "memory")
    triangle_only.dataProvider().addFeatures([next(zones.getSelectedFeatures())])
    result = _segment(run_alg, bgri, rgbi_model, tmp_path / "alg.tif", MASK=triangle_only)

    with rasterio.open(result["OUTPUT"]) as dst, rasterio.open(tmp_path / "dock.tif") as dock_out:
        classes, nodata, transform = dst.read(1), dst.nodata, dst.transform
        assert dst.transform == dock_out.transform and (dock_out.read(1) == classes).all()
        window = rasterio.open(bgri).window(*dst.bounds)
    shape = Polygon([(p.x(), p.y()) for p in triangle])
    inside = np.array(
        [[shape.contains(Point(*affine_xy(transform, c + 0.5, r + 0.5))) for c in range(classes.shape[1])]
         for r in range(classes.shape[0])]
    )  # fmt: skip
    with rasterio.open(bgri) as src:
        expected = np.argmax(src.read(window=window)[[2, 1, 0, 3]], axis=0) + 1
    assert inside.sum() > 500 and (~inside).sum() > 500
    assert (classes[~inside] == nodata).all() and (classes[inside] == expected[inside]).all()


def test_mask_without_polygon_area_is_refused(run_alg, tmp_path, bgri, rgbi_model):
    empty = QgsVectorLayer("Polygon?crs=EPSG:2154", "none", "memory")
    with pytest.raises(QgsProcessingException, match="no geometry"):
        _segment(run_alg, bgri, rgbi_model, tmp_path / "o.tif", MASK=empty)
    assert not (tmp_path / "o.tif").exists()


def test_processing_refuses_to_overwrite_its_input(run_alg, tmp_path, bgri, rgbi_model):
    before = bgri.read_bytes()
    with pytest.raises(QgsProcessingException, match="OUTPUT would overwrite INPUT"):
        _segment(run_alg, bgri, rgbi_model, bgri)
    link = tmp_path / "link.tif"
    link.symlink_to(bgri)
    with pytest.raises(QgsProcessingException, match="OUTPUT_CONFIDENCE would overwrite INPUT"):
        _segment(run_alg, bgri, rgbi_model, tmp_path / "c.tif", OUTPUT_CONFIDENCE=str(link))
    with pytest.raises(QgsProcessingException, match="OUTPUT would overwrite MODEL"):
        _segment(run_alg, bgri, rgbi_model, rgbi_model)
    assert bgri.read_bytes() == before and not (tmp_path / "c.tif").exists()


def test_processing_refuses_to_overwrite_its_mask(run_alg, tmp_path, bgri, rgbi_model):
    zones, _triangle = _triangle_layer(bgri)
    gpkg = tmp_path / "zones.gpkg"
    from qgis.core import QgsVectorFileWriter

    QgsVectorFileWriter.writeAsVectorFormat(zones, str(gpkg), "utf-8", zones.crs(), "GPKG")
    before = gpkg.read_bytes()
    with pytest.raises(QgsProcessingException, match="OUTPUT would overwrite MASK"):
        _segment(run_alg, bgri, rgbi_model, gpkg, MASK=str(gpkg))
    assert gpkg.read_bytes() == before


def test_dock_refuses_to_overwrite_its_input(plugin, qgis_iface, tmp_path, bgri, rgbi_model):
    before = bgri.read_bytes()
    dock = plugin.dock
    dock.set_model(str(rgbi_model))
    dock.layer_combo.setLayer(add_raster(bgri))
    dock.set_extent_mode(EXTENT_LAYER)
    dock.segment.run_section.output_widget.setFilePath(str(bgri))
    assert dock.segment.run() is None
    warnings = " ".join(messages(qgis_iface, Qgis.Warning))
    assert "OUTPUT would overwrite INPUT" in warnings
    assert bgri.read_bytes() == before


def test_one_confidence_check_worded_for_each_shell(plugin, qgis_iface, run_alg, tmp_path, bgri):
    """A value map has no confidence: the core refuses it once; Processing names OUTPUT_CONFIDENCE,
    the dock says to untick the box."""
    regressor = identity_model(tmp_path / "models" / "reg.onnx", 4, metadata={**RGBI_MODEL, "model_type": "Regressor"})
    with pytest.raises(QgsProcessingException, match="leave OUTPUT_CONFIDENCE empty"):
        _segment(run_alg, bgri, regressor, tmp_path / "p.tif", OUTPUT_CONFIDENCE=str(tmp_path / "p_conf.tif"))
    dock = plugin.dock
    dock.set_model(str(regressor))
    dock.layer_combo.setLayer(add_raster(bgri))
    dock.set_extent_mode(EXTENT_LAYER)
    dock.segment.run_section.output_widget.setFilePath(str(tmp_path / "d.tif"))
    dock.confidence_check.setChecked(True)
    assert dock.segment.run() is None
    assert any("it has no confidence; untick it" in m for m in messages(qgis_iface, Qgis.Warning))
    assert not {"p.tif", "d.tif"} & {p.name for p in tmp_path.iterdir()}
