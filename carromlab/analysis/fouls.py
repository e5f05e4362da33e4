"""Foul probabilities by rule variant.

A population of intended shots is played from one position under several rule variants:
every shot is executed with noise (:class:`NoiseModel`), its placement moved to the nearest
spot the variant allows (:func:`carromlab.rules.snap_placement`), simulated by the batch
engine and adjudicated on arrays (:func:`carromlab.rules.arrays.adjudicate_arrays`, which
agrees exactly with :func:`carromlab.rules.adjudicate`). The rules decide what is a foul;
this module only counts.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from .._angles import angle_array, with_deg_columns
from .._validation import check_array, check_choice, check_int, check_mapping, check_sequence, check_table, check_type
from ..engine.batch import piece_stack, simulate_prepared
from ..engine.scene import MAX_SPEED, MAX_SPIN, Scene
from ..equipment.board import CrokinoleMarks
from ..physics.params import PhysicsParams, check_params
from ..rules import VARIANTS, game_physics, snap_placements
from ..rules.arrays import GameArrays, OutcomeArrays, adjudicate_arrays
from ..rules.engine_bridge import forward_of, frame_reach_of, scene_for, shot_piece
from ..rules.state import GameState, Piece
from ._random import MAX_REPLICAS
from .execution import check_noise
from .noise import NoiseModel, executed_stroke
from .placement import StrikerLine
from .stats import CI_METHODS, check_confidence, clustered_binomial_ci
from .store import describe, sweep_manifest
from .sweep import check_backend, run_sweep

__all__ = ["FOULS", "ANY_FOUL", "MAX_POPULATION", "ShotPopulation", "comparable_states", "foul_probabilities"]

#: The fouls each variant's rules can call (``Ruling.fouls[i].rule``), with a short
#: description. Fouls of different variants for the same event share a description, so
#: that their bars line up in :func:`~carromlab.plotting.analysis.plot_foul_probabilities`.
FOULS: dict[str, dict[str, str]] = {
    "icf": {
        "ICF-11": "striker pocketed",
        "ICF-14": "opponent's last coin",
        "ICF-15": "own last coin before the queen",
    },
    "online": {
        "ONL-3": "striker pocketed",
        "ONL-5": "a last coin before the queen",
    },
    "hikone": {
        "HIK-5": "jack penalty",
        "HIK-6": "jack with own pucks",
        "HIK-7": "striker pocketed or off the board",
        "HIK-9": "direct hit inside own area (doubles)",
    },
    "crokinole": {
        "CRK-2": "disc outside the 15 ring",
        "CRK-3": "no opponent disc struck",
    },
}

#: The ``rule`` value of the row counting shots with at least one foul.
ANY_FOUL = "any"

_SHOT_COLUMNS = ("x", "y", "angle", "speed", "spin")
#: Shots a chunk of a foul study plays and rules at once (``_FoulTask._play``): a block's
#: arrays (about 2 kB a shot in Hikone, a piece's position in a shot 16 bytes) reuse the
#: memory the block before freed, where a whole chunk's were paged in afresh on every
#: call, which cost more than a block's calls (Hikone, 20,000 shots: about 7,000 page
#: faults a call in one block, 1,400 in blocks of 4,096).
_BLOCK_SHOTS = 4096

#: Largest number of shots of a :class:`~carromlab.analysis.ShotPopulation` (its draws and every state's
#: shots are held in memory); for more executions of each shot, raise ``replicas``.
MAX_POPULATION = 10**6


def _range(name: str, value: Any, *, low: float | None = None, high: float | None = None, unit: str) -> tuple[float, float]:
    arr = check_array(name, value, shape=(2,), low=low, high=high, unit=unit)
    if arr[0] > arr[1]:
        raise ValueError(f"The {name!r} parameter must be a range (low, high) with low <= high. Got {tuple(arr.tolist())} instead.")
    return float(arr[0]), float(arr[1])


@dataclass(frozen=True)
class _ShootingArc:
    """The crokinole shooting line in the shooter's quadrant, with the placement
    coordinate of :class:`StrikerLine`: ``u`` (m), the arc length from the arc's middle,
    positive to the shooter's right (counter-clockwise)."""

    radius: float
    middle: float
    half_angle: float

    @property
    def half_length(self) -> float:
        return self.radius * self.half_angle

    def point(self, u: npt.ArrayLike) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        a = self.middle + np.asarray(u, dtype=float) / self.radius
        return self.radius * np.cos(a), self.radius * np.sin(a)


def placement_line(state: GameState, scene: Scene) -> StrikerLine | _ShootingArc:
    """The shooter's placement line: the baselines' centre line (ICF-3, ONL-1), the area
    line (HIK-2) or the shooting line's arc (CRK-1)."""
    side = state.seat_sides[state.shooter]
    if isinstance(state.board.marks, CrokinoleMarks):
        arc = state.board.shooting_line(side)  # type: ignore[arg-type]
        return _ShootingArc(arc.radius, 0.5 * (arc.start_angle + arc.end_angle), 0.5 * (arc.end_angle - arc.start_angle))
    return StrikerLine.for_scene(scene, side)


