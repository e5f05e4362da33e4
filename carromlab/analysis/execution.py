"""Noisy replicas of nominal shots, run through the compiled batch engine."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt
import pandas as pd

from .._validation import check_int, check_type
from ..engine.batch import simulate_batch
from ..engine.scene import Scene
from ..physics.params import PhysicsParams, check_params
from ._random import MAX_REPLICAS
from .aiming import wrap_angle
from .noise import NOISE_PRESETS, NoiseModel, executed_stroke
from .placement import StrikerLine

__all__ = ["Execution", "Executed", "build_execution", "check_scene", "check_noise", "placement_clear"]


@dataclass(frozen=True, eq=False)
class Executed:
    """The replicas of a block of cells and the simulation of the valid ones.

    Attributes
    ----------
    replicas : pandas.DataFrame
        One row per replica, cell-major: ``cell``, ``replica``, the executed ``x``,
        ``y`` (m), ``angle`` (rad), ``speed`` (m/s), ``spin`` (rad/s), and ``valid``
        (False when the executed placement overlaps a piece; such a replica is not
        simulated).
    batch : pandas.DataFrame
        :func:`carromlab.simulate_batch` summary of the valid replicas, in order.
    """

    replicas: pd.DataFrame
    batch: pd.DataFrame


@dataclass(frozen=True, eq=False)
class Execution:
    """How nominal shots are executed: scene, physics, placement line, noise, seed.

    Parameters
    ----------
    scene : Scene
        Starting position.
    params : PhysicsParams
        Physics.
    line : StrikerLine
        Placement line; noisy placements are clipped to its legal band (a player does
        not place the striker beyond the marks).
    noise : NoiseModel
        Execution errors of forward shots.
    thumb_noise : NoiseModel
        Execution errors of backward shots (aimed more than 90 degrees from the line's
        forward direction, played with the thumb).
    replicas : int
        Noisy replicas per cell.
    seed : int or tuple of int
        Entropy of the counter-based noise (a tuple gives each stage of a search its own
        streams).
    final_positions : bool
        Keep ``batch.attrs["final_xy"]``.
    """

    scene: Scene
    params: PhysicsParams
    line: StrikerLine
    noise: NoiseModel
    thumb_noise: NoiseModel
    replicas: int
    seed: int | tuple[int, ...]
    final_positions: bool

    def fresh(self, replicas: int) -> Execution:
        """The same execution with ``replicas`` replicas per cell and noise streams of
        their own, for a replay of cells chosen from this execution's shots.

        The new seed is ``seed`` with a 1 after it (the tuple (``seed``, 1), or the tuple
        ``seed`` extended): its entropy words are this seed's with a 1 after them, which
        :class:`numpy.random.SeedSequence` never confuses with the seed alone (it pads
        short entropy with zeros, so a 0 after it would be the same seed), and no shot of
        the replay draws the errors of a shot of this execution, whichever cells are
        replayed.

        Examples
        --------
        >>> ex = build_execution(Scene.icf_break(), params=None, line=None, noise=None, thumb_noise=None,
        ...                      replicas=100, seed=7, final_positions=False)
        >>> again = ex.fresh(1000)
        >>> again.seed, again.replicas
        ((7, 1), 1000)
        """
        seed = self.seed if isinstance(self.seed, tuple) else (self.seed,)
        return replace(self, replicas=check_int("replicas", replicas, low=1, high=MAX_REPLICAS), seed=(*seed, 1))

    def run(self, cells: pd.DataFrame, workers: int) -> Executed:
        """Execute ``replicas`` noisy copies of every cell's nominal shot.

        Parameters
        ----------
        cells : pandas.DataFrame
            Nominal shots: ``cell`` (global index, keys the noise), ``placement`` (m),
            ``angle`` (rad), ``speed`` (m/s), ``spin`` (rad/s).
        workers : int
            Threads of the batch engine.

        Returns
        -------
        Executed

        Examples
        --------
        >>> ex = build_execution(Scene.icf_break(), params=None, line=None, noise=None, thumb_noise=None,
        ...                      replicas=3, seed=0, final_positions=False)
        >>> cells = pd.DataFrame({"cell": [0], "placement": [0.0], "angle": [1.5708], "speed": [6.0], "spin": [0.0]})
        >>> out = ex.run(cells, workers=1)
        >>> out.replicas["replica"].tolist(), len(out.batch)
        ([0, 1, 2], 3)
        """
        r = self.replicas
        cell = np.repeat(cells["cell"].to_numpy(dtype=np.int64), r)
        replica = np.tile(np.arange(r, dtype=np.int64), len(cells))
        nominal = {c: np.repeat(cells[c].to_numpy(dtype=float), r) for c in ("placement", "angle", "speed", "spin")}
        err = self.noise.errors(self.seed, cell, replica)
        if self.thumb_noise != self.noise:
            backward = np.abs(wrap_angle(nominal["angle"] - self.line.forward_angle)) > np.pi / 2
            if backward.any():
                thumb = self.thumb_noise.errors(self.seed, cell, replica)
                err = {k: np.where(backward, thumb[k], v) for k, v in err.items()}
        u, depth = self.line.clip(nominal["placement"] + err["placement"], err["depth"])
        x, y = self.line.point(u, depth)
        angle, speed, spin = executed_stroke(nominal["angle"], nominal["speed"], nominal["spin"], err)
        valid = placement_clear(self.scene, x, y)
        batch = simulate_batch(
            self.scene, x[valid], y[valid], angle[valid], speed[valid], spin[valid],
            params=self.params, workers=workers, final_positions=self.final_positions,
        )  # fmt: skip
        replicas = pd.DataFrame(
            {"cell": cell, "replica": replica, "x": x, "y": y, "angle": angle, "speed": speed, "spin": spin, "valid": valid}
        )
        return Executed(replicas, batch)


def check_scene(scene: object) -> Scene:
    """Return ``scene`` if it is a :class:`~carromlab.Scene`, else raise TypeError naming
    the 'scene' parameter (checked first: the goal and the line read it)."""
    return check_type("scene", scene, Scene, hint="e.g. Scene.icf_break()")


def check_noise(name: str, value: object, default: NoiseModel) -> NoiseModel:
    """``value``, or ``default`` for None; else a TypeError naming the parameter ``name``
    (and, for a preset name, the likely mistake, how to turn it into a model)."""
    if value is None:
        return default
    hint = f"e.g. NoiseModel.preset({value!r})" if isinstance(value, str) and value in NOISE_PRESETS else ""
    return check_type(name, value, (NoiseModel, type(None)), hint=hint)


def build_execution(
    scene: Scene,
    *,
    params: PhysicsParams | None,
    line: StrikerLine | None,
    noise: NoiseModel | None,
    thumb_noise: NoiseModel | None,
    replicas: int,
    seed: int,
    final_positions: bool,
) -> Execution:
    """Validate the inputs shared by every analysis and fill in their defaults.

    ``params`` defaults to ``PhysicsParams()``, ``line`` to the south placement line of
    the board (:meth:`StrikerLine.for_scene`), ``noise`` to the ``"club"`` preset and
    ``thumb_noise`` to ``noise``.

    Examples
    --------
    >>> ex = build_execution(Scene.icf_break(), params=None, line=None, noise=None, thumb_noise=None,
    ...                      replicas=4, seed=0, final_positions=False)
    >>> ex.noise == NoiseModel.preset("club"), round(ex.line.half_length, 4)
    (True, 0.2191)
    """
    scene = check_scene(scene)
    params = check_params(params)
    line = StrikerLine.for_scene(scene) if line is None else check_type("line", line, (StrikerLine, type(None)))
    noise = check_noise("noise", noise, NoiseModel.preset("club"))
    thumb_noise = check_noise("thumb_noise", thumb_noise, noise)
    return Execution(
        scene=scene, params=params, line=line, noise=noise, thumb_noise=thumb_noise,
        replicas=check_int("replicas", replicas, low=1, high=MAX_REPLICAS),
        seed=check_int("seed", seed, low=0, high=2**63 - 1), final_positions=final_positions,
    )  # fmt: skip


def placement_clear(scene: Scene, x: npt.ArrayLike, y: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """Whether a striker centred at (x, y) (m) lies on the board and overlaps no piece.

    Examples
    --------
    >>> placement_clear(Scene.icf_break(), [0.0, 0.0], [-0.25, 0.0]).tolist()
    [True, False]
    """
    x, y = np.broadcast_arrays(np.atleast_1d(np.asarray(x, dtype=float)), np.asarray(y, dtype=float))
    r = scene.specs[scene.striker].radius
    ok = scene.board.contains(x, y, r)
    xy = scene.arrays["xy"]
    rad = scene.arrays["radius"][:-1]
    for (px, py), pr in zip(xy, rad):  # pieces are few (<= 63); shots are many
        ok &= np.hypot(x - px, y - py) >= pr + r
    return ok
