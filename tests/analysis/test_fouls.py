"""Foul probabilities by rule variant: known answers under each variant's rules, paired
comparisons where the rules differ, backend independence, bad input and the plot."""

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.axes import Axes

from carromlab import Board
from carromlab.analysis import (
    ANY_FOUL,
    NoiseModel,
    ShotPopulation,
    comparable_states,
    foul_probabilities,
    read_store,
)
from carromlab.plotting.analysis import plot_foul_probabilities

from .conftest import NE, PLACE, SOFT, STRAIGHT

NONE = NoiseModel.preset("none")
#: Aim and speed errors only: every variant plays the very same placements.
AIM_ONLY = NoiseModel(angle=math.radians(0.4), speed=0.05)
#: Coins well away from the south baseline and the NE pocket.
ASIDE = pd.DataFrame({"kind": ["white", "white", "black", "queen"], "x": [-0.2, -0.25, -0.1, 0.0], "y": [0.2, -0.05, 0.25, 0.0]})
#: The right end of the south line, straight at the NE pocket.
AT_POCKET = {"placement": (PLACE[0], PLACE[0]), "angle": (STRAIGHT - math.pi / 2,) * 2}


def row(df: pd.DataFrame, variant: str, rule: str) -> pd.Series:
    hit = df[(df["variant"] == variant) & (df["rule"] == rule)]
    assert len(hit) == 1, f"no single row for {variant} {rule}"
    return hit.iloc[0]


@pytest.fixture(scope="module")
def carrom_states():
    return comparable_states(ASIDE, ("icf", "online"))


def test_striker_into_pocket_is_icf11_and_onl3(carrom_states):
    # rules ICF-11 and ONL-3: a striker sent straight into a pocket with nothing in the way
    pop = ShotPopulation(speed=(2.0, 4.0), n=30, **AT_POCKET)
    df = foul_probabilities(carrom_states, pop, noise=NONE, progress=False)
    for variant, rule in (("icf", "ICF-11"), ("online", "ONL-3")):
        r = row(df, variant, rule)
        assert (r["n"], r["k"], r["p"]) == (30, 30, 1.0)
        assert r["ci_low"] > 0.85 and r["ci_high"] == 1.0
        assert row(df, variant, ANY_FOUL)["k"] == 30
        assert r["n_snapped"] == 0
    assert df.loc[~df["rule"].isin(["ICF-11", "ONL-3", ANY_FOUL]), "k"].eq(0).all()



def test_onl_10_powder_off_keeps_a_soft_striker_out_of_the_pocket(carrom_states):
    # rules ONL-10, ONL-3: the striker slides 0.614 - 0.008 (capture radius) = 0.606 m to
    # the NE pocket; at 1.35 m/s it gets there on powder (mu 0.12 needs 1.19 m/s) and stops
    # short without (mu 0.20 needs 1.54 m/s): each state plays on its own board
    from carromlab.rules.online import OnlineHouseRules

    powder = carrom_states["online"]
    states = {"powder": powder, "bare": powder.with_(options=OnlineHouseRules(powder=False))}
    pop = ShotPopulation(speed=(1.35, 1.35), n=10, **AT_POCKET)
    df = foul_probabilities(states, pop, noise=NONE, progress=False)
    assert (row(df, "powder", "ONL-3")["k"], row(df, "bare", "ONL-3")["k"]) == (10, 0)

def test_shots_aimed_away_call_no_foul(carrom_states):
    # soft shots back towards the own cushion touch nothing: no ICF-11/14/15, ONL-3/5
    pop = ShotPopulation(angle=(math.pi - 0.3, math.pi), speed=(0.2, 0.4), n=40)
    df = foul_probabilities(carrom_states, pop, noise=NoiseModel.preset("club"), progress=False)
    assert set(df["rule"]) == {"ICF-11", "ICF-14", "ICF-15", "ONL-3", "ONL-5", ANY_FOUL}  # zero rows kept
    assert (df["k"] == 0).all() and (df["p"] == 0.0).all() and (df["n"] == 40).all()
    assert (df["ci_low"] == 0.0).all() and (df["ci_high"] > 0.0).all()


