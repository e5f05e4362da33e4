"""Where the shooter stands: the placement line, the direction facing the board, and
legal placements on that line (rules ICF-3, ONL-1, HIK-2, CRK-1)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..rules import placement_region
from ..rules.placement import Regions, nearest_spots
from ..rules.ledger import side_direction
from ..rules.state import GameState
from .scene import shot_radius

__all__ = ["placement_target", "placement_targets", "facing", "facings", "legal_spots", "legal_spots_many", "remember_regions"]

FloatArray = npt.NDArray[np.float64]


def placement_target(state: GameState, t: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Points along the shooter's placement line, before any legality check, m.

    ``t`` runs from 0 (the shooter's left end) to 1 (the right end) of: the centre line
    of the baselines between the base-circle centres (carrom, ICF-3 and ONL-1); the area
    line, or the tee spot's centre for the seat's first shot of the board (Hikone,
    HIK-2); the arc of the shooting line in the shooter's quadrant (crokinole, CRK-1).
    The points may still be illegal (a piece in the way, a base circle half covered):
    :func:`legal_spots` moves them to the nearest legal ones.

    Parameters
    ----------
    state : GameState
        The position; the seat to shoot is ``state.shooter``.
    t : array_like
        Fractions of the line, in [0, 1].

    Returns
    -------
    x, y : numpy.ndarray
        Board coordinates, m.

    Examples
    --------
    >>> from carromlab.rules import icf
    >>> x, y = placement_target(icf.new_game(), [0.0, 0.5, 1.0])
    >>> [round(float(v), 4) for v in x], round(float(y[1]), 4)
    ([-0.2191, 0.0, 0.2191], -0.2526)
    """
    f: FloatArray = np.clip(np.asarray(t, dtype=float), 0.0, 1.0)
    return _along(state.variant, np.array(_line(state)), f)


