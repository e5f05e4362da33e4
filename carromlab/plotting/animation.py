"""Animate a simulated shot to a GIF (matplotlib + Pillow)."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.animation import FuncAnimation, PillowWriter
from matplotlib.patches import Circle

from .._validation import check_real
from ..engine.simulate import ShotResult
from .board import PIECE_COLORS, draw_board

__all__ = ["animate_shot"]


def animate_shot(
    result: ShotResult, path: str | Path, *, fps: float = 25.0, slowdown: float = 1.0, dpi: int = 80
) -> Path:
    """Write a GIF of the shot: every disc at evenly spaced times until the last event.

    Parameters
    ----------
    result : ShotResult
        A shot simulated with ``record=True``.
    path : str or Path
        Output file (``.gif``).
    fps : float
        Frames per second of the GIF, in (0, 100]. Default 25.
    slowdown : float
        Playback slowdown (2: half speed), in (0, 100]. Default 1 (real time).
    dpi : int
        Resolution of the frames. Default 80.

    Returns
    -------
    Path
        The file written.
    """
    fps = check_real("fps", fps, low=0.0, high=100.0, low_open=True)
    slowdown = check_real("slowdown", slowdown, low=0.0, high=100.0, low_open=True)
    n_frames = max(2, int(np.ceil(result.duration * slowdown * fps)) + 1)
    times = np.linspace(0.0, result.duration, n_frames)
    states = result.positions_at(times)
    scene = result.scene
    radius = scene.arrays["radius"]
    fig, ax = plt.subplots(figsize=(5, 5))
    draw_board(scene.board, ax)
    patches = []
    for d, kind in enumerate(scene.kinds):
        c = Circle((0.0, 0.0), radius[d], facecolor=PIECE_COLORS.get(kind, "#999999"), edgecolor="black",
                   linewidth=0.5, zorder=4)  # fmt: skip
        ax.add_patch(c)
        patches.append(c)
    title = ax.set_title("", fontsize="small")
    frames = [g for _, g in states.groupby("t", sort=True)]

    def draw(k: int) -> list:
        g = frames[k]
        for row in g.itertuples():
            patches[row.id].center = (row.x, row.y)
            patches[row.id].set_visible(row.status == "board")
        title.set_text(f"t = {times[k]:.2f} s")
        return [*patches, title]

    anim = FuncAnimation(fig, draw, frames=len(frames), blit=False)
    out = Path(path)
    anim.save(out, writer=PillowWriter(fps=fps), dpi=dpi)
    plt.close(fig)
    return out
