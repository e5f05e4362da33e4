"""Plots: boards, their marks and pieces (matplotlib; never calls ``plt.show()``)."""

from .board import CATEGORY_COLORS, PIECE_COLORS, draw_board, draw_pieces
from .animation import ShotAnimation, animate_shot, shot_animation
from .match import plot_breaker_advantage, plot_match_summary
from .shot import plot_shot

__all__ = [
    "CATEGORY_COLORS",
    "PIECE_COLORS",
    "ShotAnimation",
    "animate_shot",
    "draw_board",
    "draw_pieces",
    "plot_breaker_advantage",
    "plot_match_summary",
    "plot_shot",
    "shot_animation",
]
