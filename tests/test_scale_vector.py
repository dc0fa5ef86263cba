"""``scripts/flair segment --vector`` on a real Dask scheduler and two worker processes.

The expectation is always ``flair:vectorize`` (through processing.run) on the run's own mosaic
``classes.vrt``: the same polygons, and the polygons burnt back give the class map to the pixel.
"""

from __future__ import annotations

import errno
import io
from pathlib import Path

import numpy as np
import pytest
import rasterio
from rasters import random_image, write_raster
from scale_helpers import manifest, run_segment_cli, tiled_vrt
from shapely.geometry import box
from toy_models import box3x3_model, identity_model
from vector_helpers import overlap_area, rasterized, read_polygons, same_polygons, union_area

from flair_qgis.core.engine.grid import Grid
from flair_qgis.scale.chunks import chunk_layout

TILING = ["--tile-size", "64", "--overlap", "16", "--chunk-tiles", "2"]
CLASSES = [{"value": v, "name": f"class {v}"} for v in (1, 2, 3, 4)]
FIELDS = ["class", "name", "area_m2", "confidence", "model", "source", "created"]
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def noisy(tmp_path_factory):
    """A random image through a 3x3 convolution: thousands of regions, many cut by chunk edges."""
    folder = tmp_path_factory.mktemp("vector-data")
    image = write_raster(folder / "in.tif", random_image(200, 230, 5, seed=4))
    meta = {"mean": [0] * 5, "std": [1] * 5, "classes": CLASSES}
    model, _ = box3x3_model(folder / "box.onnx", 5, 4, seed=1, metadata=meta)
    return image, model


def run_vector(cluster, image, model, out: Path, target: Path, *extra: str):
    done = run_segment_cli(image, model, out, *TILING, "--scheduler", cluster.address, "--vector", str(target), *extra)
    assert done.returncode == 0, done.stderr
    return done


def vectorize_mosaic(run_alg, out: Path, target: Path, **cleaning) -> Path:
    params = {"PREDICTION": str(out / "classes.vrt"), "OUTPUT": str(target), **cleaning}
    return Path(run_alg("flair:vectorize", params)["OUTPUT"])


def class_map(out: Path) -> np.ndarray:
    with rasterio.open(out / "classes.vrt") as src:
        return src.read(1)


def test_stitched_polygons_equal_flair_vectorize_on_the_mosaic(cluster, noisy, run_alg, tmp_path):
    out = tmp_path / "run"
    target = out / "polygons.gpkg"  # in the output folder, which the run creates
    done = run_vector(cluster, *noisy, out, target)
    run = manifest(out)
    assert len(run["chunks"]) == 9  # 4 x 5 tiles of 48 px cores in chunks of 2 x 2 tiles: 3 x 3 chunks
    assert all((out / "chunks" / f"{name}.gpkg").is_file() for name in run["chunks"])
    assert all(entry["polygons"] > 0 for entry in run["chunks"].values())
    got = read_polygons(target)
    expected = read_polygons(vectorize_mosaic(run_alg, out, tmp_path / "expected.gpkg"))
    assert f"{len(expected)} polygon(s) in {target}" in done.stderr
    assert len(got) == len(expected) > 1000
    assert list(got.columns[:-1]) == FIELDS
    assert sorted(got["class"]) == sorted(expected["class"])
    assert same_polygons(got, expected)
    np.testing.assert_array_equal(rasterized(got, out / "classes.vrt"), class_map(out))
    assert got["area_m2"].sum() == pytest.approx(200 * 230 * 0.04)

    def areas(frame):
        # Each polygon keyed by whole pixels (bounds and area in 0.2 m pixels): rounding map
        # coordinates to mm put two equal polygons on either side of a rounding boundary (forky).
        def pixels(g):
            return (*(round(c / 0.2) for c in g.bounds), round(g.area / 0.04))

        return sorted((int(v), *pixels(g), round(a, 6)) for v, g, a in frame[["class", "geometry", "area_m2"]].values)

    assert areas(got) == areas(expected)  # area_m2 of dissolved polygons: the sum of their pixels, as the core
    assert set(got["source"]) == {"classes.vrt"} and set(got["name"]) <= {c["name"] for c in CLASSES}
    assert len(set(got["model"])) == 1 and got["model"][0].startswith("box blake2b:")  # the model, not ""


