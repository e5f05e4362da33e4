"""The rewards of the reinforcement-learning environments: pieces, points and the win."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .._validation import check_real, check_type
from ..match.game import Played
from ..match.records import PlayedArrays
from ..rules.arrays.games import of_colours

__all__ = ["RewardWeights", "shot_reward", "shot_rewards"]


@dataclass(frozen=True)
class RewardWeights:
    """Weights of the three terms of a team's reward for one shot, whoever played it.

    ``pieces``
        The change in the team's pieces off the board for good, less the others': per
        piece of the team's colour that fell in a pocket (crokinole: the 20-hole) on the
        shot, +1, and per piece of its colour that the ruling put back on the board (a
        foul's return or penalty, a coin due, a voided puck: ``RulingArrays.returned``),
        -1; per piece of another team's colour, the opposite. So a foul never pays: a
        coin pocketed with the striker and returned counts 0. The queen, the jack and
        the striker count 0. A piece counts for the owner of its colour whoever pocketed
        it (ICF-4, HIK-3), by the colours of the board the shot was played on.
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


def check_rewards(rewards: object) -> RewardWeights:
    """``rewards``, or ``RewardWeights()`` for None; else a TypeError naming the 'rewards' parameter."""
    return RewardWeights() if rewards is None else check_type("rewards", rewards, RewardWeights, hint="e.g. RewardWeights(win=1.0)")


def shot_reward(played: Played, team: int, weights: RewardWeights) -> float:
    """The reward of ``team`` for one played shot (see :class:`~carromlab.envs.RewardWeights`): its row
    of :func:`~carromlab.envs.shot_rewards`.

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
    return float(shot_rewards(played.of, team, weights)[played.row])


def shot_rewards(played: PlayedArrays, team: int, weights: RewardWeights) -> npt.NDArray[np.float64]:
    """The reward of ``team`` for each shot of a lockstep step (see :class:`~carromlab.envs.RewardWeights`),
    read from the step's arrays at once (no state is built).

    Parameters
    ----------
    played : PlayedArrays
        The shots of the step (:attr:`Played.of <carromlab.match.records.Played>`).
    team : int
        The rewarded team.
    weights : RewardWeights
        Weights of the terms.

    Returns
    -------
    numpy.ndarray, shape (N,)
    """
    before, after = played.before, played.after
    colours = before.colours  # (N, T) palette codes, as the pieces' kinds
    mine = after.kind[None, :] == colours[:, team][:, None]
    # +1 per piece that fell, -1 per piece put back (a piece may do both on one shot),
    # counted +1 for a piece of the team's colour and -1 for one of another team's
    net = (played.outcomes.fell[:, : after.n_pieces] > 0).astype(np.int64) - (played.rulings.returned > 0)
    sign = mine.astype(np.int64) - (of_colours(after.kind, colours) & ~mine)
    pieces = (net * sign).sum(axis=1)
    others = np.flatnonzero(np.arange(colours.shape[1]) != team)
    scores = np.stack([after.game_scores, before.game_scores])  # (2, N, T)
    margin = scores[..., team] - scores[..., others].max(axis=-1)  # own less the best other, after and before
    points = margin[0] - margin[1]
    winner = after.winner.astype(np.int64)
    win = np.where(after.game_over & (winner >= 0), np.where(winner == team, 1, -1), 0)
    return weights.pieces * pieces + weights.points * points + weights.win * win
