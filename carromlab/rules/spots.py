"""Free spots on the board: a grid search shared by returned pieces and striker placement."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
import numpy.typing as npt

from ..equipment.board import Board
from ..equipment.layout import OVERLAP_TOL
from ._spots import clear_distance as _clear_distance
from ._spots import spots_in_turn
from .state import Piece

__all__ = ["GRID_STEP", "occupied", "clear_of", "clear_distance", "nearest_free_spot", "nearest_free_spots", "nearest_free_spots_in_turn"]

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
    d = np.asarray(discs, dtype=float).reshape(n_spots, -1, 3)
    # each target's disc as one more piece, after the discs, put back alone
    r = np.concatenate([d[..., 2], np.broadcast_to(np.asarray(radius, dtype=float), (n_spots,))[:, None]], axis=1)
    xy = np.concatenate([d[..., :2], np.full((n_spots, 1, 2), np.nan)], axis=1)
    order = np.full((n_spots, 1), d.shape[1])
    return nearest_free_spots_in_turn(board, t, r, xy, order, within=within)[:, 0]


def nearest_free_spots_in_turn(
    board: Board,
    target: npt.ArrayLike,
    radius: npt.ArrayLike,
    xy: npt.ArrayLike,
    order: npt.ArrayLike,
    *,
    within: npt.ArrayLike | None = None,
    far: npt.ArrayLike | None = None,
) -> FloatArray:
    """Put pieces back one after another on N boards, each at the spot nearest its
    board's target found as by :func:`nearest_free_spots`, clear of the pieces on its
    board, those put back before it included.

    Parameters
    ----------
    board : Board
        The board (the same for all N).
    target : array_like, shape (N, 2)
        Wanted centre on each board, m.
    radius : array_like, shape (N, P) or (P,)
        Radius of every piece, m.
    xy : array_like, shape (N, P, 2)
        Positions of the pieces, m; NaN for those not on the board. Those put back are
        taken off first (their positions are not read). Never changed.
    order : array_like of int, shape (N, Q)
        The pieces to put back on each board, in turn; -1 after the last.
    within : array_like, shape (N,), optional
        Only accept spots at most this far from each target, m (inf: anywhere).
        Default anywhere.
    far : array_like, shape (N, 2), optional
        Where a piece with no spot within ``within`` of the target goes instead: the
        nearest free spot to ``far`` on its board, anywhere (m). Default none.

    Returns
    -------
    numpy.ndarray, shape (N, Q, 2)
        The spots, m, in the places of ``order``; NaN where there is none (and after
        each board's last piece). The later pieces of a board keep clear of the earlier
        ones' spots, not of a piece that found none.

    Examples
    --------
    >>> from carromlab.equipment.board import Board
    >>> xy = np.array([[[0.0, 0.0], [np.nan, np.nan], [np.nan, np.nan]]])
    >>> spots = nearest_free_spots_in_turn(Board.icf(), [(0.0, 0.0)], [0.0159] * 3, xy, [[1, 2]])
    >>> np.round(spots, 4).tolist()
    [[[-0.009, -0.0305], [0.0255, -0.019]]]
    """
    t = np.ascontiguousarray(target, dtype=float).reshape(-1, 2)
    n = len(t)
    work = np.array(xy, dtype=float).reshape(n, -1, 2)
    put = np.ascontiguousarray(order, dtype=np.intp).reshape(n, -1)
    rows, cols = np.nonzero(put >= 0)
    work[rows, put[rows, cols]] = np.nan  # the pieces put back are off the board until placed
    r = np.ascontiguousarray(np.broadcast_to(np.asarray(radius, dtype=float), work.shape[:2]))
    limit = np.full(n, np.inf) if within is None else np.ascontiguousarray(np.broadcast_to(np.asarray(within, dtype=float), (n,)))
    back = np.zeros((0, 2)) if far is None else np.ascontiguousarray(np.broadcast_to(np.asarray(far, dtype=float), (n, 2)))
    holes = np.array([(h.x, h.y, h.radius) for h in board.holes], dtype=float).reshape(-1, 3)
    return spots_in_turn(t, r, work, put, limit, back, OVERLAP_TOL, GRID_STEP, board.size, board.shape == "square", board.half_size, holes)


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
