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
    """A copy of ``state`` with pieces moved to ``where`` (positions dropped off the board).

    The queen's status follows the queen (the state refuses any other): back on the
    board it is ``"board"``; newly pocketed it is ``"covered"`` by the shooter's team
    (set ``queen_status``/``queen_team`` afterwards for another reading).
    """
    pieces = tuple(
        replace(p, where=where, x=None if where != "board" else p.x, y=None if where != "board" else p.y)
        if p.id in pids else p
        for p in state.pieces
    )
    queen = {"queen_status": state.queen_status, "queen_team": state.queen_team}
    if any(p.kind == "queen" and p.id in pids for p in state.pieces):
        if where == "board":
            queen = {"queen_status": "board", "queen_team": None}
        elif state.queen_status == "board":
            queen = {"queen_status": "covered", "queen_team": state.team_of(state.shooter)}
    return state.with_(pieces=pieces, **queen)


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


def assert_arrays_agree(states, outcomes, *, place: bool = True, rulings=None):
    """Adjudicate the (state, outcome) pairs on arrays and one by one with the reference
    ``adjudicate`` (or compare with its ``rulings`` when given), and assert that every
    field of every ruling and new state agrees. Returns the array rulings.

    With ``place=False`` the returned pieces' spots are not searched: their positions are
    compared as unknown."""
    from carromlab.rules.arrays import GameArrays, OutcomeArrays, adjudicate_arrays

    games = GameArrays.from_states(states)
    got = adjudicate_arrays(games, OutcomeArrays.from_outcomes(outcomes, games), place=place)
    new = got.state.to_states()
    for g, (state, outcome) in enumerate(zip(states, outcomes)):
        ref = adjudicate(state, outcome) if rulings is None else rulings[g]
        ref_state = ref.state
        if not place and ref.returned:
            back = {pl.piece_id for pl in ref.returned}
            ref_state = ref_state.with_(pieces=tuple(replace(p, x=None, y=None) if p.id in back else p for p in ref_state.pieces))
        where = f"game {g} ({state.variant}, shooter {state.shooter}, board shot {state.board_shots}): outcome {outcome!r}"
        assert got.foul_rules(g) == tuple(f.rule for f in ref.fouls), where
        assert got.applied_rules(g) == ref.applied, where
        placed = got.placements(g)
        assert [(pl.piece_id, pl.kind, pl.rule) for pl in placed] == [(pl.piece_id, pl.kind, pl.rule) for pl in ref.returned], where
        if place:
            assert placed == ref.returned, where
        assert bool(got.turn_continues[g]) == ref.turn_continues, where
        assert bool(got.retake[g]) == ref.retake, where
        assert int(got.next_shooter[g]) == ref.next_shooter, where
        assert bool(got.board_over[g]) == ref.board_over, where
        assert (None if got.board_winner[g] < 0 else int(got.board_winner[g])) == ref.board_winner, where
        assert tuple(int(v) for v in got.board_points[g]) == ref.board_points, where
        assert new[g] == ref_state, where
    return got
