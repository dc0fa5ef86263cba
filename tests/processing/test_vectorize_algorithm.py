"""flair:vectorize and flair:segment's OUTPUT_VECTOR on the demo model's real prediction of a
FLAIR patch: exact polygons, attributes, the styled layer, and refusals that write nothing."""

from __future__ import annotations

import os

import numpy as np
import pytest
import rasterio
from qgis.core import QgsProcessingContext, QgsProcessingException, QgsProcessingFeedback, QgsProject
from review_data import DEMO_MODEL, demo_prediction
from vector_helpers import overlap_area, rasterized, read_polygons, union_area


@pytest.fixture(scope="module")
def demo(flair_provider, tmp_path_factory):
    return demo_prediction(tmp_path_factory.mktemp("demo"))


def test_vectorize_demo_prediction(run_alg, demo, tmp_path):
    prediction, confidence, _ = demo
    out = tmp_path / "polygons.gpkg"
    result = run_alg(
        "flair:vectorize", {"PREDICTION": str(prediction), "CONFIDENCE": str(confidence), "OUTPUT": str(out)}
    )
    frame = read_polygons(out)
    assert result["POLYGONS"] == len(frame)
    with rasterio.open(prediction) as src:
        values, valid = src.read(1), src.read_masks(1) > 0
        classes = {c["value"]: c["name"] for c in __import__("json").loads(src.tags(1)["CLASSES"])}
        pixel_m2 = abs(src.transform.a * src.transform.e)
    assert np.array_equal(rasterized(frame, prediction, fill=-1), np.where(valid, values, -1))
    for value in np.unique(values[valid]).tolist():
        part = frame[frame["class"] == value]
        assert part["area_m2"].sum() == pytest.approx((values[valid] == value).sum() * pixel_m2)
        assert set(part["name"]) == {classes[value]}
    with rasterio.open(confidence) as src:
        conf = src.read(1)
    biggest = frame.loc[frame["area_m2"].idxmax()]
    burnt = rasterized(frame.loc[[frame["area_m2"].idxmax()]], prediction, fill=-1) >= 0
    assert biggest["confidence"] == pytest.approx(conf[burnt].mean(), rel=1e-6)
    assert frame["model"].str.startswith("FLAIR demo U-Net").all() and "blake2b:" in frame["model"].iloc[0]
    assert set(frame["source"]) == {"prediction.tif"}


def test_segment_output_vector_cleaned_and_styled(flair_provider, demo, tmp_path, qgis_iface, monkeypatch):
    import processing
    from qgis.core import QgsLayerTreeModel
    from qgis.gui import QgsLayerTreeView

    # runAndLoadResults hands iface.layerTreeView() to C++ from QGIS 3.44 on; pytest-qgis's
    # interface answers a MagicMock there, so the test gives it a real view of the project's tree.
    view = QgsLayerTreeView()
    view.setModel(QgsLayerTreeModel(QgsProject.instance().layerTreeRoot(), view))
    monkeypatch.setattr(qgis_iface, "layerTreeView", lambda: view)

    image = demo[0].parent / "IMG_000473.tif"
    context = QgsProcessingContext()
    context.setProject(QgsProject.instance())
    params = {
        "INPUT": str(image),
        "MODEL": str(DEMO_MODEL),
        "DEVICE": "cpu",
        "OUTPUT": str(tmp_path / "classes.tif"),
        "OUTPUT_VECTOR": str(tmp_path / "polygons.gpkg"),
        "MIN_AREA_M2": 5.0,
        "SIMPLIFY_M": 0.4,
    }
    result = processing.runAndLoadResults("flair:segment", params, context=context, feedback=QgsProcessingFeedback())
    frame = read_polygons(result["OUTPUT_VECTOR"])
    with rasterio.open(tmp_path / "classes.tif") as src:
        valid_m2 = (src.read_masks(1) > 0).sum() * abs(src.transform.a * src.transform.e)
    assert frame.geometry.is_valid.all()
    assert overlap_area(frame) == pytest.approx(0, abs=1e-6)
    assert union_area(frame) == pytest.approx(valid_m2)
    layers = [
        layer
        for layer in QgsProject.instance().mapLayers().values()
        if layer.source().startswith(str(tmp_path / "polygons.gpkg"))
    ]
    assert len(layers) == 1
    renderer = layers[0].renderer()
    assert renderer.type() == "categorizedSymbol" and renderer.classAttribute() == "class"
    labels = {cat.label() for cat in renderer.categories()}
    assert set(frame["name"]) <= labels
    QgsProject.instance().removeAllMapLayers()


def test_bad_input_refused_nothing_written(run_alg, demo, tmp_path):
    floats = tmp_path / "float.tif"
    with rasterio.open(demo[1]) as src:
        profile, data = src.profile, src.read(1)
    with rasterio.open(floats, "w", **profile) as dst:
        dst.write(data, 1)
    with pytest.raises(QgsProcessingException, match="continuous values"):
        run_alg("flair:vectorize", {"PREDICTION": str(floats), "OUTPUT": str(tmp_path / "p.gpkg")})
    with pytest.raises(QgsProcessingException, match="OUTPUT is the PREDICTION"):
        run_alg("flair:vectorize", {"PREDICTION": str(demo[0]), "OUTPUT": str(demo[0])})
    assert sorted(os.listdir(tmp_path)) == ["float.tif"]
