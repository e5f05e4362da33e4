"""The tables a simulated game produces: one row per shot, per board and per game.

Every table has the identifying columns ``variant`` (str), ``players`` (seats), ``game``
(number in the match, from 0) and ``seed`` (the game's seed: ``play_game(...,
seed=seed)`` replays it). Teams are numbered as in :class:`carromlab.rules.GameState`
(team = seat % number of teams); per-team columns ``*_0`` .. ``*_3`` are nullable
integers, missing for teams the variant does not have.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from ..engine.scene import Shot
from ..rules.arrays import FATES, WHERE, GameArrays, OutcomeArrays, RulingArrays
from ..rules.arrays.games import of_colours
from ..rules.arrays.ledger import ranked_rows
from ..rules.state import GameState
from .execution import Executed

__all__ = ["TEAM_SLOTS", "SHOT_COLUMNS", "BOARD_COLUMNS", "GAME_COLUMNS", "GameRecord", "MatchRecord",
           "Played", "PlayedArrays", "StepRows", "shot_rows", "shots_frame", "board_row", "game_row", "frame"]

#: Number of per-team columns (the most teams of any variant: four crokinole players).
TEAM_SLOTS = 4

#: The columns of a shot array (:meth:`carromlab.Shot.array`), in order.
_SHOT_FIELDS = ("x", "y", "angle", "speed", "spin")

_ID_COLUMNS = {"variant": "object", "players": "int64", "game": "int64", "seed": "int64"}


def _teams(prefix: str) -> dict[str, str]:
    return {f"{prefix}_{t}": "Int64" for t in range(TEAM_SLOTS)}


#: Columns of the shots table and their dtypes. ``board`` (from 1), ``shot`` (number
#: in the game, from 0), ``board_shot`` (number on the board, from 0, retakes
#: included), ``seat``, ``team``, ``policy`` (its name); the intended shot
#: ``intended_x``, ``intended_y`` (m), ``intended_angle`` (rad), ``intended_speed``
#: (m/s), ``intended_spin`` (rad/s) and the executed one ``x``, ``y``, ``angle``,
#: ``speed``, ``spin``; ``snapped`` (the noisy placement was illegal and was moved) and
#: ``snap_distance`` (m); ``pocketed`` (game ids of the pieces that fell, in order,
#: space-separated; the striker is not listed, see ``striker_fate``), ``n_pocketed``,
#: ``own_pocketed`` and ``opponent_pocketed`` (pieces of the shooter's colour / of the
#: other teams' colours among them); ``striker_fate`` (board, pocketed, ditch);
#: ``first_touch`` (game id, missing if none); ``truncated`` (the engine's event budget
#: ran out); ``fouls`` (rule ids of the fouls, ``;``-separated), ``rules`` (every rule id
#: applied); ``n_returned`` (pieces put back by the ruling), ``own_returned`` and
#: ``opponent_returned`` (those of the shooter's colour / of the other teams' colours);
#: ``turn_continues``,
#: ``retake``, ``board_over``, ``board_winner`` (team); ``score_<team>`` (game totals
#: after the shot); and the census after the shot: ``pieces_board``, ``pieces_off``
#: (pocketed, ditch or hole), ``pieces_hand`` (crokinole discs not yet played),
#: ``pieces_total`` (always their sum, checked).
SHOT_COLUMNS: dict[str, str] = {
    **_ID_COLUMNS, "board": "int64", "shot": "int64", "board_shot": "int64", "seat": "int64", "team": "int64",
    "policy": "object",
    **{f"intended_{k}": "float64" for k in _SHOT_FIELDS}, **{k: "float64" for k in _SHOT_FIELDS},
    "snapped": "bool", "snap_distance": "float64",
    "pocketed": "object", "n_pocketed": "int64", "own_pocketed": "int64", "opponent_pocketed": "int64",
    "striker_fate": "object", "first_touch": "Int64", "truncated": "bool",
    "fouls": "object", "rules": "object", "n_returned": "int64", "own_returned": "int64", "opponent_returned": "int64",
    "turn_continues": "bool", "retake": "bool", "board_over": "bool", "board_winner": "Int64",
    **_teams("score"),
    "pieces_board": "int64", "pieces_off": "int64", "pieces_hand": "int64", "pieces_total": "int64",
}  # fmt: skip

#: Columns of the boards table: ``board`` (from 1), ``first`` (seat that opened it),
#: ``n_shots`` (shots played on it, retakes included), ``end`` (``"rules"``: the rules
#: ended it; ``"abandoned"``: it reached ``max_shots_per_board``), ``reason`` (the rule
#: ids of the last shot, or the guard that stopped it), ``winner`` (team; missing for a
#: tie or an abandoned board), ``points_<team>`` (scored on the board, penalties
#: negative; 0 on an abandoned board), ``score_<team>`` (game totals after it).
BOARD_COLUMNS: dict[str, str] = {
    **_ID_COLUMNS, "board": "int64", "first": "int64", "n_shots": "int64", "end": "object", "reason": "object",
    "winner": "Int64", **_teams("points"), **_teams("score"),
}  # fmt: skip

#: Columns of the games table: ``n_boards``, ``n_shots``, ``end`` (``"complete"``: the
#: rules ended the game; ``"abandoned"``: a board reached ``max_shots_per_board``;
#: ``"max_boards"``: ``max_boards`` boards were played without a result), ``winner``
#: (team; missing for a draw or an unfinished game), ``score_<team>`` (final totals),
#: ``n_snapped`` (placements moved back after noise), ``n_truncated`` (shots that ran out
#: of events), ``seconds`` (wall time of the game's shots), ``cpu_seconds`` (their processor
#: time, which other load on the machine does not inflate; games played in lockstep
#: share each step's time equally, so a column's sum is the time the games took),
#: ``clock_s`` (simulated match time of a game played with a Hikone
#: :class:`~carromlab.match.clock.MatchClock`, s; NaN for an untimed game).
GAME_COLUMNS: dict[str, str] = {
    **_ID_COLUMNS, "n_boards": "int64", "n_shots": "int64", "end": "object", "winner": "Int64", **_teams("score"),
    "n_snapped": "int64", "n_truncated": "int64", "seconds": "float64", "cpu_seconds": "float64", "clock_s": "float64",
}  # fmt: skip


def _per_team(prefix: str, values: Sequence[int]) -> dict[str, Any]:
    return {f"{prefix}_{t}": (values[t] if t < len(values) else pd.NA) for t in range(TEAM_SLOTS)}


def frame(rows: Sequence[Mapping[str, Any]], columns: Mapping[str, str]) -> pd.DataFrame:
    """A table with exactly ``columns`` (name to dtype), also when ``rows`` is empty.

    Examples
    --------
    >>> frame([], GAME_COLUMNS).shape
    (0, 17)
    """
    df = pd.DataFrame(list(rows), columns=list(columns))
    return df.astype(dict(columns))


@dataclass(frozen=True, eq=False)
class PlayedArrays:
    """The N shots of one lockstep step (:func:`carromlab.match.lockstep.step`), as
    columns: row ``k`` is game ``k``'s shot; :class:`~carromlab.match.Played` is the view of one row.

    Attributes
    ----------
    before, after : GameArrays
        The games before and after their shots.
    intended, shot : numpy.ndarray, shape (N, 5)
        The intended and the executed shots, rows ``x, y`` (m), ``angle`` (rad),
        ``speed`` (m/s), ``spin`` (rad/s).
    snap_distance : numpy.ndarray, shape (N,)
        How far each executed placement was moved back to a legal spot, m (0: not moved).
    outcomes : OutcomeArrays
        What happened.
    rulings : RulingArrays
        The rulings (``rulings.state`` is ``after``).
    truncated : numpy.ndarray of bool, shape (N,)
        Whether the engine ran out of its event budget.
    """

    before: GameArrays
    after: GameArrays
    intended: npt.NDArray[np.float64]
    shot: npt.NDArray[np.float64]
    snap_distance: npt.NDArray[np.float64]
    outcomes: OutcomeArrays
    rulings: RulingArrays
    truncated: npt.NDArray[np.bool_]

    def __len__(self) -> int:
        return len(self.snap_distance)

    @cached_property
    def snapped(self) -> npt.NDArray[np.bool_]:
        """Whether each placement was moved, shape (N,)."""
        return self.snap_distance > 0.0

    @cached_property
    def pocketed(self) -> list[tuple[tuple[int, str], ...]]:
        """Game id and kind of the pieces that fell in each shot, in order (see :class:`~carromlab.match.Played`)."""
        st = self.after
        kinds = [st.palette[k] for k in st.kind]
        ids, at = ranked_rows(self.outcomes.fell[:, : st.n_pieces])  # the pieces (the last column is the striker)
        return [tuple((j, kinds[j]) for j in ids[a:b]) for a, b in zip(at, at[1:])]

    @cached_property
    def fouls(self) -> list[tuple[str, ...]]:
        """Rule ids of each shot's fouls, in order."""
        return self.rulings.all_foul_rules()

    @cached_property
    def applied(self) -> list[tuple[str, ...]]:
        """Rule ids of every rule applied to each shot, in order."""
        return self.rulings.all_applied_rules()

    @cached_property
    def n_returned(self) -> npt.NDArray[np.int64]:
        """Pieces put back by each ruling, shape (N,)."""
        return np.count_nonzero(self.rulings.returned > 0, axis=1)

    @cached_property
    def table_rows(self) -> StepRows:
        """The shots' values in the shots table (``shot_rows``), built once for the step."""
        return shot_rows(self)

    def played(self) -> list[Played]:
        """The view of every row, in order."""
        return [Played(self, k) for k in range(len(self))]


