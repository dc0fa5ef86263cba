"""What a model's inputs and outputs ask of a run: head roles, per-input grids, tiling.

:func:`plan_heads` sorts the outputs (the class map, further maps, per-tile values);
:func:`input_grids` gives each model input its grid over the same ground at its own resolution;
:func:`resolve_tiling` turns the requested tile size, overlap and batch size into the ones the
model can take.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from affine import Affine

from ..errors import InputError, ModelError, NotSupportedError
from .grid import Grid
from .model import TASK_SEGMENTATION, ModelInfo, OutputSpec


@dataclass(frozen=True)
class HeadPlan:
    """What each model output becomes.

    Attributes:
        primary: the head written to OUTPUT (a class map, or a value map for regression-only
            models).
        maps: further per-pixel heads, each written to its own raster.
        per_tile: per-image heads, reported per tile.
    """

    primary: OutputSpec
    maps: tuple[OutputSpec, ...]
    per_tile: tuple[OutputSpec, ...]

    @property
    def all(self) -> tuple[OutputSpec, ...]:
        """Every output onnxruntime is asked for: the primary head, the maps, the per-tile heads."""
        return (self.primary, *self.maps, *self.per_tile)


def plan_heads(model: ModelInfo) -> HeadPlan:
    """Sort the model's outputs: the first per-pixel segmentation head writes the class map.

    Raises:
        ModelError: the model has no per-pixel output to map.
        NotSupportedError: a segmentation output of integers on several channels (class indices
            come one per pixel).
    """
    per_pixel = [o for o in model.outputs if o.is_per_pixel]
    segmentation = [o for o in per_pixel if o.task == TASK_SEGMENTATION]
    if not per_pixel:
        raise ModelError.of("no_per_pixel_output")
    for head in segmentation:
        if head.rank == 4 and (head.channels or 1) > 1 and not head.dtype.startswith("float"):
            raise NotSupportedError.of("integer_output_channels", name=head.name, channels=head.channels)
    primary = segmentation[0] if segmentation else per_pixel[0]
    maps = tuple(o for o in per_pixel if o is not primary)
    per_tile = tuple(o for o in model.outputs if not o.is_per_pixel)
    return HeadPlan(primary, maps, per_tile)


def check_supported(model: ModelInfo) -> OutputSpec:
    """The head written to OUTPUT; raises for models this engine cannot run.

    Raises:
        ModelError: no per-pixel output.
    """
    return plan_heads(model).primary


def scale_factors(model: ModelInfo) -> list[float]:
    """Pixels of input k per pixel of input 0 along an axis (1.0 when resolutions are unknown)."""
    base = model.inputs[0].resolution_m
    return [base / spec.resolution_m if base and spec.resolution_m else 1.0 for spec in model.inputs]


def _scaled(length_px: int, factor: float, index: int, name: str) -> int:
    """``length_px`` of the first input in pixels of input ``index`` (``name``), when whole."""
    scaled = length_px * factor
    if abs(scaled - round(scaled)) > 1e-6:
        raise NotSupportedError.of(
            "fractional_input_pixels", index=index, name=name, length_px=length_px, scaled=scaled
        )
    return round(scaled)


def input_grids(model: ModelInfo, grid: Grid) -> list[Grid]:
    """The grid each model input is read on: the same ground extent, at that input's resolution.

    Input 0 is read on ``grid`` itself. Input k's pixels are ``resolution_k / resolution_0`` times
    the size of grid pixels, anchored on the same origin.
    """
    grids = []
    for factor in scale_factors(model):
        if factor == 1.0:
            grids.append(grid)
            continue
        t = grid.transform
        transform = Affine(t.a / factor, 0.0, t.c, 0.0, t.e / factor, t.f)
        width, height = math.ceil(grid.width * factor - 1e-9), math.ceil(grid.height * factor - 1e-9)
        grids.append(Grid(transform, max(width, 1), max(height, 1), grid.crs_wkt))
    return grids


def resolve_tiling(
    model: ModelInfo, tile_size_px: int | None, overlap_px: int | None, batch_size: int
) -> tuple[int, int, int]:
    """``(tile_px, overlap_px, batch_size)`` for a run: the request's, or the model's defaults.

    Args:
        model: the model.
        tile_size_px: requested tile edge; None for the model's.
        overlap_px: requested overlap; None for the model's (kept 16 px under the tile).
        batch_size: requested tiles per call; a batch fixed by the model wins.

    Raises:
        InputError: a tile size the model's fixed input shapes refuse.
        NotSupportedError: a tile that is not a whole number of pixels for some input.
    """
    spec = model.input
    tile = tile_size_px or model.tile_size_px
    if spec.tile_size_px is not None and tile != spec.tile_size_px:
        raise InputError.of("fixed_tile_size", tile_size_px=spec.tile_size_px)
    overlap = min(model.overlap_px, tile - 16) if overlap_px is None else overlap_px
    batch = max(1, int(batch_size))
    fixed = {s.fixed_batch for s in model.inputs if s.fixed_batch is not None}
    if fixed:
        batch = fixed.pop()
    for index, (other, factor) in enumerate(zip(model.inputs[1:], scale_factors(model)[1:]), start=2):
        own = _scaled(tile, factor, index, other.name)
        if other.tile_size_px is not None and own != other.tile_size_px:
            raise InputError.of(
                "fixed_input_size",
                index=index,
                name=other.name,
                tile_size_px=other.tile_size_px,
                tile=tile,
                own=own,
                suggested=round(other.tile_size_px / factor),
            )
    return tile, overlap, batch
