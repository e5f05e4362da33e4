"""ShotOutcome and GameState records: validation, JSON round trips, bad inputs."""

from __future__ import annotations

import json
from dataclasses import replace

import pandas as pd
import pytest

from carromlab.rules import GameState, Piece, Pocketing, ShotOutcome, adjudicate, crokinole, hikone, icf, online
from carromlab.rules.icf import ICFOptions

from .rules_testkit import assert_arrays_agree, broken, move, play, pocket, shot


# ---------------------------------------------------------------------------- ShotOutcome
def test_outcome_accepts_plain_tuples_and_fills_first_touch():
    out = ShotOutcome(pocketed=[(3, "white", "ne", 0.5), (19, "striker", 2, 0.7)], striker_fate="pocketed", striker_touched=[3, 4, 3])
    assert out.pocketed[0] == Pocketing(3, "white", "ne", 0.5) and out.first_touch == 3
    assert out.pocketed_ids == (3,) and out.striker_touched == (3, 4, 3)
    assert ShotOutcome(first_touch=4).striker_touched == (4,)


def test_outcome_copies_final_positions():
    frame = pd.DataFrame({"id": [1], "kind": ["white"], "x": [0.1], "y": [0.0], "on_board": [True]})
    out = ShotOutcome(final_positions=frame)
    frame.loc[0, "x"] = 0.3
    assert out.final_positions.loc[0, "x"] == 0.1


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"pocketed": [(1, "white", 0)]}, "pocketed\\[0\\]"),
        ({"pocketed": [(1, "purple", 0, 0.1)]}, "pocketed\\[0\\].kind"),
        ({"pocketed": [(-1, "white", 0, 0.1)]}, "piece_id"),
        ({"pocketed": [(1, "white", -2, 0.1)]}, "hole"),
        ({"pocketed": [(1, "white", "", 0.1)]}, "hole"),
        ({"pocketed": [(1, "white", 0, -0.1)]}, "time"),
        ({"pocketed": [(1, "white", 0, 0.5), (2, "white", 0, 0.1)]}, "falling order"),
        ({"pocketed": [(1, "white", 0, 0.1), (1, "white", 1, 0.2)]}, "repeat"),
        ({"striker_fate": "lost"}, "striker_fate"),
        ({"left_board": (1, 1)}, "repeat"),
        ({"pocketed": [(1, "white", 0, 0.1)], "left_board": (1,)}, "left_board"),
        ({"left_board": (2,), "on_frame": (2,)}, "on_frame"),
        ({"first_touch": 2, "striker_touched": (3,)}, "first_touch"),
        ({"pocketed": [(19, "striker", 0, 0.1)]}, "striker_fate"),
        ({"timed_out": True, "left_board": (1,)}, "timed_out"),
        ({"striker_touched": (3,), "touched_before_frame": (4,)}, "touched_before_frame"),
        ({"striker_touched": (3,), "touched_before_frame": (3, 3)}, "repeat"),
        ({"final_positions": pd.DataFrame({"id": [1]})}, "final_positions"),
        ({"final_positions": pd.DataFrame({"id": [1], "kind": ["white"], "x": [float("nan")], "y": [0.0], "on_board": [True]})}, "final_positions.x"),
    ],
)
def test_outcome_bad_fields_name_the_parameter(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ShotOutcome(**kwargs)


def test_outcome_flag_of_the_wrong_type_is_a_type_error():
    with pytest.raises(TypeError, match=r"'cushion_first' parameter must be a bool .*Got 1 \(int\)"):
        ShotOutcome(cushion_first=1)


@pytest.mark.parametrize(
    ("item", "match"),
    [
        (5, r"'pocketed\[0\]' parameter must be a tuple \(piece_id, kind, hole, time\). Got 5 \(int\)"),
        ((1, "white", None, 0.1), r"'pocketed\[0\].hole' parameter must be an int >= 0 or a non-empty str. Got None \(NoneType\)"),
        ((1, "white", 1.5, 0.1), r"'pocketed\[0\].hole' .* Got 1.5 \(float\)"),
        ((1, "white", True, 0.1), r"'pocketed\[0\].hole' .* Got True \(bool\)"),
    ],
)
def test_outcome_pocketing_of_the_wrong_type_is_a_type_error(item, match):
    with pytest.raises(TypeError, match=match):
        ShotOutcome(pocketed=[item])


# ---------------------------------------------------------------------------- consistency with the state
@pytest.fixture
def game():
    return broken(icf.new_game())


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda s: ShotOutcome(pocketed=[(99, "white", 0, 0.1)]), "unknown piece id 99"),
        (lambda s: ShotOutcome(pocketed=[(2, "white", 0, 0.1)]), "it is 'black'"),
        (lambda s: ShotOutcome(pocketed=[(5, "striker", 0, 0.1)], striker_fate="pocketed"), "striker is id 19"),
        (lambda s: ShotOutcome(left_board=(19,)), "striker_fate"),
        (lambda s: ShotOutcome(striker_touched=(42,)), "unknown piece id 42"),
        (lambda s: ShotOutcome(striker=7), "shot piece must be 19"),
        (
            lambda s: ShotOutcome(
                pocketed=pocket(s, 1),
                final_positions=pd.DataFrame({"id": [1], "kind": ["white"], "x": [0.0], "y": [0.0], "on_board": [True]}),
            ),
            "contradicting",
        ),
    ],
)
def test_inconsistent_outcome_raises_and_leaves_state_unchanged(game, make, match):
    before = game.to_json()
    with pytest.raises(ValueError, match=match):
        adjudicate(game, make(game))
    assert game.to_json() == before