class Played:
    """One shot of a :class:`~carromlab.match.Game`, as it was played and ruled: row
    ``row`` of a step's :class:`~carromlab.match.records.PlayedArrays`, read from them on demand.

    Parameters
    ----------
    of : PlayedArrays
        The shots of the step.
    row : int
        This game's row.

    Attributes
    ----------
    arrays : tuple of (GameArrays, GameArrays, int)
        The arrays of the step's games before and after the shot
        (:class:`~carromlab.rules.arrays.GameArrays`) and this game's row in them.
    before, after : GameState
        The states before and after the shot (built from :attr:`arrays` on first use,
        :meth:`GameArrays.state <carromlab.rules.arrays.GameArrays.state>`).
    executed : Executed
        The intended and the executed shot.
    pocketed : tuple of (int, str)
        Game id and kind of the pieces that fell (crokinole: into the 20-hole), in order;
        the carrom or Hikone striker is not listed (see ``striker_fate``).
    striker_fate : str
        Where the shot disc ended (:data:`carromlab.rules.arrays.FATES`).
    first_touch : int or None
        Game id of the first piece the shot disc touched.
    fouls, applied : tuple of str
        Rule ids of the fouls and of every rule applied, in order.
    n_returned : int
        Pieces put back by the ruling.
    turn_continues, retake, board_over : bool
    board_winner : int or None
        Team that won the board.
    board_points : tuple of int
        Points of each team on the board (zeros unless it is over).
    truncated : bool
        Whether the engine ran out of its event budget.
    """

    __slots__ = ("of", "row")

    def __init__(self, of: PlayedArrays, row: int) -> None:
        self.of, self.row = of, row

    @property
    def arrays(self) -> tuple[GameArrays, GameArrays, int]:
        """See the class notes."""
        return self.of.before, self.of.after, self.row

    @property
    def before(self) -> GameState:
        """The state before the shot."""
        return self.of.before.state(self.row)

    @property
    def after(self) -> GameState:
        """The state after the shot."""
        return self.of.after.state(self.row)

    @property
    def executed(self) -> Executed:
        """See the class notes."""
        k, of = self.row, self.of
        return Executed(Shot(*of.intended[k].tolist()), Shot(*of.shot[k].tolist()), bool(of.snapped[k]), float(of.snap_distance[k]))

    @property
    def pocketed(self) -> tuple[tuple[int, str], ...]:
        """See the class notes."""
        return self.of.pocketed[self.row]

    @property
    def striker_fate(self) -> str:
        """See the class notes."""
        return FATES[int(self.of.outcomes.fate[self.row])]

    @property
    def first_touch(self) -> int | None:
        """See the class notes."""
        first = int(self.of.outcomes.first_touch[self.row])
        return None if first < 0 else first

    @property
    def fouls(self) -> tuple[str, ...]:
        """See the class notes."""
        return self.of.fouls[self.row]

    @property
    def applied(self) -> tuple[str, ...]:
        """See the class notes."""
        return self.of.applied[self.row]

    @property
    def n_returned(self) -> int:
        """See the class notes."""
        return int(self.of.n_returned[self.row])

    @property
    def turn_continues(self) -> bool:
        """See the class notes."""
        return bool(self.of.rulings.turn_continues[self.row])

    @property
    def retake(self) -> bool:
        """See the class notes."""
        return bool(self.of.rulings.retake[self.row])

    @property
    def board_over(self) -> bool:
        """See the class notes."""
        return bool(self.of.rulings.board_over[self.row])

    @property
    def board_winner(self) -> int | None:
        """See the class notes."""
        winner = int(self.of.rulings.board_winner[self.row])
        return None if winner < 0 else winner

    @property
    def board_points(self) -> tuple[int, ...]:
        """See the class notes."""
        return tuple(self.of.rulings.board_points[self.row].tolist())

    @property
    def truncated(self) -> bool:
        """See the class notes."""
        return bool(self.of.truncated[self.row])


