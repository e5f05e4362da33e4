"""The picture of a game that the environments' ``render_mode="rgb_array"`` returns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .._validation import check_str
from ..rules.engine_bridge import scene_for
from ..rules.state import GameState

if TYPE_CHECKING:
    from ..match.game import Game

__all__ = ["FRAME_PIXELS", "RENDER_MODES", "check_render_mode", "render_frame", "render_game", "render_games"]

#: The render modes of the environments: ``"rgb_array"`` (:func:`render_frame`).
RENDER_MODES = ("rgb_array",)
#: Width and height of a rendered frame, pixels.
FRAME_PIXELS = 480
_DPI = 100


def check_render_mode(render_mode: Any) -> str | None:
    """``render_mode`` if it is None or one of :data:`.RENDER_MODES`.

    Parameters
    ----------
    render_mode : {None, "rgb_array"}
        The render mode asked for.

    Returns
    -------
    str or None

    Raises
    ------
    TypeError
        If it is neither None nor a str (naming ``render_mode``).
    ValueError
        If it is a str but not one of :data:`.RENDER_MODES`.
    """
    want = f"None or one of {list(RENDER_MODES)}"
    if render_mode is not None and check_str("render_mode", render_mode, what=want) not in RENDER_MODES:
        raise ValueError(f"The 'render_mode' parameter must be {want}. Got {render_mode!r} instead.")
    return render_mode


def render_frame(state: GameState, pixels: int = FRAME_PIXELS) -> npt.NDArray[np.uint8]:
    """The board and the pieces on it, seen from above (seat 0 at the bottom), as an image.

    Drawn by :func:`carromlab.plotting.draw_board` and :func:`carromlab.plotting.draw_pieces`
    (the striker is not drawn: between shots it is in no place), the board filling the frame.

    Parameters
    ----------
    state : GameState
        The position.
    pixels : int
        Width and height of the image, pixels. Default :data:`.FRAME_PIXELS`.

    Returns
    -------
    numpy.ndarray of uint8, shape (pixels, pixels, 3)
        RGB.

    Examples
    --------
    >>> from carromlab.rules import hikone
    >>> render_frame(hikone.new_game(), 200).shape
    (200, 200, 3)
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from ..plotting.board import draw_board, draw_pieces

    fig = Figure(figsize=(pixels / _DPI, pixels / _DPI), dpi=_DPI)  # not registered with pyplot: never shown
    canvas = FigureCanvasAgg(fig)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    scene, _ = scene_for(state)
    draw_board(scene.board, ax)
    draw_pieces(scene.pieces, scene.specs, ax)
    ax.set_axis_off()
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].copy()


def render_games(render_mode: str | None, games: Sequence[Game | None]) -> list[npt.NDArray[np.uint8]] | None:
    """What an environment's ``render()`` returns for its games: None when
    ``render_mode`` is None, else one :func:`render_frame` per game.

    Parameters
    ----------
    render_mode : {None, "rgb_array"}
        The environment's render mode.
    games : sequence of Game or None
        The environment's games (None: not started).

    Returns
    -------
    list of numpy.ndarray or None

    Raises
    ------
    ValueError
        If a game is not started (call ``reset()`` first).
    """
    if render_mode is None:
        return None
    if any(g is None for g in games):
        raise ValueError("The environment is not started: call reset() first.")
    return [render_frame(g.state) for g in games if g is not None]


def render_game(render_mode: str | None, game: Game | None) -> npt.NDArray[np.uint8] | None:
    """What a one-game environment's ``render()`` returns: None when ``render_mode`` is
    None, else the :func:`render_frame` of its game.

    Parameters
    ----------
    render_mode : {None, "rgb_array"}
        The environment's render mode.
    game : Game or None
        The environment's game (None: not started).

    Returns
    -------
    numpy.ndarray or None

    Raises
    ------
    ValueError
        If the game is not started (call ``reset()`` first).
    """
    frames = render_games(render_mode, [game])
    return None if frames is None else frames[0]
