"""The request travels whole: driver -> JSON -> Dask worker, and run.json records what changes pixels.

The worker test runs on real Dask worker processes: the task is the JSON string the driver
submits, read by the task function on the worker, and the test looks at the request the worker
hands to the core's planning (``plan_run``), field by field. A field added to
:class:`~flair_qgis.core.segment.SegmentRequest` gets a non-default value by introspection
(``request_values``), so a field that does not reach the workers fails here.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from rasters import random_image, write_raster
from request_values import non_default_request
from scale_helpers import manifest, run_cli, run_segment_cli
from toy_models import box3x3_model

from flair_qgis.core.errors import InputError
from flair_qgis.core.segment import SegmentRequest
from flair_qgis.scale.manifest import MANIFEST, open_output_dir
from flair_qgis.scale.plan import ScaleJob, plan_job
from flair_qgis.scale.worker import task_payload

PACKAGE = Path(__file__).resolve().parents[1] / "flair_qgis"
META = {"mean": [0] * 5, "std": [1] * 5, "classes": [{"value": v, "name": f"class {v}"} for v in (1, 2, 3, 4)]}
PER_CHUNK = {"output_path", "head_paths", "tile_values_path", "extent"}
"""The fields :meth:`ScaleJob.for_chunk` sets for each chunk; every other one is the run's."""


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("request-data")
    image = write_raster(folder / "in.tif", random_image(200, 230, 5, seed=4))
    model, _ = box3x3_model(folder / "box.onnx", 5, 4, seed=1, metadata=META)
    return {"image": image, "model": model}


def every_field_set(job: ScaleJob) -> ScaleJob:
    """``job`` with a request whose every field differs from its default (the tiling kept: chunks need it)."""
    request = replace(non_default_request(), tile_size_px=job.request.tile_size_px, overlap_px=job.request.overlap_px)
    return replace(job, request=request)


def planned(data, out: Path, **options) -> ScaleJob:
    request = SegmentRequest(str(out / "classes.vrt"), tile_size_px=64, overlap_px=16, **options)
    return plan_job(str(data["image"]), str(data["model"]), str(out), request, chunk_tiles=2)[0]


def test_the_job_round_trips_through_json_with_every_field_of_its_request(data, tmp_path):
    job = replace(every_field_set(planned(data, tmp_path / "run")), vector_chunks=True)
    back = ScaleJob.from_json(job.to_json())
    assert back == job
    for field in dataclasses.fields(SegmentRequest):
        assert getattr(back.request, field.name) == getattr(job.request, field.name), field.name


def test_for_chunk_derives_the_chunk_request_and_keeps_every_other_field(data, tmp_path):
    job = every_field_set(planned(data, tmp_path / "run"))
    chunk = job.chunks()[-1]
    derived = job.for_chunk(chunk)
    assert derived.output_path == job.chunk_path(chunk)
    assert derived.extent == chunk.sub_grid(job.grid).bounds
    for field in dataclasses.fields(SegmentRequest):
        if field.name not in PER_CHUNK:
            assert getattr(derived, field.name) == getattr(job.request, field.name), field.name


def probe_on_worker() -> Callable[[str], str]:
    """A task function that runs the real task function on a payload, stopped where the worker plans the chunk.

    It returns the request the worker passed to the core's ``plan_run`` and the worker's process id,
    as JSON. A nested function: cloudpickle ships it by value, the workers never import this module.
    """

    def probe(payload: str) -> str:
        import os

        from flair_qgis.scale import remote, worker

        seen = []

        def plan_run(model, sources, grid, request, **_kwargs):
            seen.append(request)
            raise LookupError("reached plan_run")

        real, worker.plan_run = worker.plan_run, plan_run
        try:
            remote.chunk_task()(payload)
        except remote.ChunkError as err:
            if "reached plan_run" not in str(err):
                raise
        finally:
            worker.plan_run = real
        return json.dumps({"request": seen[0].to_json(), "pid": os.getpid()})

    return probe


@pytest.mark.slow
def test_every_field_of_the_request_reaches_the_worker(cluster, data, tmp_path):
    from distributed import Client

    from flair_qgis.scale.cluster import ship_by_value

    job = every_field_set(planned(data, tmp_path / "run"))
    chunk = job.chunks()[1]
    ship_by_value()
    with Client(cluster.address, timeout=30) as client:
        answer = client.submit(probe_on_worker(), task_payload("chunk", job, chunk), pure=False).result(timeout=120)
    reply = json.loads(answer)
    assert reply["pid"] != os.getpid()  # a worker process read the JSON
    reached = SegmentRequest.from_json(reply["request"])
    expected = job.for_chunk(chunk)
    for field in dataclasses.fields(SegmentRequest):
        assert getattr(reached, field.name) == getattr(expected, field.name), field.name
    assert reached.precision == "fp16" and reached.fuse_graph is False and reached.threads == job.request.threads