#: The columns of the shots table a step gives (:func:`shot_rows`): all but the ids and a
#: game's own counters ``shot``, ``board_shot`` and ``policy``.
_STEP_COLUMNS = tuple(c for c in SHOT_COLUMNS if c not in _ID_COLUMNS and c not in ("shot", "board_shot", "policy"))


def shot_rows(played: PlayedArrays) -> StepRows:
    """The shots table's values of every shot of a step (see :data:`.SHOT_COLUMNS`), read
    from the step's arrays at once (no state is built) and kept as columns: a game's
    tuple of :data:`_STEP_COLUMNS` is made from them when its table is
    (:meth:`StepRows.row`, :func:`shots_frame`)."""
    before, after, n = played.before, played.after, len(played)
    team = before.team
    fell = played.outcomes.fell[:, : after.n_pieces]  # the pieces (the last column is the striker)
    r = played.rulings
    # each piece's colour class in each game: 0 none of the teams', 1 the shooter's, 2 another team's
    mine = after.kind[None, :] == before.colours[np.arange(n), team][:, None]  # palette codes, as the pieces' kinds
    colour = np.where(mine, 1, 2 * of_colours(after.kind, before.colours))
    # one count of (game, slot) codes: the pieces at each location, and those that fell
    # and those put back by colour class
    slots = len(WHERE) + 6
    base = slots * np.arange(n)[:, None]
    keys = (after.where + base, (colour + (base + len(WHERE)))[fell > 0], (colour + (base + len(WHERE) + 3))[r.returned > 0])
    counts = np.bincount(np.concatenate([k.ravel() for k in keys]), minlength=n * slots).reshape(n, slots)
    at, fallen, back = counts[:, : len(WHERE)], counts[:, len(WHERE) : len(WHERE) + 3], counts[:, len(WHERE) + 3 :]
    ints = np.empty((n, 16 + after.game_scores.shape[1]), np.int64)
    ints[:, 0], ints[:, 1], ints[:, 2] = before.board_number, before.shooter, team
    ints[:, 3] = fallen.sum(axis=1)
    ints[:, 4:6] = fallen[:, 1:]
    ints[:, 6], ints[:, 7] = played.outcomes.fate, played.outcomes.first_touch
    ints[:, 8] = back.sum(axis=1)  # n_returned
    ints[:, 9:11] = back[:, 1:]
    ints[:, 11] = r.board_winner
    ints[:, 12], ints[:, 14] = at[:, _BOARD], at[:, _HAND]
    ints[:, 13] = at[:, _OFF].sum(axis=1)
    ints[:, 15] = after.n_pieces
    ints[:, 16:] = after.game_scores
    flags = np.empty((n, 5), bool)
    flags[:, 0], flags[:, 1], flags[:, 2], flags[:, 3], flags[:, 4] = played.snapped, played.truncated, r.turn_continues, r.retake, r.board_over
    floats = np.empty((n, 11))
    floats[:, :5], floats[:, 5:10], floats[:, 10] = played.intended, played.shot, played.snap_distance
    rules = _rule_names(r.rules)
    return StepRows(ints, floats, flags, ranked_rows(fell), ranked_rows(r.fouls, rules), ranked_rows(r.applied, rules))


