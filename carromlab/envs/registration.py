"""The Gymnasium ids of the environments: ``carromlab/ICF-v0``, ``carromlab/Online-v0``,
``carromlab/Hikone-v0``, ``carromlab/Crokinole-v0``."""

from __future__ import annotations

import gymnasium

__all__ = ["ENV_IDS", "register_envs"]

#: Gymnasium id of each variant's :class:`carromlab.envs.CarromEnv`.
ENV_IDS = {"icf": "carromlab/ICF-v0", "online": "carromlab/Online-v0", "hikone": "carromlab/Hikone-v0",
           "crokinole": "carromlab/Crokinole-v0"}  # fmt: skip


def register_envs() -> None:
    """Register every id of :data:`.ENV_IDS` with Gymnasium (again, harmlessly, if already there):
    ``gymnasium.make`` builds a :class:`~carromlab.envs.single.CarromEnv`,
    ``gymnasium.make_vec`` a :class:`~carromlab.envs.vector.CarromVectorEnv`.

    Importing :mod:`carromlab.envs` calls it. It is also the ``carromlab`` entry of the
    ``gymnasium.envs`` entry-point group in ``pyproject.toml``, which Gymnasium before
    1.0 loaded at its own import; Gymnasium 1.x reads no entry points, so there the
    ids exist once :mod:`carromlab.envs` is imported, or are found by
    ``gymnasium.make("carromlab.envs:carromlab/ICF-v0")``.

    Examples
    --------
    >>> import gymnasium
    >>> register_envs()
    >>> gymnasium.spec("carromlab/Hikone-v0").kwargs
    {'variant': 'hikone'}
    """
    for variant, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="carromlab.envs.single:CarromEnv",
                               vector_entry_point="carromlab.envs.vector:CarromVectorEnv", kwargs={"variant": variant})
