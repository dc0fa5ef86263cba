"""U-Net with a ResNet encoder in plain PyTorch, state-dict compatible with segmentation-models-pytorch.

IGN publishes its FLAIR #1 baselines as segmentation-models-pytorch (smp) checkpoints:
``smp.Unet(encoder_name="resnet34", in_channels=5, classes=13)``, 24.4 M parameters. This module
rebuilds that network without smp, torchvision or timm, with the same module tree, so that
``build_unet("resnet34", 5, 13).load_state_dict(checkpoint, strict=True)`` accepts those weights:

* ``encoder``: a torchvision-style ResNet without ``avgpool``/``fc``: ``conv1`` (7x7, stride 2),
  ``bn1``, ``maxpool`` (3x3, stride 2), ``layer1..layer4`` of basic blocks (``conv1``, ``bn1``,
  ``conv2``, ``bn2``, ``downsample.0`` 1x1 conv and ``downsample.1`` batch norm when the
  block changes resolution or width). It returns six feature maps at strides 1, 2, 4, 8, 16, 32
  with ``(in_channels, w, w, 2w, 4w, 8w)`` channels, ``w`` = 64 for the standard ResNets.
* ``decoder``: ``center`` is the identity; ``blocks.0..4`` each upsample by 2 (nearest), concatenate
  the encoder feature of the same stride (none for the last block) and apply two
  ``Conv2d(3x3, no bias) -> BatchNorm -> ReLU`` stages stored as ``conv1.{0,1}`` and
  ``conv2.{0,1}``. Block ``i`` takes ``c_{i-1} + s_i`` channels to ``c_i``, where
  ``c_{-1} = 8w`` (the deepest encoder feature), ``c`` = ``decoder_channels`` and
  ``s = (4w, 2w, w, w, 0)``.
* ``segmentation_head.0``: ``Conv2d(c_4, classes, 3x3, padding 1)`` producing logits.

A smaller encoder width (``encoder_width``) keeps the same names with thinner tensors: the demo
model uses it to stay a few megabytes.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn
from torch.nn import functional

ENCODER_BLOCKS: dict[str, tuple[int, int, int, int]] = {
    "resnet18": (2, 2, 2, 2),
    "resnet34": (3, 4, 6, 3),
}
"""Basic blocks per ResNet stage (He et al. 2016, table 1)."""

DEFAULT_DECODER_CHANNELS = (256, 128, 64, 32, 16)
"""smp's default U-Net decoder widths, used by the FLAIR baselines."""

SMP_PARAMETER_COUNTS: dict[tuple[str, int, int], int] = {
    ("resnet34", 3, 1): 24_436_369,
    ("resnet18", 3, 1): 14_328_209,
}
"""Parameter counts smp reports for ``smp.Unet(encoder, in_channels, classes)`` (public figures)."""


def _conv_bn_relu(in_channels: int, out_channels: int) -> nn.Sequential:
    """3x3 convolution without bias, batch norm, ReLU; keys ``0.weight`` and ``1.*`` as in smp."""
    return nn.Sequential(
        nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1, bias=False),
        nn.BatchNorm2d(out_channels),
        nn.ReLU(inplace=True),
    )


class BasicBlock(nn.Module):
    """ResNet basic block: ``relu(bn2(conv2(relu(bn1(conv1(x))))) + shortcut(x))``.

    Args:
        in_channels: channels of ``x``.
        out_channels: channels of the result.
        stride: stride of ``conv1`` and of the shortcut (2 halves rows and cols).
    """

    def __init__(self, in_channels: int, out_channels: int, stride: int = 1) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, out_channels, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(out_channels)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(out_channels, out_channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_channels)
        self.downsample: nn.Module | None = None
        if stride != 1 or in_channels != out_channels:
            self.downsample = nn.Sequential(
                nn.Conv2d(in_channels, out_channels, 1, stride=stride, bias=False),
                nn.BatchNorm2d(out_channels),
            )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shortcut = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return self.relu(out + shortcut)