def test_pocketing_a_piece_already_pocketed_raises(game):
    r = adjudicate(game, shot(game, 1))
    with pytest.raises(ValueError, match="not on the board"):
        adjudicate(r.state, shot(r.state, 1))


def test_finished_game_refuses_more_shots(game):
    with pytest.raises(ValueError, match="finished game"):
        adjudicate(game.with_(game_over=True), ShotOutcome())


def test_ditch_is_crokinole_only(game):
    # rules CRK-2 (the ditch), HIK-7 (the striker resting on the frame): no such fates elsewhere
    with pytest.raises(ValueError, match="striker_fate must be one of .* under the icf rules, got 'ditch'"):
        adjudicate(game, ShotOutcome(striker_fate="ditch"))
    with pytest.raises(ValueError, match="striker_fate must be one of .* under the hikone rules, got 'ditch'"):
        adjudicate(hikone.new_game(), ShotOutcome(striker_fate="ditch"))


def test_wrong_variant_module_raises(game):
    with pytest.raises(ValueError, match="online game"):
        online.adjudicate(game, ShotOutcome())


def test_crokinole_requires_a_disc_in_hand():
    s = crokinole.new_game()
    with pytest.raises(ValueError, match="outcome.striker"):
        crokinole.adjudicate(s, ShotOutcome())
    with pytest.raises(ValueError, match="dark disc in hand"):
        crokinole.adjudicate(s, ShotOutcome(striker=12, striker_fate="ditch"))
    with pytest.raises(ValueError, match="final_positions"):
        crokinole.adjudicate(s, ShotOutcome(striker=0))
    with pytest.raises(ValueError, match="striker_fate"):
        crokinole.adjudicate(s, ShotOutcome(striker=0, striker_fate="frame"))


def test_placement_bad_inputs_name_the_parameter(game):
    with pytest.raises(ValueError, match="striker_radius"):
        icf.check_placement(game, 0.0, 0.0, -0.01)
    with pytest.raises(ValueError, match="'x'"):
        icf.check_placement(game, float("nan"), 0.0, 0.02)
    with pytest.raises(TypeError, match="board"):
        icf.check_placement(game, 0.0, 0.0, 0.02, board="icf")


