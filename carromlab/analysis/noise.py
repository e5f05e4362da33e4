"""Execution noise: how far a played shot strays from the intended one.

A shot is intended as (placement along the striker line, depth across it, aim angle,
speed, spin); the player executes it with random errors in each. :class:`NoiseModel`
holds the spread (standard deviation) of each error, :data:`.NOISE_PRESETS` names typical
players, and :func:`fit_noise` estimates the spreads from a player's recorded shots.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy.stats import chi2

from .._angles import TURN, angle_value
from .._validation import check_choice, check_real, check_type
from ..engine.scene import MAX_SPEED, MAX_SPIN
from ._random import standard_normal, standard_uniform
from .stats import check_confidence

__all__ = ["DIMENSIONS", "DISTRIBUTIONS", "NOISE_PRESETS", "NoiseModel", "NoiseFit", "fit_noise"]

#: The noise dimensions, in the order of their random streams, with their units.
DIMENSIONS: dict[str, str] = {"placement": "m", "depth": "m", "angle": "rad", "speed": "1 (relative)", "spin": "rad/s"}
#: Shapes of the error distribution; each has unit variance before scaling.
DISTRIBUTIONS = ("gaussian", "uniform")

#: Named players: spreads (placement m, depth m, angle deg, speed relative, spin rad/s)
#: and the reasoning behind each [EST].
NOISE_PRESETS: dict[str, tuple[tuple[float, float, float, float, float], str]] = {
    "none": ((0.0, 0.0, 0.0, 0.0, 0.0), "a perfect player: every shot exactly as intended"),
    "expert": (
        (0.001, 0.0005, 0.4, 0.05, 7.0),
        "[EST] placement 1 mm: the striker is set against printed marks 2.5 times finer than "
        "its 4.1 cm diameter; aim 0.4 deg: 3.5 mm sideways over a 0.5 m shot, about a fifth of "
        "a coin's 1.6 cm capture radius at a pocket, which top players pocket almost every "
        "time on straight shots; speed 5 %: the Weber fraction of practised ballistic force "
        "control; spin 7 rad/s: a flick 0.5 mm off the striker's centre line at 3 m/s gives "
        "omega = 2 v e / R^2 = 7 rad/s",
    ),
    "club": (
        (0.002, 0.001, 0.8, 0.10, 14.0),
        "[EST] twice the expert's spreads: a regular club player misses about one straight "
        "shot across the board in five; 1 mm off-centre flicks (14 rad/s)",
    ),
    "beginner": (
        (0.005, 0.002, 2.0, 0.20, 28.0),
        "[EST] placement by eye, 5 mm; aim 2 deg: 17 mm sideways over 0.5 m, so a beginner "
        "pockets a straight shot over that distance about half the time; speed 20 %; "
        "2 mm off-centre flicks (28 rad/s)",
    ),
}


@dataclass(frozen=True)
class NoiseModel:
    """Spreads of the execution errors of a shot.

    Each executed shot is the intended one plus independent errors: ``placement`` along
    the striker line and ``depth`` across it (m), ``angle`` (rad), ``speed`` (relative:
    executed speed = intended speed * (1 + error)) and ``spin`` (rad/s). Each field is the
    standard deviation of its error, >= 0; a zero spread leaves that quantity exact.

    Parameters
    ----------
    placement : float
        Spread of the placement along the striker line, m, in [0, 0.1].
    depth : float
        Spread of the placement across the striker line, m, in [0, 0.1].
    angle : float
        Spread of the aim angle, rad, in [0, pi/4]. Default 0; or give ``angle_deg``.
    speed : float
        Relative spread of the speed, in [0, 1].
    spin : float
        Spread of the spin, rad/s, in [0, 1000].
    distribution : {"gaussian", "uniform"}
        Shape of every error; ``"uniform"`` has the same standard deviation (half-width
        sqrt(3) times the spread). Default ``"gaussian"``.
    angle_deg : float, optional
        Spread of the aim angle in degrees, in [0, 45], instead of ``angle`` (stored as
        radians; read back as the ``angle_deg`` property).

    Examples
    --------
    >>> NoiseModel.preset("club").angle_deg
    0.8
    >>> NoiseModel(angle_deg=2.0).angle == math.radians(2.0)
    True
    >>> NoiseModel(angle=2.0)
    Traceback (most recent call last):
    ...
    ValueError: The 'angle' parameter is in radians and must lie in [0, 0.785398] rad. Got 2 rad (114.6 degrees) instead; did you mean angle_deg=2?
    >>> NoiseModel(angle=-0.01)
    Traceback (most recent call last):
    ...
    ValueError: The 'angle' parameter must be a finite real number in the range [0, 0.785398] rad. Got -0.01 instead.
    """

    placement: float = 0.0
    depth: float = 0.0
    angle: float = 0.0
    speed: float = 0.0
    spin: float = 0.0
    distribution: str = "gaussian"

    def __init__(
        self, placement: float = 0.0, depth: float = 0.0, angle: float | None = None, speed: float = 0.0,
        spin: float = 0.0, distribution: str = "gaussian", *, angle_deg: float | None = None,
    ) -> None:  # fmt: skip
        put = object.__setattr__
        put(self, "placement", check_real("placement", placement, low=0.0, high=0.1, unit="m"))
        put(self, "depth", check_real("depth", depth, low=0.0, high=0.1, unit="m"))
        put(self, "angle", angle_value("angle", angle, angle_deg, default=0.0, low=0.0, high=math.pi / 4))
        put(self, "speed", check_real("speed", speed, low=0.0, high=1.0))
        put(self, "spin", check_real("spin", spin, low=0.0, high=1000.0, unit="rad/s"))
        put(self, "distribution", check_choice("distribution", distribution, DISTRIBUTIONS))

    @classmethod
    def preset(cls, name: str) -> NoiseModel:
        """A named player from :data:`.NOISE_PRESETS`: ``"none"``, ``"expert"``,
        ``"club"`` or ``"beginner"``.

        Examples
        --------
        >>> NoiseModel.preset("expert").placement
        0.001
        """
        check_choice("name", name, NOISE_PRESETS)
        (placement, depth, angle_deg, speed, spin), _ = NOISE_PRESETS[name]
        return cls(placement, depth, speed=speed, spin=spin, angle_deg=angle_deg)

    @property
    def angle_deg(self) -> float:
        """Spread of the aim angle, degrees."""
        return round(math.degrees(self.angle), 12)

    @property
    def spreads(self) -> dict[str, float]:
        """The spread of every dimension of :data:`.DIMENSIONS`, in its unit."""
        return {name: getattr(self, name) for name in DIMENSIONS}

    def scaled(self, factor: float) -> NoiseModel:
        """Every spread multiplied by ``factor`` (>= 0), e.g. a less precise thumb shot.

        Examples
        --------
        >>> NoiseModel.preset("club").scaled(2.0).speed
        0.2
        """
        f = check_real("factor", factor, low=0.0)
        return replace(self, **{name: f * value for name, value in self.spreads.items()})

    def errors(self, seed: int | tuple[int, ...] | npt.NDArray[np.integer], cell: npt.ArrayLike, replica: npt.ArrayLike) -> dict[str, npt.NDArray[np.float64]]:
        """Draw the errors of shots, keyed by (seed, cell, replica): the same shot gets the
        same errors whatever the chunking or the machine.

        Parameters
        ----------
        seed : int, tuple of int or numpy.ndarray of int
            Seed of the sweep, >= 0 (a tuple: one seed's entropy), or an array of one seed
            per shot (e.g. each game's seed, broadcast against ``cell``).
        cell, replica : array_like of int
            Grid cell and replica of every shot.

        Returns
        -------
        dict of str to numpy.ndarray
            One array per dimension of :data:`.DIMENSIONS`, in its unit (``speed``
            relative); zeros where the spread is zero.

        Examples
        --------
        >>> e = NoiseModel(angle=0.01).errors(0, [0, 0, 1], [0, 1, 0])
        >>> e["angle"].shape, float(e["speed"].max())
        ((3,), 0.0)
        """
        if isinstance(seed, np.ndarray) and seed.ndim:  # one seed per shot
            cell, replica, seed = np.broadcast_arrays(np.atleast_1d(cell), replica, seed)
            seed = seed[None]
        else:
            cell, replica = np.broadcast_arrays(np.atleast_1d(cell), replica)
        spreads = list(self.spreads.items())
        drawn = [dim for dim, (_, spread) in enumerate(spreads) if spread != 0.0]
        out = {name: np.zeros(cell.shape) for name, _ in spreads}
        if not drawn:
            return out
        # every dimension drawn in one call: axis 0 of the draws is the dimension
        dims = np.array(drawn).reshape((-1,) + (1,) * cell.ndim)
        draw = standard_normal if self.distribution == "gaussian" else standard_uniform
        for dim, values in zip(drawn, draw(seed, cell[None], replica[None], dims)):
            name, spread = spreads[dim]
            out[name] = spread * values if self.distribution == "gaussian" else spread * math.sqrt(12.0) * (values - 0.5)
        return out


@dataclass(frozen=True, eq=False)
class NoiseFit:
    """Spreads fitted from recorded shots.

    Attributes
    ----------
    model : NoiseModel
        The fitted model (dimensions that were not recorded come from ``base``).
    table : pandas.DataFrame
        One row per recorded dimension: ``dimension``, ``unit``, ``n`` (shots),
        ``bias`` (mean error, a systematic offset that is not part of the spread),
        ``spread`` (standard deviation of the error around the bias), ``spread_low``,
        ``spread_high`` (chi-square confidence interval of the spread, exact for
        Gaussian errors).
    """

    model: NoiseModel
    table: pd.DataFrame


def _recorded_as(recorded: pd.DataFrame, name: str) -> str | None:
    """The suffix of the pair ``intended_<name><suffix>`` / ``executed_<name><suffix>``
    recorded: ``""``, or ``"_deg"`` for an aim in degrees; None when the dimension was
    not recorded."""
    found = [s for s in (("", "_deg") if name == "angle" else ("",))
             if {f"intended_{name}{s}", f"executed_{name}{s}"} <= set(recorded.columns)]  # fmt: skip
    if len(found) > 1:
        raise ValueError(
            "The 'recorded' parameter must give the aim either as intended_angle/executed_angle (rad) or as "
            "intended_angle_deg/executed_angle_deg (degrees), not both. Got both pairs of columns."
        )
    return found[0] if found else None


def _errors_of(recorded: pd.DataFrame, name: str, suffix: str) -> npt.NDArray[np.float64]:
    columns = (f"intended_{name}{suffix}", f"executed_{name}{suffix}")
    intended, executed = (np.asarray(recorded[col], dtype=float) for col in columns)
    for col, values in zip(columns, (intended, executed)):
        if not np.all(np.isfinite(values)):
            k = int(np.argmin(np.isfinite(values)))
            raise ValueError(f"The 'recorded' parameter must have finite values in column {col!r}. Got {values[k]!r} in row {k} instead.")
        if name == "angle" and not suffix and np.any(np.abs(values) > TURN):
            k = int(np.argmax(np.abs(values) > TURN))
            raise ValueError(
                f"The 'recorded' parameter's column {col!r} is in radians and must lie in [-2π, 2π] (±6.283 rad). "
                f"Got {values[k]:g} rad ({math.degrees(values[k]):.1f} degrees) in row {k} instead; did you mean "
                "to name the aim's columns intended_angle_deg / executed_angle_deg?"
            )
    if name == "speed":
        if np.any(intended <= 0.0):
            k = int(np.argmax(intended <= 0.0))
            raise ValueError(
                f"The 'recorded' parameter must have intended_speed > 0 m/s (the speed error is relative). "
                f"Got {intended[k]!r} in row {k} instead."
            )
        return executed / intended - 1.0
    if name == "angle":  # the smallest signed difference of two directions, rad
        diff = executed - intended
        return np.angle(np.exp(1j * (np.radians(diff) if suffix else diff)))
    return executed - intended


def fit_noise(
    recorded: pd.DataFrame,
    *,
    base: NoiseModel | None = None,
    distribution: str = "gaussian",
    confidence: float = 0.95,
) -> NoiseFit:
    """Estimate the execution spreads of a player from recorded shots.

    For each dimension of :data:`.DIMENSIONS` present as a pair of columns
    ``intended_<name>`` and ``executed_<name>`` (placement and depth in m along and across
    the striker line, see :meth:`StrikerLine.coordinates`; angle in rad, or in degrees as
    ``intended_angle_deg`` and ``executed_angle_deg``; speed in m/s; spin in rad/s), the
    error is executed - intended (the smallest signed angle for the aim, rad; executed /
    intended - 1 for the speed). The spread is the sample standard
    deviation of the errors (ddof = 1); their mean is reported as a bias and left out of
    the model.

    Parameters
    ----------
    recorded : pandas.DataFrame
        One row per shot; at least one pair of columns, at least 2 rows. An aim in
        radians beyond one turn (2 pi) is refused as degrees in the radian columns.
    base : NoiseModel, optional
        Spreads of the dimensions that were not recorded. Default all zero.
    distribution : {"gaussian", "uniform"}
        Distribution of the fitted model. Default ``"gaussian"``.
    confidence : float
        Level of the spread's confidence interval, in (0, 1). Default 0.95.

    Returns
    -------
    NoiseFit

    Raises
    ------
    ValueError
        If no pair of columns is present, both spellings of the aim are, there are fewer
        than 2 shots, a value is not finite, an aim in radians lies beyond one turn, an
        intended speed is not positive, or a fitted spread exceeds the range of
        :class:`NoiseModel`.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(1)
    >>> aim = rng.uniform(1.0, 2.0, 5000)
    >>> shots = pd.DataFrame({"intended_angle": aim, "executed_angle": aim + rng.normal(0, 0.01, 5000)})
    >>> fit = fit_noise(shots)
    >>> round(fit.model.angle, 3)
    0.01
    """
    check_type("recorded", recorded, pd.DataFrame)
    check_type("base", base, (NoiseModel, type(None)))
    check_choice("distribution", distribution, DISTRIBUTIONS)
    level = check_confidence(confidence)
    present = {n: suffix for n in DIMENSIONS if (suffix := _recorded_as(recorded, n)) is not None}
    if not present:
        wanted = [f"intended_{n}/executed_{n}" for n in DIMENSIONS] + ["intended_angle_deg/executed_angle_deg"]
        raise ValueError(
            f"The 'recorded' parameter must have at least one pair of columns among {wanted}. "
            f"Got columns {list(recorded.columns)} instead."
        )
    if len(recorded) < 2:
        raise ValueError(f"The 'recorded' parameter must have at least 2 rows. Got {len(recorded)} instead.")
    rows: list[dict[str, Any]] = []
    spreads = (base or NoiseModel()).spreads
    alpha = 1.0 - level
    for name, suffix in present.items():
        err = _errors_of(recorded, name, suffix)
        n = len(err)
        sd = float(np.std(err, ddof=1))
        # (n - 1) s^2 / sigma^2 is chi-square with n - 1 degrees of freedom
        lo = sd * math.sqrt((n - 1) / chi2.ppf(1.0 - alpha / 2, n - 1))
        hi = sd * math.sqrt((n - 1) / chi2.ppf(alpha / 2, n - 1))
        rows.append({"dimension": name, "unit": DIMENSIONS[name], "n": n, "bias": float(np.mean(err)),
                     "spread": sd, "spread_low": lo, "spread_high": hi})  # fmt: skip
        spreads[name] = sd
    model = NoiseModel(**spreads, distribution=distribution)
    return NoiseFit(model=model, table=pd.DataFrame(rows))


def executed_stroke(
    angle: npt.ArrayLike, speed: npt.ArrayLike, spin: npt.ArrayLike, errors: dict[str, Any]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The executed aim (rad), speed (m/s) and spin (rad/s) of intended ones, given the
    errors of :meth:`NoiseModel.errors`: the speed error is relative; speed and spin are
    clipped to the engine's ranges ([0, 30] m/s, [-5000, 5000] rad/s); an aim beyond ±π
    is wrapped into [-π, π) (the same direction, inside the range a :class:`Shot` takes).

    Examples
    --------
    >>> [round(float(q), 6) for q in executed_stroke(1.0, 2.0, 0.0, {"angle": 0.01, "speed": 0.1, "spin": 5.0})]
    [1.01, 2.2, 5.0]
    """
    a = np.asarray(angle, dtype=float) + errors["angle"]
    a = np.where(np.abs(a) > np.pi, np.remainder(a + np.pi, 2.0 * np.pi) - np.pi, a)
    v = np.clip(np.asarray(speed, dtype=float) * (1.0 + errors["speed"]), 0.0, MAX_SPEED)
    w = np.clip(np.asarray(spin, dtype=float) + errors["spin"], -MAX_SPIN, MAX_SPIN)
    return a, v, w

