"""Draw boards, their marks and the pieces on them with matplotlib (top view, metres)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.patches import Circle as CirclePatch
from matplotlib.patches import Rectangle

from .._validation import check_mapping, check_table, check_type
from ..equipment.board import SIDES, Board, CrokinoleMarks, HikoneMarks, IcfMarks, Segment
from ..equipment.disc import DiscSpec

__all__ = ["CATEGORY_COLORS", "PIECE_COLORS", "draw_board", "draw_pieces"]

#: Face colour of each piece kind; kinds not listed are drawn grey.
PIECE_COLORS: dict[str, str] = {
    "white": "#f3ecd9",
    "black": "#2b2b2b",
    "queen": "#c62828",
    "red": "#ef6f6c",  # red and green differ in lightness too, for colour-blind readers
    "green": "#1b5e20",
    "jack": "#e9b949",
    "dark": "#4e342e",
    "light": "#fbf3e0",  # lighter than the surface, which "#ead7a4" matched
    "striker": "#cfd8dc",
}
#: Colours of compared categories (variants, teams, discs, laws), in order: the palette of
#: M. Okabe and K. Ito (Color Universal Design, 2008), told apart with every common
#: colour-vision deficiency (tab10's third and fourth, green and red, are not).
CATEGORY_COLORS: tuple[str, ...] = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#000000")
_OTHER_PIECE = "#9e9e9e"
_SURFACE = "#f1dcae"
_FRAME = "#6d3f1c"
_DITCH = "#3e2410"
_MARK = "#1f1f1f"
_RED = "#e57373"  # lighter than the queen (PIECE_COLORS["queen"]) so a mark never looks like her


#: Size of a new figure for a chart (not a board), in: wider than tall, as a notebook shows it.
CHART_SIZE = (7.0, 4.5)


def axes_or_new(ax: Axes | None, figsize: tuple[float, float] = (6, 6)) -> Axes:
    """``ax``, or new axes if it is None; a TypeError naming 'ax' if it is neither."""
    if ax is None:
        import matplotlib.pyplot as plt

        # constrained layout keeps legends and colour bars beside the axes inside the figure
        _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return check_type("ax", ax, Axes, hint="matplotlib axes, or None for a new figure")


def _line(ax: Axes, seg: Segment, style: dict[str, Any]) -> None:
    ax.plot([seg.x0, seg.x1], [seg.y0, seg.y1], solid_capstyle="butt", zorder=2, **style)


def _ring(ax: Axes, x: float, y: float, radius: float, style: dict[str, Any], facecolor: str = "none") -> None:
    patch_style = {("edgecolor" if k == "color" else k): v for k, v in style.items()}
    ax.add_patch(CirclePatch((x, y), radius, facecolor=facecolor, zorder=2, **patch_style))


def _disc(ax: Axes, x: float, y: float, radius: float, color: str, zorder: float = 2) -> None:
    ax.add_patch(CirclePatch((x, y), radius, facecolor=color, edgecolor="none", zorder=zorder))


def _draw_icf(ax: Axes, board: Board, m: IcfMarks, style: dict[str, Any]) -> None:
    arrows: set[tuple[float, float, float, float]] = set()
    for side in SIDES:
        b = board.baseline(side)
        _line(ax, b.outer, style)
        _line(ax, b.inner, style)
        for c in b.base_circles:
            _ring(ax, c.x, c.y, c.radius, style)
            _disc(ax, c.x, c.y, b.fill_radius, _RED)
        for a in b.arrows:
            key = (round(a.x0, 12), round(a.y0, 12), round(a.x1, 12), round(a.y1, 12))
            if key in arrows:  # each arrow is shared by two sides
                continue
            arrows.add(key)
            _line(ax, a, style)
            # arrowhead at the pocket end, 45 degrees either side of the arrow
            ux, uy = (a.x1 - a.x0) / a.length, (a.y1 - a.y0) / a.length
            head = 0.02 * board.size
            for sgn in (1.0, -1.0):
                hx = -ux * math.cos(math.pi / 4) - sgn * uy * math.sin(math.pi / 4)
                hy = -uy * math.cos(math.pi / 4) + sgn * ux * math.sin(math.pi / 4)
                _line(ax, Segment(a.x1, a.y1, a.x1 + head * hx, a.y1 + head * hy), style)
    # the centre spot as a red ring round a small dot: a filled red circle of a coin's size
    # would look exactly like the queen
    _ring(ax, 0.0, 0.0, m.centre_circle_radius, {**style, "color": _RED, "linewidth": 1.5})
    _disc(ax, 0.0, 0.0, 0.25 * m.centre_circle_radius, _RED)
    _ring(ax, 0.0, 0.0, m.outer_circle_radius, style)


def _draw_hikone(ax: Axes, board: Board, m: HikoneMarks, style: dict[str, Any]) -> None:
    _ring(ax, 0.0, 0.0, m.centre_circle_radius, style)
    _ring(ax, 0.0, 0.0, m.jack_spot_radius, style)
    for x, y in board.puck_spots():
        _disc(ax, x, y, 0.004 * board.size, style["color"])
    for side in SIDES:
        a = board.area_line(side)
        _line(ax, a.line, style)
        _ring(ax, a.tee_spot.x, a.tee_spot.y, a.tee_spot.radius, style)


def _draw_crokinole(ax: Axes, board: Board, m: CrokinoleMarks, style: dict[str, Any]) -> None:
    for _, radius in m.scoring_rings:
        _ring(ax, 0.0, 0.0, radius, style)
    # the quadrant lines divide the 5 zone only: from the 10 ring out to the shooting line
    r0, r1 = m.ring_10_radius, m.shooting_line_radius
    for angle in m.quadrant_angles:
        c, s = math.cos(angle), math.sin(angle)
        _line(ax, Segment(r0 * c, r0 * s, r1 * c, r1 * s), style)


def draw_board(
    board: Board,
    ax: Axes | None = None,
    *,
    surface_color: str = _SURFACE,
    frame_color: str = _FRAME,
    mark_color: str = _MARK,
    **kwargs: Any,
) -> Axes:
    """Draw a board seen from above: frame or rail, ditch, surface, marks, holes and pegs.

    Parameters
    ----------
    board : Board
        The board; coordinates are drawn in metres with equal aspect.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new 6 x 6 in figure is made when omitted.
    surface_color, frame_color, mark_color : str
        Colours of the playing surface, the frame (rail) and the drawn lines.
    **kwargs
        Passed to every line and circle mark (e.g. ``linewidth=1.5``, ``alpha=0.5``).

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on; ``plt.show()`` is never called.

    Examples
    --------
    >>> ax = draw_board(Board.icf())
    >>> ax.get_aspect()
    1.0
    """
    check_type("board", board, Board, hint="e.g. Board.icf()")
    ax = axes_or_new(ax)
    style = {"color": mark_color, "linewidth": 0.8, **kwargs}
    h, fw = board.half_size, board.frame_width
    if board.shape == "square":
        outer = h + fw
        ax.add_patch(
            Rectangle((-outer, -outer), 2 * outer, 2 * outer, facecolor=frame_color, edgecolor="none", zorder=0)
        )
        ax.add_patch(Rectangle((-h, -h), 2 * h, 2 * h, facecolor=surface_color, edgecolor="none", zorder=1))
    else:
        ditch = board.marks.ditch_width if isinstance(board.marks, CrokinoleMarks) else 0.0
        outer = h + ditch + fw
        ax.add_patch(CirclePatch((0.0, 0.0), outer, facecolor=frame_color, edgecolor="none", zorder=0))
        ax.add_patch(CirclePatch((0.0, 0.0), h + ditch, facecolor=_DITCH, edgecolor="none", zorder=0.5))
        ax.add_patch(CirclePatch((0.0, 0.0), h, facecolor=surface_color, edgecolor="none", zorder=1))
    if isinstance(board.marks, IcfMarks):
        _draw_icf(ax, board, board.marks, style)
    elif isinstance(board.marks, HikoneMarks):
        _draw_hikone(ax, board, board.marks, style)
    elif isinstance(board.marks, CrokinoleMarks):
        _draw_crokinole(ax, board, board.marks, style)
    for hole in board.holes:
        ax.add_patch(CirclePatch((hole.x, hole.y), hole.radius, facecolor="black", edgecolor="none", zorder=3))
    for peg in board.pegs:
        ax.add_patch(
            CirclePatch((peg.x, peg.y), peg.radius, facecolor="#8d8d8d", edgecolor="black", linewidth=0.5, zorder=3)
        )
    margin = 0.02 * outer
    ax.set_xlim(-outer - margin, outer + margin)
    ax.set_ylim(-outer - margin, outer + margin)
    ax.set_aspect("equal")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    return ax


def draw_pieces(
    frame: pd.DataFrame,
    specs: Mapping[str, DiscSpec],
    ax: Axes | None = None,
    **kwargs: Any,
) -> Axes:
    """Draw pieces as filled circles coloured by kind (:data:`.PIECE_COLORS`).

    Parameters
    ----------
    frame : pandas.DataFrame
        One row per piece with columns ``kind``, ``x``, ``y`` (m), as returned by the
        layout functions of :mod:`carromlab.equipment.layout`.
    specs : mapping of str to DiscSpec
        Radius of every kind in ``frame``.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on (typically from :func:`draw_board`); a new figure when omitted.
    **kwargs
        Passed to every circle patch (e.g. ``alpha=0.6``).

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on. Each patch carries ``gid="piece:<kind>"``.

    Raises
    ------
    ValueError
        If a column is missing or a kind has no spec.
    """
    check_table("frame", frame, ("kind", "x", "y"), rows=False)
    check_mapping("specs", specs, str, DiscSpec)
    unknown = sorted({k for k in frame["kind"] if k not in specs}, key=str)
    if unknown:
        raise ValueError(
            f"The 'specs' parameter must have a DiscSpec for every kind in 'frame'. Missing {unknown}."
        )
    ax = axes_or_new(ax)
    style = {"edgecolor": "black", "linewidth": 0.6, "zorder": 4, **kwargs}
    for kind, x, y in zip(frame["kind"], np.asarray(frame["x"], float), np.asarray(frame["y"], float)):
        color = PIECE_COLORS.get(kind, _OTHER_PIECE)
        ax.add_patch(CirclePatch((x, y), specs[kind].radius, facecolor=color, gid=f"piece:{kind}", **style))
    ax.set_aspect("equal")
    return ax