def test_opponents_last_coin_icf14_vs_onl5():
    # one black left, 10 cm in front of the NE pocket: ICF-14 always, ONL-5 only before the
    # queen is covered (after the cover the online rules let the opponent win, no foul)
    black = (NE.x - 0.10 * math.cos(STRAIGHT), NE.y - 0.10 * math.sin(STRAIGHT))
    coins = pd.DataFrame({"kind": ["white", "white", "black"], "x": [-0.2, -0.25, black[0]], "y": [0.2, -0.05, black[1]]})
    open_queen = comparable_states(pd.concat([coins, pd.DataFrame({"kind": ["queen"], "x": [0.0], "y": [0.0]})]))
    covered = comparable_states(coins, queen_status="covered", queen_team=0)
    states = {"icf": open_queen["icf"], "online": open_queen["online"],
              "icf covered": covered["icf"], "online covered": covered["online"]}  # fmt: skip
    pop = ShotPopulation(speed=(SOFT - 0.1, SOFT + 0.3), n=40, **AT_POCKET)
    df = foul_probabilities(states, pop, noise=AIM_ONLY, progress=False)
    k14 = row(df, "icf", "ICF-14")["k"]
    assert k14 > 30
    # the same shots (same errors, same legal placements): the rules alone differ
    assert row(df, "online", "ONL-5")["k"] == k14
    assert row(df, "icf covered", "ICF-14")["k"] == k14
    assert row(df, "online covered", "ONL-5")["k"] == 0
    assert (df["n_snapped"] == 0).all()


def test_hik9_only_in_doubles():
    # rule HIK-9: a red puck lying wholly inside the south area line, hit directly from the
    # area line; a foul in doubles only
    line_y = Board.hikone().area_line("south").line.y0
    position = pd.DataFrame({"kind": ["red", "green", "jack"], "x": [0.1, -0.1, 0.0], "y": [line_y - 0.03, 0.1, 0.0]})
    states = {"singles": comparable_states(position, ("hikone",))["hikone"],
              "doubles": comparable_states(position, ("hikone",), players=4)["hikone"]}  # fmt: skip
    aim = math.atan2(-0.03, 0.1) - math.pi / 2
    pop = ShotPopulation(angle=(aim, aim), speed=(1.0, 2.0), n=20, placement=(0.0, 0.0))
    df = foul_probabilities(states, pop, noise=NoiseModel.preset("expert"), progress=False)
    assert row(df, "doubles", "HIK-9")["k"] == 20
    assert row(df, "singles", "HIK-9")["k"] == 0
    assert row(df, "singles", ANY_FOUL)["k"] == 0


def test_crk3_when_the_opponent_disc_is_missed():
    # rule CRK-3: with a light disc on the board, a dark disc that strikes none is removed
    ahead = comparable_states(pd.DataFrame({"kind": ["light"], "x": [0.0], "y": [-0.15]}), ("crokinole",))
    aside = comparable_states(pd.DataFrame({"kind": ["light"], "x": [0.15], "y": [0.1]}), ("crokinole",))
    pop = ShotPopulation(angle=(0.0, 0.0), speed=(0.6, 1.0), n=20, placement=(0.0, 0.0))
    df = foul_probabilities({"ahead": ahead["crokinole"], "aside": aside["crokinole"]}, pop,
                            noise=NoiseModel.preset("expert"), progress=False)  # fmt: skip
    assert row(df, "aside", "CRK-3")["k"] == 20
    assert row(df, "ahead", "CRK-3")["k"] == 0