def test_the_package_never_unpickles():
    """The QGIS plugin repository's scan (bandit B301/B403) refuses ``import pickle`` and ``pickle.loads``."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Attribute) and node.attr in ("loads", "load", "Unpickler"):
                names = [getattr(node.value, "id", "")]
            found += [f"{path.relative_to(PACKAGE)}:{node.lineno}" for n in names if n.split(".")[0] == "pickle"]
    assert not found, found


@pytest.mark.parametrize(
    ("changed", "named"),
    [
        ({"precision": "fp16"}, "precision: was fp32, now fp16"),
        ({"fuse_graph": False}, "fuse_graph: was true, now false"),
        ({"tile_size_px": 32}, "tile_size_px: was 64, now 32"),
        ({"bands": ((5, 4, 3, 2, 1),)}, "bands: was 1,2,3,4,5, now 5,4,3,2,1"),
    ],
)
def test_a_resume_with_another_pixel_option_is_refused_naming_it(data, tmp_path, changed, named):
    out = tmp_path / "run"
    job = planned(data, out)
    open_output_dir(job, force=False)
    before = (out / MANIFEST).read_text()
    other = replace(job, request=replace(job.request, **changed))
    with pytest.raises(InputError) as refused:
        open_output_dir(other, force=False)
    assert named in str(refused.value) and "--force" in str(refused.value)
    assert str(refused.value).count(": was ") == 1
    assert (out / MANIFEST).read_text() == before
    open_output_dir(other, force=True)  # discards the earlier run and records the new options
    assert json.loads((out / MANIFEST).read_text())["identity"]["options"] == {
        "precision": other.request.precision,
        "fuse_graph": other.request.fuse_graph,
    }


def test_options_other_than_pixel_ones_resume(data, tmp_path):
    out = tmp_path / "run"
    job = planned(data, out)
    open_output_dir(job, force=False)
    faster = replace(job.request, device="cpu", batch_size=9, threads=3, readers=2)
    open_output_dir(replace(job, request=faster), force=False)


def test_a_run_recorded_before_options_resumes_as_fp32(data, tmp_path):
    out = tmp_path / "run"
    job = planned(data, out)
    open_output_dir(job, force=False)
    recorded = json.loads((out / MANIFEST).read_text())
    assert recorded["identity"]["options"] == {"precision": "fp32", "fuse_graph": True}
    del recorded["identity"]["options"]
    (out / MANIFEST).write_text(json.dumps(recorded))
    open_output_dir(job, force=False)  # what every earlier run ran with
    with pytest.raises(InputError, match="precision: was fp32, now fp16"):
        open_output_dir(replace(job, request=replace(job.request, precision="fp16")), force=False)


def test_cli_precision_is_in_the_help_and_fp16_on_the_cpu_is_refused(data, tmp_path):
    from flair_qgis.core.engine import cuda_available

    helped = run_cli("--help")
    assert helped.returncode == 0 and "--precision {fp32,fp16}" in helped.stdout
    if cuda_available():
        pytest.skip("this onnxruntime offers CUDA: fp16 is not refused here")
    out = tmp_path / "run"
    refused = run_segment_cli(data["image"], data["model"], out, "--precision", "fp16", "--device", "cpu")
    assert refused.returncode == 2
    assert "fp16 runs on CUDA only" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    assert not out.exists()


@pytest.mark.slow
def test_cli_records_the_options_and_a_resume_names_what_differs(cluster, data, tmp_path):
    out = tmp_path / "run"
    where = ["--overlap", "16", "--chunk-tiles", "3", "--scheduler", cluster.address]
    done = run_segment_cli(data["image"], data["model"], out, "--tile-size", "64", *where, "--precision", "fp32")
    assert done.returncode == 0, done.stderr
    identity = manifest(out)["identity"]
    assert identity["options"] == {"precision": "fp32", "fuse_graph": True}
    assert identity["tiling"] == {"tile_size_px": 64, "overlap_px": 16, "chunk_tiles": 3}
    other = ["--tile-size", "96", "--bands", "5,4,3,2,1"]
    refused = run_segment_cli(data["image"], data["model"], out, *other, *where)
    assert refused.returncode == 2
    assert "tile_size_px: was 64, now 96" in refused.stderr and "bands: was 1,2,3,4,5, now 5,4,3,2,1" in refused.stderr
    again = run_segment_cli(data["image"], data["model"], out, "--tile-size", "64", *where)
    assert again.returncode == 0 and "0 chunk(s) computed" in again.stderr  # the same options resume
