"""The shot planner: the best shot of each route for a pocketing goal, with an honest
success probability and its aim window.

For a position and a goal (a piece into a pocket, or any own piece, without a foul),
:func:`plan_shots` lists the options by route (:data:`~carromlab.analysis.routes.ROUTES`:
direct, cut, bank, combination), each labelled from what its shot does when played
exactly (:func:`~carromlab.analysis.routes.label_shots`), with

- the success probability under the player's noise from *fresh* replicas: noise streams
  that played no part in choosing the shot, so the number is not the optimistic maximum
  of the selection stages; its Wilson 95 % interval;
- the aim window: the contiguous range of aims around the chosen one in which the success
  probability stays at or above a fraction (default half) of the option's, in rad and
  degrees.

The search (see :func:`plan_shots`) only keeps shots that succeed when played exactly
and never changes a shot's route while refining it. Its stages draw their noise with
common random numbers (every shot compared in a stage sees the same execution errors),
so shots are compared by their merits rather than by their luck.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd
from scipy.ndimage import uniform_filter

from .._angles import angle_array, with_deg_columns
from .._validation import check_int, check_real, check_sequence
from ..engine.scene import Scene
from ..physics.params import PhysicsParams
from ._random import MAX_REPLICAS
from .aiming import wrap_angle
from .execution import Execution, build_execution, check_scene
from .goals import Goal, PocketAny, PocketPiece, check_goal
from .grid import ShotGrid
from .noise import NoiseModel
from .placement import StrikerLine
from .routes import ROUTES, label_shots
from .stats import check_confidence
from .success import evaluate_cells, SuccessTask
from .sweep import check_backend

__all__ = ["plan_shots"]

#: The label columns of an option, from :func:`label_shots` on its exact shot.
_LABELS = ("striker_first", "first_contact", "first_contact_kind", "touched", "fell", "cut")
#: Radian columns of the plan, each followed by its ``_deg`` twin.
_ANGLES = ("angle", "aim_low", "aim_high", "aim_window", "margin", "cut")
#: Stage numbers keying the noise streams (with the seed): each stage draws its own.
_COARSE, _REFINE, _SELECT, _FRESH, _WINDOW = 0, 1, 100, 101, 102
#: Moves of a candidate at one step size before the step halves.
_MOVES = 3


def _pivot(scene: Scene, cells: pd.DataFrame, first_contact: np.ndarray) -> np.ndarray:
    """(n, 2) points the refinement keeps the aim on when it moves the placement: the centre
    of the piece struck first, or (bank shots) where the straight path meets the cushion."""
    xy = cells[["x", "y"]].to_numpy(dtype=float)
    th = cells["angle"].to_numpy(dtype=float)
    d = np.stack([np.cos(th), np.sin(th)], axis=1)
    lim = scene.board.half_size - (scene.specs[scene.striker].radius if scene.board.shape == "square" else 0.0)
    if scene.board.shape == "square":
        with np.errstate(divide="ignore"):
            t = np.min(np.where(d != 0, (np.sign(d) * lim - xy) / d, np.inf), axis=1)
    else:
        b = np.sum(xy * d, axis=1)
        t = -b + np.sqrt(np.maximum(b * b - np.sum(xy * xy, axis=1) + lim * lim, 0.0))
    out = xy + t[:, None] * d
    hit = first_contact >= 0
    out[hit] = scene.arrays["xy"][first_contact[hit]]
    return out


class _Planner:
    """The stages of one plan: evaluation with common random numbers and exact labels."""

    def __init__(self, task: SuccessTask, options: dict[str, Any], workers: int) -> None:
        self.task, self.options, self.workers = task, options, workers

    @property
    def execution(self) -> Execution:
        return self.task.execution

    @property
    def goal(self) -> Goal:
        return self.task.goal

    def rates(self, cells: pd.DataFrame, replicas: int, stage: int, key: np.ndarray) -> pd.DataFrame:
        """success_map rows of cells; ``key`` (one int per cell) keys their noise, so cells
        sharing a key see the same execution errors."""
        ex = replace(self.execution, replicas=replicas, seed=(self.execution.seed, stage))
        keyed = cells.assign(cell=np.asarray(key, dtype=np.int64))
        return evaluate_cells(f"plan_shots:{stage}", replace(self.task, execution=ex), keyed, extra={}, store=None, chunk_cells=None,
                         **self.options)  # fmt: skip

    def labels(self, cells: pd.DataFrame) -> pd.DataFrame:
        return label_shots(self.execution.scene, self.goal, cells, self.execution.params, workers=self.workers)

    def cells_at(self, u: np.ndarray, angle: np.ndarray, speed: np.ndarray, spin: np.ndarray) -> pd.DataFrame:
        x, y = self.execution.line.point(u, 0.0)
        return pd.DataFrame({"cell": np.arange(len(u)), "placement": u, "x": x, "y": y, "aim": angle, "angle": angle,
                             "speed": speed, "spin": spin})  # fmt: skip


def _distinct(u: np.ndarray, a: np.ndarray, order: np.ndarray, n: int, du: float, da: float) -> list[int]:
    """Greedy pick of up to n indices in ``order`` whose (placement, direction) differ from
    every one picked before by more than du (m) or da (rad)."""
    picked: list[int] = []
    for k in order:
        if all(abs(u[k] - u[q]) > du or abs(wrap_angle(a[k] - a[q])) > da for q in picked):
            picked.append(int(k))
            if len(picked) == n:
                break
    return picked


def _steps(values: Sequence[float]) -> float:
    return float(np.min(np.diff(np.sort(values)))) if len(values) > 1 else 0.0


def _window(offsets: np.ndarray, p: np.ndarray, thr: float) -> tuple[float, float]:
    """Edges (offsets, rad, linearly interpolated) of the run around offset 0 where p stays
    at or above ``thr``; NaN if offset 0 is below it. An edge at the end of the scan is the
    scan's end."""
    i0 = int(np.argmin(np.abs(offsets)))
    if thr <= 0.0 or p[i0] < thr:
        return math.nan, math.nan
    lo, hi = i0, i0
    while lo > 0 and p[lo - 1] >= thr:
        lo -= 1
    while hi < len(p) - 1 and p[hi + 1] >= thr:
        hi += 1

    def edge(inside: int, outside: int) -> float:
        if outside < 0 or outside >= len(p):
            return float(offsets[inside])
        f = (p[inside] - thr) / (p[inside] - p[outside])
        return float(offsets[inside] + f * (offsets[outside] - offsets[inside]))

    return edge(lo, lo - 1), edge(hi, hi + 1)


