"""Random valid (state, outcome) pairs of every variant, for the array property tests.

Positions are drawn anywhere on the board (overlaps allowed: the rules never check
them), counts lean towards endgames so that last-coin rules, board ends and game ends
come up often.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np
import pandas as pd

from carromlab.rules import GameState, ShotOutcome, crokinole, hikone, icf, online

_OPTIONS = {
    "icf": lambda rng: {"players": int(rng.choice([2, 4])), "options": icf.ICFOptions(own_last_coin=str(rng.choice(["shooter_loses_3", "opponent_gains_3"])))},
    "online": lambda rng: {"rules": online.OnlineHouseRules(
        next_board_first=str(rng.choice(["alternate", "loser"])), turn_time=[None, 30, 60][int(rng.integers(3))])},
    "hikone": lambda rng: {
        "players": int(rng.choice([2, 4])),
        "options": hikone.HikoneOptions(void_pucks_with_jack=bool(rng.integers(2)), every_direct_hit=bool(rng.integers(2))),
    },
    "crokinole": lambda rng: {
        "players": int(rng.choice([2, 4])),
        "options": crokinole.CrokinoleOptions(discs_per_player=int(rng.integers(1, 5)), game_target=int(rng.choice([20, 60, 120]))),
    },
}
_MODULES = {"icf": icf, "online": online, "hikone": hikone, "crokinole": crokinole}


@lru_cache(maxsize=None)
def _new_game(variant: str, setup: tuple) -> GameState:
    return _MODULES[variant].new_game(**dict(setup))


def _xy(rng: np.random.Generator, reach: float) -> tuple[float, float]:
    return float(rng.uniform(-reach, reach)), float(rng.uniform(-reach, reach))


def _few(rng: np.random.Generator, most: int) -> int:
    """A count in [1, most], small ones most likely."""
    return int(min(most, 1 + rng.geometric(0.35) - 1))


def _carrom_state(rng: np.random.Generator, game: GameState) -> GameState:
    reach = 0.5 * game.board.size - 0.02
    on = {k: _few(rng, 9) for k in ("white", "black")}
    queen = str(rng.choice(["board", "pending", "covered"], p=[0.6, 0.2, 0.2]))
    seats = game.n_players
    pieces = []
    for p in game.pieces:
        if p.kind == "queen":
            board = queen == "board"
        else:
            board = on[p.kind] > 0 and rng.random() < 0.9
            on[p.kind] -= board
        pieces.append(replace(p, where="board", x=_xy(rng, reach)[0], y=_xy(rng, reach)[1]) if board
                      else replace(p, where="pocketed", x=None, y=None, by=int(rng.integers(seats))))
    board_shots = 0 if rng.random() < 0.15 else int(rng.integers(1, 40))
    colours = ("white", "black") if rng.random() < 0.5 else ("black", "white")
    return game.with_(
        pieces=tuple(pieces), colours=colours, shooter=int(rng.integers(seats)), shot_in_turn=int(rng.integers(3)),
        board_shots=board_shots, break_attempts=int(rng.integers(3)) if board_shots == 0 else 0,
        seat_shots=tuple(int(v) for v in rng.integers(0, 10, seats)), queen_status=queen,
        queen_team=None if queen == "board" else int(rng.integers(2)), dues=tuple(int(v) for v in rng.choice(3, 2, p=[0.7, 0.2, 0.1])),
        board_number=int(rng.integers(1, 10)), board_first=int(rng.integers(seats)),
        game_scores=tuple(int(v) for v in rng.integers(0, 25, 2)),
    )  # fmt: skip


def _hikone_state(rng: np.random.Generator, game: GameState) -> GameState:
    reach = 0.5 * game.board.size - 0.02
    on = {k: _few(rng, 13) - 1 for k in ("red", "green")}
    seats = game.n_players
    pieces = []
    for p in game.pieces:
        board = p.kind == "jack" or (on[p.kind] > 0 and rng.random() < 0.9)
        if p.kind != "jack":
            on[p.kind] -= board
        pieces.append(replace(p, x=_xy(rng, reach)[0], y=_xy(rng, reach)[1]) if board
                      else replace(p, where="pocketed", x=None, y=None, by=int(rng.integers(seats))))
    dues = tuple(int(v) for v in rng.choice(3, 2, p=[0.7, 0.2, 0.1]))
    # the rules each debt came from (rules HIK-5, HIK-7, HIK-9): any mask of the three, or
    # none (a state saved before the origins were kept)
    dues_from = tuple(int(rng.integers(8)) if d else 0 for d in dues)
    return game.with_(
        pieces=tuple(pieces), shooter=int(rng.integers(seats)), seat_shots=tuple(int(v) for v in rng.integers(0, 5, seats)),
        board_shots=int(rng.integers(0, 30)), dues=dues, dues_from=dues_from, time_called=bool(rng.random() < 0.3),
    )  # fmt: skip


def _crokinole_state(rng: np.random.Generator, game: GameState) -> GameState:
    reach = 0.7 * game.board.marks.shooting_line_radius
    seats = game.n_players
    shooter = int(rng.integers(seats))
    pieces = []
    for p in game.pieces:
        where = str(rng.choice(["hand", "board", "ditch", "hole"], p=[0.4, 0.4, 0.1, 0.1]))
        pieces.append(replace(p, where=where, **dict(zip("xy", _xy(rng, reach)))) if where == "board" else replace(p, where=where))
    own = game.colours[shooter % game.n_teams]
    if not any(p.kind == own and p.where == "hand" for p in pieces):
        k = next(i for i, p in enumerate(pieces) if p.kind == own)
        pieces[k] = replace(pieces[k], where="hand", x=None, y=None)
    return game.with_(
        pieces=tuple(pieces), shooter=shooter, board_first=int(rng.integers(seats)), board_number=int(rng.integers(1, 5)),
        board_shots=int(rng.integers(0, 20)), game_scores=tuple(int(v) for v in rng.integers(0, 100, game.n_teams)),
    )  # fmt: skip


def _subset(rng: np.random.Generator, pool: list[int], most: int) -> list[int]:
    k = int(rng.integers(0, min(most, len(pool)) + 1))
    return [int(v) for v in rng.choice(pool, k, replace=False)] if k else []


def _carrom_outcome(rng: np.random.Generator, s: GameState) -> ShotOutcome:
    if s.variant == "online" and s.options.turn_time is not None and rng.random() < 0.05:  # rule ONL-8: only with a time limit
        return ShotOutcome(timed_out=True)
    if s.board_shots == 0 and s.variant == "icf" and rng.random() < 0.3:
        # rule ICF-16: the striker stays in its area (retaken)
        return ShotOutcome(striker_left_baseline=False)
    return _moving_outcome(rng, s, fates=("board", "pocketed", "off_board"), frame=True)


def _moving_outcome(rng: np.random.Generator, s: GameState, *, fates: tuple[str, ...], frame: bool) -> ShotOutcome:
    reach = 0.5 * s.board.size - 0.02
    on = [p.id for p in s.pieces if p.where == "board"]
    fell = _subset(rng, on, 4) if rng.random() < 0.8 else []
    rest = [i for i in on if i not in fell]
    left = _subset(rng, rest, 2) if rng.random() < 0.1 else []
    rest = [i for i in rest if i not in left]
    on_frame = _subset(rng, rest, 2) if frame and rng.random() < 0.05 else []
    rest = [i for i in rest if i not in on_frame]
    fate = str(rng.choice(fates))
    times = np.sort(rng.uniform(0.1, 3.0, len(fell) + 1))
    pocketed = [(pid, s.piece(pid).kind, int(rng.integers(4)), float(t)) for pid, t in zip(fell, times)]
    if fate == "pocketed":
        k = int(rng.integers(len(pocketed) + 1))
        pocketed.insert(k, (s.striker_id, "striker", int(rng.integers(4)), pocketed[k - 1][3] if k else 0.05))
    touched = _subset(rng, on, 3) if rng.random() < 0.9 else []
    if fell and rng.random() < 0.7:
        touched = [fell[0], *[t for t in touched if t != fell[0]]]
    moved = _subset(rng, rest, 3)
    final = pd.DataFrame({
        "id": moved + fell, "kind": [s.piece(i).kind for i in moved + fell],
        "x": [_xy(rng, reach)[0] for _ in moved] + [0.0] * len(fell), "y": [_xy(rng, reach)[1] for _ in moved] + [0.0] * len(fell),
        "on_board": [True] * len(moved) + [False] * len(fell),
    })  # fmt: skip
    cushion = bool(rng.random() < 0.3)
    # rule HIK-9: after a cushion first, Hikone doubles must say which hits came before a side or front frame
    needed = cushion and bool(touched) and s.variant == "hikone" and s.n_players == 4
    return ShotOutcome(
        pocketed=tuple(pocketed), striker_fate=fate, left_board=tuple(left), on_frame=tuple(on_frame),
        striker_touched=tuple(touched), cushion_first=cushion,
        # the frame beyond the area line after some of the hits (HIK-9), or derived (unknown after a cushion first)
        touched_before_frame=tuple(touched[: int(rng.integers(len(touched) + 1))]) if rng.random() < 0.5 or needed else None,
        # rule ICF-16: a striker that stays in its area moves no coin and stays on the board
        striker_left_baseline=bool(rng.random() < 0.9) if not fell and not touched and not left and fate == "board" else True,
        final_positions=final if rng.random() < 0.3 else None,
    )  # fmt: skip


def _hikone_outcome(rng: np.random.Generator, s: GameState) -> ShotOutcome:
    if rng.random() < 0.05:
        return ShotOutcome(timed_out=True)
    return _moving_outcome(rng, s, fates=("board", "pocketed", "off_board", "frame"), frame=True)


def _crokinole_outcome(rng: np.random.Generator, s: GameState) -> ShotOutcome:
    own = s.colours[s.team_of(s.shooter)]
    disc = int(rng.choice([p.id for p in s.pieces if p.kind == own and p.where == "hand"]))
    on = [p.id for p in s.pieces if p.where == "board"]
    fell = _subset(rng, on, 2) if rng.random() < 0.2 else []
    rest = [i for i in on if i not in fell]
    left = _subset(rng, rest, 2) if rng.random() < 0.3 else []
    fate = str(rng.choice(["board", "pocketed", "ditch"], p=[0.7, 0.1, 0.2]))
    pocketed = [(pid, s.piece(pid).kind, "centre", 0.5 + 0.1 * k) for k, pid in enumerate(fell)]
    if fate == "pocketed":
        pocketed.append((disc, own, "centre", 2.0))
    radius = s.board.marks.ring_10_radius
    final = pd.DataFrame({"id": [disc], "kind": [own], "x": [float(rng.uniform(-radius, radius))], "y": [float(rng.uniform(-radius, radius))], "on_board": [fate == "board"]})
    return ShotOutcome(
        pocketed=tuple(pocketed), striker=disc, striker_fate=fate, left_board=tuple(left),
        chain=tuple(_subset(rng, on, 3)), final_positions=final,
    )


_STATE = {"icf": _carrom_state, "online": _carrom_state, "hikone": _hikone_state, "crokinole": _crokinole_state}
_OUTCOME = {"icf": _carrom_outcome, "online": _carrom_outcome, "hikone": _hikone_outcome, "crokinole": _crokinole_outcome}


def random_pairs(variant: str, n: int, seed: int) -> tuple[list[GameState], list[ShotOutcome]]:
    """``n`` random valid (state, outcome) pairs of ``variant`` (players and options
    drawn too), from ``numpy.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    states, outcomes = [], []
    for _ in range(n):
        state = _STATE[variant](rng, _new_game(variant, tuple(_OPTIONS[variant](rng).items())))
        states.append(state)
        outcomes.append(_OUTCOME[variant](rng, state))
    return states, outcomes
