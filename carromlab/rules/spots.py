"""Free spots on the board: a grid search shared by returned pieces and striker placement."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

import numpy as np
import numpy.typing as npt

from ..equipment.board import Board
from .state import Piece

__all__ = ["GRID_STEP", "occupied", "clear_of", "nearest_free_spot"]

#: Finest spacing of the candidate grids, m: spots and snapped placements are exact to
#: within half of it (0.25 mm), far below the precision of a hand placing a disc.
GRID_STEP = 5e-4

FloatArray = npt.NDArray[np.float64]


def occupied(pieces: Iterable[Piece], radius: Callable[[str], float], exclude: tuple[int, ...] = ()) -> FloatArray:
    """Discs lying on the board with a known position.

    Parameters
    ----------
    pieces : iterable of Piece
        The pieces.
    radius : callable
        Radius (m) of a piece kind, e.g. :meth:`GameState.radius`.
    exclude : tuple of int
        Piece ids to leave out.

    Returns
    -------
    numpy.ndarray, shape (n, 3)
        Rows ``x``, ``y``, ``radius`` (m).
    """
    rows = [(p.x, p.y, p.kind) for p in pieces if p.where == "board" and p.x is not None and p.id not in exclude]
    sizes = {kind: radius(kind) for kind in {kind for _, _, kind in rows}}  # radius() of each kind once
    return np.array([(x, y, sizes[kind]) for x, y, kind in rows], dtype=float).reshape(-1, 3)


def clear_of(x: FloatArray, y: FloatArray, radius: float, discs: FloatArray, margin: float = 0.0) -> FloatArray:
    """Whether a disc of ``radius`` centred at (x, y) keeps ``margin`` clear of every disc.

    Parameters
    ----------
    x, y : numpy.ndarray
        Candidate centres, m (same shape).
    radius : float
        Radius of the disc placed, m.
    discs : numpy.ndarray, shape (n, 3)
        Discs already there: ``x``, ``y``, ``radius`` (m).
    margin : float
        Required clearance, m (0: touching is allowed).

    Returns
    -------
    numpy.ndarray of bool
        Same shape as ``x``.
    """
    ok = np.ones(np.shape(x), dtype=bool)
    for dx, dy, dr in discs:
        ok &= np.hypot(x - dx, y - dy) >= dr + radius + margin
    return ok


def nearest_free_spot(
    board: Board,
    target: tuple[float, float],
    radius: float,
    discs: FloatArray,
    *,
    within: float | None = None,
) -> tuple[float, float] | None:
    """The spot nearest ``target`` where a disc lies wholly on the board, clear of others.

    The search runs on square grids centred on ``target`` (so ``target`` itself is found
    when free), widening from 4 disc radii to the whole board; the spacing is
    :data:`GRID_STEP` and grows with the window to keep each grid at most 401 x 401
    points. Spots over a hole are excluded.

    Parameters
    ----------
    board : Board
        The board.
    target : tuple of float
        Wanted centre, m.
    radius : float
        Radius of the disc to place, m.
    discs : numpy.ndarray, shape (n, 3)
        Discs already on the board: ``x``, ``y``, ``radius`` (m).
    within : float or None
        Only accept spots at most this far from ``target``, m.

    Returns
    -------
    tuple of float or None
        The spot (m), or None if there is none.
    """
    tx, ty = target
    span = 4.0 * radius
    limit = board.size if within is None else within
    while True:
        step = max(GRID_STEP, span / 200.0)
        n = int(np.ceil(span / step))
        ix, iy = _by_distance(n)
        # only the discs reaching into the window can block one of its spots
        reach = n * step + discs[:, 2] + radius
        near = discs[(np.abs(discs[:, 0] - tx) < reach) & (np.abs(discs[:, 1] - ty) < reach)]
        start, size = 0, 256
        while start < ix.size:  # the window's spots nearest first, in growing chunks, until one is free
            gx, gy = tx + ix[start : start + size] * step, ty + iy[start : start + size] * step
            ok = board.contains(gx, gy, radius) & clear_of(gx, gy, radius, near)
            for hole in board.holes:
                ok &= np.hypot(gx - hole.x, gy - hole.y) >= hole.radius + radius
            d = np.hypot(gx - tx, gy - ty)
            if within is not None:
                ok &= d <= within
            if ok.any():
                i = int(np.argmax(ok))
                # a spot in the window's corners may be beaten by one just outside the window
                if d[i] <= span or span >= limit:
                    return float(gx[i]), float(gy[i])
                break
            start, size = start + size, 4 * size
        if span >= limit:
            return None
        span = min(2.0 * span, limit)


@functools.lru_cache(maxsize=32)
def _by_distance(n: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Offsets (i, j) of the square grid -n..n, ordered by distance from the centre (ties
    in row order): :func:`nearest_free_spot` tests the nearest spots first."""
    j, i = np.meshgrid(np.arange(-n, n + 1), np.arange(-n, n + 1))
    order = np.argsort(i * i + j * j, axis=None, kind="stable")
    return j.ravel()[order], i.ravel()[order]
