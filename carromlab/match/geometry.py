"""Where the shooter stands: the placement line, the direction facing the board, and
legal placements on that line (rules ICF-3, ONL-1, HIK-2, CRK-1)."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from ..rules import placement_region
from ..rules.arrays import GameArrays
from ..rules.placement import nearest_spots
from ..rules.ledger import side_direction
from ..rules.state import GameState
from .scene import shot_radius

__all__ = ["placement_target", "placement_targets", "facing", "facings", "legal_spots", "legal_spots_many"]

FloatArray = npt.NDArray[np.float64]


def placement_target(state: GameState, t: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Points along the shooter's placement line, before any legality check, m.

    ``t`` runs from 0 (the shooter's left end) to 1 (the right end) of: the centre line
    of the baselines between the base-circle centres (carrom, ICF-3 and ONL-1); the area
    line, or the tee spot's centre for the seat's first shot of the board (Hikone,
    HIK-2); the arc of the shooting line in the shooter's quadrant (crokinole, CRK-1).
    The points may still be illegal (a piece in the way, a base circle half covered):
    :func:`~carromlab.match.geometry.legal_spots` moves them to the nearest legal ones. The one-state case of
    :func:`placement_targets`.

    Parameters
    ----------
    state : GameState
        The position; the seat to shoot is ``state.shooter``.
    t : array_like
        Fractions of the line, in [0, 1].

    Returns
    -------
    x, y : numpy.ndarray
        Board coordinates, m, of the shape of ``t``.

    Examples
    --------
    >>> from carromlab.rules import icf
    >>> x, y = placement_target(icf.new_game(), [0.0, 0.5, 1.0])
    >>> [round(float(v), 4) for v in x], round(float(y[1]), 4)
    ([-0.2191, 0.0, 0.2191], -0.2526)
    """
    f = np.asarray(t, dtype=float)
    x, y = placement_targets(GameArrays.from_states([state]), f.reshape(1, -1))
    return x.reshape(f.shape), y.reshape(f.shape)


