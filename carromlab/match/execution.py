"""From the intended shot to the executed one: execution noise, then a legal placement."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .._validation import check_int, check_type
from ..analysis.noise import DIMENSIONS, NoiseModel, executed_stroke
from ..engine.scene import Shot
from ..rules.arrays import GameArrays
from ..rules.state import GameState
from .geometry import facings, legal_spots_many

__all__ = ["Executed", "execute", "execute_many"]

FloatArray = npt.NDArray[np.float64]


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

    The errors are :meth:`.NoiseModel.errors` keyed by ``(seed, cell=shot_index,
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
    check_type("intended", intended, Shot)
    meant = [intended.row]
    check_int("seed", seed, low=0)
    check_int("shot_index", shot_index, low=0)
    shot, moved = execute_many(GameArrays.from_states([state]), meant, [noise], seeds=[seed], shot_indices=[shot_index])
    return Executed(intended, Shot(*shot[0].tolist()), bool(moved[0] > 0.0), float(moved[0]))


def execute_many(
    games: GameArrays, intended: npt.ArrayLike, noise: Sequence[NoiseModel], *, seeds: Sequence[int],
    shot_indices: Sequence[int],
) -> tuple[FloatArray, FloatArray]:  # fmt: skip
    """Play N intended shots, one per game, with execution errors (:func:`.execute` of
    each game; the errors of the games sharing a noise model drawn in one
    :meth:`~carromlab.analysis.NoiseModel.errors` call, and the placements made
    illegal by the errors moved back by one
    :func:`~carromlab.match.geometry.legal_spots_many` search).

    Parameters
    ----------
    games : GameArrays
        The positions, one row per game.
    intended : array_like, shape (N, 5)
        The intended shot of each game, rows ``x, y, angle, speed, spin`` (m, m, rad,
        m/s, rad/s; :meth:`Shot.array <carromlab.Shot.array>`).
    noise : sequence of NoiseModel
        The spreads of each game's shooter.
    seeds, shot_indices : sequence of int
        Each game's seed (>= 0) and the shot's number in it (>= 0).

    Returns
    -------
    shots : numpy.ndarray, shape (N, 5)
        The executed shots, rows as ``intended``.
    moved : numpy.ndarray, shape (N,)
        How far each placement was moved back to a legal spot, m (0: not moved).
    """
    n = len(games)
    meant = np.asarray(intended, dtype=float)
    if meant.shape != (n, 5) or not len(noise) == len(seeds) == len(shot_indices) == n:
        raise ValueError(
            f"The 'intended', 'noise', 'seeds' and 'shot_indices' parameters must have one entry per game ({n}); "
            f"'intended' of shape ({n}, 5). Got shape {meant.shape} instead, or another length."
        )
    seed, index = np.asarray(seeds, dtype=np.int64).reshape(n), np.asarray(shot_indices, dtype=np.int64).reshape(n)
    for name, values in (("seed", seed), ("shot_index", index)):
        if n and values.min() < 0:
            check_int(name, int(values.min()), low=0)  # raises, naming the parameter
    # the games of one noise model draw their errors in one call (one group: one model, as
    # the games without noise share)
    ids = list(map(id, noise))
    by_noise: dict[int, list[int]] = {}
    if n and ids.count(ids[0]) == n:
        by_noise[ids[0]] = list(range(n))
    else:
        for k, key in enumerate(ids):
            by_noise.setdefault(key, []).append(k)
    e = {q: np.zeros(n) for q in DIMENSIONS}
    for rows in by_noise.values():
        spread = noise[rows[0]]
        check_type("noise", spread, NoiseModel)
        if any(spread.spreads.values()):
            drawn = spread.errors(seed[rows], index[rows].tolist(), 0)
            for q in DIMENSIONS:
                e[q][rows] = drawn[q]
    x, y, angle, speed, spin = Shot.array(*meant.T).T
    nx, ny = facings(games, x, y).T
    wanted_x = x + e["placement"] * ny + e["depth"] * nx
    wanted_y = y - e["placement"] * nx + e["depth"] * ny
    sx, sy, moved = legal_spots_many(games, wanted_x, wanted_y)
    # legal spots and a stroke in the engine's ranges: stacked without Shot.array's checks
    return np.column_stack([sx, sy, *executed_stroke(angle, speed, spin, e)]), moved
