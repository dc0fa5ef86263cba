"""flair:segment with CACHE: same pixels cold, warm and uncached; shared tiles between extents;
invalidation; damaged entries; an unusable folder; the log line."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import rasterio
from conftest import RecordingFeedback
from rasters import random_image, read, write_raster
from toy_models import box3x3_model

from flair_qgis.core.segment.tile_entry import FORMAT_VERSION

NORM = {"mean": [100.0, 110.0, 90.0, 120.0, 50.0], "std": [50.0, 40.0, 45.0, 35.0, 70.0]}
ORIGIN_X, ORIGIN_Y, RES = 600000.0, 6800000.0, 0.2
TILING = {"TILE_SIZE": 64, "OVERLAP": 16}


def _extent(col0: int, row0: int, col1: int, row1: int) -> str:
    """An EXTENT string for layer pixels ``[row0, row1) x [col0, col1)``."""
    x0, x1 = ORIGIN_X + col0 * RES, ORIGIN_X + col1 * RES
    y1, y0 = ORIGIN_Y - row0 * RES, ORIGIN_Y - row1 * RES
    return f"{x0},{x1},{y0},{y1} [EPSG:2154]"


def _segment(run_alg, raster, model, out: Path, **params):
    feedback = RecordingFeedback()
    params = {"INPUT": str(raster), "MODEL": str(model), "OUTPUT": str(out), **TILING, **params}
    result = run_alg("flair:segment", params, feedback)
    return result, feedback


def _from_cache(feedback) -> tuple[int, int]:
    """``(N, M)`` of the log line "N of M tiles from the cache"."""
    lines = [m for info in feedback.infos if (m := re.search(r"(\d+) of (\d+) tiles from the cache", info))]
    assert len(lines) == 1, feedback.infos
    return int(lines[0].group(1)), int(lines[0].group(2))


@pytest.fixture
def scene(tmp_path):
    image = random_image(300, 260, seed=3)
    raster = write_raster(tmp_path / "img.tif", image)
    model, _ = box3x3_model(tmp_path / "box.onnx", 5, 7, metadata=NORM)
    return raster, model, tmp_path / "cache"


def test_cold_warm_and_uncached_runs_give_the_same_pixels(run_alg, tmp_path, scene):
    raster, model, cache = scene
    extent = _extent(37, 21, 201, 170)
    plain, _ = _segment(
        run_alg, raster, model, tmp_path / "plain.tif", EXTENT=extent, OUTPUT_CONFIDENCE=str(tmp_path / "pc.tif")
    )
    cold, cold_log = _segment(
        run_alg,
        raster,
        model,
        tmp_path / "cold.tif",
        EXTENT=extent,
        CACHE=str(cache),
        OUTPUT_CONFIDENCE=str(tmp_path / "cc.tif"),
    )
    warm, warm_log = _segment(
        run_alg,
        raster,
        model,
        tmp_path / "warm.tif",
        EXTENT=extent,
        CACHE=str(cache),
        OUTPUT_CONFIDENCE=str(tmp_path / "wc.tif"),
    )
    expected = read(plain["OUTPUT"])
    assert expected.shape == (149, 164)
    assert np.array_equal(read(cold["OUTPUT"]), expected)
    assert np.array_equal(read(warm["OUTPUT"]), expected)
    assert np.array_equal(read(warm["OUTPUT_CONFIDENCE"]), read(plain["OUTPUT_CONFIDENCE"]))
    hits, total = _from_cache(cold_log)
    assert hits == 0 and total == cold["TILES"] > 1
    assert _from_cache(warm_log) == (total, total)


def test_an_extent_equals_the_whole_layer_run_on_its_pixels(run_alg, tmp_path, scene):
    raster, model, cache = scene
    whole, _ = _segment(run_alg, raster, model, tmp_path / "whole.tif")
    first, _ = _segment(run_alg, raster, model, tmp_path / "a.tif", EXTENT=_extent(10, 5, 150, 120), CACHE=str(cache))
    second, log = _segment(
        run_alg, raster, model, tmp_path / "b.tif", EXTENT=_extent(90, 60, 250, 290), CACHE=str(cache)
    )
    reference = read(whole["OUTPUT"])
    assert np.array_equal(read(first["OUTPUT"]), reference[5:120, 10:150])
    assert np.array_equal(read(second["OUTPUT"]), reference[60:290, 90:250])
    hits, total = _from_cache(log)
    assert 0 < hits < total  # the overlap came from the cache, the rest from the model


def test_a_cached_tile_is_taken_as_is_without_running_the_model(run_alg, tmp_path, scene):
    """Rewrite every entry's class map with a value the model never gives: the warm run shows it."""
    from flair_qgis.core.segment.tile_entry import decode_entry, encode_entry

    raster, model, cache = scene
    extent = _extent(0, 0, 100, 100)
    _segment(run_alg, raster, model, tmp_path / "cold.tif", EXTENT=extent, CACHE=str(cache))
    entries = sorted((cache / f"flair-tile-cache-v{FORMAT_VERSION}").glob("*/*.tile"))
    assert entries
    for path in entries:
        key, (row, col) = path.parent.name, map(int, re.findall(r"\d+", path.stem))
        arrays = decode_entry(path.read_bytes(), key, row, col)
        name = next(k for k in arrays if k.endswith(":class"))
        arrays[name] = np.full_like(arrays[name], 6)
        path.write_bytes(encode_entry(key, row, col, arrays))
    warm, _ = _segment(run_alg, raster, model, tmp_path / "warm.tif", EXTENT=extent, CACHE=str(cache))
    assert (read(warm["OUTPUT"]) == 6).all()