def test_same_result_whatever_the_chunking_and_backend(carrom_states, tmp_path):
    pop = ShotPopulation(angle=(-0.6, 0.6), speed=(1.0, 4.0), n=12, seed=3)
    args = dict(noise=NoiseModel.preset("club"), replicas=3, seed=7, progress=False)
    one = foul_probabilities(carrom_states, pop, workers=1, **args)
    chunked = foul_probabilities(carrom_states, pop, workers=2, chunk_cells=5, store=tmp_path / "run", **args)
    pd.testing.assert_frame_equal(one, chunked)
    stored = read_store(tmp_path / "run")
    assert len(stored) == 2 * 12 * 3 and stored.attrs["carromlab"]["analysis"] == "foul_probabilities"
    other_seed = foul_probabilities(carrom_states, pop, workers=1, **{**args, "seed": 8})
    assert not other_seed[["k", "n_snapped"]].equals(one[["k", "n_snapped"]])



def test_a_store_resumed_with_the_states_in_another_order_gives_each_state_its_fouls(carrom_states, tmp_path):
    # every shot pockets the striker: ICF-11 under the ICF rules, ONL-3 under the online rules
    pop = ShotPopulation(speed=(2.0, 4.0), n=6, **AT_POCKET)
    args = dict(noise=AIM_ONLY, replicas=2, progress=False)
    forward = {"icf": carrom_states["icf"], "online": carrom_states["online"]}
    backward = {"online": carrom_states["online"], "icf": carrom_states["icf"]}
    first = foul_probabilities(forward, pop, store=tmp_path, chunk_cells=4, **args)
    kept = {p: p.stat().st_mtime_ns for p in tmp_path.glob("part-*.parquet")}
    resumed = foul_probabilities(backward, pop, store=tmp_path, chunk_cells=4, **args)
    assert {p: p.stat().st_mtime_ns for p in kept} == kept  # resumed: no chunk played again
    pd.testing.assert_frame_equal(resumed, foul_probabilities(backward, pop, **args))
    assert resumed["variant"].tolist()[0] == "online"  # reported in the order given
    assert row(resumed, "online", "ONL-3")["k"] == 12 and not resumed.loc[resumed["variant"] == "online", "rule"].str.startswith("ICF").any()
    for name in forward:  # each state's rows as in the first run
        mine = [df[df["variant"] == name].reset_index(drop=True) for df in (resumed, first)]
        pd.testing.assert_frame_equal(*mine)


def test_a_match_table_of_another_board_or_side_is_refused(carrom_states):
    table = ShotPopulation(angle=(-0.5, 0.5), speed=(1.0, 4.0), n=4, seed=2).shots(carrom_states["icf"])
    match = table.rename(columns={c: f"intended_{c}" for c in ("x", "y", "angle", "speed", "spin")}).assign(variant="icf", players=2, seat=0)
    args = dict(noise=NONE, progress=False)
    expected = foul_probabilities(carrom_states, table, **args)
    pd.testing.assert_frame_equal(foul_probabilities(carrom_states, match, **args), expected)  # seat 0: the shooter's side
    pd.testing.assert_frame_equal(foul_probabilities(carrom_states, match.assign(variant="online"), **args), expected)  # same board
    with pytest.raises(ValueError, match=r"'shots' parameter's 'variant' column must hold variants played on the icf board of "
                                         r"states\['icf'\]\. Got 'crokinole' \(crokinole board\) in row 0 \(4 of 4 rows\)"):
        foul_probabilities(carrom_states, match.assign(variant="crokinole"), **args)
    with pytest.raises(ValueError, match=r"'shots' parameter's 'seat' column must hold seats on the shooter's side \(south\) of "
                                         r"states\['icf'\]\. Got seat 1 \(north\) in row 1 \(2 of 4 rows\)"):
        foul_probabilities(carrom_states, match.assign(seat=[0, 1, 0, 1]), **args)
    with pytest.raises(ValueError, match=r"Got seat 1 \(east\) in row 0"):  # doubles: seat 1 sits east
        foul_probabilities(carrom_states, match.assign(players=4, seat=1), **args)
    with pytest.raises(ValueError, match=r"'shots.variant' parameter must be one of .*Got 'pool'"):
        foul_probabilities(carrom_states, match.assign(variant="pool"), **args)
    with pytest.raises(ValueError, match=r"'shots.seat' parameter must be an int in the range \[0, 1\]. Got 2"):
        foul_probabilities(carrom_states, match.assign(seat=2), **args)