@dataclass(frozen=True)
class ShotPopulation:
    """A parametric population of intended shots: uniform over ranges of placement, aim,
    speed and spin.

    The population is drawn once (``numpy.random.default_rng(seed)``), as fractions of
    the ranges, so every state gets the same draws: the same placements along its line,
    the same aims relative to its shooter.

    Parameters
    ----------
    angle : tuple of float
        Range (low, high) of the aim, rad, relative to the shooter's forward direction
        (:func:`carromlab.rules.engine_bridge.forward_of`; counter-clockwise positive,
        0 = straight at the far side), within [-pi, pi]. Or give ``angle_deg``.
    speed : tuple of float
        Range of the striker speed, m/s, within [0, 30].
    n : int
        Number of shots, in [1, 10**6] (:data:`.MAX_POPULATION`).
    placement : tuple of float, optional
        Range of the placement, m along the shooter's line from its middle, positive to
        the shooter's right: the centre line of the baselines (ICF-3, ONL-1), the area
        line (HIK-2; the first shot of a seat is snapped to the tee spot) or the arc of
        the shooting line in the shooter's quadrant (CRK-1). Default None: the whole line.
    spin : tuple of float
        Range of the spin, rad/s, within [-5000, 5000]. Default (0, 0).
    seed : int
        Seed of the draws, >= 0. Default 0.
    angle_deg : tuple of float, optional
        The aim range in degrees, instead of ``angle`` (stored as radians).

    Raises
    ------
    ValueError
        If a range is not a pair (low <= high) inside its bounds, or ``n`` is outside
        [1, 10**6]; the message names the parameter.

    Examples
    --------
    >>> import numpy as np
    >>> from carromlab.rules import icf
    >>> pop = ShotPopulation(angle=(-0.1, 0.1), speed=(2.0, 4.0), n=3, placement=(0.0, 0.0))
    >>> shots = pop.shots(icf.new_game())
    >>> shots["y"].round(4).tolist(), bool(np.all(np.abs(shots["angle"] - np.pi / 2) <= 0.1))
    ([-0.2526, -0.2526, -0.2526], True)
    >>> ShotPopulation(angle=(0.0, 0.0), speed=(1.0, 2.0), n=0)
    Traceback (most recent call last):
    ...
    ValueError: The 'n' parameter must be an int in the range [1, 1000000]. Got 0 instead.
    """

    angle: tuple[float, float]
    speed: tuple[float, float]
    n: int
    placement: tuple[float, float] | None = None
    spin: tuple[float, float] = (0.0, 0.0)
    seed: int = 0

    def __init__(
        self, angle: tuple[float, float] | None = None, speed: tuple[float, float] | None = None, n: int | None = None,
        placement: tuple[float, float] | None = None, spin: tuple[float, float] = (0.0, 0.0), seed: int = 0,
        *, angle_deg: tuple[float, float] | None = None,
    ) -> None:  # fmt: skip
        put = object.__setattr__
        for name, value in (("speed", speed), ("n", n)):
            if value is None:
                raise TypeError(f"The {name!r} parameter is required.")
        put(self, "angle", _range("angle", angle_array("angle", angle, angle_deg), low=-math.pi, high=math.pi, unit="rad"))
        put(self, "speed", _range("speed", speed, low=0.0, high=MAX_SPEED, unit="m/s"))
        put(self, "spin", _range("spin", spin, low=-MAX_SPIN, high=MAX_SPIN, unit="rad/s"))
        put(self, "placement", None if placement is None else _range("placement", placement, unit="m"))
        put(self, "n", check_int("n", n, low=1, high=MAX_POPULATION))
        put(self, "seed", check_int("seed", seed, low=0))

    def shots(self, state: GameState) -> pd.DataFrame:
        """The intended shots of the population from ``state`` (its shooter's line).

        Parameters
        ----------
        state : GameState
            The position; the seat to shoot is ``state.shooter``.

        Returns
        -------
        pandas.DataFrame
            One row per shot: ``placement`` (m along the line), ``x``, ``y`` (m),
            ``angle`` (direction, rad, counter-clockwise from +x) and ``angle_deg``
            (degrees), ``speed`` (m/s), ``spin`` (rad/s).

        Raises
        ------
        ValueError
            If the placement range reaches beyond the ends of the shooter's line.
        """
        return with_deg_columns(pd.DataFrame(self._drawn(state, state_scene(state)[0])), ("angle",))

    def _drawn(self, state: GameState, scene: Scene) -> dict[str, npt.NDArray[np.float64]]:
        """The columns of :meth:`shots` from ``state``, whose scene (:func:`scene_for`) is
        ``scene``."""
        line = placement_line(state, scene)
        h = line.half_length
        lo, hi = (-h, h) if self.placement is None else self.placement
        if max(abs(lo), abs(hi)) > h + 1e-12:
            raise ValueError(
                f"The 'placement' parameter must lie in [{-h:.6g}, {h:.6g}] m (the half-length of the {state.variant} "
                f"shooter's line). Got {(lo, hi)} instead."
            )
        draw = np.random.default_rng(self.seed).random((4, self.n))
        u, offset, speed, spin = (a + (b - a) * f for (a, b), f in zip(((lo, hi), self.angle, self.speed, self.spin), draw))
        x, y = line.point(u)
        fx, fy = forward_of(state)
        angle = math.atan2(fy, fx) + offset
        return {"placement": u, "x": x, "y": y, "angle": angle, "speed": speed, "spin": spin}


