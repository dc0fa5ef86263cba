"""Distributed runs refuse bad input with a message that says what to do, exit != 0, no mosaic."""

from __future__ import annotations

import subprocess
import sys

import pytest
from rasters import random_image, write_raster
from scale_helpers import REPO, DaskProcesses, free_port, run_segment_cli
from toy_models import box3x3_model

META = {"mean": [0] * 5, "std": [1] * 5}
TILING = ["--tile-size", "64", "--overlap", "16", "--chunk-tiles", "2"]


@pytest.fixture
def data(tmp_path):
    image = write_raster(tmp_path / "in.tif", random_image(200, 200, 5, seed=4))
    model, _ = box3x3_model(tmp_path / "box.onnx", 5, 4, metadata=META)
    return image, model


def assert_no_outputs(out):
    assert not (out / "classes.vrt").exists()
    assert not list(out.glob("chunks/*.tif"))


def test_unreachable_scheduler_fails_fast(data, tmp_path):
    image, model = data
    out = tmp_path / "run"
    done = run_segment_cli(
        str(image),
        str(model),
        str(out),
        "--scheduler",
        f"tcp://127.0.0.1:{free_port()}",
        *TILING,
    )
    assert done.returncode == 2
    assert "Cannot reach the Dask scheduler at tcp://127.0.0.1:" in done.stderr
    assert "check the address" in done.stderr
    # Fast because the port was probed and refused at once, not because Dask's connect timed out: a
    # bound on the wall time would also count the CLI's start, which a loaded 2-core CI stretches.
    assert "refused" in done.stderr.lower(), done.stderr
    assert_no_outputs(out)


@pytest.mark.slow
def test_workers_lacking_packages_are_named(data, tmp_path):
    image, model = data
    # A worker whose onnxruntime cannot be imported: a package of that name that fails to load
    # shadows the real one, as a broken or missing install does.
    broken = tmp_path / "broken-site"
    (broken / "onnxruntime").mkdir(parents=True)
    (broken / "onnxruntime" / "__init__.py").write_text("raise ImportError('no onnxruntime on this worker')\n")
    procs = DaskProcesses(tmp_path / "dask")
    out = tmp_path / "run"
    try:
        procs.start_scheduler()
        procs.start_worker("good")
        procs.start_worker("no-package", env={"PYTHONPATH": ""})
        procs.start_worker("no-onnxruntime", env={"PYTHONPATH": f"{broken}:{REPO}"})
        addresses = procs.wait_for_workers(3)
        done = run_segment_cli(
            str(image),
            str(model),
            str(out),
            "--scheduler",
            procs.address,
            *TILING,
        )
    finally:
        procs.close()
    assert done.returncode == 2, done.stderr
    assert f"worker {addresses['no-package']} lacks flair_qgis.scale.worker" in done.stderr
    assert f"worker {addresses['no-onnxruntime']} lacks onnxruntime" in done.stderr
    assert addresses["good"] not in done.stderr
    assert "Install onnxruntime, rasterio and this project on every worker" in done.stderr
    assert_no_outputs(out)


def test_output_folder_holding_other_files_is_refused(data, tmp_path):
    image, model = data
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    done = run_segment_cli(str(image), str(model), str(out), "--workers", "1", *TILING)
    assert done.returncode == 2
    assert "holds other files (notes.txt)" in done.stderr and "choose a new or empty folder" in done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    assert (out / "notes.txt").read_text() == "keep me"


def test_output_dir_that_is_a_file_is_refused(data, tmp_path):
    image, model = data
    target = tmp_path / "a-file"
    target.write_text("x")
    done = run_segment_cli(str(image), str(model), str(target), "--workers", "1")
    assert done.returncode == 2 and "is a file: give a folder" in done.stderr
    assert target.read_text() == "x"


def test_output_dir_that_cannot_be_made_is_exit_2_with_one_line(data, tmp_path):
    image, model = data
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "gone" / "run")
    done = run_segment_cli(str(image), str(model), str(dangling), "--workers", "1", *TILING)
    assert done.returncode == 2, done.stderr
    assert "is a link to" in done.stderr and "which does not exist" in done.stderr
    assert "Traceback" not in done.stderr
    unmakeable = "/proc/flair-output"  # /proc refuses new folders, even to root
    done = run_segment_cli(str(image), str(model), unmakeable, "--workers", "1", *TILING)
    assert done.returncode == 2, done.stderr
    assert f"Cannot create --output-dir {unmakeable}" in done.stderr and "Traceback" not in done.stderr


def test_a_disk_error_while_writing_is_exit_2_not_failed_chunks(data, tmp_path, monkeypatch):
    """A full disk while the manifest is written (ENOSPC from the OS) is the machine's failure:
    one line and exit 2, never exit 1 (which means "chunks failed, run again")."""
    import errno
    import io

    from flair_qgis import cli
    from flair_qgis.scale import manifest

    def full_disk(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "run" / "run.json"))

    monkeypatch.setattr(manifest, "open_output_dir", full_disk)
    image, model = data
    err = io.StringIO()
    monkeypatch.setattr(cli.sys, "stderr", err)
    code = cli.main(["segment", "--input", str(image), "--model", str(model), "--output-dir", str(tmp_path / "run")])
    assert code == 2
    assert err.getvalue().splitlines()[-1] == (
        f"error: No space left on device: {tmp_path / 'run' / 'run.json'}. "
        "Free space or choose another --output-dir, then run again."
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--extent", "500000,6000000,500100,6000100"], "The extent does not intersect the raster"),
        (["--extent", "1,2,3"], "--extent must be xmin,ymin,xmax,ymax"),
        (["--bands", "1,2,3,4,9"], "BANDS names band(s) 9 but the raster has 5 band(s)"),
        (["--chunk-tiles", "0"], "--chunk-tiles must be at least 1"),
        (["--workers", "0"], "--workers must be at least 1"),
    ],
)
def test_bad_request_is_refused_before_anything_is_written(data, tmp_path, args, message):
    image, model = data
    out = tmp_path / "run"
    done = run_segment_cli(str(image), str(model), str(out), *args)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert not out.exists()


def test_missing_input_and_model_are_named(data, tmp_path):
    image, model = data
    missing = run_segment_cli(str(tmp_path / "nope.tif"), str(model), str(tmp_path / "o"))
    assert missing.returncode == 2 and "Cannot open the input raster" in missing.stderr
    no_model = run_segment_cli(str(image), str(tmp_path / "nope.onnx"), str(tmp_path / "o"))
    assert no_model.returncode == 2 and "nope.onnx does not exist" in no_model.stderr
    assert not (tmp_path / "o").exists()


def test_without_dask_the_cli_loads_without_qgis_and_a_scheduler_says_what_to_install():
    code = (
        "import sys\n"
        "sys.modules['dask'] = None\n"
        "sys.modules['distributed'] = None\n"
        "import flair_qgis.cli, flair_qgis.scale.runner, flair_qgis.scale.cluster as c\n"
        "try:\n"
        "    c.open_client('tcp://127.0.0.1:1', None).__enter__()\n"
        "except Exception as err:\n"
        "    print(type(err).__name__, err)\n"
        "print('qgis loaded:', sorted(m for m in sys.modules if m.split('.')[0] in ('qgis', 'PyQt5', 'PyQt6')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("NotSupportedError Dask distributed is not installed")
    assert "pip install 'dask[distributed]'" in done.stdout
    assert "qgis loaded: []" in done.stdout  # the command line and the workers need no QGIS
