"""Shot policies: how a player chooses the shot they intend to play.

A policy is any object with a ``name`` and a ``choose_many(games, rngs) -> shots``
method (:class:`Policy`): the intended shots of N games at once, as one (N, 5) array
(:meth:`Shot.array <carromlab.Shot.array>`), given the struct of
arrays of their states (:class:`~carromlab.rules.arrays.GameArrays`, the arrays the
lockstep already holds; ``games.states(range(len(games)))`` gives GameState objects to a
policy that wants them) and one generator per game, before execution noise
(:mod:`carromlab.match.execution`); games in lockstep (:mod:`carromlab.match.lockstep`)
ask each policy once per step. :class:`BatchPolicy` adds the one-state convenience
``choose(state, rng)``. Two are provided: :class:`RandomPolicy` (a random
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

from .._angles import angle_value
from .._validation import check_int, check_real, check_sequence, check_str, check_type
from ..engine.batch import simulate_batch
from ..engine.scene import MAX_SPEED, Scene, Shot
from ..physics.params import PhysicsParams, check_params
from ..rules import game_physics
from ..rules.arrays import GameArrays
from ..rules.state import GameState
from ..rules.engine_bridge import full_scene
from .._draws import uniforms
from .geometry import facing, facings, legal_spots_many, placement_targets
from .value import ValueFunction, shot_values

__all__ = ["SPEED_RANGES", "FORWARD", "Policy", "BatchPolicy", "RandomPolicy", "GreedyPolicy", "piece_arrays"]

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

    def choose_many(self, games: GameArrays, rngs: Sequence[np.random.Generator]) -> FloatArray:
        """The intended shot of the shooter of each game (row k of ``games``, its seat
        ``games.shooter[k]``), as row k of an (N, 5) array: a legal placement ``x, y``
        (m), direction ``angle`` (rad), ``speed`` (m/s) and ``spin`` (rad/s), as
        :meth:`Shot.array <carromlab.Shot.array>` gives it. ``rngs[k]`` is game k's
        generator; a policy draws all of game k's randomness from it, so that a game is
        reproduced by its seed whichever games share the call. ``games`` is never
        changed; ``games.regions`` holds the shooters' legal placement regions and
        ``games.states(range(len(games)))`` the games as GameState objects (both built
        on first use)."""
        ...


class BatchPolicy:
    """Base of the provided policies: :meth:`~carromlab.match.BatchPolicy.choose` is
    :meth:`~carromlab.match.BatchPolicy.choose_many` of one state."""

    def choose_many(self, games: GameArrays, rngs: Sequence[np.random.Generator]) -> FloatArray:
        """See :meth:`Policy.choose_many`."""
        raise NotImplementedError

    def choose(self, state: GameState, rng: np.random.Generator) -> Shot:
        """The intended shot of ``state.shooter``, drawing from ``rng`` (see
        :meth:`Policy.choose_many`; the state stacked as one-game arrays)."""
        return Shot(*self.choose_many(GameArrays.from_states([state]), [rng])[0].tolist())


def _check_speed_range(name: str, value: tuple[float, float] | None) -> tuple[float, float] | None:
    if value is None:
        return None
    value = check_sequence(name, value, length=2, what="a (low, high) tuple of speeds in m/s or None")
    lo = check_real(f"{name}[0]", value[0], low=0.0, high=MAX_SPEED, low_open=True, unit="m/s")
    hi = check_real(f"{name}[1]", value[1], low=lo, high=MAX_SPEED, unit="m/s")
    return lo, hi


def _checked(games: GameArrays, rngs: Sequence[np.random.Generator]) -> list[np.random.Generator]:
    """The generators, one per game (the checks of :meth:`Policy.choose_many`'s arguments)."""
    check_type("games", games, GameArrays)
    rngs = list(rngs)
    if len(rngs) != len(games):
        raise ValueError(f"The 'rngs' parameter must have one generator per game ({len(games)}). Got {len(rngs)}.")
    return rngs


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
        :data:`.SPEED_RANGES`.
    spread : float
        Largest angle between the shot and the facing direction, rad, in (0, pi].
        Default :data:`.FORWARD` (the forward half-plane); or give ``spread_deg``.
    name : str
        Name written in the shots table. Default ``"random"``.
    spread_deg : float, optional
        The largest angle in degrees, in (0, 180], instead of ``spread`` (stored as
        radians).

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

    def __init__(
        self, speed: tuple[float, float] | None = None, spread: float | None = None, name: str = "random",
        *, spread_deg: float | None = None,
    ) -> None:  # fmt: skip
        object.__setattr__(self, "speed", _check_speed_range("speed", speed))
        object.__setattr__(self, "spread", angle_value("spread", spread, spread_deg, default=FORWARD, low=0.0, high=math.pi, low_open=True))
        check_str("name", name)
        object.__setattr__(self, "name", name)

    def choose_many(self, games: GameArrays, rngs: Sequence[np.random.Generator]) -> FloatArray:
        """A random legal shot of each game's shooter (see the class notes), on the
        games' arrays: the placements of all the games are made legal at once
        (:func:`~carromlab.match.geometry.legal_spots_many`)."""
        rngs = _checked(games, rngs)
        if not rngs:
            return np.zeros((0, 5))
        # each game's generator draws its placement, its direction and its speed, in that
        # order: three uniform numbers u (rng.random(3), read compiled), scaled as
        # Generator.uniform(low, high) scales its draw (low + (high - low) * u)
        u = uniforms(rngs, 3)
        wx, wy = placement_targets(games, u[:, 0])
        sx, sy, _ = legal_spots_many(games, wx, wy)
        forward = facings(games, sx, sy)
        turn = -self.spread + 2.0 * self.spread * u[:, 1]
        lo, hi = self.speed or SPEED_RANGES[games.variant]
        speed = lo + (hi - lo) * u[:, 2]
        # valid by construction (a legal spot, an angle within a turn, a speed in range):
        # stacked without Shot.array's checks
        return np.column_stack([sx, sy, np.arctan2(forward[:, 1], forward[:, 0]) + turn, speed, np.zeros(len(speed))])


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
    subsampled at random. The candidates are simulated without noise, those of all the
    states of a :meth:`~carromlab.match.BatchPolicy.choose_many` call in one many-scene :func:`carromlab.simulate_batch`
    call (per variant and shot disc), and scored by ``value``; the best is chosen, ties
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
        Largest cut angle of an aimed candidate, rad, in (0, pi/2]. Default 75 degrees;
        or give ``cut_limit_deg``.
    speed : tuple of float, optional
        Speed range of the random candidates, m/s. Default the variant's
        :data:`.SPEED_RANGES`.
    params : PhysicsParams, optional
        The physics the player believes in (used to simulate the candidates). Default
        the board of each game's rules (:func:`carromlab.rules.game_physics`:
        ``PhysicsParams()``; an online game without powder, ONL-10, an unpowdered
        board).
    value : callable, optional
        ``value(states, scene, which, batch) -> values``, one per batch row, row k
        played from ``states[which[k]]`` (a :data:`carromlab.match.value.ValueFunction`).
        Default
        :func:`carromlab.match.shot_values`.
    workers : int
        Threads of the batch engine, in [1, 1024]. Default 1 (games run in parallel
        instead, see :func:`carromlab.match.play_match`).
    name : str
        Name written in the shots table. Default ``"greedy"``.
    cut_limit_deg : float, optional
        The largest cut angle in degrees, in (0, 90], instead of ``cut_limit`` (stored as
        radians).

    Examples
    --------
    >>> import numpy as np
    >>> from carromlab.rules import icf
    >>> shot = GreedyPolicy(n_candidates=50).choose(icf.new_game(), np.random.default_rng(0))
    >>> shot.speed > 0
    True
    >>> GreedyPolicy(cut_limit_deg=60).cut_limit == math.radians(60)
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

    def __init__(
        self, n_candidates: int = 200, placements: int = 5, speed_factors: tuple[float, ...] = (1.0, 1.5, 2.5),
        random_fraction: float = 0.25, cut_limit: float | None = None, speed: tuple[float, float] | None = None,
        params: PhysicsParams | None = None, value: ValueFunction | None = None, workers: int = 1,
        name: str = "greedy", *, cut_limit_deg: float | None = None,
    ) -> None:  # fmt: skip
        put = object.__setattr__
        put(self, "n_candidates", check_int("n_candidates", n_candidates, low=1, high=100_000))
        put(self, "placements", check_int("placements", placements, low=1, high=50))
        factors = tuple(speed_factors) if isinstance(speed_factors, (tuple, list)) else ()
        if not factors:
            raise ValueError(
                f"The 'speed_factors' parameter must be a non-empty tuple of numbers. Got {speed_factors!r} instead."
            )
        checked = (check_real(f"speed_factors[{i}]", f, low=0.0, high=100.0, low_open=True) for i, f in enumerate(factors))
        put(self, "speed_factors", tuple(checked))
        check_real("random_fraction", random_fraction, low=0.0, high=1.0)
        put(self, "random_fraction", random_fraction)
        put(self, "cut_limit", angle_value("cut_limit", cut_limit, cut_limit_deg, default=math.radians(75.0),
                                           low=0.0, high=math.pi / 2, low_open=True))  # fmt: skip
        put(self, "speed", _check_speed_range("speed", speed))
        if params is not None:
            check_params(params)
        if value is not None and not callable(value):
            raise TypeError(f"The 'value' parameter must be callable or None. Got {value!r} ({type(value).__name__}) instead.")
        put(self, "params", params)
        put(self, "value", value)
        put(self, "workers", check_int("workers", workers, low=1, high=1024))
        check_str("name", name)
        put(self, "name", name)

    def choose_many(self, games: GameArrays, rngs: Sequence[np.random.Generator]) -> FloatArray:
        """The best candidate shot of each game's shooter (see the class notes).

        The legal spots of all the games are found by one
        :func:`~carromlab.match.geometry.legal_spots_many` search, the aimed candidates
        are built on arrays of every (state, spot, target, pocket), and the candidates
        of every state sharing a variant and an engine scene
        (:func:`~carromlab.rules.engine_bridge.full_scene`: one group, except crokinole,
        one per shot-disc colour) run in one many-scene :func:`carromlab.simulate_batch`
        call (each row from its state's positions) and are scored by one call of the
        value function (which reads the games as GameState objects). Game k draws only
        from ``rngs[k]``, in the order of :meth:`~carromlab.match.BatchPolicy.choose`, so a state gets the same shot
        alone and among others.
        """
        rngs = _checked(games, rngs)
        if not rngs:
            return np.zeros((0, 5))
        states = games.states(range(len(games)))
        spots = self._spots(games)
        groups: dict[tuple[int, int], tuple[Scene, PhysicsParams, list[int]]] = {}
        for k, s in enumerate(states):
            scene, params = full_scene(s), self.params if self.params is not None else game_physics(s)
            groups.setdefault((id(scene), id(params)), (scene, params, []))[2].append(k)
        shots = np.zeros((len(states), 4))
        for scene, params, rows in groups.values():
            shots[rows] = self._choose_group(scene, [states[k] for k in rows], [rngs[k] for k in rows], [spots[k] for k in rows], params)
        return Shot.array(*shots.T)

    def _spots(self, games: GameArrays) -> list[FloatArray]:
        """Each game's distinct legal spots along its placement line, (S_k, 2) m, in line order."""
        t = (np.arange(self.placements) + 0.5) / self.placements
        sx, sy, _ = legal_spots_many(games, *placement_targets(games, np.tile(t, (len(games), 1))))
        xy = np.stack([sx, sy], axis=-1)
        r = np.round(xy, 9)
        same = (r[:, :, None, :] == r[:, None, :, :]).all(axis=-1)  # (N, M, M)
        first = ~np.tril(same, -1).any(axis=2)  # the first of equal spots
        return [xy[k, first[k]] for k in range(len(games))]

    def _choose_group(
        self, scene: Scene, states: list[GameState], rngs: list[np.random.Generator], spots: list[FloatArray],
        params: PhysicsParams,
    ) -> FloatArray:  # fmt: skip
        """The chosen shots of states sharing ``scene`` (their full scene): rows ``x, y,
        angle, speed``."""
        xy, on = piece_arrays(states)
        ax, ay, angle, dist, owner = _aimed(states, scene, xy, on, spots, self.cut_limit)
        factors = np.array(self.speed_factors)
        n_f = len(factors)
        speed = np.minimum((np.sqrt(2.0 * params.mu * params.g * dist)[:, None] * factors[None, :]).ravel(), MAX_SPEED)
        aimed = [np.repeat(a, n_f) for a in (ax, ay, angle)] + [speed]
        ends = np.cumsum(np.bincount(owner, minlength=len(states)) * n_f)
        parts: list[FloatArray] = []
        for k, (state, rng, s) in enumerate(zip(states, rngs, spots)):
            lo, hi = (0 if k == 0 else int(ends[k - 1])), int(ends[k])
            n_random = max(round(self.random_fraction * self.n_candidates), self.n_candidates - (hi - lo), 0)
            n_aimed = self.n_candidates - n_random
            pick = np.arange(lo, hi)
            if hi - lo > n_aimed:
                pick = lo + np.sort(rng.choice(hi - lo, size=n_aimed, replace=False))
            rand = _random_shots(state, rng, s[:, 0], s[:, 1], n_random, self.speed or SPEED_RANGES[state.variant], FORWARD)
            parts.append(np.column_stack([np.concatenate([a[pick], r]) for a, r in zip(aimed, rand)]))
        cand = np.concatenate(parts)  # (N * n_candidates, 4): state k's candidates are rows k*C .. (k+1)*C - 1
        which = np.repeat(np.arange(len(states)), self.n_candidates)
        batch = simulate_batch(
            scene, *cand.T, 0.0, positions=xy, on_board=on, position_rows=which, params=params, workers=self.workers,
            final_positions=states[0].variant == "crokinole",
        )  # fmt: skip
        values = (self.value or shot_values)(states, scene, which, batch).reshape(len(states), self.n_candidates)
        picked = [k * self.n_candidates + int(rng.choice(np.flatnonzero(values[k] >= np.max(values[k]) - 1e-9))) for k, rng in enumerate(rngs)]
        return cand[picked]


