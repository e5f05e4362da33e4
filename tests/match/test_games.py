"""Whole games: every variant terminates and conserves pieces; guards, determinism and
input checks; the greedy policy beats the random one."""

import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

from carromlab.analysis.noise import NoiseModel
from carromlab.equipment.disc import DiscSpec
from carromlab.match import (BOARD_COLUMNS, GAME_COLUMNS, SHOT_COLUMNS, GreedyPolicy, RandomPolicy, game_seed, new_state,
                             play_game, play_match)
from carromlab.rules.crokinole import CrokinoleOptions

from .conftest import SEED
from .helpers import PREFIXES, TOTALS, check_match

#: Crokinole with fewer discs and a lower target, so that random games finish quickly in CI.
SHORT_CROKINOLE = CrokinoleOptions(discs_per_player=4, game_target=30)
#: Carrom and Hikone boards take hundreds of random shots (see docs/match.md): CI caps them.
CI_CAP = 80


@pytest.mark.parametrize(("variant", "players"), list(TOTALS))
def test_random_games_terminate_and_conserve_pieces(variant, players):
    options = SHORT_CROKINOLE if variant == "crokinole" else None
    rec = play_match(variant, 2, players=players, options=options, seed=SEED, max_shots_per_board=CI_CAP)
    check_match(rec, 4 * players if variant == "crokinole" else TOTALS[variant, players])
    assert list(rec.shots.columns) == list(SHOT_COLUMNS) and list(rec.boards.columns) == list(BOARD_COLUMNS)
    applied = {r for rules in rec.shots["rules"] for r in rules.split(";") if r}
    assert applied and all(r.startswith(PREFIXES[variant]) for r in applied)


ENDING_RULES = {("icf", 2): "ICF-10", ("online", 2): "ONL-7", ("hikone", 2): "HIK-4", ("hikone", 4): "HIK-4",
                ("crokinole", 2): "CRK-4", ("crokinole", 4): "CRK-5"}


@pytest.mark.parametrize(("variant", "players"), list(TOTALS))
def test_greedy_games_are_finished_by_the_rules_rules_icf10_onl7_hik4_crk4_crk5(variant, players):
    """rules ICF-10, ONL-7, HIK-4, CRK-4, CRK-5: a greedy seat against random ones plays
    the game to its end under the rules; the last board cites the rule that ended it."""
    policies = [GreedyPolicy(n_candidates=100)] + [RandomPolicy()] * (players - 1)
    rec = play_game(new_state(variant, players), policies, seed=SEED)
    check_match(rec, TOTALS[variant, players])
    assert rec.end == "complete" and rec.state.game_over and rec.winner == 0
    assert ENDING_RULES[variant, players] in rec.boards["reason"].iat[-1]


def test_greedy_pockets_more_own_coins_than_random_rule_icf4():
    """rule ICF-4: with club execution noise, the greedy policy pockets more own coins
    per board than the random one (seats swapped between games)."""
    own = {"greedy": [], "random": []}
    for g in range(2):
        seats = [GreedyPolicy(n_candidates=120), RandomPolicy()][:: 1 if g == 0 else -1]
        rec = play_game(new_state("icf"), seats, noise=NoiseModel.preset("club"), seed=game_seed(SEED, g),
                        max_boards=2, max_shots_per_board=150)
        per_board = rec.shots.groupby(["board", "policy"])["own_pocketed"].sum().unstack(fill_value=0)
        for name in own:
            own[name].extend(per_board.get(name, pd.Series(0, index=per_board.index)).tolist())
    greedy, random = (sum(v) / len(v) for v in (own["greedy"], own["random"]))
    assert greedy > random + 2.0, own


def test_same_seed_same_tables_and_another_seed_differs():
    def run(seed):
        return play_game(new_state("icf"), [GreedyPolicy(n_candidates=40), RandomPolicy()],
                         noise=NoiseModel.preset("club"), seed=seed, max_shots_per_board=25)

    a, b, c = run(3), run(3), run(4)
    assert_frame_equal(a.shots, b.shots)
    assert_frame_equal(a.boards, b.boards)
    assert_frame_equal(a.games.drop(columns=["seconds", "cpu_seconds"]), b.games.drop(columns=["seconds", "cpu_seconds"]))
    assert not a.shots[["x", "angle", "speed"]].equals(c.shots[["x", "angle", "speed"]])