def placement_targets(games: GameArrays, t: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Points along the placement lines of N games' shooters (see :func:`~carromlab.match.geometry.placement_target`).

    Parameters
    ----------
    games : GameArrays
        N positions of one variant; in each the seat to shoot is ``shooter``.
    t : array_like, shape (N,) or (N, M)
        Fractions of each shooter's line, in [0, 1].

    Returns
    -------
    x, y : numpy.ndarray, of the shape of ``t``
        Board coordinates, m.
    """
    f: FloatArray = np.clip(np.asarray(t, dtype=float), 0.0, 1.0)
    if f.ndim not in (1, 2) or f.shape[0] != len(games):
        raise ValueError(f"The 't' parameter must have one row per game ({len(games)}). Got shape {f.shape}.")
    rows = np.arange(len(games))
    first = (games.seat_shots[rows, games.shooter] == 0) & (games.variant == "hikone")
    # the games sharing a line (seat, tee or not) share it: each line built once
    keys, which = np.unique(2 * games.shooter + first, return_inverse=True)
    lines = np.array([_line(games, k // 2, bool(k % 2)) for k in keys.tolist()]).reshape(-1, 4)[which.reshape(-1)].T
    return _along(games.variant, lines if f.ndim == 1 else lines[..., None], f)


def _line(games: GameArrays, seat: int, tee: bool) -> tuple[float, float, float, float]:
    """The placement line of ``seat`` (see :func:`~carromlab.match.geometry.placement_target`; ``tee``: the Hikone
    seat's first shot of the board): the segment's ends (x0, y0, x1, y1), m; crokinole
    the arc's radius (m), its end angles from the shooter's left to right (rad) and 0."""
    board, side = games.board, games.seat_sides[seat]
    if games.variant == "crokinole":
        line = board.shooting_line(side)  # type: ignore[arg-type]
        # polar angles run counter-clockwise, which for a shooter outside the circle facing
        # its centre is from their left to their right
        return line.radius, line.start_angle, line.end_angle, 0.0
    if games.variant == "hikone":
        area = board.area_line(side)  # type: ignore[arg-type]
        if tee:
            return area.tee_spot.x, area.tee_spot.y, area.tee_spot.x, area.tee_spot.y
        seg = area.line
    else:
        seg = board.baseline(side).centre  # type: ignore[arg-type]
    return seg.x0, seg.y0, seg.x1, seg.y1


def _along(variant: str, line: FloatArray, f: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The points at fractions ``f`` of lines (:func:`_line`, first axis the four values)."""
    if variant == "crokinole":
        a = line[1] + f * (line[2] - line[1])
        return line[0] * np.cos(a), line[0] * np.sin(a)
    # a point (the tee spot) keeps its own coordinates, a zero's sign included
    x = np.where(line[2] == line[0], line[0], line[0] + f * (line[2] - line[0]))
    return x, np.where(line[3] == line[1], line[1], line[1] + f * (line[3] - line[1]))


def facing(state: GameState, x: float, y: float) -> tuple[float, float]:
    """Unit vector in which the shooter at (x, y) faces the board.

    Square boards: perpendicular to the shooter's cushion, towards the centre. Round
    boards (crokinole): from (x, y) towards the centre.

    Parameters
    ----------
    state : GameState
        The position; the seat to shoot is ``state.shooter``.
    x, y : float
        Placement, m.

    Returns
    -------
    tuple of float
        ``(nx, ny)``; the shooter's right is ``(ny, -nx)``.

    Examples
    --------
    >>> from carromlab.rules import icf
    >>> facing(icf.new_game(), 0.1, -0.25)
    (-0.0, 1.0)
    """
    if state.board.shape == "round":
        return _towards_centre(x, y)
    dx, dy = side_direction(state.seat_sides[state.shooter])
    return -dx, -dy


def _towards_centre(x: float, y: float) -> tuple[float, float]:
    """Unit vector from (x, y) towards the centre of a round board ((0, 1) at the centre)."""
    r = math.hypot(x, y)
    return (-x / r, -y / r) if r > 0.0 else (0.0, 1.0)


def facings(games: GameArrays, x: npt.ArrayLike, y: npt.ArrayLike) -> FloatArray:
    """:func:`~carromlab.match.geometry.facing` of N games at once, each shooter at its own placement.

    Parameters
    ----------
    games : GameArrays
        N positions.
    x, y : array_like, shape (N,)
        Placements, m.

    Returns
    -------
    numpy.ndarray, shape (N, 2)
        The unit vectors, as :func:`~carromlab.match.geometry.facing` gives them one at a time.
    """
    if games.board.shape == "round":
        xs, ys = np.asarray(x, dtype=float).ravel().tolist(), np.asarray(y, dtype=float).ravel().tolist()
        return np.array([_towards_centre(px, py) for px, py in zip(xs, ys)], dtype=float).reshape(-1, 2)
    sides = np.array([side_direction(side) for side in games.seat_sides], dtype=float)
    return -sides[games.shooter].reshape(-1, 2)


def legal_spots(state: GameState, x: npt.ArrayLike, y: npt.ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The legal placements nearest wanted ones, and how far each had to move: the
    one-state case of :func:`~carromlab.match.geometry.legal_spots_many`.

    Parameters
    ----------
    state : GameState
        The position; the seat to shoot is ``state.shooter``.
    x, y : array_like
        Wanted centres of the shot disc, m.

    Returns
    -------
    x, y : numpy.ndarray
        Legal centres, m (the wanted ones where already legal).
    moved : numpy.ndarray
        Distance moved, m (0 where the wanted spot was legal).

    Raises
    ------
    ValueError
        If the shooter has no legal placement at all.

    Examples
    --------
    >>> from carromlab.rules import icf
    >>> x, y, moved = legal_spots(icf.new_game(), [0.0], [-0.30])
    >>> round(float(y[0]), 4), round(float(moved[0]), 4)
    (-0.2574, 0.0427)
    """
    xs, ys = np.atleast_1d(np.asarray(x, dtype=float)), np.atleast_1d(np.asarray(y, dtype=float))
    sx, sy, moved = legal_spots_many(GameArrays.from_states([state]), xs.ravel()[None, :], ys.ravel()[None, :])
    return sx[0].reshape(xs.shape), sy[0].reshape(xs.shape), moved[0].reshape(xs.shape)


def legal_spots_many(games: GameArrays, x: npt.ArrayLike, y: npt.ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The legal placements nearest wanted ones in N games at once (ICF-3, ONL-1, HIK-2,
    CRK-1), by one :func:`carromlab.rules.placement.nearest_spots` search in the games'
    regions (:attr:`GameArrays.regions <carromlab.rules.arrays.GameArrays.regions>`,
    built once per arrays).

    Parameters
    ----------
    games : GameArrays
        N positions; in each the seat to shoot is ``shooter``.
    x, y : array_like, shape (N,) or (N, M)
        Wanted centres of the shot disc in each game, m.

    Returns
    -------
    x, y : numpy.ndarray
        Legal centres, m, of the shape of ``x`` (the wanted ones where already legal).
    moved : numpy.ndarray
        Distance moved, m (0 where the wanted spot was legal).

    Raises
    ------
    ValueError
        If a shooter has no legal placement at all, or the shapes disagree.

    Examples
    --------
    >>> from carromlab.rules import icf
    >>> from carromlab.rules.arrays import GameArrays
    >>> x, y, moved = legal_spots_many(GameArrays.from_states([icf.new_game()] * 2), [0.0, 0.1], [-0.30, -0.2526])
    >>> [round(float(v), 4) for v in y], [round(float(v), 4) for v in moved]
    ([-0.2574, -0.2526], [0.0427, 0.0])
    """
    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if xs.shape != ys.shape or xs.ndim not in (1, 2) or xs.shape[0] != len(games):
        raise ValueError(f"The 'x' and 'y' parameters must have one row per game ({len(games)}). Got shapes {xs.shape} and {ys.shape}.")
    which = np.repeat(np.arange(len(games)), xs[0].size if xs.size else 0)
    sx, sy, _ = nearest_spots(games.regions, which, xs.ravel(), ys.ravel())
    if np.isnan(sx).any():
        k = int(np.flatnonzero(np.isnan(sx))[0])
        state = games.state(int(which[k]))
        verdict = placement_region(state, shot_radius(state)).judge(float(xs.ravel()[k]), float(ys.ravel()[k]))
        raise ValueError(f"No legal striker placement exists for seat {state.shooter} ({verdict.rule}: {verdict.reason}).")
    sx, sy = sx.reshape(xs.shape), sy.reshape(xs.shape)
    return sx, sy, np.hypot(sx - xs, sy - ys)