#: Columns of the location codes (:data:`~carromlab.rules.arrays.WHERE`) counted in the shots table.
_BOARD, _HAND = WHERE.index("board"), WHERE.index("hand")
_OFF = [WHERE.index(w) for w in ("pocketed", "ditch", "hole")]
#: The rule ids of each variant's rulings as an object array (``ranked_rows``' names), by rule tuple.
_RULE_ARRAYS: dict[tuple[str, ...], npt.NDArray[np.object_]] = {}


def _rule_names(rules: tuple[str, ...]) -> npt.NDArray[np.object_]:
    """The rule ids ``rules`` as an object array, made once per tuple of rules."""
    names = _RULE_ARRAYS.get(rules)
    if names is None:
        names = _RULE_ARRAYS[rules] = np.array(rules, dtype=object)
    return names


@dataclass(frozen=True, eq=False)
class StepRows:
    """The shots table's values of a step's N shots, by kind (:func:`shot_rows`): each game
    keeps the step's and its row, turned into its tuple of :data:`_STEP_COLUMNS` only when
    its table is made (:meth:`row`). Entry ``k`` of each list is game ``k``'s.

    Attributes
    ----------
    ints : numpy.ndarray of int64, shape (N, 16 + T)
        ``board``, ``seat``, ``team``, ``n_pocketed``, ``own_pocketed``,
        ``opponent_pocketed``, the shot disc's fate (index into
        :data:`~carromlab.rules.arrays.FATES`), ``first_touch`` (-1: none),
        ``n_returned``, ``own_returned``, ``opponent_returned``, ``board_winner`` (-1:
        none), ``pieces_board``, ``pieces_off``,
        ``pieces_hand``, ``pieces_total`` and the game scores of the variant's teams.
    floats : numpy.ndarray, shape (N, 11)
        The intended and the executed shot (:data:`_SHOT_FIELDS` each) and ``snap_distance`` (m).
    flags : numpy.ndarray of bool, shape (N, 5)
        ``snapped``, ``truncated``, ``turn_continues``, ``retake``, ``board_over``.
    pocketed : tuple of (list of int, list of int)
        Game ids of the pieces that fell, in order, of all the games, and where each
        game's start (:func:`~carromlab.rules.arrays.ledger.ranked_rows`).
    fouls, applied : tuple of (list of str, list of int)
        Rule ids of the fouls and of every rule applied, in order, likewise.
    """

    ints: npt.NDArray[np.int64]
    floats: npt.NDArray[np.float64]
    flags: npt.NDArray[np.bool_]
    pocketed: tuple[list[int], list[int]]
    fouls: tuple[list[str], list[int]]
    applied: tuple[list[str], list[int]]

    def row(self, k: int) -> tuple[Any, ...]:
        """Game ``k``'s values of :data:`_STEP_COLUMNS`, in order."""
        i, f, b = self.ints[k].tolist(), self.floats[k].tolist(), self.flags[k].tolist()
        scores = i[16:] + [pd.NA] * (TEAM_SLOTS - len(i[16:]))
        (ids, at), (fouls, fat), (applied, aat) = self.pocketed, self.fouls, self.applied
        return (
            *i[:3], *f[:10], b[0], f[10], " ".join(map(str, ids[at[k] : at[k + 1]])), *i[3:6], FATES[i[6]], pd.NA if i[7] < 0 else i[7],
            b[1], ";".join(fouls[fat[k] : fat[k + 1]]), ";".join(applied[aat[k] : aat[k + 1]]), *i[8:11], *b[2:],
            pd.NA if i[11] < 0 else i[11], *scores, *i[12:16],
        )  # fmt: skip


