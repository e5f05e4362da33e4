"""Animate a simulated shot: inline in Jupyter (JavaScript player) or to a GIF or MP4 file."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.animation import FFMpegWriter, FuncAnimation, PillowWriter
from matplotlib.figure import Figure
from matplotlib.patches import Circle

from .._validation import check_int, check_real, check_suffix, check_type
from ..engine.simulate import ShotResult
from .board import PIECE_COLORS, draw_board
from .shot import fell_text

__all__ = ["ShotAnimation", "animate_shot", "shot_animation"]


class ShotAnimation:
    """A shot as an animation: every disc at evenly spaced times until the last event.

    Shown inline by Jupyter (``_repr_html_``: a JavaScript player with its frames
    embedded, so no video encoder is needed); :meth:`save` writes a GIF or an MP4.
    Build one with :func:`shot_animation`.

    Parameters
    ----------
    result : ShotResult
        A shot simulated with ``record=True``.
    fps : float
        Frames per second, in (0, 100].
    slowdown : float
        Playback slowdown (2: half speed), in (0, 100].
    dpi : int
        Resolution of the frames, in [10, 600].
    """

    def __init__(self, result: ShotResult, *, fps: float, slowdown: float, dpi: int) -> None:
        self.result = check_type("result", result, ShotResult, hint="from carromlab.simulate with record=True")
        self.fps = check_real("fps", fps, low=0.0, high=100.0, low_open=True)
        self.slowdown = check_real("slowdown", slowdown, low=0.0, high=100.0, low_open=True)
        self.dpi = check_int("dpi", dpi, low=10, high=600)

    @property
    def times(self) -> np.ndarray:
        """Shot time of every frame, s."""
        n_frames = max(2, int(np.ceil(self.result.duration * self.slowdown * self.fps)) + 1)
        return np.linspace(0.0, self.result.duration, n_frames)

    def _build(self) -> tuple[Figure, FuncAnimation]:
        result, times = self.result, self.times
        states = result.positions_at(times)
        scene = result.scene
        radius = scene.arrays["radius"]
        fig = Figure(figsize=(5, 5), layout="constrained")  # not registered with pyplot: no static copy shown
        ax = fig.add_subplot()
        draw_board(scene.board, ax)
        patches = []
        for d, kind in enumerate(scene.kinds):
            c = Circle((0.0, 0.0), radius[d], facecolor=PIECE_COLORS.get(kind, "#999999"), edgecolor="black",
                       linewidth=0.5, zorder=4)  # fmt: skip
            ax.add_patch(c)
            patches.append(c)
        title = ax.set_title("", fontsize="small")
        frames = [g for _, g in states.groupby("t", sort=True)]
        outcome = fell_text(result)

        def draw(k: int) -> list[Any]:
            for row in frames[k].itertuples():
                patches[row.id].center = (row.x, row.y)
                patches[row.id].set_visible(row.status == "board")
            last = k == len(frames) - 1
            title.set_text(f"t = {times[k]:.2f} s" + (f"; {outcome}" if last else ""))
            return [*patches, title]

        return fig, FuncAnimation(fig, draw, frames=len(frames), blit=False)

    def to_jshtml(self) -> str:
        """HTML of a JavaScript player with the frames embedded (PNG)."""
        _, anim = self._build()
        return anim.to_jshtml(fps=self.fps, default_mode="once")

    def _repr_html_(self) -> str:
        return self.to_jshtml()

    def __repr__(self) -> str:
        return f"ShotAnimation({len(self.times)} frames at {self.fps:g} fps, slowdown {self.slowdown:g}; {self.result!r})"

    def save(self, path: str | Path) -> Path:
        """Write the animation to a file.

        Parameters
        ----------
        path : str or pathlib.Path
            A ``.gif`` (written with Pillow) or ``.mp4`` (needs ffmpeg) file.

        Returns
        -------
        Path
            The file written.

        Raises
        ------
        TypeError
            If ``path`` is no str or path.
        ValueError
            If the suffix is neither, or ``.mp4`` is asked for without ffmpeg on the PATH.
        """
        suffix = check_suffix("path", path, (".gif", ".mp4"))
        out = Path(path)
        if suffix == ".gif":
            writer: Any = PillowWriter(fps=self.fps)
        elif suffix == ".mp4":
            if shutil.which("ffmpeg") is None:
                raise ValueError(
                    f"The 'path' parameter {str(out)!r} asks for an MP4, which needs ffmpeg on the PATH; "
                    "install ffmpeg or write a .gif instead."
                )
            writer = FFMpegWriter(fps=self.fps)
        _, anim = self._build()
        anim.save(out, writer=writer, dpi=self.dpi)
        return out


def shot_animation(result: ShotResult, *, fps: float = 25.0, slowdown: float = 1.0, dpi: int = 80) -> ShotAnimation:
    """An animation of the shot that Jupyter shows inline and :meth:`.ShotAnimation.save` writes.

    Parameters
    ----------
    result : ShotResult
        A shot simulated with ``record=True``.
    fps : float
        Frames per second, in (0, 100]. Default 25.
    slowdown : float
        Playback slowdown (2: half speed), in (0, 100]. Default 1 (real time).
    dpi : int
        Resolution of the frames, in [10, 600]. Default 80.

    Returns
    -------
    ShotAnimation
        Displayed inline as the last expression of a notebook cell.

    Examples
    --------
    >>> import math
    >>> from carromlab import Scene, Shot, simulate
    >>> res = simulate(Scene.icf_break(), Shot(0.0, -0.2526, math.pi / 2, 4.0))
    >>> anim = shot_animation(res, fps=10)
    >>> len(anim.times) == math.ceil(res.duration * 10) + 1
    True
    """
    return ShotAnimation(result, fps=fps, slowdown=slowdown, dpi=dpi)


def animate_shot(
    result: ShotResult, path: str | Path, *, fps: float = 25.0, slowdown: float = 1.0, dpi: int = 80
) -> Path:
    """Write the shot's animation to a file: ``.gif`` (Pillow) or ``.mp4`` (needs ffmpeg).

    Parameters
    ----------
    result : ShotResult
        A shot simulated with ``record=True``.
    path : str or Path
        Output file (``.gif`` or ``.mp4``).
    fps : float
        Frames per second, in (0, 100]. Default 25.
    slowdown : float
        Playback slowdown (2: half speed), in (0, 100]. Default 1 (real time).
    dpi : int
        Resolution of the frames, in [10, 600]. Default 80.

    Returns
    -------
    Path
        The file written.

    See Also
    --------
    shot_animation : the same animation shown inline in Jupyter.
    """
    return shot_animation(result, fps=fps, slowdown=slowdown, dpi=dpi).save(path)