class ResNetEncoder(nn.Module):
    """ResNet feature extractor returning the six U-Net skip features.

    Args:
        blocks: basic blocks in each of the four stages.
        in_channels: input channels (5 for FLAIR R,G,B,NIR,elevation).
        width: channels of the stem and of the first stage (64 in the standard ResNets).
    """

    def __init__(self, blocks: Sequence[int], in_channels: int, width: int = 64) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, width, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        stage_widths = (width, 2 * width, 4 * width, 8 * width)
        previous = width
        for stage, (count, stage_width) in enumerate(zip(blocks, stage_widths), start=1):
            stride = 1 if stage == 1 else 2
            layers = [BasicBlock(previous, stage_width, stride)]
            layers += [BasicBlock(stage_width, stage_width) for _ in range(count - 1)]
            setattr(self, f"layer{stage}", nn.Sequential(*layers))
            previous = stage_width
        self.out_channels = (in_channels, width, *stage_widths)

    def forward(self, x: torch.Tensor) -> list[torch.Tensor]:
        """Return features at strides 1, 2, 4, 8, 16, 32 (the input itself first)."""
        features = [x]
        x = self.relu(self.bn1(self.conv1(x)))
        features.append(x)
        x = self.layer1(self.maxpool(x))
        features.append(x)
        for stage in (self.layer2, self.layer3, self.layer4):
            x = stage(x)
            features.append(x)
        return features


class DecoderBlock(nn.Module):
    """Upsample x2 (nearest), concatenate the skip feature, then two conv-BN-ReLU stages.

    Args:
        in_channels: channels coming from the deeper block.
        skip_channels: channels of the encoder feature concatenated (0: none).
        out_channels: channels of the result.
    """

    def __init__(self, in_channels: int, skip_channels: int, out_channels: int) -> None:
        super().__init__()
        self.conv1 = _conv_bn_relu(in_channels + skip_channels, out_channels)
        self.conv2 = _conv_bn_relu(out_channels, out_channels)

    def forward(self, x: torch.Tensor, skip: torch.Tensor | None = None) -> torch.Tensor:
        if skip is None:
            x = functional.interpolate(x, scale_factor=2.0, mode="nearest")
        else:
            # Same as scale_factor=2 when rows and cols are multiples of 32; also aligns odd sizes.
            x = functional.interpolate(x, size=skip.shape[-2:], mode="nearest")
            x = torch.cat([x, skip], dim=1)
        return self.conv2(self.conv1(x))


class UnetDecoder(nn.Module):
    """Five decoder blocks from the deepest encoder feature up to full resolution.

    Args:
        encoder_channels: the encoder's six feature widths, shallowest first.
        decoder_channels: output widths of the five blocks.
    """

    def __init__(self, encoder_channels: Sequence[int], decoder_channels: Sequence[int]) -> None:
        super().__init__()
        if len(decoder_channels) != 5:
            raise ValueError(f"decoder_channels needs 5 widths, got {tuple(decoder_channels)}")
        deepest_first = list(encoder_channels[1:])[::-1]
        in_channels = [deepest_first[0], *decoder_channels[:-1]]
        skip_channels = [*deepest_first[1:], 0]
        self.center = nn.Identity()
        self.blocks = nn.ModuleList(
            DecoderBlock(i, s, o) for i, s, o in zip(in_channels, skip_channels, decoder_channels)
        )

    def forward(self, features: Sequence[torch.Tensor]) -> torch.Tensor:
        deepest_first = list(features[1:])[::-1]
        x = self.center(deepest_first[0])
        skips = deepest_first[1:]
        for index, block in enumerate(self.blocks):
            x = block(x, skips[index] if index < len(skips) else None)
        return x