def _new_game(variant: str, players: int) -> GameState:
    """A new game of ``variant`` with ``players`` seats (the online rules have only 2)."""
    return VARIANTS[variant].new_game() if players == 2 else VARIANTS[variant].new_game(players)


def _origins(shots: pd.DataFrame) -> dict[str, npt.NDArray[Any]]:
    """Where the rows of a match's shots table were played: ``variant``, its ``board``
    and, with a ``seat`` column, the ``seat`` and its ``side`` (None without); {} for a
    table without a ``variant`` column."""
    if "variant" not in shots.columns:
        return {}
    n = len(shots)
    players = shots["players"].to_numpy() if "players" in shots.columns else np.full(n, 2)
    seats = shots["seat"].to_numpy() if "seat" in shots.columns else np.full(n, None)
    out = {"variant": shots["variant"].to_numpy(dtype=object), "board": np.empty(n, dtype=object), "seat": seats,
           "side": np.full(n, None, dtype=object)}  # fmt: skip
    groups = pd.DataFrame({"v": out["variant"], "p": players, "s": seats}).groupby(["v", "p", "s"], dropna=False).indices
    for (variant, p, seat), rows in groups.items():
        check_choice("shots.variant", variant, VARIANTS)
        p = check_int("shots.players", p, low=2, high=2 if variant == "online" else 4)
        if p == 3:
            raise ValueError("The 'shots.players' parameter must be 2 or 4. Got 3 instead.")
        game = _new_game(variant, p)
        out["board"][rows] = game.board.name
        if seat is not None and not pd.isna(seat):
            out["side"][rows] = game.seat_sides[check_int("shots.seat", seat, low=0, high=p - 1)]
    return out


def _check_origins(key: str, state: GameState, shots: dict[str, npt.NDArray[Any]]) -> None:
    """Refuse a match's shots played on another board than ``states[key]``'s, or from a
    seat on another side than its shooter's: their placements are not on the shooter's
    line, and snapping them onto it would move them silently."""
    if "board" not in shots:
        return
    side = state.seat_sides[state.shooter]
    for column, off, want, hint in (
        ("variant", shots["board"] != state.board.name, f"variants played on the {state.board.name} board",
         "give the shots of a match on that board"),
        ("seat", pd.notna(shots["side"]) & (shots["side"] != side), f"seats on the shooter's side ({side})",
         "keep the rows of the seats on that side, e.g. shots[shots['seat'] == 0]"),
    ):  # fmt: skip
        if off.any():
            i = int(np.argmax(off))
            got = f"{shots['variant'][i]!r} ({shots['board'][i]} board)" if column == "variant" else f"seat {shots['seat'][i]} ({shots['side'][i]})"
            raise ValueError(
                f"The 'shots' parameter's {column!r} column must hold {want} of states[{key!r}]. Got {got} in row "
                f"{shots['row'][i : i + 1].tolist()[0]!r} ({np.count_nonzero(off)} of {len(off)} rows) instead; {hint}."
            )


def _shot_table(shots: Any) -> dict[str, npt.NDArray[Any]] | ShotPopulation:
    """Validate the ``shots`` parameter: a population, or a table of intended shots (its
    columns :data:`_SHOT_COLUMNS`, the angle in rad or as ``angle_deg``, checked; with the
    table's index as ``row``, and a match's ``variant``, ``board``, ``seat`` and ``side``
    of every row, :func:`_origins`)."""
    if isinstance(shots, ShotPopulation):
        return shots
    check_type("shots", shots, (ShotPopulation, pd.DataFrame), hint="a population or a table of shots")
    columns = set(shots.columns)
    # a match's shots table holds the intended shot as intended_<q> beside the executed one
    prefix = "intended_" if {f"intended_{c}" for c in _SHOT_COLUMNS} <= columns else ""
    need = [f"{prefix}{c}" for c in ("x", "y", "speed")]
    if not set(need) <= columns or not {f"{prefix}angle", f"{prefix}angle_deg"} & columns:
        raise ValueError(
            f"The 'shots' parameter must have the columns {need}, {prefix}angle (rad) or {prefix}angle_deg (degrees), "
            f"and optionally {prefix}spin. Got {list(shots.columns)} instead."
        )
    if len(shots) == 0:
        raise ValueError("The 'shots' parameter must have at least one row. Got an empty DataFrame instead.")
    spin = shots[f"{prefix}spin"] if f"{prefix}spin" in columns else 0.0
    # a table of carromlab's own has both spellings: the radians are the data
    rad = shots[f"{prefix}angle"] if f"{prefix}angle" in columns else None
    deg = shots[f"{prefix}angle_deg"] if rad is None else None
    return {
        "x": check_array(f"shots.{prefix}x", shots[f"{prefix}x"], unit="m"),
        "y": check_array(f"shots.{prefix}y", shots[f"{prefix}y"], unit="m"),
        "angle": angle_array(f"shots.{prefix}angle", rad, deg),  # type: ignore[dict-item]
        "speed": check_array(f"shots.{prefix}speed", shots[f"{prefix}speed"], low=0.0, high=MAX_SPEED, unit="m/s"),
        "spin": np.broadcast_to(check_array(f"shots.{prefix}spin", spin, low=-MAX_SPIN, high=MAX_SPIN, unit="rad/s"), len(shots)),
        "row": shots.index.to_numpy(),
        **_origins(shots),
    }


