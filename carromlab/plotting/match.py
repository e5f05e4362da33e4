"""Plot simulated matches: the game scores board after board, and the breaker's
advantage by variant (matplotlib; never calls ``plt.show()``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.ticker import MaxNLocator

from .._validation import check_table
from ..match.records import TEAM_SLOTS
from .board import CHART_SIZE, CATEGORY_COLORS, axes_or_new

__all__ = ["plot_breaker_advantage", "plot_match_summary"]

_STYLES = ("-", "--", ":", "-.")
_MARKERS = ("o", "s", "^", "D")
_NEEDED = ("variant", "players", "game", "board", "end", *(f"score_{t}" for t in range(TEAM_SLOTS)))


def plot_match_summary(boards: pd.DataFrame, ax: Axes | None = None, *, band: bool = True, **kwargs: Any) -> Axes:
    """Score progression: each team's game score after every board, over the games.

    One colour per team (:data:`.CATEGORY_COLORS`: team 0 blue, team 1 orange, ...), one line style and marker per
    variant and number of players. Each line is
    the mean over the games of the score after board k, a game that ended earlier
    keeping its final score; the shaded band (``band=True``) spans the 25th to 75th
    percentiles (a wide bar where the games lasted one board, as Hikone's do). Boards where some game was abandoned (``max_shots_per_board``) are
    marked with a cross on the line, and the abandoned boards counted in every team's
    legend entry. The board axis has integer ticks.

    Parameters
    ----------
    boards : pandas.DataFrame
        A boards table (:data:`carromlab.match.records.BOARD_COLUMNS`), e.g.
        ``play_match(...).boards``, possibly of several variants concatenated.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new 7 x 4.5 in figure when omitted.
    band : bool
        Shade the interquartile range. Default True.
    **kwargs
        Passed to every line (e.g. ``linewidth=2``).

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        If ``boards`` lacks a column or has no rows.

    Examples
    --------
    >>> from carromlab.match import play_match
    >>> from carromlab.rules.crokinole import CrokinoleOptions
    >>> rec = play_match("crokinole", 2, options=CrokinoleOptions(discs_per_player=2, game_target=5))
    >>> ax = plot_match_summary(rec.boards)
    >>> ax.get_xlabel()
    'board'
    """
    check_table("boards", boards, _NEEDED, "a boards table")
    ax = axes_or_new(ax, CHART_SIZE)
    for k, ((variant, players), g) in enumerate(boards.groupby(["variant", "players"], sort=True)):
        style = {"marker": _MARKERS[k % len(_MARKERS)], "markersize": 4, "linewidth": 1.5, **kwargs}
        linestyle = _STYLES[k % len(_STYLES)]
        n_games = g["game"].nunique()
        abandoned = g["end"] == "abandoned"
        lost_boards = np.unique(g.loc[abandoned, "board"].to_numpy())
        lost = f", {int(abandoned.sum())} abandoned" if abandoned.any() else ""  # on every team's entry
        for t in range(TEAM_SLOTS):
            col = f"score_{t}"
            color = CATEGORY_COLORS[t]
            if not g[col].notna().any():
                continue
            # a finished game keeps its final score on the later boards
            table = g.pivot_table(index="board", columns="game", values=col, aggfunc="last")
            table = table.reindex(range(1, int(g["board"].max()) + 1)).ffill()
            x = table.index.to_numpy(dtype=float)
            mean = table.mean(axis=1).to_numpy()
            label = f"{variant} {players}p, team {t} ({n_games} game{'s' * (n_games != 1)}{lost})"
            ax.plot(x, mean, color=color, linestyle=linestyle, label=label, **style)
            if band:
                low, high = table.quantile(0.25, axis=1).to_numpy(), table.quantile(0.75, axis=1).to_numpy()
                if len(x) > 1:
                    ax.fill_between(x, low, high, color=color, alpha=0.12, linewidth=0)
                else:  # a band one board wide has no area: a wide translucent bar instead
                    ax.vlines(x, low, high, colors=color, alpha=0.25, linewidth=8)
            if len(lost_boards):
                ax.scatter(lost_boards, mean[lost_boards - 1], marker="x", color=color, s=40, zorder=5)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))  # one board: the tick 1 only
    ax.set_xlabel("board")
    ax.set_ylabel("game score after the board (mean; band: 25-75 %)")
    ax.set_title("Score progression (x: abandoned boards)", fontsize="medium")
    ax.grid(True, alpha=0.3)
    # under the axes: inside, it covered early boards, where one-board games (Hikone) have their scores
    ax.legend(fontsize="x-small", loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2, frameon=False)
    return ax


def plot_breaker_advantage(table: pd.DataFrame, ax: Axes | None = None, **kwargs: Any) -> Axes:
    """The share of decided boards won by the team that broke, per variant, with its
    interval, beside the fair share (one in the number of teams).

    Parameters
    ----------
    table : pandas.DataFrame
        The table of :func:`carromlab.match.breaker_advantage`.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; when omitted, a new figure 6.5 in wide and 0.45 in tall per
        row (plus 2 in for the labels and the legend).
    **kwargs
        Passed to the interval markers (``errorbar``; e.g. ``color="k"``).

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        If ``table`` lacks a column or has no rows.
    """
    check_table("table", table, ("variant", "players", "decided", "p", "p_low", "p_high", "fair"),
                "a breaker_advantage table")
    ax = axes_or_new(ax, figsize=(6.5, 2.0 + 0.45 * len(table)))
    y = np.arange(len(table))[::-1]
    p = table["p"].to_numpy(dtype=float)
    err = np.vstack([p - table["p_low"].to_numpy(dtype=float), table["p_high"].to_numpy(dtype=float) - p])
    style = {"fmt": "o", "capsize": 4, "color": CATEGORY_COLORS[0], "label": "breaker's team wins (95 % interval)", **kwargs}
    ax.errorbar(p, y, xerr=err, **style)
    ax.scatter(table["fair"], y, marker="|", s=300, color=CATEGORY_COLORS[5], zorder=4, label="fair share (1 / teams)")
    labels = [f"{v} {n}p ({d} boards)" for v, n, d in table[["variant", "players", "decided"]].itertuples(index=False)]
    ax.set_yticks(y, labels)
    ax.set_xlim(0.0, 1.0)
    ax.set_ylim(y.min() - 1.5, y.max() + 0.7)  # an empty band at the bottom for the legend
    ax.set_xlabel("share of decided boards won by the team that broke")
    ax.set_title("Breaker's advantage by variant", fontsize="medium")
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(fontsize="x-small", loc="lower right")
    return ax
