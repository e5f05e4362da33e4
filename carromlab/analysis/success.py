"""Shot-success maps, margins of error and the most forgiving shot.

A success map evaluates a goal (:mod:`carromlab.analysis.goals`) over a grid of nominal
shots (:class:`ShotGrid`), each played ``replicas`` times with execution noise
(:class:`NoiseModel`): one row per cell with the success probability and its binomial
confidence interval.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy.ndimage import uniform_filter

from .. import __version__
from .._angles import with_deg_columns
from .._validation import check_choice, check_int, check_real
from ..engine.scene import MAX_SPEED, Scene, Shot
from ..engine.simulate import simulate
from ..physics.params import PhysicsParams
from ._random import MAX_REPLICAS
from .aiming import target_geometry, wrap_angle
from .execution import Execution, build_execution, placement_clear
from .goals import Goal
from .grid import ShotGrid
from .noise import NoiseModel
from .placement import StrikerLine
from .stats import CI_METHODS, binomial_ci
from .store import describe
from .sweep import check_backend, run_sweep

__all__ = ["success_map", "margin_of_error", "most_forgiving_shots"]

_CELL_COLUMNS = ("cell", "placement", "x", "y", "aim", "angle", "speed", "spin")
#: The radian columns of a margin_of_error table, each followed by its ``_deg`` twin.
_MARGIN_ANGLES = ("best_aim", "best_angle", "aim_low", "aim_high", "aim_window", "margin", "cut")


@dataclass(frozen=True, eq=False)
class _SuccessTask:
    """Evaluates a goal on the noisy replicas of a block of cells (one row per cell)."""

    execution: Execution
    goal: Goal
    ci: str
    confidence: float

    def __call__(self, cells: pd.DataFrame, workers: int) -> pd.DataFrame:
        ex = self.execution.run(cells, workers)
        scene, batch = self.execution.scene, ex.batch
        out = self.goal.evaluate(scene, batch)
        m, r = len(cells), self.execution.replicas
        local = np.repeat(np.arange(m), r)[ex.replicas["valid"].to_numpy()]

        def count(flags: npt.ArrayLike) -> np.ndarray:
            return np.bincount(local, weights=np.asarray(flags, dtype=float), minlength=m)

        n_valid = np.bincount(local, minlength=m)
        pocketed = np.bitwise_count(batch["pocketed_mask"].to_numpy() & ~np.uint64(1 << scene.n_pieces))
        n_success = count(out.success).astype(np.int64)
        with np.errstate(invalid="ignore", divide="ignore"):
            rate = {
                "p_success": n_success / n_valid,
                "p_foul": count(out.foul) / n_valid,
                "p_striker_pocketed": count(batch["striker_pocketed"]) / n_valid,
                "p_no_contact": count(batch["first_contact"].to_numpy() < 0) / n_valid,
                "mean_value": count(out.value) / n_valid,
                "mean_pocketed": count(pocketed) / n_valid,
            }
        low, high = binomial_ci(n_success, n_valid, method=self.ci, confidence=self.confidence)
        rows = cells.loc[:, list(_CELL_COLUMNS)].copy()
        target = self.goal.target(scene)
        if target is not None:
            geo = target_geometry(scene, target, cells["x"], cells["y"], cells["angle"])
            for col in geo.columns:
                rows[col] = geo[col].to_numpy()
        rows["n_valid"] = n_valid.astype(np.int64)
        rows["n_invalid"] = (r - n_valid).astype(np.int64)
        rows["n_success"] = n_success
        rows["p_success"] = rate.pop("p_success")
        rows["ci_low"], rows["ci_high"] = low, high
        for name, values in rate.items():
            rows[name] = values
        rows["n_truncated"] = count(batch["truncated"]).astype(np.int64)
        return with_deg_columns(rows, ("aim", "angle"))


def _evaluate(
    analysis: str,
    execution: Execution,
    goal: Goal,
    cells: pd.DataFrame,
    *,
    ci: str,
    confidence: float,
    extra: dict[str, Any],
    client: Any,
    workers: int,
    store: str | os.PathLike[str] | None,
    chunk_cells: int | None,
    progress: bool,
) -> pd.DataFrame:
    task = _SuccessTask(execution, goal, ci, confidence)
    manifest = {
        "carromlab_version": __version__,
        "seed": describe(execution.seed),
        "parameters": {"execution": describe(execution), "goal": describe(goal), "ci": ci, "confidence": confidence, **extra},
    }
    return run_sweep(
        analysis, task, cells, manifest=manifest, replicas=execution.replicas, chunk_cells=chunk_cells,
        client=client, workers=workers, store=store, progress=progress,
    )  # fmt: skip


def _check_goal(goal: Any, scene: Scene) -> Goal:
    if not isinstance(goal, Goal):
        raise ValueError(f"The 'goal' parameter must follow the Goal protocol (e.g. PocketPiece). Got {goal!r} instead.")
    goal.check(scene)
    return goal


def success_map(
    scene: Scene,
    goal: Goal,
    grid: ShotGrid,
    *,
    noise: NoiseModel | None = None,
    thumb_noise: NoiseModel | None = None,
    replicas: int = 100,
    params: PhysicsParams | None = None,
    line: StrikerLine | None = None,
    ci: str = "wilson",
    confidence: float = 0.95,
    seed: int = 0,
    client: Any = None,
    workers: int | None = None,
    store: str | os.PathLike[str] | None = None,
    chunk_cells: int | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Success probability of a goal over a grid of shots played with execution noise.

    Every cell's nominal shot is played ``replicas`` times, each with its own errors
    drawn from ``noise`` (keyed by seed, cell and replica). A noisy placement is clipped
    to the legal band of ``line``; one that still overlaps a piece is an invalid replica
    (not simulated, counted in ``n_invalid``); probabilities are over valid replicas.

    Parameters
    ----------
    scene : Scene
        Starting position.
    goal : Goal
        What counts as success (:class:`PocketPiece`, :class:`PocketAny`,
        :class:`AvoidFoul` or any object following :class:`Goal`).
    grid : ShotGrid
        Nominal shots: placement (m along ``line``) x aim (rad) x speed (m/s) x spin (rad/s).
    noise : NoiseModel, optional
        Execution errors. Default ``NoiseModel.preset("club")``.
    thumb_noise : NoiseModel, optional
        Errors of backward (thumb) shots, aimed more than 90 degrees from the line's
        forward direction. Default ``noise``.
    replicas : int
        Noisy replicas per cell, in [1, 2**21]. Default 100.
    params : PhysicsParams, optional
        Physics. Default ``PhysicsParams()``.
    line : StrikerLine, optional
        Placement line. Default the south line of the board (:meth:`StrikerLine.for_scene`).
    ci : {"wilson", "clopper-pearson"}
        Confidence interval of ``p_success`` (:func:`binomial_ci`). Default ``"wilson"``.
    confidence : float
        Level of the interval, in (0, 1). Default 0.95.
    seed : int
        Seed of the noise, >= 0. Default 0. The result depends only on the inputs and
        the seed, not on the backend, ``workers`` or ``chunk_cells``.
    client : dask.distributed.Client, optional
        Run the chunks on this Dask cluster. Default None: local threads.
    workers : int, optional
        Local threads. Default all cores (``os.cpu_count()``).
    store : str or os.PathLike, optional
        Directory of a Parquet dataset the chunks stream to; rerunning with the same
        inputs skips the chunks already written. Default None (memory only).
    chunk_cells : int, optional
        Cells per chunk. Default enough for about 65,536 shots.
    progress : bool
        Show a progress bar for runs longer than a second. Default True.

    Returns
    -------
    pandas.DataFrame
        One row per cell, in cell order: ``cell``; the nominal shot ``placement`` (m),
        ``x``, ``y`` (m), ``aim`` (the grid's angle value, rad), ``angle`` (direction,
        rad), ``speed`` (m/s), ``spin`` (rad/s); for goals with a target piece, the
        nominal geometry ``cut`` (rad, NaN if the straight path misses the target),
        every radian column followed by its twin in degrees (``aim_deg``, ``angle_deg``,
        ``cut_deg``),
        ``target_distance`` (m), ``pocket`` and ``pocket_distance`` (m), see
        :func:`target_geometry`; ``n_valid``, ``n_invalid``, ``n_success``;
        ``p_success`` with ``ci_low``, ``ci_high``; ``p_foul``, ``p_striker_pocketed``,
        ``p_no_contact``; ``mean_value`` (the goal's value); ``mean_pocketed`` (pieces
        pocketed per shot); ``n_truncated`` (shots that used up the event budget).
        Rates are NaN in a cell without valid replicas.

    Raises
    ------
    ValueError
        For an invalid input: an empty grid axis, a negative spread, a goal naming a
        piece or pocket not on the board, a placement beyond the line's ends, a store
        directory holding a different sweep; the message names the parameter.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from carromlab import Board, Scene
    >>> from carromlab.analysis import PocketPiece, ShotGrid, NoiseModel
    >>> scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [0.25], "y": [0.25]}))
    >>> grid = ShotGrid(placement=[0.0], angle=[0.0, 0.3], speed=[3.0], aim="ghost")
    >>> df = success_map(scene, PocketPiece(0, "ne"), grid, noise=NoiseModel.preset("none"),
    ...                  replicas=4, progress=False)
    >>> df["p_success"].tolist()
    [1.0, 0.0]
    """
    goal = _check_goal(goal, scene)
    if not isinstance(grid, ShotGrid):
        raise ValueError(f"The 'grid' parameter must be a ShotGrid. Got {grid!r} instead.")
    check_choice("ci", ci, CI_METHODS)
    confidence = check_real("confidence", confidence, low=0.0, high=1.0, low_open=True, high_open=True)
    workers = check_backend(client, workers)
    execution = build_execution(
        scene, params=params, line=line, noise=noise, thumb_noise=thumb_noise, replicas=replicas,
        seed=seed, final_positions=goal.needs_final_positions,
    )  # fmt: skip
    cells = grid.cells(scene, execution.line, goal.target(scene))
    return _evaluate(
        "success_map", execution, goal, cells, ci=ci, confidence=confidence, extra={"grid": describe(grid)},
        client=client, workers=workers, store=store, chunk_cells=chunk_cells, progress=progress,
    )  # fmt: skip


