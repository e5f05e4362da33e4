"""N games against built-in opponents stepped together: a Gymnasium ``VectorEnv`` whose
step is a lockstep step of every game (one engine batch and one array adjudication)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from .._validation import check_int
from ..match.game import Game
from .action import shots_of_actions
from .observation import observe_games
from .render import RENDER_MODES, render_games
from .single import CarromEnv
from .turns import agent_shots, opponent_replies, restacked

__all__ = ["CarromVectorEnv"]


class CarromVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of :class:`~carromlab.envs.single.CarromEnv`, stepped in lockstep.

    Environment ``i`` plays exactly what ``CarromEnv(**kwargs)`` reset with seed
    ``seed + i`` plays for the same actions (observations, rewards, ends, shot for
    shot), and autoresets as :class:`gymnasium.vector.SyncVectorEnv` does by default
    (``AutoresetMode.NEXT_STEP``: the step after an episode's end resets that
    environment, ignores its action and returns its first observation with reward 0).
    But a step is played for all environments at once: the agent's shots of every game
    are one :func:`carromlab.match.lockstep.step` (one many-scene engine batch per shot
    disc and side, one array adjudication), and each round of the opponents' replies is
    one more step of the games still waiting (``carromlab.envs.turns``).

    Parameters
    ----------
    num_envs : int
        Number of games, in [1, 100000]. Default 16.
    variant : {"icf", "online", "hikone", "crokinole"}
        The rules. Default ``"icf"``.
    **kwargs
        The other parameters of :class:`~carromlab.envs.single.CarromEnv` (players,
        options, seat, opponent, skill, noise, rewards, params, guards, clock, render_mode),
        shared by every game.

    Attributes
    ----------
    games : list of Game
        The games in progress (None before :meth:`reset`).

    Examples
    --------
    >>> envs = CarromVectorEnv(4, "crokinole", opponent="random")
    >>> obs, info = envs.reset(seed=1)
    >>> _ = envs.action_space.seed(1)
    >>> obs["positions"].shape[0], envs.action_space.shape
    (4, (4, 4))
    >>> obs, rewards, terminated, truncated, info = envs.step(envs.action_space.sample())
    >>> rewards.shape, bool((info["shots"] >= 1).all())
    ((4,), True)
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1, "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 16, variant: str = "icf", **kwargs: Any) -> None:
        self.num_envs = check_int("num_envs", num_envs, low=1, high=100_000)
        self._one = CarromEnv(variant, **kwargs)  # checks the settings, holds the spaces and the seats
        self.render_mode = self._one.render_mode
        self.single_observation_space = self._one.observation_space
        self.single_action_space = self._one.action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.games: list[Game | None] = [None] * self.num_envs
        self._rngs: list[np.random.Generator | None] = [None] * self.num_envs
        self._carry = np.zeros(self.num_envs)
        self._ended = np.zeros(self.num_envs, dtype=bool)

    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a new game in every environment; game ``i``'s seed is drawn from
        environment ``i``'s generator, seeded with ``seed + i`` (an int), ``seed[i]``
        (a list or tuple of one per environment) or kept (None).

        Returns
        -------
        observations : dict of numpy.ndarray
            Batched as ``observation_space``.
        info : dict
            ``game_seed`` and ``shots`` (the opponents' shots before the agent's first), per
            game, each with its Gymnasium mask (``_game_seed``, ``_shots``: all True).
        """
        seeds = list(seed) if isinstance(seed, (list, tuple)) else [None if seed is None else seed + i for i in range(self.num_envs)]
        if len(seeds) != self.num_envs:
            raise ValueError(f"The 'seed' parameter must be an int, None or a list of {self.num_envs} seeds. Got {seed!r} instead.")
        rows = list(range(self.num_envs))
        game_seeds, shots = self._new_games(rows, seeds)
        self._ended[:] = False
        every = np.ones(self.num_envs, dtype=bool)
        return self._observe(), _masked({"game_seed": (game_seeds, every), "shots": (shots, every)})

    def step(self, actions: Any) -> tuple[dict[str, Any], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play the agent's shot and the opponents' replies in every game, resetting the
        games that ended on the previous step (see the class notes).

        Parameters
        ----------
        actions : array_like, shape (num_envs, 4)
            One action per game (:func:`~carromlab.envs.shot_of_action`).

        Returns
        -------
        observations, rewards, terminated, truncated, info
            Batched; ``info`` holds, as :class:`gymnasium.vector.SyncVectorEnv` of
            :class:`~carromlab.envs.single.CarromEnv` would, ``shots`` (shots played,
            replies included; a reset environment's are the opponents' shots before the
            agent's first); for the stepped environments ``snapped`` (the agent's
            placement was moved), ``fouls`` (the agent's shot's rule ids) and ``end``
            (the game's end or None); for the reset ones ``game_seed``; and ``reset``
            (the environment was reset instead of stepped). Each key ``k`` has its mask
            ``_k`` of the environments that have it (Gymnasium's layout).

        Raises
        ------
        ValueError
            If an action is not in the action space, or :meth:`reset` was never called.
        """
        if None in self.games:
            raise ValueError("The environments are not started: call reset() first.")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs, 4):
            raise ValueError(f"The 'actions' parameter must have shape ({self.num_envs}, 4). Got {acts.shape} instead.")
        one = self._one
        again = np.flatnonzero(self._ended)
        play = np.flatnonzero(~self._ended)
        games = [self.games[k] for k in play]
        intended = shots_of_actions(restacked(games), acts[play]) if games else []  # type: ignore[arg-type]
        played, agent = agent_shots(games, intended, one.team, one.rewards)  # type: ignore[arg-type]
        rewards = np.zeros(self.num_envs)
        shots = np.zeros(self.num_envs, dtype=np.int64)
        snapped = np.zeros(self.num_envs, dtype=bool)
        game_seeds = np.zeros(self.num_envs, dtype=np.int64)
        game_seeds[again] = self._new_games(list(again), [None] * len(again), reply=False)[0]
        # the replies of the stepped and of the reset games, in one lockstep
        rows = np.concatenate([play, again])
        more, replies = opponent_replies([self.games[k] for k in rows], one._agent_seats, one.team, one.rewards)
        n = len(play)
        rewards[play] = (self._carry[play] + agent) + more[:n]
        shots[play] = 1 + replies[:n]
        snapped[play] = played[0].of.snapped if played else False  # the agent's shots are one step
        self._carry[play] = 0.0
        self._carry[again] = more[n:]
        shots[again] = replies[n:]
        ends = np.fromiter((g.end for g in self.games), dtype=object, count=self.num_envs)  # type: ignore[union-attr]
        terminated = (ends == "complete") & ~self._ended
        truncated = ((ends == "abandoned") | (ends == "max_boards")) & ~self._ended
        self._ended = terminated | truncated
        fouls, end = np.full(self.num_envs, None, dtype=object), np.full(self.num_envs, None, dtype=object)
        if played:  # the agent's shots are one step
            fouls[play] = np.fromiter(map(list, played[0].of.fouls), dtype=object, count=len(play))
            end[play] = ends[play]
        reset, every = np.zeros(self.num_envs, dtype=bool), np.ones(self.num_envs, dtype=bool)
        reset[again] = True
        info = _masked({"shots": (shots, every), "snapped": (snapped, ~reset), "fouls": (fouls, ~reset),
                        "end": (end, ~reset), "game_seed": (game_seeds, reset), "reset": (reset, every)})  # fmt: skip
        return self._observe(), rewards, terminated, truncated, info

    def render(self) -> tuple[np.ndarray, ...] | None:
        """Every game's position as an RGB image (:meth:`CarromEnv.render
        <carromlab.envs.CarromEnv.render>`), as :class:`gymnasium.vector.SyncVectorEnv`
        returns them; None when ``render_mode`` is None.

        Raises
        ------
        ValueError
            Before :meth:`reset`.
        """
        frames = render_games(self.render_mode, self.games)
        return None if frames is None else tuple(frames)

    def _new_games(self, rows: list[int], seeds: list[int | None], reply: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """New games in the environments ``rows`` (their generators seeded when a seed is
        given, as :meth:`gymnasium.Env.reset` does), with the opponents' replies unless
        ``reply`` is False: the game seeds and the replies' shots."""
        one = self._one
        game_seeds = np.zeros(len(rows), dtype=np.int64)
        for i, (k, s) in enumerate(zip(rows, seeds)):
            if s is not None or self._rngs[k] is None:
                self._rngs[k], _ = seeding.np_random(s)
            game_seeds[i] = int(self._rngs[k].integers(2**63 - 1))  # type: ignore[union-attr]
            self.games[k] = Game(one._start, seed=int(game_seeds[i]), **one._game_kwargs)
        if not reply:
            return game_seeds, np.zeros(len(rows), dtype=np.int64)
        carry, shots = opponent_replies([self.games[k] for k in rows], one._agent_seats, one.team, one.rewards)
        self._carry[rows] = carry
        return game_seeds, shots

    def _observe(self) -> dict[str, Any]:
        """The batched observations of every game by the agent's seat, on the games'
        positions stacked once (``restacked``: the next step's shots start from them)."""
        restacked(self.games)  # type: ignore[arg-type]
        return observe_games(self.games, self._one.seat)  # type: ignore[arg-type]


def _masked(items: dict[str, tuple[np.ndarray, np.ndarray]]) -> dict[str, np.ndarray]:
    """A vector environment's info in Gymnasium's layout: each key's values (one per
    environment) beside ``_key``, a boolean mask of the environments that have it (as
    :class:`gymnasium.vector.SyncVectorEnv` gathers its environments' infos)."""
    return {name: array for key, (values, mask) in items.items() for name, array in ((key, values), (f"_{key}", mask))}