@pytest.fixture(scope="module")
def crafted(tmp_path_factory):
    """Classes drawn by hand around the chunk corner (row R, col C) of a 200 x 200 grid.

    Background class 1; a class-2 bar across the vertical seam above the corner; at the corner,
    four 3 x 3 blocks, one per chunk, class 2 top-left and bottom-right, class 3 top-right and
    bottom-left: each touches its same-class twin at the corner point only.
    """
    folder = tmp_path_factory.mktemp("crafted")
    grid = Grid(rasterio.transform.from_origin(600000.0, 6800000.0, 0.2, 0.2), 200, 200, None)
    chunks = chunk_layout(grid, 64, 16, 2)
    corner = next(c for c in chunks if c.row == 1 and c.col == 1)
    r, c = corner.row0, corner.col0
    classes = np.ones((200, 200), dtype=np.uint8)
    classes[10:20, c - 20 : c + 20] = 2
    classes[r - 3 : r, c - 3 : c] = 2
    classes[r : r + 3, c : c + 3] = 2
    classes[r - 3 : r, c : c + 3] = 3
    classes[r : r + 3, c - 3 : c] = 3
    image = np.stack([(classes == v).astype(np.uint8) * 255 for v in (1, 2, 3)])
    path = write_raster(folder / "crafted.tif", image)
    meta = {"mean": [0] * 3, "std": [1] * 3, "classes": CLASSES[:3]}
    model = identity_model(folder / "identity.onnx", 3, metadata=meta)
    return path, model, classes, (r, c)


def test_a_region_cut_by_a_chunk_edge_is_one_polygon_and_corner_contacts_stay_apart(
    cluster, crafted, run_alg, tmp_path
):
    image, model, classes, (r, c) = crafted
    out, target = tmp_path / "run", tmp_path / "polygons.gpkg"
    run_vector(cluster, image, model, out, target)
    np.testing.assert_array_equal(class_map(out), classes)
    got = read_polygons(target)
    assert sorted(got["class"]) == [1, 2, 2, 2, 3, 3]

    def px(col0, row0, col1, row1):
        return box(600000.0 + col0 * 0.2, 6800000.0 - row1 * 0.2, 600000.0 + col1 * 0.2, 6800000.0 - row0 * 0.2)

    bar = [g for v, g in zip(got["class"], got.geometry) if g.equals(px(c - 20, 10, c + 20, 20))]
    assert len(bar) == 1 and len(bar[0].exterior.coords) == 5  # one rectangle, no vertex left on the seam
    blocks = {(int(v), round(g.area, 6)) for v, g in zip(got["class"], got.geometry) if g.area < 1.0}
    assert blocks == {(2, 0.36), (3, 0.36)}
    assert sum(1 for g in got.geometry if g.area < 1.0) == 4
    for quadrant in (px(c - 3, r - 3, c, r), px(c, r, c + 3, r + 3), px(c, r - 3, c + 3, r), px(c - 3, r, c, r + 3)):
        assert sum(1 for g in got.geometry if g.equals(quadrant)) == 1
    background = got[got["class"] == 1].geometry.iloc[0]
    assert len(background.interiors) == 2  # the bar and the corner blocks, holes formed across chunks
    assert same_polygons(got, read_polygons(vectorize_mosaic(run_alg, out, tmp_path / "expected.gpkg")))


def test_a_cleaning_option_vectorises_the_mosaic_into_a_valid_coverage(cluster, noisy, run_alg, tmp_path):
    out, target = tmp_path / "run", tmp_path / "polygons.gpkg"
    run_vector(cluster, *noisy, out, target, "--vector-min-area", "0.5", "--vector-fill-holes", "0.3")
    assert not list((out / "chunks").glob("*.gpkg"))  # cleaning needs the whole graph: no chunk layers
    got = read_polygons(target)
    assert got.geometry.is_valid.all()
    assert overlap_area(got) == pytest.approx(0.0, abs=1e-9)
    assert union_area(got) == pytest.approx(200 * 230 * 0.04)
    assert (got["area_m2"] >= 0.5).all()
    expected = vectorize_mosaic(run_alg, out, tmp_path / "expected.gpkg", MIN_AREA_M2=0.5, FILL_HOLES_M2=0.3)
    assert same_polygons(got, read_polygons(expected))


