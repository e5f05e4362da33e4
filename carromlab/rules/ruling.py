"""The verdict on one shot: fouls, returned pieces, turn, scores and the new state."""

from __future__ import annotations

from dataclasses import dataclass

from .state import GameState

__all__ = ["Foul", "Placement", "Ruling"]


@dataclass(frozen=True)
class Foul:
    """A foul or penalty, with the rule that defines it.

    Parameters
    ----------
    rule : str
        Rule id of the rulebook (docs/rulebook.md), e.g. ``"ICF-11"``.
    message : str
        What happened, in words.
    """

    rule: str
    message: str


@dataclass(frozen=True)
class Placement:
    """A piece put back on the board by the rules.

    Parameters
    ----------
    piece_id : int
        Id of the piece.
    kind : str
        Kind of the piece.
    x, y : float
        Where it was placed, m (board frame).
    rule : str
        Rule that sent it back, e.g. ``"ICF-12"``.
    """

    piece_id: int
    kind: str
    x: float
    y: float
    rule: str


@dataclass(frozen=True)
class Ruling:
    """Result of adjudicating one shot.

    Parameters
    ----------
    fouls : tuple of Foul
        Fouls and penalties, in the order they were applied.
    applied : tuple of str
        Ids of every rule that decided something in this shot, in order, without repeats.
    returned : tuple of Placement
        Pieces put back on the board and where.
    turn_continues : bool
        Whether the same seat shoots again (a break retake included).
    retake : bool
        Whether the shot is void and retaken (ICF-16, ONL-9).
    next_shooter : int
        Seat to shoot next (on the next board when this one is over).
    board_over : bool
        Whether this shot ended the board (round).
    board_winner : int or None
        Team that won the board; None when it is not over (or a tied crokinole round).
    board_points : tuple of int
        Points each team scored on this board (penalties negative); zeros unless over.
    state : GameState
        The state after the shot; the input state is never changed.
    """

    fouls: tuple[Foul, ...]
    applied: tuple[str, ...]
    returned: tuple[Placement, ...]
    turn_continues: bool
    retake: bool
    next_shooter: int
    board_over: bool
    board_winner: int | None
    board_points: tuple[int, ...]
    state: GameState

    @property
    def dues(self) -> tuple[int, ...]:
        """Coins or pucks each team still owes after the shot."""
        return self.state.dues

    @property
    def queen_status(self) -> str:
        """Queen state after the shot (see :data:`carromlab.rules.state.QUEEN_STATUSES`)."""
        return self.state.queen_status

    @property
    def queen_team(self) -> int | None:
        """Team whose queen cover is pending, or that covered it."""
        return self.state.queen_team

    @property
    def game_scores(self) -> tuple[int, ...]:
        """Total points of each team after the shot."""
        return self.state.game_scores

    @property
    def game_over(self) -> bool:
        """Whether the game is finished."""
        return self.state.game_over

    @property
    def game_winner(self) -> int | None:
        """Winning team of a finished game (None: draw or not finished)."""
        return self.state.winner

    @property
    def rule_ids(self) -> frozenset[str]:
        """Every rule id that appears in ``applied`` or ``fouls``."""
        return frozenset(self.applied) | {f.rule for f in self.fouls}