def _check_placements(key: str, scene: Scene, shots: dict[str, npt.NDArray[Any]]) -> None:
    """Refuse a table's placement off the board of ``states[key]`` (whose scene is
    ``scene``): the nearest legal spot of a point metres away is no execution error."""
    r = scene.specs[scene.striker].radius
    off = ~scene.board.contains(shots["x"], shots["y"], r)
    if off.any():
        i = int(np.argmax(off))
        raise ValueError(
            f"The 'shots' parameter must place the shot disc on the board of states[{key!r}] "
            f"({scene.board.surface_rule(r)}). Got x = "
            f"{shots['x'][i]:g}, y = {shots['y'][i]:g} m in row {shots['row'][i : i + 1].tolist()[0]!r} ({np.count_nonzero(off)} of "
            f"{len(off)} rows off the board) instead."
        )


def _check_states(states: Any) -> dict[str, tuple[GameState, tuple[Scene, npt.NDArray[np.int64]]]]:
    """Validate the ``states`` parameter; each state with its scene and scene ids (:func:`scene_for`)."""
    check_mapping("states", states, str, GameState, nonempty=True, what="a mapping of name to GameState")
    for key, state in states.items():
        if not key:
            raise ValueError(f"The 'states' parameter must have non-empty str keys (a name per variant). Got the key {key!r} instead.")
        if state.game_over:
            raise ValueError(f"The 'states[{key!r}]' parameter must be a game in progress. Got a finished game instead.")
        shot_piece(state)
    # a position the engine cannot play is an error now, not in a worker
    return {key: (state, state_scene(state)) for key, state in states.items()}


#: The scenes of the states studied last (:func:`state_scene`), by the state's ``id`` (each
#: entry holds its state, so that the id stays its own), oldest first.
_SCENES: dict[int, tuple[GameState, Scene, npt.NDArray[np.int64]]] = {}
#: How many states :data:`_SCENES` keeps.
_KEPT_SCENES = 16


def state_scene(state: GameState) -> tuple[Scene, npt.NDArray[np.int64]]:
    """:func:`scene_for` of ``state`` (its ids read-only), built once per state object: a
    study plays the same positions call after call, and the engine keeps its setup per
    scene object."""
    kept = _SCENES.get(id(state))
    if kept is None:
        if len(_SCENES) >= _KEPT_SCENES:
            _SCENES.pop(next(iter(_SCENES)), None)
        scene, ids = scene_for(state)
        ids.flags.writeable = False
        kept = _SCENES[id(state)] = (state, scene, ids)
    return kept[1], kept[2]


