"""Game states of N games of one variant as a struct of numpy arrays."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..._validation import check_sequence
from ...equipment.board import Board
from ..state import GameState, Piece

if TYPE_CHECKING:
    from ..placement import Regions

__all__ = ["WHERE", "QUEEN", "GameArrays", "of_colours"]

#: Codes of ``GameArrays.where``: the index of a piece's location (:data:`~carromlab.rules.state.LOCATIONS`).
WHERE = ("board", "pocketed", "hand", "ditch", "hole")
#: Codes of ``GameArrays.queen_status`` (:data:`~carromlab.rules.state.QUEEN_STATUSES`).
QUEEN = ("none", "board", "pending", "covered")

IntArray = npt.NDArray[np.int64]

# the fields every game of a GameArrays shares, and must share to be stacked
_SHARED = ("variant", "options", "board", "radii", "seat_sides", "striker_id", "masses")


@dataclass(frozen=True, eq=False)
class GameArrays:
    """The states of N games of one variant, field by field as arrays (struct of arrays).

    Row ``g`` of every array is game ``g``; column ``j`` of the piece arrays is the piece
    with id ``j`` (the variants number their pieces 0..P-1). Build one with
    :meth:`from_states` (or stack others with :meth:`concat`), read games back with
    :meth:`to_states` (or one game, built when first asked for and kept, with
    :meth:`state`). The fields mirror :class:`~carromlab.rules.state.GameState` (see
    it for their meaning); a missing value (no position, no seat, no team) is NaN or -1.
    The arrays are never changed in place by the rules: every adjudication returns new
    ones.

    Parameters
    ----------
    variant, options, board, radii, seat_sides, striker_id
        Shared by every game, as in :class:`~carromlab.rules.state.GameState`.
    palette : tuple of str
        The piece kinds and colours; ``kind`` and ``colours`` index it.
    kind : numpy.ndarray of int8, shape (P,)
        Kind of each piece (index into ``palette``).
    where : numpy.ndarray of int8, shape (N, P)
        Location of each piece (index into :data:`.WHERE`).
    xy : numpy.ndarray of float64, shape (N, P, 2)
        Centre of each piece on the board, m (NaN when off the board or unknown).
    by : numpy.ndarray of int8, shape (N, P)
        Seat that pocketed each piece, -1 for none.
    colours : numpy.ndarray of int8, shape (N, T)
        Colour owned by each team (index into ``palette``).
    shooter, shot_in_turn, board_shots, break_attempts, board_number, board_first : numpy.ndarray of int64, shape (N,)
        Seat to shoot and the counters.
    seat_shots : numpy.ndarray of int64, shape (N, S)
        Shots of each seat on the current board.
    queen_status : numpy.ndarray of int8, shape (N,)
        Index into :data:`.QUEEN`.
    queen_team : numpy.ndarray of int8, shape (N,)
        Team whose cover is pending or that covered, -1 for none.
    dues, game_scores : numpy.ndarray of int64, shape (N, T)
        Coins owed and total points of each team.
    dues_from : numpy.ndarray of int8, shape (N, T)
        The rules each team's debt came from, a bitmask over
        :data:`~carromlab.rules.state.DEBT_RULES` (Hikone; 0 elsewhere).
    board_history : numpy.ndarray of object, shape (N,)
        Each game's tuple of finished boards' points (ragged, so kept as tuples).
    time_called, game_over : numpy.ndarray of bool, shape (N,)
    winner : numpy.ndarray of int8, shape (N,)
        Winning team, -1 for none.
    masses : tuple of (str, float)
        Shared by every game: masses (kg) that differ from the equipment's, as in
        :class:`~carromlab.rules.state.GameState`. Default ().

    Examples
    --------
    >>> from carromlab.rules import icf
    >>> games = GameArrays.from_states([icf.new_game()] * 3)
    >>> len(games), games.where.shape, games.to_states()[0] == icf.new_game()
    (3, (3, 19), True)
    """

    variant: str
    options: Any
    board: Board
    radii: tuple[tuple[str, float], ...]
    seat_sides: tuple[str, ...]
    striker_id: int | None
    palette: tuple[str, ...]
    kind: npt.NDArray[np.int8]
    where: npt.NDArray[np.int8]
    xy: npt.NDArray[np.float64]
    by: npt.NDArray[np.int8]
    colours: npt.NDArray[np.int8]
    shooter: IntArray
    shot_in_turn: IntArray
    board_shots: IntArray
    break_attempts: IntArray
    seat_shots: IntArray
    queen_status: npt.NDArray[np.int8]
    queen_team: npt.NDArray[np.int8]
    dues: IntArray
    dues_from: npt.NDArray[np.int8]
    board_number: IntArray
    board_first: IntArray
    board_history: npt.NDArray[np.object_]
    game_scores: IntArray
    time_called: npt.NDArray[np.bool_]
    game_over: npt.NDArray[np.bool_]
    winner: npt.NDArray[np.int8]
    masses: tuple[tuple[str, float], ...] = ()

    # ------------------------------------------------------------------ shape
    def __len__(self) -> int:
        return len(self.shooter)

    @property
    def n_pieces(self) -> int:
        """Pieces per game (P)."""
        return len(self.kind)

    @property
    def n_players(self) -> int:
        """Seats (S)."""
        return len(self.seat_sides)

    @property
    def n_teams(self) -> int:
        """Teams (T)."""
        return self.colours.shape[1]

    @property
    def team(self) -> IntArray:
        """Team of the seat to shoot, shape (N,)."""
        return self.shooter % self.n_teams

    def code(self, kind: str) -> int:
        """Index of a piece kind or colour in ``palette`` (-1 if absent)."""
        return self.palette.index(kind) if kind in self.palette else -1

    def radius_of(self) -> npt.NDArray[np.float64]:
        """Radius of each piece, m, shape (P,); read-only, made once per radii and pieces."""
        return _piece_radii(self.radii, self.palette, self.kind.tobytes())

    def count(self, colour: npt.ArrayLike, where: str = "board", rows: npt.NDArray[np.intp] | None = None) -> IntArray:
        """Pieces of a kind (palette index per game, shape (N,)) at ``where``, per game;
        with ``rows``, in those games only (``colour`` holding their rows)."""
        if rows is not None and not len(rows):  # (no game: often, for the games a rare event concerns)
            return np.zeros(0, np.int64)
        code = WHERE.index(where)
        return row_counts(((self.where if rows is None else self.where[rows]) == code) & (self.kind == np.asarray(colour)[:, None]))

    def take(self, rows: npt.ArrayLike) -> GameArrays:
        """The games at ``rows`` (indices or a boolean mask, repeats allowed), as new
        arrays; their :attr:`regions` and GameState objects (:meth:`state`), those
        already built, are taken along."""
        rows = np.asarray(rows)
        rows = np.flatnonzero(rows) if rows.dtype == bool else rows.astype(np.intp, copy=False)
        return self._at(rows, lambda a: np.take(a, rows, axis=0))

    def repeated(self, n: int) -> GameArrays:
        """The one game of these arrays as ``n`` rows: read-only views of its arrays (no
        copies), for adjudicating many outcomes of one position (the foul study).

        Parameters
        ----------
        n : int
            Rows.

        Raises
        ------
        ValueError
            If these arrays do not hold exactly one game.
        """
        if len(self) != 1:
            raise ValueError(f"repeated() needs arrays of one game. Got {len(self)} games instead.")
        return self._at(np.zeros(n, np.intp), lambda a: np.broadcast_to(a, (n, *a.shape[1:])))

    def _at(self, rows: npt.NDArray[np.intp], per_game: Callable[[np.ndarray], np.ndarray]) -> GameArrays:
        """These games at ``rows`` (the source row of each new row), every per-game array
        made by ``per_game`` (its rows taken, or viewed); the :attr:`regions` and the
        GameState objects already built go along."""
        out = self._replaced(**{name: per_game(getattr(self, name)) for name in _PER_GAME})
        if "regions" in self.__dict__:
            out.__dict__["regions"] = self.regions.take(rows)
        # the built states go along as (states by source row, source row of each row), made
        # a dict by row only when asked for (_built): most taken arrays never are
        if "_taken" in self.__dict__:
            built, source = self.__dict__["_taken"]
            out.__dict__["_taken"] = (built, source[rows])
        elif self.__dict__.get("_states"):
            out.__dict__["_taken"] = (dict(self.__dict__["_states"]), rows.copy())  # as they are now
        return out

    def _replaced(self, **changes: Any) -> GameArrays:
        """These arrays with the fields ``changes`` replaced, as ``dataclasses.replace``
        gives them without calling the constructor again (it checks nothing); nothing built
        on first use (:attr:`regions`, the states) goes along."""
        values = {name: getattr(self, name) for name in _FIELDS}
        values.update(changes)
        return _filled(GameArrays, **values)

    def _built(self) -> dict[int, GameState]:
        """The GameState objects built so far, by row (kept in ``_states``); those a
        :meth:`take` carried over are put in on the first call."""
        built: dict[int, GameState] = self.__dict__.setdefault("_states", {})
        if "_taken" in self.__dict__:
            taken, source = self.__dict__.pop("_taken")
            built.update({i: taken[r] for i, r in enumerate(source.tolist()) if r in taken})
        return built

    @cached_property
    def regions(self) -> Regions:
        """The legal placement region of each game's shooter for the disc it plays
        (:func:`carromlab.rules.arrays.placement_regions`), built on the first use and
        kept: a lockstep step builds it once for its policies' placements and the
        executed ones."""
        from .placement import placement_regions

        return placement_regions(self)

    def state(self, row: int) -> GameState:
        """Game ``row`` as a :class:`~carromlab.rules.state.GameState`, built on the
        first call (:meth:`states`) and kept, so that asking again gives the same object
        (arrays made by :meth:`from_states` give the states they were made from, and
        :meth:`take` and :meth:`concat` keep the rows' built states)."""
        return self.states([row])[0]

    def states(self, rows: Sequence[int], like: GameArrays | None = None, pieces: Sequence[Sequence[Piece]] | None = None) -> list[GameState]:
        """Games ``rows`` as :class:`~carromlab.rules.state.GameState` objects: those
        not built yet in one :meth:`to_states` call (``like`` and ``pieces``, for the
        rows asked for, as there), and every one kept for the next call.

        Parameters
        ----------
        rows : sequence of int
            Rows of the games.
        like, pieces : optional
            As in :meth:`to_states`, one row and one entry per row of ``rows``.

        Returns
        -------
        list of GameState
        """
        built = self._built()
        missing = [i for i, row in enumerate(rows) if row not in built]
        if missing:
            todo = [rows[i] for i in missing]
            made = self.take(todo).to_states(
                None if like is None else like.take(missing), None if pieces is None else [pieces[i] for i in missing]
            )
            built.update(zip(todo, made))
        return [built[row] for row in rows]

    @classmethod
    def concat(cls, parts: Sequence[GameArrays]) -> GameArrays:
        """The games of several arrays, stacked row after row (part by part, in order).

        Parameters
        ----------
        parts : sequence of GameArrays
            At least one; all share the variant, options, board, radii, seats, striker
            id, masses and piece kinds. Their palettes may differ in the colours (each
            part's ``colours`` are re-indexed into the joined palette).

        Returns
        -------
        GameArrays
            ``len`` is the sum of the parts' lengths; row for row the same states as
            :meth:`from_states` of the parts' states.

        Raises
        ------
        ValueError
            If ``parts`` is empty, holds something else than GameArrays, or the parts
            differ in a shared field or the piece kinds.
        """
        parts = check_sequence("parts", parts, GameArrays, nonempty=True)
        first = parts[0]
        if len(parts) == 1:
            return first
        kinds = [first.palette[k] for k in first.kind]
        for i, p in enumerate(parts[1:], 1):
            bad = [name for name in _SHARED if getattr(p, name) is not getattr(first, name) and getattr(p, name) != getattr(first, name)]
            if [p.palette[k] for k in p.kind] != kinds:
                bad.append("kind")
            if bad:
                raise ValueError(f"The 'parts[{i}]' parameter must share {bad} with parts[0] to be stacked.")
        palette = tuple(dict.fromkeys(c for p in parts for c in p.palette))
        colours = [np.array([palette.index(c) for c in p.palette], dtype=np.int8)[p.colours] for p in parts]
        per_game = {name: np.concatenate([getattr(p, name) for p in parts]) for name in _PER_GAME if name != "colours"}
        kind = np.array([palette.index(k) for k in kinds], dtype=np.int8).reshape(len(kinds))
        out = first._replaced(palette=palette, kind=kind, colours=np.concatenate(colours), **per_game)
        starts = np.cumsum([0] + [len(p) for p in parts]).tolist()
        out.__dict__["_states"] = {start + r: s for p, start in zip(parts, starts) for r, s in p._built().items()}
        return out

    # ------------------------------------------------------------------ conversion
    @classmethod
    def from_states(cls, states: Sequence[GameState]) -> GameArrays:
        """Stack game states of one variant.

        Parameters
        ----------
        states : sequence of GameState
            At least one state; all share the variant, options, board, radii, seats,
            striker id and pieces (ids 0..P-1 in order, the same kinds).

        Returns
        -------
        GameArrays

        Raises
        ------
        ValueError
            If ``states`` is empty, holds something else than GameState objects, or
            the states differ in a shared field.
        """
        states = check_sequence("states", states, GameState, nonempty=True)
        first = states[0]
        kinds = tuple(p.kind for p in first.pieces)
        if tuple(p.id for p in first.pieces) != tuple(range(len(kinds))):
            raise ValueError(f"The 'states' parameter must number its pieces 0..P-1 in order. Got ids {[p.id for p in first.pieces]}.")
        for i, s in enumerate(states):
            bad = [name for name in _SHARED if getattr(s, name) != getattr(first, name)]
            if tuple(p.kind for p in s.pieces) != kinds or tuple(p.id for p in s.pieces) != tuple(range(len(kinds))):
                bad.append("pieces")
            if bad:
                raise ValueError(f"The 'states[{i}]' parameter must share {bad} with states[0] to be stacked.")
        palette = tuple(dict.fromkeys(kinds + tuple(c for s in states for c in s.colours)))
        nan = np.nan

        def col(fn: Any, dtype: Any) -> np.ndarray:
            return np.array([fn(s) for s in states], dtype=dtype)

        out = cls(
            variant=first.variant,
            options=first.options,
            board=first.board,
            radii=first.radii,
            seat_sides=first.seat_sides,
            striker_id=first.striker_id,
            palette=palette,
            kind=np.array([palette.index(k) for k in kinds], dtype=np.int8).reshape(len(kinds)),
            where=col(lambda s: [WHERE.index(p.where) for p in s.pieces], np.int8).reshape(len(states), len(kinds)),
            xy=col(lambda s: [(nan, nan) if p.x is None else (p.x, p.y) for p in s.pieces], float).reshape(len(states), len(kinds), 2),
            by=col(lambda s: [-1 if p.by is None else p.by for p in s.pieces], np.int8).reshape(len(states), len(kinds)),
            colours=col(lambda s: [palette.index(c) for c in s.colours], np.int8),
            shooter=col(lambda s: s.shooter, np.int64),
            shot_in_turn=col(lambda s: s.shot_in_turn, np.int64),
            board_shots=col(lambda s: s.board_shots, np.int64),
            break_attempts=col(lambda s: s.break_attempts, np.int64),
            seat_shots=col(lambda s: s.seat_shots, np.int64),
            queen_status=col(lambda s: QUEEN.index(s.queen_status), np.int8),
            queen_team=col(lambda s: -1 if s.queen_team is None else s.queen_team, np.int8),
            dues=col(lambda s: s.dues, np.int64),
            dues_from=col(lambda s: s.dues_from, np.int8),
            board_number=col(lambda s: s.board_number, np.int64),
            board_first=col(lambda s: s.board_first, np.int64),
            board_history=object_array([s.board_history for s in states]),
            game_scores=col(lambda s: s.game_scores, np.int64),
            time_called=col(lambda s: s.time_called, bool),
            game_over=col(lambda s: s.game_over, bool),
            winner=col(lambda s: -1 if s.winner is None else s.winner, np.int8),
            masses=first.masses,
        )
        out.__dict__["_states"] = dict(enumerate(states))  # the games are these objects (see state())
        return out

    def to_states(self, like: GameArrays | None = None, pieces: Sequence[Sequence[Piece]] | None = None) -> list[GameState]:
        """The games as :class:`~carromlab.rules.state.GameState` objects, in row order.

        Parameters
        ----------
        like : GameArrays, optional
            Earlier arrays of the same games, row by row (e.g. the states before a
            shot), with ``pieces``: the pieces of ``like``'s games. A piece whose
            location, position and pocketing seat are those of ``like`` is taken from
            ``pieces`` instead of being built again (the same value). Default: every
            piece is built.
        pieces : sequence of sequence of Piece, optional
            The pieces of each game of ``like``.
        """
        kinds = [self.palette[k] for k in self.kind]
        same = np.zeros(self.where.shape, dtype=bool)
        if like is not None and pieces is not None:
            same = (self.where == like.where) & (self.by == like.by)
            same &= ((self.xy == like.xy) | (np.isnan(self.xy) & np.isnan(like.xy))).all(axis=-1)
        # the arrays hold valid states (the rules and the conservation check make them), so
        # the objects are filled in without the constructors' checks
        shared = {"variant": self.variant, "options": self.options, "board": self.board, "radii": self.radii,
                  "seat_sides": self.seat_sides, "striker_id": self.striker_id, "masses": self.masses}  # fmt: skip
        per_game = zip(
            self.colours.tolist(), self.shooter.tolist(), self.shot_in_turn.tolist(), self.board_shots.tolist(),
            self.break_attempts.tolist(), self.seat_shots.tolist(), self.queen_status.tolist(), self.queen_team.tolist(),
            self.dues.tolist(), self.dues_from.tolist(), self.board_number.tolist(), self.board_first.tolist(), self.board_history,
            self.game_scores.tolist(), self.time_called.tolist(), self.game_over.tolist(), self.winner.tolist(),
        )  # fmt: skip
        index = {j: j for j in range(len(kinds))}
        # each game's pieces: those kept from ``pieces``, the others built (only they)
        made = [list(pieces[g]) if pieces is not None else [None] * len(kinds) for g in range(len(self))]  # type: ignore[index]
        rows, cols = np.nonzero(~same)
        changed = zip(rows.tolist(), cols.tolist(), self.xy[rows, cols, 0].tolist(), self.xy[rows, cols, 1].tolist(),
                      self.where[rows, cols].tolist(), self.by[rows, cols].tolist())  # fmt: skip
        for g, j, x, y, w, b in changed:
            made[g][j] = _filled(Piece, id=j, kind=kinds[j], where=WHERE[w], x=None if x != x else x,
                                 y=None if x != x else y, by=None if b < 0 else b)  # fmt: skip
        out = []
        for g, (colours, shooter, in_turn, shots, attempts, seat_shots, queen, qteam, dues, dues_from, number, first, history,
                scores, called, over, winner) in enumerate(per_game):  # fmt: skip
            pieces_g = tuple(made[g])
            out.append(_filled(
                GameState, **shared, colours=tuple(self.palette[c] for c in colours), pieces=pieces_g, shooter=shooter,
                shot_in_turn=in_turn, board_shots=shots, break_attempts=attempts, seat_shots=tuple(seat_shots),
                queen_status=QUEEN[queen], queen_team=None if qteam < 0 else qteam, dues=tuple(dues), dues_from=tuple(dues_from),
                board_number=number, board_first=first, board_history=history, game_scores=tuple(scores), time_called=called,
                game_over=over, winner=None if winner < 0 else winner, _index=index,
            ))  # fmt: skip
        return out


#: The fields of GameArrays, and those that hold a row per game.
_FIELDS = tuple(f.name for f in fields(GameArrays))
_PER_GAME = tuple(name for name in _FIELDS if name not in (*_SHARED, "palette", "kind"))


def of_colours(kind: npt.NDArray[np.int8], colours: npt.NDArray[np.int8]) -> npt.NDArray[np.bool_]:
    """Whether each piece has one of its game's team colours.

    Parameters
    ----------
    kind : numpy.ndarray of int8, shape (P,)
        Kind of each piece (palette codes, as :attr:`GameArrays.kind`).
    colours : numpy.ndarray of int8, shape (N, T)
        Colour of each team of each game (the same palette, as :attr:`GameArrays.colours`).

    Returns
    -------
    numpy.ndarray of bool, shape (N, P)
    """
    out = np.zeros((len(colours), len(kind)), dtype=bool)
    for t in range(colours.shape[1]):  # a few teams: one comparison each
        out |= kind[None, :] == colours[:, t, None]
    return out


def row_counts(mask: npt.NDArray[np.bool_]) -> IntArray:
    """The True entries of each row of a 2-d mask, shape (N,): ``np.count_nonzero(mask,
    axis=1)``, summed as bytes (quicker along short rows).

    Parameters
    ----------
    mask : numpy.ndarray of bool, shape (N, P)

    Returns
    -------
    numpy.ndarray of int64, shape (N,)
    """
    return np.einsum("ij->i", mask.view(np.uint8), dtype=np.int64)


def row_any(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Whether each row of a 2-d mask holds a True entry, shape (N,): ``mask.any(axis=1)``
    as a product with ones (quicker along short rows).

    Parameters
    ----------
    mask : numpy.ndarray of bool, shape (N, P)

    Returns
    -------
    numpy.ndarray of bool, shape (N,)
    """
    return mask @ np.ones(mask.shape[1], bool)


@lru_cache(maxsize=64)
def _piece_radii(radii: tuple[tuple[str, float], ...], palette: tuple[str, ...], kind: bytes) -> npt.NDArray[np.float64]:
    """Radius of each piece (m, read-only) from a game's ``radii``, ``palette`` and
    :attr:`GameArrays.kind` (as bytes)."""
    by_kind = dict(radii)
    out = np.array([by_kind[palette[k]] for k in np.frombuffer(kind, np.int8).tolist()], dtype=float)
    out.flags.writeable = False
    return out


def _filled(cls: type, **values: Any) -> Any:
    """An instance of a frozen dataclass with these field values, its checks skipped."""
    obj = object.__new__(cls)
    obj.__dict__.update(values)
    return obj


def object_array(values: list[Any]) -> npt.NDArray[np.object_]:
    """A 1-d object array of the values (numpy would otherwise nest tuples).

    Parameters
    ----------
    values : list
        Any objects (e.g. each game's board history, a tuple of tuples).

    Returns
    -------
    numpy.ndarray of object, shape (len(values),)
    """
    out = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        out[i] = v
    return out
