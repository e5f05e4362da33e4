"""Plots of the analyses: success maps on the board and in parameter space, the best
shot, margins of error, break outcomes, foul probabilities by rule variant (matplotlib;
never calls ``plt.show()``)."""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import Normalize
from matplotlib.patheffects import Normal, Stroke

from .._validation import check_bool, check_choice, check_int, check_real, check_table, check_type
from ..analysis.breaks import BreakStudy
from ..analysis.fouls import ANY_FOUL
from ..analysis.stats import WIDE_INTERVAL, binomial_ci
from ..engine.scene import Scene, Shot
from ..engine.simulate import simulate
from ..physics.params import PhysicsParams
from .board import CHART_SIZE, CATEGORY_COLORS, PIECE_COLORS, axes_or_new, draw_board, draw_pieces
from .shot import plot_shot

__all__ = [
    "plot_success_board",
    "plot_parameter_heatmap",
    "plot_best_shot",
    "plot_margins",
    "plot_break_outcomes",
    "plot_break_heatmap",
    "plot_foul_probabilities",
]

#: Columns holding angles in radians: shown in degrees.
_ANGLES = ("aim", "angle", "cut", "best_aim", "best_angle", "aim_low", "aim_high", "aim_window", "margin")
_LABELS = {
    "placement": "placement along the line (m)", "aim": "aim (deg)", "angle": "direction (deg)",
    "speed": "speed (m/s)", "spin": "spin (rad/s)", "cut": "cut angle (deg)", "p_success": "success probability",
    "target_distance": "striker to target distance (m)", "pocket_distance": "target to pocket distance (m)",
}  # fmt: skip
_REDUCE = ("max", "mean", "min")
#: Views of the confidence interval of ``p_success`` on a heatmap (``interval``).
_INTERVALS = ("overlap", "width")
#: What the ``aim`` column is measured from, by the grid's aim mode (ShotGrid ``aim``).
_AIM_LABELS = {
    "absolute": "aim: direction of travel (deg from +x)",
    "ghost": "aim: offset from the ghost-disc aim (deg)",
    "cut": "aim: cut angle on the target (deg)",
    "pack": "aim: offset from the direction to the pack (deg)",
}
_WORDS = {"mean_spread": "mean spread of the pieces left (m)", "mean_score": "mean break score",
          "p_foul": "foul probability", "p_striker_pocketed": "probability the striker falls",
          "p_no_contact": "probability of no contact", "mean_pocketed": "pieces pocketed per shot (mean)",
          "mean_value": "goal value (mean)"}  # fmt: skip


def _aim_mode(table: pd.DataFrame) -> str:
    """The aim mode of a success or break table, read from its columns: ``"absolute"``
    when ``aim`` equals ``angle``; ``"cut"`` when it equals ``cut``; else ``"ghost"``
    for a table with a target (a ``pocket`` column) and ``"pack"`` without."""
    aim = table["aim"].to_numpy(dtype=float)
    if "angle" in table and np.allclose(aim, table["angle"].to_numpy(dtype=float), rtol=0.0, atol=1e-12):
        return "absolute"
    if "cut" in table and np.allclose(aim, table["cut"].to_numpy(dtype=float), rtol=0.0, atol=1e-9, equal_nan=False):
        return "cut"
    return "ghost" if "pocket" in table else "pack"


def _label(name: str, table: pd.DataFrame | None = None, aim: str | None = None) -> str:
    """Axis or colour-bar label of a column, in words with its unit."""
    if name == "aim" and table is not None:
        return _AIM_LABELS[aim or _aim_mode(table)]
    if name in _LABELS:
        return _LABELS[name]
    if name in _WORDS:
        return _WORDS[name]
    for prefix, text in (("mean_", "{} pieces pocketed per shot (mean)"), ("p_", "probability of pocketing a {}")):
        if name.startswith(prefix):
            return text.format(name[len(prefix):])
    return name


def _need(table: Any, name: str, columns: tuple[str, ...]) -> pd.DataFrame:
    """``table`` if it has ``columns`` and at least one row (an empty table, such as the
    result of a plan that found no shot, has nothing to draw), else a ValueError naming
    the parameter."""
    return check_table(name, table, columns)


def _shown(name: str, values: Any) -> np.ndarray:
    v = np.asarray(values, dtype=float)
    return np.degrees(v) if name in _ANGLES else v


