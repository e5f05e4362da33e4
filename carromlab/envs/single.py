"""One learning team against built-in opponents: a :class:`gymnasium.Env` per variant."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from .._validation import check_int
from ..analysis.execution import check_noise
from ..analysis.noise import NoiseModel
from ..match.clock import MatchClock
from ..match.game import MAX_BOARDS, MAX_SHOTS_PER_BOARD, Game, new_state
from ..match.lockstep import stacked
from ..physics.params import PhysicsParams
from .action import action_row, action_space, shots_of_actions
from .observation import first_observation, observation_space, observe_games
from .opponents import opponent as built_in
from .render import RENDER_MODES, check_render_mode, render_game
from .rewards import RewardWeights, check_rewards
from .turns import agent_shots, opponent_replies

__all__ = ["CarromEnv"]


class CarromEnv(gymnasium.Env):
    """A game of one variant: the agent plays every seat of its team, built-in
    opponents play the others.

    Each :meth:`step` plays the agent's shot (:func:`carromlab.envs.shot_of_action`
    of the action, executed with the agent's ``noise``), then every opponent shot until
    the agent's team is to shoot again or the game ends, each by
    :meth:`carromlab.match.Game.shoot` (engine, rules and the piece-conservation check; the one-game case of
    ``carromlab.envs.turns``, which :class:`~carromlab.envs.vector.CarromVectorEnv` plays for N games).
    The observation is the agent's view after them
    (:func:`carromlab.envs.observation_space`); the reward sums
    :func:`carromlab.envs.shot_reward` of the agent's team over all those shots.
    ``terminated`` when the rules end the game (in a timed Hikone game, also when time is
    called, HIK-10); ``truncated`` when a guard stops it (``max_shots_per_board``,
    ``max_boards``, see :func:`carromlab.match.play_game`).
    A seeded :meth:`reset` replays the same game for the same actions.

    Parameters
    ----------
    variant : {"icf", "online", "hikone", "crokinole"}
        The rules. Default ``"icf"``.
    players : {2, 4}
        Seats (see :func:`carromlab.match.new_state`). Default 2.
    options : optional
        The variant's options. Default its defaults.
    seat : int
        The agent's seat (its team is every seat of the same team). Default 0 (breaks
        or opens the first board).
    opponent : {"random", "greedy"}
        Policy of the other seats (:func:`carromlab.envs.opponent`). Default
        ``"greedy"``.
    skill : {"none", "expert", "club", "beginner"}
        Execution noise of the opponents. Default ``"club"``.
    noise : NoiseModel, optional
        Execution noise of the agent. Default none.
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
        every seat, the agent's included, takes its ``think_s`` a shot, the observation
        gains ``time_left`` (:func:`carromlab.envs.observation_space`) and the game ends
        when time is called. Default None: untimed.
    render_mode : {None, "rgb_array"}
        ``"rgb_array"``: :meth:`render` returns the board and its pieces as an RGB image
        (:func:`carromlab.envs.render_frame`). Default None: no rendering.

    Examples
    --------
    >>> env = CarromEnv("crokinole", opponent="random")
    >>> obs, info = env.reset(seed=1)
    >>> _ = env.action_space.seed(1)
    >>> obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
    >>> info["shots"] >= 1
    True
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(
        self, variant: str = "icf", *, players: int = 2, options: Any = None, seat: int = 0, opponent: str = "greedy",
        skill: str = "club", noise: NoiseModel | None = None, rewards: RewardWeights | None = None,
        params: PhysicsParams | None = None, max_shots_per_board: int = MAX_SHOTS_PER_BOARD,
        max_boards: int = MAX_BOARDS, clock: MatchClock | None = None, render_mode: str | None = None,
    ) -> None:  # fmt: skip
        self.render_mode = check_render_mode(render_mode)
        self._start = new_state(variant, players, options)
        self.seat = check_int("seat", seat, low=0, high=self._start.n_players - 1)
        self.team = self._start.team_of(self.seat)
        self._agent_seats = frozenset(s for s in range(self._start.n_players) if self._start.team_of(s) == self.team)
        policy, skill_noise = built_in(opponent, skill, params)
        noise = check_noise("noise", noise, NoiseModel())
        self.rewards = check_rewards(rewards)
        seats = range(self._start.n_players)
        self._game_kwargs = {
            "policies": policy,
            "noise": [noise if s in self._agent_seats else skill_noise for s in seats],
            "params": params, "max_shots_per_board": max_shots_per_board, "max_boards": max_boards, "clock": clock,
        }  # fmt: skip
        Game(self._start, seed=0, **self._game_kwargs)  # checks the settings now
        self.observation_space = observation_space(self._start, clock)
        self.action_space = action_space()
        self.game: Game | None = None
        self._carry = 0.0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a new game; its seed is drawn from the environment's generator. (A guard,
        ``max_shots_per_board`` or ``max_boards``, may end the game during the opponents'
        opening shots; the next :meth:`step` then says so.)"""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**63 - 1))
        self.game = Game(self._start, seed=game_seed, **self._game_kwargs)
        self._carry, shots = self._opponents()
        return self._observation(), {"game_seed": game_seed, "shots": shots}

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play the agent's shot and the opponents' replies (see the class notes).

        Raises
        ------
        ValueError
            If the action is not in the action space, or the episode is over (call
            :meth:`reset`).
        """
        if self.game is None:
            raise ValueError("The episode is not started: call reset() first.")
        if self.game.end is not None:
            raise ValueError(f"The episode is over (the game ended: {self.game.end!r}): call reset() for a new one.")
        # the action's shot on the game's own arrays (shot_of_action would stack its state anew)
        intended = shots_of_actions(stacked([self.game]), action_row(action)[None, :])
        (played,), agent = agent_shots([self.game], intended, self.team, self.rewards)
        reward = self._carry + float(agent[0])
        more, shots = self._opponents()
        info = {"shots": 1 + shots, "snapped": bool(played.of.snapped[played.row]), "fouls": list(played.fouls),
                "end": self.game.end}  # fmt: skip
        self._carry = 0.0
        obs = self._observation()
        return obs, float(reward + more), self.game.end == "complete", self.game.end in ("abandoned", "max_boards"), info

    def render(self) -> np.ndarray | None:
        """The position after the last step (or the reset) as an RGB image, uint8 of
        shape (480, 480, 3) (:func:`carromlab.envs.render_frame`); None when
        ``render_mode`` is None.

        Raises
        ------
        ValueError
            Before :meth:`reset`.
        """
        return render_game(self.render_mode, self.game)

    def _observation(self) -> dict[str, Any]:
        """The agent's observation (:func:`~carromlab.envs.observe`), read from the game's
        own arrays (no state is built)."""
        assert self.game is not None
        return first_observation(observe_games([self.game], self.seat))

    def _opponents(self) -> tuple[float, int]:
        """Play the opponents until the agent's team shoots or the game ends: their reward for the agent, and the shots."""
        assert self.game is not None
        reward, shots = opponent_replies([self.game], self._agent_seats, self.team, self.rewards)
        return float(reward[0]), int(shots[0])
