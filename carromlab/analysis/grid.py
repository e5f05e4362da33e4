"""Grids of nominal shots: placement x aim x speed x spin."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pandas as pd

from .._angles import TURN, angle_array
from .._validation import check_array, check_choice, check_memory
from ..engine.scene import MAX_SPEED, MAX_SPIN, Scene
from .aiming import cut_aim, ghost_aim, pack_direction
from .goals import Target
from .placement import StrikerLine

__all__ = ["AIM_MODES", "ShotGrid"]

#: What the grid's ``angle`` axis means (all in rad):
#: ``"absolute"`` the direction of travel, counter-clockwise from +x;
#: ``"ghost"`` an offset from the ghost-disc aim that sends the target straight at its pocket;
#: ``"cut"`` the cut angle on the target (positive: the target leaves to the left);
#: ``"pack"`` an offset from the direction to the centroid of the pieces (breaks).
AIM_MODES = ("absolute", "ghost", "cut", "pack")


def _axis(
    name: str, values: npt.ArrayLike, *, low: float | None = None, high: float | None = None, low_open: bool = False, unit: str
) -> tuple[float, ...]:
    # the values checked as given (text, a ragged list: an error naming the parameter), then the shape
    arr = check_array(name, np.atleast_1d(check_array(name, values, low=low, high=high, low_open=low_open, unit=unit)), shape=(None,))
    if arr.size == 0:
        raise ValueError(f"The {name!r} parameter must have at least one value. Got an empty array instead.")
    return tuple(float(v) for v in arr)


@dataclass(frozen=True)
class ShotGrid:
    """A Cartesian grid of nominal shots.

    Cells are numbered in C order over (placement, angle, speed, spin): the spin varies
    fastest.

    Parameters
    ----------
    placement : array_like
        Striker placements along the striker line, m from its middle (see
        :class:`StrikerLine`); each within the line's half-length (checked by the
        analysis).
    angle : array_like
        Aim values, rad: directions in [-2 pi, 2 pi] for ``aim="absolute"``, offsets in
        [-pi, pi] for ``"ghost"`` and ``"pack"``, cut angles in [-pi/2, pi/2] for ``"cut"``
        (:data:`.AIM_MODES`). Or give ``angle_deg``; a radian value out of range that
        would fit read as degrees is refused with a message that suggests ``angle_deg``.
    speed : array_like
        Striker speeds, m/s, in (0, 30]: the range of :class:`.Shot` but for 0 (a
        striker that does not move tries nothing).
    spin : array_like
        Striker spins, rad/s, in [-5000, 5000]. Default (0,).
    aim : {"absolute", "ghost", "cut", "pack"}
        Meaning of ``angle`` (:data:`.AIM_MODES`). Default ``"absolute"``.
    angle_deg : array_like, optional
        The aim values in degrees, instead of ``angle`` (stored as radians).

    Examples
    --------
    >>> g = ShotGrid(placement=[-0.1, 0.0, 0.1], angle=np.radians([80, 90]), speed=[2.0, 4.0])
    >>> g.shape, g.n_cells
    ((3, 2, 2, 1), 12)
    >>> ShotGrid(placement=[0.0], angle_deg=[80, 90], speed=[2.0]) == ShotGrid([0.0], np.radians([80, 90]), [2.0])
    True
    >>> ShotGrid(placement=[], angle=[1.0], speed=[2.0])
    Traceback (most recent call last):
    ...
    ValueError: The 'placement' parameter must have at least one value. Got an empty array instead.
    """

    placement: Sequence[float]
    angle: Sequence[float]
    speed: Sequence[float]
    spin: Sequence[float] = (0.0,)
    aim: str = "absolute"

    def __init__(
        self, placement: Sequence[float], angle: Sequence[float] | None = None, speed: Sequence[float] | None = None,
        spin: Sequence[float] = (0.0,), aim: str = "absolute", *, angle_deg: Sequence[float] | None = None,
    ) -> None:  # fmt: skip
        check_choice("aim", aim, AIM_MODES)
        if speed is None:
            raise TypeError("The 'speed' parameter (m/s) is required.")
        bound = {"cut": math.pi / 2, "absolute": TURN}.get(aim, math.pi)  # ghost and pack: an offset
        axes = {
            "placement": _axis("placement", placement, unit="m"),
            "angle": _axis("angle", angle_array("angle", angle, angle_deg, bound=bound), unit="rad"),
            "speed": _axis("speed", speed, low=0.0, high=MAX_SPEED, low_open=True, unit="m/s"),
            "spin": _axis("spin", spin, low=-MAX_SPIN, high=MAX_SPIN, unit="rad/s"),
            "aim": aim,
        }
        for name, values in axes.items():
            object.__setattr__(self, name, values)

    @property
    def shape(self) -> tuple[int, int, int, int]:
        """Number of values along (placement, angle, speed, spin)."""
        return len(self.placement), len(self.angle), len(self.speed), len(self.spin)

    @property
    def n_cells(self) -> int:
        """Number of cells."""
        return math.prod(self.shape)

    def cells(self, scene: Scene, line: StrikerLine, target: Target | None = None) -> pd.DataFrame:
        """The nominal shot of every cell.

        Parameters
        ----------
        scene : Scene
            The scene (for the ``"ghost"``, ``"cut"`` and ``"pack"`` references).
        line : StrikerLine
            Where the striker is placed.
        target : Target, optional
            The goal's target; needed by ``aim="ghost"`` and ``aim="cut"``.

        Returns
        -------
        pandas.DataFrame
            One row per cell: ``cell``, ``placement`` (m), ``x``, ``y`` (m),
            ``aim`` (the grid's angle value, rad), ``angle`` (direction of travel, rad),
            ``speed`` (m/s), ``spin`` (rad/s).

        Raises
        ------
        ValueError
            If a placement lies beyond the line's ends, the aim mode needs a target
            the goal does not have, or the table would take more than half this machine's
            memory (about 160 bytes a cell, as it is built).

        Examples
        --------
        >>> scene = Scene.icf_break()
        >>> grid = ShotGrid(placement=[0.0], angle=[0.0], speed=[6.0], aim="pack")
        >>> cells = grid.cells(scene, StrikerLine.for_scene(scene))
        >>> round(float(cells["angle"].iat[0]), 4)                 # straight at the pack
        1.5708
        """
        check_memory("cells", self.n_cells, 160, hint="Use fewer placements, angles, speeds or spins.")
        h = line.half_length
        bad = [p for p in self.placement if abs(p) > h + 1e-12]
        if bad:
            raise ValueError(
                f"The 'placement' parameter must contain values in [{-h:.6g}, {h:.6g}] m (the striker line's "
                f"half-length). Got {bad[0]!r} instead."
            )
        if self.aim in ("ghost", "cut") and target is None:
            raise ValueError(
                f"The grid's aim={self.aim!r} needs a goal with a target piece (PocketPiece). "
                "Use aim='absolute' or aim='pack' instead."
            )
        ip, ia, isp, iw = (a.ravel() for a in np.meshgrid(*(np.arange(n) for n in self.shape), indexing="ij"))
        u = np.asarray(self.placement)[ip]
        aim = np.asarray(self.angle)[ia]
        x, y = line.point(u, 0.0)
        if self.aim == "absolute":
            angle = aim
        elif self.aim == "pack":
            angle = pack_direction(scene, x, y) + aim
        elif self.aim == "ghost":
            angle = ghost_aim(scene, target, x, y)[0] + aim  # type: ignore[arg-type]
        else:
            angle = cut_aim(scene, target, x, y, aim)  # type: ignore[arg-type]
        return pd.DataFrame(
            {
                "cell": np.arange(self.n_cells, dtype=np.int64),
                "placement": u, "x": x, "y": y, "aim": aim, "angle": angle,
                "speed": np.asarray(self.speed)[isp], "spin": np.asarray(self.spin)[iw],
            }  # fmt: skip
        )
