import numpy as np
import rasterio
from conftest import FLAIR_DATA
from toy_models import identity_model


def test_segment_processing_identity(run_alg, tmp_path):
    model = identity_model(tmp_path / "id.onnx", 5, metadata={"mean": [0] * 5, "std": [1] * 5})
    out = tmp_path / "out.tif"
    res = run_alg(
        "flair:segment", {"INPUT": str(FLAIR_DATA / "IMG_000473.tif"), "MODEL": str(model), "OUTPUT": str(out)}
    )
    with rasterio.open(FLAIR_DATA / "IMG_000473.tif") as src:
        expected = np.argmax(src.read(), axis=0)
    with rasterio.open(res["OUTPUT"]) as dst:
        assert (dst.read(1) == expected).all()


def test_class_map_band_is_named_for_the_model(run_alg, tmp_path):
    """A class map opened by hand reads "<model name> classes" in QGIS's legend, not the ONNX output name."""
    named = identity_model(tmp_path / "id.onnx", 5, metadata={"mean": [0] * 5, "std": [1] * 5, "name": '"Toy argmax"'})
    unnamed = identity_model(tmp_path / "argmax-5.onnx", 5, metadata={"mean": [0] * 5, "std": [1] * 5})
    descriptions = []
    for model in (named, unnamed):
        out = tmp_path / f"{model.stem}.tif"
        run_alg("flair:segment", {"INPUT": str(FLAIR_DATA / "IMG_000473.tif"), "MODEL": str(model), "OUTPUT": str(out)})
        with rasterio.open(out) as dst:
            descriptions.append(dst.descriptions[0])
            assert dst.tags()["FLAIR_MODEL_NAME"] == descriptions[-1].removesuffix(" classes")
    assert descriptions == ["Toy argmax classes", "argmax-5 classes"]
