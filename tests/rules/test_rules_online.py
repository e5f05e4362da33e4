"""Scripted online-rules shots: one or more tests per rule ONL-1..ONL-10."""

from __future__ import annotations

import dataclasses
import math

import pytest

from carromlab.rules import GameState, ShotOutcome, online
from carromlab.rules.online import OnlineHouseRules

from .rules_testkit import assert_arrays_agree, broken, ids, move, play, put, shot

R_STRIKER = 0.02065


@pytest.fixture
def game():
    return broken(online.new_game())


def endgame(state, white_left, black_left, queen="board", queen_team=None):
    gone = ids(state, "white")[white_left:] + ids(state, "black")[black_left:]
    state = move(state, "pocketed", *gone)
    if queen != "board":
        state = move(state, "pocketed", 0)
    return state.with_(queen_status=queen, queen_team=queen_team)


def centre_line_y(state, side="south"):
    base = state.board.baseline(side)
    return base.centre.y0


# ---------------------------------------------------------------------------- ONL-1
def test_onl_1_striker_slides_on_the_baseline_and_snaps_clear_of_coins(game):
    y = centre_line_y(game)
    assert online.check_placement(game, 0.0, y, R_STRIKER).ok
    assert not online.check_placement(game, 0.0, y + 0.005, R_STRIKER).ok  # ICF-3 would accept this
    blocked = put(game, 1, 0.0, y)
    verdict = online.check_placement(blocked, 0.0, y, R_STRIKER)
    assert not verdict.ok and verdict.rule == "ONL-1"
    x2, y2 = online.snap_placement(blocked, 0.0, y, R_STRIKER)
    assert math.isclose(y2, y, abs_tol=1e-6)
    assert abs(x2) >= R_STRIKER + game.radius("white") - 1e-9
    assert abs(x2) <= R_STRIKER + game.radius("white") + 1e-3


def test_onl_1_end_circle_covered_fully_or_clear(game):
    circle = game.board.baseline("south").base_circles[0]
    assert online.check_placement(game, circle.x, circle.y, R_STRIKER).ok
    assert not online.check_placement(game, circle.x + 0.02, circle.y, R_STRIKER).ok


# ---------------------------------------------------------------------------- ONL-2
def test_onl_2_queen_with_first_own_coin_is_covered(game):
    r = online.adjudicate(game, shot(game, 0, 1))
    assert r.queen_status == "covered" and r.queen_team == 0 and "ONL-2" in r.applied


def test_onl_2_cover_on_the_next_shot_or_queen_returns(game):
    s = move(game, "pocketed", 1)
    r = online.adjudicate(s, shot(s, 0))
    assert r.queen_status == "pending" and r.turn_continues
    assert online.adjudicate(r.state, shot(r.state, 3)).queen_status == "covered"
    failed = online.adjudicate(r.state, ShotOutcome())
    assert failed.queen_status == "board" and failed.returned[0].piece_id == 0


def test_onl_2_failed_cover_cites_onl_2_not_the_striker_rule(game):
    # rule ONL-2: the queen returns under ONL-2; ONL-3 (striker pocketed, its coins on the
    # outer circle) is cited only when the striker falls or a due is paid
    s = move(game, "pocketed", 0, 1).with_(queen_status="pending", queen_team=0)
    failed, foul = shot(s), shot(s, 19)
    r = online.adjudicate(s, failed)
    assert r.applied == ("ONL-2",) and [(p.piece_id, p.rule) for p in r.returned] == [(0, "ONL-2")]
    r2 = online.adjudicate(s, foul)
    # the queen is placed first, so that it takes the centre (rule ONL-2: it returns to the centre)
    assert r2.applied == ("ONL-3", "ONL-2") and [(p.piece_id, p.rule) for p in r2.returned] == [(0, "ONL-2"), (1, "ONL-3")]
    owing = game.with_(dues=(1, 0))
    paid = shot(owing, 1)
    assert online.adjudicate(owing, paid).applied == ("ONL-4", "ONL-3")
    assert_arrays_agree([s, s, owing], [failed, foul, paid])


def test_onl_2_onl_3_queen_returns_to_the_centre_before_the_penalty_coin(game):
    # rules ONL-2, ONL-3: the striker falls on the cover shot: the queen goes back to the
    # centre spot and the penalty coin beside it, on the outer circle (coin 2 of the break
    # layout, which overlaps the centre spot by 3e-18 m of rounding, is pocketed)
    s = move(game, "pocketed", 0, 1, 2).with_(queen_status="pending", queen_team=0)
    r = online.adjudicate(s, shot(s, 19))
    (queen, coin) = r.returned
    assert (queen.piece_id, queen.x, queen.y) == (0, 0.0, 0.0) and coin.piece_id == 1 and (coin.x, coin.y) != (0.0, 0.0)


