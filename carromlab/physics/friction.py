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

import math
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
#: Top speed of the compiled speed tables, m/s (``SP_VMAX`` of ``_kinematics.pyx``): a table
#: is built from rest until the speed reaches it (see :meth:`Law.kinematics`).
SPEED_TABLE_TOP = 25.0


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

        Notes
        -----
        A law whose spin does not couple into sliding but whose deceleration depends on the
        speed (Stribeck, linear, any air drag) is a look-up in a speed table built once per
        parameter set, from rest up to ``SPEED_TABLE_TOP`` (25 m/s) whatever the disc's speed
        (tens of ms to build at mu = 0.1). For a slower disc the speeds are scaled by a
        power of 2, lambda = 2^k <= 1 with v0 <= lambda SPEED_TABLE_TOP: the law with
        g / lambda, mu_v lambda, stribeck_speed / lambda, air_drag lambda and radius /
        lambda moves as v / lambda at the same times (the same spin), and its table needs
        to reach only v0. Scaling by a power of 2 is exact in floating point, and the
        table, its integrator and its look-ups are linear in the speed, so the results are
        the same bit for bit (tests/physics/test_friction_laws.py) from a table up to 2^|k|
        times shorter. A parameter set keeps the largest lambda it was used with, so that
        slower discs under it (the segments of one fit) reuse that table.
        """
        from . import _kinematics

        t = np.ascontiguousarray(t, dtype=float)
        law, radius, v0 = self.engine(params), float(radius), float(v0)
        scale = 1.0
        if law["numeric"] and not law["slide_spin"] and 0.0 < v0 < SPEED_TABLE_TOP:
            scale = _table_scale(law, v0)
            law = dict(law, g=law["g"] / scale, mu_v=law["mu_v"] * scale, v_s=law["v_s"] / scale, drag=law["drag"] * scale)
        s, v, w, t_stop, _ = _kinematics.kinematics(law, radius / scale, v0 / scale, abs(float(omega0)), t)
        return s * scale, v * scale, np.sign(omega0) * w, float(t_stop)


#: Per parameter set of a speed-table law (its ``engine`` dict as a sorted tuple), the
#: largest speed scale (a power of 2) its kinematics were evaluated with.
_TABLE_SCALES: dict[tuple[tuple[str, float | int], ...], float] = {}


def _table_scale(law: dict[str, float | int], v0: float) -> float:
    """The speed scale of :meth:`Law.kinematics` for a disc at ``v0`` (m/s, in (0,
    SPEED_TABLE_TOP)): the power of 2 that puts v0 just below the table's top, or the larger
    one the parameter set was used with before."""
    key = tuple(sorted(law.items()))
    if key not in _TABLE_SCALES and len(_TABLE_SCALES) >= 64:
        _TABLE_SCALES.clear()
    need = 2.0 ** max(math.ceil(math.log2(v0 / SPEED_TABLE_TOP)), -64)
    scale = _TABLE_SCALES[key] = max(need, _TABLE_SCALES.get(key, 0.0))
    return scale


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