def _edges(centres: np.ndarray, single: float) -> np.ndarray:
    """Cell edges around sorted centres (midpoints; half a step beyond the ends)."""
    if len(centres) == 1:
        return np.array([centres[0] - single, centres[0] + single])
    mid = 0.5 * (centres[1:] + centres[:-1])
    return np.concatenate(([2 * centres[0] - mid[0]], mid, [2 * centres[-1] - mid[-1]]))


def plot_parameter_heatmap(
    table: pd.DataFrame,
    *,
    x: str = "placement",
    y: str = "aim",
    value: str = "p_success",
    reduce: str = "max",
    aim: str | None = None,
    interval: str | None = None,
    ax: Axes | None = None,
    **kwargs: Any,
) -> Axes:
    """Heatmap of a per-cell quantity over two grid axes (the others reduced).

    Parameters
    ----------
    table : pandas.DataFrame
        One row per cell, e.g. a :func:`.success_map` result or ``BreakStudy.cells``.
    x, y : str
        Columns on the axes (angles in rad are shown in degrees). Default placement
        and aim.
    value : str
        Column coloured. Default ``"p_success"``.
    reduce : {"max", "mean", "min"}
        How cells sharing (x, y) (other speeds, spins) are combined. Default ``"max"``.
    aim : {"absolute", "ghost", "cut", "pack"}, optional
        What the ``aim`` column is measured from (the grid's aim mode), named on its
        axis. Default: read from the table (``aim`` equal to ``angle``: absolute; equal
        to ``cut``: cut; else ghost with a ``pocket`` column, pack without).
    interval : {"overlap", "width"}, optional
        Show the uncertainty of ``p_success`` (``value`` must be it), from the table's
        interval ``ci_low``, ``ci_high``: ``"overlap"`` outlines in white the cells whose
        interval overlaps the best cell's (not shown to be worse than it; the title counts
        them) and rings the best cell (highest ``p_success``, ties: higher ``ci_low``, as
        ``success_map(...).ranking()`` orders them) in red; ``"width"`` colours the
        width of each cell's interval instead of ``p_success``. With ``reduce`` "max" or
        "min", a cell's interval is that of the cell whose value is shown. Default None:
        neither.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure when omitted.
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.pcolormesh` (e.g. ``cmap="magma"``).

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        If ``interval`` is given for a ``value`` other than ``p_success``, for a table
        without ``ci_low`` and ``ci_high``, or with ``reduce="mean"`` over several cells
        of one (x, y) (a mean of rates has no interval in the table).

    Notes
    -----
    Two intervals that overlap do not show the cells to differ; the overlap of 95 %
    intervals is a conservative comparison, not a test at 5 %. The best cell of many is
    also the luckiest: its own rate is optimistic (``success_map(...).replay()``).

    Examples
    --------
    >>> df = pd.DataFrame({"placement": [0.0, 0.0, 0.1, 0.1], "aim": [0.0, 0.1] * 2, "p_success": [0.2, 0.9, 0.5, 0.4]})
    >>> ax = plot_parameter_heatmap(df)
    >>> ax.get_xlabel()
    'placement along the line (m)'
    >>> df["ci_low"], df["ci_high"] = df["p_success"] - 0.15, df["p_success"] + 0.15
    >>> print(plot_parameter_heatmap(df, interval="overlap").get_title())
    success probability
    white outline: the 1 of 4 cells whose confidence interval
    overlaps the best cell's (red ring)
    """
    _need(table, "table", (x, y, value))
    check_choice("reduce", reduce, _REDUCE)
    if aim is not None:
        check_choice("aim", aim, tuple(_AIM_LABELS))
    grid = table.pivot_table(index=y, columns=x, values=value, aggfunc=reduce, dropna=False)
    xs, ys = _shown(x, grid.columns), _shown(y, grid.index)
    xe, ye = _edges(xs, 1.0 if x in _ANGLES else 0.01), _edges(ys, 1.0 if y in _ANGLES else 0.01)
    colour, colour_label = grid.to_numpy(dtype=float), _label(value)
    if interval is not None:
        low, high, best = _intervals(table, x, y, value, reduce, interval, grid)
        words = _interval_words(table)
        if interval == "width":
            colour, colour_label = high - low, f"width of the {words} of the success probability"
    ax = axes_or_new(ax)
    style = {"cmap": "viridis", "shading": "flat", **kwargs}
    if "vmin" not in style and "norm" not in style:
        if interval == "width":
            style["vmin"] = 0.0
        elif value.startswith("p_"):
            style.update(vmin=0.0, vmax=1.0)
    mesh = ax.pcolormesh(xe, ye, colour, **style)
    if len(xs) == 1:
        ax.set_xticks(xs)
    if len(ys) == 1:
        ax.set_yticks(ys)
    ax.figure.colorbar(mesh, ax=ax, label=colour_label)
    ax.set_xlabel(_label(x, table, aim))
    ax.set_ylabel(_label(y, table, aim))
    others = [c for c in ("placement", "aim", "speed", "spin") if c in table.columns and c not in (x, y) and table[c].nunique() > 1]
    title = colour_label
    if others:
        over = f"{reduce} over {', '.join(others)}"
        title += f" (of the cell of {over})" if interval == "width" else f", {over}"
    if interval == "overlap":
        near = (high >= best["ci_low"]) & (low <= best["ci_high"])
        # white edged in black: it shows on the dark and on the light colours of the map
        ax.add_collection(LineCollection(_outline(near, xe, ye), colors="white", linewidths=1.2, zorder=3,
                                         path_effects=[Stroke(linewidth=2.4, foreground="black"), Normal()]))  # fmt: skip
        ax.plot(_shown(x, [best[x]]), _shown(y, [best[y]]), marker="o", markersize=11, markerfacecolor="none",
                markeredgecolor="red", markeredgewidth=1.5, zorder=4)  # fmt: skip
        # wrapped: on one line it ran past the axes into the neighbouring plot's title
        title += "\n" + textwrap.fill(f"white outline: the {int(near.sum())} of {near.size} cells whose {words} "
                                      "overlaps the best cell's (red ring)", 60)  # fmt: skip
    ax.set_title(title, fontsize="small")
    return ax


