"""Disc specifications: strikers, coins, pucks, jacks and crokinole discs (SI units).

Every number is tagged as in ``docs/equipment.md`` (the project's equipment notes): [SPEC] a rule
book's number, [EST] an estimate, [CALC] derived here. Masses of wooden pieces whose rule
books give no mass are [EST] values computed from the size and the density of hard maple
(see :data:`WOOD_DENSITY`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from .._validation import check_choice, check_fields, check_real, check_str

__all__ = ["DiscSpec", "WOOD_DENSITY"]

#: Density of the hard wood of Hikone pieces, kg/m^3 [EST]. docs/equipment.md estimates a maple
#: crokinole disc (1 1/4 in diameter, 3/8 in thick) at about 5.4 g, i.e. 716 kg/m^3; hard
#: maple and beech are tabulated at 650-750 kg/m^3. Rounded down to 700 kg/m^3.
WOOD_DENSITY: float = 700.0

_INCH = 0.0254


def _wood_mass(radius: float, thickness: float) -> float:
    """Mass of a solid wooden cylinder of :data:`WOOD_DENSITY`, kg [EST]."""
    return WOOD_DENSITY * math.pi * radius**2 * thickness


@dataclass(frozen=True)
class DiscSpec:
    """Size and mass of one kind of flat disc (a uniform solid cylinder).

    Parameters
    ----------
    kind : str
        Name of the piece kind (``"striker"``, ``"white"``, ``"black"``, ``"queen"``,
        ``"red"``, ``"green"``, ``"jack"``, ``"dark"``, ``"light"`` or any other
        non-empty name).
    radius : float
        Disc radius, m, in (0, 0.1].
    mass : float
        Disc mass, kg, in (0, 1].
    thickness : float
        Disc height, m, in (0, 0.1]. Not used by the planar engine; kept for stacking
        rules and plots.

    Raises
    ------
    ValueError
        If ``kind`` is not a non-empty string or a number is outside its range; the
        message names the parameter, the range and the value received.

    See Also
    --------
    DiscSpec.preset : named presets for ICF carrom, Hikone carrom and crokinole.

    Examples
    --------
    >>> coin = DiscSpec.icf_coin("black")
    >>> coin.kind, coin.radius
    ('black', 0.0155)
    >>> f"{coin.inertia:.4g} kg m^2"
    '6.307e-07 kg m^2'
    >>> DiscSpec("white", radius=-0.01, mass=0.005, thickness=0.008)
    Traceback (most recent call last):
    ...
    ValueError: The 'radius' parameter must be a finite real number in the range (0, 0.1] m. Got -0.01 instead.
    """

    kind: str
    radius: float
    mass: float
    thickness: float

    _PRESETS: ClassVar[dict[str, Callable[[], DiscSpec]]]

    def __post_init__(self) -> None:
        check_str("kind", self.kind)
        for name, high in (("radius", 0.1), ("mass", 1.0), ("thickness", 0.1)):
            unit = "kg" if name == "mass" else "m"
            value = check_real(name, getattr(self, name), low=0.0, high=high, low_open=True, unit=unit)
            object.__setattr__(self, name, value)

    @property
    def inertia(self) -> float:
        """Moment of inertia about the disc axis, 0.5 * mass * radius**2, kg m^2."""
        return 0.5 * self.mass * self.radius**2

    @property
    def diameter(self) -> float:
        """Disc diameter, m."""
        return 2.0 * self.radius

    def with_(self, **changes: Any) -> DiscSpec:
        """Return a validated copy with some fields changed (e.g. ``mass=0.0055``); an
        unknown field is a TypeError listing the close and the valid names."""
        check_fields("DiscSpec.with_", type(self), changes)
        return replace(self, **changes)

    # ------------------------------------------------------------------ ICF carrom
    @classmethod
    def icf_striker(cls) -> DiscSpec:
        """ICF striker, kind ``"striker"``.

        radius 20.65 mm [SPEC: diameter at most 4.13 cm, the maximum is what players use];
        mass 15 g [SPEC: at most 15 g, the board run test of the ICF laws is made with
        15 g]; thickness 7.2 mm [EST: inside the 6.5-8.0 mm of competition strikers].
        Source: docs/equipment.md, "ICF carrom board and pieces".
        """
        return cls("striker", radius=0.02065, mass=0.015, thickness=0.0072)

    @classmethod
    def icf_coin(cls, kind: str = "white") -> DiscSpec:
        """ICF carromman (coin), kind ``"white"`` or ``"black"``.

        Mid-specification values (docs/equipment.md, "ICF carrom board and pieces"):
        diameter 3.10 cm [SPEC 3.02-3.18 cm], thickness 8.0 mm [SPEC 7.0-9.0 mm],
        mass 5.25 g [SPEC 5.0-5.5 g; the ICF text reads 5.25-5.50 g, sources differ].

        Parameters
        ----------
        kind : {"white", "black"}
            Colour of the coin.
        """
        check_choice("kind", kind, ("white", "black"))
        return cls(kind, radius=0.0155, mass=0.00525, thickness=0.008)

    @classmethod
    def icf_queen(cls) -> DiscSpec:
        """ICF queen (red coin), kind ``"queen"``: same size and mass as a coin [SPEC].

        See :meth:`icf_coin` for the values and their sources.
        """
        return cls("queen", radius=0.0155, mass=0.00525, thickness=0.008)

    # ------------------------------------------------------------------ Hikone carrom
    @classmethod
    def hikone_puck(cls, kind: str = "red") -> DiscSpec:
        """Hikone carrom puck, kind ``"red"`` or ``"green"``.

        diameter 3.0 cm [EST: "about 3 cm", press reports, docs/equipment.md "Hikone carrom"];
        thickness 10 mm [EST: a little below the 10.5-12.0 mm of the striker, seed 001];
        mass 4.95 g [EST: WOOD_DENSITY 700 kg/m^3 times the cylinder volume].

        Parameters
        ----------
        kind : {"red", "green"}
            Colour of the puck (red: the first player, rule HIK-1).
        """
        check_choice("kind", kind, ("red", "green"))
        radius, thickness = 0.015, 0.010
        return cls(kind, radius=radius, mass=_wood_mass(radius, thickness), thickness=thickness)

    @classmethod
    def hikone_jack(cls) -> DiscSpec:
        """Hikone carrom jack, kind ``"jack"``.

        diameter 3.4 cm [EST: "3.4 cm", press reports, docs/equipment.md "Hikone carrom"];
        thickness 11 mm [EST: the jack is the "large piece", taken as tall as a mid-size
        striker]; mass 7.0 g [EST: WOOD_DENSITY 700 kg/m^3 times the cylinder volume].
        """
        radius, thickness = 0.017, 0.011
        return cls("jack", radius=radius, mass=_wood_mass(radius, thickness), thickness=thickness)

    @classmethod
    def hikone_striker(cls) -> DiscSpec:
        """Hikone carrom striker, kind ``"striker"``.

        diameter 3.05 cm and height 11.25 mm [SPEC: middle of the 29.5-31.5 mm and
        10.5-12.0 mm allowed for registered strikers, seed 001]; mass 5.75 g [EST:
        WOOD_DENSITY 700 kg/m^3 times the cylinder volume].
        """
        radius, thickness = 0.01525, 0.01125
        return cls("striker", radius=radius, mass=_wood_mass(radius, thickness), thickness=thickness)

    # ------------------------------------------------------------------ crokinole
    @classmethod
    def crokinole_disc(cls, kind: str = "dark") -> DiscSpec:
        """Crokinole disc of a player's colour: ``"dark"`` or ``"light"`` for two players,
        ``"green"``, ``"red"``, ``"black"`` or ``"white"`` for four (rule CRK-5).

        diameter 1 1/4 in = 3.175 cm, thickness 3/8 in = 9.525 mm, mass 5.4 g (maple)
        [EST: docs/equipment.md "Crokinole (NCA standard)"].

        Parameters
        ----------
        kind : {"dark", "light", "green", "red", "black", "white"}
            Colour of the disc.
        """
        check_choice("kind", kind, ("dark", "light", "green", "red", "black", "white"))
        return cls(kind, radius=0.625 * _INCH, mass=0.0054, thickness=0.375 * _INCH)

    # ------------------------------------------------------------------ registry
    @classmethod
    def preset(cls, name: str) -> DiscSpec:
        """Look a preset up by name.

        Parameters
        ----------
        name : str
            One of :meth:`preset_names`: ``"icf_striker"``, ``"icf_coin_white"``,
            ``"icf_coin_black"``, ``"icf_queen"``, ``"hikone_puck_red"``,
            ``"hikone_puck_green"``, ``"hikone_jack"``, ``"hikone_striker"``,
            ``"crokinole_disc_dark"``, ``"crokinole_disc_light"``.

        Raises
        ------
        ValueError
            If ``name`` is unknown; the message lists the known names.
        """
        check_choice("name", name, cls._PRESETS)
        return cls._PRESETS[name]()

    @classmethod
    def preset_names(cls) -> tuple[str, ...]:
        """Names accepted by :meth:`preset`, sorted."""
        return tuple(sorted(cls._PRESETS))


DiscSpec._PRESETS = {
    "icf_striker": DiscSpec.icf_striker,
    "icf_coin_white": lambda: DiscSpec.icf_coin("white"),
    "icf_coin_black": lambda: DiscSpec.icf_coin("black"),
    "icf_queen": DiscSpec.icf_queen,
    "hikone_puck_red": lambda: DiscSpec.hikone_puck("red"),
    "hikone_puck_green": lambda: DiscSpec.hikone_puck("green"),
    "hikone_jack": DiscSpec.hikone_jack,
    "hikone_striker": DiscSpec.hikone_striker,
    "crokinole_disc_dark": lambda: DiscSpec.crokinole_disc("dark"),
    "crokinole_disc_light": lambda: DiscSpec.crokinole_disc("light"),
}
