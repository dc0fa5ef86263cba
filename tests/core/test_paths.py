"""core.paths: an output that resolves to an input of the same run is refused, naming both."""

from __future__ import annotations

import os

import pytest

from flair_qgis.core.errors import InputError
from flair_qgis.core.paths import (
    check_file_not_input,
    check_folder_not_input,
    check_outputs_not_inputs,
    check_sidecars_not_input,
    same_path,
    sidecar_paths,
)


@pytest.fixture
def image(tmp_path):
    """An existing input file with known bytes."""
    path = tmp_path / "data" / "image.tif"
    path.parent.mkdir()
    path.write_bytes(b"imagery")
    return path


def test_same_file_refused_with_both_names(image):
    with pytest.raises(InputError) as err:
        check_file_not_input("OUTPUT", str(image), "INPUT", str(image))
    text = str(err.value)
    assert text.startswith("OUTPUT would overwrite INPUT (")
    assert str(image) in text
    assert "choose another output file" in text
    assert image.read_bytes() == b"imagery"


def test_relative_path_refused(image, monkeypatch):
    monkeypatch.chdir(image.parent.parent)
    with pytest.raises(InputError, match="OUTPUT would overwrite INPUT"):
        check_file_not_input("OUTPUT", os.path.join("data", "..", "data", "image.tif"), "INPUT", str(image))


def test_symlink_refused_and_resolved_path_shown(image, tmp_path):
    link = tmp_path / "link.tif"
    link.symlink_to(image)
    with pytest.raises(InputError) as err:
        check_file_not_input("OUTPUT_CONFIDENCE", str(link), "INPUT", str(image))
    assert "OUTPUT_CONFIDENCE would overwrite INPUT" in str(err.value)
    # The input given through a link: the message shows where the link points.
    with pytest.raises(InputError) as err:
        check_file_not_input("OUTPUT", str(image), "INPUT", str(link))
    assert f"{link} = {image}" in str(err.value)


def test_symlinked_folder_refused(image, tmp_path):
    folder_link = tmp_path / "elsewhere"
    folder_link.symlink_to(image.parent, target_is_directory=True)
    with pytest.raises(InputError):
        check_file_not_input("OUTPUT", str(folder_link / "image.tif"), "INPUT", str(image))


def test_hard_link_refused(image, tmp_path):
    hard = tmp_path / "hard.tif"
    os.link(image, hard)
    assert same_path(str(hard), str(image))
    with pytest.raises(InputError, match="OUTPUT would overwrite INPUT"):
        check_file_not_input("OUTPUT", str(hard), "INPUT", str(image))


def test_home_relative_path_refused(image, monkeypatch):
    monkeypatch.setenv("HOME", str(image.parent))
    with pytest.raises(InputError):
        check_file_not_input("OUTPUT", "~/image.tif", "INPUT", str(image))


def test_geopackage_layer_source_refused(tmp_path):
    gpkg = tmp_path / "reference.gpkg"
    gpkg.write_bytes(b"gpkg")
    with pytest.raises(InputError, match="OUTPUT would overwrite REFERENCE"):
        check_file_not_input("OUTPUT", str(gpkg), "REFERENCE", f"{gpkg}|layername=parcels")


@pytest.mark.parametrize("other", ["image2.tif", "image.tif.aux.xml", "../image.tif"])
def test_other_files_pass(image, other):
    check_file_not_input("OUTPUT", str(image.parent / other), "INPUT", str(image))


@pytest.mark.parametrize("missing", [None, ""])
def test_missing_paths_pass(image, missing):
    check_file_not_input("OUTPUT", missing, "INPUT", str(image))
    check_file_not_input("OUTPUT", str(image), "INPUT", missing)


def test_folder_equal_refused(tmp_path):
    dataset = tmp_path / "dataset"
    dataset.mkdir()
    with pytest.raises(InputError) as err:
        check_folder_not_input("OUTPUT_PREDICTIONS", str(dataset) + os.sep, "DATASET", str(dataset))
    assert str(err.value).startswith("OUTPUT_PREDICTIONS would overwrite DATASET (")
    assert "choose another output folder" in str(err.value)


@pytest.mark.parametrize("inside", ["img", "img/new/deeper"])
def test_folder_inside_input_refused(tmp_path, inside):
    dataset = tmp_path / "dataset"
    (dataset / "img").mkdir(parents=True)
    with pytest.raises(InputError) as err:
        check_folder_not_input("OUTPUT_PREDICTIONS", str(dataset / inside), "DATASET", str(dataset))
    assert "OUTPUT_PREDICTIONS" in str(err.value) and f"is inside DATASET ({dataset})" in str(err.value)


def test_folder_inside_input_through_symlink_refused(tmp_path):
    dataset = tmp_path / "dataset"
    dataset.mkdir()
    link = tmp_path / "link"
    link.symlink_to(dataset, target_is_directory=True)
    with pytest.raises(InputError, match="is inside DATASET"):
        check_folder_not_input("OUTPUT_PREDICTIONS", str(link / "preds"), "DATASET", str(dataset))


@pytest.mark.parametrize("name", ["predictions", "dataset-predictions"])
def test_sibling_or_parent_folder_passes(tmp_path, name):
    dataset = tmp_path / "dataset"
    dataset.mkdir()
    # A sibling whose name starts like the dataset's is not inside it.
    check_folder_not_input("OUTPUT_PREDICTIONS", str(tmp_path / name), "DATASET", str(dataset))
    check_folder_not_input("OUTPUT_PREDICTIONS", str(tmp_path), "DATASET", str(dataset))


def test_sidecar_paths():
    assert sidecar_paths("/r/report.json", (".csv", ".png")) == ["/r/report.csv", "/r/report.png"]
    assert sidecar_paths("/r/report", (".csv",)) == ["/r/report.csv"]


def test_sidecar_over_input_refused(tmp_path):
    reference = tmp_path / "report.csv"
    reference.write_text("a,b\n")
    inputs = {"PREDICTION": str(tmp_path / "pred.tif"), "REFERENCE": str(reference)}
    with pytest.raises(InputError) as err:
        check_sidecars_not_input("OUTPUT_REPORT", str(tmp_path / "report.json"), (".csv", ".png"), inputs)
    text = str(err.value)
    assert "OUTPUT_REPORT writes report.csv beside it" in text and "REFERENCE" in text
    check_sidecars_not_input("OUTPUT_REPORT", str(tmp_path / "other.json"), (".csv", ".png"), inputs)
    check_sidecars_not_input("OUTPUT_REPORT", None, (".csv",), inputs)


def test_outputs_against_inputs_each_pair(image, tmp_path):
    inputs = {"INPUT": str(image), "MODEL": str(tmp_path / "model.onnx"), "MASK": None}
    outputs = {"OUTPUT": str(tmp_path / "classes.tif"), "OUTPUT_CONFIDENCE": str(image), "OUTPUT_HEADS": ""}
    with pytest.raises(InputError, match="OUTPUT_CONFIDENCE would overwrite INPUT"):
        check_outputs_not_inputs(outputs, inputs)
    outputs["OUTPUT_CONFIDENCE"] = str(tmp_path / "confidence.tif")
    check_outputs_not_inputs(outputs, inputs)


def test_two_outputs_same_file_refused(tmp_path):
    outputs = {"OUTPUT": str(tmp_path / "a.tif"), "OUTPUT_CONFIDENCE": str(tmp_path / "." / "a.tif")}
    with pytest.raises(InputError, match="OUTPUT_CONFIDENCE and OUTPUT are the same file"):
        check_outputs_not_inputs(outputs, {})