def piece_arrays(states: Sequence[GameState]) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """The pieces of states of one game, by game id: centres (N, P, 2) m (NaN off the
    board) and which are on the board (N, P): the ``positions`` and ``on_board`` of a
    many-scene batch on :func:`~carromlab.rules.engine_bridge.full_scene`."""
    nan = math.nan
    xy = np.array([[(p.x, p.y) if p.where == "board" else (nan, nan) for p in s.pieces] for s in states], dtype=float)
    xy = xy.reshape(len(states), -1, 2)
    return xy, ~np.isnan(xy[..., 0])


def _aimed(
    states: list[GameState], scene: Scene, xy: FloatArray, on: npt.NDArray[np.bool_], spots: list[FloatArray],
    cut_limit: float,
) -> tuple[FloatArray, ...]:  # fmt: skip
    """Aimed candidates of states sharing ``scene``, state by state (in each: by spot,
    then target, then pocket): placement x, y (m), direction (rad), the travel distance
    d (m) that sets their speeds (see :class:`GreedyPolicy`) and the state of each."""
    n, p = on.shape
    m = max(len(s) for s in spots)
    sxy = np.zeros((n, m, 2))
    has_spot = np.arange(m)[None, :] < np.array([len(s) for s in spots])[:, None]
    sxy[has_spot] = np.concatenate(spots)
    kinds = np.array(scene.kinds[:-1])
    own = np.array([s.colours[s.team_of(s.shooter)] for s in states])[:, None]
    if states[0].variant == "crokinole":
        # the centre hole, then every opponent disc on the board
        aims = np.concatenate([np.zeros((n, 1, 2)), xy], axis=1)
        use = has_spot[:, :, None] & np.concatenate([np.ones((n, 1), bool), on & (kinds[None, :] != own)], axis=1)[:, None, :]
        g, s, a = np.nonzero(use)
        px, py = sxy[g, s, 0], sxy[g, s, 1]
        gx, gy = aims[g, a, 0], aims[g, a, 1]
        return px, py, np.arctan2(gy - py, gx - px), np.hypot(gx - px, gy - py), g
    if states[0].variant == "hikone":
        target = np.array([o if s.count(o) else "jack" for s, o in zip(states, own[:, 0])])[:, None]
        wanted = on & (kinds[None, :] == target)
    else:
        queen_up = np.array([s.queen_status == "board" for s in states])[:, None]
        wanted = on & ((kinds[None, :] == own) | ((kinds[None, :] == "queen") & queen_up))
    radii = scene.arrays["radius"][:-1]
    r_shot = scene.arrays["radius"][-1]
    holes = np.array([(h.x, h.y) for h in states[0].board.holes])
    # every (state, spot, piece, hole)
    to_hole = holes[None, :, :] - xy[:, :, None, :]  # (N, P, H, 2)
    d_hole = np.hypot(to_hole[..., 0], to_hole[..., 1])
    u = to_hole / d_hole[..., None]
    ghost = xy[:, :, None, :] - (r_shot + radii)[None, :, None, None] * u
    path = ghost[:, None] - sxy[:, :, None, None, :]  # (N, M, P, H, 2)
    d_path = np.hypot(path[..., 0], path[..., 1])
    with np.errstate(invalid="ignore"):  # pieces off the board are NaN
        cos_cut = np.einsum("...i,...i->...", path, u[:, None]) / d_path
        ok = (cos_cut > math.cos(cut_limit)) & has_spot[:, :, None, None] & wanted[:, None, :, None]
    g, s, i, h = np.nonzero(ok)
    pth = path[g, s, i, h]
    return sxy[g, s, 0], sxy[g, s, 1], np.arctan2(pth[:, 1], pth[:, 0]), (d_path + d_hole[:, None])[g, s, i, h], g
