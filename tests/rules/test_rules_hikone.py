"""Scripted Hikone shots: one or more tests per rule HIK-1..HIK-11."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from carromlab.rules import GameState, ShotOutcome, hikone
from carromlab.rules.hikone import HikoneOptions

from .rules_testkit import ids, move, play, put, shot

R_STRIKER = 0.01525
JACK = 0


@pytest.fixture
def game():
    return hikone.new_game()


def all_but(state, colour, left):
    """Pocket every puck of ``colour`` but the first ``left``."""
    return move(state, "pocketed", *ids(state, colour)[left:])


# ---------------------------------------------------------------------------- HIK-1
def test_hik_1_setup_alternating_on_centre_circle_jack_on_spot(game):
    pos = game.positions()
    pucks = pos[pos["kind"] != "jack"]
    assert game.count("red") == game.count("green") == 12
    assert np.allclose(np.hypot(pucks["x"], pucks["y"]), game.board.marks.centre_circle_radius)
    order = pucks.assign(a=np.mod(np.arctan2(pucks["y"], pucks["x"]), 2 * np.pi)).sort_values("a")["kind"].tolist()
    assert all(order[i] != order[i + 1] for i in range(23))
    assert (game.piece(JACK).kind, game.piece(JACK).x, game.piece(JACK).y) == ("jack", 0.0, 0.0)
    assert game.colours == ("red", "green") and game.shooter == 0 and game.striker_id == 25


# ---------------------------------------------------------------------------- HIK-2
def test_hik_2_first_shot_from_own_tee_spot(game):
    tee = game.board.area_line("south").tee_spot
    assert hikone.check_placement(game, tee.x, tee.y, R_STRIKER).ok
    verdict = hikone.check_placement(game, tee.x + 0.05, tee.y, R_STRIKER)
    assert not verdict.ok and verdict.rule == "HIK-2"
    assert verdict.distance == pytest.approx(0.05 - tee.radius, abs=1e-6)


def test_hik_2_blocked_tee_spot_striker_touches_its_outline(game):
    tee = game.board.area_line("south").tee_spot
    s = put(game, 1, tee.x, tee.y)
    assert not hikone.check_placement(s, tee.x, tee.y, R_STRIKER).ok
    x, y = hikone.snap_placement(s, tee.x + 0.001, tee.y, R_STRIKER)
    d = math.hypot(x - tee.x, y - tee.y)
    assert d <= tee.radius + R_STRIKER + 1e-9 and d >= R_STRIKER + s.radius("red") - 1e-9


def test_hik_2_later_shots_on_the_area_line(game):
    line = game.board.area_line("south").line
    s = game.with_(seat_shots=(1, 0))
    assert hikone.check_placement(s, 0.1, line.y0, R_STRIKER).ok
    assert not hikone.check_placement(s, 0.1, line.y0 + 0.03, R_STRIKER).ok
    # the first shot pocketed an own puck: the second comes from the area line
    r = hikone.adjudicate(game, shot(game, 1))
    assert r.turn_continues and r.state.seat_shots == (1, 0)
    assert hikone.check_placement(r.state, 0.1, line.y0, R_STRIKER).ok


def test_hik_2_doubles_striker_may_not_touch_a_puck_inside_own_area():
    s = put(hikone.new_game(4), 1, 0.1, -0.26)
    line = s.board.area_line("south").line
    x = 0.1 + R_STRIKER + s.radius("red")  # touching the puck, on the line
    assert not hikone.check_placement(s.with_(seat_shots=(1, 0, 0, 0)), x, -0.26 + 0.0, R_STRIKER).ok
    singles = put(hikone.new_game(), 1, 0.1, -0.26).with_(seat_shots=(1, 0))
    assert hikone.check_placement(singles, x, line.y0 - 0.01, R_STRIKER).ok


# ---------------------------------------------------------------------------- HIK-3
def test_hik_3_own_puck_continues_once_however_many(game):
    r = hikone.adjudicate(game, shot(game, 1, 3, 5))
    assert r.turn_continues and r.state.shot_in_turn == 1 and "HIK-3" in r.applied


def test_hik_3_opponent_puck_is_a_service_and_turn_passes_clockwise():
    s = hikone.new_game(4)
    r = hikone.adjudicate(s, shot(s, 2))
    assert not r.turn_continues and r.next_shooter == 1 and s.seat_sides[1] == "west"
    assert r.state.count("green", "pocketed") == 1


# ---------------------------------------------------------------------------- HIK-4, HIK-11
def test_hik_4_jack_after_all_own_pucks_wins(game):
    s = all_but(all_but(game, "red", 0), "green", 5)
    r = hikone.adjudicate(s, shot(s, JACK))
    assert r.board_over and r.game_over and r.game_winner == 0 and "HIK-4" in r.applied


def test_hik_11_score_112_and_12_minus_pucks_left(game):
    s = all_but(all_but(game, "red", 0), "green", 5)
    r = hikone.adjudicate(s, shot(s, JACK))
    assert r.board_points == (112, 7) and r.game_scores == (112, 7) and "HIK-11" in r.applied


# ---------------------------------------------------------------------------- HIK-5
def test_hik_5_early_jack_returns_five_pucks_and_jack_on_spot(game):
    s = all_but(game, "red", 4)  # 8 red pucks in the pockets
    r = hikone.adjudicate(s, shot(s, JACK))
    assert "HIK-5" in {f.rule for f in r.fouls} and not r.turn_continues
    assert r.state.count("red", "pocketed") == 3 and r.state.count("red") == 9
    jack = r.state.piece(JACK)
    assert (jack.x, jack.y) == (0.0, 0.0)  # the jack on top stays on the jack spot
    assert r.returned[0].piece_id == JACK


def test_hik_5_missing_pucks_become_a_debt(game):
    s = all_but(game, "red", 10)  # 2 pocketed
    r = hikone.adjudicate(s, shot(s, JACK))
    assert r.dues == (3, 0) and r.state.count("red", "pocketed") == 0
    # the next red pucks to fall pay the debt, whoever pockets them
    s2 = r.state.with_(shooter=1)
    r2 = hikone.adjudicate(s2, shot(s2, ids(s2, "red")[0]))
    assert r2.dues == (2, 0) and r2.state.count("red", "pocketed") == 0


@pytest.mark.parametrize("where", ["left_board", "on_frame"])
def test_hik_5_jack_off_the_board_or_on_the_frame(game, where):
    s = all_but(game, "red", 4)
    r = hikone.adjudicate(s, ShotOutcome(striker_touched=(JACK,), **{where: (JACK,)}))
    assert "HIK-5" in {f.rule for f in r.fouls} and r.state.count("red", "pocketed") == 3



@pytest.mark.parametrize("where", ["left_board", "on_frame"])
def test_hik_5_jack_off_the_board_after_all_own_pucks_is_no_win(game, where):
    """Rule HIK-5 by hand: the jack leaving the board or landing on the frame is a jack
    penalty whoever has pucks left: with all 12 reds in, red does not win; 5 reds go back
    with the jack on the jack spot and the turn passes."""
    s = all_but(game, "red", 0)
    r = hikone.adjudicate(s, ShotOutcome(striker_touched=(JACK,), **{where: (JACK,)}))
    assert not r.board_over and [f.rule for f in r.fouls] == ["HIK-5"] and not r.turn_continues
    assert r.state.count("red", "pocketed") == 7 and r.dues == (0, 0)
    assert (r.returned[0].piece_id, r.returned[0].x, r.returned[0].y) == (JACK, 0.0, 0.0)

# ---------------------------------------------------------------------------- HIK-6
def test_hik_6_last_puck_and_jack_same_shot_no_win_six_back(game):
    s = all_but(game, "red", 1)  # 11 in, one on the board
    r = hikone.adjudicate(s, shot(s, ids(s, "red")[0], JACK))
    assert not r.board_over and "HIK-6" in {f.rule for f in r.fouls}
    assert r.state.count("red", "pocketed") == 6  # 12 - 6
    assert len(r.returned) == 7  # the jack and 6 pucks


def test_hik_6_default_voids_only_the_last_pucks_hik_5_otherwise(game):
    """rule HIK-6 / HIK-5: the digest voids the pucks pocketed with the jack only when they
    were the shooter's last ones (HIK-6 "Last own puck(s) and jack"); an earlier jack with
    own pucks is HIK-5 alone: those pucks count (HIK-3) and 5 pocketed pucks go back."""
    s = all_but(game, "red", 4)  # 8 red pucks pocketed
    r = hikone.adjudicate(s, shot(s, ids(s, "red")[0], JACK))
    assert "HIK-6" not in {f.rule for f in r.fouls} and "HIK-5" in {f.rule for f in r.fouls}
    assert r.state.count("red", "pocketed") == 9 - 5 and r.dues == (0, 0) and not r.turn_continues
    # with fewer pucks down the one pocketed with the jack is among the 5: 3 + 1 back, 1 owed
    s = all_but(game, "red", 9)  # 3 pocketed
    r = hikone.adjudicate(s, shot(s, ids(s, "red")[0], JACK))
    assert r.state.count("red", "pocketed") == 0 and r.dues == (1, 0)


def test_hik_6_option_voids_own_pucks_with_any_early_jack(game):
    # rule HIK-6, the other reading (seed 001's sentence taken for any shot): documented option
    s = all_but(game, "red", 4).with_(options=HikoneOptions(void_pucks_with_jack=True))
    r = hikone.adjudicate(s, shot(s, ids(s, "red")[0], JACK))
    assert "HIK-6" in {f.rule for f in r.fouls}
    assert r.state.count("red", "pocketed") == 8 - 5
    default = hikone.adjudicate(s.with_(options=HikoneOptions()), shot(s, ids(s, "red")[0], JACK))
    assert default.state.count("red", "pocketed") == 9 - 5


# ---------------------------------------------------------------------------- HIK-7
@pytest.mark.parametrize("fate", ["pocketed", "off_board", "frame"])
def test_hik_7_striker_foul_voids_own_pucks_costs_one_and_passes(game, fate):
    s = all_but(game, "red", 10)  # 2 pocketed
    pocketed = shot(s, 3, 2).pocketed + ((25, "striker", 1, 0.5),) if fate == "pocketed" else shot(s, 3, 2).pocketed
    r = hikone.adjudicate(s, ShotOutcome(pocketed=pocketed, striker_fate=fate, striker_touched=(3,)))
    assert "HIK-7" in {f.rule for f in r.fouls} and not r.turn_continues
    assert r.state.count("red", "pocketed") == 1  # 2 + 1 void, then 1 back + the void one
    assert r.state.count("green", "pocketed") == 1  # the opponent's puck stays (service)


def test_hik_7_debt_when_no_puck_to_return(game):
    r = hikone.adjudicate(game, ShotOutcome(striker_fate="frame"))
    assert r.dues == (1, 0)


def test_hik_7_debt_is_paid_citing_hik_7_not_hik_5(game):
    """rule HIK-7: the puck the striker foul could not send back is owed; the red puck
    that pays it later goes back under HIK-7, the rule the debt came from (not HIK-5)."""
    r = hikone.adjudicate(game, ShotOutcome(striker_fate="frame"))
    assert r.dues == (1, 0)
    s = r.state  # green (seat 1) pockets a red puck: it pays red's debt
    red = ids(s, "red")[0]
    r2 = hikone.adjudicate(s, shot(s, red))
    assert [(p.piece_id, p.rule) for p in r2.returned] == [(red, "HIK-7")]
    assert r2.applied == ("HIK-3", "HIK-7") and r2.fouls == ()
    assert r2.dues == (0, 0) and r2.state.piece(red).where == "board"
    assert r.state.dues_from == (0b010, 0) and r2.state.dues_from == (0, 0)  # bit 1: DEBT_RULES[1] == "HIK-7"


def test_hik_5_and_hik_7_debts_are_paid_citing_both_in_rule_order(game):
    """rules HIK-5, HIK-7: a debt of a striker foul, then of an early jack; the pucks
    paying cite both origins, in rule-id order, until the debt is paid off."""
    s = hikone.adjudicate(game, ShotOutcome(striker_fate="frame")).state.with_(shooter=0)
    r = hikone.adjudicate(s, shot(s, JACK))  # no red puck in the pockets: 5 more owed
    assert r.dues == (6, 0) and r.state.dues_from == (0b011, 0)
    s = r.state.with_(shooter=0)
    first = ids(s, "red")[:2]
    r = hikone.adjudicate(s, shot(s, *first))
    assert r.dues == (4, 0) and r.state.dues_from == (0b011, 0)  # partly paid: both origins kept
    assert r.applied == ("HIK-3", "HIK-5", "HIK-7") and [p.rule for p in r.returned] == ["HIK-5", "HIK-5"]
    s = r.state
    rest = ids(s, "red")[:4]
    r = hikone.adjudicate(s, shot(s, *rest))
    assert r.dues == (0, 0) and r.state.dues_from == (0, 0)  # paid off: the origins forgotten
    assert r.applied == ("HIK-3", "HIK-5", "HIK-7")
    # a new debt cites only its own rule
    r = hikone.adjudicate(r.state, ShotOutcome(striker_fate="pocketed", pocketed=((25, "striker", 0, 0.5),)))
    assert r.state.dues_from == (0b010, 0)


def test_dues_from_survive_json_and_old_json_debts_cite_hik_5(game):
    """rules HIK-5, HIK-7: the debts' origins round-trip through JSON; a state saved
    before they were kept loads with none, and its debt is paid citing HIK-5 (as before)."""
    s = hikone.adjudicate(game, ShotOutcome(striker_fate="frame")).state
    text = s.to_json()
    back = GameState.from_json(text)
    assert back == s and back.dues_from == (0b010, 0) and back.to_json() == text
    body = json.loads(text)
    del body["dues_from"]
    old = GameState.from_json(json.dumps(body))
    assert old.dues == (1, 0) and old.dues_from == (0, 0)
    red = ids(old, "red")[0]
    r = hikone.adjudicate(old, shot(old, red))
    assert r.dues == (0, 0) and [p.rule for p in r.returned] == ["HIK-5"] and r.applied == ("HIK-3",)


def test_dues_from_must_be_a_mask_of_a_hikone_debt(game):
    # rules HIK-5, HIK-7, HIK-9 (a mask over the three), ICF-11 (carrom dues keep no origin)
    with pytest.raises(ValueError, match="'dues_from' parameter .* Got 1 for team 0 \\(dues 0"):
        game.with_(dues_from=(1, 0))
    with pytest.raises(ValueError, match="'dues_from' parameter .* Got 8 for team 1"):
        game.with_(dues=(0, 2), dues_from=(0, 8))
    with pytest.raises(ValueError, match="'dues_from' parameter must have 2 entries"):
        game.with_(dues_from=(0,))
    from carromlab.rules import icf

    with pytest.raises(ValueError, match="variant 'icf'"):
        icf.new_game().with_(dues=(1, 0), dues_from=(1, 0))
    assert game.with_(dues=(1, 3), dues_from=(0b101, 0b111)).dues_from == (5, 7)


# ---------------------------------------------------------------------------- HIK-8
def test_hik_8_puck_off_the_board_returns_without_penalty(game):
    r = hikone.adjudicate(game, ShotOutcome(pocketed=shot(game, 1).pocketed, left_board=(2, 3), striker_touched=(1,)))
    assert r.fouls == () and r.turn_continues and "HIK-8" in r.applied
    placed = {p.piece_id: p for p in r.returned}
    assert set(placed) == {2, 3}
    # the opponent's puck goes underneath: placed first, nearest the jack spot
    assert [p.piece_id for p in r.returned] == [2, 3]


def test_hik_8_puck_on_the_frame_returns(game):
    r = hikone.adjudicate(game, ShotOutcome(on_frame=(4,), striker_touched=(4,)))
    assert r.state.piece(4).where == "board" and r.returned[0].rule == "HIK-8"


# ---------------------------------------------------------------------------- HIK-9
@pytest.fixture
def doubles():
    return put(hikone.new_game(4), 1, 0.1, -0.26)  # red puck 1 wholly inside south's area


def test_hik_9_direct_hit_inside_own_area_voids_the_shot(doubles):
    s = move(doubles, "pocketed", 3)
    r = hikone.adjudicate(s, shot(s, 1, 5))
    assert "HIK-9" in {f.rule for f in r.fouls} and not r.turn_continues
    assert r.state.piece(1).position == (0.1, -0.26) and r.state.piece(5).where == "board"  # restored
    assert r.state.count("red", "pocketed") == 0  # puck 3 went back as the penalty


def test_hik_9_allowed_via_the_frame_or_on_the_line_or_in_singles(doubles):
    assert hikone.adjudicate(doubles, shot(doubles, 1, cushion_first=True, touched_before_frame=())).fouls == ()
    line_y = doubles.board.area_line("south").line.y0
    on_line = put(doubles, 1, 0.1, line_y - 0.01)
    assert hikone.adjudicate(on_line, shot(on_line, 1)).fouls == ()
    singles = put(hikone.new_game(), 1, 0.1, -0.26)
    assert hikone.adjudicate(singles, shot(singles, 1)).fouls == ()


def test_hik_9_debt_is_paid_citing_hik_9(doubles):
    """rule HIK-9: the penalty puck of a direct hit, owed when red has none pocketed, is
    paid by the next red puck to fall, which goes back under HIK-9."""
    r = hikone.adjudicate(doubles, ShotOutcome(striker_touched=(1, 5)))
    assert r.dues == (1, 0) and r.state.dues_from == (0b100, 0)
    s = r.state  # seat 1 (green) pockets a red puck after a frame: no direct hit
    red = ids(s, "red")[1]
    r2 = hikone.adjudicate(s, shot(s, red, touched_before_frame=()))
    assert r2.fouls == () and [(p.piece_id, p.rule) for p in r2.returned] == [(red, "HIK-9")]
    assert r2.applied == ("HIK-3", "HIK-9") and r2.dues == (0, 0) and r2.state.dues_from == (0, 0)


def test_hik_9_after_a_first_hit_outside_the_area_the_next_hits_are_indirect(doubles):
    """rule HIK-9 (seed 001: "indirectly, by first hitting a puck outside the area line"):
    the striker hits puck 5 outside the area, then puck 1 inside it: allowed. A first
    hit on puck 1 is a foul, also when puck 5 follows."""
    assert hikone.adjudicate(doubles, ShotOutcome(striker_touched=(5, 1))).fouls == ()
    r = hikone.adjudicate(doubles, ShotOutcome(striker_touched=(1, 5)))
    assert [f.rule for f in r.fouls] == ["HIK-9"] and not r.turn_continues and r.next_shooter == 1
    # a side or front frame before the first contact makes it indirect too
    assert hikone.adjudicate(doubles, ShotOutcome(striker_touched=(1,), touched_before_frame=())).fouls == ()


def test_hik_9_option_every_direct_hit_counts_unless_the_frame_came_between(doubles):
    """rule HIK-9, the stricter reading (HikoneOptions(every_direct_hit=True)): the
    striker's hit on puck 1 inside the area after a first hit on puck 5 outside it is
    still direct, unless a side or front frame came between (``touched_before_frame``
    stops before puck 1)."""
    s = doubles.with_(options=HikoneOptions(every_direct_hit=True))
    later = ShotOutcome(striker_touched=(5, 1))
    assert later.touched_before_frame == (5, 1)
    r = hikone.adjudicate(s, later)
    assert [f.rule for f in r.fouls] == ["HIK-9"] and not r.turn_continues and r.next_shooter == 1
    framed = ShotOutcome(striker_touched=(5, 1), touched_before_frame=(5,))
    assert hikone.adjudicate(s, framed).fouls == ()


def test_hik_9_a_cushion_first_must_say_which_frame_in_doubles(doubles):
    """rule HIK-9: ``cushion_first`` alone does not say whether the striker bounced off
    its own frame (the hit stays direct: a foul) or off a side or front frame (indirect):
    Hikone doubles refuse a scripted outcome that leaves ``touched_before_frame`` to be
    derived, in both paths; singles (no HIK-9) and the other variants ignore it."""
    from carromlab.rules.arrays import GameArrays, OutcomeArrays, adjudicate_arrays

    unsaid = ShotOutcome(striker_touched=(1,), cushion_first=True)
    assert unsaid.touched_before_frame is None
    match = "'outcome.touched_before_frame' parameter must be given in Hikone doubles when cushion_first is True.*Got None"
    with pytest.raises(ValueError, match=match):
        hikone.adjudicate(doubles, unsaid)
    games = GameArrays.from_states([doubles])
    with pytest.raises(ValueError, match=match.replace("outcome", "outcomes\\[0\\]")):
        adjudicate_arrays(games, OutcomeArrays.from_outcomes([unsaid], games))
    own_frame = ShotOutcome(striker_touched=(1,), cushion_first=True, touched_before_frame=(1,))
    assert [f.rule for f in hikone.adjudicate(doubles, own_frame).fouls] == ["HIK-9"]
    assert hikone.adjudicate(put(hikone.new_game(), 1, 0.1, -0.26), unsaid).fouls == ()
    assert ShotOutcome(cushion_first=True).touched_before_frame == ()  # nothing touched: nothing unknown


@pytest.mark.parametrize("pid", [JACK, 2], ids=["jack", "opponent puck"])
def test_hik_9_the_jack_or_either_colour_inside_counts(doubles, pid):
    """rule HIK-9: a puck of either colour or the jack lying wholly inside the own area."""
    s = put(doubles, pid, -0.1, -0.265)
    r = hikone.adjudicate(s, ShotOutcome(striker_touched=(pid, 5)))
    assert [f.rule for f in r.fouls] == ["HIK-9"]
    assert r.state.piece(pid).position == (-0.1, -0.265)


@pytest.mark.parametrize(("overlap", "foul"), [(1e-4, False), (-1e-4, True)], ids=["over the line", "wholly inside"])
def test_hik_9_a_piece_partly_inside_is_on_the_line(doubles, overlap, foul):
    """rule HIK-9: a puck overlapping the area line seen from above (0.1 mm) may be hit
    directly; 0.1 mm short of the line it lies wholly inside."""
    line_y = doubles.board.area_line("south").line.y0
    s = put(doubles, 1, 0.1, line_y - doubles.radius("red") + overlap)
    r = hikone.adjudicate(s, ShotOutcome(striker_touched=(1,)))
    assert ("HIK-9" in r.rule_ids) == foul


# ---------------------------------------------------------------------------- HIK-10
def test_hik_10_at_time_fewer_pucks_wins_after_the_round(game):
    s = hikone.call_time(all_but(game, "red", 5))
    r1 = hikone.adjudicate(s, ShotOutcome())  # red finishes its turn: green still plays
    assert not r1.game_over
    r2 = hikone.adjudicate(r1.state, ShotOutcome(timed_out=True))  # green's shot clock runs out
    assert r2.game_over and r2.game_winner == 0 and r2.board_points == (7, 0) and "HIK-10" in r2.applied


def test_hik_10_equal_pucks_play_another_round(game):
    s = hikone.call_time(game)
    r = play(s, ShotOutcome(), ShotOutcome())
    assert not r.game_over and r.next_shooter == 0
    r2 = play(r.state, shot(r.state, 1), ShotOutcome(), ShotOutcome())
    assert r2.game_over and r2.game_winner == 0


def test_hik_10_hik_2_a_skipped_turn_keeps_the_seats_tee_spot_shot(game):
    # rules HIK-10, HIK-2: a turn skipped by the 10-second clock is no shot ("その手番は飛ばされる"),
    # so the seat's first shot, from its tee spot, is still to come
    r = hikone.adjudicate(game, ShotOutcome(timed_out=True))
    assert r.next_shooter == 1 and r.state.seat_shots == (0, 0) and r.state.board_shots == 0
    back = hikone.adjudicate(r.state, ShotOutcome()).state  # green shoots and misses: red again
    tee = game.board.area_line("south").tee_spot
    assert back.shooter == 0 and hikone.check_placement(back, tee.x, tee.y, R_STRIKER).ok
    line = game.board.area_line("south").line
    assert not hikone.check_placement(back, 0.1, line.y0, R_STRIKER).ok



def test_hik_10_doubles_play_on_to_the_fourth_seat(game):
    """Rule HIK-10 by hand (seed 001: in doubles play goes on to the 4th player, green):
    time is called on seat 0's turn with 5 reds and 12 greens on the board; seats 0, 1, 2
    miss and the game goes on; after seat 3 (east, green) the side with fewer pucks, red, wins."""
    s = hikone.call_time(all_but(hikone.new_game(4), "red", 5))
    for seat in range(3):
        r = hikone.adjudicate(s, ShotOutcome())
        assert not r.game_over and r.next_shooter == seat + 1
        s = r.state
    r = hikone.adjudicate(s, ShotOutcome())
    assert r.game_over and r.game_winner == 0 and r.board_points == (7, 0) and "HIK-10" in r.applied


def test_hik_1_two_or_four_players():
    """Rule HIK-1 (singles face each other; doubles partners face each other): 2 or 4 seats."""
    assert hikone.new_game().seat_sides == ("south", "north")
    doubles = hikone.new_game(4)
    assert [doubles.team_of(seat) for seat in range(4)] == [0, 1, 0, 1] and doubles.colours == ("red", "green")
    with pytest.raises(ValueError, match="'players' parameter must be 2 or 4. Got 3"):
        hikone.new_game(3)

def test_hik_10_call_time_needs_a_hikone_game_in_progress():
    from carromlab.rules import icf

    with pytest.raises(ValueError):
        hikone.call_time(icf.new_game())