def _intervals(
    table: pd.DataFrame, x: str, y: str, value: str, reduce: str, interval: str, grid: pd.DataFrame
) -> tuple[np.ndarray, np.ndarray, pd.Series]:
    """``ci_low`` and ``ci_high`` of the cell shown at each (y, x) of ``grid`` (NaN where
    none is), and the best row of ``table`` (highest value, ties: higher ``ci_low``)."""
    check_choice("interval", interval, _INTERVALS)
    shown = _shown_cells(table, "table", (x, y), value, reduce)

    def at_grid(column: str) -> np.ndarray:
        return shown.pivot(index=y, columns=x, values=column).reindex(index=grid.index, columns=grid.columns).to_numpy(dtype=float)

    best = table.sort_values([value, "ci_low"], ascending=False, kind="stable", na_position="last").iloc[0]
    return at_grid("ci_low"), at_grid("ci_high"), best


def _interval_words(table: pd.DataFrame) -> str:
    """The interval of ``p_success`` named with its level, which a :func:`.success_map`
    table records ("95 % interval"), else "confidence interval"."""
    level = getattr(getattr(table, "task", None), "confidence", None)
    return f"{100 * level:g} % interval" if level is not None else "confidence interval"


def _interval_problem(table: pd.DataFrame, keys: tuple[str, str], value: str, reduce: str) -> str | None:
    """Why ``table`` holds no interval for the ``value`` drawn at each ``keys`` (a sentence
    naming what is needed), or None when it holds one."""
    if value != "p_success":
        return f"The 'interval' parameter needs value='p_success' (ci_low and ci_high are its interval). Got value={value!r} instead."
    if reduce == "mean" and table.duplicated(list(keys)).any():
        return (f"The 'interval' parameter needs reduce 'max' or 'min' where cells share ({keys[0]}, {keys[1]}): a mean of "
                "rates has no interval in the table. Got reduce='mean' instead.")  # fmt: skip
    return None


def _shown_cells(table: pd.DataFrame, name: str, keys: tuple[str, str], value: str, reduce: str) -> pd.DataFrame:
    """The row whose ``value`` is shown at each ``keys`` with ``reduce`` "max" or "min"
    (ties: higher ``ci_low``; the one row when a key has one), holding its interval
    ``ci_low``, ``ci_high``; a ValueError naming ``interval`` or ``name`` (the table's
    parameter) when the table has no interval for it."""
    problem = _interval_problem(table, keys, value, reduce)
    if problem is not None:
        raise ValueError(problem)
    _need(table, name, ("ci_low", "ci_high"))
    rank = table.sort_values([value, "ci_low"], ascending=reduce == "min", kind="stable", na_position="last")
    return rank.drop_duplicates(list(keys))


