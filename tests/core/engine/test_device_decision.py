"""core.engine.sessions.decide_device: the provider a run will use, decided once from its inputs."""

from __future__ import annotations

import pytest

from flair_qgis.core.engine import CPU, CUDA, decide_device
from flair_qgis.core.errors import InputError

# (device asked, CUDA offered) -> provider that runs
PROVIDERS = {
    ("auto", True): CUDA,
    ("auto", False): CPU,
    ("cuda", True): CUDA,
    ("cuda", False): CPU,
    ("cpu", True): CPU,
    ("cpu", False): CPU,
}


@pytest.mark.parametrize(("device", "cuda"), sorted(PROVIDERS))
def test_the_provider_follows_the_device_and_what_is_installed(device, cuda):
    decision = decide_device(device, "fp32", cuda=cuda)
    assert decision.provider == PROVIDERS[device, cuda]
    assert decision.refusal is None and decision.checked() is decision
    assert decision.cuda_missing is (device == "cuda" and not cuda)
    assert decision.gpu_unused is (device != "cpu" and not cuda)
    assert decision.label == ("CUDA" if decision.provider == CUDA else "CPU")


@pytest.mark.parametrize(("device", "cuda"), sorted(PROVIDERS))
def test_fp16_is_refused_exactly_where_the_cpu_provider_runs(device, cuda):
    decision = decide_device(device, "fp16", cuda=cuda)
    if decision.provider == CUDA:
        assert decision.checked().precision == "fp16"
        return
    assert isinstance(decision.refusal, InputError) and decision.refusal.key == "fp16_cpu"
    with pytest.raises(InputError, match="fp16 runs on CUDA only"):
        decision.checked()


def test_names_are_normalised_and_empty_means_the_default():
    decision = decide_device(" CUDA ", "FP16", cuda=True).checked()
    assert (decision.device, decision.precision) == ("cuda", "fp16")
    decision = decide_device("", None, cuda=False).checked()
    assert (decision.device, decision.precision, decision.provider) == ("auto", "fp32", CPU)


def test_unknown_device_and_precision_carry_their_key():
    device = decide_device("tpu", "fp32", cuda=True)
    assert device.refusal is not None and device.refusal.key == "bad_device"
    assert device.refusal.params == {"choices": "auto, cuda, cpu", "device": "tpu"}
    assert str(device.refusal) == "DEVICE must be one of auto, cuda, cpu, got 'tpu'."
    precision = decide_device("cpu", "int4", cuda=False)
    assert precision.refusal is not None and precision.refusal.key == "bad_precision"
    assert str(precision.refusal) == "PRECISION must be one of fp32, fp16, got 'int4'."


@pytest.mark.parametrize("cuda", [True, False])
def test_a_worker_pinned_to_a_gpu_asks_for_cuda_under_auto(cuda):
    decision = decide_device("auto", cuda=cuda, pinned_gpu=True)
    assert decision.device == "cuda"
    assert decision.cuda_missing is (not cuda)
    assert decide_device("cpu", cuda=cuda, pinned_gpu=True).device == "cpu"


def test_create_session_refuses_an_unknown_device_as_the_decision_does(tmp_path):
    from flair_qgis.core.engine import create_session

    with pytest.raises(InputError) as caught:
        create_session(str(tmp_path / "never_read.onnx"), "tpu")
    assert caught.value.key == "bad_device"