class Unet(nn.Module):
    """U-Net: ResNet encoder, U-Net decoder, 3x3 convolution head; returns logits ``(N, K, H, W)``.

    Rows and cols of the input should be multiples of 32 (FLAIR tiles are 512x512).
    """

    def __init__(self, encoder: ResNetEncoder, decoder_channels: Sequence[int], classes: int) -> None:
        super().__init__()
        self.encoder = encoder
        self.decoder = UnetDecoder(encoder.out_channels, decoder_channels)
        # Sequential index 0 holds the conv, as smp's SegmentationHead (upsampling and activation
        # are identities there and carry no weights).
        self.segmentation_head = nn.Sequential(nn.Conv2d(decoder_channels[-1], classes, kernel_size=3, padding=1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.segmentation_head(self.decoder(self.encoder(x)))


def _initialise(model: nn.Module) -> None:
    """He initialisation for convolutions, identity batch norms (for training from scratch)."""
    for module in model.modules():
        if isinstance(module, nn.Conv2d):
            nn.init.kaiming_normal_(module.weight, mode="fan_out", nonlinearity="relu")
            if module.bias is not None:
                nn.init.zeros_(module.bias)
        elif isinstance(module, nn.BatchNorm2d):
            nn.init.ones_(module.weight)
            nn.init.zeros_(module.bias)


def build_unet(
    encoder: str = "resnet34",
    in_channels: int = 5,
    classes: int = 13,
    decoder_channels: Sequence[int] = DEFAULT_DECODER_CHANNELS,
    encoder_width: int = 64,
) -> Unet:
    """Build a U-Net whose state dict matches ``smp.Unet(encoder, in_channels=..., classes=...)``.

    Args:
        encoder: ``resnet18`` or ``resnet34``.
        in_channels: input channels.
        classes: output channels (one logit per class).
        decoder_channels: widths of the five decoder blocks (smp default ``(256, 128, 64, 32, 16)``).
        encoder_width: stem width; 64 reproduces the standard ResNet (and smp); smaller values
            give a thin network with the same key names.

    Returns:
        The model, randomly initialised, in training mode.

    Raises:
        ValueError: unknown encoder or bad widths.
    """
    if encoder not in ENCODER_BLOCKS:
        raise ValueError(f"Unknown encoder {encoder!r}; choose one of {sorted(ENCODER_BLOCKS)}")
    if in_channels < 1 or classes < 1 or encoder_width < 1:
        raise ValueError("in_channels, classes and encoder_width must be positive")
    model = Unet(ResNetEncoder(ENCODER_BLOCKS[encoder], in_channels, encoder_width), decoder_channels, classes)
    _initialise(model)
    return model


def parameter_count(model: nn.Module) -> int:
    """Number of learnable scalars (what smp and the FLAIR paper report as "parameters")."""
    return sum(p.numel() for p in model.parameters())


def calibrate_batch_norm(
    model: nn.Module, in_channels: int, batches: int = 4, size_px: int = 128, seed: int = 0
) -> nn.Module:
    """Give a randomly initialised model batch-norm statistics of standard-normal inputs.

    A fresh model in eval mode uses running mean 0 and variance 1, so its activations grow
    through the residual stages (logits in the thousands for ResNet-34). Averaging the batch
    statistics of a few random batches (cumulative average, no weight change) brings activations
    and logits to order 1, as in a trained network: useful for speed work and export checks
    with random weights.

    Args:
        model: the network (weights are not changed; batch-norm buffers are replaced).
        in_channels: input channels.
        batches: random batches of 2 images to average over.
        size_px: rows and cols of the random images (a multiple of 32).
        seed: seed of the random images.

    Returns:
        The same model, in eval mode.
    """
    norms = [m for m in model.modules() if isinstance(m, nn.BatchNorm2d)]
    saved = [m.momentum for m in norms]
    for module in norms:
        module.reset_running_stats()
        module.momentum = None  # cumulative moving average over the calibration batches
    generator = torch.Generator().manual_seed(seed)
    model.train()
    with torch.no_grad():
        for _ in range(batches):
            model(torch.randn(2, in_channels, size_px, size_px, generator=generator))
    for module, momentum in zip(norms, saved):
        module.momentum = momentum
    return model.eval()