def _outline(inside: np.ndarray, xe: np.ndarray, ye: np.ndarray) -> list[list[tuple[float, float]]]:
    """Segments of the cell edges between cells inside and outside (or the map's edge) of
    a (rows = y, columns = x) mask on a mesh with edges ``xe``, ``ye``."""
    pad = np.pad(inside, 1, constant_values=False)
    segments = []
    for i, j in zip(*np.nonzero(inside)):
        if not pad[i, j + 1]:  # below
            segments.append([(xe[j], ye[i]), (xe[j + 1], ye[i])])
        if not pad[i + 2, j + 1]:  # above
            segments.append([(xe[j], ye[i + 1]), (xe[j + 1], ye[i + 1])])
        if not pad[i + 1, j]:  # left
            segments.append([(xe[j], ye[i]), (xe[j], ye[i + 1])])
        if not pad[i + 1, j + 2]:  # right
            segments.append([(xe[j + 1], ye[i]), (xe[j + 1], ye[i + 1])])
    return segments


def plot_success_board(
    success: pd.DataFrame,
    scene: Scene,
    *,
    value: str = "p_success",
    reduce: str = "max",
    placements: int = 10,
    min_value: float = 0.02,
    interval: bool | None = None,
    max_width: float = WIDE_INTERVAL,
    ax: Axes | None = None,
    **kwargs: Any,
) -> Axes:
    """A success map drawn on the board: at each placement, a fan of wedges, one per aim,
    coloured by the success probability (colour bar under the board), hatched where that
    probability is uncertain, and the best aim's path to the target.

    Parameters
    ----------
    success : pandas.DataFrame
        A :func:`.success_map` result.
    scene : Scene
        The scene of the map (board and pieces are drawn).
    value : str
        Column coloured, in [0, 1]. Default ``"p_success"``.
    reduce : {"max", "mean", "min"}
        How the speeds and spins of a (placement, aim) are combined. Default ``"max"``.
    placements : int
        Most placements drawn (evenly picked from the grid's), in [1, 200]. Default 10:
        fans of neighbouring placements must not cover each other.
    min_value : float
        Wedges below this value are left out, in [0, 1]. Default 0.02.
    interval : bool, optional
        Show the uncertainty of ``p_success`` from the table's confidence interval
        (``ci_low``, ``ci_high``, e.g. Wilson's, of the map's ``ci`` and
        ``confidence``): wedges whose interval is wider than ``max_width`` are
        cross-hatched in white, the colour bar's label says so and the title gives the
        range of the drawn wedges' interval widths and how many are hatched. With
        ``reduce`` "max" or "min" a wedge's interval is that of the cell whose value it
        shows. True requires it (``value="p_success"``, the two columns, and ``reduce``
        "max" or "min" where speeds or spins share a wedge); False draws plain wedges.
        Default None: shown when the table holds it.
    max_width : float
        Interval width above which a wedge is hatched, in [0, 1]. Default 0.2 (+-0.1):
        at 95 % a cell of 100 valid replicas stays below it at any p (its widest
        interval, at p = 0.5, is 0.19 wide), one of 20 exceeds it unless no replica or
        every replica succeeded.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure when omitted.
    **kwargs
        Passed to the :class:`~matplotlib.collections.PolyCollection` of wedges
        (e.g. ``cmap="magma"``, ``alpha=0.7``).

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    TypeError
        If ``interval`` is not a bool or None.
    ValueError
        If ``interval=True`` for a ``value`` other than ``p_success``, for a table
        without ``ci_low`` and ``ci_high``, or with ``reduce="mean"`` over several cells
        of one wedge (a mean of rates has no interval in the table).

    Notes
    -----
    A success probability is the share of a cell's valid noisy replicas that succeeded,
    so it is known only to within its interval: with 100 replicas a 95 % interval is up
    to 0.19 wide, with 20 up to 0.40. Colours that differ by less than that do not show
    two aims to differ; the hatching marks where more replicas are needed (cells whose
    replicas were invalid have fewer shots and wider intervals).

    A fan's radius is half the distance to the target when the goal has one
    (``target_distance``), else 15 % of the board; the best aim's line runs to the
    target's centre (half the board without a target).

    Examples
    --------
    >>> from carromlab import Board
    >>> from carromlab.analysis import NoiseModel, PocketPiece, ShotGrid, success_map
    >>> scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [0.25], "y": [0.25]}))
    >>> grid = ShotGrid(placement=[-0.1, 0.1], angle=np.radians([-1.0, 0.0, 1.0]), speed=[3.0], aim="ghost")
    >>> df = success_map(scene, PocketPiece(0), grid, noise=NoiseModel.preset("expert"), replicas=20, progress=False)
    >>> ax = plot_success_board(df, scene)
    >>> len(ax.collections) >= 2                      # the fans and the best-aim lines
    True
    >>> ax.get_title().splitlines()[1].endswith("wedges hatched")  # 20 replicas: wide intervals
    True
    """
    _need(success, "success", ("placement", "aim", "x", "y", "angle", value))
    check_choice("reduce", reduce, _REDUCE)
    n_show = check_int("placements", placements, low=1, high=200)
    floor = check_real("min_value", min_value, low=0.0, high=1.0)
    limit = check_real("max_width", max_width, low=0.0, high=1.0)
    keys = ("placement", "aim")
    if interval is None:  # when the table holds the interval of what is drawn
        interval = _interval_problem(success, keys, value, reduce) is None and {"ci_low", "ci_high"} <= set(success.columns)
    else:
        interval = check_bool("interval", interval)
    first = {c: "first" for c in ("x", "y", "angle", "target_distance") if c in success.columns}
    cells = success.groupby(list(keys), sort=True).agg({value: reduce, **first}).reset_index()
    if interval:
        shown_cells = _shown_cells(success, "success", keys, value, reduce)
        cells = cells.merge(shown_cells[[*keys, "ci_low", "ci_high"]], on=list(keys), how="left")
    us = np.sort(cells["placement"].unique())
    shown = us[np.unique(np.round(np.linspace(0, len(us) - 1, min(n_show, len(us)))).astype(int))]
    cells = cells[cells["placement"].isin(shown)]
    has_target = "target_distance" in cells.columns
    ax = draw_board(scene.board, ax)
    draw_pieces(scene.pieces[["kind", "x", "y"]], scene.specs, ax, alpha=0.9)
    wedges, colours, widths, best_lines = [], [], [], []
    for _, g in cells.groupby("placement", sort=True):
        g = g.sort_values("aim")
        th = g["angle"].to_numpy(dtype=float)
        edges = _edges(th, np.radians(1.0))
        x0, y0 = float(g["x"].iat[0]), float(g["y"].iat[0])
        dist = float(g["target_distance"].iat[0]) if has_target else scene.board.half_size
        radius = 0.5 * dist if has_target else 0.15 * scene.board.size
        v = g[value].to_numpy(dtype=float)
        width = (g["ci_high"] - g["ci_low"]).to_numpy(dtype=float) if interval else np.full(len(g), np.nan)
        for k in np.flatnonzero(np.nan_to_num(v) >= floor):
            arc = np.linspace(edges[k], edges[k + 1], 4)
            wedges.append(np.vstack([[x0, y0], np.column_stack([x0 + radius * np.cos(arc), y0 + radius * np.sin(arc)])]))
            colours.append(v[k])
            widths.append(width[k])
        if np.isfinite(v).any():
            k = int(np.nanargmax(v))
            best_lines.append([(x0, y0), (x0 + dist * np.cos(th[k]), y0 + dist * np.sin(th[k]))])
    style = {"cmap": "viridis", "alpha": 0.9, "zorder": 5, "edgecolors": "none", **kwargs}
    fans = PolyCollection(wedges, norm=Normalize(0.0, 1.0), **style)
    fans.set_array(np.asarray(colours, dtype=float))
    ax.add_collection(fans)
    label = _label(value)
    title = f"{reduce} {label} by placement and aim ({len(shown)} of {len(us)} placements); dashed: best aim"
    if interval:
        widths = np.asarray(widths, dtype=float)
        wide = np.flatnonzero(widths > limit)
        # white cross-hatching: it shows on every colour of the map, across wedges of any direction
        ax.add_collection(PolyCollection([wedges[i] for i in wide], facecolors="none", edgecolors="none", hatch="xx",
                                         hatchcolor="white", zorder=5.5))  # fmt: skip
        words = _interval_words(success)
        label += f"\nhatched: {words} wider than {limit:g}"
        if np.isfinite(widths).any():
            title += (f"\n{words}s {np.nanmin(widths):.2f} to {np.nanmax(widths):.2f} wide; "
                      f"{len(wide)} of {len(widths)} wedges hatched")  # fmt: skip
    best = LineCollection(best_lines, colors="black", linewidths=0.6, linestyles="dashed", zorder=6)
    ax.add_collection(best)
    # the colour bar under the board: beside it, it rose above the square board into the title
    ax.figure.colorbar(fans, ax=ax, label=label, location="bottom", shrink=0.8, aspect=30)
    ax.set_title(title, fontsize="small")
    return ax


