"""Free spots on the board: a grid search shared by returned pieces and striker placement."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

import numpy as np
import numpy.typing as npt

from ..equipment.board import Board
from ..equipment.layout import OVERLAP_TOL
from ._spots import clear_distance as _clear_distance
from ._spots import window_spots
from .state import Piece

__all__ = ["GRID_STEP", "occupied", "clear_of", "clear_distance", "nearest_free_spot", "nearest_free_spots"]

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
    discs : numpy.ndarray, shape (n, 3) or (Q, n, 3)
        Discs already there: ``x``, ``y``, ``radius`` (m); with the leading axis, row q
        holds the discs of the centres ``x[q]``, ``y[q]`` (x, y of shape (Q, ...)).
    margin : float
        Required clearance, m (0: touching is allowed).

    Returns
    -------
    numpy.ndarray of bool
        Same shape as ``x``.
    """
    ok = np.ones(np.shape(x), dtype=bool)
    cols = np.moveaxis(np.asarray(discs, dtype=float), -1, 0)  # (3, [Q,] n)
    widen = (...,) + (None,) * (np.ndim(x) - (cols.ndim - 2))  # a row's discs against its centres
    for j in range(cols.shape[-1]):
        dx, dy, dr = (c[widen] for c in cols[..., j])
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
    """The spot nearest ``target`` where a disc lies wholly on the board, clear of others:
    the one-spot case of :func:`nearest_free_spots`.

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

    Examples
    --------
    >>> from carromlab.equipment.board import Board
    >>> x, y = nearest_free_spot(Board.icf(), (0.0, 0.0), 0.0159, np.array([[0.0, 0.0, 0.0159]]))
    >>> round(x, 4), round(y, 4), round(float(np.hypot(x, y)), 4) >= 0.0318
    (-0.009, -0.0305, True)
    """
    spot = nearest_free_spots(board, [target], radius, np.asarray(discs, dtype=float)[None], within=None if within is None else [within])[0]
    return None if np.isnan(spot[0]) else (float(spot[0]), float(spot[1]))


def nearest_free_spots(
    board: Board,
    target: npt.ArrayLike,
    radius: npt.ArrayLike,
    discs: npt.ArrayLike,
    *,
    within: npt.ArrayLike | None = None,
) -> FloatArray:
    """The spots nearest N targets where a disc lies wholly on the board, clear of
    others, each target with its own disc and discs, searched together.

    The search runs on square grids centred on each target (so the target itself is
    found when free), widening from 4 disc radii to the whole board; the spacing is
    :data:`.GRID_STEP` and grows with the window to keep each grid at most 401 x 401
    points; the grid's points are tested nearest first. Spots over a hole are excluded.
    A spot counts as clear of a disc that it overlaps by at most
    :data:`~carromlab.equipment.layout.OVERLAP_TOL` (1e-9 m, the overlap a layout may
    have; ``clear_of(..., margin=-OVERLAP_TOL)``): rounding in the positions does not
    block a spot (the inner coins of the ICF break layout overlap the centre disc by up
    to 3.5e-18 m, and a queen returned to the centre spot must still land on it, ICF-5).

    Parameters
    ----------
    board : Board
        The board.
    target : array_like, shape (N, 2)
        Wanted centres, m.
    radius : array_like, shape (N,) or scalar
        Radius of each disc to place, m.
    discs : array_like, shape (N, K, 3)
        Discs already on the board around each target: ``x``, ``y``, ``radius`` (m);
        unused rows at ``x = inf`` (radius 0).
    within : array_like, shape (N,), optional
        Only accept spots at most this far from each target, m (inf: anywhere).
        Default anywhere.

    Returns
    -------
    numpy.ndarray, shape (N, 2)
        The spots, m; NaN where there is none.
    """
    t = np.asarray(target, dtype=float).reshape(-1, 2)
    n_spots = len(t)
    r = np.broadcast_to(np.asarray(radius, dtype=float), (n_spots,))
    d = np.array(discs, dtype=float).reshape(n_spots, -1, 3)
    d[..., 2] -= OVERLAP_TOL  # the overlap a spot may have with a disc
    far = np.full(n_spots, np.inf) if within is None else np.broadcast_to(np.asarray(within, dtype=float), (n_spots,))
    limit = np.where(np.isfinite(far), far, board.size)
    span = 4.0 * r
    out = np.full((n_spots, 2), np.nan)
    todo = np.arange(n_spots)
    holes = np.array([(h.x, h.y, h.radius) for h in board.holes], dtype=float).reshape(-1, 3).T.copy()
    while todo.size:
        widen = []
        for s, rr in dict.fromkeys(zip(span[todo].tolist(), r[todo].tolist())):  # rows sharing a grid
            rows = todo[(span[todo] == s) & (r[todo] == rr)]
            found, spots = _window(board, holes, t[rows], rr, d[rows], far[rows], s)
            out[rows[found]] = spots[found]
            rest = rows[~found & (s < limit[rows])]  # none within the window: widen it, up to the limit
            span[rest] = np.minimum(2.0 * s, limit[rest])
            widen.append(rest)
        todo = np.concatenate(widen)
    return out


