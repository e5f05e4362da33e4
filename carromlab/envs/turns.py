"""The agent's turn in N games at once: its shots, then the built-in opponents' replies,
each round one lockstep step (:func:`carromlab.match.lockstep.step`) of the games it
concerns. :class:`~carromlab.envs.single.CarromEnv` is the one-game case and
:class:`~carromlab.envs.vector.CarromVectorEnv` the many-game one."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np
import numpy.typing as npt

from ..match.game import Game, Played
from ..match.lockstep import stacked, step
from ..rules.arrays import GameArrays
from .rewards import RewardWeights, shot_rewards

__all__ = ["agent_shots", "opponent_replies", "restacked"]


def restacked(games: Sequence[Game]) -> GameArrays:
    """The games' positions as one :class:`~carromlab.rules.arrays.GameArrays`
    (:func:`carromlab.match.lockstep.stacked`), which each game then points at
    (:attr:`Game.arrays <carromlab.match.Game.arrays>`: its row of them, the same
    values, and the same GameState objects where built, as the row it pointed at or
    its start): the next ``stacked`` of these games in this order (the agent's
    action, its lockstep step) gives these arrays again instead of joining the rows of
    the games' last steps anew.

    Parameters
    ----------
    games : sequence of Game
        At least one game, all of one variant.

    Returns
    -------
    GameArrays
    """
    arrays = stacked(games)
    for k, g in enumerate(games):
        g.arrays = (arrays, k)
    return arrays


def agent_shots(games: Sequence[Game], shots: npt.ArrayLike, team: int, weights: RewardWeights) -> tuple[list[Played], npt.NDArray[np.float64]]:
    """Play the agent's intended shot in every game (one lockstep step, recorded under
    the policy name ``"agent"``).

    Parameters
    ----------
    games : sequence of Game
        Unfinished games in which the agent is to shoot.
    shots : array_like, shape (N, 5)
        The intended shot in each game (rows as :meth:`Shot.array <carromlab.Shot.array>`).
    team : int
        The agent's team, rewarded.
    weights : RewardWeights
        Weights of the reward.

    Returns
    -------
    played : list of Played
        The shots.
    rewards : numpy.ndarray, shape (N,)
        The agent team's reward for each (:func:`~carromlab.envs.shot_reward`).
    """
    if not games:
        return [], np.zeros(0)
    played = step(games, shots, policy="agent")
    return played, shot_rewards(played[0].of, team, weights)


def opponent_replies(games: Sequence[Game], agent_seats: Collection[int], team: int, weights: RewardWeights) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Play the built-in seats of every game until the agent's team is to shoot or the
    game ends: each round one lockstep step of the games still waiting.

    Parameters
    ----------
    games : sequence of Game
        The games.
    agent_seats : collection of int
        The agent's seats.
    team : int
        The agent's team, rewarded.
    weights : RewardWeights
        Weights of the reward.

    Returns
    -------
    rewards : numpy.ndarray, shape (N,)
        The agent team's reward summed over each game's replies.
    shots : numpy.ndarray of int, shape (N,)
        Replies played in each game.
    """
    rewards, shots = np.zeros(len(games)), np.zeros(len(games), dtype=np.int64)
    seats = np.array(sorted(agent_seats), dtype=np.int64)
    rows = np.array([k for k, g in enumerate(games) if g.end is None and g.shooter not in agent_seats], dtype=np.intp)
    while rows.size:
        played = step([games[k] for k in rows.tolist()])
        rewards[rows] += shot_rewards(played[0].of, team, weights)
        shots[rows] += 1
        # only the games of this round changed: those still waiting for a built-in seat
        rows = rows[~(played[0].of.after.shooter[:, None] == seats).any(axis=1) & np.array([games[k].end is None for k in rows.tolist()], dtype=bool)]
    return rewards, shots
