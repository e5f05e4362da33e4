"""Pocket accounting on arrays: the working copy of N games during one adjudication, and
the rulings it produces. The array form of :mod:`carromlab.rules.ledger`: every step
takes a mask of the games it applies to, so that the variants read as the one-game rules
do, branch by branch."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..._validation import check_type
from ..ruling import Placement
from ..state import DEBT_RULES
from ..spots import nearest_free_spots_in_turn
from .games import WHERE, GameArrays, object_array, row_any, row_counts
from ..ledger import FATES_OF
from .outcomes import FATES, OutcomeArrays

__all__ = ["RulingArrays", "ArrayLedger", "check_outcomes", "ranked_rows"]

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]
BOARD, POCKETED, HAND, DITCH, HOLE = range(len(WHERE))


def _pairs(xy: npt.ArrayLike) -> npt.NDArray[np.complex128]:
    """Positions (..., 2) in m as a complex view (...,): x the real part, y the imaginary."""
    return np.asarray(xy, dtype=np.float64).view(np.complex128)[..., 0]


def _record(ranks: npt.NDArray[np.int16], counts: npt.NDArray[np.int16], g: npt.NDArray[np.intp], c: int) -> None:
    """Give rule column ``c`` the next rank (``counts`` + 1, counted up) in the games
    ``g`` (rows, each once) that have not recorded it yet."""
    new = g[ranks[g, c] == 0]
    counts[new] += 1
    ranks[new, c] = counts[new]


def _rows(m: BoolArray | npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    """The games of a mask (N,), or rows given as such."""
    return m.nonzero()[0] if m.dtype == bool else m


def ranked_rows(ranks: npt.NDArray[np.integer], names: npt.NDArray[np.object_] | None = None) -> tuple[list[Any], list[int]]:
    """The columns of each row of ``ranks`` whose rank is set (> 0), by rank (ties by
    column), as ``names[column]`` when given: all rows' in one list, row ``k``'s from
    ``at[k]`` to ``at[k + 1]``.

    Returns
    -------
    values : list
        The columns (int) or their names.
    at : list of int
        Where each row's start, and the end (N + 1 entries).
    """
    if not ranks.any():  # (most shots' lists are empty)
        return [], [0] * (len(ranks) + 1)
    rows, cols = np.nonzero(ranks)
    order = np.lexsort((ranks[rows, cols], rows))
    rows, cols = rows[order], cols[order]
    return (cols if names is None else names[cols]).tolist(), np.searchsorted(rows, np.arange(len(ranks) + 1)).tolist()


#: Whether a striker fate code (:data:`.FATES`, an int8 read as uint8: any of its 256
#: values) may happen under each variant's rules (:data:`~carromlab.rules.ledger.FATES_OF`).
_FATE_ALLOWED = {variant: np.isin(np.arange(256), [FATES.index(f) for f in fates]) for variant, fates in FATES_OF.items()}


#: The first origin (bit) of each debt-origin mask over :data:`~carromlab.rules.state.DEBT_RULES`, -1 for none.
_FIRST_ORIGIN = np.array([(k & -k).bit_length() - 1 for k in range(1 << len(DEBT_RULES))], np.int8)


def _bad(g: int, message: str) -> ValueError:
    return ValueError(f"The 'outcomes' parameter is inconsistent with the game state of game {g}: {message}.")


def check_outcomes(games: GameArrays, outcomes: OutcomeArrays, shot_piece: IntArray | None = None) -> None:
    """Raise ValueError if an outcome cannot have happened from its game (the array form
    of :func:`carromlab.rules.ledger.check_outcome`).

    Parameters
    ----------
    games : GameArrays
        The states before the shots.
    outcomes : OutcomeArrays
        One shot per game.
    shot_piece : numpy.ndarray of int, optional
        Crokinole: the disc played in each game (it may come from the hand).
    """
    check_type("outcomes", outcomes, OutcomeArrays)
    if len(outcomes) != len(games):
        raise ValueError(f"The 'outcomes' parameter must be an OutcomeArrays with {len(games)} rows, one per game.")
    if outcomes.fell.shape[1] != games.n_pieces + 1:
        raise ValueError(f"The 'outcomes' parameter must have {games.n_pieces} pieces per shot. Got {outcomes.fell.shape[1] - 1}.")
    if np.count_nonzero(games.game_over):
        g = int(np.flatnonzero(games.game_over)[0])
        raise ValueError(f"The 'games' parameter must hold games in progress. Game {g} is finished.")
    allowed = FATES_OF[games.variant]
    fate_ok = _FATE_ALLOWED[games.variant][outcomes.fate.astype(np.uint8)]
    if np.count_nonzero(fate_ok) < len(fate_ok):
        g = int(np.flatnonzero(~fate_ok)[0])
        raise _bad(g, f"striker_fate must be one of {list(allowed)} under the {games.variant} rules, got {FATES[outcomes.fate[g]]!r}")
    on = games.where == BOARD
    if shot_piece is not None:
        on = on.copy()
        on[np.arange(len(games)), shot_piece] = True
    named = (outcomes.fell[:, :-1] > 0) | (outcomes.left_board > 0) | (outcomes.on_frame > 0)
    lying = outcomes.touched | outcomes.chain
    if shot_piece is not None:
        lying = lying & (np.arange(games.n_pieces) != shot_piece[:, None])
    checks = (
        (named & ~on, "it names a piece that is not on the board"),
        (lying & (games.where != BOARD), "the striker touched a piece that was not lying on the board"),
        (outcomes.placed & ~on, "final positions put on the board a piece that was not there"),
        (outcomes.touched_before_frame & ~outcomes.touched, "touched before the frame a piece the striker did not touch"),
    )
    if np.count_nonzero(checks[0][0] | checks[1][0] | checks[2][0] | checks[3][0]):  # the first failed check says which
        for bad, message in checks:
            if np.count_nonzero(bad):
                g, j = np.argwhere(bad)[0]
                raise _bad(int(g), f"{message} (piece {int(j)})")
    first = outcomes.first_touch
    if np.count_nonzero((first >= 0) & ~outcomes.touched[np.arange(len(first)), np.maximum(first, 0)]):
        raise _bad(int(np.flatnonzero(first >= 0)[0]), "the first touch must be among the pieces touched")


@dataclass(frozen=True, eq=False)
class RulingArrays:
    """The rulings on N shots (struct of arrays); the array form of
    :class:`~carromlab.rules.ruling.Ruling`.

    Fouls, applied rules and returned pieces keep their order as ranks: 0 means absent,
    k the k-th. Foul messages are not kept (the rule ids say what happened).

    Parameters
    ----------
    rules : tuple of str
        The rule ids of the variant: the columns of ``fouls`` and ``applied``.
    fouls : numpy.ndarray of int16, shape (N, len(rules))
        Order of each rule among the shot's fouls (``Ruling.fouls``).
    applied : numpy.ndarray of int16, shape (N, len(rules))
        Order of each rule among the rules that decided something (``Ruling.applied``).
    returned : numpy.ndarray of int16, shape (N, P)
        Order in which pieces were put back (``Ruling.returned``); their spots are in
        ``state.xy`` (NaN when adjudicated with ``place=False``).
    returned_rule : numpy.ndarray of int8, shape (N, P)
        Rule that sent each returned piece back (index into ``rules``), -1 for none.
    turn_continues, retake, board_over : numpy.ndarray of bool, shape (N,)
    next_shooter : numpy.ndarray of int64, shape (N,)
    board_winner : numpy.ndarray of int8, shape (N,)
        Team that won the board, -1 for none.
    board_points : numpy.ndarray of int64, shape (N, T)
        Points of each team on the board (zeros unless it is over).
    state : GameArrays
        The games after the shots.
    """

    rules: tuple[str, ...]
    fouls: npt.NDArray[np.int16]
    applied: npt.NDArray[np.int16]
    returned: npt.NDArray[np.int16]
    returned_rule: npt.NDArray[np.int8]
    turn_continues: BoolArray
    retake: BoolArray
    next_shooter: IntArray
    board_over: BoolArray
    board_winner: npt.NDArray[np.int8]
    board_points: IntArray
    state: GameArrays

    def __len__(self) -> int:
        return len(self.next_shooter)

    def foul(self, rule: str) -> BoolArray:
        """Whether each shot was called for the foul ``rule`` (e.g. ``"ICF-11"``), shape (N,).

        Raises
        ------
        ValueError
            If the variant has no rule of that id.
        """
        if rule not in self.rules:
            raise ValueError(f"The 'rule' parameter must be one of {list(self.rules)}. Got {rule!r} instead.")
        return self.fouls[:, self.rules.index(rule)] > 0

    @property
    def any_foul(self) -> BoolArray:
        """Whether each shot was called for any foul, shape (N,)."""
        return (self.fouls > 0).any(axis=1)

    def _ordered(self, ranks: npt.NDArray[np.int16], g: int) -> tuple[str, ...]:
        cols = np.flatnonzero(ranks[g])
        return tuple(self.rules[c] for c in cols[np.argsort(ranks[g, cols])])

    def _ordered_all(self, ranks: npt.NDArray[np.int16]) -> list[tuple[str, ...]]:
        names, at = ranked_rows(ranks, np.array(self.rules, dtype=object))
        return [tuple(names[a:b]) for a, b in zip(at, at[1:])]

    def all_foul_rules(self) -> list[tuple[str, ...]]:
        """:meth:`foul_rules` of every game, in row order."""
        return self._ordered_all(self.fouls)

    def all_applied_rules(self) -> list[tuple[str, ...]]:
        """:meth:`applied_rules` of every game, in row order."""
        return self._ordered_all(self.applied)

    def foul_rules(self, g: int) -> tuple[str, ...]:
        """Rule ids of game ``g``'s fouls, in order (``[f.rule for f in Ruling.fouls]``)."""
        return self._ordered(self.fouls, g)

    def applied_rules(self, g: int) -> tuple[str, ...]:
        """``Ruling.applied`` of game ``g``."""
        return self._ordered(self.applied, g)

    def placements(self, g: int) -> tuple[Placement, ...]:
        """``Ruling.returned`` of game ``g`` (positions NaN when not placed)."""
        cols = np.flatnonzero(self.returned[g])
        st = self.state
        return tuple(
            Placement(int(j), st.palette[st.kind[j]], float(st.xy[g, j, 0]), float(st.xy[g, j, 1]), self.rules[self.returned_rule[g, j]])
            for j in cols[np.argsort(self.returned[g, cols])]
        )


