"""The disc a game state's shooter plays."""

from __future__ import annotations

from ..rules.state import GameState

__all__ = ["shot_radius"]


def shot_radius(state: GameState) -> float:
    """Radius of the disc the shooter plays, m: the striker, or in crokinole a disc of
    the shooter's colour.

    Examples
    --------
    >>> from carromlab.rules import icf
    >>> shot_radius(icf.new_game())
    0.02065
    """
    if state.variant == "crokinole":
        return state.radius(state.colours[state.team_of(state.shooter)])
    return state.radius("striker")