def _window(
    board: Board, holes: FloatArray, t: FloatArray, radius: float, discs: FloatArray, within: FloatArray, span: float
) -> tuple[npt.NDArray[np.bool_], FloatArray]:
    """One window of :func:`nearest_free_spots` (half-width ``span``, m) around each
    target ``t[q]`` (``holes``: the board's holes, rows x, y, radius, m): whether the
    nearest free spot of its grid was found, and the spot
    (the compiled ``window_spots``: only the discs reaching into the window count, the
    scan starts past the points nearer than :func:`clear_distance`, and a spot in the
    window's corners is only taken when no spot just outside the window could beat it or
    the window covers everything allowed)."""
    step = max(GRID_STEP, span / 200.0)
    n = int(np.ceil(span / step))
    ix, iy, rings = _by_distance(n)
    cols = (np.ascontiguousarray(discs[..., c]) for c in range(3))
    return window_spots(np.ascontiguousarray(t[:, 0]), np.ascontiguousarray(t[:, 1]), radius, *cols,
                        np.ascontiguousarray(within, dtype=float), board.size, span, step, n, ix, iy, rings, *holes,
                        board.shape == "square", board.half_size)  # fmt: skip


def clear_distance(target: FloatArray, centres: FloatArray, reach: FloatArray) -> FloatArray:
    """How far each target must move for a disc centred there to clear its discs: a
    lower bound (m) of the distance to its nearest free spot (the board's edge, holes and
    marks left out), 0 for a target already clear.

    A disc at ``target[q]`` clears disc k when its centre is at least ``reach[q, k]``
    from ``centres[q, k]`` (the two radii, plus any margin). The nearest clear point,
    when it is not the target, lies on the circle of reach of some disc i, outside every
    other: at the point of that circle nearest the target, or at an end of one of its
    arcs left clear, where it crosses the circle of a disc j (along the circle the
    distance to the target grows monotonically from its nearest point to its farthest).
    So it is the nearest clear point among those candidates. Only the discs within twice
    the largest reach of the target are taken (compiled, ``rules/_spots.pyx``): leaving
    the others out only lowers the bound, and in a pack a clear point lies within a
    disc's reach or two of the target.

    Parameters
    ----------
    target : numpy.ndarray, shape (Q, 2)
        Centres wanted, m.
    centres : numpy.ndarray, shape (Q, K, 2)
        Centres of the discs around each target, m; unused rows at ``x = inf``.
    reach : numpy.ndarray, shape (Q, K)
        Least distance from each disc's centre to a clear one, m.

    Returns
    -------
    numpy.ndarray, shape (Q,)
        The distances, m.
    """
    return _clear_distance(*(np.ascontiguousarray(a, dtype=float) for a in (target, centres, reach)))


@functools.lru_cache(maxsize=32)
def _by_distance(n: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], FloatArray]:
    """Offsets (i, j) of the square grid -n..n, ordered by distance from the centre (ties
    in row order), and their distances in grid steps: :func:`nearest_free_spot` tests
    the nearest spots first."""
    j, i = np.meshgrid(np.arange(-n, n + 1), np.arange(-n, n + 1))
    order = np.argsort(i * i + j * j, axis=None, kind="stable")
    jx, iy = j.ravel()[order], i.ravel()[order]
    return jx, iy, np.sqrt(jx * jx + iy * iy)