def test_a_table_of_shots_plays_like_the_population(carrom_states):
    pop = ShotPopulation(angle=(-0.5, 0.5), speed=(1.0, 4.0), n=15, seed=2)
    table = pop.shots(carrom_states["icf"])
    recorded = table.rename(columns={c: f"intended_{c}" for c in ("x", "y", "angle", "speed", "spin")})
    recorded["x"] = 0.0  # a match table's executed shot, ignored
    args = dict(noise=NoiseModel.preset("club"), progress=False)
    expected = foul_probabilities(carrom_states, pop, **args)
    pd.testing.assert_frame_equal(foul_probabilities(carrom_states, table, **args), expected)
    pd.testing.assert_frame_equal(foul_probabilities(carrom_states, recorded, **args), expected)


def test_a_table_of_shots_is_checked_like_a_shot(carrom_states):
    # an angle in degrees typed as radians, as Shot refuses it; the angle_deg column instead
    table = ShotPopulation(angle=(-0.5, 0.5), speed=(1.0, 4.0), n=6, seed=2).shots(carrom_states["icf"])
    args = dict(noise=NoiseModel.preset("club"), progress=False)
    in_deg = table.drop(columns="angle")
    pd.testing.assert_frame_equal(foul_probabilities(carrom_states, in_deg, **args), foul_probabilities(carrom_states, table, **args))
    with pytest.raises(ValueError, match=r"'shots.angle' parameter is in radians .* Got 90 rad .* did you mean shots.angle_deg=90\?"):
        foul_probabilities(carrom_states, table.assign(angle=90.0), **args)
    with pytest.raises(ValueError, match=r"'shots.angle_deg' parameter must contain finite real numbers in the range \[-360, 360\] deg. Got 400.0 at index 0"):
        foul_probabilities(carrom_states, in_deg.assign(angle_deg=400.0), **args)
    # a placement metres off the board is refused, naming the row (not snapped 7 m back); rule ICF-3
    far = table.copy()
    far.loc[4, ["x", "y"]] = 5.0
    with pytest.raises(ValueError, match=r"place the shot disc on the board of states\['icf'\] \(\|x\|, \|y\| <= 0.3493 m\)\. "
                                         r"Got x = 5, y = 5 m in row 4 \(1 of 6 rows off the board\)"):
        foul_probabilities(carrom_states, far, **args)
    with pytest.raises(ValueError, match=r"angle \(rad\) or angle_deg \(degrees\)"):
        foul_probabilities(carrom_states, table.drop(columns=["angle", "angle_deg"]), **args)


def test_stored_shots_and_drawn_shots_carry_angle_deg(carrom_states, tmp_path):
    pop = ShotPopulation(angle=(-0.5, 0.5), speed=(1.0, 4.0), n=4, seed=2)
    drawn = pop.shots(carrom_states["icf"])
    assert list(drawn.columns[3:5]) == ["angle", "angle_deg"]
    np.testing.assert_allclose(drawn["angle_deg"], np.degrees(drawn["angle"]))
    foul_probabilities(carrom_states, pop, store=tmp_path / "s", progress=False)
    stored = read_store(tmp_path / "s")
    assert stored.columns.get_loc("angle_deg") == stored.columns.get_loc("angle") + 1
    np.testing.assert_allclose(stored["angle_deg"], np.degrees(stored["angle"]))


def test_illegal_placements_are_snapped_and_counted(carrom_states):
    # ICF-3 puts the striker's centre within 4.75 mm of the baselines' midline (touching both); ONL-1 only
    # on their centre line
    pop = ShotPopulation(angle=(0.0, 0.0), speed=(0.3, 0.3), n=30, placement=(-0.1, 0.1))
    df = foul_probabilities(carrom_states, pop, noise=NoiseModel(depth=0.012), progress=False)
    icf, online = row(df, "icf", ANY_FOUL), row(df, "online", ANY_FOUL)
    assert 0 < icf["n_snapped"] < 30
    assert online["n_snapped"] == 30


