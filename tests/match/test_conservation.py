"""Piece conservation: the checks catch every kind of violation, and accept the rules'
documented exceptions (CRK-2/CRK-3 removals, HIK-9 voids, ICF-16 retakes)."""

import math
import pickle
from dataclasses import replace

import numpy as np
import pytest

from carromlab import PhysicsParams, Shot, simulate
from carromlab.match import ConservationError, GameError, Inventory, RandomPolicy, census, new_state, play_game
from carromlab.match import lockstep as lockstep_module
from carromlab.rules.arrays import WHERE
from carromlab.rules.engine_bridge import scene_for
from carromlab.rules import adjudicate, crokinole, hikone, icf
from carromlab.rules.engine_bridge import outcome_from_result

from ..rules.rules_testkit import ids, move, put

TOTALS = {("icf", 2): 19, ("online", 2): 19, ("hikone", 2): 25, ("hikone", 4): 25, ("crokinole", 2): 24, ("crokinole", 4): 24}


def played(state, shot):
    """(outcome, ruling) of a simulated shot from ``state``."""
    scene, sids = scene_for(state)
    outcome = outcome_from_result(simulate(scene, shot, PhysicsParams()), state, sids)
    return outcome, adjudicate(state, outcome)


def with_pieces(ruling, pieces):
    return replace(ruling, state=ruling.state.with_(pieces=pieces))


@pytest.mark.parametrize(("variant", "players"), list(TOTALS))
def test_new_games_pass_and_census_adds_up(variant, players):
    state = new_state(variant, players)
    inv = Inventory.of(state)
    inv.check_state(state)
    assert inv.total == sum(census(state).values()) == TOTALS[variant, players]


def test_lost_or_changed_pieces_are_caught():
    state = icf.new_game()
    inv = Inventory.of(state)
    with pytest.raises(ConservationError, match="lost"):
        inv.check_state(state.with_(pieces=state.pieces[1:]))
    recoloured = tuple(replace(p, kind="black") if p.kind == "queen" else p for p in state.pieces)
    with pytest.raises(ConservationError, match="lost"):
        inv.check_state(state.with_(pieces=recoloured))


def test_overlaps_and_pieces_off_the_surface_are_caught():
    state = icf.new_game()
    inv = Inventory.of(state)
    q, w = ids(state, "queen")[0], ids(state, "white")[0]
    with pytest.raises(ConservationError, match="overlap"):
        inv.check_state(put(state, w, 0.001, 0.0))
    with pytest.raises(ConservationError, match="off the playing surface"):
        inv.check_state(put(state, q, 0.5, 0.0))


def test_a_real_shot_passes_and_tampering_is_caught_rules_icf4_icf12():
    """rules ICF-4, ICF-12: the break moves coins; the new state must keep the engine's
    positions and put back only the pieces the ruling returns."""
    state = icf.new_game()
    inv = Inventory.of(state)
    outcome, ruling = played(state, Shot(0.0, -0.2526, math.pi / 2, 7.0))
    inv.check_shot(state, outcome, ruling)
    after = ruling.state
    on = [p for p in after.pieces if p.where == "board" and p.kind != "queen"]  # a pocketed queen needs its status too
    vanished = tuple(replace(p, where="pocketed", x=None, y=None) if p.id == on[0].id else p for p in after.pieces)
    with pytest.raises(ConservationError, match="taken off by no rule"):
        inv.check_shot(state, outcome, with_pieces(ruling, vanished))
    nudged = tuple(replace(p, x=p.x + 1e-4) if p.id == on[0].id else p for p in after.pieces)
    with pytest.raises(ConservationError, match="moved from where the engine left it"):
        inv.check_shot(state, outcome, with_pieces(ruling, nudged))


def test_a_pocketed_piece_cannot_reappear_unreturned():
    """A pocketed coin is back on the board only when the ruling returns it."""
    state = icf.new_game().with_(board_shots=1)
    state = move(state, "pocketed", ids(state, "white")[0])
    inv = Inventory.of(state)
    outcome, ruling = played(state, Shot(0.2, -0.2526, math.pi / 2, 0.2))
    assert not ruling.returned
    inv.check_shot(state, outcome, ruling)
    back = tuple(replace(p, where="board", x=0.3, y=0.3) if p.where == "pocketed" else p for p in ruling.state.pieces)
    with pytest.raises(ConservationError, match="appeared"):
        inv.check_shot(state, outcome, with_pieces(ruling, back))


def test_crokinole_removals_are_allowed_only_with_their_rule_crk3():
    """rule CRK-3: a disc that hits no opponent disc goes to the ditch although the engine
    left it on the board; without the foul that removal is a violation."""
    state = crokinole.new_game()
    state = put(state, ids(state, "light", "hand")[0], 0.2, 0.2)
    inv = Inventory.of(state)
    outcome, ruling = played(state, Shot(0.0, -0.3048, math.pi / 2, 0.6))
    assert "CRK-3" in {f.rule for f in ruling.fouls}
    inv.check_shot(state, outcome, ruling)
    with pytest.raises(ConservationError, match="taken off by no rule"):
        inv.check_shot(state, outcome, replace(ruling, fouls=(), applied=()))


