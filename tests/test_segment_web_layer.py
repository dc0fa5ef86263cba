"""flair:segment over a web (XYZ) layer: pixels come through a cloned QGIS data provider."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
import rasterio
from qgis.core import QgsProject, QgsRasterLayer
from rasterio.enums import Resampling
from rasterio.vrt import WarpedVRT
from rasters import write_raster
from toy_models import identity_model

from flair_qgis.adapters.raster_input import capture_raster


@pytest.fixture(scope="module")
def xyz_tiles(tmp_path_factory):
    """A blocky RGB image in EPSG:3857 cut into XYZ PNG tiles at zoom 19 (~0.30 m/px)."""
    folder = tmp_path_factory.mktemp("xyz")
    rng = np.random.default_rng(7)
    blocks = rng.integers(0, 256, size=(3, 24, 32), dtype=np.uint8)
    image = blocks.repeat(16, axis=1).repeat(16, axis=2)  # 384 x 512 px of 16 px blocks
    src = write_raster(folder / "src.tif", image, res=0.3, origin=(261000.0, 6250000.0), crs="EPSG:3857")
    subprocess.run(
        ["gdal2tiles.py", "--xyz", "-q", "-z", "19", "-w", "none", str(src), str(folder / "tiles")],
        check=True,
        capture_output=True,
    )
    return folder


def test_xyz_layer_is_read_through_qgis_provider(run_alg, xyz_tiles, tmp_path):
    uri = f"type=xyz&url=file://{xyz_tiles}/tiles/{{z}}/{{x}}/{{y}}.png&zmax=19&zmin=19"
    layer = QgsRasterLayer(uri, "xyz", "wms")
    assert layer.isValid()
    QgsProject.instance().addMapLayer(layer)
    try:
        captured = capture_raster(layer, 0.3)
        assert captured.path is None and captured.argb and captured.band_count == 4
        model = identity_model(tmp_path / "id.onnx", 3, metadata={"mean": [0] * 3, "std": [1] * 3, "resolution_cm": 30})
        extent = "261030,261120,6249910,6249980 [EPSG:3857]"
        res = run_alg(
            "flair:segment",
            {
                "INPUT": layer.id(),
                "MODEL": str(model),
                "EXTENT": extent,
                "BANDS": "1,2,3",
                "OUTPUT": str(tmp_path / "out.tif"),
            },
        )
    finally:
        QgsProject.instance().removeMapLayer(layer.id())
    with rasterio.open(res["OUTPUT"]) as dst:
        assert dst.crs.to_epsg() == 3857
        assert dst.res == pytest.approx((0.3, 0.3))
        # 90 m x 70 m at 0.3 m, snapped outwards to the layer's pixel grid (anchored on its origin)
        assert dst.width in (300, 301) and dst.height in (234, 235)
        got = dst.read(1)
        grid = (dst.transform, dst.width, dst.height)
    with (
        rasterio.open(xyz_tiles / "src.tif") as src,
        WarpedVRT(src, transform=grid[0], width=grid[1], height=grid[2], resampling=Resampling.nearest) as vrt,
    ):
        expected = np.argmax(vrt.read(), axis=0)
    # Web tiles are re-rendered by QGIS at the model's resolution: block edges may move by a pixel.
    assert (got == expected).mean() > 0.9
