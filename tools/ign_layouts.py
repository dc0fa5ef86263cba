"""How IGN's own code lays out FLAIR-INC and FLAIR-HUB checkpoints, and how to read one network out.

Facts recorded from IGN's public code (not copied; read from the checkpoints its code writes, with
random weights, see docs/benchmark.md "IGN's own checkpoints"):

FLAIR-INC, IGNF/FLAIR-1 at 5ae35ebd2b0fbaadf1b8961513b6de0a94fad92b (segmentation-models-pytorch
0.3.3): ``src/flair/model.py`` wraps ``smp.create_model(arch, encoder_name, classes, in_channels)``
in ``FLAIR_ModelFactory.seg_model`` and the Lightning task holds it as ``model``: a ``.ckpt`` has
``state_dict`` keys ``model.seg_model.encoder.conv1.weight`` ... ``model.seg_model.segmentation_head.0.*``
(``rgbie_15cl_resnet34-unet``: 5 inputs, 19 outputs). ``src/zone_detect/model.py`` loads a ``.ckpt``
(``state_dict``) or a ``.pth`` state dict, with the ``model.seg_model.`` prefix or without; its
forward is ``seg_model(x)`` with no resizing (the U-Net gives the input size). Normalisation
(``configs/flair-1-config-detect.yaml``): custom, means 105.08 110.87 101.82 106.38 53.26, stds
52.17 45.38 44 39.69 79.3 on bands 1..5 (R, G, B, NIR, elevation).

FLAIR-HUB, IGNF/FLAIR-HUB at 3d5693b5981de9ba4ab851ed631352b814c1d554 (segmentation-models-pytorch
0.4.0, timm): ``FLAIR_HUB_Model`` (``src/flair_hub/models/flair_model.py``) holds

* ``encoders.<MODALITY>.seg_model``: the ``encoder`` of ``smp.create_model(decoder_arch,
  encoder, classes, in_channels=len(channels))``, ``encoder`` tried as an smp name first, then
  as ``tu-<name>`` (timm): ``resnet34`` is smp's own ResNet (keys ``conv1.weight``, ``layer1.0...``),
  ``convnextv2_tiny`` and the Swins are timm's (keys ``model.stem_0.weight``, ``model.stages_0...``);
* ``main_decoders.<TASK>.seg_model``: a wrapper with ``decoder`` and ``segmentation_head`` of a
  second ``smp.create_model(..., in_channels=1)`` (so a UPerNet decoder's unused input-level
  ``decoder.fpn_stages.4.skip_conv.0.weight`` takes 1 channel);
* ``fusion_handler.conv_f.<i>``: 1x1 convolutions used only when several modalities are fused
  (a single mono-temporal modality passes its features through unchanged);
* in the Lightning ``.ckpt`` (``SegmentationTask``): everything under ``model.``, plus
  ``criterion.<TASK>.weight`` (class weights of the loss).

Shapes seen in files IGN's code wrote (AERIAL_RGBI, 3 channels, COSIA, 19 classes):
ConvNeXt-V2 tiny ``model.stem_0.weight`` (96, 3, 4, 4), stages of 3, 3, 9, 3 blocks with
``mlp.grn.*``; Swin-T ``model.patch_embed.proj.weight`` (96, 3, 4, 4) and
``model.layers_0.blocks.0.attn.relative_position_bias_table`` (169, 3) (window 7; Swin-B window 12:
(529, 4)); UPerNet ``segmentation_head.0.weight`` (19, 64, 1, 1) followed by a x4 bilinear
upsampling, ``decoder.fpn_stages.4.skip_conv.0.weight`` (256, 1, 1, 1); ResNet-34 U-Net
``segmentation_head.0.weight`` (19, 16, 3, 3); ``fusion_handler.conv_f.<i>`` square 1x1
convolutions over the encoder's non-empty feature widths. Swin encoders are built with
``img_size`` = the patch size (timm's ``create_model`` accepts it; ConvNeXt and ResNet do not,
and IGN's code retries without it); their weights do not depend on it.

Its forward is ``interpolate(main_decoders[task].seg_model(*encoder(x)), size, bilinear,
align_corners=False)`` to the tile size. The zonal loader (``src/flair_hub/models/checkpoint.py``)
reads ``.safetensors`` or ``.ckpt``/``.pth`` (``state_dict`` or a bare dict), strips ``model.``
when present and skips ``criterion.`` keys. Tasks: ``AERIAL_LABEL-COSIA`` (19 land-cover classes
0..18) and ``ALL_LABEL-LPIS`` (23 crop types); AERIAL_RGBI input channels 4, 1, 2 (NIR, R, G),
custom normalisation means 106.59 105.66 111.35, stds 39.78 52.23 45.62
(``configs/config_zonal_detection.yaml``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

import torch

TASK_PRESETS = {"AERIAL_LABEL-COSIA": "flairhub-landcover", "ALL_LABEL-LPIS": "flairhub-croptype"}
"""The project's preset of each FLAIR-HUB task's classes."""

_HUB_ENCODER = re.compile(r"^(?:model\.)?encoders\.([^.]+)\.seg_model\.")
_HUB_DECODER = re.compile(r"^(?:model\.)?main_decoders\.([^.]+)\.seg_model\.")

# ConvNeXt-V2 variants by (stem width, blocks per stage) (Woo et al. 2023, table 1; timm names).
_CONVNEXTV2 = {
    (40, (2, 2, 6, 2)): "atto",
    (48, (2, 2, 6, 2)): "femto",
    (64, (2, 2, 6, 2)): "pico",
    (80, (2, 2, 8, 2)): "nano",
    (96, (3, 3, 9, 3)): "tiny",
    (128, (3, 3, 27, 3)): "base",
    (192, (3, 3, 27, 3)): "large",
    (352, (3, 3, 27, 3)): "huge",
}
# Swin variants by (embedding width, blocks per stage) (Liu et al. 2021, section 3.3).
_SWIN = {
    (96, (2, 2, 6, 2)): "tiny",
    (96, (2, 2, 18, 2)): "small",
    (128, (2, 2, 18, 2)): "base",
    (192, (2, 2, 18, 2)): "large",
}


class LayoutError(ValueError):
    """The tensors match no layout this converter reads."""


@dataclass(frozen=True)
class HubNetwork:
    """One modality's encoder and one task's decoder, keyed as ``smp`` model state dicts.

    Attributes:
        encoder: tensors of ``model.encoder`` (keys without ``encoder.``).
        decoder: tensors of ``model.decoder`` and ``model.segmentation_head`` (keys with them).
        modality: the FLAIR-HUB modality of the encoder (``AERIAL_RGBI``...).
        task: the FLAIR-HUB task of the decoder (``AERIAL_LABEL-COSIA``...).
    """

    encoder: dict[str, torch.Tensor]
    decoder: dict[str, torch.Tensor]
    modality: str
    task: str


def is_hub_layout(tensors: Mapping[str, torch.Tensor]) -> bool:
    """Whether the keys are those of IGN's ``FLAIR_HUB_Model`` (with or without ``model.``)."""
    return any(_HUB_ENCODER.match(k) for k in tensors) and any(_HUB_DECODER.match(k) for k in tensors)


