"""Outcomes of N shots as a struct of numpy arrays, from ShotOutcome objects or straight
from the engine's detailed batch columns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from ..._validation import check_sequence, check_type
from ...engine.batch import BatchArrays
from ..engine_bridge import left_baseline_area
from ..ledger import check_record
from ..outcome import ShotOutcome
from .games import WHERE, GameArrays

__all__ = ["FATES", "OutcomeArrays", "shot_pieces"]

#: Codes of ``OutcomeArrays.fate`` (:data:`~carromlab.rules.outcome.STRIKER_FATES`).
FATES = ("board", "pocketed", "off_board", "frame", "ditch")


def shot_pieces(games: GameArrays) -> npt.NDArray[np.int64]:
    """Id of the crokinole disc each shooter plays next (the lowest in hand), -1 for
    carrom and Hikone; shape (N,). The array form of
    :func:`carromlab.rules.engine_bridge.shot_piece`.

    Raises
    ------
    ValueError
        If a crokinole shooter has no disc in hand.
    """
    if games.variant != "crokinole":
        return np.full(len(games), -1, dtype=np.int64)
    own = games.colours[np.arange(len(games)), games.team]
    hand = (games.where == WHERE.index("hand")) & (games.kind == own[:, None])
    if not hand.any(axis=1).all():
        g = int(np.flatnonzero(~hand.any(axis=1))[0])
        raise ValueError(f"The 'games' parameter must leave every shooter a disc in hand. Game {g} has none.")
    return np.argmax(hand, axis=1).astype(np.int64)


def entry_rows(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.intp]:
    """The rows of a 2-d mask that hold an entry, in order; found from the entries (most
    rows of a shot's lists are empty).

    Parameters
    ----------
    mask : numpy.ndarray of bool, shape (N, P)

    Returns
    -------
    numpy.ndarray of intp
        The row numbers, ascending.
    """
    some = np.flatnonzero(mask) // max(mask.shape[1], 1)
    first = np.ones(some.shape, bool)  # an entry that starts its row
    first[1:] = some[1:] != some[:-1]
    return some[first]


def rank_entries(mask: npt.NDArray[np.bool_], key: npt.ArrayLike | None = None) -> npt.NDArray[np.int16]:
    """1-based rank of each True entry of ``mask`` along its row by ``key`` then column
    (by column alone without a key), 0 elsewhere.

    Parameters
    ----------
    mask : numpy.ndarray of bool, shape (N, P)
    key : array_like, optional
        Broadcasting to (N, P): the order of the entries (e.g. capture times, s).

    Returns
    -------
    numpy.ndarray of int16, shape (N, P)
    """
    rank = np.zeros(mask.shape, np.int16)
    if not mask.any():  # (most lists of a shot are empty)
        return rank
    some = entry_rows(mask)
    if not some.size:
        return rank
    sub = mask[some]
    rank[some] = counted = np.cumsum(sub, axis=1, dtype=np.int16) * sub
    # only rows with two or more entries need sorting by the key
    many = some[counted.max(axis=1, initial=0) > 1] if key is not None else some[:0]
    if many.size:
        sub = mask[many]
        keyed = np.where(sub, np.broadcast_to(np.asarray(key), mask.shape)[many].astype(float), np.inf)
        order = np.argsort(keyed, axis=1, kind="stable")  # stable: ties keep the column order
        part = np.empty(sub.shape, dtype=np.int16)
        np.put_along_axis(part, order, np.arange(1, mask.shape[1] + 1, dtype=np.int16)[None, :], axis=1)
        rank[many] = part * sub
    return rank


@dataclass(frozen=True, eq=False)
class OutcomeArrays:
    """What happened in N shots, one row per shot, in game piece ids (struct of arrays).

    Row ``g`` is the shot played from game ``g`` of a :class:`GameArrays`; column ``j``
    of the piece arrays is piece id ``j``. The fields mirror
    :class:`~carromlab.rules.outcome.ShotOutcome`; lists that keep an order are ranks
    (0: not listed, k: the k-th listed).

    Parameters
    ----------
    fell : numpy.ndarray of int16, shape (N, P + 1)
        Order in which pieces fell into a pocket (crokinole: the 20-hole), 0 for none;
        the last column is the carrom or Hikone striker.
    first_touch : numpy.ndarray of int64, shape (N,)
        First piece the striker touched, -1 for none.
    fate : numpy.ndarray of int8, shape (N,)
        Where the shot piece ended (index into :data:`.FATES`).
    left_board, on_frame : numpy.ndarray of int16, shape (N, P)
        Order of the other pieces in ``ShotOutcome.left_board`` and ``on_frame``.
    striker_left_baseline : numpy.ndarray of bool, shape (N,)
        The striker left the shooter's baseline area (ICF-16).
    touched : numpy.ndarray of bool, shape (N, P)
        Pieces the striker touched directly.
    cushion_first : numpy.ndarray of bool, shape (N,)
        The striker hit the frame before any piece.
    touched_before_frame : numpy.ndarray of bool, shape (N, P)
        Pieces the striker hit before its first hit on a frame other than the
        shooter's own (Hikone; elsewhere before its first cushion hit): the direct hits
        of HIK-9.
    chain : numpy.ndarray of bool, shape (N, P)
        Crokinole: discs struck by the disc played directly or through own discs (CRK-3).
    final_xy : numpy.ndarray of float64, shape (N, P, 2)
        Resting position of the pieces on the board, m; NaN keeps the previous one.
    striker : numpy.ndarray of int64, shape (N,)
        Crokinole: the disc played; -1 for the carrom or Hikone striker.
    timed_out : numpy.ndarray of bool, shape (N,)
        The shooter ran out of time (ONL-8, HIK-10).
    """

    fell: npt.NDArray[np.int16]
    first_touch: npt.NDArray[np.int64]
    fate: npt.NDArray[np.int8]
    left_board: npt.NDArray[np.int16]
    on_frame: npt.NDArray[np.int16]
    striker_left_baseline: npt.NDArray[np.bool_]
    touched: npt.NDArray[np.bool_]
    cushion_first: npt.NDArray[np.bool_]
    touched_before_frame: npt.NDArray[np.bool_]
    chain: npt.NDArray[np.bool_]
    final_xy: npt.NDArray[np.float64]
    striker: npt.NDArray[np.int64]
    timed_out: npt.NDArray[np.bool_]

    def __len__(self) -> int:
        return len(self.fate)

    @cached_property
    def placed(self) -> npt.NDArray[np.bool_]:
        """Pieces with a resting position in ``final_xy`` (not NaN), shape (N, P); found on
        the first use and kept (the check of the outcomes and the ledger both read it)."""
        return ~np.isnan(self.final_xy[..., 0])

    @classmethod
    def from_outcomes(cls, outcomes: Sequence[ShotOutcome], games: GameArrays) -> OutcomeArrays:
        """Stack scripted or translated outcomes, one per game of ``games``.

        Parameters
        ----------
        outcomes : sequence of ShotOutcome
            One per game, in row order.
        games : GameArrays
            The states the shots were played from (for the number of pieces and the
            striker id).

        Raises
        ------
        ValueError
            If the lengths differ, an outcome names an id outside 0..P-1 (the striker
            aside), a pocket the board lacks or a final position off the board, or a
            Hikone doubles outcome leaves its direct hits unknown
            (``carromlab.rules.ledger.check_record``).
        """
        n, p = len(games), games.n_pieces
        outcomes = check_sequence("outcomes", outcomes, ShotOutcome)
        if len(outcomes) != n:
            raise ValueError(f"The 'outcomes' parameter must hold {n} ShotOutcome objects, one per game. Got {len(outcomes)}.")
        fell = np.zeros((n, p + 1), np.int16)
        left, frame = np.zeros((n, p), np.int16), np.zeros((n, p), np.int16)
        touched, chain, before = np.zeros((n, p), bool), np.zeros((n, p), bool), np.zeros((n, p), bool)
        final = np.full((n, p, 2), np.nan)
        crokinole = games.variant == "crokinole"

        def col(pid: int, name: str) -> int:
            if not 0 <= pid < p:
                raise ValueError(f"The 'outcomes' parameter names piece {pid} in {name}; the ids are 0..{p - 1}.")
            return pid

        for g, o in enumerate(outcomes):
            check_record(games.board, games.variant, o, f"outcomes[{g}]", players=games.n_players)
            for k, f in enumerate(o.pocketed, 1):
                fell[g, p if f.kind == "striker" and not crokinole else col(f.piece_id, "pocketed")] = k
            for k, pid in enumerate(o.left_board, 1):
                left[g, col(pid, "left_board")] = k
            for k, pid in enumerate(o.on_frame, 1):
                frame[g, col(pid, "on_frame")] = k
            for pid in o.striker_touched:
                touched[g, col(pid, "striker_touched")] = True
            for pid in o.touched_before_frame or ():  # None (unknown) only where HIK-9 does not apply
                before[g, col(pid, "touched_before_frame")] = True
            for pid in o.chain:
                chain[g, col(pid, "chain")] = True
            if o.final_positions is not None:
                fp = o.final_positions
                keep = fp["on_board"].to_numpy() & (fp["id"].to_numpy() < p)
                final[g, fp["id"].to_numpy()[keep]] = fp[["x", "y"]].to_numpy()[keep]
        return cls(
            fell=fell,
            first_touch=np.array([-1 if o.first_touch is None else o.first_touch for o in outcomes], np.int64),
            fate=np.array([FATES.index(o.striker_fate) for o in outcomes], np.int8),
            left_board=left,
            on_frame=frame,
            striker_left_baseline=np.array([o.striker_left_baseline for o in outcomes], bool),
            touched=touched,
            cushion_first=np.array([o.cushion_first for o in outcomes], bool),
            touched_before_frame=before,
            chain=chain,
            final_xy=final,
            striker=np.array([-1 if o.striker is None else o.striker for o in outcomes], np.int64),
            timed_out=np.array([o.timed_out for o in outcomes], bool),
        )

    @classmethod
    def from_batch(cls, batch: BatchArrays, games: GameArrays, ids: npt.ArrayLike) -> OutcomeArrays:
        """The outcomes of a detailed engine batch, one shot per game, without building
        a ShotOutcome per shot.

        The same reading as :func:`carromlab.rules.engine_bridge.outcomes_from_batch`:
        the striker touched the pieces of its ``striker_touched_mask`` directly, those of
        its ``striker_direct_mask`` before a cushion hit beyond ``frame_reach`` (HIK-9), it left
        the baseline area as :func:`~carromlab.rules.engine_bridge.left_baseline_area`
        judges it (ICF-16), pieces fell in order of capture time (then scene order).

        Parameters
        ----------
        batch : BatchArrays
            From :func:`carromlab.engine.simulate_batch_arrays` with ``details=True`` and
            ``final_positions=True`` (``forward``, ``carriers`` and ``frame_reach`` as for
            :func:`~carromlab.rules.engine_bridge.outcomes_from_batch`), one row per game.
        games : GameArrays
            The games the shots were played from.
        ids : array_like of int, shape (n,) or (N, n)
            Game id of each scene piece (the striker excluded), for all shots or per shot
            (from :func:`~carromlab.rules.engine_bridge.scene_for`); -1 marks a scene slot
            that holds no piece of the game (e.g. off the board in a many-scene batch).

        Raises
        ------
        ValueError
            If the batch lacks the detailed columns or its length differs from the games'.
        """
        need = {"striker_first", "striker_reach", "chain_mask", "striker_touched_mask", "striker_direct_mask"}
        need |= {"ditch_mask", "first_contact", "striker_fate"}
        check_type("batch", batch, BatchArrays, hint="from simulate_batch_arrays")
        if not need <= set(batch.columns) or batch.final_xy is None:
            raise ValueError("The 'batch' parameter must come from simulate_batch_arrays(..., details=True, final_positions=True).")
        n, p = len(games), games.n_pieces
        if len(batch) != n:
            raise ValueError(f"The 'batch' parameter must have one row per game ({n}). Got {len(batch)} rows.")
        pocket, t_out, xy = batch.pocket, batch.t_out, batch.final_xy
        cols = batch.columns
        m = pocket.shape[1] - 1  # scene pieces; column m is the striker
        ids = np.asarray(ids, dtype=np.int64)
        ids = np.broadcast_to(ids, (n, m) if ids.ndim == 2 else (1, m))  # a row per shot, or one for all
        used = np.concatenate([ids >= 0, np.ones((len(ids), 1), bool)], axis=1)
        played = shot_pieces(games)
        # game column of every scene column: the striker is the disc played (crokinole) or
        # column P; unused scene slots (id -1) go to a spare column P + 1, dropped
        slot = np.where(ids >= 0, ids, p + 1)
        striker = np.where(played >= 0, played, p)
        one = bool(n) and (slot == slot[0]).all() and (striker == striker[0]).all()  # one map for every shot
        if one:
            # one map for every shot (a lockstep step's: every piece id in its column), kept
            spans = _one_map_spans(np.append(slot[0], striker[0]).astype(np.int64).tobytes(), p)
        else:
            source = _sources(np.concatenate([np.broadcast_to(slot, (n, m)), striker[:, None]], axis=1), p)

        def extended(values: npt.NDArray, fill: Any, dtype: Any = None) -> npt.NDArray:
            """Values by scene column (N, m or m + 1: without or with the striker, ...), in
            ``dtype``, with ``fill`` in the columns up to m + 1 (the pieces outside the scene)."""
            ext = np.empty((n, m + 2, *values.shape[2:]), values.dtype if dtype is None else dtype)
            ext[:, : values.shape[1]] = values
            ext[:, values.shape[1] :] = fill
            return ext

        def gather(values: npt.NDArray, fill: Any, width: int = p) -> npt.NDArray:
            """Values by scene column (N, m + 2, ...: :func:`extended`; with one map, the
            columns past ``values``' own read as ``fill``) by game column (N, ``width``,
            ...), ``fill`` for the pieces outside the scene."""
            if not one:
                return np.take_along_axis(values, source[:, :width].reshape(n, width, *(1,) * (values.ndim - 2)), axis=1)
            out = np.empty((n, width, *values.shape[2:]), values.dtype)
            for a, b, s in spans:
                if a >= width:
                    break
                b = min(b, width)
                k = 0 if s < 0 else min(b - a, max(values.shape[1] - s, 0))  # the columns read from values
                if k > 0:
                    out[:, a : a + k] = values[:, s : s + k]
                if a + k < b:
                    out[:, a + k : b] = fill
            return out

        def game_columns(values: npt.NDArray, fill: Any, width: int = p) -> npt.NDArray:
            """Values by scene column by game column, ``fill`` for the pieces outside the scene."""
            return gather(values if one else extended(values, fill), fill, width)

        ditched = _bits(cols["ditch_mask"], m + 1) & used
        fell = game_columns(rank_entries((pocket >= 0) & used, t_out), 0, p + 1)
        on_board = (pocket < 0) & ~ditched
        moved = extended(xy, np.nan, np.float64)
        moved[:, : m + 1][~on_board] = np.nan
        final = gather(moved, np.nan)
        left = game_columns(rank_entries(ditched[:, :m]), 0)
        # the game id of the first piece touched: first_contact -1 (none) reads the -1 that
        # extends the ids (a scene may hold no piece at all: the opening shot of a crokinole round)
        ids_or_none = np.concatenate([ids, np.full((len(ids), 1), -1)], axis=1)
        first_id = ids_or_none[0 if len(ids) == 1 else np.arange(n), cols["first_contact"]]
        touched = game_columns(_bits(cols["striker_touched_mask"], m), False)
        before = game_columns(_bits(cols["striker_direct_mask"], m), False)
        chain = game_columns(_bits(cols["chain_mask"], m), False) if games.variant == "crokinole" else np.zeros((n, p), bool)
        fate = np.array([FATES.index(c) for c in batch.categories["striker_fate"]], np.int8)[cols["striker_fate"]]
        cushion_first = cols["striker_first"] == batch.categories["striker_first"].index("cushion")
        return cls(
            fell=fell,
            first_touch=first_id,
            fate=fate,
            left_board=left,
            on_frame=np.zeros((n, p), np.int16),
            striker_left_baseline=left_baseline_area(
                games.variant, games.board, games.radii, np.asarray(games.seat_sides)[games.shooter],
                cols["striker_reach"], cushion_first, np.stack([cols["x"], cols["y"]], axis=-1), cols["angle"], xy[:, m],
            ),
            touched=touched,
            cushion_first=cushion_first,
            touched_before_frame=before,
            chain=chain,
            final_xy=final,
            striker=played,
            timed_out=np.zeros(n, bool),
        )


def _sources(target: npt.NDArray[np.int64], p: int) -> npt.NDArray[np.int64]:
    """The other way of a map of scene columns to game columns ``target`` (..., m + 1):
    the scene column of every game column (..., ``p`` + 2; a later scene column wins),
    m + 1 for the game's pieces outside the scene."""
    m = target.shape[-1] - 1
    source = np.full((*target.shape[:-1], p + 2), m + 1)
    np.put_along_axis(source, target, np.arange(m + 1), axis=-1)
    return source


@lru_cache(maxsize=64)
def _one_map_spans(target: bytes, p: int) -> tuple[tuple[int, int, int], ...]:
    """The game columns of one map of scene columns ``target`` (int64 bytes, shared by
    every shot) as runs of consecutive scene columns and of pieces outside the scene
    (:func:`_spans` of its :func:`_sources`), copied and filled as blocks (np.take copies
    entry by entry: several times the instructions where the ids are runs, as a state's
    scene's are); made once per map (a lockstep step's is the same every step)."""
    source = _sources(np.frombuffer(target, dtype=np.int64), p)
    return tuple(_spans(source[: p + 1], len(target) // 8))


def _spans(source: npt.NDArray[np.int64], none: int) -> list[tuple[int, int, int]]:
    """The runs of a map of columns ``source`` (the source column of each column,
    ``none`` for none): ``(start, stop, first source column)`` of each run of consecutive
    source columns, ``(start, stop, -1)`` of each run of ``none``; in order, covering it.

    Examples
    --------
    >>> _spans(np.array([0, 1, 2, 9, 9, 3, 5, 8, 9]), 9)
    [(0, 3, 0), (3, 5, -1), (5, 6, 3), (6, 7, 5), (7, 8, 8), (8, 9, -1)]
    """
    out: list[tuple[int, int, int]] = []
    for j, s in enumerate(source.tolist()):
        if out and (s == none if out[-1][2] < 0 else s != none and s == out[-1][2] + j - out[-1][0]):
            out[-1] = (out[-1][0], j + 1, out[-1][2])
        else:
            out.append((j, j + 1, -1 if s == none else s))
    return out


def _bits(mask: npt.NDArray[np.uint64], m: int) -> npt.NDArray[np.bool_]:
    """Bits 0..m-1 of each uint64 mask, (N, m) bool."""
    octets = np.ascontiguousarray(mask, dtype="<u8").view(np.uint8).reshape(-1, 8)
    return np.unpackbits(octets, axis=1, count=m, bitorder="little").view(bool)

