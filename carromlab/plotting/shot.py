"""Plot one simulated shot: the board, start and end positions, paths and events."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .._validation import check_type
from ..engine.simulate import ShotResult
from .board import PIECE_COLORS, draw_board, draw_pieces

__all__ = ["event_points", "plot_shot"]

_EVENT_MARKERS = {"disc": ("o", "#ef6c00"), "cushion": ("s", "#6a1b9a"), "peg": ("D", "#00838f"),
                  "pocket": ("X", "#fdd835"), "ditch": ("v", "#7f7f7f")}  # fmt: skip
_EVENT_LABELS = {"disc": "disc impact", "cushion": "cushion impact", "peg": "peg impact", "pocket": "fell in",
                 "ditch": "into the ditch"}  # fmt: skip
#: Area of an event marker, points^2: 6 points across, readable on the 6 x 6 in board
#: (16, 4 points, were specks); a thin dark edge sets the light ones off the surface.
_EVENT_SIZE = 36.0
_EVENT_EDGE = {"edgecolors": "#1f1f1f", "linewidths": 0.5}
#: Path colour of each kind where its face colour would not show on the board.
_PATH_COLORS = {"striker": "#1565c0", "white": "#8d6e63", "light": "#8d6e63"}
_PATH_WIDTH = {"striker": 2.0}


def fell_text(result: ShotResult) -> str:
    """What fell, by kind with the pockets, and what went into the ditch, e.g.
    ``"fell: 2 white (ne, sw), striker (nw)"``, ``"nothing fell; into the ditch: 2 dark"``."""
    p = result.pocketed
    parts = []
    for kind, g in p.groupby("kind", sort=False):
        n = "" if len(g) == 1 else f"{len(g)} "
        parts.append(f"{n}{kind} ({', '.join(g['pocket'])})")
    text = "fell: " + ", ".join(parts) if parts else "nothing fell"
    ditch = pd.Series([result.scene.kinds[d] for d in result.off_board], dtype=object).value_counts(sort=False)
    if len(ditch):
        text += "; into the ditch: " + ", ".join(f"{'' if n == 1 else f'{n} '}{kind}" for kind, n in ditch.items())
    return text


def event_points(result: ShotResult) -> tuple[np.ndarray, np.ndarray]:
    """Where each event of ``result.events`` is marked, m: an impact at the point of
    contact, a fall (pocket, ditch) or a stop at the disc's centre.

    The contact point of a disc-disc impact is the disc's centre plus its radius along
    the line of centres; of a cushion impact, the point of the cushion under the centre;
    of a peg impact, the peg's centre plus its radius towards the disc.

    Parameters
    ----------
    result : ShotResult
        A shot simulated with ``record=True``.

    Returns
    -------
    x, y : numpy.ndarray
        One coordinate per row of ``result.events``, m.
    """
    ev = result.events
    x, y = ev["x"].to_numpy(dtype=float).copy(), ev["y"].to_numpy(dtype=float).copy()
    kind = ev["kind"].to_numpy()
    disc = kind == "disc"
    dx, dy = ev["other_x"].to_numpy()[disc] - x[disc], ev["other_y"].to_numpy()[disc] - y[disc]
    along = result.scene.arrays["radius"][ev["disc"].to_numpy()[disc]] / np.hypot(dx, dy)
    x[disc] += along * dx
    y[disc] += along * dy
    h = result.scene.board.half_size
    for k in np.flatnonzero(kind == "cushion"):
        side = ev["where"].iat[k]
        if side in ("east", "west"):
            x[k] = h if side == "east" else -h
        else:
            y[k] = h if side == "north" else -h
    for k in np.flatnonzero(kind == "peg"):
        peg = result.scene.board.pegs[int(ev["where"].iat[k])]
        d = np.hypot(x[k] - peg.x, y[k] - peg.y)
        x[k], y[k] = peg.x + peg.radius * (x[k] - peg.x) / d, peg.y + peg.radius * (y[k] - peg.y) / d
    return x, y


def plot_shot(
    result: ShotResult, ax: Axes | None = None, *, events: bool = True, legend: bool = True, **kwargs: Any
) -> Axes:
    """Draw a shot: the board, faded starting pieces, every path, final pieces, events.

    The shot disc's path (the striker's; a crokinole shooter's disc) is a thick blue line,
    the others are in their piece's colour; the title says what fell and where.

    Between events every disc moves on a straight line, so each path is drawn exactly as
    the polyline through the disc's segment starts and its final position.

    Parameters
    ----------
    result : ShotResult
        A shot simulated with ``record=True``.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure when omitted.
    events : bool
        Mark impacts (disc, cushion, peg) at their points of contact and captures
        (pocket, ditch) at the disc's centre (:func:`~carromlab.plotting.shot.event_points`). Default True.
    legend : bool
        Explain the event markers and the path colour of every kind that moved (the
        striker first) in a legend under the board (inside the figure, so a plain
        ``savefig`` keeps it). Default True.
    **kwargs
        Passed to every path line (e.g. ``linewidth=2``).

    Returns
    -------
    matplotlib.axes.Axes
    """
    check_type("result", result, ShotResult, hint="from carromlab.simulate")
    scene = result.scene
    ax = draw_board(scene.board, ax)
    striker = pd.DataFrame({"kind": [scene.striker], "x": [result.shot.x], "y": [result.shot.y]})
    start = pd.concat([scene.pieces[["kind", "x", "y"]], striker], ignore_index=True)
    draw_pieces(start, scene.specs, ax, alpha=0.25)
    seg = result.segments
    fin = result.final
    style = {"alpha": 0.9, **kwargs}
    paths: dict[str, tuple[str, float]] = {}  # kind -> path colour and width, for the legend
    for d, g in seg.groupby("disc", sort=True):
        xs = np.append(g["x0"].to_numpy(), fin["x"].iat[d])
        ys = np.append(g["y0"].to_numpy(), fin["y"].iat[d])
        if np.ptp(xs) + np.ptp(ys) == 0.0:
            continue
        kind = "striker" if d == result.striker_id else scene.kinds[d]
        paths[kind] = (_PATH_COLORS.get(kind, PIECE_COLORS.get(kind, "#444444")), _PATH_WIDTH.get(kind, 1.0))
        ax.plot(xs, ys, color=paths[kind][0], zorder=5, **{"linewidth": paths[kind][1], **style})
    on = fin[fin["status"] == "board"]
    draw_pieces(on[["kind", "x", "y"]], scene.specs, ax)
    if events:
        ev = result.events
        ex, ey = event_points(result)
        for kind, (marker, color) in _EVENT_MARKERS.items():
            sel = (ev["kind"] == kind).to_numpy()
            if sel.any():
                ax.scatter(ex[sel], ey[sel], marker=marker, s=_EVENT_SIZE, color=color, zorder=6,
                           label=_EVENT_LABELS[kind], **_EVENT_EDGE)  # fmt: skip
        if legend and len(ev):
            shot_disc = "striker" if scene.striker == "striker" else f"shot disc ({scene.striker})"  # crokinole: no striker
            for kind, (color, width) in sorted(paths.items(), key=lambda kw: kw[0] != "striker"):
                ax.plot([], [], color=color, linewidth=width, label=f"{shot_disc if kind == 'striker' else kind} path")
            ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=3, fontsize="x-small", frameon=False)
    ax.set_title(
        f"{scene.board.name}: {result.shot.speed:.2f} m/s at {result.shot.angle_deg:.1f} deg; {fell_text(result)}\n"
        f"{result.n_events} event{'s' * (result.n_events != 1)}, {result.duration:.2f} s",
        fontsize="small",
    )
    return ax
