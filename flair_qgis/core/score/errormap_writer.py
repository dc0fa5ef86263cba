"""The error-map GeoTIFF of a scoring run, written window by window, published with its style.

Codes and legend are :mod:`.errormap`'s; the file is an
:class:`~flair_qgis.core.engine.geotiff.AtomicGeoTiff` (complete or absent) with a ``.qml`` beside it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

import numpy as np

from ..atomic import write_text_atomic
from ..engine.geotiff import AtomicGeoTiff
from ..engine.grid import Grid
from ..vocabulary import ERROR_MAP_FILE_TAG
from .errormap import FIRST_MISSED, error_classes, error_dtype, error_qml, error_window, uint8_lut
from .protocols import Protocol


class ErrorMapOutput:
    """An error map on a grid, for one protocol's matrix classes.

    Opened on creation, in the thread that writes it.

    Args:
        path: the GeoTIFF.
        grid: the grid scored.
        protocol: a protocol with its classes (an open protocol closed on every possible value).
    """

    def __init__(self, path: str, grid: Grid, protocol: Protocol) -> None:
        self.protocol = protocol
        self.classes = protocol.classes
        dtype = error_dtype(self.classes)
        self.writer = AtomicGeoTiff(
            path,
            grid,
            dtype,
            None,
            256,
            classes=error_classes(self.classes),
            description="error map: 0 not evaluated, 1 correct, 2+i reference class i missed",
            tags={ERROR_MAP_FILE_TAG: "1", "PROTOCOL": protocol.name},
        )
        self.lut = uint8_lut(protocol, self.classes, dtype)
        self.writer.open()

    def write(self, reference: np.ndarray, prediction: np.ndarray, valid: np.ndarray, row: int, col: int) -> None:
        """Write the error codes of one window at ``(row, col)``."""
        codes = error_window(
            self.protocol,
            self.classes,
            reference=reference,
            prediction=prediction,
            valid=valid,
            dtype=self.writer.dtype,
            lut=self.lut,
        )
        self.writer.write(codes, row, col)

    def commit(self, found_values: Iterable[int] | None = None) -> str:
        """Publish the file and its ``.qml``; returns its path.

        Args:
            found_values: for an open protocol, the class values found: the legend lists only
                those (codes are ``2 + value`` there). None keeps the whole legend.
        """
        if found_values is not None:
            found = set(found_values)
            self.writer.classes = tuple(
                e for e in self.writer.classes if e.value < FIRST_MISSED or e.value - FIRST_MISSED in found
            )
        self.writer.commit()
        write_text_atomic(os.path.splitext(self.writer.path)[0] + ".qml", error_qml(self.writer.classes))
        return self.writer.path

    def abort(self) -> None:
        """Delete the unpublished file."""
        self.writer.abort()