def hub_network(tensors: Mapping[str, torch.Tensor], modality: str | None, task: str | None) -> HubNetwork:
    """Read one encoder and one main decoder out of a FLAIR-HUB checkpoint.

    Args:
        tensors: every tensor of the file (``criterion.*``, ``fusion_handler.*`` are ignored).
        modality: the encoder to take, or None when the file holds one.
        task: the decoder to take, or None when the file holds one.

    Raises:
        LayoutError: several modalities (fused models are not supported) or tasks to choose from,
            or the one asked for is absent.
    """
    modalities = sorted({m.group(1) for k in tensors if (m := _HUB_ENCODER.match(k))})
    tasks = sorted({m.group(1) for k in tensors if (m := _HUB_DECODER.match(k))})
    if len(modalities) > 1:
        raise LayoutError(
            f"this FLAIR-HUB checkpoint fuses {len(modalities)} modalities ({', '.join(modalities)}); only "
            "single-modality models convert (one input raster)."
        )
    chosen_task = task or (tasks[0] if len(tasks) == 1 else None)
    if chosen_task not in tasks:
        raise LayoutError(f"choose the task with --task: the checkpoint holds {', '.join(tasks)}")
    if modality is not None and modality != modalities[0]:
        raise LayoutError(f"--modality {modality} but the checkpoint's encoder reads {modalities[0]}")
    encoder, decoder = {}, {}
    for key, value in tensors.items():
        if (m := _HUB_ENCODER.match(key)) and m.group(1) == modalities[0]:
            encoder[key[m.end() :]] = value
        elif (m := _HUB_DECODER.match(key)) and m.group(1) == chosen_task:
            decoder[key[m.end() :]] = value
    return HubNetwork(encoder, decoder, modalities[0], chosen_task)