def test_match_games_do_not_depend_on_workers_or_order():
    kw = {"options": CrokinoleOptions(discs_per_player=2, game_target=10), "seed": 9, "noise": NoiseModel.preset("expert")}
    one = play_match("crokinole", 3, **kw)
    two = play_match("crokinole", 3, workers=2, **kw)
    assert_frame_equal(one.shots, two.shots)
    assert_frame_equal(one.boards, two.boards)
    third = play_game(new_state("crokinole", options=kw["options"]), RandomPolicy(), noise=kw["noise"],
                      seed=game_seed(9, 2), game=2)
    assert_frame_equal(third.shots, one.shots[one.shots["game"] == 2].reset_index(drop=True))


@pytest.mark.parametrize("workers", [1, 2])
def test_progress_bar_advances_as_games_end(monkeypatch, workers):
    # one chunk of 8 games (or two of 4 per worker process): the bar moves game by game,
    # not once per chunk, and counts every game exactly once
    updates = []

    class Bar:
        def __init__(self, total, initial, **_):
            assert (total, initial) == (8, 0)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def update(self, n):
            updates.append(n)

    monkeypatch.setattr("carromlab.match.game.tqdm", Bar)
    kw = {"options": CrokinoleOptions(discs_per_player=2, game_target=5), "seed": 3, "progress": True}
    play_match("crokinole", 8, workers=workers, chunk_games=8 // workers, **kw)
    assert sum(updates) == 8 and all(n > 0 for n in updates)
    assert len(updates) > 2  # the 8 games end over several steps, not all in the last


def test_max_shots_per_board_abandons_the_board_and_reports_it():
    rec = play_game(new_state("icf"), RandomPolicy(), seed=1, max_shots_per_board=3)
    assert len(rec.shots) == 3 and rec.end == "abandoned" and rec.winner is None and not rec.state.game_over
    board = rec.boards.iloc[-1]
    assert (board["end"], board["reason"], board["n_shots"]) == ("abandoned", "max_shots_per_board=3 reached", 3)
    assert pd.isna(board["winner"]) and board["points_0"] == board["points_1"] == 0
    assert repr(rec).endswith("; 1 board, 3 shots)")  # was "1 boards"


def test_max_boards_stops_an_unfinished_game_and_reports_it_rule_crk4():
    """rule CRK-4: a crokinole round ends when every disc is played; the game goes on to
    the target unless max_boards stops it."""
    state = new_state("crokinole", options=CrokinoleOptions(discs_per_player=1, game_target=10_000))
    rec = play_game(state, RandomPolicy(), seed=2, max_boards=2)
    assert rec.end == "max_boards" and rec.winner is None and len(rec.boards) == 2
    assert (rec.boards["end"] == "rules").all() and rec.boards["reason"].str.contains("CRK-4").all()


def test_record_false_keeps_boards_and_games_only():
    rec = play_match("crokinole", 1, options=SHORT_CROKINOLE, record=False, seed=1)
    assert rec.shots.empty and list(rec.shots.columns) == list(SHOT_COLUMNS)
    assert len(rec.games) == 1 and list(rec.games.columns) == list(GAME_COLUMNS) and len(rec.boards) >= 1


@pytest.mark.parametrize(("call", "name"), [
    (lambda: play_match("snooker", 1), "variant"),
    (lambda: play_match("icf", 0), "n_games"),
    (lambda: play_match("icf", 1, max_shots_per_board=-1), "max_shots_per_board"),
    (lambda: play_match("icf", 1, max_boards=0), "max_boards"),
    (lambda: play_match("icf", 1, players=3), "players"),
    (lambda: play_match("online", 1, players=4), "players"),
    (lambda: play_match("icf", 1, workers=0), "workers"),
    (lambda: play_match("icf", 1, seed=-1), "seed"),
    (lambda: play_match("icf", 1, policies=[RandomPolicy()] * 3), "policies"),
    (lambda: play_game(new_state("icf"), RandomPolicy(), max_shots_per_board=-5), "max_shots_per_board"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=f"'{name}'"):
        call()


@pytest.mark.parametrize(("call", "name"), [
    (lambda: play_match("icf", 1, policies=RandomPolicy), "policies"),
    (lambda: play_match("icf", 1, noise="club"), "noise"),
    (lambda: play_game("icf", RandomPolicy()), "state"),
    (lambda: play_game(new_state("icf"), RandomPolicy(), params="club"), "params"),
])
def test_input_of_the_wrong_type_names_the_parameter(call, name):
    with pytest.raises(TypeError, match=f"'{name}'"):
        call()


@pytest.mark.parametrize("variant", ["icf", "online", "hikone", "crokinole"])
def test_discs_of_a_misspelt_kind_are_refused_not_ignored(variant):
    # new_state("icf", discs={"stiker": heavy}) played the standard striker, heavy unused
    heavy = DiscSpec.icf_striker().with_(mass=0.02)
    kinds = r"\['black', 'dark', 'green', 'jack', 'light', 'queen', 'red', 'striker', 'white'\]"
    with pytest.raises(ValueError, match=rf"^The 'discs' parameter must name piece kinds {kinds}\. Got \['stiker'\] instead"):
        new_state(variant, discs={"stiker": heavy})
    with pytest.raises(ValueError, match=r"'discs' parameter .* Got \['stiker'\] instead"):
        new_state(variant).with_discs({"stiker": heavy})
    with pytest.raises(TypeError, match=r"^The 'discs' parameter must be a mapping of piece kind to DiscSpec\. Got the key 1"):
        new_state(variant, discs={1: heavy})
    with pytest.raises(TypeError, match=r"^The 'discs\[striker\]' parameter must be a DiscSpec"):
        new_state(variant, discs={"striker": 0.02})
    # a kind of another variant is no misspelling: ignored, as documented
    other = {"jack": DiscSpec.hikone_jack()} if variant in ("icf", "online") else {"queen": DiscSpec.icf_queen()}
    assert new_state(variant, discs=other) == new_state(variant)


@pytest.mark.parametrize("powder", [True, False])
def test_onl_10_powder_reaches_the_engine(powder):
    """rule ONL-10: the powder house rule sets the friction the game's shots are played
    with. A white coin alone at (0.15, -0.1) m, struck head-on from (0.15, -0.2526) at
    0.8 m/s: without spin the discs slide at mu g; the striker meets the coin after
    0.1526 - 0.02065 - 0.0155 = 0.11645 m at v1^2 = 0.64 - 2 mu g 0.11645, passes it
    (1 + e) m_s / (m_s + m_c) v1 (e 0.9, 15 g and 5.25 g) and the coin slides
    v_c^2 / (2 mu g) further: to y = 0.2078 m on powder (mu 0.12), -0.0076 m without
    (mu 0.20). Physics given explicitly win: the unpowdered preset on a powdered board
    plays as powder off."""
    import math
    from dataclasses import replace

    from carromlab import PhysicsParams, Shot
    from carromlab.match import Game
    from carromlab.rules import online

    from ..rules.rules_testkit import move

    start = online.new_game(rules=online.OnlineHouseRules(powder=powder))
    coin = 1  # a white
    state = move(start, "pocketed", *[p.id for p in start.pieces if p.id not in (0, coin)])  # the queen stays at the centre
    state = state.with_(pieces=tuple(replace(p, x=0.15, y=-0.1) if p.id == coin else p for p in state.pieces), board_shots=1)
    mu = 0.12 if powder else 0.2
    v1 = math.sqrt(0.8**2 - 2 * mu * 9.81 * 0.11645)
    vc = 1.9 * 0.015 / (0.015 + 0.00525) * v1
    expected = -0.1 + vc**2 / (2 * mu * 9.81)
    assert expected == pytest.approx(0.2078 if powder else -0.0076, abs=1e-4)

    def coin_y(game):
        played = game.shoot(Shot(0.15, -0.2526, math.pi / 2, 0.8))
        return played.after.piece(coin).y

    game = Game(state, RandomPolicy(), seed=0)
    assert game.settings.params.mu == mu
    assert coin_y(game) == pytest.approx(expected, abs=1e-9)
    if powder:
        assert coin_y(Game(state, RandomPolicy(), params=PhysicsParams.from_powder("unpowdered"), seed=0)) == pytest.approx(-0.0076, abs=1e-4)


def test_onl_10_greedy_player_believes_in_the_board_of_each_game(monkeypatch):
    """rule ONL-10: a greedy player given no physics simulates its candidate shots on the
    board of the game's house rules (mu 0.12 with powder, 0.20 without); physics given to
    it win. (It read ``PhysicsParams()`` whatever the powder.)"""
    import numpy as np

    from carromlab import PhysicsParams
    from carromlab.rules import online

    seen: list[float] = []
    choose_group = GreedyPolicy._choose_group

    def spy(self, scene, states, rngs, spots, params):
        seen.extend([params.mu] * len(states))
        return choose_group(self, scene, states, rngs, spots, params)

    monkeypatch.setattr(GreedyPolicy, "_choose_group", spy)
    rng = np.random.default_rng(0)
    for powder, mu in ((True, 0.12), (False, 0.2)):
        seen.clear()
        GreedyPolicy(n_candidates=8).choose(online.new_game(rules=online.OnlineHouseRules(powder=powder)), rng)
        assert seen == [mu]
    seen.clear()
    GreedyPolicy(n_candidates=8, params=PhysicsParams(mu=0.23)).choose(online.new_game(rules=online.OnlineHouseRules(powder=False)), rng)
    assert seen == [0.23]