GOOD_SHOTS = ShotPopulation(angle=(0.0, 0.0), speed=(1.0, 1.0), n=2)


@pytest.mark.parametrize(
    ("states", "shots", "kwargs", "name", "error"),
    [
        (lambda st: {1: st}, GOOD_SHOTS, {}, "'states'", TypeError),  # a key that is not a str
        (lambda st: {"": st}, GOOD_SHOTS, {}, "'states'", ValueError),
        (lambda st: {"icf": "not a state"}, GOOD_SHOTS, {}, r"'states\[icf\]' parameter must be a GameState", TypeError),
        (lambda st: {}, GOOD_SHOTS, {}, "'states'", ValueError),
        (lambda st: st, GOOD_SHOTS, {}, "'states'", TypeError),
        (lambda st: {"icf": st}, pd.DataFrame(columns=["x", "y", "angle", "speed"]), {}, "'shots'", ValueError),  # empty
        (lambda st: {"icf": st}, [1.0, 2.0], {}, "'shots'", TypeError),
        (lambda st: {"icf": st}, GOOD_SHOTS, {"replicas": -1}, "'replicas'", ValueError),
        (lambda st: {"icf": st}, ShotPopulation(angle=(0.0, 0.0), speed=(1.0, 1.0), n=2, placement=(0.0, 0.5)), {},
         "'placement'", ValueError),
    ],
)  # fmt: skip
def test_bad_input_names_the_parameter(carrom_states, states, shots, kwargs, name, error):
    with pytest.raises(error, match=name) as info:
        foul_probabilities(states(carrom_states["icf"]), shots, progress=False, **kwargs)
    assert type(info.value) is error


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"noise": "club"}, r"'noise' .* \(e\.g\. NoiseModel\.preset\('club'\)\)"),
        ({"params": "boric"}, r"'params' .* \(e\.g\. PhysicsParams\.from_powder\('boric'\)\)"),
    ],
)
def test_a_preset_name_for_a_model_is_a_type_error_saying_how_to_build_one(carrom_states, kwargs, name):
    with pytest.raises(TypeError, match=name):
        foul_probabilities({"icf": carrom_states["icf"]}, GOOD_SHOTS, progress=False, **kwargs)


def test_bad_population_and_position():
    with pytest.raises(ValueError, match="'n' parameter"):
        ShotPopulation(angle=(0.0, 0.0), speed=(1.0, 2.0), n=0)
    with pytest.raises(ValueError, match=r"'n' parameter must be an int in the range \[1, 1000000\]. Got 1000000000"):
        ShotPopulation(angle=(0.0, 0.0), speed=(1.0, 2.0), n=10**9)  # not a MemoryError later
    with pytest.raises(ValueError, match="'speed' parameter must be a range"):
        ShotPopulation(angle=(0.0, 0.0), speed=(2.0, 1.0), n=5)
    with pytest.raises(ValueError, match="'variants' parameter"):
        comparable_states(ASIDE, ("icf", "pool"))
    with pytest.raises(TypeError, match="'variants' parameter must be a non-empty sequence of variant names. Got 'icf' \\(str\\)"):
        comparable_states(ASIDE, "icf")
    with pytest.raises(TypeError, match="'position' parameter must be a DataFrame with columns \\['kind', 'x', 'y'\\]. Got None"):
        comparable_states(None)
    with pytest.raises(ValueError, match="'queen_status' parameter"):
        comparable_states(ASIDE[ASIDE["kind"] != "queen"])
    with pytest.raises(ValueError, match="one 'queen' too many"):
        comparable_states(pd.concat([ASIDE, ASIDE.iloc[[3]].assign(x=0.2)]))
    with pytest.raises(ValueError, match="'players' parameter must be 2 for the online rules"):
        comparable_states(ASIDE, ("online",), players=4)


