"""Adjudication of N shots at once, on arrays (struct of arrays).

The one-game :func:`carromlab.rules.adjudicate` is the readable reference; this package
gives the same rulings for N (state, outcome) pairs of one variant at a time, as numpy
arrays: :class:`GameArrays` (N game states), :class:`OutcomeArrays` (N shots, from
ShotOutcome objects or straight from a detailed engine batch) and :class:`RulingArrays`
(N rulings, the new states included).

Examples
--------
>>> from carromlab.rules import icf, ShotOutcome
>>> from carromlab.rules.arrays import GameArrays, OutcomeArrays, adjudicate_arrays
>>> games = GameArrays.from_states([icf.new_game().with_(board_shots=1)] * 2)
>>> shots = OutcomeArrays.from_outcomes(
...     [ShotOutcome(pocketed=[(3, "white", 0, 0.5)]), ShotOutcome(pocketed=[(19, "striker", 0, 0.5)], striker_fate="pocketed")],
...     games)
>>> rulings = adjudicate_arrays(games, shots)
>>> rulings.turn_continues.tolist(), rulings.foul("ICF-11").tolist(), rulings.state.dues.tolist()
([True, False], [False, True], [[0, 0], [1, 0]])
"""

from __future__ import annotations

from collections.abc import Callable

from ..._validation import check_type
from .carrom import adjudicate_carrom
from .crokinole import adjudicate_crokinole
from .games import QUEEN, WHERE, GameArrays
from .hikone import adjudicate_hikone
from .ledger import RulingArrays
from .outcomes import FATES, OutcomeArrays, shot_pieces
from .placement import placement_regions, shot_radii

__all__ = ["FATES", "QUEEN", "WHERE", "GameArrays", "OutcomeArrays", "RulingArrays", "adjudicate_arrays", "placement_regions", "shot_pieces", "shot_radii"]

_ADJUDICATORS: dict[str, Callable[..., RulingArrays]] = {
    "icf": adjudicate_carrom, "online": adjudicate_carrom, "hikone": adjudicate_hikone, "crokinole": adjudicate_crokinole,
}


def adjudicate_arrays(games: GameArrays, outcomes: OutcomeArrays, *, place: bool = True) -> RulingArrays:
    """Adjudicate N shots, one per game, under the rules of ``games.variant``.

    Row ``g`` of the result is exactly what :func:`carromlab.rules.adjudicate` gives for
    game ``g`` and shot ``g`` (fouls and applied rules as rule ids, the new state as
    arrays); the foul messages are not kept.

    Parameters
    ----------
    games : GameArrays
        The states before the shots (never changed).
    outcomes : OutcomeArrays
        One shot per game.
    place : bool
        Find the spots of the pieces the rules put back (a grid search per piece, about
        a millisecond each). False leaves them on the board with unknown positions (NaN),
        for analyses that read only the rulings. Default True.

    Returns
    -------
    RulingArrays

    Raises
    ------
    ValueError
        If an outcome is inconsistent with its game, or a game is over.
    """
    check_type("games", games, GameArrays)
    return _ADJUDICATORS[games.variant](games, outcomes, place=place)
