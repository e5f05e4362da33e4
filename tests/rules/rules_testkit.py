"""Helpers for scripting shots in the rules tests (no physics)."""

from __future__ import annotations

from dataclasses import replace

from carromlab.rules import GameState, ShotOutcome, adjudicate


def ids(state: GameState, kind: str, where: str = "board") -> list[int]:
    """Ids of the pieces of ``kind`` at ``where``, ascending."""
    return sorted(p.id for p in state.pieces if p.kind == kind and p.where == where)


def pocket(state: GameState, *pids: int, hole: int = 0) -> tuple[tuple[int, str, int, float], ...]:
    """Pocketing records for ``pids`` (kinds from the state; the striker by its id), in order."""
    def kind(pid: int) -> str:
        return "striker" if pid == state.striker_id else state.piece(pid).kind

    return tuple((pid, kind(pid), hole, 0.1 * (i + 1)) for i, pid in enumerate(pids))


def shot(state: GameState, *pids: int, **kw) -> ShotOutcome:
    """A shot pocketing ``pids`` (the striker too if its id is listed).

    The striker is taken to have touched the first pocketed piece unless given.
    """
    if state.striker_id in pids:
        kw.setdefault("striker_fate", "pocketed")
    others = [p for p in pids if p != state.striker_id]
    if others and "striker_touched" not in kw and "first_touch" not in kw:
        kw["striker_touched"] = (others[0],)
    return ShotOutcome(pocketed=pocket(state, *pids), **kw)


def move(state: GameState, where: str, *pids: int) -> GameState:
    """A copy of ``state`` with pieces moved to ``where`` (positions dropped off the board)."""
    pieces = tuple(
        replace(p, where=where, x=None if where != "board" else p.x, y=None if where != "board" else p.y)
        if p.id in pids else p
        for p in state.pieces
    )
    return state.with_(pieces=pieces)


def put(state: GameState, pid: int, x: float, y: float) -> GameState:
    """A copy of ``state`` with piece ``pid`` on the board at (x, y), m."""
    return state.with_(pieces=tuple(replace(p, where="board", x=x, y=y) if p.id == pid else p for p in state.pieces))


def broken(state: GameState) -> GameState:
    """The state after a break that pocketed nothing: the next shots are ordinary."""
    return state.with_(board_shots=1)


def play(state: GameState, *outcomes: ShotOutcome):
    """Adjudicate outcomes in sequence; return the last ruling."""
    ruling = None
    for out in outcomes:
        ruling = adjudicate(state, out)
        state = ruling.state
    return ruling
