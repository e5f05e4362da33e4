"""Scripted crokinole shots: one or more tests per rule CRK-1..CRK-5."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from carromlab.rules import ShotOutcome, crokinole
from carromlab.rules.crokinole import CrokinoleOptions

from .rules_testkit import ids, move, put

R_DISC = 0.015875


def play_disc(state, x=None, y=None, *, fate="board", chain=(), **kw):
    """The shooter plays their first disc in hand, ending at (x, y) (m) or per ``fate``."""
    disc = ids(state, state.colours[state.team_of(state.shooter)], "hand")[0]
    rows = {"id": [disc], "kind": [state.piece(disc).kind], "x": [x or 0.0], "y": [y or 0.0], "on_board": [fate == "board"]}
    pocketed = ((disc, state.piece(disc).kind, "centre", 1.0),) if fate == "pocketed" else ()
    return disc, ShotOutcome(striker=disc, striker_fate=fate, chain=chain, pocketed=pocketed,
                             final_positions=pd.DataFrame(rows) if fate == "board" else None, **kw)


@pytest.fixture
def game():
    return crokinole.new_game()


# ---------------------------------------------------------------------------- CRK-1
def test_crk_1_disc_must_touch_the_shooting_line_in_own_quadrant(game):
    radius = game.board.marks.shooting_line_radius
    assert crokinole.check_placement(game, 0.0, -radius, R_DISC).ok
    assert crokinole.check_placement(game, 0.0, -radius - 0.9 * R_DISC, R_DISC).ok
    inside = crokinole.check_placement(game, 0.0, -radius + 0.03, R_DISC)
    assert not inside.ok and inside.rule == "CRK-1"
    assert inside.distance == pytest.approx(0.03 - R_DISC, abs=1e-6)
    assert not crokinole.check_placement(game, radius, 0.0, R_DISC).ok  # east quadrant
    assert crokinole.check_placement(game.with_(shooter=1), 0.0, radius, R_DISC).ok


def test_crk_1_snap_clear_of_a_disc_on_the_line(game):
    radius = game.board.marks.shooting_line_radius
    s = put(move(game, "board", 12), 12, 0.0, -radius)
    x, y = crokinole.snap_placement(s, 0.0, -radius, R_DISC)
    assert math.hypot(x, y + radius) >= 2 * R_DISC - 1e-9
    assert crokinole.check_placement(s, x, y, R_DISC).ok


# ---------------------------------------------------------------------------- CRK-2
def test_crk_2_disc_in_the_hole_scores_20(game):
    disc, out = play_disc(game, fate="pocketed")
    r = crokinole.adjudicate(game, out)
    assert r.state.piece(disc).where == "hole" and "CRK-2" in r.applied
    assert crokinole.round_totals(r.state) == (20, 0)


@pytest.mark.parametrize(("dist", "stays"), [(0.05, True), (0.1016 + R_DISC, True), (0.1016 + R_DISC + 1e-4, False), (0.2, False)])
def test_crk_2_disc_must_reach_the_15_ring_or_touch_its_line(game, dist, stays):
    disc, out = play_disc(game, 0.0, -dist)
    r = crokinole.adjudicate(game, out)
    assert (r.state.piece(disc).where == "board") is stays
    assert ("CRK-2" in {f.rule for f in r.fouls}) is (not stays)
    assert r.next_shooter == 1


def test_crk_2_disc_flying_into_the_ditch_fails_the_15_ring_too(game):
    """Rule CRK-2 (seed 003, règle n°1: the disc "doit au moins finir sa course dans la zone
    des 15 points", else it is removed): a disc played on an empty board that flies past
    the rings into the ditch did not end in the 15 ring either, so it is the same CRK-2
    failure as one stopping in the 5 zone (as CRK-3 calls its foul whether the disc
    stops or leaves). It was ruled no foul, which foul_probabilities counted as a clean shot."""
    disc, out = play_disc(game, fate="ditch")
    r = crokinole.adjudicate(game, out)
    assert [f.rule for f in r.fouls] == ["CRK-2"] and r.applied == ("CRK-2",)
    assert r.state.piece(disc).where == "ditch" and r.next_shooter == 1
    # with only own discs on the board CRK-2 applies as well (seed: "uniquement des pions de sa propre couleur")
    s = put(move(game, "board", 1), 1, 0.0, 0.05)
    disc, out = play_disc(s, fate="ditch")
    assert [f.rule for f in crokinole.adjudicate(s, out).fouls] == ["CRK-2"]


# ---------------------------------------------------------------------------- CRK-3
def test_crk_3_must_hit_an_opponent_disc_directly_or_through_own(game):
    s = put(put(game, 12, 0.0, 0.15), 0, 0.05, 0.12)  # light disc 12, dark disc 0 on the board
    disc, out = play_disc(s, 0.0, 0.1, chain=(0, 12))
    r = crokinole.adjudicate(s, out)
    assert r.fouls == () and "CRK-3" in r.applied and r.state.piece(disc).where == "board"


def test_crk_3_missing_removes_the_disc_and_own_discs_struck(game):
    s = put(put(game, 12, 0.0, 0.15), 0, 0.05, 0.12)
    disc, out = play_disc(s, 0.0, 0.1, chain=(0,))
    r = crokinole.adjudicate(s, out)
    assert "CRK-3" in {f.rule for f in r.fouls}
    assert r.state.piece(disc).where == "ditch" and r.state.piece(0).where == "ditch"
    assert r.state.piece(12).where == "board"


def test_crk_3_hole_shot_without_hitting_is_removed(game):
    s = put(game, 12, 0.0, 0.15)
    disc, out = play_disc(s, fate="pocketed")
    r = crokinole.adjudicate(s, out)
    assert r.state.piece(disc).where == "ditch" and crokinole.round_totals(r.state) == (0, 10)


# ---------------------------------------------------------------------------- CRK-4
def _last_shot(state, x, y):
    """Everything but one dark disc played; the dark player shoots it to (x, y)."""
    rest = ids(state, "dark", "hand")[1:] + ids(state, "light", "hand")
    return move(state, "ditch", *rest)


def test_crk_4_round_scored_when_all_discs_played_winner_gets_difference(game):
    s = _last_shot(game, 0, 0)
    # light: three discs at 15 points; dark: the 20-hole and a 5, plus the last disc at 10
    s = put(put(put(s, 12, 0.0, 0.05), 13, 0.05, 0.0), 14, -0.05, 0.0)
    s = put(move(s, "hole", 1), 2, 0.0, -0.25)
    disc, out = play_disc(s, 0.15, 0.0, chain=(13,))
    r = crokinole.adjudicate(s, out)
    assert r.board_over and "CRK-4" in r.applied
    assert r.board_points == (0, 10) and r.board_winner == 1  # 45 - 35
    assert r.state.count("dark", "hand") == 12 and r.state.board_number == 2 and r.next_shooter == 1


def test_crk_4_disc_touching_a_line_counts_for_the_lower_zone(game):
    ring10 = game.board.marks.ring_10_radius
    s = put(move(game, "board", 0), 0, 0.0, -(ring10 - R_DISC))  # just touching the 10 line
    assert crokinole.round_totals(s) == (5, 0)
    s = put(s, 0, 0.0, -(ring10 - R_DISC - 1e-4))
    assert crokinole.round_totals(s) == (10, 0)



@pytest.mark.parametrize(("ring", "inside", "touching"), [("ring_15_radius", 15, 10), ("shooting_line_radius", 5, 0)])
def test_crk_4_touching_the_15_line_or_the_shooting_line_scores_the_lower_zone(game, ring, inside, touching):
    """Rule CRK-4 by hand: a disc touching the 15 line counts 10, one touching the
    outer line (the shooting line, edge of the 5 zone) counts 0; 0.1 mm inside, 15 and 5."""
    radius = getattr(game.board.marks, ring)
    s = put(move(game, "board", 0), 0, -(radius - R_DISC), 0.0)
    assert crokinole.round_totals(s) == (touching, 0)
    assert crokinole.round_totals(put(s, 0, -(radius - R_DISC - 1e-4), 0.0)) == (inside, 0)


def test_crk_3_crk_4_a_disc_knocked_into_the_hole_scores_20_for_its_owner(game):
    """Rules CRK-3, CRK-4 by hand: dark hits light's disc 12 into the 20-hole and stops in
    the 15 zone (a legal hit); disc 12 leaves the board for the hole and counts 20 for its
    owner, light (docs/rules.md: standard practice, the seed speaking only of the disc played)."""
    s = put(game, 12, 0.0, 0.03)
    disc, out = play_disc(s, 0.0, -0.04, chain=(12,))
    out = ShotOutcome(striker=disc, final_positions=out.final_positions, chain=(12,), pocketed=((12, "light", "20", 0.5),))
    r = crokinole.adjudicate(s, out)
    assert r.fouls == () and r.state.piece(12).where == "hole"
    assert crokinole.round_totals(r.state) == (15, 20)

def test_crk_4_game_ends_at_target(game):
    s = _last_shot(game, 0, 0).with_(game_scores=(95, 40))
    disc, out = play_disc(s, fate="pocketed")
    r = crokinole.adjudicate(s, out)
    assert r.game_over and r.game_winner == 0 and r.game_scores == (115, 40)


# ---------------------------------------------------------------------------- CRK-5
def test_crk_5_four_individual_players_six_discs_each_highest_wins():
    s = crokinole.new_game(4)
    assert s.colours == ("green", "red", "black", "white") and all(s.count(c, "hand") == 6 for c in s.colours)
    rest = [p.id for p in s.pieces if p.where == "hand"][1:]
    s = move(s, "ditch", *rest)
    s = put(s, ids(s, "red", "ditch")[0], 0.0, 0.05)  # red: 15
    s = put(s, ids(s, "black", "ditch")[0], 0.0, -0.15)  # black: 10
    disc, out = play_disc(s, fate="pocketed", chain=())
    out = ShotOutcome(striker=disc, striker_fate="pocketed", pocketed=out.pocketed, chain=(ids(s, "red")[0],))
    r = crokinole.adjudicate(s, out)
    assert r.board_points == (20, 15, 10, 0) and r.board_winner == 0 and "CRK-5" in r.applied
    assert r.game_scores == (20, 15, 10, 0)



def test_crk_5_player_counts_and_discs_per_player():
    """Rule CRK-5: two players (12 discs each, standard equipment) or four individual
    players with 6 discs each; three players are refused."""
    two, four = crokinole.new_game(), crokinole.new_game(4)
    assert two.n_teams == 2 and all(two.count(c, "hand") == 12 for c in two.colours)
    assert four.n_teams == four.n_players == 4 and all(four.count(c, "hand") == 6 for c in four.colours)
    with pytest.raises(ValueError, match="'players' parameter must be 2 or 4. Got 3"):
        crokinole.new_game(3)

def test_crk_5_game_to_100_by_default_and_configurable():
    assert CrokinoleOptions().game_target == 100
    s = crokinole.new_game(options=CrokinoleOptions(game_target=20, discs_per_player=1))
    _, out = play_disc(s, fate="pocketed")
    r = crokinole.adjudicate(s, out)
    _, out2 = play_disc(r.state, 0.0, 0.2)
    r2 = crokinole.adjudicate(r.state, out2)
    assert r2.game_over and r2.game_winner == 0