def test_hikone_void_shot_restores_the_pieces_rule_hik9():
    """rule HIK-9: a direct hit inside the own area voids the shot: the pieces go back
    where they were, which the check accepts only under that rule."""
    state = hikone.new_game(4).with_(seat_shots=(1, 0, 0, 0))
    h = state.board.half_size
    state = put(state, ids(state, "green")[0], 0.1, -h + 0.03)
    inv = Inventory.of(state)
    outcome, ruling = played(state, Shot(0.1, -h + 0.08, -math.pi / 2, 1.0))
    assert "HIK-9" in {f.rule for f in ruling.fouls}
    inv.check_shot(state, outcome, ruling)
    with pytest.raises(ConservationError):
        inv.check_shot(state, outcome, replace(ruling, fouls=(), applied=()))


def test_paying_a_hik9_debt_is_no_void_shot_rule_hik9():
    """rule HIK-9: a red puck pocketed while red owes the penalty puck of an earlier
    direct hit goes back citing HIK-9 (among the applied rules, not the fouls); the shot
    is not void, and both checks take the engine's positions."""
    from carromlab.match.conservation import check_shots
    from carromlab.rules.arrays import GameArrays, OutcomeArrays, adjudicate_arrays

    state = hikone.new_game(4).with_(seat_shots=(1, 0, 0, 0), dues=(1, 0), dues_from=(0b100, 0))
    state = put(state, ids(state, "red")[0], 0.24, 0.24)  # by the north-east pocket
    outcome, ruling = played(state, Shot(0.18, 0.18, math.pi / 4, 1.0))
    assert ruling.fouls == () and "HIK-9" in ruling.applied and [p.rule for p in ruling.returned] == ["HIK-9"]
    Inventory.of(state).check_shot(state, outcome, ruling)
    games = GameArrays.from_states([state])
    outcomes = OutcomeArrays.from_outcomes([outcome], games)
    check_shots(games, outcomes, adjudicate_arrays(games, outcomes))


def test_retaken_break_changes_nothing_rule_icf16():
    """rule ICF-16: a retaken break leaves every piece in place."""
    state = icf.new_game()
    inv = Inventory.of(state)
    outcome, ruling = played(state, Shot(0.0, -0.2526, math.pi / 2, 0.05))
    assert ruling.retake
    inv.check_shot(state, outcome, ruling)
    far = max(ruling.state.pieces, key=lambda p: abs(p.y))
    moved = tuple(replace(p, x=0.2, y=0.0) if p.id == far.id else p for p in ruling.state.pieces)
    with pytest.raises(ConservationError, match="retaken"):
        inv.check_shot(state, outcome, with_pieces(ruling, moved))


def test_play_game_checks_every_shot(monkeypatch):
    """A ruling that loses a piece stops the game with the state before the shot (the
    lockstep step adjudicates on arrays and checks them with check_shots)."""
    real = lockstep_module.adjudicate_arrays

    def leaky(games, outcomes):
        rulings = real(games, outcomes)
        if games.board_shots[0] < 2:
            return rulings
        st = rulings.state
        black = (st.kind == st.code("black"))[None, :] & (st.where == WHERE.index("board"))
        where = np.where(black, WHERE.index("pocketed"), st.where).astype(st.where.dtype)
        xy = np.where(black[..., None], np.nan, st.xy)
        return replace(rulings, state=replace(st, where=where, xy=xy))

    monkeypatch.setattr(lockstep_module, "adjudicate_arrays", leaky)
    with pytest.raises(GameError, match="shot 2") as info:
        play_game(new_state("icf"), RandomPolicy(), seed=1, max_shots_per_board=10)
    assert isinstance(info.value.__cause__, ConservationError)
    assert "taken off by no rule" in str(info.value.__cause__)
    assert icf.new_game().from_json(info.value.state_json).board_shots == 2


def test_game_error_survives_a_process_pool():
    """A GameError raised in a worker reaches the caller with its message and position
    (it was unpicklable: the pool reported only that a worker had broken)."""
    err = GameError("Game 3 (icf, seed 5) failed at shot 7", new_state("icf").to_json())
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is GameError and str(back) == str(err) and back.state_json == err.state_json


def test_check_shots_names_every_piece_of_an_overlap(monkeypatch):
    """A ruling that lays one coin on another stops the game; check_shots (the array
    check, each pair tested once) names both pieces of the pair."""
    real = lockstep_module.adjudicate_arrays
    seen = {}

    def stacking(games, outcomes):
        rulings = real(games, outcomes)
        st = rulings.state
        on = np.flatnonzero(st.where[0] == WHERE.index("board"))
        a, b = int(on[0]), int(on[-1])
        seen["pair"] = sorted((a, b))
        xy = st.xy.copy()
        xy[0, b] = xy[0, a] + [0.001, 0.0]
        return replace(rulings, state=replace(st, xy=xy))

    monkeypatch.setattr(lockstep_module, "adjudicate_arrays", stacking)
    with pytest.raises(GameError) as info:
        play_game(new_state("icf"), RandomPolicy(), seed=1, max_shots_per_board=10)
    assert isinstance(info.value.__cause__, ConservationError)
    assert f"pieces overlapping on the board: {seen['pair']}" in str(info.value.__cause__)