@pytest.mark.parametrize(
    ("factory", "error", "match"),
    [
        (lambda: icf.new_game(3), ValueError, "players"),
        (lambda: icf.new_game(options="x"), TypeError, "options"),
        (lambda: hikone.new_game(5), ValueError, "players"),
        (lambda: crokinole.new_game(3), ValueError, "players"),
        (lambda: ICFOptions(own_last_coin="nobody"), ValueError, "own_last_coin"),
        (lambda: crokinole.CrokinoleOptions(discs_per_player=0), ValueError, "discs_per_player"),
        (lambda: hikone.HikoneOptions(void_pucks_with_jack=1), TypeError, "void_pucks_with_jack"),
        (lambda: hikone.HikoneOptions(every_direct_hit="yes"), TypeError, "every_direct_hit"),
    ],
)
def test_bad_game_setup_names_the_parameter(factory, error, match):
    with pytest.raises(error, match=match):
        factory()


# ---------------------------------------------------------------------------- GameState and JSON
@pytest.mark.parametrize(
    "factory",
    [icf.new_game, lambda: icf.new_game(4, options=ICFOptions("opponent_gains_3")), online.new_game,
     hikone.new_game, lambda: hikone.new_game(4), crokinole.new_game, lambda: crokinole.new_game(4)],
)
def test_json_round_trip_new_games(factory):
    state = factory()
    text = state.to_json()
    assert GameState.from_json(text) == state
    assert json.loads(text)["variant"] == state.variant


def test_json_round_trip_mid_game(game):
    r = play(game, shot(game, 1), shot(game.with_(shot_in_turn=1), 19))
    state = move(r.state, "pocketed", 0).with_(queen_status="pending", queen_team=0, board_history=((3, 0),), game_scores=(3, -3))
    back = GameState.from_json(state.to_json())
    assert back == state and back.to_json() == state.to_json()
    assert back.positions().equals(state.positions())


def test_discs_reach_the_engine_and_round_trip_and_old_json_loads_with_standard_masses():
    from carromlab.equipment.disc import DiscSpec
    from carromlab.match import new_state
    from carromlab.rules.arrays import GameArrays
    from carromlab.rules.engine_bridge import scene_for

    standard = icf.new_game()
    heavy = new_state("icf", discs={"striker": DiscSpec.icf_striker().with_(mass=0.03, radius=0.022), "jack": DiscSpec.hikone_jack()})
    assert heavy.masses == (("striker", 0.03),) and dict(heavy.radii)["striker"] == 0.022  # the jack is no carrom piece
    specs, before = scene_for(heavy)[0].specs, scene_for(standard)[0].specs
    assert (specs["striker"].mass, specs["striker"].radius) == (0.03, 0.022) and specs["white"] == before["white"]
    back = GameState.from_json(heavy.to_json())
    assert back == heavy and back.to_json() == heavy.to_json()
    assert GameArrays.from_states([heavy, heavy]).to_states() == [heavy, heavy]
    body = json.loads(standard.to_json())
    del body["masses"]  # a state saved before masses were kept
    old = GameState.from_json(json.dumps(body))
    assert old == standard and old.masses == () and scene_for(old)[0].specs == before
    with pytest.raises(ValueError, match="masses"):
        standard.with_(masses=(("striker", -1.0),))


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("not json", "JSON"),
        ("[1, 2]", "JSON object"),
        ('{"bogus": 1}', "unknown state fields"),
        ('{"options": {"__type__": "os.system"}}', "unknown type"),
    ],
)
def test_from_json_bad_text(text, match):
    with pytest.raises(ValueError, match=match):
        GameState.from_json(text)


@pytest.mark.parametrize(
    ("changes", "match"),
    [
        ({"shooter": 2}, "shooter"),
        ({"variant": "snooker"}, "variant"),
        ({"queen_status": "lost"}, "queen_status"),
        ({"dues": (1,)}, "dues"),
        ({"seat_sides": ("south", "up")}, "seat_sides"),
        ({"striker_id": 3}, "striker_id"),
    ],
)
def test_state_validation(game, changes, match):
    with pytest.raises(ValueError, match=match):
        game.with_(**changes)


