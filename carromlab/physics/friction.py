"""Sliding friction laws, chosen by name from a registry.

A law tells the engine how fast a sliding disc slows down. Every law here keeps the path
of a disc a straight line between events (true for any friction that acts against the
velocity of a uniform disc; Farkas et al. 2003 show a uniform disc does not curve), so
the engine's geometry is shared; what a law supplies is the kinematics along the line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from .params import PhysicsParams

__all__ = ["FrictionLaw", "CoulombLaw", "FRICTION_LAWS", "get_law"]


class FrictionLaw(Protocol):
    """What the engine needs from a friction law."""

    name: str
    #: Integer code of the law's kinematics inside the compiled engine.
    engine_code: int

    def decelerations(self, params: PhysicsParams, radius: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Sliding deceleration (m/s^2) and spin deceleration (rad/s^2) of each disc."""
        ...


@dataclass(frozen=True)
class CoulombLaw:
    """Constant Coulomb friction: deceleration mu*g against the velocity.

    Spin decays independently at (4/3) mu g / R, the pure-spin limit T(0) = 2/3 of the
    uniform-pressure disc (Farkas, Bartels, Unger & Wolf, Phys. Rev. Lett. 90, 248302,
    2003, doi:10.1103/PhysRevLett.90.248302), so it never changes the path.
    """

    name: str = "coulomb"
    engine_code: int = 0

    def decelerations(self, params: PhysicsParams, radius: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return ``(mu g, 4 mu g / (3 R))`` for each disc radius ``R`` (m)."""
        r = np.asarray(radius, dtype=float)
        a = np.full(r.shape, params.mu * params.g)
        return a, 4.0 * params.mu * params.g / (3.0 * r)


FRICTION_LAWS: dict[str, FrictionLaw] = {"coulomb": CoulombLaw()}


def get_law(name: str) -> FrictionLaw:
    """Look a friction law up by name; ValueError lists the known names."""
    if name not in FRICTION_LAWS:
        raise ValueError(
            f"The 'friction_law' parameter must be one of {sorted(FRICTION_LAWS)}. Got {name!r} instead."
        )
    return FRICTION_LAWS[name]
