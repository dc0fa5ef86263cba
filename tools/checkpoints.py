"""Read segmentation-models-pytorch U-Net checkpoints as IGN publishes them, without pickle code.

Accepted files:

* PyTorch Lightning ``.ckpt``: a dict whose ``state_dict`` holds the module's tensors, keys
  prefixed by the attribute holding the network (``model.``, ``net.``, ``model.seg_model.``...);
* ``.pth`` / ``.pt``: a state dict (possibly wrapped in ``state_dict`` / ``model`` / ``net``),
  with or without a prefix (``module.`` from DataParallel included);
* ``.safetensors``.

Pickled files are opened with ``torch.load(..., weights_only=True)``: only tensors and plain
containers are rebuilt, no arbitrary code runs. The network's prefix is found from the key of
the encoder's first convolution; architecture and class count are read from tensor shapes.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

import torch

ANCHOR = "encoder.conv1.weight"
ANCHORS = (ANCHOR, "encoder.model.stem_0.weight", "encoder.model.patch_embed.proj.weight")
"""The encoder's first convolution in smp models: ResNet, timm ConvNeXt, timm Swin."""
_WRAPPERS = ("state_dict", "model_state_dict", "model", "net", "network", "weights")
_BLOCKS_TO_ENCODER = {(2, 2, 2, 2): "resnet18", (3, 4, 6, 3): "resnet34"}


class CheckpointError(ValueError):
    """The file is not a U-Net/ResNet checkpoint this converter understands."""


@dataclass(frozen=True)
class Architecture:
    """What the tensors say about the network.

    Attributes:
        encoder: ``resnet18``, ``resnet34`` or, for networks rebuilt with smp and timm, the encoder
            name of IGN's configs (``convnextv2_tiny``...).
        in_channels: input channels.
        classes: output channels.
        decoder_channels: widths of the five U-Net decoder blocks (empty for other decoders).
        encoder_width: stem width (64 for standard ResNets).
        decoder: ``unet`` or ``upernet``.
    """

    encoder: str
    in_channels: int
    classes: int
    decoder_channels: tuple[int, ...] = ()
    encoder_width: int = 64
    decoder: str = "unet"

    @property
    def name(self) -> str:
        """IGN's spelling, ``<encoder>-<decoder>`` (``convnextv2_tiny-upernet``)."""
        return f"{self.encoder}-{self.decoder}"


def load_checkpoint(path: str | os.PathLike[str]) -> tuple[dict[str, torch.Tensor], dict]:
    """Read a checkpoint's tensors, keyed as in ``smp.Unet.state_dict()``.

    Args:
        path: ``.ckpt``, ``.pth``, ``.pt`` or ``.safetensors`` file.

    Returns:
        ``(state_dict, info)``: tensors without prefix, and ``info`` with ``prefix`` (the prefix
        removed), ``format`` and, for Lightning files, ``hyper_parameters`` when present.

    Raises:
        CheckpointError: unreadable file, pickled objects other than tensors, or no U-Net keys.
    """
    tensors, info = read_tensors(path)
    prefix = find_prefix(tensors, os.fspath(path))
    state = {k[len(prefix) :]: v for k, v in tensors.items() if k.startswith(prefix)}
    info["prefix"] = prefix
    return state, info


