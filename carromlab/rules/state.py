"""The immutable game state shared by every rule variant, with JSON save and load."""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass, field, replace
from collections.abc import Mapping
from typing import Any

import pandas as pd

from .._validation import (check_choice, check_fields, check_int, check_keys, check_mapping, check_real, check_sequence, check_str,
                          check_type, value_text)
from ..equipment.board import SIDES, Board, Circle, CrokinoleMarks, HikoneMarks, Hole, IcfMarks, Peg, Segment
from ..equipment.disc import DiscSpec
from .outcome import KINDS

__all__ = ["LOCATIONS", "QUEEN_STATUSES", "DEBT_RULES", "Piece", "GameState", "register_json_type"]

#: Where a piece can be: on the playing surface, in a pocket, in the player's hand
#: (crokinole, not yet played), in the ditch (crokinole, out of play) or in the 20-hole.
LOCATIONS = frozenset({"board", "pocketed", "hand", "ditch", "hole"})

#: State of the carrom queen: ``"none"`` (no queen in this variant), on the ``"board"``,
#: pocketed and ``"pending"`` a cover, or ``"covered"``.
QUEEN_STATUSES = frozenset({"none", "board", "pending", "covered"})

#: The rules a debt can come from whose origin a state keeps (``GameState.dues_from``):
#: bit ``k`` of a team's mask stands for ``DEBT_RULES[k]``, in rule-id order. The carrom
#: dues have one origin each (ICF-11, ONL-3) and keep none.
DEBT_RULES = ("HIK-5", "HIK-7", "HIK-9")

# Classes the JSON decoder may rebuild, by name: a closed list, so that loading a file
# never instantiates anything else.
_JSON_TYPES: dict[str, type] = {
    cls.__name__: cls for cls in (Board, Hole, Peg, Circle, Segment, IcfMarks, HikoneMarks, CrokinoleMarks)
}


def register_json_type(cls: type) -> type:
    """Allow a frozen dataclass (a variant's options) in saved game states.

    Parameters
    ----------
    cls : type
        A dataclass whose fields are JSON-encodable (numbers, str, bool, None, tuples,
        or other registered dataclasses).

    Returns
    -------
    type
        ``cls`` itself, so that this works as a class decorator.
    """
    if not dataclasses.is_dataclass(cls):
        raise ValueError(f"The 'cls' parameter must be a dataclass. Got {cls!r} instead.")
    _JSON_TYPES[cls.__name__] = cls
    return cls