def plot_best_shot(
    candidates: pd.DataFrame,
    scene: Scene,
    *,
    rank: int = 1,
    params: PhysicsParams | None = None,
    ax: Axes | None = None,
    **kwargs: Any,
) -> Axes:
    """The nominal shot of a :func:`~carromlab.analysis.plan_shots` option, simulated and drawn
    on the board with its success probability.

    Parameters
    ----------
    candidates : pandas.DataFrame
        A :func:`~carromlab.analysis.plan_shots` result (or any table with ``rank``, ``x``, ``y``,
        ``angle``, ``speed``, ``spin``, ``p_success``).
    scene : Scene
        The scene of the search.
    rank : int
        Which candidate, >= 1. Default 1 (the best).
    params : PhysicsParams, optional
        Physics of the search. Default ``PhysicsParams()``.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure when omitted.
    **kwargs
        Passed to :func:`.plot_shot`.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> best = pd.DataFrame({"rank": [1], "x": [0.0], "y": [-0.2526], "angle": [np.pi / 2], "speed": [6.0],
    ...                      "spin": [0.0], "p_success": [0.8]})
    >>> plot_best_shot(best, Scene.icf_break()).get_title().splitlines()[-1]
    'rank 1: p(success) = 0.800'
    """
    _need(candidates, "candidates", ("rank", "x", "y", "angle", "speed", "spin", "p_success"))
    rank = check_int("rank", rank, low=1)
    rows = candidates[candidates["rank"] == rank]
    if rows.empty:
        raise ValueError(f"The 'rank' parameter must be one of {candidates['rank'].tolist()}. Got {rank} instead.")
    row = rows.iloc[0]
    shot = Shot(float(row["x"]), float(row["y"]), float(row["angle"]), float(row["speed"]), float(row["spin"]))
    ax = plot_shot(simulate(scene, shot, params), ax, **kwargs)
    extra = "".join(f", {row[c]}" for c in ("technique", "route") if c in row.index)
    ci = f" [{row['ci_low']:.2f}, {row['ci_high']:.2f}]" if {"ci_low", "ci_high"} <= set(row.index) else ""
    ax.set_title(f"{ax.get_title()}\nrank {rank}: p(success) = {row['p_success']:.3f}{ci}{extra}", fontsize="small")
    return ax