def test_comparable_states_hold_the_same_position():
    states = comparable_states(ASIDE, ("icf", "online"), shooter=1)
    for st in states.values():
        on = st.positions().query("where == 'board'")
        assert sorted(zip(on["kind"], on["x"], on["y"])) == sorted(zip(ASIDE["kind"], ASIDE["x"], ASIDE["y"]))
        assert st.shooter == 1 and st.board_shots == 1 and st.count("white", "pocketed") == 7


def test_plot_groups_fouls_by_variant(carrom_states, monkeypatch, tmp_path):
    monkeypatch.setattr(plt, "show", lambda *a, **k: pytest.fail("a plot called plt.show()"))
    pop = ShotPopulation(speed=(2.0, 4.0), n=10, **AT_POCKET)
    df = foul_probabilities(carrom_states, pop, noise=NONE, progress=False)
    _, ax = plt.subplots()
    assert plot_foul_probabilities(df, ax=ax, alpha=0.8) is ax
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ticks[0] == "striker\npocketed\n(ICF-11, ONL-3)" and ticks[-1] == "any foul"
    assert len(ax.patches) == len(df)  # one bar per row
    assert isinstance(plot_foul_probabilities(df), Axes)
    ax.figure.savefig(tmp_path / "fouls.png")
    with pytest.raises(ValueError, match="'table' parameter"):
        plot_foul_probabilities(df.drop(columns="ci_low"))


@pytest.mark.parametrize(("confidence", "words"), [(0.95, "95 % interval"), (0.9, "90 % interval"), (0.999, "99.9 % interval")])
def test_the_table_records_its_confidence_level_and_the_plot_title_names_it(carrom_states, confidence, words, tmp_path):
    """The title said "confidence interval" without the level, which the table did not
    record; then the level was kept in df.attrs, which a CSV file loses: it is a column,
    and the plot of the table read back from its CSV names it."""
    pop = ShotPopulation(speed=(2.0, 4.0), n=4, **AT_POCKET)
    df = foul_probabilities(carrom_states, pop, noise=NONE, confidence=confidence, progress=False)
    assert (df["confidence"] == confidence).all() and list(df.columns).index("confidence") == list(df.columns).index("ci_high") + 1
    df.to_csv(tmp_path / "fouls.csv", index=False)
    back = pd.read_csv(tmp_path / "fouls.csv")
    for table in (df, back):
        assert f"(error bars: {words})" in plot_foul_probabilities(table[table["variant"] == "icf"]).get_title()
    plt.close("all")


def test_the_plot_of_tables_of_two_levels_names_both():
    table = pd.DataFrame({"variant": ["icf", "online"], "rule": "any", "foul": "any foul", "n": 100, "p": 0.1,
                          "ci_low": 0.05, "ci_high": 0.2, "confidence": [0.9, 0.95]})  # fmt: skip
    assert plot_foul_probabilities(table).get_title().endswith("(error bars: 90 %, 95 % intervals)")
    plt.close("all")


def _reference_fouls(state, shots: pd.DataFrame) -> list[str]:
    """The fouls of executed shots by the one-shot path: outcomes_from_batch + adjudicate."""
    from carromlab import simulate_batch
    from carromlab.rules import adjudicate
    from carromlab.rules.engine_bridge import forward_of, frame_reach_of, outcomes_from_batch, scene_for

    scene, ids = scene_for(state)
    batch = simulate_batch(
        scene, shots["x"], shots["y"], shots["angle"], shots["speed"], shots["spin"], workers=1, details=True,
        final_positions=True, forward=forward_of(state), carriers=(scene.striker,), frame_reach=frame_reach_of(state),
    )  # fmt: skip
    return [";".join(dict.fromkeys(f.rule for f in adjudicate(state, o).fouls)) for o in outcomes_from_batch(batch, state, ids)]