def plan_shots(
    scene: Scene,
    goal: PocketPiece | PocketAny,
    *,
    noise: NoiseModel | None = None,
    thumb_noise: NoiseModel | None = None,
    placement: Any = None,
    angle: Any = None,
    angle_deg: Any = None,
    speed: Any = None,
    spin: Any = (0.0,),
    routes: Sequence[str] = ROUTES,
    per_route: int = 1,
    candidates: int = 4,
    replicas: tuple[int, int, int, int] = (32, 128, 1000, 4000),
    refine: int = 3,
    window_replicas: int = 200,
    window_fraction: float = 0.5,
    params: PhysicsParams | None = None,
    line: StrikerLine | None = None,
    confidence: float = 0.95,
    seed: int = 0,
    client: Any = None,
    workers: int | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """The most forgiving shot of each route for a pocketing goal, labelled by what it
    does, with its success probability from fresh replicas and its aim window.

    The search:

    1. Every shot of a coarse grid (placement x direction over the full circle x speed x
       spin) is played exactly and labelled (:func:`label_shots`); only the shots that
       achieve the goal exactly and take one of ``routes`` stay.
    2. Those are played ``replicas[0]`` times with noise; per route, ``candidates``
       distinct shots (placement or direction apart) with the highest success rate
       (ties: the rate of their grid neighbours) start the refinement.
    3. ``refine`` rounds of a local compass search, the steps halving from the grid's
       and the replicas doubling from ``replicas[1]`` each round: each candidate moves
       (up to 3 times a round) to the best of its 3 x 3 x 3 neighbours (placement, aim,
       log speed, within the grid's speed range; the aim turning with the placement to
       stay on the piece struck first, or the cushion point of a bank) that still
       succeeds exactly by the same route.
    4. The candidates are compared on ``replicas[2]`` replicas; per route the best
       ``per_route`` distinct ones are the options.
    5. Each option is evaluated on ``replicas[3]`` fresh replicas (the probability and
       interval reported) and its aim window is scanned with ``window_replicas``
       replicas per aim.

    Every stage uses common random numbers (the shots it compares see the same errors)
    and its own noise streams. The result depends only on the inputs and ``seed``; an
    option's numbers do not change with ``per_route``.

    Parameters
    ----------
    scene : Scene
        Starting position.
    goal : PocketPiece or PocketAny
        What counts as success, fouls and opponent pieces included (see the goal's
        ``allow_foul``, ``fouls``, ``opponent`` and ``opponent_falls``; by default an
        opponent piece falling spoils the shot).
    noise, thumb_noise : NoiseModel, optional
        Execution errors of forward and backward (thumb) shots. Default
        ``NoiseModel.preset("club")``; ``thumb_noise`` defaults to ``noise``.
    placement : array_like, optional
        Coarse placements along the line, m from its middle. Default 15 values over the
        whole line.
    angle, angle_deg : array_like, optional
        Coarse directions, rad or degrees (counter-clockwise from +x). Default every
        0.25 degrees of the full circle.
    speed : array_like, optional
        Coarse speeds, m/s. Default 8 values from 1 to 8 m/s, geometrically spaced.
    spin : array_like
        Spins, rad/s (not refined). Default (0,).
    routes : sequence of str
        Routes to plan, a subset of :data:`~carromlab.analysis.routes.ROUTES`. Default all.
    per_route : int
        Options per route, in [1, candidates]. Default 1.
    candidates : int
        Shots refined per route, in [1, 50]. Default 4.
    replicas : tuple of 4 int
        Replicas per shot of the coarse stage, the first refinement round (doubling each
        round), the comparison and the fresh evaluation, each in [1, 2**21]. Default
        (32, 128, 1000, 4000).
    refine : int
        Refinement rounds, in [0, 10]. Default 3.
    window_replicas : int
        Replicas per aim of the aim-window scan, in [1, 2**21]. Default 200.
    window_fraction : float
        The window holds the aims around the option's whose success probability is at
        least this fraction of the option's, in (0, 1). Default 0.5 (for a plateau blurred
        by the aim noise, the half-height edges are the edges of the exact window).
    params : PhysicsParams, optional
        Physics. Default ``PhysicsParams()``.
    line : StrikerLine, optional
        Placement line. Default the south line of the board.
    confidence : float
        Level of the Wilson interval, in (0, 1). Default 0.95.
    seed : int
        Seed of the noise, >= 0. Default 0.
    client, workers, progress
        As in :func:`~carromlab.analysis.success_map`.

    Returns
    -------
    pandas.DataFrame
        One row per option, best first: ``rank``; ``route``; ``p_success``, ``ci_low``,
        ``ci_high`` (fresh replicas), ``n_valid``, ``n_invalid``, ``p_foul``;
        ``p_selection`` (the comparison stage's rate, for reference: optimistic);
        the shot ``placement`` (m), ``x``, ``y`` (m), ``angle`` (rad), ``speed`` (m/s),
        ``spin`` (rad/s), ``technique`` (``"forward"``, or ``"backward"`` for a thumb
        shot aimed more than 90 degrees from the shooter's forward direction); the aim
        window ``aim_low``, ``aim_high`` (directions, rad), ``aim_window`` (its width,
        rad), ``margin`` (rad, the smaller distance from the aim to an edge),
        ``window_threshold`` (the probability an aim needs, ``window_fraction *
        p_success``); the exact shot's labels
        ``striker_first``, ``first_contact``, ``first_contact_kind``, ``touched``,
        ``fell``, ``cut`` (rad). Every radian column is followed by its ``_deg`` twin.
        Routes without a shot that succeeds exactly have no row.

    Raises
    ------
    ValueError
        For an invalid input; the message names the parameter.

    Examples
    --------
    >>> import pandas as pd
    >>> from carromlab import Board, Scene
    >>> from carromlab.analysis import NoiseModel, PocketPiece
    >>> scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [0.25], "y": [0.25]}))
    >>> plan = plan_shots(scene, PocketPiece(0, "ne"), noise=NoiseModel.preset("expert"), routes=["direct", "cut"],
    ...                   placement=[0.0, 0.1], angle_deg=range(30, 80), speed=[2.5, 3.5],
    ...                   replicas=(8, 16, 32, 200), refine=1, window_replicas=50, progress=False)
    >>> plan["route"].tolist(), bool(plan["p_success"].iat[0] > 0.5), bool(plan["aim_window_deg"].iat[0] > 0)
    (['cut'], True, True)
    """
    check_goal(goal, (PocketPiece, PocketAny), hint="a pocketing goal")
    goal.check(check_scene(scene))
    routes = check_sequence("routes", routes, str, what=f"a sequence of routes of {list(ROUTES)}")
    for r in routes:
        if r not in ROUTES:
            raise ValueError(f"The 'routes' parameter must contain routes of {list(ROUTES)}. Got {r!r} instead.")
    candidates = check_int("candidates", candidates, low=1, high=50)
    per_route = check_int("per_route", per_route, low=1, high=candidates)
    refine = check_int("refine", refine, low=0, high=10)
    replicas = check_sequence("replicas", replicas, length=4, what="a sequence of 4 ints (coarse, refine, compare, fresh)")
    replicas = tuple(check_int(f"replicas[{name}]", r, low=1, high=MAX_REPLICAS) for name, r in zip(("coarse", "refine", "compare", "fresh"), replicas))
    window_replicas = check_int("window_replicas", window_replicas, low=1, high=MAX_REPLICAS)
    window_fraction = check_real("window_fraction", window_fraction, low=0.0, high=1.0, low_open=True, high_open=True)
    confidence = check_confidence(confidence)
    n_workers = check_backend(client, workers)
    execution = build_execution(
        scene, params=params, line=line, noise=noise, thumb_noise=thumb_noise, replicas=replicas[0], seed=seed,
        final_positions=goal.needs_final_positions,
    )  # fmt: skip
    h = execution.line.half_length
    angles = angle_array("angle", angle, angle_deg, required=False)
    grid = ShotGrid(
        placement=np.linspace(-h, h, 15) if placement is None else placement,
        angle=np.radians(np.arange(-180.0, 180.0, 0.25)) if angles is None else angles,
        speed=np.geomspace(1.0, 8.0, 8) if speed is None else speed,
        spin=spin,
    )
    options = {"client": client, "workers": n_workers, "progress": progress}
    plan = _Planner(SuccessTask(execution, goal, "wilson", confidence), options, n_workers)
    columns = ["rank", "route", "p_success", "ci_low", "ci_high", "n_valid", "n_invalid", "p_foul", "p_selection",
               "placement", "x", "y", "angle", "speed", "spin", "technique", "aim_low", "aim_high", "aim_window",
               "margin", "window_threshold", *_LABELS]  # fmt: skip

    # 1-2: the coarse grid, played exactly, then with noise where it succeeds exactly
    cells = grid.cells(scene, execution.line)
    labels = plan.labels(cells)
    keep = np.flatnonzero(labels["success"].to_numpy() & labels["route"].isin(routes).to_numpy())
    if len(keep) == 0:
        return with_deg_columns(pd.DataFrame(columns=columns), _ANGLES)
    coarse = plan.rates(cells.iloc[keep], replicas[0], _COARSE, np.zeros(len(keep)))
    p = np.zeros(grid.n_cells)
    p[keep] = coarse["p_success"].fillna(0.0).to_numpy()
    full_circle = len(grid.angle) > 1 and _steps(grid.angle) * (len(grid.angle) + 1) >= 2 * math.pi
    smooth = uniform_filter(p.reshape(grid.shape), size=3, mode=["nearest", "wrap" if full_circle else "nearest", "nearest", "nearest"]).ravel()
    du, da = _steps(grid.placement), _steps(grid.angle)
    dl = _steps(np.log(grid.speed))
    u_all, a_all = cells["placement"].to_numpy(), cells["angle"].to_numpy()
    speed_range = (min(grid.speed), max(grid.speed))
    sep_u, sep_a = max(2 * du, 1e-9), max(2 * da, math.radians(1.0))
    seeds: list[int] = []
    seed_route: list[str] = []
    for r in routes:
        mine = keep[labels["route"].to_numpy()[keep] == r]
        order = mine[np.lexsort((-mine, smooth[mine], p[mine]))[::-1]]
        picked = _distinct(u_all, a_all, order, candidates, sep_u, sep_a)
        seeds += picked
        seed_route += [r] * len(picked)
    cur = cells.iloc[seeds][["placement", "angle", "speed", "spin"]].to_numpy(dtype=float, copy=True)
    routes_arr = np.array(seed_route)
    pivot = _pivot(scene, cells.iloc[seeds], labels["first_contact"].to_numpy()[seeds])

    # 3: compass search; offsets ordered with the centre first, so ties keep the centre
    offsets = np.array(np.meshgrid([0.0, -1.0, 1.0], [0.0, -1.0, 1.0], [0.0, -1.0, 1.0], indexing="ij")).reshape(3, -1).T
    n_off = len(offsets)
    stage = _REFINE
    for rnd in range(refine):
        scale, moving = 0.5**rnd, np.arange(len(cur))
        for _ in range(_MOVES):
            if len(moving) == 0:
                break
            c, n_seed = cur[moving], len(moving)
            u0 = np.repeat(c[:, 0], n_off)
            x0, y0 = execution.line.point(u0, 0.0)
            px, py = np.repeat(pivot[moving, 0], n_off), np.repeat(pivot[moving, 1], n_off)
            rel = c[:, 1].repeat(n_off) - np.arctan2(py - y0, px - x0)
            u = np.clip(u0 + np.tile(offsets[:, 0], n_seed) * du * scale, -h, h)
            x, y = execution.line.point(u, 0.0)
            th = np.arctan2(py - y, px - x) + rel + np.tile(offsets[:, 1], n_seed) * da * scale
            v = np.clip(c[:, 2].repeat(n_off) * np.exp(np.tile(offsets[:, 2], n_seed) * dl * scale), *speed_range)
            local = plan.cells_at(u, wrap_angle(th), v, c[:, 3].repeat(n_off))
            lab = plan.labels(local)
            ok = lab["success"].to_numpy() & (lab["route"].to_numpy() == routes_arr[moving].repeat(n_off))
            ok[::n_off] = True  # the centre stays a candidate
            score = np.full(len(local), -1.0)
            idx = np.flatnonzero(ok)
            key = moving.repeat(n_off)[idx]  # a candidate and its neighbours share their noise
            score[idx] = plan.rates(local.iloc[idx], min(replicas[1] << rnd, MAX_REPLICAS), stage, key)["p_success"].fillna(0.0).to_numpy()
            stage += 1
            best = np.argmax(score.reshape(n_seed, n_off), axis=1)
            cur[moving] = local[["placement", "angle", "speed", "spin"]].to_numpy(dtype=float)[np.arange(n_seed) * n_off + best]
            moving = moving[best != 0]

    # 4: compare the candidates; per route the best distinct ones
    final = plan.cells_at(cur[:, 0], cur[:, 1], cur[:, 2], cur[:, 3])
    compare = plan.rates(final, replicas[2], _SELECT, np.zeros(len(cur)))
    score = compare["p_success"].fillna(0.0).to_numpy()
    chosen: list[tuple[str, int, int]] = []  # (route, rank within the route, candidate)
    for r in routes:
        mine = np.flatnonzero(routes_arr == r)
        order = mine[np.lexsort((-mine, score[mine]))[::-1]]
        picked = _distinct(cur[:, 0], cur[:, 1], order, per_route, sep_u, sep_a)
        chosen += [(r, k, q) for k, q in enumerate(picked)]
    pick = np.array([q for _, _, q in chosen])
    key = np.array([ROUTES.index(r) * 64 + k for r, k, _ in chosen])  # an option's noise: its route and rank in it

    # 5: fresh replicas, labels of the exact shots, aim windows
    shots = final.iloc[pick].reset_index(drop=True)
    fresh = plan.rates(shots, replicas[3], _FRESH, key)
    out = shots[["placement", "x", "y", "angle", "speed", "spin"]].copy()
    for col in ("p_success", "ci_low", "ci_high", "n_valid", "n_invalid", "p_foul"):
        out[col] = fresh[col].to_numpy()
    out["route"] = [r for r, _, _ in chosen]
    out["p_selection"] = score[pick]
    backward = np.abs(wrap_angle(out["angle"].to_numpy() - execution.line.forward_angle)) > np.pi / 2
    out["technique"] = np.where(backward, "backward", "forward")
    lab = plan.labels(shots)
    for col in _LABELS:
        out[col] = lab[col].to_numpy()
    out["window_threshold"] = window_fraction * out["p_success"]
    windows = [
        _scan_window(plan, row, k, window_replicas, thr)
        for row, k, thr in zip(shots.itertuples(), key, out["window_threshold"])
    ]  # fmt: skip
    out["aim_low"], out["aim_high"] = (np.array(w) for w in zip(*windows))
    out["aim_window"] = out["aim_high"] - out["aim_low"]
    out["margin"] = np.minimum(out["angle"] - out["aim_low"], out["aim_high"] - out["angle"])
    order = np.lexsort((key, -out["p_success"].fillna(-1.0).to_numpy()))
    out = out.iloc[order].reset_index(drop=True)
    out["rank"] = np.arange(1, len(out) + 1)
    return with_deg_columns(out[columns], _ANGLES)


def _scan_window(plan: _Planner, shot: Any, key: int, replicas: int, thr: float) -> tuple[float, float]:
    """Aim window (low, high directions, rad) of one option: its aim varied over +-W around
    the chosen one (W from 3 degrees, doubled while the window reaches the scan's end, up
    to 48 degrees) with the placement, speed and spin kept; the aims whose success
    probability is at least ``thr``."""
    half = math.radians(3.0)
    while True:
        offsets = np.linspace(-half, half, 41)
        n = len(offsets)
        cells = plan.cells_at(np.full(n, shot.placement), shot.angle + offsets, np.full(n, shot.speed), np.full(n, shot.spin))
        p = plan.rates(cells, replicas, _WINDOW, np.full(n, key))["p_success"].fillna(0.0).to_numpy()
        lo, hi = _window(offsets, p, thr)
        if not (lo <= -half or hi >= half) or half >= math.radians(48.0):
            return shot.angle + lo, shot.angle + hi
        half *= 2