def plot_margins(margins: pd.DataFrame, *, x: str = "placement", ax: Axes | None = None, **kwargs: Any) -> Axes:
    """The aim window of each placement around its best aim (billiards' margin of error).

    Each placement gets a vertical bar from the lower to the upper edge of its aim
    window, relative to the best aim (degrees), and a dot at the best aim.

    Parameters
    ----------
    margins : pandas.DataFrame
        A :func:`.margin_of_error` result.
    x : str
        Column on the horizontal axis: ``"placement"`` (default), ``"cut"`` or
        ``"target_distance"`` when present.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new 7 x 4.5 in figure when omitted.
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.errorbar`.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> m = pd.DataFrame({"placement": [0.0, 0.1], "best_aim": [0.0, 0.01], "aim_low": [-0.01, 0.0],
    ...                   "aim_high": [0.02, 0.015]})
    >>> plot_margins(m).get_ylabel()
    'aim window around the best aim (deg)'
    """
    _need(margins, "margins", (x, "best_aim", "aim_low", "aim_high"))
    ok = margins.dropna(subset=["aim_low"])
    xs = _shown(x, ok[x])
    best = np.degrees(ok["best_aim"].to_numpy(dtype=float))
    lo = best - np.degrees(ok["aim_low"].to_numpy(dtype=float))
    hi = np.degrees(ok["aim_high"].to_numpy(dtype=float)) - best
    ax = axes_or_new(ax, CHART_SIZE)
    style = {"fmt": "o", "capsize": 3, "markersize": 3, "color": "#1f77b4", **kwargs}
    ax.errorbar(xs, np.zeros(len(ok)), yerr=[lo, hi], **style)
    ax.axhline(0.0, color="grey", linewidth=0.5)
    ax.set_xlabel(_label(x))
    ax.set_ylabel("aim window around the best aim (deg)")
    ax.set_title(f"margin of error: {len(ok)} of {len(margins)} placements succeed", fontsize="small")
    return ax


