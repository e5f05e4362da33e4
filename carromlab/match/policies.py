"""Shot policies: how a player chooses the shot they intend to play.

A policy is any object with a ``name`` and a ``choose_many(states, rngs) -> shots``
method (:class:`Policy`): the intended shots of N games at once (one generator per game),
before execution noise (:mod:`carromlab.match.execution`); games in lockstep
(:mod:`carromlab.match.lockstep`) ask each policy once per step. :class:`BatchPolicy`
adds the one-state convenience ``choose(state, rng)``. Two are provided: :class:`RandomPolicy` (a random
legal shot) and :class:`GreedyPolicy` (the best of many candidate shots, each simulated
with the batch engine and scored by a value function, :mod:`carromlab.match.value`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from .._validation import check_int, check_real
from ..engine.batch import simulate_batch
from ..engine.scene import MAX_SPEED, Scene, Shot
from ..physics.params import PhysicsParams
from ..rules.state import GameState
from .geometry import facing, facings, legal_spots, legal_spots_many, placement_target, placement_targets
from ..rules.engine_bridge import scene_for
from .scene import shot_radius
from .value import ValueFunction, shot_values

__all__ = ["SPEED_RANGES", "FORWARD", "Policy", "BatchPolicy", "RandomPolicy", "GreedyPolicy"]

FloatArray = npt.NDArray[np.float64]

#: Default speed range of random shots by variant, m/s [EST]: from a soft touch to a hard
#: break on a carrom board (0.74 m; a 6 m/s striker crosses it several times); Hikone's
#: board is smaller (0.6 m); a crokinole disc at 1.6 m/s crosses the whole board
#: (v^2 / (2 mu g) = 1.1 m at mu = 0.12) and one at 0.3 m/s stops within 4 cm.
SPEED_RANGES: dict[str, tuple[float, float]] = {
    "icf": (0.5, 6.0),
    "online": (0.5, 6.0),
    "hikone": (0.5, 5.0),
    "crokinole": (0.3, 1.6),
}

#: Default spread of random directions around the facing direction, rad: the forward
#: half-plane, i.e. towards the board's interior.
FORWARD = math.pi / 2


@runtime_checkable
class Policy(Protocol):
    """What a player does: choose the intended shot from a position."""

    @property
    def name(self) -> str:
        """Short name, written in the shots table."""
        ...

    def choose_many(self, states: Sequence[GameState], rngs: Sequence[np.random.Generator]) -> list[Shot]:
        """The intended shot of each ``states[k].shooter``: a legal placement (m),
        direction (rad), speed (m/s) and spin (rad/s). ``rngs[k]`` is game k's
        generator; a policy draws all of game k's randomness from it, so that a game is
        reproduced by its seed whichever games share the call."""
        ...


class BatchPolicy:
    """Base of the provided policies: :meth:`choose` is :meth:`choose_many` of one state."""

    def choose_many(self, states: Sequence[GameState], rngs: Sequence[np.random.Generator]) -> list[Shot]:
        """See :meth:`Policy.choose_many`."""
        raise NotImplementedError

    def choose(self, state: GameState, rng: np.random.Generator) -> Shot:
        """The intended shot of ``state.shooter``, drawing from ``rng`` (see :meth:`Policy.choose_many`)."""
        return self.choose_many([state], [rng])[0]


def _check_speed_range(name: str, value: tuple[float, float] | None) -> tuple[float, float] | None:
    if value is None:
        return None
    if not isinstance(value, tuple) or len(value) != 2:
        raise ValueError(f"The {name!r} parameter must be a (low, high) tuple of speeds in m/s or None. Got {value!r} instead.")
    lo = check_real(f"{name}[0]", value[0], low=0.0, high=MAX_SPEED, low_open=True, unit="m/s")
    hi = check_real(f"{name}[1]", value[1], low=lo, high=MAX_SPEED, unit="m/s")
    return lo, hi


def _check_name(name: object) -> None:
    if not isinstance(name, str) or not name:
        raise ValueError(f"The 'name' parameter must be a non-empty str. Got {name!r} instead.")


def _random_shots(
    state: GameState, rng: np.random.Generator, sx: FloatArray, sy: FloatArray, n: int,
    speed: tuple[float, float], spread: float,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """``n`` random shots from random spots among (sx, sy): direction uniform within
    ``spread`` rad of the facing direction, speed uniform in ``speed`` (m/s)."""
    k = rng.integers(len(sx), size=n)
    forward = np.array([math.atan2(*facing(state, float(x), float(y))[::-1]) for x, y in zip(sx, sy)])
    angle = forward[k] + rng.uniform(-spread, spread, n)
    return sx[k], sy[k], angle, rng.uniform(speed[0], speed[1], n)


@dataclass(frozen=True)
class RandomPolicy(BatchPolicy):
    """A random legal shot.

    The placement is a uniformly random point of the shooter's placement line
    (:func:`carromlab.match.geometry.placement_target`: the baselines' centre line, the
    Hikone area line or tee spot, the crokinole shooting line), moved to the nearest
    legal spot (ICF-3, ONL-1, HIK-2, CRK-1); the direction is uniform within ``spread``
    of the direction facing the board (the forward half-plane by default); the speed is
    uniform in ``speed``; no spin.

    Parameters
    ----------
    speed : tuple of float, optional
        (low, high) speed, m/s, 0 < low <= high <= 30. Default the variant's
        :data:`SPEED_RANGES`.
    spread : float
        Largest angle between the shot and the facing direction, rad, in (0, pi].
        Default :data:`FORWARD` (the forward half-plane).
    name : str
        Name written in the shots table. Default ``"random"``.

    Examples
    --------
    >>> import numpy as np
    >>> from carromlab.rules import icf
    >>> shot = RandomPolicy().choose(icf.new_game(), np.random.default_rng(0))
    >>> 0.5 <= shot.speed <= 6.0
    True
    """

    speed: tuple[float, float] | None = None
    spread: float = FORWARD
    name: str = "random"

    def __post_init__(self) -> None:
        object.__setattr__(self, "speed", _check_speed_range("speed", self.speed))
        check_real("spread", self.spread, low=0.0, high=math.pi, low_open=True, unit="rad")
        _check_name(self.name)

    def choose_many(self, states: Sequence[GameState], rngs: Sequence[np.random.Generator]) -> list[Shot]:
        """A random legal shot of each ``states[k].shooter`` (see the class notes); the
        placements of all the states are made legal at once (:func:`legal_spots_many`)."""
        states, rngs = list(states), list(rngs)
        if len(states) != len(rngs):
            raise ValueError(f"The 'rngs' parameter must have one generator per state ({len(states)}). Got {len(rngs)}.")
        if not states:
            return []
        # each game's generator draws its placement, then its direction, then its speed
        wx, wy = placement_targets(states, [rng.uniform() for rng in rngs])
        sx, sy, _ = legal_spots_many(states, wx, wy)
        forward = facings(states, sx, sy)
        turn = np.array([rng.uniform(-self.spread, self.spread) for rng in rngs])
        speeds = [self.speed or SPEED_RANGES[s.variant] for s in states]
        speed = np.array([rng.uniform(lo, hi) for rng, (lo, hi) in zip(rngs, speeds)])
        return Shot.many(sx, sy, np.arctan2(forward[:, 1], forward[:, 0]) + turn, speed)


@dataclass(frozen=True)
class GreedyPolicy(BatchPolicy):
    """The best of many candidate shots, simulated in one batch and scored.

    Candidates are played from ``placements`` legal spots spread along the placement
    line. Aimed candidates: carrom and Hikone, every own coin or puck (plus the queen
    while it is on the board; the jack once all own pucks are in) into every pocket,
    aiming the striker at the ghost point ``R_striker + R_piece`` behind the piece on
    the line from the pocket through the piece, when the cut angle is below
    ``cut_limit``; crokinole, the centre hole and every opponent disc, aimed straight.
    Each aimed candidate is tried at the speeds ``f * sqrt(2 mu g d)`` for every factor
    ``f`` in ``speed_factors``, where ``d`` is the striker's path to the aim point plus
    the target's path to its pocket (crokinole: the path to the centre or to the disc)
    and ``mu``, ``g`` come from ``params``. Random candidates, as
    :class:`RandomPolicy`, make up ``random_fraction`` of the ``n_candidates`` (and all
    the rest if there are fewer aimed ones); aimed candidates beyond the budget are
    subsampled at random. All candidates are simulated without noise by one call to
    :func:`carromlab.simulate_batch` and scored by ``value``; the best is chosen, ties
    at random.

    Parameters
    ----------
    n_candidates : int
        Candidate shots per decision, in [1, 100000]. Default 200.
    placements : int
        Placements tried along the line, in [1, 50]. Default 5.
    speed_factors : tuple of float
        Multiples of the aimed candidates' travel speed, each in (0, 100]. Default
        (1.0, 1.5, 2.5).
    random_fraction : float
        Share of random candidates, in [0, 1]. Default 0.25.
    cut_limit : float
        Largest cut angle of an aimed candidate, rad, in (0, pi/2]. Default 75 degrees.
    speed : tuple of float, optional
        Speed range of the random candidates, m/s. Default the variant's
        :data:`SPEED_RANGES`.
    params : PhysicsParams, optional
        The physics the player believes in (used to simulate the candidates). Default
        ``PhysicsParams()``.
    value : callable, optional
        ``value(state, scene, ids, batch) -> values`` (a
        :data:`carromlab.match.value.ValueFunction`). Default
        :func:`carromlab.match.value.shot_values`.
    workers : int
        Threads of the batch engine, in [1, 1024]. Default 1 (games run in parallel
        instead, see :func:`carromlab.match.play_match`).
    name : str
        Name written in the shots table. Default ``"greedy"``.

    Examples
    --------
    >>> import numpy as np
    >>> from carromlab.rules import icf
    >>> shot = GreedyPolicy(n_candidates=50).choose(icf.new_game(), np.random.default_rng(0))
    >>> shot.speed > 0
    True
    """

    n_candidates: int = 200
    placements: int = 5
    speed_factors: tuple[float, ...] = (1.0, 1.5, 2.5)
    random_fraction: float = 0.25
    cut_limit: float = math.radians(75.0)
    speed: tuple[float, float] | None = None
    params: PhysicsParams | None = None
    value: ValueFunction | None = None
    workers: int = 1
    name: str = "greedy"

    def __post_init__(self) -> None:
        check_int("n_candidates", self.n_candidates, low=1, high=100_000)
        check_int("placements", self.placements, low=1, high=50)
        factors = tuple(self.speed_factors) if isinstance(self.speed_factors, (tuple, list)) else ()
        if not factors:
            raise ValueError(
                f"The 'speed_factors' parameter must be a non-empty tuple of numbers. Got {self.speed_factors!r} instead."
            )
        checked = (check_real(f"speed_factors[{i}]", f, low=0.0, high=100.0, low_open=True) for i, f in enumerate(factors))
        object.__setattr__(self, "speed_factors", tuple(checked))
        check_real("random_fraction", self.random_fraction, low=0.0, high=1.0)
        check_real("cut_limit", self.cut_limit, low=0.0, high=math.pi / 2, low_open=True, unit="rad")
        object.__setattr__(self, "speed", _check_speed_range("speed", self.speed))
        if self.params is not None and not isinstance(self.params, PhysicsParams):
            raise ValueError(f"The 'params' parameter must be a PhysicsParams or None. Got {self.params!r} instead.")
        if self.value is not None and not callable(self.value):
            raise ValueError(f"The 'value' parameter must be callable or None. Got {self.value!r} instead.")
        check_int("workers", self.workers, low=1, high=1024)
        _check_name(self.name)

    def choose_many(self, states: Sequence[GameState], rngs: Sequence[np.random.Generator]) -> list[Shot]:
        """The best candidate shot of each ``states[k].shooter`` (see the class notes)."""
        return [self._one(s, rng) for s, rng in zip(states, rngs, strict=True)]

    def _one(self, state: GameState, rng: np.random.Generator) -> Shot:
        params = self.params or PhysicsParams()
        scene, ids = scene_for(state)
        t = (np.arange(self.placements) + 0.5) / self.placements
        sx, sy, _ = legal_spots(state, *placement_target(state, t))
        keep = np.unique(np.round(np.column_stack([sx, sy]), 9), axis=0, return_index=True)[1]
        sx, sy = sx[np.sort(keep)], sy[np.sort(keep)]
        ax, ay, angle, dist = _aimed(state, scene, sx, sy, self.cut_limit)
        n_random = max(round(self.random_fraction * self.n_candidates), self.n_candidates - len(ax) * len(self.speed_factors), 0)
        n_aimed = self.n_candidates - n_random
        factors = np.array(self.speed_factors)
        speed = np.sqrt(2.0 * params.mu * params.g * dist)[:, None] * factors[None, :]
        aimed = [np.repeat(a, len(factors)) for a in (ax, ay, angle)] + [np.minimum(speed.ravel(), MAX_SPEED)]
        if len(aimed[0]) > n_aimed:
            pick = np.sort(rng.choice(len(aimed[0]), size=n_aimed, replace=False))
            aimed = [a[pick] for a in aimed]
        rand = _random_shots(state, rng, sx, sy, n_random, self.speed or SPEED_RANGES[state.variant], FORWARD)
        x, y, a, v = (np.concatenate([p, q]) for p, q in zip(aimed, rand))
        batch = simulate_batch(scene, x, y, a, v, 0.0, params=params, workers=self.workers,
                               final_positions=state.variant == "crokinole")
        values = (self.value or shot_values)(state, scene, ids, batch)
        best = np.flatnonzero(values >= np.max(values) - 1e-9)
        k = int(rng.choice(best))
        return Shot(float(x[k]), float(y[k]), float(a[k]), float(v[k]))


def _aimed(state: GameState, scene: Scene, sx: FloatArray, sy: FloatArray, cut_limit: float) -> tuple[FloatArray, ...]:
    """Aimed candidates from every spot: placement x, y (m), direction (rad) and the
    travel distance d (m) that sets their speeds (see :class:`GreedyPolicy`)."""
    team = state.team_of(state.shooter)
    own = state.colours[team]
    kinds = np.array(scene.kinds[:-1])
    xy = scene.arrays["xy"]
    r_shot = shot_radius(state)
    if state.variant == "crokinole":
        opponents = xy[kinds != own]
        aims = np.vstack([[[0.0, 0.0]], opponents])
        px, py = np.repeat(sx, len(aims)), np.repeat(sy, len(aims))
        gx, gy = np.tile(aims[:, 0], len(sx)), np.tile(aims[:, 1], len(sx))
        return px, py, np.arctan2(gy - py, gx - px), np.hypot(gx - px, gy - py)
    if state.variant == "hikone":
        targets = own if state.count(own) else "jack"
        wanted = kinds == targets
    else:
        wanted = (kinds == own) | ((kinds == "queen") & (state.queen_status == "board"))
    pieces = xy[wanted]
    radii = scene.arrays["radius"][:-1][wanted]
    holes = np.array([(h.x, h.y) for h in state.board.holes])
    # every (spot, piece, hole) triple
    grid = np.meshgrid(np.arange(len(sx)), np.arange(len(pieces)), np.arange(len(holes)), indexing="ij")
    s_i, p_i, h_i = (a.ravel() for a in grid)
    to_hole = holes[h_i] - pieces[p_i]
    d_hole = np.hypot(to_hole[:, 0], to_hole[:, 1])
    u = to_hole / d_hole[:, None]
    ghost = pieces[p_i] - (r_shot + radii[p_i])[:, None] * u
    path = ghost - np.column_stack([sx[s_i], sy[s_i]])
    d_path = np.hypot(path[:, 0], path[:, 1])
    cos_cut = np.einsum("ij,ij->i", path, u) / d_path
    ok = cos_cut > math.cos(cut_limit)
    return (sx[s_i][ok], sy[s_i][ok], np.arctan2(path[ok, 1], path[ok, 0]), (d_path + d_hole)[ok])