def _blocks(keys: list[str], pattern: str, first: int = 0) -> tuple[int, ...]:
    """Blocks per stage: one more than the largest block index of each of four stages."""
    counts = []
    for stage in range(first, first + 4):
        found = {int(m.group(1)) for k in keys if (m := re.match(pattern.format(stage=stage), k))}
        counts.append(max(found) + 1 if found else 0)
    return tuple(counts)


def recognise_encoder(encoder: Mapping[str, torch.Tensor]) -> str:
    """The encoder's name as IGN's configs spell it (``resnet34``, ``convnextv2_tiny``,
    ``swin_base_patch4_window12_384``...), read from key names and shapes.

    Raises:
        LayoutError: no known encoder matches.
    """
    keys = list(encoder)
    if "conv1.weight" in encoder:
        blocks = _blocks(keys, r"layer{stage}\.(\d+)\.", first=1)
        names = {(2, 2, 2, 2): "resnet18", (3, 4, 6, 3): "resnet34"}
        if blocks in names:
            return names[blocks]
        raise LayoutError(f"ResNet blocks per stage {blocks} match no supported ResNet (18 or 34)")
    if "model.stem_0.weight" in encoder and any(".grn." in k for k in keys):
        width = int(encoder["model.stem_0.weight"].shape[0])
        size = _CONVNEXTV2.get((width, _blocks(keys, r"model\.stages_{stage}\.blocks\.(\d+)\.")))
        if size:
            return f"convnextv2_{size}"
    if "model.patch_embed.proj.weight" in encoder:
        width = int(encoder["model.patch_embed.proj.weight"].shape[0])
        size = _SWIN.get((width, _blocks(keys, r"model\.layers_{stage}\.blocks\.(\d+)\.")))
        table = encoder.get("model.layers_0.blocks.0.attn.relative_position_bias_table")
        if size and table is not None:
            window = (round(table.shape[0] ** 0.5) + 1) // 2
            return f"swin_{size}_patch4_window{window}_{224 if window == 7 else 384}"
    first = ", ".join(keys[:3])
    raise LayoutError(f"the encoder's keys ({first}...) match no ResNet-18/34, ConvNeXt-V2 or Swin encoder")


def recognise_decoder(decoder: Mapping[str, torch.Tensor]) -> str:
    """``unet`` or ``upernet`` from the decoder's keys.

    Raises:
        LayoutError: neither.
    """
    if any(k.startswith("decoder.psp.") for k in decoder):
        return "upernet"
    if "decoder.blocks.0.conv1.0.weight" in decoder:
        return "unet"
    raise LayoutError("the decoder's keys match no smp U-Net nor UPerNet")