def plot_break_outcomes(study: BreakStudy, *, ax: Axes | None = None, **kwargs: Any) -> Axes:
    """Histograms of the pieces of each kind pocketed per break, side by side, each
    probability with its 95 % Wilson interval (:func:`~carromlab.analysis.binomial_ci`;
    the shots are independent, the nominal breaks pooled).

    Parameters
    ----------
    study : BreakStudy
        A :func:`.break_study` result.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new 7 x 4.5 in figure when omitted.
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.bar`.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from carromlab.analysis import ShotGrid
    >>> from carromlab.analysis.breaks import break_study
    >>> study = break_study(Scene.icf_break(), ShotGrid(placement=[0.0], angle=[0.0], speed=[6.0], aim="pack"),
    ...                     replicas=4, progress=False)
    >>> plot_break_outcomes(study).get_xlabel()
    'pieces pocketed by the break'
    """
    check_type("study", study, BreakStudy, hint="from break_study")
    dist = study.distribution()
    kinds = study.kinds
    width = 0.8 / len(kinds)
    ax = axes_or_new(ax, CHART_SIZE)
    n = len(study.shots)
    for i, kind in enumerate(kinds):
        d = dist[dist["kind"] == kind]
        low, high = binomial_ci(d["shots"].to_numpy(), n)
        p = d["probability"].to_numpy(dtype=float)
        style = {"edgecolor": "black", "linewidth": 0.5, "color": PIECE_COLORS.get(kind, "#9e9e9e"), "capsize": 2,
                 "error_kw": {"elinewidth": 0.8, "ecolor": "0.35"}, **kwargs}  # fmt: skip
        ax.bar(d["n_pocketed"] + (i - (len(kinds) - 1) / 2) * width, p, width, yerr=[p - low, high - p], label=kind,
               **style)  # fmt: skip
    ax.set_xticks(np.arange(dist["n_pocketed"].max() + 1))
    ax.set_xlabel("pieces pocketed by the break")
    ax.set_ylabel("probability (error bars: 95 % Wilson interval)")
    ax.legend(fontsize="small")
    s = study.shots
    ax.set_title(
        f"{study.scene.board.name}: {len(s):,} breaks from {s['cell'].nunique():,} nominal ones; striker pocketed {s['striker_pocketed'].mean():.1%}, "
        f"no contact {s['no_contact'].mean():.1%}",
        fontsize="small",
    )
    return ax


def plot_break_heatmap(
    study: BreakStudy,
    *,
    value: str | None = None,
    x: str = "placement",
    y: str = "aim",
    reduce: str = "mean",
    aim: str | None = None,
    ax: Axes | None = None,
    **kwargs: Any,
) -> Axes:
    """Heatmap of a break outcome over two grid axes; by default the expected number of
    the breaker's own pieces pocketed over placement x aim.

    Parameters
    ----------
    study : BreakStudy
        A :func:`.break_study` result.
    value : str, optional
        Column of ``study.cells``. Default ``mean_<own kind>`` of the study's weights.
    x, y, reduce, aim, ax, **kwargs
        As in :func:`plot_parameter_heatmap` (``reduce`` defaults to ``"mean"``).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from carromlab.analysis import ShotGrid
    >>> from carromlab.analysis.breaks import break_study
    >>> grid = ShotGrid(placement=[-0.1, 0.1], angle=np.radians([-2.0, 2.0]), speed=[6.0], aim="pack")
    >>> ax = plot_break_heatmap(break_study(Scene.icf_break(), grid, replicas=4, progress=False))
    >>> ax.figure.axes[-1].get_ylabel()
    'white pieces pocketed per shot (mean)'
    """
    check_type("study", study, BreakStudy, hint="from break_study")
    value = f"mean_{study.weights.own}" if value is None else value
    style = {"cmap": "magma", **kwargs}
    return plot_parameter_heatmap(study.cells, x=x, y=y, value=value, reduce=reduce, aim=aim, ax=ax, **style)


