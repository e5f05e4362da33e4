"""Games in lockstep: one shot of every game, as one many-scene engine batch and one
array adjudication.

:func:`step` is the only way a shot is played: :meth:`Game.shoot` is a step of one game
and :func:`play_games` steps many until they end. A game draws only from its own
generator and its own noise stream, so it plays the same shots alone and among others.
"""

from __future__ import annotations

import time
import warnings
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..engine.batch import BatchArrays, simulate_batch_arrays
from ..engine.scene import Shot
from ..rules.arrays import FATES, WHERE, GameArrays, OutcomeArrays, RulingArrays, adjudicate_arrays
from ..rules.engine_bridge import FORWARD, frame_reach_of, full_scene
from .conservation import check_shots
from .execution import Executed, execute_many
from .records import Played

if TYPE_CHECKING:
    from .game import Game

__all__ = ["step", "play_games", "stacked"]

_BOARD = WHERE.index("board")


def step(games: Sequence[Game], intended: Sequence[tuple[Shot, str] | None] | None = None) -> list[Played]:
    """Play the next shot of every game at once.

    The games' states are stacked as one struct of arrays (:func:`stacked`), on which
    everything else works: the seats' policies choose (:meth:`Policy.choose_many`, one
    call per policy with the arrays of all the games it shoots in), each game's noise
    executes its shot (:func:`~carromlab.match.execution.execute_many`; the policies'
    and the executed placements search the shooters' regions, built once,
    :attr:`GameArrays.regions <carromlab.rules.arrays.GameArrays.regions>`), one
    :func:`~carromlab.engine.batch.simulate_batch_arrays` call per group of games sharing the
    shot disc, the shooter's side and the physics plays the shots from each game's own
    positions (final positions in float64, as :func:`carromlab.simulate` gives them),
    :func:`~carromlab.rules.arrays.adjudicate_arrays` rules on all of them and
    :func:`~carromlab.match.conservation.check_shots` checks piece conservation on every
    shot; each game then records its shot and keeps the step's arrays
    (:attr:`Game.arrays`), from which the next step stacks its rows. No GameState is
    built unless asked for (:attr:`Game.state`, :attr:`Played.before` and
    :attr:`Played.after` are built from the arrays on first use; the shots table is
    read from the arrays too).

    Parameters
    ----------
    games : sequence of Game
        Unfinished games of one variant (distinct objects).
    intended : sequence of (Shot, str) or None, optional
        Per game, an intended shot and the policy name to record, or None for the
        seat's policy. Default None for all.

    Returns
    -------
    list of Played
        One per game, in order.

    Raises
    ------
    ValueError
        If a game is over, the games mix variants or ``intended`` has another length.
    GameError
        If a shot fails; the error names the game and holds its state before the shot.
    """
    from .game import GameError

    games = list(games)
    given = [None] * len(games) if intended is None else list(intended)
    if len(given) != len(games):
        raise ValueError(f"The 'intended' parameter must have one entry per game ({len(games)}). Got {len(given)}.")
    for g in games:
        if g.end is not None:
            raise ValueError(f"The game is over (end={g.end!r}); no shot can be played.")
    if len({g.ids["variant"] for g in games}) > 1:
        raise ValueError("The 'games' parameter must hold games of one variant.")
    clock = time.perf_counter(), time.process_time()
    try:
        before = stacked(games)
        executed, names = _execute(games, before, given)
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
    played = _played(games, executed, before, outcomes, rulings, batch.columns["truncated"])
    for g, p, name in zip(games, played, names):
        g.record_shot(p, name)
    wall, cpu = time.perf_counter() - clock[0], time.process_time() - clock[1]
    for g in games:  # each game's share of the step
        g.seconds += wall / len(games)
        g.cpu_seconds += cpu / len(games)
    return played


def play_games(games: Sequence[Game]) -> None:
    """Play games in lockstep until every one has ended (see :func:`step`).

    Parameters
    ----------
    games : sequence of Game
        Games of one variant; those already over are left alone.
    """
    active = [g for g in games if g.end is None]
    while active:
        step(active)
        active = [g for g in active if g.end is None]


