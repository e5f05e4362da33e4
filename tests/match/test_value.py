"""The greedy policy's value function, branch by branch, on hand-made batch rows."""

from typing import NamedTuple

import numpy as np
import pandas as pd
import pytest

from carromlab.match.policies import piece_arrays
from carromlab.rules.engine_bridge import full_scene
from carromlab.match.value import BOARD, FOUL, HOLE_POINTS, JACK, QUEEN, WIN, shot_values
from carromlab.rules import crokinole, hikone, icf

from ..rules.rules_testkit import ids, move, put


class Row(NamedTuple):
    """One simulated shot: game ids pocketed ("shot" for the disc played), striker
    pocketed, first contact (game id), final positions by game id or "shot", ditched."""

    down: tuple = ()
    striker: bool = False
    first: int | None = None
    where: dict = {}
    ditch: tuple = ()


def batch(state, scene, rows):
    """A simulate_batch-like summary of ``rows`` played from ``state`` on its full scene
    (scene piece = game id; the disc played, "shot", last)."""
    index = {p.id: p.id for p in state.pieces} | {"shot": scene.n_pieces}
    final = np.full((len(rows), scene.n_pieces + 1, 2), np.nan, np.float32)
    final[:, : scene.n_pieces] = piece_arrays([state])[0][0]
    for k, r in enumerate(rows):
        for g, xy in r.where.items():
            final[k, index[g]] = xy
    df = pd.DataFrame({
        "pocketed_mask": [sum(1 << index[g] for g in r.down) for r in rows],
        "ditch_mask": [sum(1 << index[g] for g in r.ditch) for r in rows],
        "striker_pocketed": [r.striker for r in rows],
        "first_contact": [-1 if r.first is None else index[r.first] for r in rows],
    }).astype({"pocketed_mask": np.uint64, "ditch_mask": np.uint64, "first_contact": np.int16})
    df.attrs["final_xy"] = final
    return df


def value(state, *rows):
    scene = full_scene(state)
    return shot_values([state], scene, np.zeros(len(rows), int), batch(state, scene, rows)).tolist()


# ------------------------------------------------------------------ carrom
def test_own_coins_count_and_opponent_coins_cost_rules_icf4():
    """rule ICF-4: own coins pocketed are worth one each, opponent coins cost one."""
    s = icf.new_game().with_(board_shots=1)
    w, b = ids(s, "white"), ids(s, "black")
    assert value(s, Row([w[0], w[1]], first=w[0]), Row([b[0]], first=b[0]), Row()) == [2, -1, 0]


def test_striker_foul_voids_own_coins_rule_icf11():
    """rule ICF-11: a pocketed striker voids the own coins of the shot and costs a foul."""
    s = icf.new_game().with_(board_shots=1)
    w = ids(s, "white")
    assert value(s, Row([w[0]], True, w[0])) == [-FOUL]


def test_queen_needs_an_own_coin_down_rule_icf5():
    """rule ICF-5: the queen is worth something only once an own coin is pocketed."""
    s = icf.new_game().with_(board_shots=1)
    queen = ids(s, "queen")[0]
    assert value(s, Row([queen], first=queen)) == [0]
    s2 = move(s, "pocketed", ids(s, "white")[0])
    assert value(s2, Row([queen], first=queen)) == [QUEEN]


def test_last_coin_rules_icf7_icf14_icf15():
    """rules ICF-7, ICF-14, ICF-15: the last coins end the board."""
    s = icf.new_game().with_(board_shots=1)
    w, b = ids(s, "white"), ids(s, "black")
    last = move(s, "pocketed", *w[1:])
    assert value(last, Row([w[0]], first=w[0])) == [-BOARD]  # ICF-15: queen not covered
    covered = move(last, "pocketed", ids(s, "queen")[0]).with_(queen_status="covered", queen_team=0)
    assert value(covered, Row([w[0]], first=w[0])) == [BOARD]  # ICF-7
    opp_last = move(covered, "pocketed", *b[1:])
    assert value(opp_last, Row([b[0]], first=b[0])) == [-BOARD]  # ICF-14


def test_queen_and_last_coin_together_cover_rule_icf6():
    """rule ICF-6: queen and the last own coin in one shot: covered, the board is won."""
    s = icf.new_game().with_(board_shots=1)
    w = ids(s, "white")
    last = move(s, "pocketed", *w[1:])
    queen = ids(s, "queen")[0]
    assert value(last, Row([queen, w[0]], first=queen)) == [BOARD]