def plot_foul_probabilities(table: pd.DataFrame, *, ax: Axes | None = None, **kwargs: Any) -> Axes:
    """Grouped bars of foul probabilities: one group per foul, one bar per variant, with
    the confidence interval as error bar.

    Fouls of different variants with the same description share a group (its tick lists
    their rule ids); a variant that does not define a foul has no bar in its group. The
    "any foul" group comes last.

    Parameters
    ----------
    table : pandas.DataFrame
        A :func:`~carromlab.analysis.foul_probabilities` result (columns ``variant``,
        ``rule``, ``foul``, ``n``, ``p``, ``ci_low``, ``ci_high``), or one read back from
        its CSV file; the title names the level of the interval from the ``confidence``
        column when the table has it (each level, if it holds several).
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; when omitted, a new figure with constrained layout (the tick
        labels of three lines and the legend beside the axes stay inside it).
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.bar` (e.g. ``alpha``, ``hatch``,
        ``capsize`` of the error bars).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> table = pd.DataFrame({"variant": ["icf", "icf", "online", "online"], "rule": ["ICF-11", "any", "ONL-3", "any"],
    ...                       "foul": ["striker pocketed", "any foul"] * 2, "n": [100] * 4, "p": [0.2, 0.2, 0.25, 0.25],
    ...                       "ci_low": [0.13, 0.13, 0.17, 0.17], "ci_high": [0.29, 0.29, 0.34, 0.34]})
    >>> ax = plot_foul_probabilities(table)
    >>> [t.get_text() for t in ax.get_xticklabels()]
    ['striker\\npocketed\\n(ICF-11, ONL-3)', 'any foul']
    """
    table = _need(table, "table", ("variant", "rule", "foul", "n", "p", "ci_low", "ci_high"))
    fouls = list(dict.fromkeys(table.loc[table["rule"] != ANY_FOUL, "foul"]))
    groups = fouls + list(dict.fromkeys(table.loc[table["rule"] == ANY_FOUL, "foul"]))
    variants = list(dict.fromkeys(table["variant"]))
    width = 0.8 / len(variants)
    if ax is None:
        import matplotlib.pyplot as plt

        # constrained layout keeps the three-line tick labels inside the figure
        _, ax = plt.subplots(figsize=(max(6.0, 1.6 * len(groups)) + 2.0, 4.5), layout="constrained")
    ax = axes_or_new(ax)
    for i, variant in enumerate(variants):
        rows = table[table["variant"] == variant]
        x = np.array([groups.index(f) for f in rows["foul"]]) + (i - (len(variants) - 1) / 2) * width
        p = rows["p"].to_numpy(dtype=float)
        err = np.vstack([p - rows["ci_low"].to_numpy(dtype=float), rows["ci_high"].to_numpy(dtype=float) - p])
        n = sorted(set(rows["n"]))
        style = {"edgecolor": "black", "linewidth": 0.5, "capsize": 3, "color": CATEGORY_COLORS[i % len(CATEGORY_COLORS)],
                 **kwargs}  # fmt: skip
        ax.bar(x, p, width, yerr=err, label=f"{variant} (n = {', '.join(f'{v:,}' for v in n)})", **style)
    ticks = []
    for foul in groups:
        rules = [r for r in dict.fromkeys(table.loc[table["foul"] == foul, "rule"]) if r != ANY_FOUL]
        label = textwrap.fill(foul, 14)
        ticks.append(f"{label}\n({', '.join(rules)})" if rules else label)
    ax.set_xticks(np.arange(len(groups)), ticks, fontsize="small")
    ax.set_ylim(bottom=0.0)
    ax.set_ylabel("probability per shot")
    # beside the axes: inside, the legend of four variants covered the tops of error bars
    ax.legend(fontsize="small", title="variant", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    levels = sorted(set(table["confidence"].dropna())) if "confidence" in table else []
    named = ", ".join(f"{100 * level:g} %" for level in levels)
    interval = f"{named} interval{'s' if len(levels) > 1 else ''}" if levels else "confidence interval"
    ax.set_title(f"foul probability by rule variant (error bars: {interval})", fontsize="small")
    return ax