def shots_frame(ids: Mapping[str, Any], shots: Sequence[tuple[int, int, str, StepRows, int]]) -> pd.DataFrame:
    """The shots table of one game (:data:`.SHOT_COLUMNS`) from its shots: each the game's
    ``shot``, ``board_shot`` and ``policy``, the step's :class:`StepRows` and the game's row in them."""
    rows = [(shot, board_shot, policy, *step.row(k)) for shot, board_shot, policy, step, k in shots]
    df = pd.DataFrame.from_records(rows, columns=["shot", "board_shot", "policy", *_STEP_COLUMNS], nrows=len(rows))
    for k, v in ids.items():
        df[k] = v
    return df[list(SHOT_COLUMNS)].astype(dict(SHOT_COLUMNS))


def board_row(
    ids: Mapping[str, Any], *, board: int, first: int, scores: Sequence[int], n_shots: int, played: Played | None, reason: str
) -> dict[str, Any]:
    """One row of the boards table (see :data:`.BOARD_COLUMNS`): board number ``board``,
    first shooter ``first``, ended by the shot ``played`` or abandoned (``played`` None)
    for ``reason``, with the game ``scores`` after it (read from a step's arrays: no state
    is built)."""
    if played is None:
        end, winner, points = "abandoned", pd.NA, (0,) * len(scores)
    else:
        end, points = "rules", played.board_points
        winner = pd.NA if played.board_winner is None else played.board_winner
        reason = ";".join(played.applied)
    return {
        **ids, "board": board, "first": first, "n_shots": n_shots, "end": end,
        "reason": reason, "winner": winner, **_per_team("points", points), **_per_team("score", scores),
    }


