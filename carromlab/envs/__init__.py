"""Reinforcement-learning environments on the match engine: one team against built-in
opponents (Gymnasium, one game or N in lockstep) or every seat an agent (PettingZoo AEC).

See ``docs/envs.md``. Importing this package registers the Gymnasium ids
(:data:`~carromlab.envs.registration.ENV_IDS`). Modules:

====================  ==========================================================
``observation.py``    :func:`observation_space`, :func:`observe`, :func:`observe_many`, :func:`observe_games` (what a seat sees)
``action.py``         :func:`action_space`, :func:`shot_of_action`, :func:`shots_of_actions` (action -> shot)
``rewards.py``        :class:`RewardWeights`, :func:`shot_reward`, :func:`shot_rewards`
``opponents.py``      :func:`opponent`: built-in policies at noise-preset skills
``render.py``         :func:`render_frame`: the picture of ``render_mode="rgb_array"``
``single.py``         :class:`CarromEnv` (``gymnasium.Env``)
``turns.py``          ``agent_shots``, ``opponent_replies`` (N games' turns)
``vector.py``         :class:`CarromVectorEnv` (``gymnasium.vector.VectorEnv``)
``multi.py``          :class:`CarromAECEnv` (``pettingzoo.AECEnv``)
``registration.py``   :func:`register_envs`, :data:`.ENV_IDS`
====================  ==========================================================
"""

from .action import SPIN_LIMIT, action_space, shot_of_action, shots_of_actions
from .multi import CarromAECEnv
from .observation import POSITION_LIMIT, QUEEN_CODES, observation_space, observe, observe_games, observe_many
from .opponents import OPPONENTS, SKILLS, opponent
from .registration import ENV_IDS, register_envs
from .render import RENDER_MODES, render_frame
from .rewards import RewardWeights, shot_reward, shot_rewards
from .single import CarromEnv
from .vector import CarromVectorEnv

__all__ = [
    "ENV_IDS",
    "OPPONENTS",
    "POSITION_LIMIT",
    "QUEEN_CODES",
    "RENDER_MODES",
    "SKILLS",
    "SPIN_LIMIT",
    "CarromAECEnv",
    "CarromEnv",
    "CarromVectorEnv",
    "RewardWeights",
    "action_space",
    "observation_space",
    "observe",
    "observe_games",
    "observe_many",
    "opponent",
    "register_envs",
    "render_frame",
    "shot_of_action",
    "shot_reward",
    "shot_rewards",
    "shots_of_actions",
]

register_envs()