def _encode(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        name = type(obj).__name__
        if _JSON_TYPES.get(name) is not type(obj):
            raise ValueError(f"Cannot save an object of unregistered type {name!r} in a game state.")
        return {"__type__": name, **{f.name: _encode(getattr(obj, f.name)) for f in dataclasses.fields(obj) if f.init}}
    if isinstance(obj, (tuple, list)):
        return [_encode(v) for v in obj]
    if isinstance(obj, float) and not math.isfinite(obj):
        raise ValueError(f"Cannot save the non-finite number {obj!r} in a game state.")
    return obj


def _decode(obj: Any) -> Any:
    if isinstance(obj, dict):
        name = obj.get("__type__")
        if name not in _JSON_TYPES:
            raise ValueError(f"The saved game state names an unknown type {name!r}; known: {sorted(_JSON_TYPES)}.")
        return _JSON_TYPES[name](**{k: _decode(v) for k, v in obj.items() if k != "__type__"})
    if isinstance(obj, list):
        return tuple(_decode(v) for v in obj)
    return obj


@register_json_type
@dataclass(frozen=True)
class Piece:
    """One game piece (coin, queen, puck, jack or crokinole disc) and where it is.

    Parameters
    ----------
    id : int
        Piece id, >= 0: the row of the variant's starting layout, as in the engine.
    kind : str
        ``"white"``, ``"black"``, ``"queen"``; ``"red"``, ``"green"``, ``"jack"``; or a
        crokinole player colour.
    where : str
        One of :data:`.LOCATIONS`.
    x, y : float or None
        Centre on the board, m (board frame, origin at the centre); None when the piece
        is not on the board or its position is unknown.
    by : int or None
        Seat whose shot pocketed the piece (or sank it in the 20-hole); None otherwise.
        A pocketed coin counts for the owner of its colour whoever pocketed it.
    """

    id: int
    kind: str
    where: str
    x: float | None = None
    y: float | None = None
    by: int | None = None

    def __post_init__(self) -> None:
        check_int("id", self.id, low=0)
        check_str("kind", self.kind)
        check_choice("where", self.where, LOCATIONS)
        if (self.x is None) != (self.y is None):
            raise ValueError(f"The 'x' and 'y' parameters must both be set or both be None. Got {self.x!r}, {self.y!r} instead.")
        if self.x is not None:
            check_real("x", self.x, unit="m")
            check_real("y", self.y, unit="m")
        if self.by is not None:
            check_int("by", self.by, low=0)

    @property
    def position(self) -> tuple[float, float] | None:
        """(x, y) in m, or None when unknown or off the board."""
        return None if self.x is None or self.where != "board" else (self.x, self.y)


def _pairs(name: str, values: Any) -> tuple[tuple[Any, Any], ...]:
    """``values``, (kind, number) pairs (a mapping gives its items), as a tuple; a TypeError
    naming ``name`` if it holds anything else."""
    items = check_sequence(name, values.items() if isinstance(values, Mapping) else values, what="a sequence of (kind, number) pairs")
    for item in items:
        if not (isinstance(item, (tuple, list)) and len(item) == 2):
            raise TypeError(f"The {name!r} parameter must be a sequence of (kind, number) pairs. Got {value_text(item)} in it instead.")
    return items


def _tuple_of_ints(name: str, values: Any, low: int | None = None) -> tuple[int, ...]:
    return tuple(check_int(f"{name}[{i}]", v, low=low) for i, v in enumerate(values))


@dataclass(frozen=True)
class GameState:
    """Everything the rules know between two shots; immutable.

    Build one with a variant's ``new_game``; every adjudication returns a new one.
    Seats are numbered in playing order from 0; in doubles, partners are the seats of
    the same parity (team = seat % number of teams). Points are per team.

    Parameters
    ----------
    variant : str
        ``"icf"``, ``"online"``, ``"hikone"`` or ``"crokinole"``.
    options : dataclass
        The variant's frozen options (house rules, ambiguity readings).
    board : Board
        The board (m), for placements and scoring zones.
    radii : tuple of (str, float)
        Radius of each piece kind, m, including ``"striker"`` where there is one.
    colours : tuple of str
        Piece kind owned by each team (carrom: the breaker's team has white).
    seat_sides : tuple of str
        Side of the board of each seat (``"south"``, ``"east"``, ``"north"``, ``"west"``).
    pieces : tuple of Piece
        Every game piece; the striker is not a piece.
    striker_id : int or None
        Id the outcome uses for the striker (the number of pieces, as in the engine);
        None in crokinole, where a disc is shot.
    shooter : int
        Seat to shoot next.
    shot_in_turn : int
        Shots already taken in the current turn.
    board_shots : int
        Shots completed on the current board (break retakes and timed-out turns, ONL-8
        and HIK-10, excluded).
    break_attempts : int
        Failed attempts at the current break (ICF-16, ONL-9).
    seat_shots : tuple of int
        Shots taken on this board by each seat (HIK-2: the first is from the tee spot;
        retakes and timed-out turns excluded).
    queen_status : str
        One of :data:`.QUEEN_STATUSES`.
    queen_team : int or None
        Team whose cover is pending, or that covered the queen.
    dues : tuple of int
        Coins or pucks owed back to the centre by each team (ICF-11, ONL-3, HIK-5, HIK-7,
        HIK-9).
    dues_from : tuple of int
        Hikone: the rules each team's outstanding debt came from, a bitmask over
        :data:`.DEBT_RULES` (bit ``k`` set: part of the debt is owed under
        ``DEBT_RULES[k]``); set when a debt is incurred, 0 once the team's dues are paid,
        and 0 in the other variants. A debt whose mask is 0 (a state saved before the
        field existed) is paid citing HIK-5. Default () : 0 for every team.
    board_number : int
        Current board (round), from 1.
    board_first : int
        Seat that opened the current board.
    board_history : tuple of tuple of int
        Points of each team on every finished board, in order.
    game_scores : tuple of int
        Total points of each team.
    time_called : bool
        Hikone: the match time ran out; the game ends after the current round (HIK-10).
    game_over : bool
        Whether the game is finished.
    winner : int or None
        Winning team once the game is over (None: a draw, or not over).
    masses : tuple of (str, float)
        Mass of piece kinds, kg, where it differs from the equipment's (see
        :meth:`with_discs`). Default () : every kind at its standard mass.
    """

    variant: str
    options: Any
    board: Board
    radii: tuple[tuple[str, float], ...]
    colours: tuple[str, ...]
    seat_sides: tuple[str, ...]
    pieces: tuple[Piece, ...]
    striker_id: int | None
    shooter: int = 0
    shot_in_turn: int = 0
    board_shots: int = 0
    break_attempts: int = 0
    seat_shots: tuple[int, ...] = ()
    queen_status: str = "none"
    queen_team: int | None = None
    dues: tuple[int, ...] = ()
    dues_from: tuple[int, ...] = ()
    board_number: int = 1
    board_first: int = 0
    board_history: tuple[tuple[int, ...], ...] = ()
    game_scores: tuple[int, ...] = ()
    time_called: bool = False
    game_over: bool = False
    winner: int | None = None
    masses: tuple[tuple[str, float], ...] = ()
    _index: dict[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        put = object.__setattr__
        check_choice("variant", self.variant, ("icf", "online", "hikone", "crokinole"))
        check_type("board", self.board, Board)
        put(self, "radii", tuple((str(k), check_real(f"radii[{k}]", r, low=0.0, low_open=True, unit="m")) for k, r in _pairs("radii", self.radii)))
        put(self, "masses", tuple((str(k), check_real(f"masses[{k}]", m, low=0.0, low_open=True, unit="kg")) for k, m in _pairs("masses", self.masses)))
        put(self, "colours", tuple(self.colours))
        n, t = len(self.seat_sides), len(self.colours)
        if n not in (2, 4) or t not in (2, 4) or n % t:
            raise ValueError(f"The 'seat_sides' parameter must have 2 or 4 seats, a multiple of the {t} teams. Got {self.seat_sides!r} instead.")
        put(self, "seat_sides", tuple(check_choice(f"seat_sides[{i}]", s, SIDES) for i, s in enumerate(self.seat_sides)))
        pieces = check_sequence("pieces", self.pieces, Piece)
        ids = [p.id for p in pieces]
        if len(set(ids)) != len(ids):
            raise ValueError(f"The 'pieces' parameter must not repeat an id. Got ids {ids} instead.")
        put(self, "pieces", pieces)
        put(self, "_index", {pid: i for i, pid in enumerate(ids)})
        if self.striker_id is not None:
            check_int("striker_id", self.striker_id, low=0)
            if self.striker_id in self._index:
                raise ValueError(f"The 'striker_id' parameter must differ from every piece id. Got {self.striker_id} instead.")
        check_int("shooter", self.shooter, low=0, high=n - 1)
        check_int("board_first", self.board_first, low=0, high=n - 1)
        for name in ("shot_in_turn", "board_shots", "break_attempts"):
            check_int(name, getattr(self, name), low=0)
        check_int("board_number", self.board_number, low=1)
        put(self, "seat_shots", _tuple_of_ints("seat_shots", self.seat_shots or (0,) * n, low=0))
        put(self, "dues", _tuple_of_ints("dues", self.dues or (0,) * t, low=0))
        put(self, "dues_from", _tuple_of_ints("dues_from", self.dues_from or (0,) * t, low=0))
        put(self, "game_scores", _tuple_of_ints("game_scores", self.game_scores or (0,) * t))
        put(self, "board_history", tuple(_tuple_of_ints("board_history", b) for b in self.board_history))
        for name, value, size in (("seat_shots", self.seat_shots, n), ("dues", self.dues, t), ("dues_from", self.dues_from, t),
                                  ("game_scores", self.game_scores, t)):  # fmt: skip
            if len(value) != size:
                raise ValueError(f"The {name!r} parameter must have {size} entries. Got {list(value)} instead.")
        self._check_dues_from()
        check_choice("queen_status", self.queen_status, QUEEN_STATUSES)
        for name in ("queen_team", "winner"):
            if getattr(self, name) is not None:
                check_int(name, getattr(self, name), low=0, high=t - 1)
        self._check_queen_and_jack()

    def _check_dues_from(self) -> None:
        """Each team's debt origins are a mask over :data:`.DEBT_RULES`, set only while the
        team owes pieces, and only in Hikone (HIK-5, HIK-7, HIK-9)."""
        top = 1 << len(DEBT_RULES)
        for k, (mask, due) in enumerate(zip(self.dues_from, self.dues)):
            if mask >= top or (mask and (due == 0 or self.variant != "hikone")):
                raise ValueError(
                    f"The 'dues_from' parameter must hold for each team a bitmask below {top} of the rules {list(DEBT_RULES)} "
                    f"its Hikone debt came from, 0 when it owes nothing. Got {mask} for team {k} (dues {due}, variant "
                    f"{self.variant!r}) instead."
                )

    def _check_queen_and_jack(self) -> None:
        """The queen's status agrees with where the queen is (ICF-5, ONL-2), and a Hikone
        game in progress has its jack on the board (HIK-4, HIK-5)."""
        # (a set missing its queen is left to the piece census, match.conservation)
        for q in (p for p in self.pieces if p.kind == "queen"):
            allowed = ("board",) if q.where == "board" else ("pending", "covered") if q.where == "pocketed" else ()
            if self.queen_status not in allowed:
                raise ValueError(
                    f"The 'queen_status' parameter must agree with where the queen (id {q.id}) is: 'board' while it is on "
                    f"the board, 'pending' or 'covered' once it is pocketed. Got {self.queen_status!r} with the queen "
                    f"{'on the board' if q.where == 'board' else q.where} instead."
                )
        if (self.queen_team is None) != (self.queen_status in ("none", "board")):
            raise ValueError(
                "The 'queen_team' parameter must name the team whose cover is pending or that covered the queen, and "
                f"only then. Got queen_team={self.queen_team!r} with queen_status={self.queen_status!r} instead."
            )
        if self.variant == "hikone" and not self.game_over:
            off = [p for p in self.pieces if p.kind == "jack" and p.where != "board"]
            if off:
                raise ValueError(
                    f"The 'pieces' parameter must keep the jack on the board while the game is in progress (a jack "
                    f"pocketed early goes back to the jack spot, HIK-5; pocketed to win, it ends the game, HIK-4). Got "
                    f"the jack (id {off[0].id}) {off[0].where!r} instead."
                )

    # ------------------------------------------------------------------ queries
    @property
    def n_players(self) -> int:
        """Number of seats."""
        return len(self.seat_sides)

    @property
    def n_teams(self) -> int:
        """Number of teams (sides scoring separately)."""
        return len(self.colours)

    def team_of(self, seat: int) -> int:
        """Team of a seat: partners sit at seats of the same parity."""
        return check_int("seat", seat, low=0, high=self.n_players - 1) % self.n_teams

    def piece(self, piece_id: int) -> Piece:
        """The piece with this id.

        Raises
        ------
        ValueError
            If no piece has this id.
        """
        i = self._index.get(piece_id)
        if i is None:
            raise ValueError(f"The 'piece_id' parameter must be one of the ids 0..{len(self.pieces) - 1}. Got {piece_id!r} instead.")
        return self.pieces[i]

    def radius(self, kind: str) -> float:
        """Radius of a piece kind, m."""
        return dict(self.radii)[kind]

    def count(self, kind: str, where: str = "board") -> int:
        """Number of pieces of ``kind`` at ``where`` (one of :data:`.LOCATIONS`)."""
        return sum(1 for p in self.pieces if p.kind == kind and p.where == where)

    def positions(self) -> pd.DataFrame:
        """Long-format table of the pieces, one row per piece.

        Returns
        -------
        pandas.DataFrame
            Columns ``id`` (int), ``kind`` (str), ``where`` (str), ``x``, ``y`` (m, NaN
            when off the board or unknown), ``by`` (seat that pocketed it, -1 if none).
        """
        nan = float("nan")
        return pd.DataFrame(
            {
                "id": [p.id for p in self.pieces],
                "kind": [p.kind for p in self.pieces],
                "where": [p.where for p in self.pieces],
                "x": [nan if p.x is None else p.x for p in self.pieces],
                "y": [nan if p.y is None else p.y for p in self.pieces],
                "by": [-1 if p.by is None else p.by for p in self.pieces],
            }
        )

    def with_discs(self, discs: Mapping[str, DiscSpec]) -> GameState:
        """A copy whose pieces of some kinds have other radii and masses.

        Parameters
        ----------
        discs : mapping of str to DiscSpec
            Piece kind (one of :data:`.KINDS`: ``"striker"``, ``"white"``, ...) to its disc
            (radius m, mass kg); the other kinds keep theirs, and kinds the game does not
            use (a Hikone jack in a carrom game) are ignored. Pieces already on the board
            stay where they are (a new game places them for its radii:
            :func:`carromlab.match.new_state` with ``discs``).

        Returns
        -------
        GameState

        Raises
        ------
        TypeError
            If ``discs`` is no mapping of str to DiscSpec.
        ValueError
            If it names a kind that is no piece kind (a misspelt one, ``"stiker"``).
        """
        check_mapping("discs", discs, str, DiscSpec, what="a mapping of piece kind to DiscSpec")
        check_keys("discs", discs, KINDS, "piece kinds")
        kinds = dict(self.radii)
        used = {k: d for k, d in discs.items() if k in kinds}
        radii = tuple((k, float(used[k].radius) if k in used else r) for k, r in self.radii)
        masses = dict(self.masses) | {k: float(d.mass) for k, d in used.items()}
        return self.with_(radii=radii, masses=tuple(sorted(masses.items())))

    def with_(self, **changes: Any) -> GameState:
        """A copy with some fields replaced (validated again); an unknown field is a
        TypeError listing the close and the valid names."""
        check_fields("GameState.with_", type(self), changes)
        return replace(self, **changes)

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> str:
        """The state as a JSON text that :meth:`from_json` reads back exactly."""
        body = {f.name: _encode(getattr(self, f.name)) for f in dataclasses.fields(self) if f.init}
        return json.dumps(body, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> GameState:
        """Rebuild a state saved by :meth:`to_json`.

        Parameters
        ----------
        text : str
            JSON text.

        Raises
        ------
        ValueError
            If the text is not valid JSON or does not describe a valid state.
        """
        try:
            body = json.loads(text)
        except (TypeError, json.JSONDecodeError) as exc:
            raise ValueError(f"The 'text' parameter must be a JSON game state. Got an unreadable text ({exc}).") from None
        if not isinstance(body, dict):
            raise ValueError(f"The 'text' parameter must be a JSON object. Got {type(body).__name__} instead.")
        known = {f.name for f in dataclasses.fields(cls) if f.init}
        unknown = set(body) - known
        if unknown:
            raise ValueError(f"The 'text' parameter names unknown state fields {sorted(unknown)}.")
        values = {k: _decode(v) for k, v in body.items()}
        required = [f.name for f in dataclasses.fields(cls)
                    if f.init and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]  # fmt: skip
        missing = [k for k in required if k not in body]
        if missing:
            raise ValueError(f"The 'text' parameter must set every state field; missing {missing} (required: {required}).")
        try:
            return cls(**values)
        except TypeError as exc:  # a field of the wrong type: the text, not the call, is wrong
            raise ValueError(str(exc)) from None
