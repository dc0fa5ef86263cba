"""core.benchmark.datasets: the three benchmark layouts found on disk, unpaired files, refusals."""

from __future__ import annotations

import os

import pytest
from bench_helpers import make_flair1_dataset, make_flairhub_dataset, make_weedsense_dataset

from flair_qgis.core.benchmark.datasets import (
    IMAGE,
    LAYOUT_FLAIR1,
    LAYOUT_FLAIRHUB,
    LAYOUT_WEEDSENSE,
    detect_layout,
    discover,
)
from flair_qgis.core.errors import InputError


def test_flair1_ign_tree_pairs_by_id(tmp_path):
    root = tmp_path / "flair1"
    ids = make_flair1_dataset(root, 3)
    assert detect_layout(str(root)) == LAYOUT_FLAIR1
    dataset = discover(root)
    assert [s.sample_id for s in dataset.samples] == sorted(ids)
    for sample in dataset.samples:
        image, mask = sample.inputs[IMAGE], sample.reference
        assert os.path.basename(image) == f"IMG_{sample.sample_id}.tif"
        assert os.path.basename(mask) == f"MSK_{sample.sample_id}.tif"
        assert os.path.basename(os.path.dirname(image)) == "img" and os.path.basename(os.path.dirname(mask)) == "msk"
    assert dataset.unpaired == [] and dataset.image_targets == ()


def test_unpaired_files_are_listed_or_refused(tmp_path):
    root = tmp_path / "flair1"
    ids = make_flair1_dataset(root, 3)
    lonely = next(root.rglob(f"MSK_{ids[1]}.tif"))
    lonely.unlink()
    dataset = discover(root)
    assert [s.sample_id for s in dataset.samples] == sorted(set(ids) - {ids[1]})
    assert len(dataset.unpaired) == 1 and dataset.unpaired[0].startswith("image without mask:")
    assert f"IMG_{ids[1]}.tif" in dataset.unpaired[0]
    with pytest.raises(InputError, match="ON_UNPAIRED=fail"):
        discover(root, on_unpaired="fail")


def test_flairhub_modalities_and_label(tmp_path):
    root = tmp_path / "hub"
    patches = make_flairhub_dataset(root, 2)
    assert detect_layout(str(root)) == LAYOUT_FLAIRHUB
    land = discover(root, required_modalities=("AERIAL_RGBI", "DEM_ELEV"))
    assert sorted(s.sample_id for s in land.samples) == sorted(p["id"] for p in patches)
    assert set(land.samples[0].inputs) >= {"AERIAL_RGBI", "DEM_ELEV"}
    assert "AERIAL_LABEL-COSIA" in land.samples[0].reference and land.label_modality == "AERIAL_LABEL-COSIA"
    crops = discover(root, label_modality="ALL_LABEL-LPIS")
    assert all("ALL_LABEL-LPIS" in s.reference for s in crops.samples)
    with pytest.raises(InputError):
        discover(root, required_modalities=("SPOT_RGBI",), on_unpaired="fail")


def test_weedsense_labels_give_per_image_targets(tmp_path):
    root = tmp_path / "weeds"
    samples = make_weedsense_dataset(root, 3)
    assert detect_layout(str(root)) == LAYOUT_WEEDSENSE
    dataset = discover(root)
    assert dataset.has_labels_csv and dataset.image_targets == ("height_cm", "growth_week")
    by_id = {s.sample_id: s for s in dataset.samples}
    for expected in samples:
        found = by_id[expected["id"]]
        assert found.height_cm == pytest.approx(expected["height_cm"]) and found.growth_week == expected["growth_week"]


@pytest.mark.parametrize(
    ("make", "layout", "message"),
    [
        (lambda root: root.mkdir(), "auto", "No benchmark samples found"),
        (lambda root: root.mkdir(), "zarr", "Unknown dataset layout 'zarr'"),
        (lambda root: None, "auto", "Dataset folder not found"),
    ],
)
def test_refusals_say_what_was_looked_for(tmp_path, make, layout, message):
    root = tmp_path / "empty"
    make(root)
    with pytest.raises(InputError, match=message):
        discover(root, layout)
