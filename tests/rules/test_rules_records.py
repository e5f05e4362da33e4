"""ShotOutcome and GameState records: validation, JSON round trips, bad inputs."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from carromlab.rules import GameState, Piece, Pocketing, ShotOutcome, adjudicate, crokinole, hikone, icf, online
from carromlab.rules.icf import ICFOptions

from .rules_testkit import broken, play, pocket, shot


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
        ({"cushion_first": 1}, "cushion_first"),
        ({"striker_touched": (3,), "touched_before_frame": (4,)}, "touched_before_frame"),
        ({"striker_touched": (3,), "touched_before_frame": (3, 3)}, "repeat"),
        ({"final_positions": pd.DataFrame({"id": [1]})}, "final_positions"),
        ({"final_positions": pd.DataFrame({"id": [1], "kind": ["white"], "x": [float("nan")], "y": [0.0], "on_board": [True]})}, "final_positions.x"),
    ],
)
def test_outcome_bad_fields_name_the_parameter(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ShotOutcome(**kwargs)


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
    with pytest.raises(ValueError, match="no ditch"):
        adjudicate(game, ShotOutcome(striker_fate="ditch"))
    with pytest.raises(ValueError, match="no ditch"):
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
    with pytest.raises(ValueError, match="board"):
        icf.check_placement(game, 0.0, 0.0, 0.02, board="icf")


@pytest.mark.parametrize(
    ("factory", "match"),
    [
        (lambda: icf.new_game(3), "players"),
        (lambda: icf.new_game(options="x"), "options"),
        (lambda: hikone.new_game(5), "players"),
        (lambda: crokinole.new_game(3), "players"),
        (lambda: ICFOptions(own_last_coin="nobody"), "own_last_coin"),
        (lambda: crokinole.CrokinoleOptions(discs_per_player=0), "discs_per_player"),
        (lambda: hikone.HikoneOptions(void_pucks_with_jack=1), "void_pucks_with_jack"),
        (lambda: hikone.HikoneOptions(every_direct_hit="yes"), "every_direct_hit"),
    ],
)
def test_bad_game_setup_names_the_parameter(factory, match):
    with pytest.raises(ValueError, match=match):
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
    state = r.state.with_(queen_status="pending", queen_team=0, board_history=((3, 0),), game_scores=(3, -3))
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
