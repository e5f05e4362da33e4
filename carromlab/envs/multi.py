"""Every seat a learning agent: a PettingZoo AEC environment for 2 or 4 seats."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .._validation import check_choice, check_int
from ..analysis.noise import NoiseModel
from ..match.clock import MatchClock
from ..match.game import MAX_BOARDS, MAX_SHOTS_PER_BOARD, Game, new_state
from ..match.lockstep import stacked, step
from ..match.policies import RandomPolicy
from ..physics.params import PhysicsParams
from .action import action_row, action_space, shots_of_actions
from .observation import first_observation, observation_space, observe_games
from .render import RENDER_MODES, check_render_mode, render_game
from .rewards import RewardWeights, check_rewards, shot_rewards

__all__ = ["CarromAECEnv"]


class CarromAECEnv(AECEnv):
    """A game of one variant between agents ``"seat_0"`` .. ``"seat_{n-1}"`` (2 or 4;
    the rules have no 3-seat game), in the rules' order of play.

    The agent to act is the seat to shoot (``state.shooter``): a turn that continues
    (a pocketed own coin, a retake) selects the same agent again. Its action and
    observation are those of :class:`carromlab.envs.CarromEnv`
    (:func:`~carromlab.envs.shot_of_action`,
    :func:`~carromlab.envs.observe` from the agent's seat). After every
    shot each agent gets :func:`~carromlab.envs.shot_reward` of its team (so
    partners in doubles get the same rewards). Every agent terminates when the rules
    end the game and is truncated when a guard stops it.

    Parameters
    ----------
    variant : {"icf", "online", "hikone", "crokinole"}
        The rules. Default ``"icf"``.
    players : {2, 4}
        Seats. Default 2.
    options : optional
        The variant's options. Default its defaults.
    noise : NoiseModel or sequence of NoiseModel, optional
        Execution noise of every seat or of each. Default none.
    rewards : RewardWeights, optional
        Weights of the reward's terms. Default ``RewardWeights()``.
    params : PhysicsParams, optional
        The physics. Default the board of the game's rules
        (:func:`carromlab.rules.game_physics`: an online game without powder, ONL-10,
        plays on an unpowdered board).
    max_shots_per_board, max_boards : int
        Guards of :func:`carromlab.match.play_game`.
    clock : MatchClock, optional
        The match clock of a Hikone game (HIK-10, :class:`carromlab.match.MatchClock`):
        every seat takes its ``think_s`` a shot, the observations gain ``time_left``
        (:func:`carromlab.envs.observation_space`) and the game ends when time is called.
        Default None: untimed.
    render_mode : {None, "rgb_array"}
        ``"rgb_array"``: :meth:`render` returns the board and its pieces as an RGB image
        (:func:`carromlab.envs.render_frame`). Default None: no rendering.

    Examples
    --------
    >>> env = CarromAECEnv("crokinole", players=4)
    >>> env.reset(seed=0)
    >>> env.agent_selection
    'seat_0'
    """

    metadata = {"name": "carromlab_v0", "render_modes": list(RENDER_MODES), "render_fps": 1, "is_parallelizable": False}

    def __init__(
        self, variant: str = "icf", *, players: int = 2, options: Any = None,
        noise: NoiseModel | list[NoiseModel] | None = None, rewards: RewardWeights | None = None,
        params: PhysicsParams | None = None, max_shots_per_board: int = MAX_SHOTS_PER_BOARD,
        max_boards: int = MAX_BOARDS, clock: MatchClock | None = None, render_mode: str | None = None,
    ) -> None:  # fmt: skip
        super().__init__()
        self.render_mode = check_render_mode(render_mode)
        self._start = new_state(variant, check_int("players", players, low=2, high=4), options)
        self.rewards_weights = check_rewards(rewards)
        # every shot comes from an agent: the policy is never asked
        self._game_kwargs = {"policies": RandomPolicy(name="agent"), "noise": noise, "params": params,
                             "max_shots_per_board": max_shots_per_board, "max_boards": max_boards, "clock": clock}  # fmt: skip
        Game(self._start, seed=0, **self._game_kwargs)  # checks the settings now
        self.possible_agents = [f"seat_{s}" for s in range(self._start.n_players)]
        self._teams = [self._start.team_of(s) for s in range(self._start.n_players)]  # each seat's, as possible_agents
        self._observation_space = observation_space(self._start, clock)
        self._action_space = action_space()
        self.game: Game | None = None
        self._np_random = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of every agent (:func:`~carromlab.envs.observation_space`)."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        """The action space of every agent (:func:`~carromlab.envs.action_space`)."""
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; with ``seed``, the same game for the same actions."""
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        self.game = Game(self._start, seed=int(self._np_random.integers(2**63 - 1)), **self._game_kwargs)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.state.shooter]

    def observe(self, agent: str) -> dict[str, Any]:
        """The observation of ``agent``'s seat (an agent of ``possible_agents``)."""
        if self.game is None:
            raise ValueError("The environment is not started: call reset() first.")
        seat = self.possible_agents.index(check_choice("agent", agent, self.possible_agents))
        return first_observation(observe_games([self.game], seat))

    def render(self) -> np.ndarray | None:
        """The position as an RGB image, uint8 of shape (480, 480, 3)
        (:func:`carromlab.envs.render_frame`); None when ``render_mode`` is None.

        Raises
        ------
        ValueError
            Before :meth:`reset`.
        """
        return render_game(self.render_mode, self.game)

    def close(self) -> None:
        """Nothing to release (each frame's figure is freed once drawn); PettingZoo asks
        for it beside :meth:`render`."""

    def step(self, action: Any) -> None:
        """Play the selected agent's shot (``None`` for an agent that is done).

        Raises
        ------
        ValueError
            If the action is not in the action space, or before :meth:`reset`.
        """
        if self.game is None:
            raise ValueError("The environment is not started: call reset() first.")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game is not None
        # the action's shot and the rewards on the game's arrays (no GameState is built)
        intended = shots_of_actions(stacked([self.game]), action_row(action)[None, :])
        (played,) = step([self.game], intended, policy=agent)
        self._cumulative_rewards[agent] = 0.0
        team_rewards = {team: float(shot_rewards(played.of, team, self.rewards_weights)[0]) for team in set(self._teams)}
        for a in self.agents:
            self.rewards[a] = team_rewards[self._teams[self.possible_agents.index(a)]]
            self.infos[a] = {"end": self.game.end}
        if self.game.end is not None:
            done = self.terminations if self.game.end == "complete" else self.truncations
            for a in self.agents:
                done[a] = True
        self.agent_selection = self.possible_agents[self.game.shooter]
        self._accumulate_rewards()
