"""Sliding friction laws, chosen by name from a registry.

A law tells the engine how fast a sliding disc slows down and spins down. Every law here
acts against the velocity of a uniform disc, so the disc's path is a straight line
between events (Farkas et al. 2003 show that a uniform disc does not curve): the engine's
geometry is shared by all laws, and a law only supplies the kinematics along the line.
The constant Coulomb law is solved in closed form inside the engine; the others are
integrated once per segment by the compiled engine (see ``carromlab.physics._kinematics``).

A researcher adds a law by registering an object with the :class:`FrictionLaw` fields in
:data:`.FRICTION_LAWS`; its ``engine`` dict selects the compiled kinematics.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from .._validation import check_choice

if TYPE_CHECKING:
    from .params import PhysicsParams

__all__ = ["FrictionLaw", "Law", "FRICTION_LAWS", "get_law", "slide_spin_factors"]


class FrictionLaw(Protocol):
    """What the engine, :meth:`ShotResult.positions_at` and the fitting tools need from a
    friction law.

    The compiled engine integrates one family of laws (see :class:`~carromlab.physics.friction.Law`): a law is a
    member of it, named by the parameters :meth:`engine` gives. A new law of that family
    is a new :class:`~carromlab.physics.friction.Law` entry in :data:`.FRICTION_LAWS`; a law outside it needs the
    compiled kinematics (``carromlab/physics/_kinematics.pyx``) extended.
    """

    name: str
    #: Fields of :class:`PhysicsParams` the law uses (fitted by the fitting tools).
    parameters: tuple[str, ...]
    #: One-line statement of the law with its source.
    reference: str

    def engine(self, params: PhysicsParams) -> dict[str, float | int]:
        """Parameters of the compiled kinematics for ``params``."""
        ...

    def decelerations(self, params: PhysicsParams, radius: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Constant-law sliding deceleration (m/s^2) and spin-down rate (rad/s^2) of discs
        of radius ``radius`` (m)."""
        ...

    def kinematics(
        self, params: PhysicsParams, radius: float, v0: float, omega0: float, t: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
        """Distance (m), speed (m/s) and spin (rad/s) at times ``t`` (s) of a disc sliding
        freely from ``v0`` and ``omega0``, and its stop time (s)."""
        ...


_MU_KIND = {"constant": 0, "linear": 1, "stribeck": 2}


@dataclass(frozen=True)
class Law:
    """A friction law of the family  dv/dt = -g mu(v) F(eps) - k v^2,
    dw/dt = -(2 g mu(v) / R) T(eps)  (or an independent spin decay at (4/3) g mu(0) / R
    when ``slide_spin`` is False, the eps -> 0 limit T(0) = 2/3).

    Parameters
    ----------
    name : str
        Registry name.
    mu_kind : {"constant", "linear", "stribeck"}
        Speed dependence of mu(v): ``mu``; ``mu + mu_v v``; or
        ``mu + (mu_static - mu) exp(-(v / stribeck_speed)^2)``.
    slide_spin : bool
        Couple slide and spin through F(eps), T(eps), eps = v / (R w) (Farkas et al. 2003).
    parameters : tuple of str
        Fields of PhysicsParams the law uses.
    reference : str
        The law and its source.
    """

    name: str
    mu_kind: str
    slide_spin: bool
    parameters: tuple[str, ...]
    reference: str

    def engine(self, params: PhysicsParams) -> dict[str, float | int]:
        """Parameters of the compiled kinematics (``numeric`` is 0 only for the constant
        Coulomb law without drag, which the engine solves in closed form)."""
        numeric = self.slide_spin or self.mu_kind != "constant" or params.air_drag > 0.0
        return {
            "numeric": int(numeric),
            "slide_spin": int(self.slide_spin),
            "mu_kind": _MU_KIND[self.mu_kind],
            "g": params.g,
            "mu": params.mu,
            "mu_v": params.mu_v,
            "mu_s": params.mu_static,
            "v_s": params.stribeck_speed,
            "drag": params.air_drag,
        }

    def decelerations(self, params: PhysicsParams, radius: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Constant-law decelerations of discs.

        Parameters
        ----------
        params : PhysicsParams
            Gives mu (and mu_static for the Stribeck law) and g (m/s^2).
        radius : array_like
            Disc radii, m.

        Returns
        -------
        a : numpy.ndarray
            Sliding deceleration mu g, m/s^2, one per disc.
        alpha : numpy.ndarray
            Spin-down rate 4 mu(0) g / (3 R), rad/s^2, one per disc (Farkas et al. 2003,
            the eps -> 0 limit T(0) = 2/3).
        """
        r = np.asarray(radius, dtype=float)
        mu0 = params.mu_static if self.mu_kind == "stribeck" else params.mu
        return np.full(r.shape, params.mu * params.g), 4.0 * mu0 * params.g / (3.0 * r)

    def kinematics(
        self, params: PhysicsParams, radius: float, v0: float, omega0: float, t: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
        """Free sliding of one disc, from the compiled kinematics the engine uses.

        Parameters
        ----------
        params : PhysicsParams
            The law's parameters.
        radius : float
            Disc radius, m.
        v0 : float
            Initial speed, m/s.
        omega0 : float
            Initial spin, rad/s (its sign is kept).
        t : array_like
            Times from the start, s.

        Returns
        -------
        s, v, omega : numpy.ndarray
            Distance slid (m), speed (m/s) and spin (rad/s) at ``t``.
        t_stop : float
            Time at which the sliding stops, s.
        """
        from . import _kinematics

        t = np.ascontiguousarray(t, dtype=float)
        s, v, w, t_stop, _ = _kinematics.kinematics(self.engine(params), float(radius), float(v0), abs(float(omega0)), t)
        return s, v, np.sign(omega0) * w, float(t_stop)


#: The sliding friction laws by name (``PhysicsParams.friction_law``): ``"coulomb"``,
#: ``"linear"``, ``"stribeck"`` and ``"slide_spin"`` (the default), each a :class:`~carromlab.physics.friction.Law` of
#: the family the compiled engine integrates; register a new one here (:func:`~carromlab.physics.friction.get_law`
#: reads it).
FRICTION_LAWS: dict[str, FrictionLaw] = {
    "coulomb": Law(
        "coulomb", "constant", False, ("mu",),
        "Constant Coulomb friction mu g against the velocity; the spin decays on its own at "
        "(4/3) mu g / R (Farkas et al., Phys. Rev. Lett. 90, 248302, 2003, eps -> 0 limit).",
    ),
    "slide_spin": Law(
        "slide_spin", "constant", True, ("mu",),
        "Coupled slide and spin of a uniform-pressure disc with Coulomb friction on every area "
        "element: Farkas, Bartels, Unger & Wolf, Phys. Rev. Lett. 90, 248302 (2003), "
        "doi:10.1103/PhysRevLett.90.248302.",
    ),
    "linear": Law(
        "linear", "linear", False, ("mu", "mu_v"),
        "Speed-dependent Coulomb friction mu(v) = mu + mu_v v (Coulomb plus viscous terms of "
        "Armstrong-Helouvry, Dupont & Canudas de Wit, Automatica 30, 1083, 1994).",
    ),
    "stribeck": Law(
        "stribeck", "stribeck", False, ("mu", "mu_static", "stribeck_speed"),
        "Stribeck curve mu(v) = mu + (mu_static - mu) exp(-(v / v_s)^2) (Armstrong-Helouvry, "
        "Dupont & Canudas de Wit, Automatica 30, 1083, 1994).",
    ),
}  # fmt: skip


def get_law(name: str, *, parameter: str = "friction_law") -> FrictionLaw:
    """A friction law by name.

    Parameters
    ----------
    name : str
        A key of :data:`.FRICTION_LAWS` (``"slide_spin"``, ``"coulomb"``, ``"linear"``,
        ``"stribeck"``).
    parameter : str
        The caller's name for ``name``, shown in the error message. Default
        ``"friction_law"`` (the field of :class:`~carromlab.PhysicsParams`).

    Returns
    -------
    FrictionLaw

    Raises
    ------
    TypeError
        If the name is not a str.
    ValueError
        If the name is unknown (the message lists the known names).
    """
    return FRICTION_LAWS[check_choice(parameter, name, FRICTION_LAWS)]


def slide_spin_factors(eps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Force and torque factors F(eps), T(eps) of the slide-spin law, eps = v / (R w) >= 0.

    Computed exactly (complete elliptic integrals by the arithmetic-geometric mean) by the
    compiled engine; F(0) = 0, F(1) = 8/(3 pi), F -> 1 and T -> 1/(4 eps) as eps -> inf,
    T(0) = 2/3, T(1) = 8/(9 pi) (Farkas et al., Phys. Rev. Lett. 90, 248302, 2003).

    Parameters
    ----------
    eps : array_like
        Slip ratios v / (R w), dimensionless, >= 0.

    Returns
    -------
    F, T : numpy.ndarray
        The force factor (the sliding deceleration over mu g) and the torque factor (the
        spin deceleration over 2 mu g / R), of the shape of ``eps``.
    """
    from .._validation import check_array
    from . import _kinematics

    e = check_array("eps", np.atleast_1d(eps), low=0.0)
    return _kinematics.farkas_FT(np.ascontiguousarray(e.ravel()))