def _snap(state: GameState, radius: float, x: np.ndarray, y: np.ndarray, *, shared: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The legal placements nearest (x, y) (m) and whether each one moved.

    With ``shared`` (the noise leaves the placements alone, so the replicas of a shot
    share theirs), each distinct point is snapped once; else every point is (noisy
    placements are all distinct: finding them would cost a sort).
    """
    if shared:
        points, inverse = np.unique(x + 1j * y, return_inverse=True)  # complex: one sort, exact
        px, py = snap_placements(state, points.real, points.imag, radius)
        sx, sy = px[inverse], py[inverse]
    else:
        sx, sy = snap_placements(state, x, y, radius)
    return sx, sy, (sx != x) | (sy != y)


@dataclass(frozen=True, eq=False)
class _FoulTask:
    """Plays the noisy replicas of a chunk of cells and adjudicates them; one row per shot."""

    keys: tuple[str, ...]
    states: tuple[GameState, ...]
    scenes: tuple[tuple[Scene, npt.NDArray[np.int64]], ...]
    noise: NoiseModel
    replicas: int
    seed: int
    params: tuple[PhysicsParams, ...]  # of each state

    def __call__(self, cells: pd.DataFrame, workers: int) -> pd.DataFrame:
        state = cells["state"].to_numpy()
        edges = [0, *(np.flatnonzero(np.diff(state)) + 1).tolist(), len(state)]  # the cells come state by state
        frames = [self._play(int(state[a]), cells.iloc[a:b], workers) for a, b in zip(edges[:-1], edges[1:])]
        return frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)

    def _play(self, s: int, cells: pd.DataFrame, workers: int) -> pd.DataFrame:
        state, r = self.states[s], self.replicas
        scene, ids = self.scenes[s]
        cell = np.repeat(cells["cell"].to_numpy(dtype=np.int64), r)
        shot = np.repeat(cells["shot"].to_numpy(dtype=np.int64), r)
        replica = np.tile(np.arange(r, dtype=np.int64), len(cells))
        nominal = {c: np.repeat(cells[c].to_numpy(dtype=float), r) for c in _SHOT_COLUMNS}
        # keyed by the shot, not the cell: every variant plays the same errors
        err = self.noise.errors(self.seed, shot, replica)
        fx, fy = forward_of(state)
        # placement error to the shooter's right (fy, -fx), depth error forward
        x = nominal["x"] + err["placement"] * fy + err["depth"] * fx
        y = nominal["y"] - err["placement"] * fx + err["depth"] * fy
        shared = not (self.noise.placement or self.noise.depth)
        x, y, snapped = _snap(state, scene.specs[scene.striker].radius, x, y, shared=shared)
        angle, speed, spin = executed_stroke(nominal["angle"], nominal["speed"], nominal["spin"], err)
        game = GameArrays.from_states([state])
        # valid by construction (placements snapped, strokes in the engine's ranges, the
        # scene's own pieces): the engine's core, without simulate_batch_arrays' checks
        shots = np.column_stack([x, y, angle, speed, spin])
        pieces, present = piece_stack(scene, None, None, len(shots))
        forward, reach = np.array([[fx, fy]]), frame_reach_of(state)
        # played and ruled a block of shots at a time (_BLOCK_SHOTS), keeping only the fouls
        ranks, truncated = [], []
        # the state as a block's rows, made once for each block length (read-only views: the
        # rulings copy what they change); every block but the last has _BLOCK_SHOTS shots
        repeated: dict[int, GameArrays] = {}
        for a in range(0, len(x), _BLOCK_SHOTS):
            batch = simulate_prepared(
                scene, shots[a : a + _BLOCK_SHOTS], pieces, present, params=self.params[s], forward=forward,
                carriers=(scene.striker,), frame_reach=reach, workers=workers, details=True, final_positions=True,
            )  # fmt: skip
            if len(batch) not in repeated:
                repeated[len(batch)] = game.repeated(len(batch))
            games = repeated[len(batch)]
            rulings = adjudicate_arrays(games, OutcomeArrays.from_batch(batch, games, ids), place=False)
            ranks.append(rulings.fouls)
            truncated.append(batch.columns["truncated"])
        return pd.DataFrame(
            {
                "variant": self.keys[s], "state": s, "cell": cell, "shot": shot, "replica": replica,
                "x": x, "y": y, "angle": angle, "angle_deg": np.degrees(angle), "speed": speed, "spin": spin,
                "snapped": snapped, "truncated": np.concatenate(truncated),
                "fouls": _foul_texts(np.concatenate(ranks), rulings.rules),
            },
            copy=False,
        )  # fmt: skip


def _foul_texts(fouls: npt.NDArray[np.int16], rules: tuple[str, ...]) -> pd.api.extensions.ExtensionArray:
    """The ``;``-separated rule ids of each shot's fouls (:attr:`RulingArrays.fouls
    <carromlab.rules.arrays.RulingArrays>` ranks, columns ``rules``), in the order they
    were called (an array of pandas' default string type)."""
    ranks = fouls.astype(np.int64)
    # one integer per pattern of ranks, so that each distinct pattern is spelled once
    _, pick, which = np.unique(ranks @ (ranks.shape[1] + 1) ** np.arange(ranks.shape[1]), return_index=True, return_inverse=True)
    texts = [";".join(rules[c] for c in np.argsort(row) if row[c] > 0) for row in ranks[pick]]
    # the distinct texts in pandas' own string type (as a frame infers it), then one take
    return pd.Series(texts).array.take(which)


def _tally(
    key: str, variant: str, fouls: pd.Series, shot: npt.NDArray[np.int64], snapped: npt.NDArray[np.bool_],
    truncated: npt.NDArray[np.bool_], *, replicas: int, ci: str, confidence: float,
) -> list[dict[str, Any]]:
    """Rows of one state (its shots' ``fouls`` texts, the intended ``shot`` each was played
    from, ``replicas`` times each, and their ``snapped``, ``truncated`` flags): every foul its
    variant defines or that was called, then any foul; each with its interval from the
    fouls per intended shot (:func:`clustered_binomial_ci`: the replicas of a shot share
    its placement, aim and speed, and are not independent draws of the population)."""
    codes, texts = pd.factorize(fouls)
    called = [set(filter(None, str(text).split(";"))) for text in texts]
    defined = FOULS[variant]
    rules = [*defined, *sorted(set().union(*called) - set(defined))]
    flags = [np.array([rule in c for c in called], dtype=bool) for rule in rules] + [np.array([bool(c) for c in called])]
    n_shots = len(fouls) // replicas
    # the shots of each flag counted by intended shot (few rows have a foul: no weights to sum)
    per_shot = np.array([np.bincount(shot[f[codes]], minlength=n_shots) for f in flags], dtype=float)
    low, high, n_eff = clustered_binomial_ci(per_shot, replicas, method=ci, confidence=confidence)
    descriptions = [defined.get(rule, rule) for rule in rules] + ["any foul"]
    common = {"n": len(fouls), "n_snapped": int(np.count_nonzero(snapped)), "n_truncated": int(np.count_nonzero(truncated))}
    return [
        {"variant": key, "rule": rule, "foul": foul, "k": int(k), "ci_low": lo, "ci_high": hi, "n_eff": ne, **common}
        for rule, foul, k, lo, hi, ne in zip([*rules, ANY_FOUL], descriptions, per_shot.sum(axis=1), low, high, n_eff)
    ]


def foul_probabilities(
    states: Mapping[str, GameState],
    shots: pd.DataFrame | ShotPopulation,
    *,
    noise: NoiseModel | None = None,
    replicas: int = 1,
    params: PhysicsParams | None = None,
    seed: int = 0,
    ci: str = "wilson",
    confidence: float = 0.95,
    client: Any = None,
    workers: int | None = None,
    store: str | os.PathLike[str] | None = None,
    chunk_cells: int | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Probability of each foul under each rule variant, for a population of shots played
    from a position.

    Every intended shot is played ``replicas`` times from every state: with execution
    errors from ``noise`` (keyed by seed, shot and replica, so every state plays the same
    errors), the placement moved to the nearest legal spot of the state's variant
    (:func:`carromlab.rules.snap_placement`: ICF-3, ONL-1, HIK-2, CRK-1), simulated with
    :func:`carromlab.engine.batch.simulate_prepared` (the engine's core under
    :func:`carromlab.engine.simulate_batch_arrays`) on the state's scene, in blocks of
    4,096 shots, read as array outcomes
    (:meth:`carromlab.rules.arrays.OutcomeArrays.from_batch`) and adjudicated on arrays
    (:func:`carromlab.rules.arrays.adjudicate_arrays`, the same rulings as
    :func:`carromlab.rules.adjudicate` shot by shot). A shot counts once for each distinct
    rule id in its fouls. An outcome the rules reject is a bug and raises.

    Parameters
    ----------
    states : mapping of str to GameState
        The position under each variant, by a name of your choice (e.g.
        :func:`comparable_states`); each state's ``shooter`` plays.
    shots : ShotPopulation or pandas.DataFrame
        The intended shots: a :class:`ShotPopulation`, or one row per shot with
        ``x``, ``y`` (placement, m, board frame: the shot disc wholly on every state's
        board), ``angle`` (direction, rad, within +-2 pi; or ``angle_deg``, degrees,
        within +-360, used when there is no ``angle`` column), ``speed`` (m/s, in
        [0, 30]) and optionally ``spin`` (rad/s, default 0). A match's shots table
        (:mod:`carromlab.match`) works as it is: its ``intended_*`` columns are used.
        Table shots are played as given by every state's shooter: keep the rows of the
        seats on the shooter's side. A table with a ``variant`` column (a match's) is
        checked: its variants must be played on every state's board, and with a
        ``seat`` column (and ``players``, default 2) every seat must sit on the side of
        the state's shooter.
    noise : NoiseModel, optional
        Execution errors: ``placement`` to the shooter's right and ``depth`` forward (m),
        ``angle`` (rad), ``speed`` (relative), ``spin`` (rad/s). Default
        ``NoiseModel.preset("club")``.
    replicas : int
        Noisy executions of each intended shot, in [1, 2**21]. Default 1.
    params : PhysicsParams, optional
        Physics of every state. Default the board of each state's rules
        (:func:`carromlab.rules.game_physics`: ``PhysicsParams()``; an online state
        without powder, ONL-10, an unpowdered board).
    seed : int
        Seed of the noise, >= 0. Default 0. The result depends only on the inputs and
        the seed, not on the backend, ``workers`` or ``chunk_cells``.
    ci : {"wilson", "clopper-pearson"}
        Confidence interval of ``p`` (:func:`binomial_ci`, at the effective number of
        independent shots ``n_eff``). Default ``"wilson"``.
    confidence : float
        Level of the interval, in (0, 1). Default 0.95.
    client : dask.distributed.Client, optional
        Run the chunks on this Dask cluster (processes also parallelise the Python
        adjudication, which local threads share under the GIL). Default None.
    workers : int, optional
        Local threads. Default all cores.
    store : str or os.PathLike, optional
        Directory of a Parquet dataset the shots stream to (one row per noisy shot:
        ``variant`` (the state's name), ``state`` (its index among the names sorted:
        the states are played in that order, so a rerun that gives them in another
        order resumes the store), ``cell``, ``shot``, ``replica``, the executed ``x``,
        ``y`` (m), ``angle`` (rad), ``angle_deg``, ``speed`` (m/s), ``spin`` (rad/s),
        ``snapped``, ``truncated`` and ``fouls``,
        the ``;``-separated rule ids); a rerun skips the chunks already written.
    chunk_cells : int, optional
        Intended shots per chunk. Default enough for about 65,536 shots.
    progress : bool
        Show a progress bar for runs longer than a second. Default True.

    Returns
    -------
    pandas.DataFrame
        One row per (state, foul), states in the order given: ``variant`` (the state's
        name), ``rule`` (rule id, or :data:`.ANY_FOUL` for the last row of each state:
        any foul), ``foul`` (short description, :data:`.FOULS`), ``n`` (shots),
        ``k`` (shots with that foul), ``p`` = k / n with ``ci_low``, ``ci_high`` and
        ``confidence``, the level of that interval (``confidence``, in every row: it is
        kept in a CSV file, and names the interval in the plot);
        ``n_eff``, the effective number of independent shots behind the interval: the
        replicas of an intended shot share its placement, aim and speed, so the interval
        is that of the fouls per intended shot (:func:`.clustered_binomial_ci`), n_eff
        between the intended shots and ``n`` (= n with one replica);
        ``n_snapped`` (shots whose noisy placement was illegal and moved) and
        ``n_truncated`` (shots that used up the engine's event budget). Every foul the
        variant defines has a row, observed or not (p = 0); a foul called by the rules
        but missing from :data:`.FOULS` gets a row described by its id.

    Raises
    ------
    ValueError
        For an invalid input (a key that is not a str, an empty population, replicas
        < 1, a finished game, a placement range beyond the line, a table's angle in
        radians beyond +-2 pi, placement off the board, variant of another board or
        seat on another side, naming the row, ...), naming the parameter; or if the
        rules reject an outcome.

    Examples
    --------
    >>> import math
    >>> import pandas as pd
    >>> from carromlab.analysis import NoiseModel
    >>> position = pd.DataFrame({"kind": ["white", "black", "queen"], "x": [-0.2, -0.1, 0.0], "y": [0.2, 0.2, 0.0]})
    >>> states = comparable_states(position, ("icf", "online"))
    >>> aim = math.atan2(0.34775 + 0.2526, 0.34775 - 0.219) - math.pi / 2   # from the right end at the NE pocket
    >>> pop = ShotPopulation(angle=(aim, aim), speed=(2.0, 4.0), n=10, placement=(0.219, 0.219))
    >>> df = foul_probabilities(states, pop, noise=NoiseModel.preset("none"), progress=False)
    >>> df.loc[df["k"] > 0, ["variant", "rule", "k", "n"]].values.tolist()  # doctest: +NORMALIZE_WHITESPACE
    [['icf', 'ICF-11', 10, 10], ['icf', 'any', 10, 10],
     ['online', 'ONL-3', 10, 10], ['online', 'any', 10, 10]]
    """
    checked = _check_states(states)
    population = _shot_table(shots)
    replicas = check_int("replicas", replicas, low=1, high=MAX_REPLICAS)
    seed = check_int("seed", seed, low=0, high=2**63 - 1)
    noise = check_noise("noise", noise, NoiseModel.preset("club"))
    physics = {key: game_physics(st, params) for key, (st, _) in checked.items()}
    params = check_params(params)  # as given, for the store's manifest (each state's board follows from its options)
    check_choice("ci", ci, CI_METHODS)
    confidence = check_confidence(confidence)
    workers = check_backend(client, workers)

    # played in the order of the names: a store's rows do not depend on the order the
    # states are given in, so a rerun in another order resumes it; reported as given
    keys = tuple(sorted(checked))
    values, scenes = tuple(checked[k][0] for k in keys), tuple(checked[k][1] for k in keys)
    if not isinstance(population, ShotPopulation):
        for key, st, (sc, _) in zip(keys, values, scenes):
            _check_origins(key, st, population)
            _check_placements(key, sc, population)
    intended = [population._drawn(st, sc) if isinstance(population, ShotPopulation) else population for st, (sc, _) in zip(values, scenes)]
    sizes = [len(t["x"]) for t in intended]
    cells = pd.DataFrame(
        {
            "cell": np.arange(sum(sizes), dtype=np.int64),
            **{c: np.concatenate([t[c] for t in intended], dtype=float) for c in _SHOT_COLUMNS},
            "state": np.repeat(np.arange(len(intended), dtype=np.int64), sizes),
            "shot": np.concatenate([np.arange(k, dtype=np.int64) for k in sizes]),
        },
        copy=False,
    )
    task = _FoulTask(keys, values, scenes, noise, replicas, seed, tuple(physics[k] for k in keys))
    # the manifest of the store (described only there): the states as (name, state) pairs in
    # the order they are played; a table of shots is fingerprinted by the cells' digest
    manifest = {} if store is None else sweep_manifest(seed, {
        "states": [[k, describe(st, f"states[{k!r}]")] for k, st in zip(keys, values)],
        "shots": population if isinstance(population, ShotPopulation) else {"table_rows": len(population["x"])},
        "noise": noise, "params": params, "replicas": replicas,
    })  # fmt: skip
    rows = run_sweep(
        "foul_probabilities", task, cells, manifest=manifest, replicas=replicas, chunk_cells=chunk_cells,
        client=client, workers=workers, store=store, progress=progress,
        columns=["variant", "shot", "fouls", "snapped", "truncated"],  # what the tally reads (the store keeps every column)
    )  # fmt: skip
    # each row names its state: the rows of a state are found by its name, and counted
    names, fouls, shot = rows["variant"], rows["fouls"], rows["shot"].to_numpy()
    snapped, truncated = rows["snapped"].to_numpy(), rows["truncated"].to_numpy()
    table = []
    for key in checked:  # in the order given
        mine = (names == key).to_numpy()
        expected = replicas * sizes[keys.index(key)]
        if np.count_nonzero(mine) != expected:
            raise ValueError(
                f"The 'store' parameter's directory must hold {expected} shots of states[{key!r}]. Got "
                f"{np.count_nonzero(mine)} instead: its rows are not this study's; use a new directory."
            )
        table += _tally(key, checked[key][0].variant, fouls[mine], shot[mine], snapped[mine], truncated[mine],
                        replicas=replicas, ci=ci, confidence=confidence)  # fmt: skip
    col = {name: [row[name] for row in table] for name in table[0]}
    k, n = np.array(col["k"], dtype=np.int64), np.array(col["n"], dtype=np.int64)
    out = pd.DataFrame(
        {
            "variant": col["variant"], "rule": col["rule"], "foul": col["foul"], "n": n, "k": k, "p": k / n,
            "ci_low": col["ci_low"], "ci_high": col["ci_high"], "confidence": confidence, "n_eff": col["n_eff"],
            "n_snapped": col["n_snapped"], "n_truncated": col["n_truncated"],
        }
    )  # fmt: skip
    return out


def comparable_states(
    position: pd.DataFrame,
    variants: Sequence[str] = ("icf", "online"),
    *,
    shooter: int = 0,
    players: int = 2,
    **state_changes: Any,
) -> dict[str, GameState]:
    """The same physical position as a game state of each variant.

    Each variant's ``new_game(players)`` gets the pieces of ``position`` on the board
    (matched to the variant's piece ids kind by kind, in id order); its other pieces are
    pocketed (carrom, Hikone) or in the players' hands (crokinole). The position is
    mid-board: ``board_shots=1`` and every seat has shot once (no break rules, ICF-16,
    ONL-9; Hikone placements on the area line, HIK-2), unless ``state_changes`` says
    otherwise.

    Parameters
    ----------
    position : pandas.DataFrame
        One row per piece on the board: ``kind`` and ``x``, ``y`` (m, board frame).
    variants : sequence of str
        Names of :data:`carromlab.rules.VARIANTS`; their pieces must include the kinds
        of ``position``. Default ("icf", "online").
    shooter : int
        Seat to shoot. Default 0 (south; white in carrom, red in Hikone, dark in
        crokinole).
    players : {2, 4}
        Seats. Default 2 (the online rules have only 2).
    **state_changes
        Further :class:`.GameState` fields, applied to every state (e.g.
        ``queen_status="covered", queen_team=0``). A carrom position without the queen
        must say where the queen is (``queen_status``).

    Returns
    -------
    dict of str to GameState
        By variant name.

    Raises
    ------
    ValueError
        If a variant is unknown, the position holds a kind the variant does not have,
        more pieces of a kind than the variant has, or pieces that overlap or leave the
        board.

    Examples
    --------
    >>> import pandas as pd
    >>> position = pd.DataFrame({"kind": ["white", "black"], "x": [0.0, 0.1], "y": [0.1, 0.2]})
    >>> states = comparable_states(position, queen_status="covered", queen_team=0)
    >>> [(name, st.count("white"), st.count("black", "pocketed")) for name, st in states.items()]
    [('icf', 1, 8), ('online', 1, 8)]
    """
    check_table("position", position, ("kind", "x", "y"), rows=False)
    variants = check_sequence("variants", variants, nonempty=True, what="a non-empty sequence of variant names")
    players = check_int("players", players, low=2, high=4)
    if players == 3:
        raise ValueError("The 'players' parameter must be 2 or 4. Got 3 instead.")
    out = {}
    for name in variants:
        check_choice("variants", name, VARIANTS)
        if name == "online" and players != 2:
            raise ValueError(f"The 'players' parameter must be 2 for the online rules. Got {players} instead.")
        game = _new_game(name, players)
        spare: dict[str, list[int]] = {}
        for p in game.pieces:
            spare.setdefault(p.kind, []).append(p.id)
        sizes = {k: len(v) for k, v in spare.items()}
        placed = {}
        for kind, x, y in zip(position["kind"], position["x"], position["y"]):
            if not spare.get(kind):
                raise ValueError(
                    f"The 'position' parameter must hold at most as many pieces of each kind as the {name} set "
                    f"{sizes}. Got one {kind!r} too many instead."
                )
            pid = spare[kind].pop(0)
            placed[pid] = Piece(pid, kind, "board", float(x), float(y))
        off = "hand" if name == "crokinole" else "pocketed"
        pieces = tuple(placed.get(p.id, Piece(p.id, p.kind, off)) for p in game.pieces)
        if game.queen_status != "none" and "queen" not in set(position["kind"]) and "queen_status" not in state_changes:
            raise ValueError(
                "The 'queen_status' parameter must be given for a carrom position without the queen "
                "('pending' or 'covered', with queen_team). Got none."
            )
        changes = {"board_shots": 1, "seat_shots": (1,) * game.n_players, **state_changes}
        state = game.with_(pieces=pieces, shooter=check_int("shooter", shooter, low=0, high=players - 1), **changes)
        state_scene(state)  # the pieces lie on the board without overlapping (the scene kept for a study)
        out[name] = state
    return out
