"""From the intended shot to the executed one: execution noise, then a legal placement."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .._validation import check_int
from ..analysis.noise import DIMENSIONS, NoiseModel, executed_stroke
from ..engine.scene import Shot
from ..rules.arrays import GameArrays
from ..rules.state import GameState
from .geometry import facings, legal_spots_many

__all__ = ["Executed", "execute", "execute_many"]


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
    return execute_many(GameArrays.from_states([state]), [intended], [noise], seeds=[seed], shot_indices=[shot_index])[0]


def execute_many(
    games: GameArrays, intended: Sequence[Shot], noise: Sequence[NoiseModel], *, seeds: Sequence[int],
    shot_indices: Sequence[int],
) -> list[Executed]:  # fmt: skip
    """Play N intended shots, one per game, with execution errors (:func:`execute` of
    each game; the errors of the games sharing a noise model drawn in one
    :meth:`~carromlab.analysis.noise.NoiseModel.errors` call, and the placements made
    illegal by the errors moved back by one
    :func:`~carromlab.match.geometry.legal_spots_many` search).

    Parameters
    ----------
    games : GameArrays
        The positions, one row per game.
    intended : sequence of Shot
        The intended shot of each game.
    noise : sequence of NoiseModel
        The spreads of each game's shooter.
    seeds, shot_indices : sequence of int
        Each game's seed (>= 0) and the shot's number in it (>= 0).

    Returns
    -------
    list of Executed
    """
    n = len(games)
    if not len(intended) == len(noise) == len(seeds) == len(shot_indices) == n:
        raise ValueError(f"The 'intended', 'noise', 'seeds' and 'shot_indices' parameters must have one entry per game ({n}).")
    by_noise: dict[int, list[int]] = {}  # the games of one noise model draw their errors in one call
    for k, (spread, shot) in enumerate(zip(noise, intended)):
        if not isinstance(spread, NoiseModel):
            raise ValueError(f"The 'noise' parameter must be a NoiseModel. Got {spread!r} instead.")
        if not isinstance(shot, Shot):
            raise ValueError(f"The 'intended' parameter must be a Shot. Got {shot!r} instead.")
        check_int("seed", seeds[k], low=0)
        check_int("shot_index", shot_indices[k], low=0)
        by_noise.setdefault(id(spread), []).append(k)
    e = {q: np.zeros(n) for q in DIMENSIONS}
    for rows in by_noise.values():
        spread = noise[rows[0]]
        if any(spread.spreads.values()):
            drawn = spread.errors(np.array([seeds[k] for k in rows]), [shot_indices[k] for k in rows], 0)
            for q in DIMENSIONS:
                e[q][rows] = drawn[q]
    normal = facings(games, [s.x for s in intended], [s.y for s in intended])
    x, y, angle, speed, spin = np.array([[s.x, s.y, s.angle, s.speed, s.spin] for s in intended]).reshape(-1, 5).T
    nx, ny = normal.T
    wanted_x = x + e["placement"] * ny + e["depth"] * nx
    wanted_y = y - e["placement"] * nx + e["depth"] * ny
    sx, sy, moved = legal_spots_many(games, wanted_x, wanted_y)
    shots = Shot.many(sx, sy, *executed_stroke(angle, speed, spin, e))
    return [Executed(meant, shot, m > 0.0, m) for meant, shot, m in zip(intended, shots, moved.tolist())]