def test_onl_2_queen_alone_before_any_own_coin_returns(game):
    r = online.adjudicate(game, shot(game, 0))
    assert r.queen_status == "board" and r.returned[0].piece_id == 0


# ---------------------------------------------------------------------------- ONL-3
def test_onl_3_striker_alone_returns_one_coin_to_outer_circle_and_passes(game):
    s = move(game, "pocketed", 1)
    r = online.adjudicate(s, shot(s, 19))
    assert [f.rule for f in r.fouls] == ["ONL-3"] and not r.turn_continues
    (placed,) = r.returned
    outer = game.board.marks.outer_circle_radius
    assert math.hypot(placed.x, placed.y) < outer + game.radius("white")


def test_onl_3_striker_with_own_coin_or_queen_comes_back_and_shoots_again(game):
    s = move(game, "pocketed", 1)
    r = online.adjudicate(s, shot(s, 3, 19))
    assert r.turn_continues and sorted(p.piece_id for p in r.returned) == [1, 3]
    r2 = online.adjudicate(s, shot(s, 0, 19))
    assert r2.turn_continues and r2.queen_status == "board"
    assert sorted(p.piece_id for p in r2.returned) == [0, 1]


def test_onl_3_no_coin_available_next_own_coin_is_returned(game):
    r = online.adjudicate(game, shot(game, 19))
    assert r.dues == (1, 0)
    s = r.state.with_(shooter=0)
    r2 = online.adjudicate(s, shot(s, 5))
    assert r2.dues == (0, 0) and r2.state.piece(5).where == "board"


def test_onl_3_due_is_paid_only_by_the_owing_players_own_pocketed_coin(game):
    # rules ONL-3, ONL-4: seed 002 says "return the next coin you pocket": a white coin
    # that black pockets stays pocketed for white (ONL-4) and white still owes the coin
    s = game.with_(dues=(1, 0), shooter=1)
    r = online.adjudicate(s, ShotOutcome(pocketed=[(1, "white", "sw", 0.5)]))
    assert r.state.piece(1).where == "pocketed" and r.dues == (1, 0) and r.returned == () and r.applied == ("ONL-4",)


@pytest.mark.parametrize(("queen", "fouls"), [("board", ["ONL-5"]), ("covered", [])])
def test_onl_5_opponents_last_coin_ends_the_board_even_when_the_opponent_owes(game, queen, fouls):
    # rules ONL-5, ONL-3: white owes a coin; black pockets white's last coin, which pays
    # nothing (only white's own shot does): before the cover black loses the board, after
    # the cover white wins it (seed FAQ)
    s = endgame(game, 1, 3, queen=queen, queen_team=None if queen == "board" else 1).with_(dues=(1, 0), shooter=1)
    r = online.adjudicate(s, shot(s, ids(s, "white")[0]))
    assert r.board_over and r.board_winner == 0 and [f.rule for f in r.fouls] == fouls


# ---------------------------------------------------------------------------- ONL-4
def test_onl_4_only_opponent_coins_pass_and_count_for_opponent(game):
    r = online.adjudicate(game, shot(game, 2))
    assert not r.turn_continues and r.state.count("black", "pocketed") == 1 and "ONL-4" in r.applied


# ---------------------------------------------------------------------------- ONL-5
@pytest.mark.parametrize("colour", ["white", "black"])
def test_onl_5_either_last_coin_before_cover_loses(game, colour):
    s = endgame(game, 1, 1)
    r = online.adjudicate(s, shot(s, ids(s, colour)[0]))
    assert r.board_over and r.board_winner == 1 and "ONL-5" in r.rule_ids


def test_onl_5_opponents_last_coin_after_cover_lets_opponent_win(game):
    s = endgame(game, 2, 1, queen="covered", queen_team=0)
    r = online.adjudicate(s, shot(s, ids(s, "black")[0]))
    assert r.board_winner == 1 and r.board_points == (0, 5)  # 2 white coins left + queen


# ---------------------------------------------------------------------------- ONL-6
def test_onl_6_queen_points_go_to_winner_whoever_covered(game):
    s = endgame(game, 1, 4, queen="covered", queen_team=1)
    r = online.adjudicate(s, shot(s, ids(s, "white")[0]))
    assert r.board_points == (7, 0) and "ONL-6" in r.applied


def test_onl_6_no_queen_points_from_22_and_board_worth_at_least_1(game):
    s = endgame(game, 1, 0, queen="covered", queen_team=0).with_(game_scores=(22, 0))
    r = online.adjudicate(s, shot(s, ids(s, "white")[0]))
    assert r.board_points == (1, 0)  # no black left, no queen points: still 1


