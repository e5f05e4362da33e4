"""Striker placement: the legality check and the snap to the nearest legal spot.

A variant describes its legal region as a list of named constraints (vectorised tests
on candidate centres) and a grid of candidates covering the region; this module turns
that into ``check_placement`` and ``snap_placement`` functions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.spatial import cKDTree

from .._validation import check_array, check_real
from ..equipment.board import Board, Segment
from .spots import GRID_STEP
from .state import GameState

__all__ = ["PlacementCheck", "Region", "band_grid", "disc_grid", "arc_grid", "placement_functions"]

FloatArray = npt.NDArray[np.float64]
#: A constraint: a reason shown when it fails, and a test on arrays of centres (m).
Constraint = tuple[str, Callable[[FloatArray, FloatArray], npt.NDArray[np.bool_]]]


@dataclass(frozen=True)
class PlacementCheck:
    """Verdict on a striker placement.

    Parameters
    ----------
    ok : bool
        Whether the placement is legal.
    rule : str
        The placement rule of the variant (``"ICF-3"``, ``"ONL-1"``, ``"HIK-2"``, ``"CRK-1"``).
    reason : str
        The first constraint violated; empty when legal.
    distance : float
        Distance from the placement to the nearest legal spot, m: 0 when legal, ``inf``
        when there is no legal spot. The nearest spot is searched on a grid of
        :data:`GRID_STEP` and refined by bisection towards the placement, so the distance
        is exact for regions that are convex near the placement and at most one grid
        step too long otherwise.
    nearest : tuple of float or None
        The nearest legal spot (m); the placement itself when legal.
    """

    ok: bool
    rule: str
    reason: str
    distance: float
    nearest: tuple[float, float] | None


@dataclass(frozen=True)
class Region:
    """A variant's legal striker region for one shooter.

    Parameters
    ----------
    rule : str
        Rule id of the placement rule.
    constraints : sequence of Constraint
        Every condition a legal centre meets.
    candidates : tuple of numpy.ndarray
        Candidate centres (x, y), m, covering the legal region.
    """

    rule: str
    constraints: Sequence[Constraint]
    candidates: tuple[FloatArray, FloatArray]

    def judge(self, x: float, y: float) -> PlacementCheck:
        """Check one centre (m) and find the nearest legal candidate if it fails."""
        qx, qy = np.array([x]), np.array([y])
        failed = [reason for reason, test in self.constraints if not bool(test(qx, qy)[0])]
        if not failed:
            return PlacementCheck(True, self.rule, "", 0.0, (x, y))
        nx, ny = self.nearest_many(qx, qy)
        if np.isnan(nx[0]):
            return PlacementCheck(False, self.rule, failed[0], math.inf, None)
        bx, by = float(nx[0]), float(ny[0])
        return PlacementCheck(False, self.rule, failed[0], math.hypot(bx - x, by - y), (bx, by))

    def legal(self, x: FloatArray, y: FloatArray) -> npt.NDArray[np.bool_]:
        """Whether each centre (m) meets every constraint."""
        ok = np.ones(np.shape(x), dtype=bool)
        for _, test in self.constraints:
            ok &= test(x, y)
        return ok

    def nearest_many(self, x: FloatArray, y: FloatArray) -> tuple[FloatArray, FloatArray]:
        """The nearest legal spot of each centre (m): the centre itself where legal, NaN
        where no legal spot exists. The nearest legal candidate (a k-d tree query) is
        refined by 40 bisection steps towards the centre (see :attr:`PlacementCheck.distance`)."""
        sx, sy = x.astype(float), y.astype(float)
        bad = np.flatnonzero(~self.legal(sx, sy))
        if bad.size == 0:
            return sx, sy
        cx, cy = self.candidates
        keep = self.legal(cx, cy)
        if not keep.any():
            sx[bad] = sy[bad] = np.nan
            return sx, sy
        lx, ly = cx[keep], cy[keep]
        qx, qy = sx[bad], sy[bad]
        i = cKDTree(np.column_stack([lx, ly])).query(np.column_stack([qx, qy]))[1]
        bx, by = lx[i], ly[i]
        lo, hi = np.zeros(bad.size), np.ones(bad.size)  # fractions of the way to the query; lo is legal
        for _ in range(40):
            mid = 0.5 * (lo + hi)
            ok = self.legal(bx + mid * (qx - bx), by + mid * (qy - by))
            lo, hi = np.where(ok, mid, lo), np.where(ok, hi, mid)
        sx[bad], sy[bad] = bx + lo * (qx - bx), by + lo * (qy - by)
        return sx, sy


def _steps(lo: float, hi: float) -> FloatArray:
    n = max(int(np.ceil((hi - lo) / GRID_STEP)), 1)
    return np.linspace(lo, hi, n + 1)


def band_grid(segment: Segment, across: float, beyond: float) -> tuple[FloatArray, FloatArray]:
    """Candidates around a segment: up to ``across`` from it sideways and ``beyond`` past its ends (m)."""
    ux, uy = (segment.x1 - segment.x0) / segment.length, (segment.y1 - segment.y0) / segment.length
    mx, my = 0.5 * (segment.x0 + segment.x1), 0.5 * (segment.y0 + segment.y1)
    a, c = np.meshgrid(_steps(-0.5 * segment.length - beyond, 0.5 * segment.length + beyond), _steps(-across, across))
    return (mx + a * ux - c * uy).ravel(), (my + a * uy + c * ux).ravel()


def disc_grid(centre: tuple[float, float], radius: float) -> tuple[FloatArray, FloatArray]:
    """Candidates on a square grid covering a disc of ``radius`` around ``centre`` (m)."""
    g = _steps(-radius, radius)
    gx, gy = np.meshgrid(centre[0] + g, centre[1] + g)
    keep = np.hypot(gx - centre[0], gy - centre[1]) <= radius
    return gx[keep], gy[keep]


def arc_grid(r_lo: float, r_hi: float, a0: float, a1: float) -> tuple[FloatArray, FloatArray]:
    """Candidates in the annular sector r_lo <= r <= r_hi (m), a0 <= angle <= a1 (rad)."""
    rr = _steps(r_lo, r_hi)
    n = max(int(np.ceil((a1 - a0) * r_hi / GRID_STEP)), 1)
    r, a = np.meshgrid(rr, np.linspace(a0, a1, n + 1))
    return (r * np.cos(a)).ravel(), (r * np.sin(a)).ravel()


RegionBuilder = Callable[[GameState, Board, float], Region]


def _no_legal_spot(state: GameState, verdict: PlacementCheck) -> ValueError:
    return ValueError(f"No legal striker placement exists for seat {state.shooter} ({verdict.rule}: {verdict.reason}).")


def placement_functions(
    rule: str, region: RegionBuilder
) -> tuple[Callable[..., PlacementCheck], Callable[..., tuple[float, float]], Callable[..., tuple[FloatArray, FloatArray]]]:
    """Build a variant's ``check_placement``, ``snap_placement`` and ``snap_placements``.

    Parameters
    ----------
    rule : str
        Rule id of the variant's placement rule, for the docstrings.
    region : callable
        ``region(state, board, striker_radius) -> Region`` for the seat to shoot.

    Returns
    -------
    check_placement, snap_placement, snap_placements : callable
        See their docstrings.
    """

    def _region(state: GameState, striker_radius: float, board: Board | None) -> Region:
        r = check_real("striker_radius", striker_radius, low=0.0, high=0.1, low_open=True, unit="m")
        if board is not None and not isinstance(board, Board):
            raise ValueError(f"The 'board' parameter must be a Board or None. Got {board!r} instead.")
        return region(state, state.board if board is None else board, r)

    def check_placement(
        state: GameState, x: float, y: float, striker_radius: float, board: Board | None = None
    ) -> PlacementCheck:
        x = check_real("x", x, unit="m")
        y = check_real("y", y, unit="m")
        return _region(state, striker_radius, board).judge(x, y)

    def snap_placement(
        state: GameState, x: float, y: float, striker_radius: float, board: Board | None = None
    ) -> tuple[float, float]:
        verdict = check_placement(state, x, y, striker_radius, board)
        if verdict.nearest is None:
            raise _no_legal_spot(state, verdict)
        return verdict.nearest

    def snap_placements(
        state: GameState, x: npt.ArrayLike, y: npt.ArrayLike, striker_radius: float, board: Board | None = None
    ) -> tuple[FloatArray, FloatArray]:
        px, py = np.broadcast_arrays(np.atleast_1d(check_array("x", x, unit="m")), np.atleast_1d(check_array("y", y, unit="m")))
        reg = _region(state, striker_radius, board)
        sx, sy = reg.nearest_many(px.ravel(), py.ravel())
        if np.isnan(sx).any():
            k = int(np.flatnonzero(np.isnan(sx))[0])
            raise _no_legal_spot(state, reg.judge(float(px.flat[k]), float(py.flat[k])))
        return sx.reshape(px.shape), sy.reshape(px.shape)

    params = """
    Parameters
    ----------
    state : GameState
        The state; the seat to shoot is ``state.shooter``.
    x, y : float
        Centre of the striker (crokinole: the disc played), m, board frame.
    striker_radius : float
        Its radius, m, in (0, 0.1].
    board : Board, optional
        Board whose marks are used. Default ``state.board``.
    """
    check_placement.__doc__ = f"""Check a striker placement against rule {rule}.
{params}
    Returns
    -------
    PlacementCheck
        Legality, the rule, the first violated condition and the distance (m) to the
        nearest legal spot.
    """
    snap_placement.__doc__ = f"""The legal spot nearest a wanted striker placement (rule {rule}).
{params}
    Returns
    -------
    tuple of float
        ``(x, y)`` itself when legal, else the nearest legal spot (m) (see
        ``PlacementCheck.distance`` for its precision).

    Raises
    ------
    ValueError
        If no legal spot exists.
    """
    snap_placements.__doc__ = f"""The legal spots nearest many wanted striker placements (rule {rule}).

    The same spots as :func:`snap_placement` gives one at a time, found on arrays.

    Parameters
    ----------
    state : GameState
        The state; the seat to shoot is ``state.shooter``.
    x, y : array_like
        Centres wanted, m, board frame; broadcast to one shape.
    striker_radius : float
        Radius of the striker (crokinole: the disc played), m, in (0, 0.1].
    board : Board, optional
        Board whose marks are used. Default ``state.board``.

    Returns
    -------
    tuple of numpy.ndarray
        ``(x, y)`` of the legal spots, m (each placement itself where legal), of the
        broadcast shape (at least 1-d).

    Raises
    ------
    ValueError
        If no legal spot exists.
    """
    return check_placement, snap_placement, snap_placements
