"""What a FLAIR model expects and predicts, by model family: the presets a user picks to describe
a model that carries no metadata (``flair:describe_model``) or to convert a checkpoint
(``scripts/export-onnx --preset``).

Facts, not code, from IGN: the normalisation (means and standard deviations in 0..255 pixel
units) of IGNF/FLAIR-1's ``flair-1-config.yml`` and of IGNF/FLAIR-HUB's modality configs; the
class tables are those of :mod:`flair_qgis.core.nomenclature`. Checked against IGNF/FLAIR-1
5ae35ebd2b0fbaadf1b8961513b6de0a94fad92b ``configs/flair-1-config-detect.yaml`` (bands 1..5, 19
classes) and IGNF/FLAIR-HUB 3d5693b5981de9ba4ab851ed631352b814c1d554
``configs/config_zonal_detection.yaml`` (AERIAL_RGBI channels 4, 1, 2 and their means and stds).
"""

from __future__ import annotations

from dataclasses import dataclass

from .nomenclature import (
    FLAIR1_CLASSES,
    FLAIR1_MODEL_CLASSES,
    FLAIRHUB_CROPTYPE_CLASSES,
    FLAIRHUB_LANDCOVER_CLASSES,
    ClassInfo,
)

_FLAIR1_BANDS = ("R", "G", "B", "NIR", "ELEV")
_FLAIR1_MEAN = (105.08, 110.87, 101.82, 106.38, 53.26)
_FLAIR1_STD = (52.17, 45.38, 44.0, 39.69, 79.3)
_HUB_BANDS = (4, 1, 2)
_HUB_MEAN = (106.59, 105.66, 111.35)
_HUB_STD = (39.78, 52.23, 45.62)


@dataclass(frozen=True)
class ModelPreset:
    """The inputs and classes of one model family.

    Attributes:
        key: the name given on the command line and in ``flair:describe_model``.
        classes: the class of each output channel, in output order.
        bands: band names (read from a stack in that order) or band numbers of ``modality``'s file.
        mean, std: per-band normalisation in the layer's pixel units.
        resolution_cm: ground sampling distance of the training data.
        modality: the FLAIR-HUB modality the bands are numbered in, or ``None``.
        description: one line for the model card.
    """

    key: str
    classes: tuple[ClassInfo, ...]
    bands: tuple[str | int, ...]
    mean: tuple[float, ...]
    std: tuple[float, ...]
    resolution_cm: float
    modality: str | None
    description: str


def _flair_inc(key: str, bands: int, title: str) -> ModelPreset:
    return ModelPreset(
        key=key,
        classes=FLAIR1_CLASSES,
        bands=_FLAIR1_BANDS[:bands],
        mean=_FLAIR1_MEAN[:bands],
        std=_FLAIR1_STD[:bands],
        resolution_cm=20,
        modality=None,
        description=f"FLAIR-INC {title}: {','.join(_FLAIR1_BANDS[:bands])} (0..255), 0.2 m; 19 FLAIR codes 1..19",
    )


PRESETS: dict[str, ModelPreset] = {
    p.key: p
    for p in (
        ModelPreset(
            key="flair1",
            classes=FLAIR1_MODEL_CLASSES,
            bands=_FLAIR1_BANDS,
            mean=_FLAIR1_MEAN,
            std=_FLAIR1_STD,
            resolution_cm=20,
            modality=None,
            description="FLAIR #1 U-Net: 5 bands R,G,B,NIR,elevation (0..255), 0.2 m; classes are FLAIR codes 1..13",
        ),
        _flair_inc("flair1-19", 5, "19 classes"),
        _flair_inc("flair-inc-rgbie", 5, "RGBIE"),
        _flair_inc("flair-inc-rgbi", 4, "RGBI"),
        _flair_inc("flair-inc-rgb", 3, "RGB"),
        ModelPreset(
            key="flairhub-landcover",
            classes=FLAIRHUB_LANDCOVER_CLASSES,
            bands=_HUB_BANDS,
            mean=_HUB_MEAN,
            std=_HUB_STD,
            resolution_cm=20,
            modality="AERIAL_RGBI",
            description="FLAIR-HUB land cover (COSIA 0..18) from AERIAL_RGBI bands 4,1,2 (NIR,R,G), 0.2 m",
        ),
        ModelPreset(
            key="flairhub-croptype",
            classes=FLAIRHUB_CROPTYPE_CLASSES,
            bands=_HUB_BANDS,
            mean=_HUB_MEAN,
            std=_HUB_STD,
            resolution_cm=20,
            modality="AERIAL_RGBI",
            description="FLAIR-HUB LPIS crop types (0..22) from AERIAL_RGBI bands 4,1,2 (NIR,R,G), 0.2 m",
        ),
    )
}
"""Every preset by key, in the order a picker lists them."""


def presets_for(outputs: int | None, channels: int | None) -> list[ModelPreset]:
    """The presets that fit a model with ``outputs`` class channels and ``channels`` input bands
    (``None``: unknown, anything fits)."""
    return [
        p
        for p in PRESETS.values()
        if (outputs is None or len(p.classes) == outputs) and (channels is None or len(p.bands) == channels)
    ]
