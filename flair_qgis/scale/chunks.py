"""Work units of a distributed run: K x K tiles of the very tile layout ``flair:segment`` uses.

The whole grid's tiles are laid once (:func:`flair_qgis.core.engine.grid.tile_layout`); a chunk takes
the tiles whose cores fall in its block of K x K tile positions and shifts them into its own
sub-grid. Every pixel is then decided by the same tile, read from the same input window, as in
an in-process run: chunk borders are invisible and the mosaic equals the single-file output.
"""

from __future__ import annotations

from dataclasses import dataclass

from affine import Affine

from ..core.engine import Grid, Tile, affine_xy, tile_layout
from ..core.errors import InputError


@dataclass(frozen=True)
class Chunk:
    """One work unit: a rectangle of the output grid and the tiles that decide it.

    Attributes:
        row: index of the chunk along the rows of the chunk grid.
        col: index of the chunk along the columns.
        row0: top output-grid row of the chunk.
        col0: left output-grid column of the chunk.
        rows: output rows of the chunk.
        cols: output columns of the chunk.
        tiles: the tiles, in chunk pixels (their read windows may stick out of the chunk).
    """

    row: int
    col: int
    row0: int
    col0: int
    rows: int
    cols: int
    tiles: tuple[Tile, ...]

    @property
    def name(self) -> str:
        """File stem of the chunk's class map, e.g. ``r0003_c0012``."""
        return f"r{self.row:04d}_c{self.col:04d}"

    def sub_grid(self, grid: Grid) -> Grid:
        """The chunk's own grid: ``grid``'s pixels over the chunk's rectangle."""
        t = grid.transform
        x0, y0 = affine_xy(t, self.col0, self.row0)
        return Grid(Affine(t.a, 0.0, x0, 0.0, t.e, y0), self.cols, self.rows, grid.crs_wkt)


def chunk_layout(grid: Grid, tile_size_px: int, overlap_px: int, chunk_tiles: int) -> list[Chunk]:
    """Group the grid's tiles into chunks of ``chunk_tiles`` x ``chunk_tiles`` tiles.

    Args:
        grid: the whole run's output grid.
        tile_size_px: model input edge.
        overlap_px: overlap between tiles, as given to :func:`tile_layout`.
        chunk_tiles: edge of a chunk in tiles (the last row and column of chunks may be smaller).

    Returns:
        Chunks in row-major order; their rectangles partition the grid.

    Raises:
        InputError: ``chunk_tiles`` is not a positive integer.
    """
    if chunk_tiles < 1:
        raise InputError.of("chunk_tiles_too_low", chunk_tiles=chunk_tiles)
    tiles = tile_layout(grid.width, grid.height, tile_size_px, overlap_px)
    # tile_layout is row-major over one axis layout per direction: tile (i, j) is tiles[i * n + j].
    n_cols = len({t.core_col for t in tiles})
    n_rows = len(tiles) // n_cols
    chunks = []
    for ci, i0 in enumerate(range(0, n_rows, chunk_tiles)):
        i1 = min(i0 + chunk_tiles, n_rows)
        for cj, j0 in enumerate(range(0, n_cols, chunk_tiles)):
            j1 = min(j0 + chunk_tiles, n_cols)
            first, last = tiles[i0 * n_cols + j0], tiles[(i1 - 1) * n_cols + (j1 - 1)]
            row0, col0 = first.core_row, first.core_col
            own = tuple(_shifted(tiles[i * n_cols + j], row0, col0) for i in range(i0, i1) for j in range(j0, j1))
            rows = last.core_row + last.core_rows - row0
            cols = last.core_col + last.core_cols - col0
            chunks.append(Chunk(ci, cj, row0, col0, rows, cols, own))
    return chunks


def _shifted(tile: Tile, row0: int, col0: int) -> Tile:
    """``tile`` in the pixels of a sub-grid whose origin is ``(row0, col0)``."""
    return Tile(
        read_row=tile.read_row - row0,
        read_col=tile.read_col - col0,
        core_row=tile.core_row - row0,
        core_col=tile.core_col - col0,
        core_rows=tile.core_rows,
        core_cols=tile.core_cols,
    )