def game_row(
    ids: Mapping[str, Any], final: GameState, *, n_boards: int, n_shots: int, end: str,
    n_snapped: int, n_truncated: int, seconds: float, cpu_seconds: float, clock_s: float,
) -> dict[str, Any]:
    """One row of the games table (see :data:`.GAME_COLUMNS`)."""
    return {
        **ids, "n_boards": n_boards, "n_shots": n_shots, "end": end,
        "winner": final.winner if end == "complete" and final.winner is not None else pd.NA,
        **_per_team("score", final.game_scores), "n_snapped": n_snapped, "n_truncated": n_truncated, "seconds": seconds,
        "cpu_seconds": cpu_seconds, "clock_s": clock_s,
    }  # fmt: skip


@dataclass(frozen=True, eq=False)
class GameRecord:
    """Everything recorded about one simulated game.

    Attributes
    ----------
    shots : pandas.DataFrame
        One row per shot (:data:`.SHOT_COLUMNS`); empty when the game was played with
        ``record=False``.
    boards : pandas.DataFrame
        One row per board (:data:`.BOARD_COLUMNS`), the abandoned one included.
    games : pandas.DataFrame
        The game's single row (:data:`.GAME_COLUMNS`).
    state : GameState
        The final state.
    """

    shots: pd.DataFrame
    boards: pd.DataFrame
    games: pd.DataFrame
    state: GameState

    def __repr__(self) -> str:
        g = self.games.iloc[0]
        winner = "no winner" if self.winner is None else f"team {self.winner} won"
        scores = "-".join(str(g[c]) for c in self.games.columns if c.startswith("score_") and not pd.isna(g[c]))
        return (
            f"GameRecord({g['variant']} {g['players']} players: {self.end}, {winner}, scores {scores}; "
            f"{g['n_boards']} board{'s' * (int(g['n_boards']) != 1)}, {g['n_shots']} shot{'s' * (int(g['n_shots']) != 1)})"
        )

    def _repr_html_(self) -> str:
        from ..plotting.display import rich_html, scene_picture
        from ..rules.engine_bridge import scene_for

        g = self.games.iloc[0]
        rows = {"end": self.end, "winner": "none" if self.winner is None else f"team {self.winner}",
                **{c: g[c] for c in self.games.columns if c.startswith("score_") and not pd.isna(g[c])},
                "boards": g["n_boards"], "shots": g["n_shots"], "picture": "the final position"}  # fmt: skip
        picture = scene_picture(scene_for(self.state)[0])
        return rich_html(f"GameRecord: {g['variant']}, {g['players']} players", rows, picture=picture, table=self.boards)

    @property
    def end(self) -> str:
        """How the game ended: ``"complete"``, ``"abandoned"`` or ``"max_boards"``."""
        return str(self.games["end"].iat[0])

    @property
    def winner(self) -> int | None:
        """Winning team of a complete game; None for a draw or an unfinished game."""
        w = self.games["winner"].iat[0]
        return None if pd.isna(w) else int(w)


