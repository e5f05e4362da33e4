"""Built-in opponents of the reinforcement-learning environments: a policy and a skill
(execution noise), the "CPU" that plays the other seats."""

from __future__ import annotations

from ..analysis.noise import NOISE_PRESETS, NoiseModel
from .._validation import check_choice
from ..match.policies import GreedyPolicy, Policy, RandomPolicy
from ..physics.params import PhysicsParams

__all__ = ["OPPONENTS", "SKILLS", "opponent"]

#: The opponents' policies: ``"random"`` (:class:`carromlab.match.RandomPolicy`) and
#: ``"greedy"`` (:class:`carromlab.match.GreedyPolicy`, its default 200 candidates).
OPPONENTS = ("random", "greedy")
#: The skill levels: the execution-noise presets of
#: :data:`carromlab.analysis.noise.NOISE_PRESETS` (``"none"`` plays every shot as meant).
SKILLS = tuple(NOISE_PRESETS)


def opponent(name: str = "greedy", skill: str = "club", params: PhysicsParams | None = None) -> tuple[Policy, NoiseModel]:
    """A built-in opponent: its policy and its execution noise.

    Parameters
    ----------
    name : {"random", "greedy"}
        The policy (:data:`.OPPONENTS`). Default ``"greedy"``.
    skill : {"none", "expert", "club", "beginner"}
        The noise preset (:data:`.SKILLS`). Default ``"club"``.
    params : PhysicsParams, optional
        The physics the greedy opponent believes in. Default the board of each game's
        rules (:func:`carromlab.rules.game_physics`).

    Returns
    -------
    policy : Policy
    noise : NoiseModel

    Examples
    --------
    >>> policy, noise = opponent("random", "expert")
    >>> policy.name, noise.placement
    ('random', 0.001)
    """
    check_choice("opponent", name, OPPONENTS)
    noise = NoiseModel.preset(check_choice("skill", skill, SKILLS))
    policy: Policy = RandomPolicy() if name == "random" else GreedyPolicy(params=params)
    return policy, noise
