"""Shot-success maps and margins of error.

A success map evaluates a goal (:mod:`carromlab.analysis.goals`) over a grid of nominal
shots (:class:`ShotGrid`), each played ``replicas`` times with execution noise
(:class:`NoiseModel`): one row per cell with the success probability and its binomial
confidence interval.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from .._angles import with_deg_columns
from .._validation import check_choice, check_int, check_real, check_table, check_type
from ..engine.scene import Scene
from ..physics.params import PhysicsParams
from .aiming import target_geometry
from .execution import Execution, build_execution, check_scene
from .goals import Goal, check_goal
from .grid import ShotGrid
from .noise import NoiseModel
from .placement import StrikerLine
from .stats import CI_METHODS, WIDE_INTERVAL, binomial_ci, check_confidence
from .store import sweep_manifest
from .sweep import check_backend, run_sweep

__all__ = ["success_map", "margin_of_error"]

_CELL_COLUMNS = ("cell", "placement", "x", "y", "aim", "angle", "speed", "spin")
#: The radian columns of a margin_of_error table, each followed by its ``_deg`` twin.
_MARGIN_ANGLES = ("best_aim", "best_angle", "aim_low", "aim_high", "aim_window", "margin", "cut")


@dataclass(frozen=True, eq=False)
class SuccessTask:
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


class _SuccessMap(pd.DataFrame):
    """A :func:`success_map` table that Jupyter shows as the map on the board (hatched
    where a rate's interval is wide) beside a summary, above its first rows, with
    :meth:`ranking` and :meth:`replay`; operations on it return plain DataFrames."""

    _metadata = ["scene", "task"]

    @property
    def _constructor(self) -> type[pd.DataFrame]:
        return pd.DataFrame

    def ranking(self, top: int | None = None) -> pd.DataFrame:
        """Cells from best to worst by ``p_success`` (ties: higher ``ci_low``, i.e. more
        valid replicas, then cell order; cells without valid replicas last), with a
        ``rank`` column (1 = best); the ``top`` best if given, >= 1.

        Examples
        --------
        >>> import pandas as pd
        >>> from carromlab import Board, Scene
        >>> from carromlab.analysis import PocketPiece, ShotGrid, NoiseModel
        >>> scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [0.25], "y": [0.25]}))
        >>> grid = ShotGrid(placement=[0.0], angle=[0.0, 0.3], speed=[3.0], aim="ghost")
        >>> df = success_map(scene, PocketPiece(0, "ne"), grid, noise=NoiseModel.preset("none"), replicas=4, progress=False)
        >>> df.ranking()[["rank", "cell", "p_success"]].to_dict("list")
        {'rank': [1, 2], 'cell': [0, 1], 'p_success': [1.0, 0.0]}
        """
        order = pd.DataFrame(self).sort_values(["p_success", "ci_low"], ascending=False, kind="stable", na_position="last")
        order = order.reset_index(drop=True)
        order.insert(0, "rank", np.arange(1, len(order) + 1))
        return order if top is None else order.head(check_int("top", top, low=1))

    def replay(
        self, top: int = 1, *, replicas: int = 4000, confidence: float | None = None, workers: int | None = None,
        progress: bool = True,
    ) -> pd.DataFrame:
        """The ``top`` best cells of :meth:`ranking` played again with fresh noise.

        The largest of many noisy success rates is biased upwards (the winner's curse): the
        ranking picks the cell whose replicas happened to be lucky as well as good, so its
        ``p_success`` overstates the cell's success probability, and its interval, made
        for one cell looked at alone, misses it more often than it says. Among 30 cells of
        equal probability 0.5 played 100 times each, the best rate is 0.10 too high on
        average (two standard errors of a cell) and its 95 % interval misses the
        probability about half the time. The replay plays the chosen cells with noise
        streams that played no part in choosing them (:meth:`.Execution.fresh`), with the
        map's goal, noise and physics: an unbiased estimate of each, as
        :meth:`.BreakStudy.replay` does for breaks.

        Parameters
        ----------
        top : int
            Cells to replay, the best first, >= 1. Default 1.
        replicas : int
            Fresh noisy shots per cell, in [1, 2**21]. Default 4000 (a 95 % interval of
            about +-0.015 around p = 0.5), as the shot planner's fresh stage
            (:func:`.plan_shots`).
        confidence : float, optional
            Level of the interval, in (0, 1). Default the map's ``confidence``; the
            interval is of the map's kind (``ci``).
        workers : int, optional
            Local threads. Default all cores.
        progress : bool
            Show a progress bar for replays longer than a second. Default True.

        Returns
        -------
        pandas.DataFrame
            One row per cell, best first: ``rank``, ``p_selection`` (the map's
            ``p_success`` it was ranked by, optimistic) and the columns of the map from
            the fresh shots, among them ``p_success`` with ``ci_low``, ``ci_high``.

        Raises
        ------
        ValueError
            For a table that does not hold the map's settings (not made by
            :func:`success_map`), or an invalid ``top``, ``replicas`` or ``confidence``.

        Examples
        --------
        >>> import pandas as pd
        >>> from carromlab import Board, Scene
        >>> from carromlab.analysis import PocketPiece, ShotGrid, NoiseModel
        >>> scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [0.25], "y": [0.25]}))
        >>> grid = ShotGrid(placement=[0.0], angle=np.radians([-1.0, 0.0, 1.0]), speed=[3.0], aim="ghost")
        >>> df = success_map(scene, PocketPiece(0, "ne"), grid, noise=NoiseModel.preset("club"), replicas=20, progress=False)
        >>> again = df.replay(replicas=500)
        >>> again["rank"].tolist(), int(again["n_valid"].iat[0]), bool(again["ci_low"].iat[0] < again["ci_high"].iat[0])
        ([1], 500, True)
        """
        task = getattr(self, "task", None)
        if task is None:
            raise ValueError("The table must hold the settings that played its shots (made by success_map) to replay them.")
        ranked = self.ranking(top)
        level = check_confidence(confidence, task.confidence)
        fresh = SuccessTask(task.execution.fresh(replicas), task.goal, task.ci, level)
        cells = ranked[list(_CELL_COLUMNS)].reset_index(drop=True)
        again = evaluate_cells("success_map:replay", fresh, cells, extra={}, client=None, workers=check_backend(None, workers),
                          store=None, chunk_cells=None, progress=progress)  # fmt: skip
        again.insert(0, "p_selection", ranked["p_success"].to_numpy())
        again.insert(0, "rank", ranked["rank"].to_numpy())
        return again

    def _summary(self) -> dict[str, str]:
        n = self["n_valid"] + self["n_invalid"]
        rows = {"cells": f"{len(self)} ({self['placement'].nunique()} placements x {self['aim'].nunique()} aims x "
                         f"{self['speed'].nunique()} speeds x {self['spin'].nunique()} spins)",
                "replicas per cell": f"{int(n.max())}" if len(self) else "-"}  # fmt: skip
        p = self["p_success"].to_numpy(dtype=float)
        if np.isfinite(p).any():
            best = self.ranking(1).iloc[0]
            task = getattr(self, "task", None)  # the level is the map's; a table without it names none
            level = f"{100 * task.confidence:g} % CI" if task is not None else "CI"
            rows["best cell"] = (f"p(success) {best['p_success']:.3f} [{level} {best['ci_low']:.3f}, {best['ci_high']:.3f}] "
                                 f"at placement {best['placement']:+.3f} m, aim {best['aim_deg']:+.2f} deg "
                                 f"(direction of travel {best['angle_deg']:.2f} deg), {best['speed']:g} m/s"
                                 + (f"; the best of {len(self)} cells, so optimistic: .replay() plays it again with "
                                    "fresh noise for an unbiased estimate" if len(self) > 1 else ""))  # fmt: skip
            width = (self["ci_high"] - self["ci_low"]).to_numpy(dtype=float)
            rows[f"{level} widths"] = (f"{np.nanmin(width):.3f} to {np.nanmax(width):.3f} (median {np.nanmedian(width):.3f}); "
                                       f"{int((width > WIDE_INTERVAL).sum())} of {len(self)} cells wider than {WIDE_INTERVAL:g} (the board "
                                       "hatches such wedges)")  # fmt: skip
            rows["cells with p(success) >= 0.5"] = f"{int((p >= 0.5).sum())} of {len(self)}"
            rows["mean foul rate"] = f"{np.nanmean(self['p_foul'].to_numpy(dtype=float)):.1%}"
        return rows

    def _repr_html_(self) -> str | None:
        from ..plotting.analysis import plot_success_board
        from ..plotting.display import figure_png, rich_html

        if self.empty or getattr(self, "scene", None) is None:
            return super()._repr_html_()

        def draw(ax: Any) -> None:
            plot_success_board(self, self.scene, ax=ax)
            ax.set_axis_off()
            ax.set_title("")

        # each rate beside the valid shots it is made of and its interval, the best cells first
        columns = [c for c in ("placement", "aim_deg", "angle_deg", "speed", "spin", "n_valid", "p_success", "ci_low", "ci_high",
                               "p_foul") if c in self]  # fmt: skip
        best = pd.DataFrame(self[columns]).sort_values("p_success", ascending=False, kind="stable")
        return rich_html(f"success map on {self.scene!r} (the best of its {len(self)} cells below)", self._summary(),
                         picture=figure_png(draw), table=best)  # fmt: skip


def evaluate_cells(
    analysis: str,
    task: SuccessTask,
    cells: pd.DataFrame,
    *,
    extra: dict[str, Any],
    client: Any,
    workers: int,
    store: str | os.PathLike[str] | None,
    chunk_cells: int | None,
    progress: bool,
) -> pd.DataFrame:
    execution = task.execution
    parameters = {"execution": execution, "goal": task.goal, "ci": task.ci, "confidence": task.confidence, **extra}
    manifest = {} if store is None else sweep_manifest(execution.seed, parameters)  # described only for a store
    return run_sweep(
        analysis, task, cells, manifest=manifest, replicas=execution.replicas, chunk_cells=chunk_cells,
        client=client, workers=workers, store=store, progress=progress,
    )  # fmt: skip


def _check_goal(goal: Any, scene: Scene) -> Goal:
    check_scene(scene)
    check_goal(goal)
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
        inputs skips the chunks already written, and runs sharing the directory (two
        notebooks) compute each chunk once (see "Running big sweeps" in docs/analysis.md).
        Default None (memory only).
    chunk_cells : int, optional
        Cells per chunk. Default enough for about 65,536 shots.
    progress : bool
        Show a progress bar for runs longer than a second. Default True.

    Returns
    -------
    pandas.DataFrame
        A DataFrame that Jupyter displays as the map drawn on the board, its wedges
        hatched where the interval is wider than 0.2 (:func:`.plot_success_board`),
        beside a summary (cells, replicas, the best cell with its interval, the range of
        the intervals' widths and how many exceed 0.2, foul rate) above its first rows,
        each rate beside its valid replicas and interval, with two methods: ``ranking(top)``, the cells best first, and
        ``replay(top, replicas=4000)``, the best cells played again with fresh noise for
        an estimate free of their selection (the best of many noisy cells is optimistic);
        anything computed from it is a plain DataFrame.
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
    check_type("grid", grid, ShotGrid)
    check_choice("ci", ci, CI_METHODS)
    confidence = check_confidence(confidence)
    workers = check_backend(client, workers)
    execution = build_execution(
        scene, params=params, line=line, noise=noise, thumb_noise=thumb_noise, replicas=replicas,
        seed=seed, final_positions=goal.needs_final_positions,
    )  # fmt: skip
    cells = grid.cells(scene, execution.line, goal.target(scene))
    task = SuccessTask(execution, goal, ci, confidence)
    table = _SuccessMap(evaluate_cells(
        "success_map", task, cells, extra={"grid": grid}, client=client, workers=workers, store=store,
        chunk_cells=chunk_cells, progress=progress,
    ))  # fmt: skip
    table.scene, table.task = scene, task
    return table


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
    best aim is the most probable succeeding cell at any one speed; among runs of
    consecutive succeeding aims that reach the same probability, the widest (and within
    it the middle of the cells at that probability): with a zero-noise map, where every
    succeeding cell has p = 1, the middle of the widest run. The aim window is that run
    and the speed window the run of succeeding speeds through the best cell. With a zero-noise map
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
    check_table("success", success, ("placement", "x", "y", "aim", "angle", "speed", "spin", "p_success"), "a success_map DataFrame")
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