@dataclass(frozen=True, eq=False)
class MatchRecord:
    """The tables of many games, concatenated in game order.

    Attributes
    ----------
    shots, boards, games : pandas.DataFrame
        As in :class:`GameRecord`, with one block per game. The record of a store
        (:func:`~carromlab.match.play_match` with ``store``,
        :meth:`~carromlab.match.store.MatchStore.read`) reads each table from the store
        when it is first used: its boards and games can be looked at without loading
        its shots.
    """

    shots: pd.DataFrame
    boards: pd.DataFrame
    games: pd.DataFrame

    def __repr__(self) -> str:
        g = self.games
        wins = g["winner"].value_counts().sort_index()
        won = ", ".join(f"team {int(t)}: {n}" for t, n in wins.items()) or "none"
        variants = ", ".join(f"{v} {p}p" for v, p in g[["variant", "players"]].drop_duplicates().itertuples(index=False))
        n_games, n_boards, n_shots = len(g), len(self.boards), int(g["n_shots"].sum())
        return (
            f"MatchRecord({n_games} game{'s' * (n_games != 1)} of {variants}; wins {won}; "
            f"{n_boards} board{'s' * (n_boards != 1)}, {n_shots} shot{'s' * (n_shots != 1)})"
        )

    def _repr_html_(self) -> str:
        from ..plotting.display import figure_png, rich_html
        from ..plotting.match import plot_match_summary

        g = self.games
        rows = {"games": len(g), "complete": int((g["end"] == "complete").sum()), "boards": len(self.boards),
                "shots": int(g["n_shots"].sum())}  # the games' count: a stored record's shots stay unread
        rows |= {f"wins of team {int(t)}": n for t, n in g["winner"].value_counts().sort_index().items()}

        def draw(ax: Any) -> None:
            plot_match_summary(self.boards, ax)
            ax.set_title("")

        return rich_html("MatchRecord", rows, picture=figure_png(draw, inches=4.5), table=g)
