"""Physics parameters of a shot: board friction, gravity, impacts and pocket capture."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, ClassVar

from .._validation import check_choice, check_fields, check_int, check_real, check_type

__all__ = ["PhysicsParams", "POWDERS", "MU_MIN", "check_params"]

#: Smallest friction coefficient taken, mu and the Stribeck law's mu_static: the friction
#: laws' motion (with air drag up to 10 1/m and speeds up to 30 m/s) is checked against a
#: reference integrator down to it (docs/physics.md); below it a fast disc under drag
#: stops kilometres away, beyond the tables' range.
MU_MIN = 1e-6

#: Sliding friction coefficient of a disc on the board, by powder (dimensionless).
#: Every value is an [EST] placed inside measured ranges for discs on powder layers
#: (Iizawa: potato starch 0.072-0.078, flour 0.11-0.15, boric-acid films 0.05-0.07)
#: and the ICF board test (a 4 m/s striker making 3.5 runs bounds mu <~ 0.13).
POWDERS: dict[str, tuple[float, str]] = {
    "boric": (0.06, "[EST] boric-acid film, middle of the 0.05-0.07 measured range"),
    "starch": (0.075, "[EST] potato starch, middle of the 0.072-0.078 measured range"),
    "tournament": (0.10, "[EST] a fast, well-powdered board, inside the ICF run-test bound mu <~ 0.13"),
    "club": (0.12, "[EST] an average club board, inside the 0.11-0.15 range used by other simulators"),
    "flour": (0.13, "[EST] flour, lower half of the 0.11-0.15 measured range"),
    "unpowdered": (0.20, "[EST] a bare lacquered board; matches the pymunk peer's mu = 0.2 yardstick"),
}


@dataclass(frozen=True)
class PhysicsParams:
    """Physical constants of the board, the impacts and the pockets (SI units).

    Parameters
    ----------
    mu : float
        Sliding friction coefficient disc-board (dimensionless), in [1e-6, 2] (``MU_MIN``:
        the range over which the friction laws' motion is checked against a reference
        integrator, with air drag up to 10 1/m; docs/physics.md). Default 0.12, the
        ``"club"`` powder [EST].
    g : float
        Gravitational acceleration, m/s^2, in (0, 100]. Default 9.81.
    friction_law : str
        Name of the sliding friction law (see :data:`carromlab.physics.friction.FRICTION_LAWS`):
        ``"slide_spin"`` (the default: the measured coupling of sliding and spinning of a
        uniform disc, Farkas et al., Phys. Rev. Lett. 90, 248302, 2003), ``"coulomb"``
        (constant deceleration mu g, spin decaying on its own: the simpler model that
        ignores the coupling), ``"linear"``, ``"stribeck"``.
    mu_v : float
        Speed coefficient of the ``"linear"`` law mu(v) = mu + mu_v v, s/m, in [0, 10].
        Default 0.
    mu_static : float
        Low-speed coefficient of the ``"stribeck"`` law, in [1e-6, 2]. Default 0.16 [EST: a
        quarter above the club mu, typical of static/kinetic ratios on powdered wood].
    stribeck_speed : float
        Speed scale of the ``"stribeck"`` law, m/s, in (0, 10]. Default 0.05 [EST].
    air_drag : float
        Quadratic air drag k in dv/dt = ... - k v^2, 1/m, in [0, 10]. Default 0. For a coin
        edge-on k = rho C_d A / (2 m) is about 0.03 1/m [CALC: rho 1.2 kg/m^3, C_d 1,
        A = 31 mm x 8 mm, m 5.25 g]. One k applies to every disc (a simplification: a
        striker's k is about 0.41 of a coin's; docs/physics.md).
    e_disc : float
        Normal restitution of disc-disc impacts, in [0, 1]. Default 0.9 [EST: hobby
        simulators use 0.85-0.92; pymunk peer uses 0.9].
    mu_contact : float
        Contact friction of disc-disc impacts (Walton's mu_c), in [0, 2]. Default 0.12
        [MEAS: air-table puck on a block, 0.12 over a 3x speed range].
    beta0_disc : float
        Tangential restitution of sticking disc-disc contacts (Walton's beta0), in [-1, 1].
        Default 0 [EST]: a contact that stops sliding leaves with no tangential contact
        speed; -1 makes every contact smooth (no tangential impulse at all).
    e_cushion : float
        Normal restitution against a cushion, in [0, 1]. Default 0.75 [EST: 0.70-0.75 in
        hobby simulators; consistent with the ICF 3.5-run board test].
    mu_cushion : float
        Contact friction against a cushion, in [0, 2]. Default 0.12 [EST].
    beta0_cushion : float
        Tangential restitution of sticking cushion contacts, in [-1, 1]. Default 0 [EST].
    e_peg : float
        Normal restitution against a crokinole peg, in [0, 1]. Default 0.6 [EST: rubber
        sleeve].
    mu_peg : float
        Contact friction against a peg, in [0, 2]. Default 0.2 [EST].
    beta0_peg : float
        Tangential restitution of sticking peg contacts, in [-1, 1]. Default 0 [EST].
    plastic_speed : float
        Normal impact speed below which an impact is plastic (e = 0), m/s, in [0, 1].
        Default 1e-3 [EST]; see the restitution rules in docs/physics.md.
    contact_duration : float
        Contact duration t_c of the TC model, s, in [0, 0.01]: an impact of a disc whose
        previous impact (with a disc, cushion or peg) was less than t_c ago is elastic
        (e = 1), so the rapid impact sequences of a touching pack cannot collapse.
        Default 5e-5 [CALC: half period pi sqrt(m_red / k) of a linear line contact,
        k = (pi/4) E* L with E* = 1.6 GPa, L = 7 mm, m_red = 2.6 g gives 54 us]. Event
        counts of low-restitution breaks hardly change for t_c from 1e-12 to 1e-4 s; 0
        switches the TC model off (and lets a low-restitution pack collapse).
    capture_speed_max : float
        A disc crossing a capture circle faster than this passes over the hole, m/s,
        in (0, inf]. Default ``inf`` (every crossing captures: the tipping model).
    max_events : int
        Event budget of one shot, in [1, 10^8]. Default 100000.

    Examples
    --------
    >>> PhysicsParams.from_powder("starch").mu
    0.075
    >>> PhysicsParams(mu=-1)
    Traceback (most recent call last):
    ...
    ValueError: The 'mu' parameter must be a finite real number in the range [1e-06, 2]. Got -1 instead.
    """

    mu: float = 0.12
    g: float = 9.81
    friction_law: str = "slide_spin"
    mu_v: float = 0.0
    mu_static: float = 0.16
    stribeck_speed: float = 0.05
    air_drag: float = 0.0
    e_disc: float = 0.9
    mu_contact: float = 0.12
    beta0_disc: float = 0.0
    e_cushion: float = 0.75
    mu_cushion: float = 0.12
    beta0_cushion: float = 0.0
    e_peg: float = 0.6
    mu_peg: float = 0.2
    beta0_peg: float = 0.0
    plastic_speed: float = 1e-3
    contact_duration: float = 5e-5
    capture_speed_max: float = float("inf")
    max_events: int = 100_000

    def __post_init__(self) -> None:
        def real(name: str, **bounds: Any) -> None:
            # stored as the float checked (a numeric string or a 0-d array is not kept as given)
            object.__setattr__(self, name, check_real(name, getattr(self, name), **bounds))

        real("mu", low=MU_MIN, high=2.0)
        real("g", low=0.0, high=100.0, low_open=True, unit="m/s^2")
        from .friction import get_law  # the registry imports this module

        get_law(self.friction_law)
        real("mu_v", low=0.0, high=10.0, unit="s/m")
        real("mu_static", low=MU_MIN, high=2.0)
        real("stribeck_speed", low=0.0, high=10.0, low_open=True, unit="m/s")
        real("air_drag", low=0.0, high=10.0, unit="1/m")
        for name in ("e_disc", "e_cushion", "e_peg"):
            real(name, low=0.0, high=1.0)
        for name in ("mu_contact", "mu_cushion", "mu_peg"):
            real(name, low=0.0, high=2.0)
        for name in ("beta0_disc", "beta0_cushion", "beta0_peg"):
            real(name, low=-1.0, high=1.0)
        real("plastic_speed", low=0.0, high=1.0, unit="m/s")
        real("contact_duration", low=0.0, high=1e-2, unit="s")
        cap = self.capture_speed_max
        if isinstance(cap, (int, float)) and cap == float("inf"):
            object.__setattr__(self, "capture_speed_max", float("inf"))
        else:
            real("capture_speed_max", low=0.0, low_open=True, unit="m/s")
        object.__setattr__(self, "max_events", check_int("max_events", self.max_events, low=1, high=10**8))

    # -- display -----------------------------------------------------------------
    #: Shown by the repr whatever their values; every other field only when it differs
    #: from its default, so that the repr's fields rebuild the parameters.
    _SHOWN: ClassVar[tuple[str, ...]] = ("friction_law", "mu", "e_disc", "e_cushion")
    _UNITS: ClassVar[dict[str, str]] = {
        "g": "m/s^2", "mu_v": "s/m", "stribeck_speed": "m/s", "air_drag": "1/m", "plastic_speed": "m/s",
        "contact_duration": "s", "capture_speed_max": "m/s",
    }  # fmt: skip

    def _changed(self) -> list[str]:
        """Names of the fields that differ from their defaults."""
        return [f.name for f in fields(self) if getattr(self, f.name) != f.default]

    def __repr__(self) -> str:
        # one line: the dataclass repr printed all 20 fields (340 characters)
        names = [*self._SHOWN, *(n for n in self._changed() if n not in self._SHOWN)]
        return f"PhysicsParams({', '.join(f'{n}={getattr(self, n)!r}' for n in names)})"

    def _repr_html_(self) -> str:
        from ..plotting.display import rich_html

        changed = set(self._changed())
        defaults = {f.name: f.default for f in fields(self)}

        def shown(value: Any) -> str:
            return f"{value:g}" if isinstance(value, float) else str(value)

        def text(name: str) -> str:
            unit = self._UNITS.get(name, "")
            return f"{shown(getattr(self, name))}{f' {unit}' if unit else ''}" + (
                f" (default {shown(defaults[name])})" if name in changed else "")  # fmt: skip

        rows = {name: text(name) for name in defaults}
        title = f"PhysicsParams: {self.friction_law} friction, mu = {self.mu:g}; {len(changed)} field{'s' * (len(changed) != 1)} changed"
        return rich_html(title, rows)

    @property
    def deceleration(self) -> float:
        """Sliding deceleration mu*g of the constant Coulomb law, m/s^2."""
        return self.mu * self.g

    @classmethod
    def from_powder(cls, powder: str, **overrides: Any) -> PhysicsParams:
        """Parameters with the board friction of a named powder preset.

        Parameters
        ----------
        powder : str
            One of ``POWDERS`` (``"boric"``, ``"starch"``, ``"tournament"``, ``"club"``,
            ``"flour"``, ``"unpowdered"``); each value is an [EST] documented in ``POWDERS``.
        **overrides
            Any other field of :class:`PhysicsParams` (not ``mu``, which the powder sets).

        Returns
        -------
        PhysicsParams

        Raises
        ------
        ValueError
            If the powder is unknown, ``mu`` is given, or a field is out of range.
        """
        check_choice("powder", powder, POWDERS)
        check_fields("PhysicsParams.from_powder", cls, overrides)
        if "mu" in overrides:
            raise ValueError(
                f"The 'mu' parameter is set by the powder ({powder!r}: mu = {POWDERS[powder][0]}); give a powder or "
                f"mu, not both. Got mu={overrides['mu']!r} instead (use PhysicsParams(mu=...))."
            )
        return cls(mu=POWDERS[powder][0], **overrides)

    def with_(self, **changes: Any) -> PhysicsParams:
        """A copy with some fields changed, validated like a new one.

        Parameters
        ----------
        **changes
            Fields of :class:`PhysicsParams` and their new values (SI units).

        Returns
        -------
        PhysicsParams

        Raises
        ------
        ValueError
            If a value is out of its range (the message names the field).
        TypeError
            If a name is not a field (the message lists the close and the valid names).

        Examples
        --------
        >>> PhysicsParams().with_(mu=0.1).mu
        0.1
        >>> PhysicsParams().with_(muu=0.1)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        TypeError: PhysicsParams.with_ got an unknown field 'muu' (did you mean 'mu'?). The fields of PhysicsParams are [...].
        """
        check_fields("PhysicsParams.with_", type(self), changes)
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Plain-dict form (JSON-friendly except ``inf``)."""
        return asdict(self)

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """Names of all parameters."""
        return tuple(f.name for f in fields(cls))


def check_params(params: Any, name: str = "params") -> PhysicsParams:
    """The physics parameters a function was given.

    Parameters
    ----------
    params : PhysicsParams or None
        The parameters, or None for ``PhysicsParams()``.
    name : str
        The argument's name in messages. Default ``"params"``.

    Returns
    -------
    PhysicsParams

    Raises
    ------
    TypeError
        Naming the value and how to build one (a powder name points at
        :meth:`PhysicsParams.from_powder`).
    """
    if params is None:
        return PhysicsParams()
    hint = f"PhysicsParams.from_powder({params!r})" if isinstance(params, str) and params in POWDERS else "PhysicsParams(mu=0.12)"
    return check_type(name, params, (PhysicsParams, type(None)), hint=f"e.g. {hint}")