def _runs(ok: np.ndarray) -> list[tuple[int, int]]:
    """(start, stop) of every run of consecutive True values."""
    edges = np.diff(np.concatenate(([0], ok.astype(np.int8), [0])))
    return list(zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)))


def _run_around(ok: np.ndarray, i: int) -> tuple[int, int]:
    """First and last index of the run of True values containing index i."""
    lo, hi = i, i
    while lo > 0 and ok[lo - 1]:
        lo -= 1
    while hi < len(ok) - 1 and ok[hi + 1]:
        hi += 1
    return lo, hi


def margin_of_error(success: pd.DataFrame, *, threshold: float = 0.5) -> pd.DataFrame:
    """The best aim at each placement and the window of aim and speed around it inside
    which the shot still succeeds.

    A cell succeeds when ``p_success >= threshold``. At each placement (and spin), the
    best aim is the most probable cell of the widest run of consecutive succeeding aims
    at any one speed (the middle of tied cells); the aim window is that run and the speed
    window the run of succeeding speeds through the best cell. With a zero-noise map
    (``NoiseModel.preset("none")``, ``replicas=1``) this is the margin of error of
    billiards' aiming tables: the tolerance on each quantity alone, the others exact.
    Window edges are the outermost succeeding grid values, so a window is known to
    within one grid step.

    Parameters
    ----------
    success : pandas.DataFrame
        A :func:`success_map` result on a :class:`ShotGrid`.
    threshold : float
        Success probability a cell needs, in (0, 1]. Default 0.5.

    Returns
    -------
    pandas.DataFrame
        One row per (placement, spin): ``placement``, ``spin``, ``x``, ``y``,
        ``best_aim`` (rad, the grid's angle value), ``best_angle`` (direction, rad),
        ``best_speed`` (m/s), ``p_best``; ``aim_low``, ``aim_high``, ``aim_window``
        (rad); ``margin`` (rad, the smaller distance from the best aim to an edge of its
        window); ``speed_low``, ``speed_high``, ``speed_window`` (m/s); and, for goals
        with a target, the best shot's ``cut`` (rad), ``target_distance`` (m),
        ``pocket``, ``pocket_distance`` (m). Every radian column is followed by its twin
        in degrees (``best_aim_deg``, ``margin_deg``, ...). Windows are NaN where no cell
        succeeds.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from carromlab import Board, Scene
    >>> from carromlab.analysis import PocketPiece, ShotGrid, NoiseModel
    >>> scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [0.25], "y": [0.25]}))
    >>> grid = ShotGrid(placement=[0.0], angle=np.radians(np.linspace(-4, 4, 17)), speed=[2.5, 3.0], aim="ghost")
    >>> m = margin_of_error(success_map(scene, PocketPiece(0, "ne"), grid, noise=NoiseModel.preset("none"),
    ...                                 replicas=1, progress=False))
    >>> bool(0 < m["aim_window"].iat[0] < np.radians(8))
    True
    """
    if not isinstance(success, pd.DataFrame) or not {"placement", "aim", "speed", "spin", "p_success"} <= set(success.columns):
        raise ValueError("The 'success' parameter must be a success_map DataFrame (columns placement, aim, speed, spin, p_success).")
    thr = check_real("threshold", threshold, low=0.0, high=1.0, low_open=True)
    geometry = [c for c in ("cut", "target_distance", "pocket", "pocket_distance") if c in success.columns]
    rows = []
    for (u, w), g in success.groupby(["placement", "spin"], sort=True):
        p_table = g.pivot_table(index="aim", columns="speed", values="p_success", aggfunc="first", dropna=False)
        aims, speeds = p_table.index.to_numpy(), p_table.columns.to_numpy()
        p = np.nan_to_num(p_table.to_numpy(), nan=0.0)
        ok = p >= thr
        row: dict[str, Any] = {"placement": u, "spin": w, "x": g["x"].iat[0], "y": g["y"].iat[0]}
        best = None  # (peak, width, aim index, speed index)
        for j in range(len(speeds)):
            for a, b in _runs(ok[:, j]):
                peak = p[a:b, j].max()
                tied = a + np.flatnonzero(p[a:b, j] == peak)
                cand = (peak, aims[b - 1] - aims[a], int(tied[len(tied) // 2]), j)
                if best is None or cand[:2] > best[:2]:
                    best = cand
        if best is None:
            i, j = np.unravel_index(np.argmax(p), p.shape)
            row.update(best_aim=aims[i], best_speed=speeds[j], p_best=p[i, j])
            windows = dict.fromkeys(("aim_low", "aim_high", "aim_window", "margin", "speed_low", "speed_high", "speed_window"), np.nan)
        else:
            _, _, i, j = best
            a_lo, a_hi = _run_around(ok[:, j], i)
            s_lo, s_hi = _run_around(ok[i, :], j)
            windows = {
                "aim_low": aims[a_lo], "aim_high": aims[a_hi], "aim_window": aims[a_hi] - aims[a_lo],
                "margin": min(aims[i] - aims[a_lo], aims[a_hi] - aims[i]),
                "speed_low": speeds[s_lo], "speed_high": speeds[s_hi], "speed_window": speeds[s_hi] - speeds[s_lo],
            }  # fmt: skip
            row.update(best_aim=aims[i], best_speed=speeds[j], p_best=p[i, j])
        cell = g[(g["aim"] == row["best_aim"]) & (g["speed"] == row["best_speed"])].iloc[0]
        row["best_angle"] = cell["angle"]
        row.update(windows)
        row.update({c: cell[c] for c in geometry})
        rows.append(row)
    order = ["placement", "spin", "x", "y", "best_aim", "best_angle", "best_speed", "p_best", "aim_low", "aim_high",
             "aim_window", "margin", "speed_low", "speed_high", "speed_window", *geometry]  # fmt: skip
    return with_deg_columns(pd.DataFrame(rows, columns=order), _MARGIN_ANGLES)


def _steps(values: tuple[float, ...]) -> float:
    """Smallest spacing of a grid axis (0 for a single value)."""
    return float(np.min(np.diff(np.sort(values)))) if len(values) > 1 else 0.0


def _distinct(df: pd.DataFrame, order: np.ndarray, n: int, du: float, da: float) -> list[int]:
    """Greedy pick of up to n rows in ``order`` whose (placement, angle) differ from every
    row picked before by more than du (m) or da (rad): distinct shots, not neighbours."""
    picked: list[int] = []
    u, a = df["placement"].to_numpy(), df["angle"].to_numpy()
    for k in order:
        if all(abs(u[k] - u[q]) > du or abs(wrap_angle(a[k] - a[q])) > da for q in picked):
            picked.append(int(k))
            if len(picked) == n:
                break
    return picked


def _playable_success(df: pd.DataFrame) -> np.ndarray:
    """Success rate over all replicas, those that could not be placed counted as misses:
    the search's ranking key (a shot the player can rarely place is not forgiving)."""
    return (df["n_success"] / (df["n_valid"] + df["n_invalid"])).to_numpy(dtype=float)


def _route(scene: Scene, shot: Shot, params: PhysicsParams) -> str:
    """``"direct"`` if the striker's first impact is on a piece, ``"bank"`` if on a
    cushion, ``"none"`` if it touches nothing; ``"blocked"`` if the nominal placement
    overlaps a piece (only some noisy replicas were playable)."""
    if not placement_clear(scene, shot.x, shot.y)[0]:
        return "blocked"
    ev = simulate(scene, shot, params).events
    sid = scene.n_pieces
    hits = ev[((ev["disc"] == sid) | (ev["other"] == sid)) & ev["kind"].isin(["disc", "cushion"])]
    if hits.empty:
        return "none"
    return "bank" if hits["kind"].iat[0] == "cushion" else "direct"


def most_forgiving_shots(
    scene: Scene,
    goal: Goal,
    *,
    noise: NoiseModel | None = None,
    thumb_noise: NoiseModel | None = None,
    placement: Any = None,
    angle: Any = None,
    speed: Any = None,
    spin: Any = (0.0,),
    top_k: int = 5,
    replicas: tuple[int, int, int] = (16, 128, 1000),
    refine: int = 2,
    params: PhysicsParams | None = None,
    line: StrikerLine | None = None,
    ci: str = "wilson",
    confidence: float = 0.95,
    seed: int = 0,
    client: Any = None,
    workers: int | None = None,
    store: str | os.PathLike[str] | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """The shots most likely to succeed under a noise model, found by a coarse grid
    search and local refinement.

    1. Coarse stage: a success map over placement x absolute direction (the full circle
       by default, so bank shots off any cushion and backward/thumb shots are included)
       x speed x spin, with ``replicas[0]`` replicas per cell.
    2. ``3 * top_k`` distinct seeds (different placement or direction) are taken in order
       of success probability (ties: the smoothed probability of the neighbouring cells).
       Throughout, the search ranks by ``p_playable``, the success rate over all replicas
       with those that cannot be placed (overlapping a piece) counted as misses.
    3. ``refine`` rounds: around each seed, the 3 x 3 x 3 (x 3 with spin) cells at half the
       previous spacing are evaluated with ``replicas[1]`` replicas; each seed moves to
       its best cell.
    4. The seeds are evaluated with ``replicas[2]`` replicas and the ``top_k`` best
       distinct shots returned.

    Every stage runs through the batch engine like :func:`success_map` (same backends;
    with ``store``, stage ``s`` streams to ``<store>/stage-<s>`` and resumes).

    Parameters
    ----------
    scene : Scene
        Starting position.
    goal : Goal
        What counts as success.
    noise, thumb_noise : NoiseModel, optional
        Execution errors of forward and backward shots (see :func:`success_map`).
    placement : array_like, optional
        Coarse placements along the line, m. Default 15 values over the whole line.
    angle : array_like, optional
        Coarse directions, rad. Default every degree of the full circle.
    speed : array_like, optional
        Coarse speeds, m/s. Default 8 values from 1 to 8 m/s, geometrically spaced.
    spin : array_like
        Coarse spins, rad/s. Default (0,).
    top_k : int
        Candidates returned, in [1, 100]. Default 5.
    replicas : tuple of 3 int
        Replicas per cell of the coarse stage, the refinement rounds and the final
        evaluation. Default (16, 128, 1000).
    refine : int
        Refinement rounds, in [0, 10]. Default 2.
    params, line, ci, confidence, seed, client, workers, progress
        As in :func:`success_map`.
    store : str or os.PathLike, optional
        Parent directory of the stage stores. Default None.

    Returns
    -------
    pandas.DataFrame
        ``top_k`` rows (fewer if there are fewer distinct shots), best first: ``rank``,
        the :func:`success_map` columns of the final evaluation, ``p_playable``
        (the ranking key, see step 2), ``technique``
        (``"forward"`` or ``"backward"``: aimed more than 90 degrees from the shooter's
        forward direction, a thumb shot) and ``route`` (``"direct"``, ``"bank"`` or
        ``"none"``: what the striker's nominal path hits first; ``"blocked"`` when the
        nominal placement overlaps a piece). Shots without a playable replica are left
        out.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from carromlab import Board, Scene
    >>> from carromlab.analysis import PocketPiece, NoiseModel
    >>> scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [0.25], "y": [0.25]}))
    >>> best = most_forgiving_shots(scene, PocketPiece(0), noise=NoiseModel.preset("expert"),
    ...     placement=[0.0, 0.1], angle=np.radians(np.arange(30, 80, 2.0)), speed=[2.5, 3.5],
    ...     top_k=2, replicas=(8, 16, 64), refine=1, progress=False)
    >>> len(best), bool(best["p_success"].iat[0] > 0.5)
    (2, True)
    """
    goal = _check_goal(goal, scene)
    check_choice("ci", ci, CI_METHODS)
    confidence = check_real("confidence", confidence, low=0.0, high=1.0, low_open=True, high_open=True)
    workers = check_backend(client, workers)
    top_k = check_int("top_k", top_k, low=1, high=100)
    refine = check_int("refine", refine, low=0, high=10)
    if not isinstance(replicas, (tuple, list)) or len(replicas) != 3:
        raise ValueError(f"The 'replicas' parameter must be a tuple of 3 ints (coarse, refine, final). Got {replicas!r} instead.")
    for name, r in zip(("coarse", "refine", "final"), replicas):
        check_int(f"replicas[{name}]", r, low=1, high=MAX_REPLICAS)
    execution = build_execution(
        scene, params=params, line=line, noise=noise, thumb_noise=thumb_noise, replicas=replicas[0],
        seed=seed, final_positions=goal.needs_final_positions,
    )  # fmt: skip
    h = execution.line.half_length
    grid = ShotGrid(
        placement=np.linspace(-h, h, 15) if placement is None else placement,
        angle=np.radians(np.arange(-180.0, 180.0, 1.0)) if angle is None else angle,
        speed=np.geomspace(1.0, 8.0, 8) if speed is None else speed,
        spin=spin,
    )
    target = goal.target(scene)
    options = dict(ci=ci, confidence=confidence, client=client, workers=workers, chunk_cells=None, progress=progress)

    def stage(k: int, cells: pd.DataFrame, n: int, label: str) -> pd.DataFrame:
        ex = replace(execution, replicas=n, seed=(execution.seed, k))
        where = None if store is None else os.path.join(os.fspath(store), label)
        return _evaluate(f"most_forgiving:{label}", ex, goal, cells, extra={}, store=where, **options)  # type: ignore[arg-type]

    coarse = stage(0, grid.cells(scene, execution.line, target), replicas[0], "stage-0")
    p = _playable_success(coarse).reshape(grid.shape)
    full_circle = len(grid.angle) > 1 and _steps(grid.angle) * (len(grid.angle) + 1) >= 2 * math.pi
    smooth = uniform_filter(p, size=3, mode=["nearest", "wrap" if full_circle else "nearest", "nearest", "nearest"]).ravel()
    steps = np.array([_steps(grid.placement), _steps(grid.angle), _steps(grid.speed), _steps(grid.spin)])
    seeds = coarse.iloc[_distinct(coarse, np.lexsort((smooth, p.ravel()))[::-1], 3 * top_k, 2 * steps[0], 3 * steps[1])]
    offsets = np.array(np.meshgrid(*[[0.0, -1.0, 1.0] if s > 0 else [0.0] for s in steps], indexing="ij")).reshape(4, -1).T
    for rnd in range(1, refine + 1):
        local = seeds[["placement", "angle", "speed", "spin"]].to_numpy()[:, None, :] + offsets[None] * steps / 2**rnd
        local = local.reshape(-1, 4)
        local[:, 0] = np.clip(local[:, 0], -h, h)
        local[:, 2] = np.clip(local[:, 2], 1e-3, MAX_SPEED)
        x, y = execution.line.point(local[:, 0], 0.0)
        cells = pd.DataFrame({"cell": np.arange(len(local)), "placement": local[:, 0], "x": x, "y": y, "aim": local[:, 1],
                              "angle": local[:, 1], "speed": local[:, 2], "spin": local[:, 3]})  # fmt: skip
        res = stage(rnd, cells, replicas[1], f"stage-{rnd}")
        score = _playable_success(res).reshape(len(seeds), -1)
        seeds = res.iloc[np.arange(len(seeds)) * len(offsets) + np.argmax(score, axis=1)]  # ties keep the centre
    seeds = seeds.loc[:, list(_CELL_COLUMNS)].assign(cell=np.arange(len(seeds)))
    final = stage(refine + 1, seeds, replicas[2], "final")
    final["p_playable"] = _playable_success(final)
    order = np.lexsort((np.nan_to_num(final["ci_low"].to_numpy()), final["p_playable"].to_numpy()))[::-1]
    order = order[final["n_valid"].to_numpy()[order] > 0]  # a shot no replica could play is no candidate
    best = final.iloc[_distinct(final, order, top_k, 2 * steps[0], 3 * steps[1])].reset_index(drop=True)
    backward = np.abs(wrap_angle(best["angle"].to_numpy() - execution.line.forward_angle)) > np.pi / 2
    best.insert(0, "rank", np.arange(1, len(best) + 1))
    best["technique"] = np.where(backward, "backward", "forward")
    best["route"] = [
        _route(scene, Shot(r.x, r.y, r.angle, r.speed, r.spin), execution.params) for r in best.itertuples()
    ]
    return best