def read_tensors(path: str | os.PathLike[str]) -> tuple[dict[str, torch.Tensor], dict]:
    """Every tensor of a checkpoint, keys as stored, and ``info`` (``format``, ``hyper_parameters``).

    Raises:
        CheckpointError: unreadable file, or pickled objects other than tensors.
    """
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise CheckpointError(f"checkpoint not found: {path}")
    info: dict = {}
    if path.endswith(".safetensors"):
        from safetensors.torch import load_file

        try:
            raw: object = load_file(path, device="cpu")
        except Exception as err:  # safetensors raises its own untyped errors
            raise CheckpointError(f"{path} is not a readable safetensors file: {err}") from err
        info["format"] = "safetensors"
    else:
        try:
            raw = torch.load(path, map_location="cpu", weights_only=True)
        except Exception as err:  # torch raises UnpicklingError, RuntimeError... for refused content
            raise CheckpointError(
                f"{path} cannot be read with weights_only=True ({err.__class__.__name__}: "
                f"{str(err).splitlines()[0][:200]}). Only tensors and plain containers are loaded; save the "
                "state dict (model.state_dict()) or a safetensors file instead."
            ) from err
        info["format"] = "lightning" if isinstance(raw, Mapping) and "state_dict" in raw else "state_dict"
        if isinstance(raw, Mapping) and isinstance(raw.get("hyper_parameters"), Mapping):
            info["hyper_parameters"] = dict(raw["hyper_parameters"])
    return _find_tensors(raw), info


def _find_tensors(raw: object) -> dict[str, torch.Tensor]:
    """The ``name -> tensor`` mapping inside common checkpoint wrappers."""
    current = raw
    for _ in range(3):
        if not isinstance(current, Mapping):
            break
        if any(isinstance(v, torch.Tensor) for v in current.values()):
            return {str(k): v for k, v in current.items() if isinstance(v, torch.Tensor)}
        inner = next((current[w] for w in _WRAPPERS if isinstance(current.get(w), Mapping)), None)
        if inner is None:
            break
        current = inner
    raise CheckpointError("no tensors found: expected a state dict or a Lightning checkpoint with 'state_dict'")


def find_prefix(tensors: Mapping[str, torch.Tensor], path: str) -> str:
    """The prefix in front of an smp model's keys (``model.seg_model.``, ``net.``, ``""``...).

    Raises:
        CheckpointError: no smp encoder, or several.
    """
    anchors = sorted((k, a) for k in tensors for a in ANCHORS if k.endswith(a))
    if not anchors:
        sample = ", ".join(list(tensors)[:5])
        raise CheckpointError(
            f"{os.path.basename(path)} holds no '{ANCHOR}' key nor another smp encoder's first "
            f"convolution (first keys: {sample}): not a segmentation-models-pytorch model, nor IGN's "
            "FLAIR-INC or FLAIR-HUB layout."
        )
    if len(anchors) > 1:
        raise CheckpointError(
            f"{os.path.basename(path)} holds several networks ({', '.join(k[: -len(a)] for k, a in anchors)}): "
            "export one network."
        )
    key, anchor = anchors[0]
    return key[: -len(anchor)]


def infer_architecture(state: Mapping[str, torch.Tensor]) -> Architecture:
    """Read encoder depth, widths, input channels and classes from tensor shapes.

    Raises:
        CheckpointError: keys of a U-Net head or decoder are missing, or the block counts match
            no supported ResNet.
    """
    conv1 = state[ANCHOR]
    blocks = []
    for stage in range(1, 5):
        indices = {int(m.group(1)) for k in state if (m := re.match(rf"encoder\.layer{stage}\.(\d+)\.", k))}
        blocks.append(max(indices) + 1 if indices else 0)
    encoder = _BLOCKS_TO_ENCODER.get(tuple(blocks))
    if encoder is None:
        raise CheckpointError(f"encoder blocks per stage {tuple(blocks)} match no supported ResNet (18 or 34).")
    head = state.get("segmentation_head.0.weight")
    if head is None:
        raise CheckpointError("no 'segmentation_head.0.weight': not an smp U-Net checkpoint.")
    decoder = []
    for index in range(5):
        weight = state.get(f"decoder.blocks.{index}.conv1.0.weight")
        if weight is None:
            raise CheckpointError(f"no 'decoder.blocks.{index}.conv1.0.weight': not an smp U-Net decoder.")
        decoder.append(int(weight.shape[0]))
    return Architecture(
        encoder=encoder,
        in_channels=int(conv1.shape[1]),
        classes=int(head.shape[0]),
        decoder_channels=tuple(decoder),
        encoder_width=int(conv1.shape[0]),
    )
