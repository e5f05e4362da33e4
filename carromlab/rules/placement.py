"""Striker placement: the legality check and the snap to the nearest legal spot.

A variant describes its legal region as a list of named constraints (vectorised tests
on candidate centres) and a grid of candidates covering the region; this module turns
that into ``check_placement`` and ``snap_placement`` functions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import check_array, check_real, check_type
from ..equipment.board import Baseline, Board, Segment
from ._placement import advance, bisect, clear, midpoints, nearest_clear, reaching
from .spots import GRID_STEP, clear_distance, clear_of
from .state import GameState

__all__ = ["PlacementCheck", "Area", "Region", "Regions", "nearest_spots", "band_grid", "disc_grid", "arc_grid", "placement_functions"]

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
        :data:`.GRID_STEP` and refined by bisection towards the placement, so the distance
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


@dataclass(frozen=True, eq=False)
class Area:
    """The part of a legal striker region fixed by the board's marks, the shooter's line
    and the disc's radius: the same for every game at that line, so builders cache it.

    Parameters
    ----------
    rule : str
        Rule id of the placement rule.
    constraints : sequence of Constraint
        Every condition on the marks a legal centre meets.
    candidates : tuple of numpy.ndarray
        Candidate centres (x, y), m, covering the legal region.
    radius : float
        Radius of the disc placed, m.
    near : tuple of (Segment, float), optional
        A centre within a distance (m) of a segment: the segment and the distance (build
        an area of this one constraint with :meth:`near_segment`). Default None.
    baseline : Baseline, optional
        A disc of ``radius`` legally placed on a side's baselines
        (:meth:`Baseline.striker_allowed <carromlab.equipment.Baseline.striker_allowed>`).
        Default None.

    Notes
    -----
    ``near`` and ``baseline``, when given, are the constraints again in the form the
    compiled search tests (every bisection step in one call): together (both when both
    are given) they must hold exactly where the constraints hold.
    """

    rule: str
    constraints: Sequence[Constraint]
    candidates: tuple[FloatArray, FloatArray]
    radius: float
    near: tuple[Segment, float] | None = None
    baseline: Baseline | None = None

    @classmethod
    def near_segment(
        cls, rule: str, reason: str, segment: Segment, limit: float, candidates: tuple[FloatArray, FloatArray], radius: float
    ) -> Area:
        """The area of the centres within ``limit`` (m) of ``segment`` (a point when its
        ends coincide): its one constraint, with ``reason``, and its bisection compiled
        (``carromlab.rules._placement.bisect``).

        Parameters
        ----------
        rule : str
            Rule id of the placement rule.
        reason : str
            The reason shown when the constraint fails.
        segment : Segment
            The segment, m.
        limit : float
            The largest distance of a legal centre from it, m.
        candidates : tuple of numpy.ndarray
            Candidate centres (x, y), m, covering the legal region.
        radius : float
            Radius of the disc placed, m.

        Returns
        -------
        Area
        """
        return cls(rule, [(reason, lambda x, y: segment.distance(x, y) <= limit)], candidates, radius, (segment, limit))

    def legal(self, x: FloatArray, y: FloatArray) -> npt.NDArray[np.bool_]:
        """Whether each centre (m) meets every constraint on the marks (each constraint
        after the first is tested only on the centres that met the ones before)."""
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        if x.shape != y.shape:
            x, y = np.broadcast_arrays(x, y)
        ok = np.ones(x.shape, dtype=bool)
        flat, fx, fy = ok.reshape(-1), x.reshape(-1), y.reshape(-1)
        for k, (_, test) in enumerate(self.constraints):
            if not k:
                flat[:] = test(fx, fy)
            else:
                i = np.flatnonzero(flat)
                flat[i] = test(fx[i], fy[i])
        return ok

    @cached_property
    def compiled(self) -> tuple[tuple[Any, ...], tuple[Any, ...]] | None:
        """The constraints as the compiled bisection takes them
        (``carromlab.rules._placement.bisect``): ``near``'s
        :attr:`Segment.kernel_row <carromlab.equipment.Segment.kernel_row>` and
        distance, and ``baseline``'s :meth:`Baseline.striker_kernel
        <carromlab.equipment.Baseline.striker_kernel>` of ``radius`` (each ``()``
        when not given); None when neither is given."""
        if self.near is None and self.baseline is None:
            return None
        near = () if self.near is None else (*self.near[0].kernel_row, float(self.near[1]))
        return near, () if self.baseline is None else self.baseline.striker_kernel(self.radius)

    @cached_property
    def allowed(self) -> tuple[FloatArray, FloatArray]:
        """The candidates that meet the constraints, m."""
        cx, cy = self.candidates
        keep = self.legal(cx, cy)
        return cx[keep], cy[keep]

    @cached_property
    def sweep(self) -> tuple[FloatArray, FloatArray, npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        """:attr:`allowed` sorted along the area's longer side (x or y), then along the
        other: the coordinates along each side in that order, the order, and where each run
        of one coordinate along the longer side starts (and the end). The candidates
        within a distance of a centre lie in one slice of it, and in a slice of each run.
        Built once per area."""
        x0, x1, y0, y1 = self.box
        key, other = self.allowed if not x1 - x0 < y1 - y0 else self.allowed[::-1]
        order = np.lexsort((other, key))
        runs = np.flatnonzero(np.diff(key[order], prepend=np.nan, append=np.nan) != 0)
        return key[order], other[order], order, runs

    @cached_property
    def box(self) -> tuple[float, float, float, float]:
        """Bounds (x_min, x_max, y_min, y_max) of :attr:`allowed`, m (NaN when empty)."""
        cx, cy = self.allowed
        if not cx.size:
            return (math.nan,) * 4
        return float(cx.min()), float(cx.max()), float(cy.min()), float(cy.max())


@dataclass(frozen=True, eq=False)
class Region:
    """A variant's legal striker region for one shooter of one game: an :class:`~carromlab.rules.placement.Area`
    and the discs the striker must keep clear of.

    Parameters
    ----------
    area : Area
        The constraints on the marks (shared by games).
    blockers : sequence of (str, numpy.ndarray, float)
        Clearance constraints: a reason, the discs (rows ``x``, ``y``, ``radius``, m) and
        the clearance required from them (m, 0: touching is allowed), as in
        ``carromlab.rules.spots.clear_of``.
    """

    area: Area
    blockers: Sequence[tuple[str, FloatArray, float]] = ()

    @property
    def rule(self) -> str:
        """Rule id of the placement rule."""
        return self.area.rule

    def discs(self) -> FloatArray:
        """Every blocking disc with its clearance, rows ``x``, ``y``, ``radius``, ``margin`` (m)."""
        return self._discs

    @cached_property
    def _discs(self) -> FloatArray:
        rows = [np.column_stack([d.reshape(-1, 3), np.full(len(d), margin)]) for _, d, margin in self.blockers]
        return np.vstack(rows) if rows else np.zeros((0, 4))

    def judge(self, x: float, y: float) -> PlacementCheck:
        """Check one centre (m) and find the nearest legal spot if it fails."""
        qx, qy = np.array([x]), np.array([y])
        failed = [reason for reason, test in self.area.constraints if not bool(test(qx, qy)[0])]
        r = self.area.radius
        failed += [reason for reason, d, margin in self.blockers if not bool(clear_of(qx, qy, r, d, margin)[0])]
        if not failed:
            return PlacementCheck(True, self.rule, "", 0.0, (x, y))
        nx, ny = self.nearest_many(qx, qy)
        if np.isnan(nx[0]):
            return PlacementCheck(False, self.rule, failed[0], math.inf, None)
        bx, by = float(nx[0]), float(ny[0])
        return PlacementCheck(False, self.rule, failed[0], math.hypot(bx - x, by - y), (bx, by))

    def legal(self, x: FloatArray, y: FloatArray) -> npt.NDArray[np.bool_]:
        """Whether each centre (m) meets every constraint."""
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        return nearest_spots([self], np.zeros(x.size, dtype=np.intp), x.ravel(), y.ravel(), search=False)[2].reshape(x.shape)

    def nearest_many(self, x: FloatArray, y: FloatArray) -> tuple[FloatArray, FloatArray]:
        """The nearest legal spot of each centre (m):
        :func:`~carromlab.rules.placement.nearest_spots` of this region."""
        sx, sy, _ = nearest_spots([self], np.zeros(len(x), dtype=np.intp), x, y)
        return sx, sy


@dataclass(frozen=True, eq=False)
class Regions:
    """The legal regions of many shooters (any games, any seats) as arrays: region ``k``
    is the area ``areas[area[k]]`` and the discs ``discs[k]``.

    Build one from :class:`Region` objects with :meth:`of`, or for many games at once
    from their arrays (:func:`carromlab.rules.arrays.placement_regions`).

    Parameters
    ----------
    areas : tuple of Area
        The distinct areas.
    area : numpy.ndarray of intp, shape (R,)
        Area of each region (index into ``areas``).
    discs : numpy.ndarray, shape (R, K, 4)
        The discs each region's striker must keep clear of: rows ``x``, ``y``,
        ``radius``, ``margin`` (m, as in :meth:`Region.discs <carromlab.rules.Region.discs>`); unused rows lie at
        ``x = inf`` (and ``y``, ``radius``, ``margin`` 0).
    """

    areas: tuple[Area, ...]
    area: npt.NDArray[np.intp]
    discs: FloatArray

    @classmethod
    def of(cls, regions: Sequence[Region]) -> Regions:
        """The regions as arrays, in order."""
        rows = [r.discs() for r in regions]
        discs = np.zeros((len(rows), max((len(d) for d in rows), default=0), 4))
        discs[..., 0] = np.inf
        for k, d in enumerate(rows):
            discs[k, : len(d)] = d
        index: dict[int, int] = {}
        area = np.array([index.setdefault(id(r.area), len(index)) for r in regions], dtype=np.intp)
        areas = {id(r.area): r.area for r in regions}
        return cls(tuple(areas.values()), area, discs)

    @classmethod
    def concat(cls, parts: Sequence[Regions]) -> Regions:
        """The regions of several parts, one after another."""
        index: dict[int, int] = {}
        areas = {id(a): a for p in parts for a in p.areas}
        for key in areas:
            index.setdefault(key, len(index))
        area = np.concatenate([np.array([index[id(a)] for a in p.areas], dtype=np.intp)[p.area] for p in parts])
        width = max(p.discs.shape[1] for p in parts)
        discs = np.zeros((len(area), width, 4))
        discs[..., 0] = np.inf
        start = 0
        for p in parts:
            discs[start : start + len(p.area), : p.discs.shape[1]] = p.discs
            start += len(p.area)
        return cls(tuple(areas.values()), area, discs)

    def take(self, rows: npt.ArrayLike) -> Regions:
        """The regions of ``rows``, in that order."""
        rows = np.asarray(rows, dtype=np.intp)
        return Regions(self.areas, self.area[rows], self.discs[rows])


def nearest_spots(
    regions: Regions | Sequence[Region], which: npt.ArrayLike, x: npt.ArrayLike, y: npt.ArrayLike, *, search: bool = True
) -> tuple[FloatArray, FloatArray, npt.NDArray[np.bool_]]:
    """The nearest legal spots of many centres, each in its own region (any games, any
    shooters), on arrays.

    Query ``q`` is the centre (x[q], y[q]) in region ``regions[which[q]]``. A legal
    centre is its own spot. For the others, the nearest candidate of the region's area
    that meets the area's constraints and clears the region's discs is refined by 40
    bisection steps towards the centre (see ``PlacementCheck.distance``). The work
    is shared: the candidates' constraints on the marks are evaluated once per area
    (cached), and the nearest clear candidate of each centre is found by a scan of the
    candidates sorted once per area (:attr:`~carromlab.rules.placement.Area.sweep`) outward from the centre.

    Parameters
    ----------
    regions : Regions or sequence of Region
        The regions.
    which : array_like of int, shape (Q,)
        Region of each query.
    x, y : array_like, shape (Q,)
        The centres, m.
    search : bool
        Find the spots (default); False only tells which centres are legal.

    Returns
    -------
    x, y : numpy.ndarray, shape (Q,)
        The spots, m: the centre where legal, NaN where the region has no legal spot
        (the centres themselves when ``search`` is False).
    legal : numpy.ndarray of bool, shape (Q,)
        Whether each centre was legal.
    """
    which = np.asarray(which, dtype=np.intp)
    sx, sy = np.array(x, dtype=float).ravel(), np.array(y, dtype=float).ravel()
    if not isinstance(regions, Regions):
        regions = Regions.of(regions)
    of_query = regions.area[which]
    groups = [(area, q) for a, area in enumerate(regions.areas) if (q := np.flatnonzero(of_query == a)).size]
    # only the centres on the marks are tested against the discs of their regions (compiled)
    on = np.zeros(sx.shape, dtype=bool)
    for area, q in groups:
        on[q] = area.legal(sx[q], sy[q])
    ok = on.copy()
    q = np.flatnonzero(on)
    radius = np.array([area.radius for area in regions.areas])[of_query[q]]
    ok[q] = clear(sx[q], sy[q], which[q], np.ascontiguousarray(regions.discs), radius)
    if not search or ok.all():
        return sx, sy, ok
    for area, q in groups:
        q = q[~ok[q]]
        if q.size:
            sx[q], sy[q] = _search(area, sx[q], sy[q], which[q], regions.discs)
    return sx, sy, ok


def _nearest_clear(
    area: Area, qx: FloatArray, qy: FloatArray, disc_x: FloatArray, disc_y: FloatArray, reach: FloatArray,
    centres: FloatArray,
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_]]:
    """Index into ``area.allowed`` of the candidate nearest each centre ``(qx[q], qy[q])``
    among those clearing its discs, centred at ``(disc_x[q], disc_y[q])`` (m, C-ordered;
    padding at infinity; ``centres`` the two stacked) and to be kept ``reach[q]`` (m)
    away (as ``carromlab.rules._placement.reaching`` gives them), ties to the lowest
    index, and whether any does.

    A candidate is blocked when its squared distance to a disc less the squared reach
    is below 1e-15 m^2: one within round-off of a disc's reach may be taken for
    blocked; the bisection tests with ``carromlab.rules.spots.clear_of``'s own
    comparison. The compiled scan
    (:func:`carromlab.rules._placement.nearest_clear`) walks :attr:`~carromlab.rules.placement.Area.sweep` outward
    from each centre and stops where the offset along the sweep alone is farther than
    the best clear candidate; it steps over the candidates nearer a centre than its
    :func:`~carromlab.rules.spots.clear_distance` less 1e-9 m (all blocked, as in
    :func:`~carromlab.rules.spots.nearest_free_spots`)."""
    key, other, order, runs = area.sweep
    x0, x1, y0, y1 = area.box
    swept_x = not x1 - x0 < y1 - y0  # as Area.sweep chose
    qkey, qother = (qx, qy) if swept_x else (qy, qx)
    bound = clear_distance(np.column_stack([qx, qy]), centres, reach) - 1e-9
    return nearest_clear(key, other, order, runs, swept_x, qx, qy, qkey, qother, bound, disc_x, disc_y, reach**2)


#: Bisection steps of :func:`_search`, and the numbers of them it may take at once.
_BISECTIONS, _AT_ONCE = 40, (1, 2, 4, 5, 8, 10)
#: Cost of one round of :func:`_search`'s bisection beside the centres it tests, in
#: tested centres (measured on the ONL-1 line, before its constraints were compiled: about
#: 70 us a round, 0.17 us a centre).
_ROUND_COST = 400


def _steps_at_once(n: int) -> int:
    """Bisection steps to take at once for ``n`` centres: a round that takes ``s`` steps
    tests all ``2**s - 1`` midpoints they may reach, so a few centres take many steps a
    round (fewer rounds) and many centres one (fewer tests).

    Examples
    --------
    >>> _steps_at_once(1), _steps_at_once(100), _steps_at_once(20_000)
    (8, 2, 1)
    """
    return min(_AT_ONCE, key=lambda s: _BISECTIONS // s * (_ROUND_COST + n * (2**s - 1)))


def _search(
    area: Area, qx: FloatArray, qy: FloatArray, which: npt.NDArray[np.intp], discs: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """The nearest legal spots of illegal centres of one area, centre ``q`` keeping clear
    of its region's discs ``discs[which[q]]`` (see :func:`~carromlab.rules.placement.nearest_spots`; only the discs
    reaching into the area's :attr:`~carromlab.rules.placement.Area.box` count)."""
    cx, cy = area.allowed
    if not cx.size:
        return np.full(qx.shape, np.nan), np.full(qx.shape, np.nan)
    x0, x1, y0, y1 = area.box
    # the discs whose reach extends into the box, compiled
    disc_x, disc_y, reach, centres = reaching(np.ascontiguousarray(discs), which, area.radius, x0, x1, y0, y1)
    best, found = _nearest_clear(area, qx, qy, disc_x, disc_y, reach, centres)
    bx, by = cx[best], cy[best]
    # 40 bisection steps, s at a time: every midpoint the next s steps may test is tested
    # on the area's constraints at once, then each centre's path through them is
    # followed, testing its discs on the way (the fractions are dyadic, so exactly those
    # of one step at a time, whatever s; the compiled midpoints and advance)
    dx, dy = qx - bx, qy - by
    if area.compiled is not None:  # its constraints compiled: every step in one call
        lo = bisect(bx, by, dx, dy, disc_x, disc_y, reach, *area.compiled, _BISECTIONS)
    else:
        steps = _steps_at_once(qx.size)
        px, py = np.empty(qx.size * (2**steps - 1)), np.empty(qx.size * (2**steps - 1))
        lo, width = np.zeros(qx.size), 1.0  # fractions of the way to the centre; lo is legal
        for _ in range(_BISECTIONS // steps):
            midpoints(bx, by, dx, dy, lo, width, steps, px, py)
            width = advance(area.legal(px, py).view(np.uint8), px, py, disc_x, disc_y, reach, lo, width, steps)
    sx, sy = bx + lo * (qx - bx), by + lo * (qy - by)
    sx[~found] = sy[~found] = np.nan
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
) -> tuple[Callable[..., PlacementCheck], Callable[..., tuple[float, float]], Callable[..., tuple[FloatArray, FloatArray]],
           Callable[..., Region]]:  # fmt: skip
    """Build a variant's ``check_placement``, ``snap_placement``, ``snap_placements`` and
    ``placement_region``.

    Parameters
    ----------
    rule : str
        Rule id of the variant's placement rule, for the docstrings.
    region : callable
        ``region(state, board, striker_radius) -> Region`` for the seat to shoot.

    Returns
    -------
    check_placement, snap_placement, snap_placements, placement_region : callable
        See their docstrings.
    """

    def placement_region(state: GameState, striker_radius: float, board: Board | None = None) -> Region:
        r = check_real("striker_radius", striker_radius, low=0.0, high=0.1, low_open=True, unit="m")
        check_type("board", board, (Board, type(None)))
        return region(state, state.board if board is None else board, r)

    def check_placement(
        state: GameState, x: float, y: float, striker_radius: float, board: Board | None = None
    ) -> PlacementCheck:
        x = check_real("x", x, unit="m")
        y = check_real("y", y, unit="m")
        return placement_region(state, striker_radius, board).judge(x, y)

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
        reg = placement_region(state, striker_radius, board)
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
    placement_region.__doc__ = f"""The legal striker region of ``state.shooter`` (rule {rule}), for
    :func:`carromlab.rules.placement.nearest_spots` (many games at once).

    Parameters
    ----------
    state : GameState
        The state; the seat to shoot is ``state.shooter``.
    striker_radius : float
        Radius of the striker (crokinole: the disc played), m, in (0, 0.1].
    board : Board, optional
        Board whose marks are used. Default ``state.board``.

    Returns
    -------
    Region
    """
    return check_placement, snap_placement, snap_placements, placement_region