def mtimes(folder: Path, pattern: str) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in folder.glob(pattern)}


def test_resume_vectorises_only_what_is_missing(cluster, noisy, tmp_path):
    out, target = tmp_path / "run", tmp_path / "polygons.gpkg"
    image, model = noisy
    plain = run_segment_cli(image, model, out, *TILING, "--scheduler", cluster.address)
    assert plain.returncode == 0, plain.stderr
    tifs = mtimes(out / "chunks", "r*.tif")
    # A run without --vector is resumed with it: no chunk is segmented again, every one vectorised.
    run_vector(cluster, image, model, out, target)
    assert mtimes(out / "chunks", "r*.tif") == tifs
    assert manifest(out)["runs"][-1]["chunks_run"] == 0
    layers = mtimes(out / "chunks", "r*.gpkg")
    assert len(layers) == 9
    first = read_polygons(target)
    (out / "chunks" / "r0001_c0002.tif").unlink()
    partial = out / "chunks" / ".r0002_c0000.gpkg.x1y2.partial"
    partial.mkdir()
    (partial / "r0002_c0000.gpkg").write_bytes(b"half a layer from an interrupted run")
    run_vector(cluster, image, model, out, target)
    assert not partial.exists()
    after = mtimes(out / "chunks", "r*.gpkg")
    assert {name for name in layers if after[name] != layers[name]} == {"r0001_c0002.gpkg"}
    assert same_polygons(read_polygons(target), first)


def test_failed_chunks_write_no_polygons(cluster, tmp_path):
    image = random_image(150, 150, 5, seed=5)
    broken = tiled_vrt(tmp_path / "tiles", image, pieces=2)
    (tmp_path / "tiles" / "tile_1_1.tif").write_bytes(b"not a GeoTIFF any more")
    model, _ = box3x3_model(tmp_path / "box.onnx", 5, 4, metadata={"mean": [0] * 5, "std": [1] * 5})
    target = tmp_path / "polygons.gpkg"
    args = [*TILING, "--scheduler", cluster.address, "--vector", str(target)]
    done = run_segment_cli(broken, model, tmp_path / "run", *args)
    assert done.returncode == 1, done.stderr
    assert not target.exists() and not list(tmp_path.glob(".polygons.gpkg*"))


def test_a_disk_error_on_the_polygons_is_exit_2_with_one_line(cluster, noisy, tmp_path, monkeypatch):
    """ENOSPC from the OS while the layer is published: one line naming --vector, exit 2, no file."""
    from flair_qgis import cli
    from flair_qgis.core.vectorize import writer

    target = tmp_path / "polygons.gpkg"

    def full_disk(self):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(writer.PolygonWriter, "commit", full_disk)
    err = io.StringIO()
    monkeypatch.setattr(cli.sys, "stderr", err)
    image, model = noisy
    args = ["--input", str(image), "--model", str(model), "--output-dir", str(tmp_path / "run"), *TILING]
    code = cli.main(["segment", *args, "--scheduler", cluster.address, "--vector", str(target)])
    assert code == 2, err.getvalue()
    assert err.getvalue().splitlines()[-1] == (
        f"error: No space left on device: {target}. Free space or choose another --vector file, then run again."
    )
    assert not target.exists() and not list(tmp_path.glob(".polygons.gpkg*"))


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--vector-min-area", "4"], "need --vector PATH.gpkg"),
        (["--vector", "{tmp}/polygons.gpkg", "--vector-simplify", "-1"], "--vector-simplify must be 0 or more"),
        (["--vector", "{tmp}/polygons.xyz"], "Cannot write polygons to 'polygons.xyz'"),
        (["--vector", "{tmp}/missing/polygons.gpkg"], "does not exist"),
        (["--vector", "{tmp}"], "is a folder"),
    ],
)
def test_bad_vector_options_are_refused_before_anything_runs(noisy, tmp_path, extra, message):
    image, model = noisy
    extra = [arg.format(tmp=tmp_path) for arg in extra]
    done = run_segment_cli(image, model, tmp_path / "run", *TILING, "--workers", "1", *extra)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert not (tmp_path / "run").exists()