class ArrayLedger:
    """Working copy of N games during one adjudication (the array form of
    :class:`carromlab.rules.ledger.Ledger`).

    Parameters
    ----------
    games : GameArrays
        The states before the shots (never changed).
    outcomes : OutcomeArrays
        The shots, checked with :func:`check_outcomes`.
    rules : tuple of str
        The variant's rule ids.
    """

    def __init__(self, games: GameArrays, outcomes: OutcomeArrays, rules: tuple[str, ...]) -> None:
        n, p = len(games), games.n_pieces
        self.g, self.o, self.rules = games, outcomes, rules
        self.rows = np.arange(n)
        self.where, self.xy, self.by = games.where.copy(), games.xy.copy(), games.by.copy()
        self.dues = games.dues.copy()
        self.dues_from = games.dues_from.copy()
        # rank of each rule among the game's applied rules and fouls, in the order recorded
        self._applied = np.zeros((n, len(rules)), np.int16)
        self._fouls = np.zeros((n, len(rules)), np.int16)
        self._n_applied = np.zeros(n, np.int16)
        self._n_fouls = np.zeros(n, np.int16)
        self._queue = np.zeros((n, p), np.int32)
        self._queued = np.zeros(n, np.int32)
        self._queue_rule = np.full((n, p), -1, np.int8)
        self._returned = np.zeros((n, p), np.int16)
        self._returned_rule = np.full((n, p), -1, np.int8)
        self._changes: list[tuple[BoolArray, str, Any]] = []
        #: pieces that fell in the shot (the striker column dropped)
        self.fell = outcomes.fell[:, :p] > 0

    # ------------------------------------------------------------------ bookkeeping
    def note(self, m: BoolArray | npt.NDArray[np.intp], *rules: str) -> None:
        """Record rules that decided something in the games ``m`` (a mask or rows)."""
        g = _rows(m)
        if g.size:
            for rule in rules:
                _record(self._applied, self._n_applied, g, self.rules.index(rule))

    def foul(self, m: BoolArray | npt.NDArray[np.intp], rule: str) -> None:
        """Record a foul in the games ``m`` (a mask or rows)."""
        g = _rows(m)
        if g.size:
            _record(self._fouls, self._n_fouls, g, self.rules.index(rule))
            _record(self._applied, self._n_applied, g, self.rules.index(rule))

    def of_kind(self, colour: npt.ArrayLike) -> BoolArray:
        """Pieces of a kind (palette index per game), shape (N, P)."""
        return self.g.kind[None, :] == np.asarray(colour)[:, None]

    def count(self, colour: npt.ArrayLike, where: int = BOARD, rows: npt.NDArray[np.intp] | None = None) -> IntArray:
        """Pieces of a kind (palette index per game) at a location code now, shape (N,);
        with ``rows``, in those games only (``colour`` holding their rows)."""
        if rows is not None and not len(rows):  # (no game: often, for the games a rare event concerns)
            return np.zeros(0, np.int64)
        return row_counts(self.of_kind(colour) & ((self.where if rows is None else self.where[rows]) == where))

    def set(self, mask: BoolArray, where: int, xy: npt.ArrayLike = np.nan) -> None:
        """Move the pieces of ``mask`` (N, P) to a location code, position ``xy`` (m),
        pocketed by no seat."""
        # a position as one complex number: the mask need not be broadcast over (x, y)
        np.copyto(self.where, where, where=mask)
        np.copyto(_pairs(self.xy), _pairs(xy) if np.ndim(xy) else complex(xy, xy), where=mask)
        np.copyto(self.by, -1, where=mask)

    def apply_motion(self, m: BoolArray, pocket_to: int = POCKETED) -> None:
        """Apply the final positions and move the pocketed pieces, in the games ``m``."""
        self.set(m[:, None] & self.o.placed, BOARD, self.o.final_xy)
        g, j = (m[:, None] & self.fell).nonzero()  # (a few pieces)
        self.where[g, j], self.xy[g, j], self.by[g, j] = pocket_to, np.nan, self.g.shooter[g]

    def send_back(self, mask: BoolArray, rule: str, key: npt.NDArray | None = None, rows: npt.NDArray[np.intp] | None = None) -> None:
        """Queue the pieces of ``mask`` (N, P) to be put back, in order of ``key`` (the
        shape of ``mask``) then id (pieces already queued stay where they are in the
        queue); with ``rows``, only in those games, ``mask`` (and ``key``) holding their rows."""
        # entry by entry (a few per shot, most masks are empty)
        i, j = np.divmod(mask.ravel().nonzero()[0], mask.shape[1])  # np.nonzero, quicker
        g = i if rows is None else rows[i]
        new = self._queue[g, j] == 0
        if not new.all():
            i, j, g = i[new], j[new], g[new]
        if not g.size:
            return
        queue = self._queued[g] + 1
        repeats = i.size > 1 and bool((i[1:] == i[:-1]).any())  # a game with several pieces
        if repeats:  # their ranks in their game, by key then id (the entries come by row, then id)
            order = slice(None) if key is None else np.lexsort((key[i, j], i))
            queue[order] += np.arange(i.size, dtype=np.int32) - np.searchsorted(i, i)
        # back on the board, position unknown until placed
        self.where[g, j], self.xy[g, j], self.by[g, j] = BOARD, np.nan, -1
        self._queue[g, j] = queue
        self._queue_rule[g, j] = self.rules.index(rule)
        if repeats:
            np.maximum.at(self._queued, g, queue)
        else:
            self._queued[g] = queue

    def penalty(self, m: BoolArray | npt.NDArray[np.intp], team: IntArray, n: int, rule: str) -> None:
        """Put back ``n`` pocketed pieces of ``team``'s colour (lowest ids first) in the
        games ``m``; a shortfall becomes a due, and under one of
        :data:`~carromlab.rules.state.DEBT_RULES` records ``rule`` among the origins of
        the team's debt (``dues_from``), as
        :meth:`carromlab.rules.ledger.Ledger.penalty`.

        Parameters
        ----------
        m : numpy.ndarray of bool, shape (N,), or of int
            The games penalised (a mask or rows).
        team : numpy.ndarray of int, shape (N,)
            The team owing the pieces in each game.
        n : int
            Pieces to put back.
        rule : str
            The rule imposing the penalty.
        """
        g = _rows(m)
        if not g.size:  # (most shots)
            return
        owing = team[g]
        pool = self.of_kind(self.g.colours[g, owing]) & (self.where[g] == POCKETED)
        counted = np.cumsum(pool, axis=1)
        self.send_back(pool & (counted <= n), rule, rows=g)
        have = counted[:, -1]
        short = have < n
        if short.any():
            s, owing = g[short], owing[short]
            self.dues[s, owing] += n - have[short]
            if rule in DEBT_RULES:
                self.dues_from[s, owing] |= np.int8(1 << DEBT_RULES.index(rule))
            self.note(s, rule)

    def pay_dues(self, m: BoolArray, rule: str, *, shooter_only: bool) -> None:
        """Pay dues with the pieces of the owing colour pocketed in the shot, in the
        games ``m`` (with ``shooter_only``, the shooter's team's dues only: carrom; else
        every owing colour's, whoever pocketed the pieces: Hikone), citing the rules the
        debts came from (``dues_from``) as
        :meth:`carromlab.rules.ledger.Ledger.pay_dues` does: their origins noted in
        rule-id order, each piece under its team's first origin; ``rule`` for a debt of
        no recorded origin (noting nothing).

        Parameters
        ----------
        m : numpy.ndarray of bool, shape (N,)
            The games where dues are paid.
        rule : str
            The rule cited for a debt of no recorded origin.
        shooter_only : bool
            Only the shooter's team pays (carrom); False: every owing colour (Hikone).
        """
        if not np.count_nonzero(self.dues):  # no debts (most games): nothing to pay
            return
        # the pieces that fell and are still in a pocket, in the games that owe (few)
        g = (m & row_any(self.dues > 0)).nonzero()[0]
        i, j = (self.fell[g] & (self.where[g] == POCKETED)).nonzero()
        if not i.size:
            return
        # the team each piece could pay for: the team of its colour, if it owes
        of_team = self.g.colours[g[i]] == self.g.kind[j, None]  # (pieces, T)
        t = of_team.argmax(axis=1)
        can = of_team[np.arange(i.size), t] & (self.dues[g[i], t] > 0)
        if shooter_only:
            can &= t == self.g.team[g[i]]
        i, j, t = i[can], j[can], t[can]
        # each (game, team)'s pieces in the order they fell: the first ``dues`` pay
        key = self.o.fell[g[i], j]
        order = np.lexsort((j, key, t, i))
        i, j, t = i[order], j[order], t[order]
        at = np.arange(i.size)
        starts = np.ones(i.size, bool)
        starts[1:] = (i[1:] != i[:-1]) | (t[1:] != t[:-1])
        gi = g[i]
        pays = at - np.maximum.accumulate(np.where(starts, at, 0)) < self.dues[gi, t]
        i, j, t, gi = i[pays], j[pays], t[pays], gi[pays]
        if not i.size:
            return
        origins = self.dues_from[gi, t]  # the origins of each piece's team's debt, as they were
        np.subtract.at(self.dues, (gi, t), 1)
        self.dues_from[gi, t] = np.where(self.dues[gi, t] == 0, 0, origins)
        pay = np.zeros((len(g), self.g.n_pieces), bool)
        pay[i, j] = True
        self.send_back(pay, rule, self.o.fell[g, :-1], rows=g)
        if np.count_nonzero(origins):  # some debt of a recorded origin (never in carrom)
            # each piece under its team's first origin; every origin paid noted, in rule-id order
            cited = np.array([self.rules.index(r) for r in DEBT_RULES] + [self.rules.index(rule)], np.int8)
            self._queue_rule[gi, j] = cited[_FIRST_ORIGIN[origins]]
            paid = np.zeros(len(self.rows), np.int8)
            np.bitwise_or.at(paid, gi, origins)
            for k, origin in enumerate(DEBT_RULES):
                self.note((paid >> k & 1) > 0, origin)

    def still_pocketed(self, mask: BoolArray, rows: npt.NDArray[np.intp] | None = None) -> BoolArray:
        """The pieces of ``mask`` that are still in a pocket; with ``rows``, of those
        games only, ``mask`` holding their rows."""
        return mask & ((self.where if rows is None else self.where[rows]) == POCKETED)

    @property
    def returning(self) -> BoolArray:
        """Games with pieces queued to be put back, shape (N,)."""
        return self._queued > 0

    def queued_under(self, rule: str) -> BoolArray:
        """Games with a piece queued to be put back under ``rule``, shape (N,)."""
        return (self._queue_rule == self.rules.index(rule)).any(axis=1)

    def lead(self, j: int) -> None:
        """Put piece ``j`` first among the pieces to be placed in the games where it is
        queued (the others keep their order); see :meth:`carromlab.rules.ledger.Ledger.lead`."""
        g = np.flatnonzero(self._queue[:, j] > 0)
        if g.size:
            queue = self._queue[g]
            queue += (queue > 0) & (queue < queue[:, j, None])
            queue[:, j] = 1
            self._queue[g] = queue

    def drop_returns(self, m: BoolArray | npt.NDArray[np.intp]) -> None:
        """Forget the queued pieces of the games ``m`` (a mask or rows; their board is being reset)."""
        self._queue[m] = 0
        self._queued[m] = 0
        self._queue_rule[m] = -1

    def place(self, m: BoolArray, target: npt.ArrayLike, *, within: npt.ArrayLike | None = None, far: npt.ArrayLike | None = None, enabled: bool = True) -> None:
        """Put the queued pieces of the games ``m`` back at the nearest free spots to
        ``target`` (m, per game or shared), in queue order; see
        :meth:`carromlab.rules.ledger.Ledger.place`. ``enabled=False`` records the
        returns but leaves their positions unknown (NaN)."""
        rows = np.flatnonzero(m & self.returning)
        if not rows.size:  # (most shots put nothing back)
            return
        n = len(self.rows)
        target = np.broadcast_to(np.asarray(target, dtype=float), (n, 2))
        self._returned[rows] = self._queue[rows]
        self._returned_rule[rows] = self._queue_rule[rows]
        if enabled:
            # each game's queue in order (-1 after its last), searched in one call: each game's
            # later pieces keep clear of its earlier ones
            queue = self._queue[rows]
            turn = np.argsort(np.where(queue > 0, queue, np.iinfo(np.int32).max), axis=1, kind="stable")[:, : int(self._queued[rows].max())]
            turn[np.arange(turn.shape[1]) >= self._queued[rows, None]] = -1
            on = (self.where[rows] == BOARD)[..., None]
            spots = nearest_free_spots_in_turn(
                self.g.board, target[rows], self.g.radius_of(), np.where(on, self.xy[rows], np.nan), turn,
                within=None if within is None else np.broadcast_to(np.asarray(within, dtype=float), (n,))[rows],
                far=None if far is None else np.broadcast_to(far, (n, 2))[rows],
            )  # fmt: skip
            i, k = np.nonzero(turn >= 0)
            none = np.isnan(spots[i, k, 0])
            if none.any():
                raise RuntimeError(f"No free spot on the board for piece {int(turn[i, k][none][0])} of game {int(rows[i][none][0])}.")
            self.xy[rows[i], turn[i, k]] = spots[i, k]
        self.drop_returns(rows)

    # ------------------------------------------------------------------ result
    def change(self, m: BoolArray, **fields: Any) -> None:
        """Set fields of the new state in the games ``m`` (values per game or shared;
        ``board_history`` a sequence or a mapping by game, read for the games ``m`` only);
        applied in order by :meth:`ruling`, after the default counters."""
        if m.any():  # (a change in no game changes nothing)
            for name, value in fields.items():
                self._changes.append((m, name, value))

    def ruling(
        self,
        *,
        turn_continues: BoolArray,
        next_shooter: IntArray,
        retake: BoolArray,
        board_over: BoolArray,
        board_winner: npt.ArrayLike,
        board_points: IntArray,
    ) -> RulingArrays:
        """Assemble the new states and the rulings (see :meth:`carromlab.rules.ledger.Ledger.ruling`)."""
        if np.count_nonzero(self._queued):
            raise RuntimeError("Queued pieces were not placed.")
        g, n = self.g, len(self.rows)
        played = ~retake & ~self.o.timed_out  # a timed-out turn is no shot (ONL-8, HIK-10)
        seat_shots = g.seat_shots.copy()
        seat_shots[self.rows, g.shooter] += played
        new: dict[str, Any] = {
            "where": self.where, "xy": self.xy, "by": self.by, "dues": self.dues, "dues_from": self.dues_from,
            "shooter": np.asarray(next_shooter, np.int64).copy(),
            "shot_in_turn": np.where(retake, g.shot_in_turn, np.where(turn_continues, g.shot_in_turn + 1, 0)),
            "board_shots": g.board_shots + played,
            "break_attempts": np.where(retake, g.break_attempts + 1, 0),
            "seat_shots": seat_shots,
        }  # fmt: skip
        for m, name, value in self._changes:
            if name not in new:
                new[name] = getattr(g, name).copy()
            arr = new[name]
            if name == "board_history":  # value: a mapping or sequence by game
                arr[m] = object_array([value[i] for i in np.flatnonzero(m).tolist()])
            elif np.ndim(value) and np.shape(value)[0] == n:
                arr[m] = np.asarray(value)[m]
            else:
                arr[m] = value
        return RulingArrays(
            rules=self.rules,
            fouls=self._fouls,
            applied=self._applied,
            returned=self._returned,
            returned_rule=self._returned_rule,
            turn_continues=np.asarray(turn_continues, bool),
            retake=np.asarray(retake, bool),
            next_shooter=np.asarray(next_shooter, np.int64),
            board_over=np.asarray(board_over, bool),
            board_winner=np.asarray(board_winner, np.int8),
            board_points=np.asarray(board_points, np.int64),
            state=g._replaced(**new),
        )