def stacked(games: Sequence[Game]) -> GameArrays:
    """The games' states as one :class:`~carromlab.rules.arrays.GameArrays`, row per game.

    A game that has played gives its row of its last step's arrays (:attr:`Game.arrays`);
    the rows of games from several steps are joined with :meth:`GameArrays.concat`, and
    only the games without arrays (new) are built from their states
    (:meth:`GameArrays.from_states`). The same arrays as
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
    sources: dict[int, tuple[GameArrays | None, list[int], list[int]]] = {}  # by arrays: (arrays, games, rows)
    for k, g in enumerate(games):
        if g.arrays is not None:
            arrays, row = g.arrays
            sources.setdefault(id(arrays), (arrays, [], []))
            sources[id(arrays)][1].append(k)
            sources[id(arrays)][2].append(row)
        else:
            sources.setdefault(0, (None, [], []))[1].append(k)
    parts = [
        GameArrays.from_states([games[k].state for k in ks]) if arrays is None else arrays.take(rows)
        for arrays, ks, rows in sources.values()
    ]  # fmt: skip
    order = np.concatenate([ks for _, ks, _ in sources.values()])
    out = GameArrays.concat(parts)
    return out if (order == np.arange(len(games))).all() else out.take(np.argsort(order))


def _failing_row(exc: Exception) -> int | None:
    """The game row a batch error names ("Game row g:" or "game g"), if any."""
    import re

    m = re.search(r"[Gg]ame (?:row )?(\d+)", str(exc))
    return int(m[1]) if m else None


def _execute(games: list[Game], before: GameArrays, given: list[tuple[Shot, str] | None]) -> tuple[list[Executed], list[str]]:
    """Each game's intended shot (the given one, else its seat's policy's choice, one
    ``choose_many`` call per policy on the arrays of its games) and its execution with
    the seat's noise."""
    shots: list[Shot | None] = [None if x is None else x[0] for x in given]
    names = ["" if x is None else x[1] for x in given]
    seats = before.shooter.tolist()
    by_policy: dict[object, list[int]] = defaultdict(list)  # equal policies choose together
    for k, g in enumerate(games):
        if shots[k] is None:
            by_policy[_key(g.settings.policies[seats[k]])].append(k)
    for rows in by_policy.values():
        policy = games[rows[0]].settings.policies[seats[rows[0]]]
        chosen = policy.choose_many(before if len(rows) == len(games) else before.take(rows), [games[k].rng for k in rows])
        for k, shot in zip(rows, chosen):
            shots[k], names[k] = shot, policy.name
    executed = execute_many(
        before, shots, [g.settings.noise[seat] for g, seat in zip(games, seats)],
        seeds=[g.settings.seed for g in games], shot_indices=[g.n_shots for g in games],
    )  # fmt: skip
    return executed, names


def _key(policy: object) -> object:
    """The policy itself where hashable (equal policies then choose in one call), else its id."""
    try:
        hash(policy)
    except TypeError:
        return id(policy)
    return policy


def _simulate(games: list[Game], before: GameArrays, executed: list[Executed]) -> BatchArrays:
    """The detailed batch of the executed shots, in game order: one engine call per
    (shot disc, shooter's side, physics) group."""
    groups: dict[tuple, list[int]] = defaultdict(list)
    sides = [before.seat_sides[seat] for seat in before.shooter.tolist()]
    colours = before.colours[np.arange(len(games)), before.team].tolist() if before.variant == "crokinole" else [0] * len(games)
    for k, g in enumerate(games):
        groups[(colours[k], sides[k], g.settings.params)].append(k)
    cols = np.array([[e.shot.x, e.shot.y, e.shot.angle, e.shot.speed, e.shot.spin] for e in executed]).reshape(-1, 5)
    on = before.where == _BOARD
    parts = []
    for (_, side, _), rows in groups.items():
        first, state = games[rows[0]], before.state(rows[0])
        scene = full_scene(state)
        with warnings.catch_warnings():  # recorded in the 'truncated' column instead
            warnings.filterwarnings("ignore", message="The shot used its event budget", category=RuntimeWarning)
            part = simulate_batch_arrays(
                scene, *cols[rows].T, positions=before.xy[rows], on_board=on[rows], params=first.settings.params,
                workers=1, details=True, final_positions=True, final_dtype="float64", forward=FORWARD[side],
                carriers=(scene.striker,), frame_reach=frame_reach_of(state),
            )  # fmt: skip
        parts.append((rows, part))
    if len(parts) == 1:
        return parts[0][1]
    order = np.argsort(np.concatenate([rows for rows, _ in parts]), kind="stable")
    return BatchArrays.concat([p for _, p in parts]).take(order)


def _played(
    games: list[Game], executed: list[Executed], before: GameArrays, outcomes: OutcomeArrays, rulings: RulingArrays,
    truncated: np.ndarray,
) -> list[Played]:  # fmt: skip
    """Each game's shot as a :class:`Played`, read from the step's arrays."""
    st = rulings.state
    kinds = [st.palette[k] for k in st.kind]
    fell = outcomes.fell[:, : st.n_pieces]  # the pieces (the last column is the striker)
    rows, cols = np.nonzero(fell > 0)
    order = np.lexsort((fell[rows, cols], rows))
    pocketed: list[list[tuple[int, str]]] = [[] for _ in games]
    for k, j in zip(rows[order].tolist(), cols[order].tolist()):
        pocketed[k].append((j, kinds[j]))
    columns = zip(
        executed, pocketed, outcomes.fate.tolist(), outcomes.first_touch.tolist(), rulings.all_foul_rules(),
        rulings.all_applied_rules(), np.count_nonzero(rulings.returned > 0, axis=1).tolist(), rulings.turn_continues.tolist(),
        rulings.retake.tolist(), rulings.board_over.tolist(), rulings.board_winner.tolist(), rulings.board_points.tolist(),
        truncated.tolist(),
    )  # fmt: skip
    return [
        Played(
            arrays=(before, st, k), executed=e, pocketed=tuple(p), striker_fate=FATES[fate],
            first_touch=None if first < 0 else first, fouls=fouls, applied=applied, n_returned=n_returned,
            turn_continues=cont, retake=retake, board_over=over, board_winner=None if winner < 0 else winner,
            board_points=tuple(points), truncated=cut,
        )  # fmt: skip
        for k, (e, p, fate, first, fouls, applied, n_returned, cont, retake, over, winner, points, cut) in enumerate(columns)
    ]