@pytest.mark.parametrize("change", ["model", "raster", "bands"])
def test_changing_the_model_the_raster_or_the_bands_never_returns_stale_tiles(run_alg, tmp_path, scene, change):
    raster, model, cache = scene
    extent = _extent(20, 20, 180, 160)
    _segment(run_alg, raster, model, tmp_path / "cold.tif", EXTENT=extent, CACHE=str(cache))
    params = {}
    if change == "model":
        box3x3_model(model, 5, 7, seed=1, metadata=NORM)  # same path, other weights
    elif change == "raster":
        write_raster(raster, random_image(300, 260, seed=4))  # same path, other pixels
    else:
        params["BANDS"] = "5,4,3,2,1"
    after, log = _segment(run_alg, raster, model, tmp_path / "after.tif", EXTENT=extent, CACHE=str(cache), **params)
    plain, _ = _segment(run_alg, raster, model, tmp_path / "plain.tif", EXTENT=extent, **params)
    assert _from_cache(log)[0] == 0
    assert np.array_equal(read(after["OUTPUT"]), read(plain["OUTPUT"]))


def test_a_damaged_entry_is_recomputed_with_a_warning(run_alg, tmp_path, scene):
    raster, model, cache = scene
    extent = _extent(0, 0, 120, 120)
    cold, _ = _segment(run_alg, raster, model, tmp_path / "cold.tif", EXTENT=extent, CACHE=str(cache))
    entries = sorted((cache / f"flair-tile-cache-v{FORMAT_VERSION}").glob("*/*.tile"))
    damaged = entries[len(entries) // 2]
    data = bytearray(damaged.read_bytes())
    data[100] ^= 0xFF
    damaged.write_bytes(bytes(data))
    warm, log = _segment(run_alg, raster, model, tmp_path / "warm.tif", EXTENT=extent, CACHE=str(cache))
    assert np.array_equal(read(warm["OUTPUT"]), read(cold["OUTPUT"]))
    assert _from_cache(log) == (len(entries) - 1, len(entries))
    assert any("damaged" in w and "recomputed" in w for w in log.warnings), log.warnings
    assert damaged.exists()  # stored again, whole


def test_an_unwritable_cache_folder_runs_uncached_with_a_warning(run_alg, tmp_path, scene):
    raster, model, _cache = scene
    blocker = tmp_path / "file"
    blocker.write_text("a file, not a folder")
    extent = _extent(0, 0, 120, 120)
    result, log = _segment(run_alg, raster, model, tmp_path / "out.tif", EXTENT=extent, CACHE=str(blocker / "cache"))
    plain, _ = _segment(run_alg, raster, model, tmp_path / "plain.tif", EXTENT=extent)
    assert np.array_equal(read(result["OUTPUT"]), read(plain["OUTPUT"]))
    assert any("cannot be written" in w and "without the cache" in w for w in log.warnings), log.warnings


def test_a_warm_run_does_not_load_the_model(run_alg, tmp_path, scene):
    raster, model, cache = scene
    extent = _extent(0, 0, 100, 100)
    cold, _ = _segment(run_alg, raster, model, tmp_path / "cold.tif", EXTENT=extent, CACHE=str(cache))
    warm, _ = _segment(run_alg, raster, model, tmp_path / "warm.tif", EXTENT=extent, CACHE=str(cache))
    assert cold["PROVIDER"] == "CPUExecutionProvider" and cold["CACHED_TILES"] == 0
    assert warm["PROVIDER"] == "tile cache" and warm["CACHED_TILES"] == warm["TILES"]


def test_one_cached_run_serves_runs_with_and_without_a_mask(run_alg, tmp_path, scene):
    from qgis.core import QgsFeature, QgsGeometry, QgsPointXY, QgsVectorLayer

    raster, model, cache = scene
    zone = QgsVectorLayer("Polygon?crs=EPSG:2154", "zone", "memory")
    feature = QgsFeature()
    corners = [(30, 20), (200, 40), (90, 180)]  # a triangle, layer pixels (col, row)
    ring = [QgsPointXY(ORIGIN_X + c * RES, ORIGIN_Y - r * RES) for c, r in corners]
    feature.setGeometry(QgsGeometry.fromPolygonXY([ring]))
    zone.dataProvider().addFeatures([feature])
    _segment(run_alg, raster, model, tmp_path / "whole.tif", CACHE=str(cache))  # fills the cache, no mask
    masked, log = _segment(run_alg, raster, model, tmp_path / "masked.tif", MASK=zone, CACHE=str(cache))
    plain, _ = _segment(run_alg, raster, model, tmp_path / "plain.tif", MASK=zone)
    hits, total = _from_cache(log)
    assert hits == total
    got, expected = read(masked["OUTPUT"]), read(plain["OUTPUT"])
    assert np.array_equal(got, expected)
    with rasterio.open(plain["OUTPUT"]) as dst:
        assert (expected == dst.nodata).sum() > 1000  # the mask did blank pixels


def test_per_image_heads_and_value_maps_come_back_from_the_cache(run_alg, tmp_path):
    from test_segment_multi import three_head_model

    raster = write_raster(tmp_path / "img.tif", random_image(200, 160, bands=4, seed=5))
    model = three_head_model(tmp_path / "three.onnx")
    runs = []
    for name in ("cold", "warm"):
        result, _ = _segment(
            run_alg,
            raster,
            model,
            tmp_path / f"{name}.tif",
            EXTENT=_extent(10, 10, 150, 190),
            CACHE=str(tmp_path / "c"),
        )
        runs.append(result)
    cold, warm = runs
    assert warm["CACHED_TILES"] == warm["TILES"] > 1
    assert np.array_equal(read(cold["OUTPUT"]), read(warm["OUTPUT"]))
    assert np.array_equal(read(cold["OUTPUT_HEIGHT"]), read(warm["OUTPUT_HEIGHT"]), equal_nan=True)
    assert Path(cold["OUTPUT_TILE_VALUES"]).read_text() == Path(warm["OUTPUT_TILE_VALUES"]).read_text()


@pytest.fixture
def xyz_layer(tmp_path):
    """A local XYZ tile set opened by QGIS as a web layer (provider ``wms``), in the project."""
    import subprocess

    from qgis.core import QgsProject, QgsRasterLayer

    src = write_raster(
        tmp_path / "src.tif",
        random_image(384, 512, bands=3, seed=7),
        res=0.3,
        origin=(261000.0, 6250000.0),
        crs="EPSG:3857",
    )
    tiles = tmp_path / "tiles"
    subprocess.run(["gdal2tiles.py", "--xyz", "-q", "-z", "19", "-w", "none", str(src), str(tiles)], check=True)
    uri = f"type=xyz&url=file://{tiles}/{{z}}/{{x}}/{{y}}.png&zmax=19&zmin=19"
    layer = QgsRasterLayer(uri, "xyz", "wms")
    QgsProject.instance().addMapLayer(layer)
    yield layer
    QgsProject.instance().removeMapLayer(layer.id())


WEB_PARAMS = {"EXTENT": "261030,261120,6249910,6249980 [EPSG:3857]", "BANDS": "1,2,3"}


def _web_model(tmp_path):
    from toy_models import identity_model

    return identity_model(tmp_path / "id.onnx", 3, metadata={"mean": [0] * 3, "std": [1] * 3, "resolution_cm": 30})


def test_a_web_layer_is_not_cached_unless_asked(run_alg, tmp_path, xyz_layer):
    model = _web_model(tmp_path)
    cache = tmp_path / "c"
    runs = [
        _segment(run_alg, xyz_layer.id(), model, tmp_path / f"{name}.tif", CACHE=str(cache), **WEB_PARAMS)
        for name in ("first", "second")
    ]
    for result, log in runs:
        assert result["CACHED_TILES"] == 0
        assert any("web or database layer" in w and "CACHE_REMOTE=true" in w for w in log.warnings), log.warnings
    assert not list(cache.glob("*/*/*.tile"))  # nothing stored either


def test_a_web_layer_is_cached_on_its_provider_uri_when_asked(run_alg, tmp_path, xyz_layer):
    model = _web_model(tmp_path)
    cached = {"CACHE": str(tmp_path / "c"), "CACHE_REMOTE": True, **WEB_PARAMS}
    plain, _ = _segment(run_alg, xyz_layer.id(), model, tmp_path / "plain.tif", **WEB_PARAMS)
    cold, cold_log = _segment(run_alg, xyz_layer.id(), model, tmp_path / "cold.tif", **cached)
    warm, warm_log = _segment(run_alg, xyz_layer.id(), model, tmp_path / "warm.tif", **cached)
    assert cold["CACHED_TILES"] == 0 and warm["CACHED_TILES"] == warm["TILES"]
    for log in (cold_log, warm_log):
        assert any("cached by their address for 1 day" in info for info in log.infos), log.infos
    assert np.array_equal(read(warm["OUTPUT"]), read(cold["OUTPUT"]))
    # The cached runs read the layer on its whole-layer tile grid, the plain run on the extent's:
    # QGIS resamples the XYZ tiles (0.2986 m at zoom 19) to 0.3 m per request, and from QGIS 3.44 a
    # request's edge can land on the other side of a source pixel (32 of 70,735 px, one column, on
    # Debian forky; none on 3.22 and 3.40). Files are read pixel-exact and are compared exactly above.
    assert np.mean(read(warm["OUTPUT"]) != read(plain["OUTPUT"])) < 1e-3


def test_a_web_layer_tile_past_its_time_to_live_is_fetched_again(run_alg, tmp_path, xyz_layer):
    """The entries' recorded time is set back: a day and a minute old, every tile is recomputed;
    half a day old, every tile is still used."""
    import time

    from flair_qgis.core.segment.tile_entry import decode_entry, encode_entry, entry_header

    model = _web_model(tmp_path)
    cache = tmp_path / "c"
    cached = {"CACHE": str(cache), "CACHE_REMOTE": True, **WEB_PARAMS}
    cold, _ = _segment(run_alg, xyz_layer.id(), model, tmp_path / "cold.tif", **cached)
    entries = sorted(cache.glob(f"flair-tile-cache-v{FORMAT_VERSION}/*/*.tile"))
    assert len(entries) == cold["TILES"]

    def age_entries(seconds: float) -> None:
        for path in entries:
            data = path.read_bytes()
            header = entry_header(data)
            key, row, col = header["key"], header["row"], header["col"]
            arrays = decode_entry(data, key, row, col)
            path.write_bytes(encode_entry(key, row, col, arrays, header["sources"], time.time() - seconds))

    age_entries(12 * 3600)
    young, _ = _segment(run_alg, xyz_layer.id(), model, tmp_path / "young.tif", **cached)
    assert young["CACHED_TILES"] == young["TILES"]
    age_entries(86400 + 60)
    old, log = _segment(run_alg, xyz_layer.id(), model, tmp_path / "old.tif", **cached)
    assert old["CACHED_TILES"] == 0
    assert any(f"{old['TILES']} cached tile(s) were out of date (past their time-to-live)" in i for i in log.infos)
    assert np.array_equal(read(old["OUTPUT"]), read(cold["OUTPUT"]))
    again, _ = _segment(run_alg, xyz_layer.id(), model, tmp_path / "again.tif", **cached)
    assert again["CACHED_TILES"] == again["TILES"]  # recomputed tiles were stored with a fresh time


def test_two_modalities_at_their_own_resolutions_share_the_cache(run_alg, tmp_path):
    """A fusion model (0.2 m aerial + 0.4 m DEM): an extent's cached run equals the whole-layer run."""
    from test_segment_multi import fusion_model

    aerial = write_raster(tmp_path / "rgbi.tif", random_image(256, 192, bands=4, seed=1), res=0.2)
    dem = write_raster(tmp_path / "dem.tif", random_image(128, 96, bands=1, seed=2), res=0.4)
    model = fusion_model(tmp_path / "fusion.onnx")
    whole, _ = _segment(run_alg, aerial, model, tmp_path / "whole.tif", INPUT_2=str(dem))
    runs = [
        _segment(run_alg, aerial, model, tmp_path / f"{name}.tif", INPUT_2=str(dem), EXTENT=_extent(32, 48, 160, 224),
                 CACHE=str(tmp_path / "c"))[0]
        for name in ("cold", "warm")
    ]  # fmt: skip
    expected = read(whole["OUTPUT"])[48:224, 32:160]
    assert runs[1]["CACHED_TILES"] == runs[1]["TILES"]
    for result in runs:
        assert np.array_equal(read(result["OUTPUT"]), expected)


def _written(cache: Path) -> dict[tuple[int, int], float]:
    """``(row, col)`` -> the time each entry of the cache records it was computed."""
    from flair_qgis.core.segment.tile_entry import entry_header

    found = {}
    for path in cache.glob(f"flair-tile-cache-v{FORMAT_VERSION}/*/*.tile"):
        header = entry_header(path.read_bytes())
        found[(header["row"], header["col"])] = header["written"]
    return found


@pytest.mark.parametrize("keep_mtime", [False, True], ids=["mtime-advanced", "mtime-kept"])
def test_rewriting_one_tile_of_a_vrt_recomputes_exactly_the_tiles_reading_it(run_alg, tmp_path, flair_data, keep_mtime):
    """A VRT over 2 x 2 GeoTIFFs cut from a real FLAIR patch: one of them is rewritten in place
    (same size; modification time kept or advanced). The next cached run recomputes the tiles
    whose model input window reads it, and only those, and equals a fresh uncached run."""
    from mosaic_helpers import FLAIR_NORM, flair_mosaic, rewrite_in_place, tiles_reading

    vrt, pieces = flair_mosaic(flair_data, tmp_path / "mosaic")
    model, _ = box3x3_model(tmp_path / "box.onnx", 5, 7, metadata=FLAIR_NORM)
    cache = tmp_path / "cache"
    first, _ = _segment(run_alg, vrt, model, tmp_path / "first.tif", CACHE=str(cache))
    before = _written(cache)
    assert len(before) == first["TILES"]
    rewrite_in_place(pieces[(1, 0)], keep_mtime)  # rows 256..511, cols 0..255 of the mosaic
    expected = tiles_reading(512, 512, TILING["TILE_SIZE"], TILING["OVERLAP"], (256, 0, 512, 256))
    assert 0 < len(expected) < len(before) // 2

    second, log = _segment(run_alg, vrt, model, tmp_path / "second.tif", CACHE=str(cache))
    after = _written(cache)
    recomputed = {tile for tile in before if after[tile] != before[tile]}
    assert recomputed == expected
    assert _from_cache(log) == (len(before) - len(expected), len(before))
    assert any(f"{len(expected)} cached tile(s) were out of date (a source file changed)" in i for i in log.infos)
    fresh, _ = _segment(run_alg, vrt, model, tmp_path / "fresh.tif")
    assert np.array_equal(read(second["OUTPUT"]), read(fresh["OUTPUT"]))
    assert not np.array_equal(read(second["OUTPUT"])[256:, :256], read(first["OUTPUT"])[256:, :256])
    assert np.array_equal(read(second["OUTPUT"])[:200, 300:], read(first["OUTPUT"])[:200, 300:])
    third, _ = _segment(run_alg, vrt, model, tmp_path / "third.tif", CACHE=str(cache))
    assert third["CACHED_TILES"] == third["TILES"] and third["PROVIDER"] == "tile cache"