def placement_targets(states: Sequence[GameState], t: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
    """:func:`placement_target` of N states of one variant at once, one fraction each.

    Parameters
    ----------
    states : sequence of GameState
        N positions of one variant.
    t : array_like, shape (N,)
        Fraction of each shooter's line, in [0, 1].

    Returns
    -------
    x, y : numpy.ndarray, shape (N,)
        Board coordinates, m, as :func:`placement_target` gives them one at a time.
    """
    f: FloatArray = np.clip(np.asarray(t, dtype=float).reshape(-1), 0.0, 1.0)
    if not states:
        return f.copy(), f.copy()
    kept: dict[tuple, tuple[float, float, float, float]] = {}  # the states sharing a line share it
    keys = [(id(s.board), s.seat_sides[s.shooter], s.variant == "hikone" and s.seat_shots[s.shooter] == 0) for s in states]
    lines = np.array([kept[k] if k in kept else kept.setdefault(k, _line(s)) for k, s in zip(keys, states)]).reshape(-1, 4).T
    return _along(states[0].variant, lines, f)


def _line(state: GameState) -> tuple[float, float, float, float]:
    """The shooter's placement line (see :func:`placement_target`): the segment's ends
    (x0, y0, x1, y1), m; crokinole the arc's radius (m), its end angles from the
    shooter's right to left (rad) and 0."""
    board, side = state.board, state.seat_sides[state.shooter]
    if state.variant == "crokinole":
        line = board.shooting_line(side)  # type: ignore[arg-type]
        # polar angles run counter-clockwise, i.e. from the shooter's right to their left
        return line.radius, line.end_angle, line.start_angle, 0.0
    if state.variant == "hikone":
        area = board.area_line(side)  # type: ignore[arg-type]
        if state.seat_shots[state.shooter] == 0:
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
        r = math.hypot(x, y)
        return (-x / r, -y / r) if r > 0.0 else (0.0, 1.0)
    dx, dy = side_direction(state.seat_sides[state.shooter])
    return -dx, -dy


def facings(states: Sequence[GameState], x: npt.ArrayLike, y: npt.ArrayLike) -> FloatArray:
    """:func:`facing` of N states at once, each shooter at its own placement.

    Parameters
    ----------
    states : sequence of GameState
        N positions.
    x, y : array_like, shape (N,)
        Placements, m.

    Returns
    -------
    numpy.ndarray, shape (N, 2)
        The unit vectors, as :func:`facing` gives them one at a time.
    """
    xs, ys = np.asarray(x, dtype=float).ravel().tolist(), np.asarray(y, dtype=float).ravel().tolist()
    if not states:
        return np.zeros((0, 2))
    if states[0].board.shape == "round":
        return np.array([facing(s, px, py) for s, px, py in zip(states, xs, ys)]).reshape(-1, 2)
    sides = {side: side_direction(side) for side in states[0].seat_sides}
    return -np.array([sides[s.seat_sides[s.shooter]] for s in states], dtype=float).reshape(-1, 2)


def legal_spots(state: GameState, x: npt.ArrayLike, y: npt.ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The legal placements nearest wanted ones, and how far each had to move: the
    one-state case of :func:`legal_spots_many`.

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
    sx, sy, moved = legal_spots_many([state], xs.ravel()[None, :], ys.ravel()[None, :])
    return sx[0].reshape(xs.shape), sy[0].reshape(xs.shape), moved[0].reshape(xs.shape)


#: The placement regions of the latest states asked about or given (:func:`remember_regions`),
#: by id: (the state, kept alive so that its id is not reused; the regions; its row). A
#: lockstep step gives its games' regions, built on arrays, once; the policy's placements
#: and the executed ones then both read them.
_REGIONS: dict[int, tuple[GameState, Regions, int]] = {}
_REGIONS_KEPT = 4096


def remember_regions(states: Sequence[GameState], regions: Regions) -> None:
    """Keep the placement regions of states (row k of ``regions`` for ``states[k]``, e.g.
    :func:`carromlab.rules.arrays.placement_regions` of their arrays) for the next
    :func:`legal_spots_many` calls on them.

    Parameters
    ----------
    states : sequence of GameState
        The states.
    regions : Regions
        Their shooters' regions for the disc they play, row per state.
    """
    if len(_REGIONS) + len(states) > _REGIONS_KEPT:
        _REGIONS.clear()
    for k, state in enumerate(states):
        _REGIONS[id(state)] = (state, regions, k)


def _regions(states: list[GameState]) -> Regions:
    """The legal regions of the states' shooters (:func:`carromlab.rules.placement_region`),
    memoised: the kept rows of :func:`remember_regions` where there are some, the others
    built from the states."""
    sources: dict[int, tuple[Regions | None, list[int], list[int]]] = {}  # by regions: (regions, states, rows)
    for k, state in enumerate(states):
        kept = _REGIONS.get(id(state))
        if kept is not None and kept[0] is state:
            sources.setdefault(id(kept[1]), (kept[1], [], []))
            sources[id(kept[1])][1].append(k)
            sources[id(kept[1])][2].append(kept[2])
        else:
            sources.setdefault(0, (None, [], []))[1].append(k)
    built = sources.get(0)
    if built is not None:
        new = [states[k] for k in built[1]]
        regions = Regions.of([placement_region(s, shot_radius(s)) for s in new])
        remember_regions(new, regions)
        sources[0] = (regions, built[1], list(range(len(new))))
    parts = [regions.take(rows) for regions, _, rows in sources.values()]  # type: ignore[union-attr]
    order = np.concatenate([ks for _, ks, _ in sources.values()])
    out = parts[0] if len(parts) == 1 else Regions.concat(parts)
    return out if (order == np.arange(len(states))).all() else out.take(np.argsort(order))


def legal_spots_many(states: Sequence[GameState], x: npt.ArrayLike, y: npt.ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The legal placements nearest wanted ones in N games at once (ICF-3, ONL-1, HIK-2,
    CRK-1), by one :func:`carromlab.rules.placement.nearest_spots` search.

    Parameters
    ----------
    states : sequence of GameState
        N positions; in each the seat to shoot is ``state.shooter``.
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
    >>> x, y, moved = legal_spots_many([icf.new_game()] * 2, [0.0, 0.1], [-0.30, -0.2526])
    >>> [round(float(v), 4) for v in y], [round(float(v), 4) for v in moved]
    ([-0.2574, -0.2526], [0.0427, 0.0])
    """
    states = list(states)
    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if xs.shape != ys.shape or xs.ndim not in (1, 2) or xs.shape[0] != len(states):
        raise ValueError(f"The 'x' and 'y' parameters must have one row per state ({len(states)}). Got shapes {xs.shape} and {ys.shape}.")
    regions = _regions(states)
    which = np.repeat(np.arange(len(states)), xs[0].size if xs.size else 0)
    sx, sy, _ = nearest_spots(regions, which, xs.ravel(), ys.ravel())
    if np.isnan(sx).any():
        k = int(np.flatnonzero(np.isnan(sx))[0])
        g = int(which[k])
        verdict = placement_region(states[g], shot_radius(states[g])).judge(float(xs.ravel()[k]), float(ys.ravel()[k]))
        raise ValueError(f"No legal striker placement exists for seat {states[g].shooter} ({verdict.rule}: {verdict.reason}).")
    sx, sy = sx.reshape(xs.shape), sy.reshape(xs.shape)
    return sx, sy, np.hypot(sx - xs, sy - ys)
