"""What the dock says to a photo-interpreter: plain words first, the technical detail in the log."""

from __future__ import annotations

from ..i18n import decimal, integer, number_locale, tr

_CUDA = "CUDAExecutionProvider"


def device_words(provider: str) -> str:
    """An onnxruntime execution provider as people say it: "the CPU", "the GPU (CUDA)"."""
    if provider == _CUDA:
        return tr("the GPU (CUDA)")
    if provider.startswith("CPU"):
        return tr("the CPU")
    return provider.replace("ExecutionProvider", "")


def area_words(km2: float) -> str:
    """A ground area with the digits that matter: ``0.01 km²``, ``2.5 km²``, ``1,234 km²``."""
    if km2 >= 100:
        return f"{integer(round(km2))} km²"
    if km2 >= 1:
        return f"{decimal(km2, 1)} km²"
    return f"{number_locale().toString(float(km2), 'g', 2)} km²"  # two significant digits


def run_summary(provider: str, km2: float, seconds: float) -> str:
    """The message bar's line after a run: "Segmented 0.01 km² on the CPU in 0.5 s"."""
    return tr("Segmented {area} on {device} in {s} s").format(
        area=area_words(km2), device=device_words(provider), s=decimal(seconds, 1)
    )


def run_log_line(provider: str, tiles: int, seconds: float, km2_per_hour: float) -> str:
    """The technical line for the FLAIR log: the execution provider, the tiles and the speed."""
    return f"{provider} ran {tiles} tile(s) in {seconds:.1f} s ({km2_per_hour:.2f} km²/h)."


def identify_text(predicted: str, reference: str, confidence: float | None, has_confidence: bool) -> str:
    """The identify line; the confidence only when a confidence layer is chosen."""
    if not has_confidence:
        return tr("Predicted: {pred} — reference: {ref}").format(pred=predicted, ref=reference)
    conf = f"{confidence:.2f}" if confidence is not None else "—"
    return tr("Predicted: {pred} (confidence {conf}) — reference: {ref}").format(
        pred=predicted, conf=conf, ref=reference
    )