# ---------------------------------------------------------------------------- ONL-7
def test_onl_7_first_to_25(game):
    s = endgame(game, 1, 3, queen="covered", queen_team=0).with_(game_scores=(19, 0))
    r = online.adjudicate(s, shot(s, ids(s, "white")[0]))
    assert r.game_over and r.game_scores == (25, 0)


def test_onl_7_tie_after_8_boards_plays_extra_boards(game):
    s = endgame(game, 1, 1, queen="covered", queen_team=1).with_(game_scores=(10, 14), board_number=8)
    r = online.adjudicate(s, shot(s, ids(s, "white")[0]))
    assert r.game_scores == (14, 14) and not r.game_over and r.state.board_number == 9
    assert "ONL-7" in r.applied



def test_onl_7_still_tied_after_an_extra_board_plays_another(game):
    """Rule ONL-7 by hand: "extra boards are played until one side leads". White wins
    board 9 by 1 black left + the queen's 3 (ONL-6, covered by black): 10 + 4 = 14 against
    14, tied again, so board 10 is played; the same board from 12 - 14 gives 16 - 14 and
    ends the game."""
    s = endgame(game, 1, 1, queen="covered", queen_team=1).with_(game_scores=(10, 14), board_number=9)
    r = online.adjudicate(s, shot(s, ids(s, "white")[0]))
    assert r.board_points == (4, 0) and r.game_scores == (14, 14) and not r.game_over and r.state.board_number == 10
    s = s.with_(game_scores=(12, 14), board_number=10)
    r = online.adjudicate(s, shot(s, ids(s, "white")[0]))
    assert r.game_over and r.game_scores == (16, 14) and r.game_winner == 0


def test_onl_7_leader_after_8_boards_wins(game):
    s = endgame(game, 1, 1, queen="covered", queen_team=1).with_(game_scores=(10, 16), board_number=8)
    r = online.adjudicate(s, shot(s, ids(s, "white")[0]))
    assert r.game_over and r.game_winner == 1


# ---------------------------------------------------------------------------- ONL-8
@pytest.fixture
def timed():
    return broken(online.new_game(rules=OnlineHouseRules(turn_time=30)))


def test_onl_8_timeout_passes_the_turn_without_returning_a_coin(timed):
    s = move(timed, "pocketed", 1, 3)
    r = online.adjudicate(s, ShotOutcome(timed_out=True))
    assert r.next_shooter == 1 and r.returned == () and r.fouls == () and "ONL-8" in r.applied
    assert r.state.count("white", "pocketed") == 2


def test_onl_8_onl_9_a_timed_out_opening_leaves_the_opponent_a_full_opening():
    # rules ONL-8, ONL-9: a turn that runs out is passed "without a shot", so the board has
    # still had no shot: the opponent's opening that misses every coin is retaken, with
    # all its attempts (the breaker's retake before the timeout is not counted against it)
    s = online.new_game(rules=OnlineHouseRules(turn_time=30))
    retaken = online.adjudicate(s, ShotOutcome())
    r = online.adjudicate(retaken.state, ShotOutcome(timed_out=True))
    assert r.next_shooter == 1 and (r.state.board_shots, r.state.break_attempts, r.state.seat_shots) == (0, 0, (0, 0))
    r3 = play(r.state, ShotOutcome(), ShotOutcome())
    assert r3.retake and r3.state.break_attempts == 2 and r3.next_shooter == 1 and "ONL-9" in r3.applied


def test_onl_8_timeout_does_not_count_as_a_shot(timed):
    # rule ONL-8: board_shots and seat_shots count shots; a timed-out turn is none
    s = timed.with_(seat_shots=(3, 2), board_shots=5)
    r = online.adjudicate(s, ShotOutcome(timed_out=True))
    assert (r.state.board_shots, r.state.seat_shots, r.state.shot_in_turn) == (5, (3, 2), 0)


def test_onl_8_timeout_on_the_cover_shot_returns_the_queen(timed):
    s = move(timed, "pocketed", 1)
    pending = online.adjudicate(s, shot(s, 0)).state
    r = online.adjudicate(pending, ShotOutcome(timed_out=True))
    assert r.queen_status == "board"


# ---------------------------------------------------------------------------- ONL-9
def test_onl_9_opening_miss_gets_two_more_attempts():
    s = online.new_game()
    r = play(s, ShotOutcome())
    assert r.retake and r.state.break_attempts == 1 and "ONL-9" in r.applied
    r3 = play(s, ShotOutcome(), ShotOutcome(), ShotOutcome())
    assert not r3.retake and r3.next_shooter == 1


def test_onl_9_opening_miss_with_striker_dropped_passes_nothing_returned():
    s = online.new_game()
    r = online.adjudicate(s, ShotOutcome(striker_fate="pocketed"))
    assert not r.retake and r.next_shooter == 1 and r.fouls == () and r.dues == (0, 0)
    # ONL-9 does not read ICF-16's baseline area: the same ruling whatever the outcome says of it
    behind = online.adjudicate(s, ShotOutcome(striker_fate="pocketed", striker_left_baseline=False))
    assert (behind.applied, behind.fouls, behind.next_shooter, behind.state) == (r.applied, r.fouls, r.next_shooter, r.state)


