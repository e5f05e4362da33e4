"""From the intended shot to the executed one: execution noise, then a legal placement."""

from __future__ import annotations

from dataclasses import dataclass


from .._validation import check_int
from ..analysis.noise import NoiseModel, executed_stroke
from ..engine.scene import Shot
from ..rules.state import GameState
from .geometry import facing, legal_spots

__all__ = ["Executed", "execute"]


@dataclass(frozen=True)
class Executed:
    """A shot as the player meant it and as it was played.

    Parameters
    ----------
    intended : Shot
        The policy's shot.
    shot : Shot
        The shot played: the intended one plus the execution errors, with its placement
        moved back to the nearest legal spot when the errors made it illegal.
    snapped : bool
        Whether the placement had to be moved.
    snap_distance : float
        How far it was moved, m (0 when not snapped).
    """

    intended: Shot
    shot: Shot
    snapped: bool
    snap_distance: float


def execute(state: GameState, intended: Shot, noise: NoiseModel, *, seed: int, shot_index: int) -> Executed:
    """Play an intended shot with execution errors.

    The errors are :meth:`NoiseModel.errors` keyed by ``(seed, cell=shot_index,
    replica=0)``, so a shot's errors depend only on the game's seed and the shot's
    number in the game. The placement error has two parts, ``placement`` along the
    shooter's line (positive to the shooter's right) and ``depth`` across it (positive
    into the board; see :func:`carromlab.match.geometry.facing`); the angle error is
    added, the speed is multiplied by ``1 + error`` (clipped to [0, 30] m/s) and the
    spin error added (clipped to +-5000 rad/s). A placement made illegal by the errors
    (ICF-3, ONL-1, HIK-2, CRK-1) is moved to the nearest legal spot, and the move is
    reported.

    Parameters
    ----------
    state : GameState
        The position; the seat to shoot is ``state.shooter``.
    intended : Shot
        The intended shot.
    noise : NoiseModel
        Spreads of the errors.
    seed : int
        The game's seed, >= 0.
    shot_index : int
        The shot's number in the game, >= 0.

    Returns
    -------
    Executed

    Examples
    --------
    >>> from carromlab.analysis.noise import NoiseModel
    >>> from carromlab.rules import icf
    >>> meant = Shot(0.0, -0.2526, 1.5708, 3.0)
    >>> played = execute(icf.new_game(), meant, NoiseModel.preset("club"), seed=1, shot_index=0)
    >>> played.shot != meant, played.snapped
    (True, False)
    """
    if not isinstance(noise, NoiseModel):
        raise ValueError(f"The 'noise' parameter must be a NoiseModel. Got {noise!r} instead.")
    if not isinstance(intended, Shot):
        raise ValueError(f"The 'intended' parameter must be a Shot. Got {intended!r} instead.")
    check_int("seed", seed, low=0)
    e = {k: float(v[0]) for k, v in noise.errors(seed, [check_int("shot_index", shot_index, low=0)], [0]).items()}
    nx, ny = facing(state, intended.x, intended.y)
    x = intended.x + e["placement"] * ny + e["depth"] * nx
    y = intended.y - e["placement"] * nx + e["depth"] * ny
    sx, sy, moved = legal_spots(state, x, y)
    angle, speed, spin = executed_stroke(intended.angle, intended.speed, intended.spin, e)
    shot = Shot(float(sx[0]), float(sy[0]), float(angle), float(speed), float(spin))
    return Executed(intended, shot, bool(moved[0] > 0.0), float(moved[0]))
