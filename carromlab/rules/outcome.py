"""The record of one shot that the rules read, independent of the physics engine."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from .._validation import check_bool, check_choice, check_int, check_real, check_str, check_table, check_type, value_text

__all__ = ["KINDS", "STRIKER_FATES", "Pocketing", "ShotOutcome"]

#: Every piece kind the rules know: carrom coins, Hikone pucks, crokinole player colours.
KINDS = frozenset(
    {"white", "black", "queen", "striker", "red", "green", "jack", "dark", "light"}
)

#: Where the shot piece (striker, or the crokinole disc played) ended.
STRIKER_FATES = frozenset({"board", "pocketed", "off_board", "frame", "ditch"})

_POSITION_COLUMNS = ("id", "kind", "x", "y", "on_board")


class Pocketing(NamedTuple):
    """One piece falling into a pocket (or the crokinole 20-hole).

    Attributes
    ----------
    piece_id : int
        Id of the piece, as numbered by the variant's ``new_game``.
    kind : str
        Kind of the piece, one of :data:`.KINDS`.
    hole : int or str
        Index into the board's ``holes`` or name of the pocket (``"sw"``, ``"se"``,
        ``"ne"``, ``"nw"``; the crokinole hole is ``"20"``, also called ``"centre"``); the
        adjudication refuses a pocket the board lacks.
    time : float
        Time of the fall after the shot started, s.
    """

    piece_id: int
    kind: str
    hole: int | str
    time: float


def _ids(name: str, values: Any, *, unique: bool = True) -> tuple[int, ...]:
    out = tuple(check_int(f"{name}[{i}]", v, low=0) for i, v in enumerate(values))
    if unique and len(set(out)) != len(out):
        raise ValueError(f"The {name!r} parameter must not repeat a piece id. Got {list(out)} instead.")
    return out


def _pocketing(i: int, item: Any) -> Pocketing:
    check_type(f"pocketed[{i}]", item, tuple, hint="piece_id, kind, hole, time")
    if len(item) != 4:
        raise ValueError(f"The 'pocketed[{i}]' parameter must be a tuple (piece_id, kind, hole, time). Got {item!r} instead.")
    pid, kind, hole, time = item
    return Pocketing(
        check_int(f"pocketed[{i}].piece_id", pid, low=0),
        check_choice(f"pocketed[{i}].kind", kind, KINDS),
        _hole(f"pocketed[{i}].hole", hole),
        check_real(f"pocketed[{i}].time", time, low=0.0, unit="s"),
    )


def _hole(name: str, hole: Any) -> int | str:
    """``hole`` if it is a pocket's name or index: TypeError if it is neither a str nor an
    int (a bool is no index), ValueError if it is blank or negative."""
    what = "an int >= 0 or a non-empty str"
    if isinstance(hole, str):
        return check_str(name, hole, what=what)
    if not isinstance(hole, (int, np.integer)) or isinstance(hole, bool):
        raise TypeError(f"The {name!r} parameter must be {what}. Got {value_text(hole)} instead.")
    if hole < 0:
        raise ValueError(f"The {name!r} parameter must be {what}. Got {hole!r} instead.")
    return int(hole)


def _positions(table: Any) -> pd.DataFrame:
    check_table("final_positions", table, _POSITION_COLUMNS, rows=False)
    ids = _ids("final_positions.id", table["id"].tolist())
    for i, kind in enumerate(table["kind"]):
        check_choice(f"final_positions.kind[{i}]", kind, KINDS)
    for col in ("x", "y"):
        for i, v in enumerate(table[col]):
            check_real(f"final_positions.{col}[{i}]", v, unit="m")
    for i, v in enumerate(table["on_board"]):
        check_bool(f"final_positions.on_board[{i}]", v)
    return pd.DataFrame(
        {
            "id": np.array(ids, dtype=np.int64),
            "kind": table["kind"].astype(str).to_numpy(),
            "x": table["x"].to_numpy(dtype=float),
            "y": table["y"].to_numpy(dtype=float),
            "on_board": table["on_board"].to_numpy(dtype=bool),
        }
    )


@dataclass(frozen=True)
class ShotOutcome:
    """What happened in one shot, as the rules need it (no physics).

    All fields are optional so that a scripted outcome names only what happened.
    Piece ids and kinds are those of the variant's ``new_game``; the adjudicator
    checks them against the game state.

    Parameters
    ----------
    pocketed : tuple of Pocketing
        Pieces that fell into a pocket (crokinole: the 20-hole), in the order they fell;
        plain ``(piece_id, kind, hole, time_s)`` tuples are accepted. The striker may be
        listed (kind ``"striker"``); then ``striker_fate`` must be ``"pocketed"``.
    first_touch : int or None
        Id of the first piece the striker touched, None if it touched none. Filled from
        ``striker_touched`` when omitted.
    striker_fate : str
        Where the striker (crokinole: the disc played) ended: ``"board"``, ``"pocketed"``
        (crokinole: in the 20-hole), ``"off_board"``, ``"frame"`` (Hikone: resting on the
        frame) or ``"ditch"`` (crokinole).
    left_board : tuple of int
        Ids of other pieces that left the playing surface (crokinole: into the ditch).
    on_frame : tuple of int
        Ids of other pieces that came to rest on the frame (Hikone).
    striker_left_baseline : bool
        Whether the striker left the shooter's baseline area (ICF-16). Default True.
    striker_touched : tuple of int
        Ids of the pieces the striker touched directly, in order (repeats allowed).
    cushion_first : bool
        Whether the striker hit the frame before its first contact with a piece.
    touched_before_frame : tuple of int or None
        Ids of the pieces of ``striker_touched`` that the striker hit before its first
        hit on a frame other than the shooter's own (Hikone: the sides or the front;
        elsewhere: before its first cushion hit): the direct hits of HIK-9. None (default)
        derives it from the other fields when they settle it: every piece of
        ``striker_touched`` if the striker met no frame before its first contact (not
        ``cushion_first``), none if it touched nothing. After ``cushion_first`` with
        pieces touched it stays None (unknown: a bounce off the shooter's own frame keeps
        the next hit direct, one off a side or front frame does not), which the Hikone
        doubles adjudication refuses (HIK-9 needs it) and the other games ignore.
    chain : tuple of int
        Crokinole: ids of the discs the disc played struck directly or through a chain
        of the shooter's own discs (CRK-3).
    final_positions : pandas.DataFrame or None
        Resting positions, one row per piece, columns ``id`` (int), ``kind`` (str),
        ``x``, ``y`` (m, board frame, origin at the centre) and ``on_board`` (bool).
        Pieces not listed keep their previous position; None lists none. Stored as a copy.
    striker : int or None
        Id of the piece shot: the crokinole disc played (required there); for carrom and
        Hikone the striker's id, None meaning the shooter's own striker.
    timed_out : bool
        The shooter ran out of time and did not shoot (ONL-8, HIK-10); every other field
        must then keep its default.

    Raises
    ------
    TypeError
        If a field is of the wrong type (a pocketing that is no tuple, a hole that is
        neither an index nor a name, a flag that is no bool).
    ValueError
        If a field is malformed: the message names the field, what is allowed and the
        value received.

    Examples
    --------
    >>> out = ShotOutcome(pocketed=[(3, "white", 0, 0.8)], striker_touched=(3,))
    >>> out.pocketed[0].hole, out.first_touch
    (0, 3)
    """

    pocketed: tuple[Pocketing, ...] = ()
    first_touch: int | None = None
    striker_fate: str = "board"
    left_board: tuple[int, ...] = ()
    on_frame: tuple[int, ...] = ()
    striker_left_baseline: bool = True
    striker_touched: tuple[int, ...] = ()
    cushion_first: bool = False
    touched_before_frame: tuple[int, ...] | None = None
    chain: tuple[int, ...] = ()
    final_positions: pd.DataFrame | None = field(default=None, compare=False)
    striker: int | None = None
    timed_out: bool = False

    def __post_init__(self) -> None:
        put = object.__setattr__
        pocketed = tuple(_pocketing(i, p) for i, p in enumerate(tuple(self.pocketed)))
        _ids("pocketed", [p.piece_id for p in pocketed])
        times = [p.time for p in pocketed]
        if times != sorted(times):
            raise ValueError(f"The 'pocketed' parameter must be in falling order (times non-decreasing). Got times {times} instead.")
        put(self, "pocketed", pocketed)
        put(self, "striker_fate", check_choice("striker_fate", self.striker_fate, STRIKER_FATES))
        for name in ("striker_left_baseline", "cushion_first", "timed_out"):
            put(self, name, check_bool(name, getattr(self, name)))
        put(self, "left_board", _ids("left_board", self.left_board))
        put(self, "on_frame", _ids("on_frame", self.on_frame))
        put(self, "chain", _ids("chain", self.chain))
        touched = _ids("striker_touched", self.striker_touched, unique=False)
        first = None if self.first_touch is None else check_int("first_touch", self.first_touch, low=0)
        if first is not None and touched and touched[0] != first:
            raise ValueError(
                f"The 'first_touch' parameter must equal striker_touched[0] = {touched[0]}. Got {first} instead."
            )
        put(self, "striker_touched", touched or ((first,) if first is not None else ()))
        put(self, "first_touch", first if first is not None else (touched[0] if touched else None))
        if self.touched_before_frame is None:
            # which frame the striker met first is not said: left unknown (HIK-9)
            before = None if self.cushion_first and self.striker_touched else tuple(dict.fromkeys(self.striker_touched))
        else:
            before = _ids("touched_before_frame", self.touched_before_frame)
            if not set(before) <= set(self.striker_touched):
                raise ValueError(
                    f"The 'touched_before_frame' parameter must list pieces of striker_touched {list(self.striker_touched)}. "
                    f"Got {list(before)} instead."
                )
        put(self, "touched_before_frame", before)
        if self.striker is not None:
            put(self, "striker", check_int("striker", self.striker, low=0))
        if self.final_positions is not None:
            put(self, "final_positions", _positions(self.final_positions))
        self._check_disjoint()
        changed = [
            f.name
            for f in fields(self)
            if f.name not in ("timed_out", "touched_before_frame")  # derived from the others
            and (getattr(self, f.name) is not None if f.default is None else getattr(self, f.name) != f.default)
        ]
        if self.timed_out and changed:
            raise ValueError("The 'timed_out' parameter must be False when anything else happened in the shot. Got True instead.")

    def _check_disjoint(self) -> None:
        pocketed = {p.piece_id for p in self.pocketed}
        for name in ("left_board", "on_frame"):
            both = pocketed & set(getattr(self, name))
            if both:
                raise ValueError(f"The {name!r} parameter must not name pocketed pieces. Got {sorted(both)} instead.")
        both = set(self.left_board) & set(self.on_frame)
        if both:
            raise ValueError(f"The 'on_frame' parameter must not name pieces that left the board. Got {sorted(both)} instead.")
        if any(p.kind == "striker" for p in self.pocketed) and self.striker_fate != "pocketed":
            raise ValueError(
                f"The 'striker_fate' parameter must be 'pocketed' when the striker is listed in pocketed. "
                f"Got {self.striker_fate!r} instead."
            )

    @property
    def pocketed_ids(self) -> tuple[int, ...]:
        """Ids of the pocketed pieces other than the striker, in falling order."""
        return tuple(p.piece_id for p in self.pocketed if p.kind != "striker")