def _every_variant() -> dict:
    from carromlab import Scene

    carrom = comparable_states(Scene.icf_break().pieces.drop(index=[1, 2, 9, 10])[["kind", "x", "y"]], ("icf", "online"))
    pucks = Scene.hikone_start().pieces.iloc[::3][["kind", "x", "y"]]
    discs = pd.DataFrame({"kind": ["light", "light", "dark"], "x": [0.0, 0.12, -0.1], "y": [-0.15, 0.05, 0.1]})
    return {**carrom, "hikone doubles": comparable_states(pucks, ("hikone",), players=4)["hikone"],
            "crokinole": comparable_states(discs, ("crokinole",))["crokinole"]}  # fmt: skip


def test_array_path_gives_the_per_shot_reference_fouls_on_every_variant(tmp_path):
    # every noisy shot's fouls (ICF-11, ONL-3, HIK-5/7/9, CRK-2/3, ...) as adjudicate calls them one
    # shot at a time; the same shots, so the probabilities agree exactly, within any binomial error
    states = _every_variant()
    pop = ShotPopulation(angle=(-1.0, 1.0), speed=(0.5, 5.0), n=150, seed=4)
    df = foul_probabilities(states, pop, noise=NoiseModel.preset("club"), replicas=2, store=tmp_path / "s", progress=False)
    stored = read_store(tmp_path / "s")
    called = set()
    for key, state in states.items():
        shots = stored[stored["variant"] == key].sort_values(["cell", "replica"])
        reference = _reference_fouls(state, shots)
        assert shots["fouls"].tolist() == reference, key
        called |= {rule for text in reference for rule in text.split(";") if rule}
        k_any = sum(1 for text in reference if text)
        assert row(df, key, ANY_FOUL)["k"] == k_any
    assert {"ICF-11", "ONL-3", "HIK-7", "CRK-3"} <= called  # the sample exercises fouls of every variant


def test_the_opening_shot_on_an_empty_crokinole_board(tmp_path):
    # rule CRK-2: the first shot of a round, every disc in hand (a scene of no pieces), is a
    # foul when it stops outside the 15 ring; nothing on the board, so no CRK-3
    from carromlab.rules import crokinole

    states = {"two": crokinole.new_game(), "four": crokinole.new_game(4)}
    pop = ShotPopulation(angle=(-0.3, 0.3), speed=(0.3, 1.6), n=60, seed=1)
    df = foul_probabilities(states, pop, noise=NoiseModel.preset("club"), store=tmp_path / "s", progress=False)
    stored = read_store(tmp_path / "s")
    for key, state in states.items():
        shots = stored[stored["variant"] == key].sort_values(["cell", "replica"])
        reference = _reference_fouls(state, shots)
        assert shots["fouls"].tolist() == reference, key
        assert 0 < row(df, key, "CRK-2")["k"] == reference.count("CRK-2") < 60
        assert row(df, key, "CRK-3")["k"] == 0


def test_replicas_of_a_drawn_shot_do_not_narrow_the_interval_as_if_independent(carrom_states):
    # without noise the replicas of a shot are copies: 8 replicas hold the information of one,
    # so p and its interval must be those of a single replica (to rounding, 1e-12), n_eff = shots
    pop = ShotPopulation(angle=(-0.9, 0.9), speed=(1.0, 5.0), n=120, seed=3)
    one = foul_probabilities(carrom_states, pop, noise=NONE, replicas=1, progress=False)
    eight = foul_probabilities(carrom_states, pop, noise=NONE, replicas=8, progress=False)
    assert one["k"].max() > 0  # the population fouls
    np.testing.assert_allclose(eight["p"], one["p"], atol=1e-12)
    np.testing.assert_allclose(eight[["ci_low", "ci_high"]], one[["ci_low", "ci_high"]], atol=1e-12)
    assert (one["n_eff"] == 120).all() and (eight["n_eff"] == 120).all() and (eight["n"] == 960).all()
