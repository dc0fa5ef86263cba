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
