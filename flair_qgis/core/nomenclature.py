"""Class nomenclatures of the FLAIR datasets: raster values, names and colours.

Facts, not code, from IGN: FLAIR #1 codes and colours from the FLAIR #1 challenge description;
FLAIR-HUB land-cover (COSIA) and LPIS crop-type colours from IGN's own QGIS styles
(IGNF/FLAIR-HUB ``color-styles/*.qml``, Apache-2.0). Values are the codes found in the
reference rasters (``MSK_*.tif`` for FLAIR #1, ``*_LABEL-COSIA_*`` / ``*_LABEL-LPIS_*`` for
FLAIR-HUB).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ClassInfo:
    """One class as written to a raster.

    Attributes:
        value: the pixel value in the class-map raster (0..254 for uint8 outputs).
        name: human-readable class name shown in legends and reports.
        color: ``#rrggbb`` colour of the class.
    """

    value: int
    name: str
    color: str

    def rgb(self) -> tuple[int, int, int]:
        """The colour as an ``(r, g, b)`` tuple of 0..255 integers."""
        hex_digits = self.color.lstrip("#")
        return (int(hex_digits[0:2], 16), int(hex_digits[2:4], 16), int(hex_digits[4:6], 16))


def _table(rows: list[tuple[int, str, str]]) -> tuple[ClassInfo, ...]:
    return tuple(ClassInfo(value, name, color) for value, name, color in rows)


FLAIR1_CLASSES: tuple[ClassInfo, ...] = _table(
    [
        (1, "building", "#db0e9a"),
        (2, "pervious surface", "#938e7b"),
        (3, "impervious surface", "#f80c00"),
        (4, "bare soil", "#a97101"),
        (5, "water", "#1553ae"),
        (6, "coniferous", "#194a26"),
        (7, "deciduous", "#46e483"),
        (8, "brushwood", "#f3a60d"),
        (9, "vineyard", "#660082"),
        (10, "herbaceous vegetation", "#55ff00"),
        (11, "agricultural land", "#fff30d"),
        (12, "plowed land", "#e4df7c"),
        (13, "swimming pool", "#3de6eb"),
        (14, "snow", "#ffffff"),
        (15, "clear cut", "#8ab3a0"),
        (16, "mixed", "#6b714f"),
        (17, "ligneous", "#c5dc42"),
        (18, "greenhouse", "#9999ff"),
        (19, "other", "#000000"),
    ]
)
"""The 19 raw codes of FLAIR #1 reference masks (``MSK_*.tif``)."""

FLAIR1_MODEL_CLASSES: tuple[ClassInfo, ...] = (*FLAIR1_CLASSES[:12], ClassInfo(13, "other", "#000000"))
"""The 13 classes a FLAIR #1 model predicts: codes 1..12 and 13 for every code 13..19."""

FLAIRHUB_LANDCOVER_CLASSES: tuple[ClassInfo, ...] = _table(
    [
        (0, "building", "#ce7079"),
        (1, "greenhouse", "#b9e2d4"),
        (2, "swimming pool", "#62d0ff"),
        (3, "impervious surface", "#a6aab7"),
        (4, "pervious surface", "#987752"),
        (5, "bare soil", "#bbb096"),
        (6, "water", "#3375a1"),
        (7, "snow", "#e9effe"),
        (8, "herbaceous vegetation", "#8cd76a"),
        (9, "agricultural land", "#decf55"),
        (10, "plowed land", "#d0a349"),
        (11, "vineyard", "#b08290"),
        (12, "deciduous", "#4c9129"),
        (13, "coniferous", "#126421"),
        (14, "brushwood", "#b5c335"),
        (15, "clear cut", "#e48e4d"),
        (16, "ligneous", "#222222"),
        (17, "mixed", "#222222"),
        (18, "undefined", "#222222"),
    ]
)
"""FLAIR-HUB land cover (COSIA) codes 0..18."""

FLAIRHUB_CROPTYPE_CLASSES: tuple[ClassInfo, ...] = _table(
    [
        (0, "grasses", "#92d050"),
        (1, "wheat", "#d7e600"),
        (2, "barley", "#e0e000"),
        (3, "maize", "#fff100"),
        (4, "other cereals", "#ffff00"),
        (5, "rice", "#e8e8e8"),
        (6, "hemp/flax/tobacco", "#dceaf7"),
        (7, "sunflower", "#d29ead"),
        (8, "rapeseed", "#d29ed0"),
        (9, "other oilseed crops", "#ffbe99"),
        (10, "soy", "#ffc000"),
        (11, "other protein crops", "#ff9000"),
        (12, "fodder legumes", "#009999"),
        (13, "beetroots", "#808000"),
        (14, "potatoes", "#a7a700"),
        (15, "other arable crops", "#89896d"),
        (16, "vineyard", "#f2cfee"),
        (17, "olive groves", "#6f6633"),
        (18, "fruit orchards", "#ac8141"),
        (19, "nut orchards", "#996633"),
        (20, "other permanent crops", "#80c1d7"),
        (21, "mixed crops", "#000000"),
        (22, "background", "#000000"),
    ]
)
"""FLAIR-HUB LPIS crop-type codes 0..22."""

