"""Rebuild a FLAIR-HUB network with segmentation-models-pytorch and timm, as IGN's code builds it.

IGN's ``FLAIR_HUB_Model`` (IGNF/FLAIR-HUB 3d5693b, smp 0.4.0) takes the ``encoder`` of
``smp.create_model(decoder, "tu-<encoder>" or "<encoder>", classes, in_channels)`` and the
``decoder`` and ``segmentation_head`` of a second one built with ``in_channels=1``; its forward
resizes the head's output to the tile with ``interpolate(bilinear, align_corners=False)``. The
libraries are used here the same way (see :mod:`tools.ign_layouts` for the recorded facts).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from collections.abc import Mapping

import torch
from torch import nn
from torch.nn import functional


def import_smp() -> types.ModuleType:
    """``segmentation_models_pytorch``, importable with a torchvision whose C ops do not load.

    PyPI's torchvision wheels are CUDA builds: next to the CPU torch of ``.venv-tools`` their C
    extension cannot load, and torchvision 0.28 then stops at import while registering shape
    functions for ops it never loaded (``torchvision::nms``...). smp and timm import torchvision
    but the segmentation networks use none of its C ops, so those registrations are skipped when
    (and only when) the C extension is absent. With a CPU torchvision nothing is changed.
    """
    name = "torchvision._meta_registrations"
    present = importlib.util.find_spec("torchvision") is not None
    if present and "torchvision" not in sys.modules and not _torchvision_ops_load():
        sys.modules.setdefault(name, types.ModuleType(name))
    return importlib.import_module("segmentation_models_pytorch")


def _torchvision_ops_load() -> bool:
    """Whether torchvision's C extension loads next to this torch (checked without importing it)."""
    import glob
    import os

    spec = importlib.util.find_spec("torchvision")
    folder = os.path.dirname(spec.origin) if spec and spec.origin else ""
    libraries = glob.glob(os.path.join(folder, "_C*.so")) + glob.glob(os.path.join(folder, "_C*.pyd"))
    if not libraries:
        return False
    try:
        torch.ops.load_library(libraries[0])
    except OSError:
        return False
    return True


class ResizeToInput(nn.Module):
    """``interpolate(net(x), x's rows and cols, bilinear, align_corners=False)``, IGN's forward."""

    def __init__(self, net: nn.Module) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return functional.interpolate(self.net(x), size=x.shape[-2:], mode="bilinear", align_corners=False)


def timm_name(encoder: str) -> str:
    """The smp encoder name IGN's fallback ends with: smp's own ResNets, ``tu-`` for timm's."""
    return encoder if encoder.startswith("resnet") else f"tu-{encoder}"


def build_hub_network(
    encoder: str,
    decoder: str,
    in_channels: int,
    classes: int,
    encoder_state: Mapping[str, torch.Tensor],
    decoder_state: Mapping[str, torch.Tensor],
    tile: int,
) -> nn.Module:
    """The network of one FLAIR-HUB modality and task, weights loaded, in eval mode.

    Args:
        encoder: IGN's encoder name (``convnextv2_tiny``...).
        decoder: ``upernet`` or ``unet``.
        in_channels, classes: input bands and output classes.
        encoder_state: the encoder's tensors (keys of ``model.encoder``).
        decoder_state: ``decoder.*`` and ``segmentation_head.*`` tensors.
        tile: the tile edge, given to encoders whose input size is fixed (Swin).

    Raises:
        RuntimeError: the tensors do not fit the rebuilt network (strict loading).
    """
    smp = import_smp()
    extra = {"img_size": tile} if encoder.startswith("swin") else {}
    name = timm_name(encoder)
    net = smp.create_model(
        decoder, encoder_name=name, in_channels=in_channels, classes=classes, encoder_weights=None, **extra
    )
    # IGN builds the decoder from a second model with one input channel; a whole smp model's
    # decoder has the model's: the (unused) input-level skip convolution tells which.
    skip = decoder_state.get("decoder.fpn_stages.4.skip_conv.0.weight")
    heads = smp.create_model(
        decoder,
        encoder_name=timm_name(encoder),
        in_channels=int(skip.shape[1]) if skip is not None else 1,
        classes=classes,
        encoder_weights=None,
        **extra,
    )
    net.decoder, net.segmentation_head = heads.decoder, heads.segmentation_head
    state = {f"encoder.{k}": v for k, v in encoder_state.items()}
    state.update(decoder_state)
    net.load_state_dict(state, strict=True)
    return ResizeToInput(net).eval()
