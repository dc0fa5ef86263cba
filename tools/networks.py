"""Open a checkpoint as the network IGN's code runs: which layout, which architecture, rebuilt.

Layouts (see :mod:`tools.ign_layouts` for the facts and their source): an smp model's state dict
under any prefix (FLAIR-INC ``model.seg_model.``, ``net.``, none...), or IGN's FLAIR-HUB model
(``model.encoders.<MODALITY>.seg_model.*``, ``model.main_decoders.<TASK>.seg_model.*``). ResNet
U-Nets are rebuilt in plain PyTorch (:mod:`tools.unet`); UPerNets and timm encoders with
segmentation-models-pytorch and timm (:mod:`tools.smp_models`), exported by the dynamo exporter at
a fixed tile size (UPerNet's pyramid pooling cannot be traced with symbolic sizes).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

import torch
from torch import nn

from .checkpoints import Architecture, CheckpointError, find_prefix, infer_architecture, read_tensors
from .ign_layouts import LayoutError, hub_network, is_hub_layout, recognise_decoder, recognise_encoder

_FIRST_CONV = ("conv1.weight", "model.stem_0.weight", "model.patch_embed.proj.weight")


@dataclass
class Network:
    """A rebuilt network and what is known of it.

    Attributes:
        arch: architecture read from the tensors.
        model: the network in eval mode, ``(batch, bands, rows, cols) -> logits`` at the input size.
        exporter: ``torchscript`` (dynamic sizes) or ``dynamo`` (fixed tile size).
        layout: one line saying which layout was read.
        modality, task: FLAIR-HUB modality and task, None for other layouts.
    """

    arch: Architecture
    model: nn.Module
    exporter: str
    layout: str
    modality: str | None = None
    task: str | None = None


def open_network(path: str, arch: str | None, modality: str | None, task: str | None, tile: int) -> Network:
    """Read ``path`` and rebuild its network.

    Args:
        path: ``.ckpt``, ``.pth``, ``.pt`` or ``.safetensors``.
        arch: ``<encoder>-<decoder>`` as IGN's configs write it (``convnextv2_tiny-upernet``), or
            None to read it from the keys; when both are known they must agree.
        modality, task: FLAIR-HUB encoder and decoder to take (None: the only one).
        tile: tile edge of fixed-size exports.

    Raises:
        CheckpointError: a layout or architecture this converter does not read, or tensors that
            do not fit it.
    """
    tensors, info = read_tensors(path)
    try:
        if is_hub_layout(tensors):
            hub = hub_network(tensors, modality, task)
            encoder, decoder = hub.encoder, hub.decoder
            layout = f"{info['format']}, FLAIR-HUB model: {hub.modality} encoder, {hub.task} decoder"
            modality, task = hub.modality, hub.task
        else:
            prefix = find_prefix(tensors, path)
            state = {k[len(prefix) :]: v for k, v in tensors.items() if k.startswith(prefix)}
            encoder = {k[len("encoder.") :]: v for k, v in state.items() if k.startswith("encoder.")}
            decoder = {k: v for k, v in state.items() if not k.startswith("encoder.")}
            layout = f"{info['format']}, prefix {prefix!r} removed"
        names = _names(encoder, decoder, arch, os.path.basename(path))
    except LayoutError as err:
        raise CheckpointError(str(err)) from err
    if "segmentation_head.0.weight" not in decoder:
        raise CheckpointError("no 'segmentation_head.0.weight': not an smp segmentation model.")
    classes = int(decoder["segmentation_head.0.weight"].shape[0])
    in_channels = int(next(encoder[k] for k in _FIRST_CONV if k in encoder).shape[1])
    if names[1] == "unet" and names[0].startswith("resnet"):
        return _plain_unet(encoder, decoder, layout, modality, task)
    from .smp_models import build_hub_network

    try:
        model = build_hub_network(*names, in_channels, classes, encoder, decoder, tile)
    except RuntimeError as err:
        raise CheckpointError(f"the tensors do not fit smp's {names[0]}-{names[1]}: {str(err)[:300]}") from err
    found = Architecture(names[0], in_channels, classes, decoder=names[1])
    exporter = "dynamo" if names[1] == "upernet" or names[0].startswith("swin") else "torchscript"
    return Network(found, model, exporter, layout, modality, task)


def _names(encoder: Mapping, decoder: Mapping, arch: str | None, filename: str) -> tuple[str, str]:
    """``(encoder, decoder)`` from the keys, checked against ``--arch``; ``--arch`` alone when
    the keys name no known encoder."""
    given = tuple(arch.rsplit("-", 1)) if arch else None
    if given is not None and len(given) != 2:
        raise LayoutError(f"--arch {arch}: write <encoder>-<decoder>, e.g. convnextv2_tiny-upernet")
    try:
        found = (recognise_encoder(encoder), recognise_decoder(decoder))
    except LayoutError:
        if given is None:
            raise
        return given  # type: ignore[return-value]
    if given is not None and given != found:
        raise LayoutError(f"--arch {arch} but {filename}'s tensors are those of a {found[0]}-{found[1]}")
    return found


def _plain_unet(encoder: Mapping, decoder: Mapping, layout: str, modality: str | None, task: str | None) -> Network:
    from .unet import build_unet

    state = {f"encoder.{k}": v for k, v in encoder.items()}
    state.update(decoder)
    arch = infer_architecture(state)
    model = build_unet(arch.encoder, arch.in_channels, arch.classes, arch.decoder_channels, arch.encoder_width)
    missing, unexpected = model.load_state_dict(state, strict=False)
    missing = [k for k in missing if not k.endswith("num_batches_tracked")]
    if missing or unexpected:
        raise CheckpointError(
            f"checkpoint keys do not match an smp U-Net: missing {missing[:5]}, unexpected {unexpected[:5]}"
        )
    return Network(arch, model.eval(), "torchscript", layout, modality, task)


def parameter_count(model: nn.Module) -> int:
    """Parameters of ``model``."""
    return sum(int(p.numel()) for p in model.parameters() if isinstance(p, torch.Tensor))