WEEDSENSE_SPECIES: tuple[str, ...] = (
    "AMATU",
    "SORHA",
    "SETFA",
    "SORVU",
    "PANDI",
    "SETPU",
    "DIGSA",
    "ECHCG",
    "SIDSP",
    "AMARE",
    "ABUTH",
    "AMBEL",
    "AMAPA",
    "CYPES",
    "CHEAL",
    "ERICA",
)
"""WeedSense species EPPO codes, classes 1..16 after background 0 (index mapping unpublished)."""

# A qualitative palette for classes whose model declares no colours: distinct hues that stay
# distinguishable over aerial imagery (no near-greys, no near-black).
_DEFAULT_COLORS = (
    "#e6194b",
    "#3cb44b",
    "#ffe119",
    "#4363d8",
    "#f58231",
    "#911eb4",
    "#46f0f0",
    "#f032e6",
    "#bcf60c",
    "#fabebe",
    "#008080",
    "#e6beff",
    "#9a6324",
    "#fffac8",
    "#800000",
    "#aaffc3",
    "#808000",
    "#ffd8b1",
    "#000075",
    "#a9a9a9",
)


def default_color(index: int) -> str:
    """A colour for class ``index`` of a model that declares none (cycles after 20 classes)."""
    return _DEFAULT_COLORS[index % len(_DEFAULT_COLORS)]


def weedsense_classes() -> tuple[ClassInfo, ...]:
    """The 17 WeedSense classes: 0 background, then the 16 species."""
    names = ("background", *WEEDSENSE_SPECIES)
    colors = ("#000000", *(default_color(i) for i in range(16)))
    return tuple(ClassInfo(i, n, c) for i, (n, c) in enumerate(zip(names, colors)))


# IGN's French names for the classes above, keyed by the English name the tables use. FLAIR #1
# and FLAIR-HUB land cover follow IGN's land-cover nomenclature (CoSIA: "Zone imperméable",
# "Pelouse", "Terre labourée"...); crop types follow the French names of the LPIS (RPG) groups.
FRENCH_NAMES: dict[str, str] = {
    "building": "bâtiment",
    "pervious surface": "zone perméable",
    "impervious surface": "zone imperméable",
    "bare soil": "sol nu",
    "water": "surface d'eau",
    "coniferous": "conifère",
    "deciduous": "feuillu",
    "brushwood": "broussaille",
    "vineyard": "vigne",
    "herbaceous vegetation": "pelouse",
    "agricultural land": "culture",
    "plowed land": "terre labourée",
    "swimming pool": "piscine",
    "snow": "neige",
    "clear cut": "coupe",
    "mixed": "peuplement mixte",
    "ligneous": "ligneux",
    "greenhouse": "serre",
    "other": "autre",
    "undefined": "indéterminé",
    "grasses": "prairies",
    "wheat": "blé",
    "barley": "orge",
    "maize": "maïs",
    "other cereals": "autres céréales",
    "rice": "riz",
    "hemp/flax/tobacco": "chanvre, lin, tabac",
    "sunflower": "tournesol",
    "rapeseed": "colza",
    "other oilseed crops": "autres oléagineux",
    "soy": "soja",
    "other protein crops": "autres protéagineux",
    "fodder legumes": "légumineuses fourragères",
    "beetroots": "betteraves",
    "potatoes": "pommes de terre",
    "other arable crops": "autres cultures arables",
    "olive groves": "oliveraies",
    "fruit orchards": "vergers",
    "nut orchards": "fruits à coque",
    "other permanent crops": "autres cultures permanentes",
    "mixed crops": "cultures mixtes",
    "background": "fond",
}
"""French name of each class of the nomenclatures above (WeedSense EPPO codes stay as they are)."""


def french_name(name: str) -> str:
    """IGN's French name of a class named ``name`` in English (case ignored); else ``name`` itself."""
    return FRENCH_NAMES.get(name.strip().lower(), name)