def test_piece_validation():
    with pytest.raises(ValueError, match="where"):
        Piece(1, "white", "sky")
    with pytest.raises(ValueError, match="both"):
        Piece(1, "white", "board", 0.1, None)


def test_positions_table(game):
    table = game.positions()
    assert list(table.columns) == ["id", "kind", "where", "x", "y", "by"] and len(table) == 19


# ---------------------------------------------------------------------------- states that cannot exist
def test_queen_status_must_agree_with_where_the_queen_is():
    # rules ICF-5, ONL-2: 'board' while the queen is on the board, 'pending'/'covered' once pocketed
    s = icf.new_game()
    with pytest.raises(ValueError, match="'queen_status' parameter must agree .* Got 'covered' with the queen on the board"):
        s.with_(queen_status="covered", queen_team=0)
    with pytest.raises(ValueError, match="'queen_status'"):
        s.with_(queen_status="covered")
    gone = s.with_(pieces=tuple(replace(p, where="pocketed", x=None, y=None) if p.kind == "queen" else p for p in s.pieces),
                   queen_status="covered", queen_team=0)  # fmt: skip
    with pytest.raises(ValueError, match="Got 'board' with the queen pocketed"):
        gone.with_(queen_status="board", queen_team=None)
    with pytest.raises(ValueError, match="'queen_team' parameter .* queen_team=None with queen_status='pending'"):
        gone.with_(queen_status="pending", queen_team=None)


def test_hikone_jack_stays_on_the_board_until_the_game_ends():
    # rules HIK-4, HIK-5: an early jack goes back to the jack spot, a winning one ends the game
    s = hikone.new_game()
    pocketed = tuple(replace(p, where="pocketed", x=None, y=None) if p.kind == "jack" else p for p in s.pieces)
    with pytest.raises(ValueError, match="'pieces' parameter must keep the jack on the board .* Got the jack \\(id 0\\) 'pocketed'"):
        s.with_(pieces=pocketed)
    assert s.with_(pieces=pocketed, game_over=True, winner=0).game_over


def test_comparable_states_inherits_the_state_checks():
    # rules HIK-5 (the jack), ICF-5 (the queen's status)
    from carromlab.analysis import comparable_states

    pucks = pd.DataFrame({"kind": ["red", "green"], "x": [0.1, -0.1], "y": [0.1, 0.1]})
    with pytest.raises(ValueError, match="jack"):
        comparable_states(pucks, ("hikone",))
    with_queen = pd.DataFrame({"kind": ["white", "queen"], "x": [0.1, 0.0], "y": [0.1, 0.0]})
    with pytest.raises(ValueError, match="queen_status"):
        comparable_states(with_queen, ("icf",), queen_status="covered", queen_team=0)
    with pytest.raises(ValueError, match="queen_status"):
        comparable_states(with_queen.iloc[:1], ("icf",), queen_status="board")
    assert comparable_states(with_queen.iloc[:1], ("icf",), queen_status="covered", queen_team=0)["icf"].queen_status == "covered"


def test_game_ending_on_a_cover_records_the_covered_queen(game):
    # rules ICF-6, ICF-7, ICF-10: the queen and the last own coin together end the game; the
    # final state says the queen is covered (it used to keep 'board' with the queen pocketed)
    whites = [p.id for p in game.pieces if p.kind == "white"]
    blacks = [p.id for p in game.pieces if p.kind == "black"]
    s = move(game, "pocketed", *whites[1:], *blacks[3:]).with_(queen_status="board", queen_team=None, game_scores=(20, 0))
    out = shot(s, 0, whites[0])
    r = adjudicate(s, out)
    assert r.game_over and r.state.queen_status == "covered" and r.state.queen_team == 0
    assert GameState.from_json(r.state.to_json()) == r.state
    assert_arrays_agree([s], [out])


