"""The rewards of the reinforcement-learning environments: pieces, points and the win."""

from __future__ import annotations

from dataclasses import dataclass

from .._validation import check_real
from ..match.game import Played

__all__ = ["RewardWeights", "shot_reward"]


@dataclass(frozen=True)
class RewardWeights:
    """Weights of the three terms of a team's reward for one shot, whoever played it.

    ``pieces``
        Per piece of the team's colour that fell in a pocket (crokinole: the 20-hole)
        on the shot, +1; per piece of another team's colour, -1; the queen, the jack
        and the striker count 0. A piece counts for the owner of its colour whoever
        pocketed it (ICF-4, HIK-3), by the colours of the board the shot was played on.
    ``points``
        Change of (the team's game total - the best other team's game total), in
        points: scores move when a board ends (ICF-7, ONL-5, HIK-8, CRK-5).
    ``win``
        On the shot that ends the game: +1 if the team won, -1 if another team won, 0
        for a draw.

    Parameters
    ----------
    pieces : float
        Weight per piece. Default 1.
    points : float
        Weight per point. Default 1.
    win : float
        Weight of the win. Default 10.

    Examples
    --------
    >>> RewardWeights(points=0.0).win
    10.0
    """

    pieces: float = 1.0
    points: float = 1.0
    win: float = 10.0

    def __post_init__(self) -> None:
        for name in ("pieces", "points", "win"):
            object.__setattr__(self, name, check_real(name, getattr(self, name)))


def shot_reward(played: Played, team: int, weights: RewardWeights) -> float:
    """The reward of ``team`` for one played shot (see :class:`RewardWeights`).

    Parameters
    ----------
    played : Played
        The shot, from :meth:`carromlab.match.Game.shoot`.
    team : int
        The rewarded team.
    weights : RewardWeights
        Weights of the terms.

    Returns
    -------
    float
    """
    before, after, row = played.arrays  # read on the step's arrays, no state built
    colours = [before.palette[c] for c in before.colours[row].tolist()]
    own = colours[team]
    fallen = [kind for _, kind in played.pocketed]
    pieces = sum(k == own for k in fallen) - sum(k in colours and k != own for k in fallen)

    def margin(scores: list[int]) -> int:
        return scores[team] - max(s for t, s in enumerate(scores) if t != team)

    points = margin(after.game_scores[row].tolist()) - margin(before.game_scores[row].tolist())
    win, winner = 0, int(after.winner[row])
    if after.game_over[row] and winner >= 0:
        win = 1 if winner == team else -1
    return weights.pieces * pieces + weights.points * points + weights.win * win
