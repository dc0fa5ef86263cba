"""Digit keys of the Review tab, read from the top row (or keypad) whatever the keyboard layout."""

from __future__ import annotations

import sys

from qgis.PyQt.QtCore import Qt

# Top-row keys whatever the layout: digits, US Shift symbols, French AZERTY unshifted symbols.
_DIGITS = {getattr(Qt.Key, f"Key_{d}"): d for d in range(10)}
_US_SHIFTED = dict(
    zip(
        (
            Qt.Key.Key_Exclam,
            Qt.Key.Key_At,
            Qt.Key.Key_NumberSign,
            Qt.Key.Key_Dollar,
            Qt.Key.Key_Percent,
            Qt.Key.Key_AsciiCircum,
            Qt.Key.Key_Ampersand,
            Qt.Key.Key_Asterisk,
            Qt.Key.Key_ParenLeft,
            Qt.Key.Key_ParenRight,
        ),
        (1, 2, 3, 4, 5, 6, 7, 8, 9, 0),
    )
)
_AZERTY = dict(
    zip(
        (
            Qt.Key.Key_Ampersand,
            Qt.Key.Key_Eacute,
            Qt.Key.Key_QuoteDbl,
            Qt.Key.Key_Apostrophe,
            Qt.Key.Key_ParenLeft,
            Qt.Key.Key_Minus,
            Qt.Key.Key_Egrave,
            Qt.Key.Key_Underscore,
            Qt.Key.Key_Ccedilla,
            Qt.Key.Key_Agrave,
        ),
        (1, 2, 3, 4, 5, 6, 7, 8, 9, 0),
    )
)


def digit_of(key: int, shifted: bool, scan_code: int = 0) -> int | None:
    """The top-row (or keypad) digit of a key press, whatever the keyboard layout."""
    if key in _DIGITS:
        return _DIGITS[key]
    if sys.platform.startswith("linux") and 10 <= scan_code <= 19:  # X11/evdev codes of keys 1..0
        return (scan_code - 9) % 10
    if sys.platform == "win32" and 2 <= scan_code <= 11:
        return (scan_code - 1) % 10
    return (_US_SHIFTED if shifted else _AZERTY).get(key)