def test_onl_9_opening_that_touches_a_coin_counts():
    s = online.new_game()
    r = online.adjudicate(s, ShotOutcome(striker_touched=(4,)))
    assert not r.retake and r.state.board_shots == 1


# ---------------------------------------------------------------------------- ONL-10
def test_onl_10_powder_chooses_the_board_friction():
    # rule ONL-10: powder on (the default) is the powdered board every game already played
    # on, PhysicsParams() (mu 0.12); off, the unpowdered preset (mu 0.20, an [EST])
    from carromlab import PhysicsParams
    from carromlab.physics.params import POWDERS
    from carromlab.rules import game_physics, icf

    assert game_physics(online.new_game()) == PhysicsParams() and game_physics(online.new_game()) is game_physics(icf.new_game())
    bare = online.new_game(rules=OnlineHouseRules(powder=False))
    assert game_physics(bare) == PhysicsParams.from_powder("unpowdered") and game_physics(bare).mu == POWDERS["unpowdered"][0] == 0.2
    assert game_physics(bare).with_(mu=0.12) == PhysicsParams()  # only the friction changes


def test_onl_10_explicit_physics_win_unless_they_contradict_powder_off():
    # rule ONL-10: physics given describe the board and are used as given; a powdered
    # preset's friction under powder=False is a contradiction and raises
    from carromlab import PhysicsParams
    from carromlab.rules import game_physics

    measured = PhysicsParams(mu=0.23, e_disc=0.85)
    bare = online.new_game(rules=OnlineHouseRules(powder=False))
    assert game_physics(bare, measured) is measured
    unpowdered = PhysicsParams.from_powder("unpowdered")
    assert game_physics(online.new_game(), unpowdered) is unpowdered  # powder on (the default) takes any physics
    for powdered in (PhysicsParams(), PhysicsParams(e_disc=0.85), PhysicsParams.from_powder("starch")):
        with pytest.raises(ValueError, match=r"contradicts OnlineHouseRules\(powder=False\): its mu = 0\.(12|075)"):
            game_physics(bare, powdered)
    with pytest.raises(TypeError, match="params"):
        game_physics(bare, "unpowdered")


def test_onl_10_house_rule_defaults_follow_the_seed():
    rules = OnlineHouseRules()
    assert (rules.queen_points, rules.game_target, rules.powder, rules.turn_time, rules.next_board_first) == (3, 25, True, None, "alternate")
    assert rules.draw_value == 0.5
    assert {f.name for f in dataclasses.fields(rules)} >= {"queen_points", "game_target", "powder", "turn_time", "next_board_first"}


def test_onl_10_queen_points_and_target_are_configurable(game):
    s = endgame(game, 1, 2, queen="covered", queen_team=0).with_(options=OnlineHouseRules(queen_points=5, game_target=7))
    r = online.adjudicate(s, shot(s, ids(s, "white")[0]))
    assert r.board_points == (7, 0) and r.game_over


@pytest.mark.parametrize(
    ("first", "breaker", "expected"),
    [("alternate", 0, 1), ("alternate", 1, 0), ("loser", 0, 1), ("loser", 1, 1)],
)
def test_onl_10_first_player_on_the_next_board(game, first, breaker, expected):
    # white (seat 0) wins the board; black (seat 1) loses
    s = endgame(game, 1, 2, queen="covered", queen_team=0)
    s = s.with_(options=OnlineHouseRules(next_board_first=first), board_first=breaker)
    r = online.adjudicate(s, shot(s, ids(s, "white")[0]))
    assert r.next_shooter == expected and r.state.colours[expected] == "white"


def test_onl_10_ranked_draw_counts_half():
    done = online.new_game().with_(game_over=True, winner=None)
    assert online.match_points(done) == (0.5, 0.5)
    won = done.with_(winner=1)
    assert online.match_points(won) == (0.0, 1.0)
    with pytest.raises(ValueError):
        online.match_points(online.new_game())


@pytest.mark.parametrize(
    ("bad", "error"),
    [({"turn_time": 45}, ValueError), ({"queen_points": -1}, ValueError), ({"next_board_first": "winner"}, ValueError), ({"powder": "yes"}, TypeError)],
)
def test_onl_10_bad_house_rules_name_the_parameter(bad, error):
    with pytest.raises(error, match=next(iter(bad))):
        OnlineHouseRules(**bad)


def test_onl_10_house_rules_survive_json(game):
    s = game.with_(options=OnlineHouseRules(turn_time=30, powder=False))
    assert GameState.from_json(s.to_json()) == s
