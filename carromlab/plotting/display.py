"""Rich display in Jupyter: a small inline picture beside a summary table.

The result classes (:class:`~carromlab.Scene`, :class:`~carromlab.ShotResult`, break
studies, fits, game records) call :func:`rich_html` from their ``_repr_html_``; the
picture is a PNG embedded in base64, so the HTML stands alone (notebooks, rendered docs).
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["figure_png", "rich_html", "scene_picture"]

_PICTURE_INCHES = 3.2


def figure_png(draw: Callable[[Any], Any], *, inches: float = _PICTURE_INCHES, dpi: int = 80) -> str:
    """An ``<img>`` tag holding a PNG of what ``draw(ax)`` draws on fresh axes.

    Parameters
    ----------
    draw : callable
        Called with a new matplotlib Axes (the figure is not shown and is closed after).
    inches : float
        Width and height of the figure, in. Default 3.2.
    dpi : int
        Resolution, dots per inch. Default 80.

    Returns
    -------
    str
        ``<img src="data:image/png;base64,...">``.
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=(inches, inches), dpi=dpi)  # not registered with pyplot: never shown
    draw(fig.add_subplot())
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight")
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" style="max-width:{int(inches * dpi)}px">'


def scene_picture(scene: Any, shots: pd.DataFrame | None = None) -> str:
    """An ``<img>`` of a scene's board and pieces (no axis labels), with an arrow for
    each row of ``shots`` (columns ``x``, ``y`` m, ``angle`` rad): where the striker
    starts and where it goes."""
    from .board import draw_board, draw_pieces

    def draw(ax: Any) -> None:
        draw_board(scene.board, ax)
        draw_pieces(scene.pieces, scene.specs, ax)
        length = 0.25 * scene.board.size
        for row in ([] if shots is None else shots.itertuples()):
            ax.annotate("", xy=(row.x + length * np.cos(row.angle), row.y + length * np.sin(row.angle)),
                        xytext=(row.x, row.y), arrowprops={"arrowstyle": "->", "color": "#1565c0", "lw": 2},
                        zorder=7)  # fmt: skip
        ax.set_axis_off()

    return figure_png(draw)


def rich_html(title: str, rows: Mapping[str, Any], *, picture: str = "", table: pd.DataFrame | None = None) -> str:
    """HTML of a result: a bold title, a picture and a two-column summary side by side,
    and optionally a table below.

    Parameters
    ----------
    title : str
        Heading (plain text, escaped).
    rows : mapping of str to object
        Summary lines: label and value (both shown as escaped text).
    picture : str
        HTML of the picture (e.g. from :func:`figure_png`); none by default.
    table : pandas.DataFrame, optional
        Shown under the summary (its own HTML, at most 10 rows).

    Returns
    -------
    str
    """
    cells = "".join(
        f"<tr><th style='text-align:left'>{html.escape(str(k))}</th><td style='text-align:left'>"
        f"{html.escape(str(v))}</td></tr>"
        for k, v in rows.items()
    )
    below = "" if table is None else table.head(10).to_html(index=False, float_format=lambda v: f"{v:.4g}")
    return (
        f"<div><b>{html.escape(title)}</b><div style='display:flex;gap:1em;align-items:flex-start'>"
        f"{picture}<table>{cells}</table></div>{below}</div>"
    )