# ---------------------------------------------------------------------------- outcomes that cannot follow
def _both_raise(state, outcome, match):
    """The one-game and the array adjudication both refuse the outcome."""
    from carromlab.rules.arrays import GameArrays, OutcomeArrays, adjudicate_arrays

    with pytest.raises(ValueError, match=match):
        adjudicate(state, outcome)
    games = GameArrays.from_states([state])
    with pytest.raises(ValueError, match=match):
        adjudicate_arrays(games, OutcomeArrays.from_outcomes([outcome], games))


@pytest.mark.parametrize(
    ("outcome", "match"),
    [
        # rule HIK-7: only a Hikone striker rests on the frame
        (ShotOutcome(striker_fate="frame"), "striker_fate must be one of \\['board', 'pocketed', 'off_board'\\] under the icf rules, got 'frame'"),
        # rule ICF-4: the board has four pockets
        (ShotOutcome(pocketed=[(3, "white", 7, 0.1)]), "pocketed\\[0\\].hole' parameter must be a pocket .* 0..3 .* Got 7"),
        (ShotOutcome(pocketed=[(3, "white", "zz", 0.1)]), "pocketed\\[0\\].hole' parameter .* \\['sw', 'se', 'ne', 'nw'\\]. Got 'zz'"),
        # rule ICF-12: a piece on the board lies on the playing surface
        (ShotOutcome(final_positions=pd.DataFrame({"id": [3], "kind": ["white"], "x": [5.0], "y": [0.0], "on_board": [True]})),
         "final_positions' parameter must put the pieces it lists on the board .* 0.37 m\\). Got piece 3 at \\(5, 0\\)"),
    ],
)
def test_impossible_outcomes_raise_in_both_paths(game, outcome, match):
    _both_raise(game, outcome, match)


def test_icf_16_striker_that_never_left_the_baseline_cannot_move_a_coin_or_fall(game):
    # rule ICF-16: a striker that never left the baseline area touches, pockets and moves no
    # coin, and it is still on the board: the pockets and the frame lie outside the area
    s = icf.new_game()
    striker = ((s.striker_id, "striker", 0, 0.5),)
    for bad in ({"striker_touched": (3,)}, {"pocketed": pocket(s, 3)}, {"left_board": (3,)},
                {"striker_fate": "pocketed", "pocketed": striker}, {"striker_fate": "off_board"}):  # fmt: skip
        _both_raise(s, ShotOutcome(striker_left_baseline=False, **bad), "never left the baseline area cannot touch, pocket or move a coin, nor fall")
    assert adjudicate(s, ShotOutcome(striker_left_baseline=False)).retake


def test_onl_8_timeout_needs_a_time_limit():
    # rule ONL-8 (ONL-10: no time limit by default): a timed-out shot is refused without one
    _both_raise(broken(online.new_game()), ShotOutcome(timed_out=True), "no time limit .*turn_time is None")
    _both_raise(broken(icf.new_game()), ShotOutcome(timed_out=True), "no time limit")
    timed = broken(online.new_game(rules=online.OnlineHouseRules(turn_time=60)))
    assert "ONL-8" in adjudicate(timed, ShotOutcome(timed_out=True)).applied


def test_pockets_by_index_or_name_are_accepted(game):
    # rules ICF-4, CRK-2: a pocket named as on the board (the crokinole hole also "centre")
    assert_arrays_agree([game, game], [ShotOutcome(pocketed=[(3, "white", "sw", 0.1)]), ShotOutcome(pocketed=[(3, "white", 3, 0.1)])])
    s = crokinole.new_game()
    for hole in ("20", "centre", 0):
        out = ShotOutcome(striker=0, striker_fate="pocketed", pocketed=[(0, "dark", hole, 1.0)])
        assert crokinole.adjudicate(s, out).state.piece(0).where == "hole"
