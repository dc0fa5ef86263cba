"""core.review.polygon_apply: the reference is read once, feature by feature; items are looked up
one by one (by id or by their point's box), never by loading the layer."""

from __future__ import annotations

import geopandas as gpd
import numpy as np
from rasters import write_raster
from shapely.geometry import box

from flair_qgis.core.review import SampleRequest, create_review
from flair_qgis.core.review.polygon_apply import FrameFeatures, apply_review_polygons
from flair_qgis.core.review.store import ReviewStore


class CountingFeatures(FrameFeatures):
    """A GeoDataFrame read as a stream that records each request and each feature handed out."""

    def features(self, *, fids=None, bounds=None):
        self.calls.append("ids" if fids is not None else "box" if bounds is not None else "all")
        for feature in super().features(fids=fids, bounds=bounds):
            self.handed.append(feature[0])
            yield feature


def test_one_full_pass_and_small_lookups(tmp_path):
    classes = np.ones((40, 40), dtype=np.uint8)
    classes[:, 20:] = 2
    prediction = write_raster(tmp_path / "map.tif", classes[None], nodata=0)
    with __import__("rasterio").open(prediction) as src:
        left, bottom, right, top = src.bounds
    step = (right - left) / 4
    cells = [box(left + i * step, bottom, left + (i + 1) * step, top) for i in range(4)]
    gdf = gpd.GeoDataFrame({"code": [1, 1, 2, 2]}, geometry=cells, crs="EPSG:2154", index=[10, 11, 12, 13])
    review = tmp_path / "review.gpkg"
    create_review(SampleRequest(str(prediction), str(review), design="random", samples=12, seed=1))
    with ReviewStore.open(review) as store:
        items = store.items()
        for item in items:
            store.set_verdict(item.item_id, "wrong", 5, "a")
    stream = CountingFeatures.of(gdf)
    object.__setattr__(stream, "calls", [])
    object.__setattr__(stream, "handed", [])
    result = apply_review_polygons(stream, "code", str(review), str(tmp_path / "fixed.gpkg"))
    assert stream.calls.count("all") == 1 and stream.calls.count("box") == len(items)
    lookups = len(stream.handed) - len(gdf)
    assert lookups <= 2 * len(items)  # each item's box meets at most two touching cells
    fixed = gpd.read_file(tmp_path / "fixed.gpkg", layer="reference_corrected")
    hit = {int(np.floor((gpd.GeoSeries.from_wkt([i.wkt]).x[0] - left) / step)) for i in items}
    assert result.changed == len(hit)
    assert sorted(fixed["code"].tolist()) == sorted(5 if k in hit else c for k, c in enumerate([1, 1, 2, 2]))
