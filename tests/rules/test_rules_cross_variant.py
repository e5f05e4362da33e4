"""The same scripted outcomes under the variants whose seeds differ."""

from __future__ import annotations

import pytest

from carromlab.rules import adjudicate, hikone, icf, online

from .rules_testkit import broken, ids, move, shot


def carrom(variant):
    return broken(icf.new_game() if variant == "icf" else online.new_game())


# rule ICF-11, rule ONL-3, rule HIK-7: striker pocketed together with an own coin
@pytest.mark.parametrize(
    ("variant", "continues", "own_pocketed_after", "rule"),
    [("icf", True, 0, "ICF-11"), ("online", True, 0, "ONL-3"), ("hikone", False, 0, "HIK-7")],
)
def test_striker_pocketed_with_own_coin(variant, continues, own_pocketed_after, rule):
    if variant == "hikone":
        s = move(hikone.new_game(), "pocketed", 23)
        own, striker = 1, 25
    else:
        s = move(carrom(variant), "pocketed", 3)
        own, striker = 1, 19
    r = adjudicate(s, shot(s, own, striker))
    colour = s.colours[0]
    assert r.turn_continues is continues
    assert r.state.count(colour, "pocketed") == own_pocketed_after
    assert {f.rule for f in r.fouls} == {rule}


# rule ICF-11 vs rule ONL-3: striker pocketed with the queen only
@pytest.mark.parametrize(("variant", "continues"), [("icf", False), ("online", True)])
def test_striker_pocketed_with_queen(variant, continues):
    s = move(carrom(variant), "pocketed", 3)
    r = adjudicate(s, shot(s, 0, 19))
    assert r.turn_continues is continues and r.queen_status == "board"


# rule ICF-8 vs rule ONL-6: queen points when the loser covered the queen
@pytest.mark.parametrize(("variant", "points"), [("icf", (4, 0)), ("online", (7, 0))])
def test_queen_points_loser_covered(variant, points):
    s = carrom(variant)
    s = move(s, "pocketed", 0, *ids(s, "white")[1:], *ids(s, "black")[4:]).with_(queen_status="covered", queen_team=1)
    assert adjudicate(s, shot(s, ids(s, "white")[0])).board_points == points


# rule ICF-9 vs rule ONL-6: the 22-point cap looks at the leader (ICF) or the winner (ONL)
@pytest.mark.parametrize(("variant", "points"), [("icf", (4, 0)), ("online", (7, 0))])
def test_queen_cap_leader_vs_winner(variant, points):
    s = carrom(variant)
    s = move(s, "pocketed", 0, *ids(s, "white")[1:], *ids(s, "black")[4:]).with_(
        queen_status="covered", queen_team=0, game_scores=(5, 23)
    )
    assert adjudicate(s, shot(s, ids(s, "white")[0])).board_points == points


# rule ICF-15 vs rule ONL-5: own last coin before the queen is covered
@pytest.mark.parametrize(("variant", "points"), [("icf", (-3, 4)), ("online", (0, 1))])
def test_own_last_coin_before_queen(variant, points):
    s = carrom(variant)
    s = move(s, "pocketed", *ids(s, "white")[1:], *ids(s, "black")[4:])
    r = adjudicate(s, shot(s, ids(s, "white")[0]))
    assert r.board_winner == 1 and r.board_points == points


# rule ICF-14 vs rule ONL-5: the opponent's last coin before the queen is covered
@pytest.mark.parametrize(("variant", "points"), [("icf", (-3, 3)), ("online", (0, 3))])
def test_opponent_last_coin_before_queen(variant, points):
    s = carrom(variant)
    s = move(s, "pocketed", *ids(s, "white")[3:], *ids(s, "black")[1:])
    r = adjudicate(s, shot(s, ids(s, "black")[0]))
    assert r.board_winner == 1 and r.board_points == points


# rule ICF-5 vs rule ONL-2: queen on the same shot as the first own coin
@pytest.mark.parametrize(("variant", "status"), [("icf", "board"), ("online", "covered")])
def test_queen_with_first_own_coin(variant, status):
    s = carrom(variant)
    assert adjudicate(s, shot(s, 0, 1)).queen_status == status


# rule ICF-16 vs rule ONL-9: the break conditions
def test_break_retake_conditions_differ():
    from carromlab.rules import ShotOutcome

    miss = ShotOutcome()  # left the baseline area, touched nothing
    assert not icf.adjudicate(icf.new_game(), miss).retake
    assert online.adjudicate(online.new_game(), miss).retake
    stay = ShotOutcome(striker_left_baseline=False)
    assert icf.adjudicate(icf.new_game(), stay).retake
