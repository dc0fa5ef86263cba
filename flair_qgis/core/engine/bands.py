"""Every band rule in one place: names, labels, the proposal, the choice and its validation.

A model input declares its channels in the metadata ``bands`` (per input in ``inputs``, or top
level). Entries are either band NUMBERS of the modality file, 1-based (``[4, 1, 2]``: NIR, R, G
of an RGBI file), or band NAMES (``["NIR", "R", "G"]``). Which layer band feeds each channel is
decided here, the same way for the dock, ``flair:segment`` and the benchmark:

1. the user's bands, when given (``BANDS=3,2,1,4``, or the dock's combos);
2. declared band numbers, or declared names resolved with the modality's known band order;
3. for a 3-channel model on FLAIR-HUB RGBI imagery that declares nothing: NIR, R, G (bands 4, 1,
   2), the channels IGN's FLAIR-HUB models use, with a warning;
4. else each channel takes the layer band of the same name (``R`` = ``Red`` = ``rouge``...), and
   the channels left take the remaining bands in order, bands with an unknown name first.

Band names are compared through one alias table, English and French. Elevation words are
decided once: ``DSM``/``MNS`` is the surface model, ``DTM``/``MNT`` the terrain model, and
``elevation``/``nDSM``/``MNH``/``height`` the height above ground (FLAIR's 5th band,
(DSM - DTM) * 5); ``DEM`` is the terrain model.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import InputError
from .model import InputSpec

#: Canonical band name -> the words that name it (lower case, accents and punctuation dropped).
BAND_ALIASES: dict[str, tuple[str, ...]] = {
    "R": ("r", "red", "rouge"),
    "G": ("g", "green", "vert"),
    "B": ("b", "blue", "bleu"),
    "NIR": ("nir", "ir", "pir", "infrared", "near infrared", "nearinfrared", "infrarouge", "proche infrarouge"),
    "A": ("a", "alpha"),
    "ELEV": ("elev", "elevation", "ndsm", "dsm dtm", "mnh", "nmh", "height", "hauteur"),
    "DSM": ("dsm", "mns", "surface"),
    "DTM": ("dtm", "mnt", "dem", "terrain"),
    "PAN": ("pan", "panchromatic", "panchromatique"),
}
_WORD_TO_BAND = {word: band for band, words in BAND_ALIASES.items() for word in words}

#: Band order of the files of each modality (FLAIR #1 IMG files are R, G, B, NIR, elevation).
MODALITY_BANDS: dict[str, tuple[str, ...]] = {
    "FLAIR1_IMG": ("R", "G", "B", "NIR", "ELEV"),
    "AERIAL_RGBI": ("R", "G", "B", "NIR"),
    "SPOT_RGBI": ("R", "G", "B", "NIR"),
    "DEM_ELEV": ("DSM", "DTM"),
    "AERIAL-RLT_PAN": ("PAN",),
    "RGB": ("R", "G", "B"),
}
_RGBI_MODALITIES = ("AERIAL_RGBI", "SPOT_RGBI")
# Colour interpretations that say nothing about what a band holds.
_UNNAMED_INTERPRETATIONS = ("", "undefined", "gray", "grey", "palette")


def _words(name: str) -> str:
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return " ".join(re.sub(r"[^a-z0-9]+", " ", plain).split())


def canonical_band(name: str) -> str:
    """The canonical name of a band name (``Red``, ``rouge`` -> ``R``); unknown names as words.

    Examples: ``NEAR-INFRARED`` -> ``NIR``, ``MNS`` -> ``DSM``, ``Band 4`` -> ``band 4``.
    """
    words = _words(name)
    return _WORD_TO_BAND.get(words, _WORD_TO_BAND.get(words.replace(" ", ""), words))


def band_label(index: int, description: str = "", color_interpretation: str = "") -> str:
    """The label of a layer band: its description, else its colour interpretation, else ``Band n``.

    Args:
        index: 1-based band number.
        description: the GDAL band description (``NIR``, ``elevation``), most specific of all.
        color_interpretation: the GDAL colour interpretation name (``Red``, ``Alpha``...).
    """
    if description.strip():
        return description.strip()
    if color_interpretation.strip().lower() not in _UNNAMED_INTERPRETATIONS:
        return color_interpretation.strip()
    return f"Band {index}"


def _declared_numbers(spec: InputSpec) -> bool:
    return bool(spec.band_names) and all(n.strip().isdigit() for n in spec.band_names)


def _names_declared(names: Sequence[str]) -> bool:
    """False for the generated ``band 1``, ``band 2``... names of models that declare none."""
    return not all(n.startswith("band ") for n in names)


def channel_labels(spec: InputSpec) -> list[str]:
    """A label per channel of a model input (for the dock's band combos and model card).

    Channels declared by band number get the band's name in the input's modality when it is known
    (``4`` of ``AERIAL_RGBI`` is ``NIR``), else ``band 4``.
    """
    if not _declared_numbers(spec):
        return list(spec.band_names)
    order = MODALITY_BANDS.get(spec.modality, ())
    return [order[int(n) - 1] if 1 <= int(n) <= len(order) else f"band {int(n)}" for n in spec.band_names]


@dataclass(frozen=True)
class BandChoice:
    """The layer (or modality file) bands feeding one model input.

    Attributes:
        bands: 1-based band numbers, one per model channel (0 = no band left for that channel).
        how: ``user``, ``declared numbers``, ``declared names``, ``default`` (FLAIR-HUB guess)
            or ``by name``.
        warning: a message for the user when the choice is a guess, else ``""``.
    """

    bands: tuple[int, ...]
    how: str
    warning: str = ""


def band_choice(spec: InputSpec, modality: str, band_count: int | None = None) -> BandChoice:
    """The bands a model input declares for a modality file (rules 2 and 3 of the module doc).

    Without a usable declaration (and no FLAIR-HUB guess), ``1..channels`` with ``how="default"``
    and no warning.

    Args:
        spec: the model input.
        modality: ``AERIAL_RGBI``... or a key of :data:`MODALITY_BANDS` (``FLAIR1_IMG``, ``RGB``).
        band_count: bands of the file, to check the choice; None to skip the check.

    Raises:
        InputError: a declared band number or name the file does not have.
    """
    names = spec.band_names
    if names and all(n.strip().isdigit() for n in names):
        choice = BandChoice(tuple(int(n) for n in names), "declared numbers")
    else:
        order = [canonical_band(b) for b in MODALITY_BANDS.get(modality, ())]
        wanted = [canonical_band(n) for n in names]
        if order and wanted and all(w in order for w in wanted):
            choice = BandChoice(tuple(order.index(w) + 1 for w in wanted), "declared names")
        elif modality in _RGBI_MODALITIES and spec.channels == 3 and not _names_declared(names):
            choice = BandChoice(
                (4, 1, 2),
                "default",
                f"Model input '{spec.name}' declares no bands: {modality} channels NIR, R, G (bands 4, 1, 2) "
                "are used, as in IGN's FLAIR-HUB models. Declare 'bands' in the model metadata to be explicit.",
            )
        else:
            choice = BandChoice(tuple(range(1, spec.channels + 1)), "default")
    if len(choice.bands) != spec.channels:
        raise InputError.of("input_band_count", name=spec.name, channels=spec.channels, band_count=len(choice.bands))
    if band_count is not None:
        bad = [b for b in choice.bands if not 1 <= b <= band_count]
        if bad:
            raise InputError.of(
                "input_bands_out_of_range",
                name=spec.name,
                bad=", ".join(map(str, bad)),
                image=modality or "the image",
                band_count=band_count,
            )
    return choice


def match_by_name(channel_names: Sequence[str], layer_labels: Sequence[str]) -> tuple[int, ...]:
    """The layer band (1-based, 0 = none left) for each channel, matched by name (rule 4).

    Bands with no recognised name go first to unmatched channels: a layer "Red, Green, Blue,
    Band 4" gives band 4 to a model's NIR rather than the blue band.
    """
    wanted = [canonical_band(n) for n in channel_names]
    have = [canonical_band(label) for label in layer_labels]
    matches: list[int | None] = []
    used: set[int] = set()
    for name in wanted:
        match = next((i + 1 for i, h in enumerate(have) if h == name and i + 1 not in used), None)
        matches.append(match)
        if match is not None:
            used.add(match)
    free = sorted(
        (b for b in range(1, len(layer_labels) + 1) if b not in used), key=lambda b: (have[b - 1] in BAND_ALIASES, b)
    )
    return tuple(match if match is not None else (free.pop(0) if free else 0) for match in matches)


def propose_bands(spec: InputSpec, layer_labels: Sequence[str]) -> BandChoice:
    """The bands proposed for a model input when the user gives none (rules 2 to 4).

    A declared band the layer lacks gets 0, so that the dock can say why it cannot run.

    Args:
        spec: the model input.
        layer_labels: one label per layer band (:func:`band_label`).
    """
    try:
        declared = band_choice(spec, spec.modality)
    except InputError:
        declared = None
    count = len(layer_labels)
    if declared is not None and declared.how != "default":
        return BandChoice(tuple(b if 1 <= b <= count else 0 for b in declared.bands), declared.how)
    if declared is not None and declared.warning and all(b <= count for b in declared.bands):
        return declared
    return BandChoice(match_by_name(spec.band_names, layer_labels), "by name")


def validate_bands(spec: InputSpec, bands: Sequence[int], band_count: int) -> tuple[int, ...]:
    """The bands, checked against the model input and the layer.

    Args:
        spec: the model input.
        bands: 1-based layer band per channel; 0 marks a channel without a band.
        band_count: bands of the layer.

    Raises:
        InputError: too few layer bands, a mapping of the wrong length, a channel without a
            band, or bands the layer does not have.
    """
    channels = spec.channels
    if band_count < channels and (not bands or 0 in bands):
        raise InputError.of("too_few_bands", channels=channels, band_count=band_count)
    if len(bands) != channels:
        raise InputError.of(
            "bands_count_mismatch",
            bands_count=len(bands),
            channels=channels,
            example=",".join(str(i + 1) for i in range(channels)),
        )
    if 0 in bands:
        names = channel_labels(spec)
        missing = [names[i] if i < len(names) else str(i + 1) for i, b in enumerate(bands) if b == 0]
        raise InputError.of("choose_channel_bands", channels=", ".join(missing))
    check_band_numbers(bands, band_count)
    return tuple(int(b) for b in bands)


def check_band_numbers(bands: Sequence[int], band_count: int) -> None:
    """Raise a clear error when band numbers name bands the raster does not have."""
    bad = [b for b in bands if not 1 <= b <= band_count]
    if bad:
        raise InputError.of("bands_out_of_range", bad=", ".join(map(str, bad)), band_count=band_count)


def choose_bands(spec: InputSpec, user_bands: Sequence[int], layer_labels: Sequence[str]) -> BandChoice:
    """The layer bands feeding a model input: the user's, else :func:`propose_bands`, validated.

    ``flair:segment`` (with or without BANDS) and the dock both choose this way.

    Args:
        spec: the model input.
        user_bands: the user's 1-based bands, one per channel, or empty to choose.
        layer_labels: one label per layer band (its length is the layer's band count).

    Raises:
        InputError: bands the layer does not have, too few bands, a channel without a band.
    """
    choice = BandChoice(tuple(user_bands), "user") if user_bands else propose_bands(spec, layer_labels)
    return BandChoice(validate_bands(spec, choice.bands, len(layer_labels)), choice.how, choice.warning)


def parse_band_list(text: str) -> tuple[int, ...]:
    """Parse ``"1,2,3"`` (spaces allowed) into band numbers; empty text gives ``()``.

    Raises:
        InputError: the text holds something other than positive integers.
    """
    text = (text or "").strip()
    if not text:
        return ()
    try:
        bands = tuple(int(part) for part in text.replace(";", ",").split(",") if part.strip())
    except ValueError:
        raise InputError.of("bad_bands", text=text) from None
    if any(b < 1 for b in bands):
        raise InputError.of("bands_start_at_one", text=text)
    return bands


def file_band_labels(path: str) -> tuple[str, ...]:
    """One label per band of a raster file, read with rasterio (as QGIS labels a layer's bands).

    Raises:
        InputError: the file cannot be opened as a raster.
    """
    import rasterio
    import rasterio.errors

    try:
        with rasterio.open(path) as src:
            return tuple(
                band_label(i + 1, src.descriptions[i] or "", src.colorinterp[i].name) for i in range(src.count)
            )
    except rasterio.errors.RasterioIOError as err:
        raise InputError.of("cannot_open_raster", path=path, error=str(err)) from err
