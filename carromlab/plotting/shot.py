"""Plot one simulated shot: the board, start and end positions, paths and events."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from ..engine.simulate import ShotResult
from .board import PIECE_COLORS, draw_board, draw_pieces

__all__ = ["plot_shot"]

_EVENT_MARKERS = {"disc": ("o", "#d62728"), "cushion": ("s", "#1f77b4"), "peg": ("D", "#9467bd"),
                  "pocket": ("X", "black"), "ditch": ("v", "#7f7f7f")}  # fmt: skip


def plot_shot(result: ShotResult, ax: Axes | None = None, *, events: bool = True, **kwargs: Any) -> Axes:
    """Draw a shot: the board, faded starting pieces, every path, final pieces, events.

    Between events every disc moves on a straight line, so each path is drawn exactly as
    the polyline through the disc's segment starts and its final position.

    Parameters
    ----------
    result : ShotResult
        A shot simulated with ``record=True``.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure when omitted.
    events : bool
        Mark impacts (disc, cushion, peg) and captures (pocket, ditch). Default True.
    **kwargs
        Passed to every path line (e.g. ``linewidth=2``).

    Returns
    -------
    matplotlib.axes.Axes
    """
    scene = result.scene
    ax = draw_board(scene.board, ax)
    striker = pd.DataFrame({"kind": [scene.striker], "x": [result.shot.x], "y": [result.shot.y]})
    start = pd.concat([scene.pieces[["kind", "x", "y"]], striker], ignore_index=True)
    draw_pieces(start, scene.specs, ax, alpha=0.25)
    seg = result.segments
    fin = result.final
    style = {"linewidth": 1.0, "alpha": 0.9, **kwargs}
    for d, g in seg.groupby("disc", sort=True):
        xs = np.append(g["x0"].to_numpy(), fin["x"].iat[d])
        ys = np.append(g["y0"].to_numpy(), fin["y"].iat[d])
        if np.ptp(xs) + np.ptp(ys) == 0.0:
            continue
        kind = scene.kinds[d]
        color = "#444444" if kind in ("white", "light") else PIECE_COLORS.get(kind, "#444444")
        ax.plot(xs, ys, color=color, zorder=5, **style)
    on = fin[fin["status"] == "board"]
    draw_pieces(on[["kind", "x", "y"]], scene.specs, ax)
    if events:
        ev = result.events
        for kind, (marker, color) in _EVENT_MARKERS.items():
            e = ev[ev["kind"] == kind]
            if len(e):
                ax.scatter(e["x"], e["y"], marker=marker, s=14, color=color, zorder=6, label=kind, linewidths=0)
        if len(ev):
            ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="x-small", framealpha=0.8)
    n_pocketed = len(result.pocketed)
    ax.set_title(
        f"{scene.board.name}: {result.shot.speed:.2f} m/s at {result.shot.angle_deg:.1f} deg; "
        f"{result.n_events} events, {n_pocketed} pocketed, {result.duration:.2f} s",
        fontsize="small",
    )
    return ax
