"""Games in lockstep: one shot of every game, as one many-scene engine batch and one
array adjudication.

:func:`~carromlab.match.lockstep.step` is the only way a shot is played: :meth:`Game.shoot` is a step of one game
and :func:`play_games` steps many until they end. A game draws only from its own
generator and its own noise stream, so it plays the same shots alone and among others.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..engine.batch import BatchArrays, simulate_prepared
from ..engine.scene import Shot
from ..physics.params import PhysicsParams
from ..rules.arrays import WHERE, GameArrays, OutcomeArrays, adjudicate_arrays
from ..rules.engine_bridge import FORWARD, frame_reach, game_scene
from .conservation import check_shots
from .execution import execute_many
from .records import Played, PlayedArrays

if TYPE_CHECKING:
    from .game import Game

__all__ = ["step", "play_games", "stacked"]

_BOARD = WHERE.index("board")

FloatArray = npt.NDArray[np.float64]


def step(games: Sequence[Game], intended: npt.ArrayLike | Sequence[Shot] | None = None, *, policy: str = "agent") -> list[Played]:
    """Play the next shot of every game at once.

    The games' states are stacked as one struct of arrays (``stacked``), on which
    everything else works: the seats' policies choose (:meth:`.Policy.choose_many`, one
    call per policy with the arrays of all the games it shoots in, giving an array of
    shots), each game's noise executes its shot
    (:func:`~carromlab.match.execution.execute_many`; the policies'
    and the executed placements search the shooters' regions, built once,
    :attr:`GameArrays.regions <carromlab.rules.arrays.GameArrays.regions>`), one
    :func:`~carromlab.engine.batch.simulate_prepared` call per group of games sharing the
    shot disc, the shooter's side and the physics plays the shots from each game's own
    positions (final positions in float64, as :func:`carromlab.simulate` gives them; the
    arrays, valid by construction, are not checked again but for the placements),
    :func:`~carromlab.rules.arrays.adjudicate_arrays` rules on all of them and
    :func:`~carromlab.match.conservation.check_shots` checks piece conservation on every
    shot; the games with a :class:`~carromlab.match.clock.MatchClock` advance their match
    time by each shot's thinking and motion and have their time called once it runs out
    (in the state after the shot, HIK-10); each game then records its shot (``carromlab.match.game.record_step``) and keeps the step's arrays
    (:attr:`.Game.arrays`), from which the next step stacks its rows. The step's shots
    are one :class:`~carromlab.match.records.PlayedArrays` (columns over the games) and
    each game's :class:`.Played` a view of its row; no GameState and no per-shot object
    is built unless asked for (:attr:`.Game.state`, :attr:`.Played.before`,
    :attr:`.Played.after` and :attr:`.Played.executed` are built from the arrays on first
    use; the shots table is read from the arrays too).

    Parameters
    ----------
    games : sequence of Game
        Unfinished games of one variant, each object once; none plays no shot.
    intended : array_like of shape (N, 5), sequence of Shot, or None, optional
        The intended shot of every game (rows ``x, y, angle, speed, spin``, as
        :meth:`Shot.array <carromlab.Shot.array>`), or None: each seat's
        policy chooses. Default None.
    policy : str
        The policy name recorded for ``intended`` shots. Default ``"agent"``.

    Returns
    -------
    list of Played
        One per game, in order (empty for no game).

    Raises
    ------
    ValueError
        If a game is over, a game object comes twice, the games mix variants or
        ``intended`` has another length.
    GameError
        If a shot fails; the error names the game and holds its state before the shot.
    """
    from .game import GameError, record_step

    games = list(games)
    given = None if intended is None else _shot_rows(intended, len(games))
    if len({id(g) for g in games}) < len(games) or any(g.end is not None for g in games):
        _refuse(games)
    if len({g.ids["variant"] for g in games}) > 1:
        raise ValueError("The 'games' parameter must hold games of one variant.")
    if not games:
        return []  # no game, no shot (as play_games of no game plays none)
    started = time.perf_counter(), time.process_time()
    try:
        before = stacked(games)
        meant, names = _intended(games, before, given, policy)
        executed, moved = execute_many(
            before, meant, [g.settings.noise[seat] for g, seat in zip(games, before.shooter.tolist())],
            seeds=[g.settings.seed for g in games], shot_indices=[g.n_shots for g in games],
        )  # fmt: skip
        batch = _simulate(games, before, executed)
        outcomes = OutcomeArrays.from_batch(batch, before, np.arange(before.n_pieces))
        rulings = adjudicate_arrays(before, outcomes)
        check_shots(before, outcomes, rulings)
    except Exception as exc:
        row = _failing_row(exc)
        g = games[row] if row is not None else games[0]
        which = f"Game {g.ids['game']}" if row is not None or len(games) == 1 else f"One of games {[x.ids['game'] for x in games]}"
        raise GameError(
            f"{which} ({g.ids['variant']}, seed {g.settings.seed}) failed at shot {g.n_shots} "
            f"(board {g.state.board_number}, seat {g.state.shooter}): {exc}",
            g.state.to_json(),
        ) from exc
    after = _clocked(games, rulings.state, batch.columns["t_end"])
    shots = PlayedArrays(before, after, meant, executed, moved, outcomes, rulings, batch.columns["truncated"])
    record_step(games, shots, names)
    wall, cpu = time.perf_counter() - started[0], time.process_time() - started[1]
    for g in games:  # each game's share of the step
        g.seconds += wall / len(games)
        g.cpu_seconds += cpu / len(games)
    return shots.played()


def play_games(games: Sequence[Game], ended: Callable[[int], object] | None = None) -> None:
    """Play games in lockstep until every one has ended (see :func:`~carromlab.match.lockstep.step`).

    Parameters
    ----------
    games : sequence of Game
        Games of one variant; those already over are left alone.
    ended : callable, optional
        Called after each step that ended games, with their number (e.g. a progress
        bar's ``update``).
    """
    active = [g for g in games if g.end is None]
    while active:
        step(active)
        still = [g for g in active if g.end is None]
        if ended is not None and len(still) < len(active):
            ended(len(active) - len(still))
        active = still


def stacked(games: Sequence[Game]) -> GameArrays:
    """The games' states as one :class:`~carromlab.rules.arrays.GameArrays`, row per game.

    A game that has played gives its row of its last step's arrays (:attr:`.Game.arrays`);
    only the games without arrays (new) are built from their states
    (:meth:`GameArrays.from_states`, once per distinct state object), and the rows are
    taken at once from those arrays (joined with :meth:`GameArrays.concat` when there
    are several; the arrays themselves when the games are all their rows, in order). The
    same arrays as
    ``GameArrays.from_states([g.state for g in games])``, without building any state.

    Parameters
    ----------
    games : sequence of Game
        At least one game, all of one variant.

    Returns
    -------
    GameArrays

    Raises
    ------
    ValueError
        If ``games`` is empty.
    """
    games = list(games)
    if not games:
        raise ValueError("The 'games' parameter must hold at least one game.")
    # the new games' states, each distinct object built once (a vector env's new games share one)
    fresh = {id(g.state): g.state for g in games if g.arrays is None}
    built = GameArrays.from_states(list(fresh.values())) if fresh else None
    at = {key: row for row, key in enumerate(fresh)}
    refs = [g.arrays if g.arrays is not None else (built, at[id(g.state)]) for g in games]
    parts = list({id(arrays): arrays for arrays, _ in refs}.values())
    if len(parts) == 1:
        rows = [row for _, row in refs]
        # every row of one arrays, in order: those arrays themselves (never changed in place)
        return parts[0] if rows == list(range(len(parts[0]))) else parts[0].take(rows)  # type: ignore[union-attr, arg-type]
    starts = dict(zip(map(id, parts), np.cumsum([0] + [len(p) for p in parts]).tolist()))  # type: ignore[arg-type]
    return GameArrays.concat(parts).take([starts[id(arrays)] + row for arrays, row in refs])  # type: ignore[arg-type]


def _refuse(games: list[Game]) -> None:
    """Raise the ValueError of the first game that cannot play: an object that came before
    (one object twice would record two shots over one state) or a game that is over."""
    first: dict[int, int] = {}
    for k, g in enumerate(games):
        if first.setdefault(id(g), k) != k:
            raise ValueError(
                f"The 'games' parameter must hold distinct Game objects. Got game {g.ids['game']} twice "
                f"(the same object at positions {first[id(g)]} and {k}) instead."
            )
        if g.end is not None:
            raise ValueError(f"The game is over (end={g.end!r}); no shot can be played.")


def _clocked(games: list[Game], after: GameArrays, motion_s: FloatArray) -> GameArrays:
    """Advance the match clocks of the games that have one by their shots' thinking and
    motion (``motion_s``, s), and call time (HIK-10) in the states after the shots of
    the games whose clock ran out; new arrays where time is called, else ``after``."""
    call = None
    for k, g in enumerate(games):
        clock = g.settings.clock
        if clock is not None:
            g.clock_s = float(clock.after(g.clock_s, motion_s[k]))
            if call is None:
                call = np.zeros(len(games), bool)
            call[k] = clock.expired(g.clock_s)
    if call is None:  # no game has a clock
        return after
    call &= ~after.time_called & ~after.game_over
    return dataclasses.replace(after, time_called=after.time_called | call) if call.any() else after


def _failing_row(exc: Exception) -> int | None:
    """The game row a batch error names ("Game row g:" or "game g"), if any."""
    import re

    m = re.search(r"[Gg]ame (?:row )?(\d+)", str(exc))
    return int(m[1]) if m else None


def _shot_rows(intended: npt.ArrayLike | Sequence[Shot], n: int) -> FloatArray:
    """The given intended shots as an (n, 5) array (from Shot objects or rows)."""
    rows = intended
    if not (isinstance(intended, np.ndarray) and intended.dtype != object) and any(isinstance(s, Shot) for s in intended):  # type: ignore[union-attr]
        rows = [s.row for s in intended]  # type: ignore[union-attr]
    try:
        out = np.asarray(rows, dtype=float).reshape(-1, 5) if len(rows) else np.zeros((0, 5))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        out = None
    if out is None or len(out) != n:
        raise ValueError(f"The 'intended' parameter must hold one shot per game ({n}): Shot objects or rows x, y, angle, speed, spin.")
    return out


def _intended(games: list[Game], before: GameArrays, given: FloatArray | None, policy: str) -> tuple[FloatArray, list[str]]:
    """Each game's intended shot, (N, 5), and the policy name to record: the given ones,
    else each seat's policy's choice (one ``choose_many`` call per policy, on the arrays
    of its games)."""
    if given is not None:
        return given, [policy] * len(games)
    shots = np.zeros((len(games), 5))
    names = [""] * len(games)
    settings = [(g.settings, seat) for g, seat in zip(games, before.shooter.tolist())]
    for chosen, rows in _grouped([s.policies[seat] for s, seat in settings], [s.policy_hashes[seat] for s, seat in settings]):
        out = np.asarray(chosen.choose_many(before if len(rows) == len(games) else before.take(rows), [games[k].rng for k in rows]), dtype=float)
        if out.shape != (len(rows), 5):
            raise ValueError(f"Policy {chosen.name!r} must return an array of shape ({len(rows)}, 5) from choose_many. Got shape {out.shape}.")
        shots[rows] = out
        for k in rows:
            names[k] = chosen.name
    return shots, names


def _grouped(items: Sequence[object], hashes: Sequence[int | None]) -> list[tuple[Any, list[int]]]:
    """The distinct items (equal ones together where hashable) and the rows of each, in
    order of first appearance, given each item's hash (None: unhashable), computed once
    per game (``_Settings.policy_hashes``, ``_Settings.params_hash``): the items' own
    ``__hash__`` is never called, and ``==`` only between distinct objects of equal
    hashes (as a dict keyed by the items would group them)."""
    by_id: dict[int, list[int]] = {}
    for k, item in enumerate(items):
        by_id.setdefault(id(item), []).append(k)
    if len(by_id) == 1:
        return [(items[0], list(range(len(items))))]
    groups: list[tuple[Any, list[int]]] = []
    by_hash: dict[int, list[int]] = {}  # the groups of each hash
    for rows in by_id.values():
        item, h = items[rows[0]], hashes[rows[0]]
        same = [] if h is None else by_hash.setdefault(h, [])
        for i in same:
            if groups[i][0] == item:
                groups[i][1].extend(rows)
                break
        else:
            same.append(len(groups))
            groups.append((item, rows))
    return [(item, sorted(rows)) for item, rows in groups]


def _simulate(games: list[Game], before: GameArrays, executed: FloatArray) -> BatchArrays:
    """The detailed batch of the executed shots (N, 5), in game order: one engine call per
    (shot disc, physics) group, each shot with its shooter's forward direction."""
    forward = np.array([FORWARD[side] for side in before.seat_sides], dtype=float)[before.shooter]
    settings = [g.settings for g in games]
    groups = _grouped([s.params for s in settings], [s.params_hash for s in settings])
    if before.variant == "crokinole":  # the shot disc is the shooter's colour: a group per colour
        keys = before.colours[np.arange(len(games)), before.team].tolist()
        split: list[tuple[PhysicsParams, list[int]]] = []
        for params, rows in groups:
            by_key: dict[int, list[int]] = {}
            for k in rows:
                by_key.setdefault(keys[k], []).append(k)
            split += [(params, part) for part in by_key.values()]
        groups = split
    on = before.where == _BOARD
    kinds = tuple(before.palette[k] for k in before.kind.tolist())
    reach = frame_reach(before.variant, before.board, before.radii)
    teams = before.team.tolist()
    parts = []
    for params, rows in groups:
        g = rows[0]
        colours = tuple(before.palette[c] for c in before.colours[g].tolist())
        scene = game_scene(before.variant, before.board, kinds, colours, before.radii, before.masses, teams[g])
        # the arrays are valid by construction (the positions the engine and the rules left,
        # placements snapped to legal spots): only the placements are checked
        at = slice(None) if len(rows) == len(games) else rows  # (all the games: no copies)
        part = simulate_prepared(
            scene, executed[at], before.xy[at], on[at], params=params, forward=forward[at],
            carriers=(scene.striker,), frame_reach=reach, details=True, final_positions=True, final_dtype="float64",
        )  # fmt: skip
        parts.append((rows, part))
    if len(parts) == 1:
        return parts[0][1]
    order = np.argsort(np.concatenate([rows for rows, _ in parts]), kind="stable")
    return BatchArrays.concat([p for _, p in parts]).take(order)
