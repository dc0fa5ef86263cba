"""The Segment tab and the GPU: the device list names the GPU, progress shows tiles/s and the provider.

The GPU name comes from a real ``nvidia-smi`` executable put first on ``PATH`` (a script that
answers as the driver does); the run is a real dock run on the CPU provider of this machine.
"""

from __future__ import annotations

import stat

import pytest
from gui_helpers import add_raster, big_raster, toy_model, wait_for_task

from flair_qgis.core.cuda import list_gpus
from flair_qgis.core.vocabulary import EXTENT_LAYER


@pytest.fixture
def h200(tmp_path, monkeypatch):
    """An ``nvidia-smi`` on PATH listing one NVIDIA H200, asked afresh."""
    smi = tmp_path / "bin" / "nvidia-smi"
    smi.parent.mkdir()
    smi.write_text('#!/bin/sh\necho "0, NVIDIA H200"\n')
    smi.chmod(smi.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{smi.parent}:/usr/bin:/bin")
    list_gpus.cache_clear()
    yield
    list_gpus.cache_clear()


@pytest.fixture
def no_driver(monkeypatch):
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    list_gpus.cache_clear()
    yield
    list_gpus.cache_clear()


def _device_labels(dock) -> dict[str, str]:
    combo = dock.segment.run_section.device_combo
    return {combo.itemData(i): combo.itemText(i) for i in range(combo.count())}


def test_the_device_list_names_the_gpu(h200, plugin, qtbot):
    from layout_helpers import horizontal_overflow, show_at_dock_width

    assert _device_labels(plugin.dock)["cuda"] == "CUDA — NVIDIA H200"
    plugin.dock.segment.run_section.device_combo.setCurrentIndex(1)  # the GPU's name on screen
    show_at_dock_width(plugin.dock, qtbot)
    assert horizontal_overflow(plugin.dock, qtbot) == []


def test_without_a_driver_the_device_is_plain_cuda(no_driver, plugin):
    assert _device_labels(plugin.dock) == {"auto": "Auto (CUDA when available)", "cuda": "CUDA", "cpu": "CPU"}
    assert not plugin.dock.segment.run_section.device_warning.isVisibleTo(plugin.dock)


def test_a_gpu_this_onnxruntime_cannot_use_is_said_at_start(h200, plugin):
    """'Auto' on a machine with a GPU and the CPU onnxruntime: not silently on the CPU."""
    import onnxruntime

    if "CUDAExecutionProvider" in onnxruntime.get_available_providers():
        pytest.skip("this onnxruntime has the CUDA provider")
    run_section = plugin.dock.segment.run_section
    assert run_section.device_combo.currentData() == "auto"
    assert run_section.device_warning.isVisibleTo(plugin.dock)
    assert run_section.device_warning.text() == (
        "This machine has an NVIDIA GPU: install onnxruntime-gpu[cuda,cudnn] to use it."
    )
    run_section.device_combo.setCurrentIndex(run_section.device_combo.findData("cpu"))
    assert not run_section.device_warning.isVisibleTo(plugin.dock)


def test_progress_shows_tiles_per_second_and_the_provider(plugin, qtbot, tmp_path):
    dock = plugin.dock
    dock.set_model(str(toy_model(tmp_path)))
    dock.layer_combo.setLayer(add_raster(big_raster(tmp_path / "in" / "big.tif")))
    dock.set_extent_mode(EXTENT_LAYER)
    dock.segment.run_section.tile_spin.setValue(64)
    dock.segment.run_section.overlap_spin.setValue(0)
    dock.segment.run_section.batch_spin.setValue(1)
    dock.segment.run_section.output_widget.setFilePath(str(tmp_path / "classes.tif"))
    shown: list[str] = []
    task = dock.segment.run()
    assert task is not None
    task.progressChanged.connect(lambda _p: shown.append(dock.segment.run_section.progress.text()))
    wait_for_task(qtbot, dock)
    with_speed = [text for text in shown if "tiles/s" in text]
    assert with_speed, shown
    # e.g. "37% — 41.2 tiles/s · CPU": this machine's onnxruntime runs on the CPU provider.
    assert all(text.endswith(" · CPU") and "% — " in text for text in with_speed), with_speed
    assert dock.segment.run_section.progress.format() == "%p%"  # reset when the run ended
