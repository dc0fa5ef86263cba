"""core.atomic's job outputs: what a failed or canceled job removes, and what it says it removed."""

from __future__ import annotations

import os

import pytest

from flair_qgis.core.atomic import JobOutputs, job_outputs, write_text_atomic
from flair_qgis.core.errors import Canceled, InputError


def _published(folder, name: str, *sidecars: str) -> str:
    path = str(folder / name)
    write_text_atomic(path, "map")
    for sidecar in sidecars:
        write_text_atomic(str(folder / sidecar), "sidecar")
    return path


def test_a_cancel_removes_what_was_published_with_its_sidecars_and_names_it(tmp_path):
    (tmp_path / "notes.txt").write_text("the user's")
    with pytest.raises(Canceled) as err, job_outputs() as written:
        written.add(_published(tmp_path, "classes.tif", "classes.qml", "classes.tif.aux.xml"))
        raise Canceled()
    assert sorted(os.listdir(tmp_path)) == ["notes.txt"]
    assert [os.path.basename(p) for p in err.value.removed] == ["classes.tif", "classes.tif.aux.xml", "classes.qml"]
    assert str(err.value) == (
        "Canceled by the user; removed what the run had written: classes.tif, classes.tif.aux.xml, classes.qml."
    )


def test_a_cancel_before_anything_was_published_says_so(tmp_path):
    (tmp_path / "classes.tif").write_text("an older map of the user's")
    with pytest.raises(Canceled) as err, job_outputs():
        raise Canceled()
    assert err.value.removed == () and str(err.value) == "Canceled by the user; nothing had been written."
    assert (tmp_path / "classes.tif").read_text() == "an older map of the user's"  # never added: kept


def test_a_cancel_after_the_body_is_a_cancel(tmp_path):
    with pytest.raises(Canceled) as err, job_outputs(lambda: True) as written:
        written.add(_published(tmp_path, "int8.onnx"))
    assert os.listdir(tmp_path) == [] and [os.path.basename(p) for p in err.value.removed] == ["int8.onnx"]


def test_an_inner_jobs_cancel_adds_its_files_to_the_outer_ones(tmp_path):
    with pytest.raises(Canceled) as err, job_outputs() as outer:
        outer.add(_published(tmp_path, "classes.tif"))
        with job_outputs() as inner:
            inner.add(_published(tmp_path, "polygons.gpkg"))
            raise Canceled()
    assert [os.path.basename(p) for p in err.value.removed] == ["classes.tif", "polygons.gpkg"]
    assert os.listdir(tmp_path) == []


def test_an_error_keeps_its_type_and_text_and_carries_the_files_removed(tmp_path):
    with pytest.raises(InputError) as err, job_outputs() as written:
        written.add(_published(tmp_path, "classes.tif"))
        raise InputError("the polygons cannot be written")
    assert str(err.value) == "the polygons cannot be written"  # a note, shown in tracebacks, says the rest
    assert [os.path.basename(p) for p in err.value.removed] == ["classes.tif"] and os.listdir(tmp_path) == []
    with pytest.raises(OSError) as crash, job_outputs() as written:
        written.add(_published(tmp_path, "conf.tif"))
        raise OSError("disk full")
    assert [os.path.basename(p) for p in crash.value.removed] == ["conf.tif"] and os.listdir(tmp_path) == []


def test_a_run_that_succeeds_keeps_everything(tmp_path):
    with job_outputs(lambda: False) as written:
        written.add(_published(tmp_path, "classes.tif"), None, "")
    assert os.listdir(tmp_path) == ["classes.tif"] and written.files == [str(tmp_path / "classes.tif")]
    outputs = JobOutputs()
    outputs.add(*written.files)
    assert outputs.remove() == (str(tmp_path / "classes.tif"),) and os.listdir(tmp_path) == []