# ------------------------------------------------------------------ Hikone
def test_hikone_pucks_and_service_rule_hik3():
    """rule HIK-3: own pucks count, opponent pucks are a service for the opponent."""
    s = hikone.new_game()
    red, green = ids(s, "red"), ids(s, "green")
    assert value(s, Row([red[0], red[1]], first=red[0]), Row([green[0]], first=green[0])) == [2, -1]


def test_hikone_jack_rules_hik4_hik5_hik7():
    """rules HIK-4, HIK-5, HIK-7: the jack wins only after every own puck; a pocketed
    striker voids the own pucks."""
    s = hikone.new_game()
    red = ids(s, "red")
    jack = ids(s, "jack")[0]
    assert value(s, Row([jack], first=jack)) == [-JACK]  # HIK-5
    assert value(s, Row([red[0]], True, red[0])) == [-FOUL]  # HIK-7
    done = move(s, "pocketed", *red)
    assert value(done, Row([jack], first=jack)) == [WIN]  # HIK-4


def test_hikone_early_jack_with_own_pucks_rules_hik5_hik6():
    """rules HIK-5, HIK-6: own pucks pocketed with an early jack count (HIK-5 alone) unless
    they were the last ones (HIK-6) or the options void them, as the rules rule it."""
    from carromlab.rules.hikone import HikoneOptions

    s = hikone.new_game()
    red = ids(s, "red")
    jack = ids(s, "jack")[0]
    assert value(s, Row([red[0], jack], first=red[0])) == [1 - JACK]  # HIK-5: the puck counts
    voiding = s.with_(options=HikoneOptions(void_pucks_with_jack=True))
    assert value(voiding, Row([red[0], jack], first=red[0])) == [-JACK]
    last = move(s, "pocketed", *red[1:])
    assert value(last, Row([red[0], jack], first=red[0])) == [-JACK]  # HIK-6: the last puck is void


def test_hikone_doubles_direct_hit_inside_own_area_rule_hik9():
    """rule HIK-9: in doubles, a first contact with a piece inside the own area costs a foul."""
    s = hikone.new_game(4)
    red = ids(s, "red")
    h = s.board.half_size
    inside = put(s, red[0], 0.1, -h + 0.03)
    assert value(inside, Row(first=red[0])) == [-FOUL]
    assert value(s, Row(first=red[0])) == [0]


# ------------------------------------------------------------------ crokinole
def test_crokinole_empty_board_rule_crk2():
    """rule CRK-2: with no opponent disc, the disc counts its zone inside the 15 ring, 20
    in the hole, and nothing (the ditch) outside the 15 ring."""
    s = crokinole.new_game()
    shot15 = Row(where={"shot": (0.0, -0.05)})
    shot10 = Row(where={"shot": (0.0, -0.15)})
    hole = Row(["shot"], where={"shot": (0.0, 0.0)})
    assert value(s, shot15, shot10, hole) == [15, 0, HOLE_POINTS]


def test_crokinole_must_hit_an_opponent_rule_crk3():
    """rule CRK-3: with an opponent disc on the board, a shot that hits none scores nothing;
    knocking the opponent off removes their points."""
    s = crokinole.new_game()
    opp = ids(s, "light", "hand")[0]
    s = put(s, opp, 0.0, 0.15)  # a 10
    miss = Row(where={"shot": (0.0, -0.05)})
    takeout = Row(first=opp, where={"shot": (0.0, -0.05)}, ditch=(opp,))
    assert value(s, miss, takeout) == [-10, 15]


def test_crokinole_four_players_value_against_the_best_opponent_rule_crk5():
    """rule CRK-5: four individual players: own total minus the best opponent's."""
    s = crokinole.new_game(4)
    red, black = ids(s, "red", "hand")[0], ids(s, "black", "hand")[0]
    s = put(put(s, red, 0.0, 0.15), black, 0.15, 0.0)  # two 10s
    hit = Row(first=red, where={"shot": (0.0, -0.05)}, ditch=(red,))
    assert value(s, hit) == [15 - 10]


def test_crokinole_value_needs_final_positions():
    s = crokinole.new_game()
    scene = full_scene(s)
    df = batch(s, scene, [Row()])
    df.attrs.clear()
    with pytest.raises(ValueError, match="final_positions=True"):
        shot_values([s], scene, [0], df)
