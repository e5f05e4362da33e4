"""Success maps with known answers and margins of error."""

import math
import re

import numpy as np
import pandas as pd
import pytest

from carromlab import Scene
from carromlab.analysis import (
    AvoidFoul,
    BasicFouls,
    NoiseModel,
    PocketAny,
    PocketPiece,
    ShotGrid,
    StrikerLine,
    binomial_ci,
    cut_aim,
    ghost_aim,
    margin_of_error,
    plan_shots,
    success_map,
    target_geometry,
)
from carromlab.analysis.aiming import pack_direction

from .conftest import BOARD, PLACE, SOFT, STRAIGHT, wilson

NONE = NoiseModel.preset("none")
U = PLACE[0]


def test_straight_shot_succeeds_and_shot_away_fails(straight_scene):
    grid = ShotGrid(placement=[U], angle=[0.0, math.pi / 2], speed=[SOFT], aim="ghost")
    df = success_map(straight_scene, PocketPiece(0, "ne"), grid, noise=NONE, replicas=20, progress=False)
    hit, away = df.iloc[0], df.iloc[1]
    assert hit["p_success"] == 1.0 and hit["n_success"] == 20 and hit["n_valid"] == 20
    assert hit["ci_low"] <= 1.0 <= hit["ci_high"] and hit["ci_low"] > 0.8
    assert hit["cut"] == pytest.approx(0.0, abs=1e-9) and hit["pocket"] == "ne"
    assert hit["pocket_distance"] == pytest.approx(0.10)
    assert away["p_success"] == 0.0 and away["ci_low"] == 0.0 <= away["ci_high"]
    assert away["p_no_contact"] == 1.0 and away["p_foul"] == 1.0 and np.isnan(away["cut"])


def test_map_columns_and_cell_order(straight_scene, small_grid_args):
    grid = ShotGrid(**small_grid_args, aim="ghost")
    df = success_map(straight_scene, PocketPiece(0), grid, replicas=5, progress=False)
    assert len(df) == grid.n_cells and df["cell"].tolist() == list(range(grid.n_cells))
    for col in ("placement", "x", "y", "aim", "angle", "speed", "spin", "cut", "target_distance", "pocket",
                "pocket_distance", "n_valid", "n_invalid", "n_success", "p_success", "ci_low", "ci_high", "p_foul",
                "p_striker_pocketed", "p_no_contact", "mean_value", "mean_pocketed", "n_truncated"):  # fmt: skip
        assert col in df.columns, col
    # C order over (placement, aim, speed, spin)
    assert df["speed"].tolist()[:2] == [2.5, 3.5]
    assert np.all(df["ci_low"] <= df["p_success"]) and np.all(df["p_success"] <= df["ci_high"])


def test_noise_lowers_success_of_a_cut(straight_scene):
    grid = ShotGrid(placement=[U], angle=[0.0], speed=[SOFT], aim="ghost")
    p = [success_map(straight_scene, PocketPiece(0, "ne"), grid, noise=NoiseModel.preset(n), replicas=200,
                     progress=False)["p_success"].iat[0] for n in ("expert", "beginner")]  # fmt: skip
    assert p[0] > p[1]


def test_cut_aim_at_zero_is_the_line_of_centres(straight_scene):
    grid = ShotGrid(placement=[U], angle=[0.0], speed=[SOFT], aim="cut")
    df = success_map(straight_scene, PocketPiece(0), grid, noise=NONE, replicas=1, progress=False)
    assert df["cut"].iat[0] == pytest.approx(0.0, abs=1e-9) and df["p_success"].iat[0] == 1.0


@pytest.mark.parametrize(
    "aim",
    [
        lambda scene, x, y: ghost_aim(scene, PocketPiece(0).target(scene), x, y),
        lambda scene, x, y: cut_aim(scene, PocketPiece(0).target(scene), x, y, 0.0),
        lambda scene, x, y: pack_direction(scene, x, y),
        lambda scene, x, y: target_geometry(scene, PocketPiece(0).target(scene), x, y, 0.0),
    ],
    ids=["ghost_aim", "cut_aim", "pack_direction", "target_geometry"],
)
def test_aims_refuse_placements_that_are_no_finite_numbers(straight_scene, aim):
    with pytest.raises(ValueError, match=r"'x' parameter must be a finite real number in the range \(-inf, inf\) m. Got nan"):
        aim(straight_scene, float("nan"), -0.2526)  # NaN aims, NaN cuts before
    with pytest.raises(ValueError, match=r"'y' parameter must contain finite real numbers .* Got inf at index 1"):
        aim(straight_scene, 0.0, [-0.2526, np.inf])
    with pytest.raises(TypeError, match=r"'x' parameter must hold real numbers .* Got 'a' \(str\)"):
        aim(straight_scene, "a", -0.2526)


def test_goals(straight_scene):
    grid = ShotGrid(placement=[U], angle=[STRAIGHT], speed=[SOFT])
    kw = dict(noise=NONE, replicas=2, progress=False)
    assert success_map(straight_scene, PocketAny("white"), grid, **kw)["p_success"].iat[0] == 1.0
    assert success_map(straight_scene, PocketPiece(0, "nw"), grid, **kw)["p_success"].iat[0] == 0.0
    assert success_map(straight_scene, AvoidFoul(), grid, **kw)["mean_value"].iat[0] == 1.0
    fast = ShotGrid(placement=[U], angle=[STRAIGHT], speed=[3.0])  # the striker follows the coin in
    df = success_map(straight_scene, PocketPiece(0), fast, **kw)
    assert df["p_striker_pocketed"].iat[0] == 1.0 and df["p_success"].iat[0] == 0.0 and df["mean_value"].iat[0] == 1.0
    lenient = PocketPiece(0, allow_foul=True, fouls=BasicFouls(striker_pocketed=False))
    assert success_map(straight_scene, lenient, fast, **kw)["p_success"].iat[0] == 1.0


def test_overlapping_placements_are_invalid_replicas_not_errors():
    # a coin on the baseline: placements within a striker + coin radius of it overlap
    scene = Scene.from_frame(BOARD, pd.DataFrame({"kind": ["white"], "x": [0.05], "y": [-0.2526]}))
    grid = ShotGrid(placement=[0.0, 0.05, -0.15], angle=[math.pi / 2], speed=[2.0])
    noise = NoiseModel(placement=0.01)
    df = success_map(scene, AvoidFoul(), grid, noise=noise, replicas=200, progress=False)
    assert df["n_invalid"].iat[0] > 0 and df["n_valid"].iat[0] > 0
    assert df["n_valid"].iat[1] == 0 and np.isnan(df["p_success"].iat[1]) and np.isnan(df["ci_low"].iat[1])
    assert df["n_invalid"].iat[2] == 0
    assert (df["n_valid"] + df["n_invalid"] == 200).all()


def test_bad_inputs_name_the_parameter(straight_scene):
    grid = ShotGrid(placement=[0.0], angle=[0.0], speed=[2.0], aim="ghost")
    run = dict(progress=False, replicas=2)
    with pytest.raises(ValueError, match="'piece' parameter must be an int in the range \\[0, 0\\]. Got 3"):
        success_map(straight_scene, PocketPiece(3), grid, **run)
    with pytest.raises(ValueError, match="'piece' parameter .*'queen', which names 0 pieces"):
        success_map(straight_scene, PocketPiece("queen"), grid, **run)
    with pytest.raises(ValueError, match="'pocket' parameter must be one of \\['ne', 'nw', 'se', 'sw'\\]. Got '20'"):
        success_map(straight_scene, PocketPiece(0, "20"), grid, **run)  # a hole name, not of this board
    with pytest.raises(ValueError, match="'kinds' parameter must name kinds on the board"):
        success_map(straight_scene, PocketAny("black"), grid, **run)
    with pytest.raises(ValueError, match="'angle' parameter must have at least one value"):
        ShotGrid(placement=[0.0], angle=[], speed=[2.0])
    with pytest.raises(ValueError, match="'speed' parameter .* \\(0, 30\\] m/s. Got -1.0 at index 1"):
        ShotGrid(placement=[0.0], angle=[0.0], speed=[1.0, -1.0])
    with pytest.raises(ValueError, match="'speed' parameter .* \\(0, 30\\] m/s. Got 0.0 at index 0"):
        ShotGrid(placement=[0.0], angle=[0.0], speed=[0.0, 1.0])  # a grid of shots that do not move
    with pytest.raises(ValueError, match="'angle' parameter"):
        NoiseModel(angle=-0.1)
    with pytest.raises(ValueError, match="'placement' parameter must contain values in \\[-0.2191, 0.2191\\] m"):
        success_map(straight_scene, PocketPiece(0), ShotGrid(placement=[0.3], angle=[0.0], speed=[2.0]), **run)
    with pytest.raises(ValueError, match="aim='ghost' needs a goal with a target piece"):
        success_map(straight_scene, AvoidFoul(), grid, **run)
    with pytest.raises(ValueError, match="'replicas' parameter must be an int in the range \\[1, .*Got 0"):
        success_map(straight_scene, PocketPiece(0), grid, progress=False, replicas=0)
    with pytest.raises(TypeError, match="'goal' parameter must be a Goal .*Got 'pocket it' \\(str\\)"):
        success_map(straight_scene, "pocket it", grid, **run)
    with pytest.raises(ValueError, match="'workers' parameter"):
        success_map(straight_scene, PocketPiece(0), grid, workers=0, **run)
    with pytest.raises(ValueError, match="'ci' parameter"):
        success_map(straight_scene, PocketPiece(0), grid, ci="wald", **run)
    with pytest.raises(ValueError, match="no straight striker line"):
        StrikerLine.for_scene(Scene.crokinole_empty())


def test_more_bad_inputs_name_the_parameter_and_value(straight_scene):
    grid = ShotGrid(placement=[0.0], angle=[0.0], speed=[2.0], aim="ghost")
    with pytest.raises(TypeError, match=r"'scene' parameter must be a Scene \(e\.g\. Scene\.icf_break\(\)\)\. Got None \(NoneType\)"):
        success_map(None, PocketPiece(0), grid, progress=False, replicas=2)
    with pytest.raises(TypeError, match=r"'scene' parameter must be a Scene .*Got None \(NoneType\)"):
        plan_shots(None, PocketPiece(0))
    with pytest.raises(TypeError, match="'placement' parameter must hold real numbers .*Got 'a'"):
        ShotGrid(placement=["a"], angle=[0.0], speed=[2.0])
    with pytest.raises(TypeError, match="'progress' parameter must be a bool .*Got 'yes'"):
        success_map(straight_scene, PocketPiece(0), grid, progress="yes", replicas=2)
    with pytest.raises(TypeError, match=r"'store' parameter must be a str or PathLike \(a directory path\)\. Got 123 \(int\)"):
        success_map(straight_scene, PocketPiece(0), grid, progress=False, replicas=2, store=123)
    empty = Scene.from_frame(straight_scene.board, straight_scene.pieces.iloc[:0][["kind", "x", "y"]])
    with pytest.raises(ValueError, match="'piece' parameter must name a piece of the position, which has no pieces. Got 0"):
        success_map(empty, PocketPiece(0), ShotGrid(placement=[0.0], angle=[0.0], speed=[2.0]), progress=False, replicas=2)
    # the names a coach types for the CLI's --noise and --powder: the message says how to pass them
    with pytest.raises(TypeError, match=r"'noise' parameter must be a NoiseModel or None \(e\.g\. NoiseModel\.preset\('club'\)\)\. Got 'club'"):
        success_map(straight_scene, PocketPiece(0), grid, noise="club", progress=False, replicas=2)
    with pytest.raises(TypeError, match=r"'thumb_noise' parameter .* \(e\.g\. NoiseModel\.preset\('expert'\)\)"):
        success_map(straight_scene, PocketPiece(0), grid, thumb_noise="expert", progress=False, replicas=2)
    with pytest.raises(TypeError, match=r"'params' parameter must be a PhysicsParams or None \(e\.g\. PhysicsParams\.from_powder\('starch'\)\)\. Got 'starch'"):
        success_map(straight_scene, PocketPiece(0), grid, params="starch", progress=False, replicas=2)


@pytest.mark.parametrize(
    ("make", "match", "error"),
    [
        # accepted when made, these failed only when a sweep used them (or, a truthy text, never)
        (lambda: PocketPiece(0, pocket=3), r"'pocket' parameter must be None \(any pocket\) or the name of a hole .*Got 3 \(int\) instead", TypeError),
        (lambda: PocketPiece(0, pocket=""), r"'pocket' parameter .*Got '' instead", ValueError),
        (lambda: PocketPiece(-1), r"'piece' parameter must be a piece id \(an int in the range \[0, inf\)\).*Got -1", ValueError),
        (lambda: PocketPiece(1.5), r"'piece' parameter .*Got 1\.5 \(float\)", TypeError),
        (lambda: PocketPiece(""), r"'piece' parameter .*Got ''", ValueError),
        (lambda: PocketAny(["white", ""]), r"'kinds' parameter must be a kind or a non-empty sequence of kinds", ValueError),
        (lambda: PocketAny(["white", 3]), r"'kinds' parameter must be a kind or a non-empty sequence of kinds\. Got 3 \(int\) at index 1", TypeError),
    ],
)  # fmt: skip
def test_goals_check_what_they_can_when_made(make, match, error):
    with pytest.raises(error, match=match) as info:
        make()
    assert type(info.value) is error


@pytest.mark.parametrize(
    ("make", "match"),
    [
        # a truthy text was taken for True
        (lambda: PocketPiece(0, allow_foul="no"), r"'allow_foul' parameter must be a bool .*Got 'no'"),
        (lambda: PocketAny("white", allow_foul="no"), r"'allow_foul' parameter must be a bool .*Got 'no'"),
        (lambda: BasicFouls(no_contact="off"), r"'no_contact' parameter must be a bool .*Got 'off'"),
        (lambda: BasicFouls(striker_pocketed=None), r"'striker_pocketed' parameter must be a bool .*Got None"),
    ],
)  # fmt: skip
def test_goal_flags_of_the_wrong_type_are_type_errors(make, match):
    with pytest.raises(TypeError, match=match):
        make()


def test_a_custom_board_names_its_own_pockets():
    # a board may name its holes as it likes: the goal takes the name, the scene decides
    from dataclasses import replace

    from carromlab.equipment.board import Board

    icf = Board.icf()
    board = replace(icf, holes=tuple(replace(h, name=f"corner-{h.name}") for h in icf.holes))
    icf_scene = Scene.icf_break()
    scene = Scene(board, icf_scene.pieces[["kind", "x", "y"]], icf_scene.specs)
    assert PocketPiece(0, "corner-ne").target(scene).pockets == ("corner-ne",)
    with pytest.raises(ValueError, match=r"'pocket' parameter must be one of \['corner-ne', .*Got 'ne' instead"):
        PocketPiece(0, "ne").check(scene)


def test_margin_of_error_of_a_straight_shot(straight_scene):
    offsets = np.radians(np.linspace(-3, 3, 61))
    grid = ShotGrid(placement=[U], angle=offsets, speed=[1.1, 1.2, 1.3, 1.4, 2.0], aim="ghost")
    df = success_map(straight_scene, PocketPiece(0, "ne"), grid, noise=NONE, replicas=1, progress=False)
    m = margin_of_error(df).iloc[0]
    assert m["best_speed"] in (1.2, 1.3, 1.4) and m["p_best"] == 1.0
    # the window holds the straight aim; the pocket's jaws make it lopsided, so the best aim
    # (the middle of the window) need not be the line of centres
    assert m["aim_low"] < 0.0 < m["aim_high"] and m["aim_low"] < m["best_aim"] < m["aim_high"]
    assert np.radians(0.5) <= m["aim_window"] <= np.radians(5) and m["margin"] > 0
    assert 1.1 < m["speed_low"] <= m["best_speed"] <= m["speed_high"]  # 1.1 m/s stops short of the coin
    assert abs(m["cut"]) < np.radians(10) and m["pocket"] == "ne"


def test_margin_of_error_without_success_and_bad_input(straight_scene):
    grid = ShotGrid(placement=[U], angle=[math.pi / 2], speed=[1.0])
    df = success_map(straight_scene, PocketPiece(0), grid, noise=NONE, replicas=1, progress=False)
    m = margin_of_error(df)
    assert np.isnan(m["aim_window"].iat[0]) and m["p_best"].iat[0] == 0.0
    with pytest.raises(ValueError, match="'success' parameter"):
        margin_of_error(pd.DataFrame({"a": [1]}))
    # a table missing a column the margins read names what it got (was a KeyError: 'x')
    with pytest.raises(ValueError, match=r"'success' parameter must be a success_map DataFrame .*Got \['cell', 'placement', 'y'"):
        margin_of_error(df.drop(columns=["x"]))
    with pytest.raises(ValueError, match="'success' parameter must have at least one row"):
        margin_of_error(df.iloc[:0])
    with pytest.raises(ValueError, match="'threshold'"):
        margin_of_error(df, threshold=0.0)


def test_icf_3_noisy_placements_touch_both_baselines():
    """rule ICF-3: the ICF striker line's band is 2.065 - 1.59 = 0.475 cm, so placements drawn
    with any depth error (clipped to the band) touch both baselines."""
    from carromlab.analysis.execution import build_execution

    scene = Scene.icf_break()
    line = StrikerLine.for_scene(scene)
    assert line.half_width == pytest.approx(0.00475, abs=1e-12)
    ex = build_execution(scene, params=None, line=None, noise=NoiseModel(placement=0.05, depth=0.02), thumb_noise=None,
                         replicas=200, seed=1, final_positions=False)  # fmt: skip
    cells = pd.DataFrame({"cell": [0, 1], "placement": [0.0, 0.15], "angle": [1.5708] * 2, "speed": [0.5] * 2, "spin": [0.0] * 2})
    rep = ex.run(cells, workers=1).replicas
    base, r = scene.board.baseline("south"), scene.specs["striker"].radius
    assert np.ptp(rep["y"]) > 0.009  # the depth errors reach both edges of the band
    assert (base.outer.distance(rep["x"], rep["y"]) <= r + 1e-9).all()
    assert (base.inner.distance(rep["x"], rep["y"]) <= r + 1e-9).all()


def test_map_shows_its_picture_and_summary_in_jupyter_and_derives_plain_frames(straight_scene):
    grid = ShotGrid(placement=[U], angle=np.radians([-2.0, 0.0, 2.0]).tolist(), speed=[SOFT], aim="ghost")
    df = success_map(straight_scene, PocketPiece(0, "ne"), grid, noise=NoiseModel.preset("expert"), replicas=20, progress=False)
    page = df._repr_html_()
    best = df.loc[df["p_success"].idxmax()]
    assert "<img src=\"data:image/png;base64," in page and "3 (1 placements x 3 aims" in page
    assert f"p(success) {best['p_success']:.3f} [95 % CI {best['ci_low']:.3f}, {best['ci_high']:.3f}]" in page
    assert f"aim {best['aim_deg']:+.2f} deg (direction of travel {best['angle_deg']:.2f} deg)" in page
    assert "the best of 3 cells, so optimistic" in page  # the maximum of noisy cells is biased upwards
    assert f"{int((df['p_success'] >= 0.5).sum())} of 3" in page and "<th>aim_deg</th>" in page
    assert isinstance(df, pd.DataFrame) and df.scene is straight_scene
    for derived in (df.head(), df[df["p_success"] >= 0.0], df.copy(), df.sort_values("aim"), df.reset_index()):
        assert type(derived) is pd.DataFrame
    pd.testing.assert_frame_equal(pd.DataFrame(df), df.copy())
    assert "Empty" not in repr(df) and "<img" not in df.head()._repr_html_()


def test_summary_names_the_maps_own_confidence_level(straight_scene):
    # the summary said "95 % CI" whatever level the map's intervals were made at
    grid = ShotGrid(placement=[U], angle=[0.0], speed=[SOFT], aim="ghost")
    df = success_map(straight_scene, PocketPiece(0, "ne"), grid, noise=NoiseModel.preset("expert"), replicas=20,
                     confidence=0.9, progress=False)  # fmt: skip
    best = df.iloc[0]
    assert f"[90 % CI {best['ci_low']:.3f}, {best['ci_high']:.3f}]" in df._repr_html_()
    assert "95 % CI" not in df._repr_html_()


def test_jupyter_view_shows_each_rate_with_its_shots_and_wilson_interval(straight_scene):
    # a pot and a shot away, noiseless: 4 of 4 and 0 of 4 with 4 replicas, 100 of 100 and
    # 0 of 100 with 100; the interval of few shots is wide (0.490), of many narrow (0.037)
    grid = ShotGrid(placement=[U], angle=[0.0, math.pi / 2], speed=[SOFT], aim="ghost")
    for n, wide in ((4, 2), (100, 0)):
        df = success_map(straight_scene, PocketPiece(0, "ne"), grid, noise=NONE, replicas=n, progress=False)
        page = df._repr_html_()
        for k in (n, 0):
            low, high = wilson(k, n)
            row = r"\s*".join(f"<td>{v}</td>" for v in (n, f"{k / n:.4g}", f"{low:.4g}", f"{high:.4g}"))
            assert len(re.findall(row, page)) == 1, (n, k)  # n_valid, p_success, ci_low, ci_high side by side
        width = high - low
        assert f"<th style='text-align:left'>95 % CI widths</th><td style='text-align:left'>{width:.3f} to {width:.3f} " \
               f"(median {width:.3f}); {wide} of 2 cells wider than 0.2 (the board hatches such wedges)" in page


def test_jupyter_table_lists_the_best_cells_first(straight_scene):
    # it listed the first ten cells in grid order, mostly misses, and a coach scrolled for the best
    grid = ShotGrid(placement=[U], angle=np.radians(np.linspace(-3.0, 3.0, 13)).tolist(), speed=[SOFT], aim="ghost")
    df = success_map(straight_scene, PocketPiece(0, "ne"), grid, noise=NoiseModel.preset("expert"), replicas=20, progress=False)
    page = df._repr_html_()
    head = re.findall(r"<th>(\w+)</th>", page.split("<thead>")[-1].split("</thead>")[0])
    body = page.split("<tbody>")[-1].split("</tbody>")[0]
    rows = [[float(v) for v in re.findall(r"<td>([^<]*)</td>", tr)] for tr in body.split("</tr>") if "<td>" in tr]
    table = pd.DataFrame(rows, columns=head)
    assert len(table) == 10 and "the best of its 13 cells below" in page
    expected = df.sort_values("p_success", ascending=False, kind="stable").head(10)
    np.testing.assert_allclose(table["aim_deg"], expected["aim_deg"], atol=5e-3)
    assert table["p_success"].is_monotonic_decreasing and table["p_success"].iloc[0] == pytest.approx(df["p_success"].max(), abs=5e-4)


def _lone_coin_map(cells, replicas, seed):
    """A map of ``cells`` copies of one shot (aims 1e-9 rad apart) at a lone coin straight ahead,
    succeeding (AvoidFoul) when the striker touches it, with angle noise only, and the success
    probability of every cell in closed form: the straight path touches the coin when the aim
    error is within alpha = asin((R_striker + R_coin) / d), so p = 2 Phi(alpha / sigma) - 1
    (0.589 at sigma = 10 deg; the striker stops well short of the far cushion at 1 m/s)."""
    from scipy.stats import norm

    scene = Scene.from_frame(BOARD, pd.DataFrame({"kind": ["white"], "x": [0.0], "y": [0.0]}))
    x0, y0 = StrikerLine.for_scene(scene).point(0.0, 0.0)
    alpha = math.asin((scene.specs["striker"].radius + scene.specs["white"].radius) / math.hypot(x0, y0))
    sigma = math.radians(10.0)
    grid = ShotGrid(placement=[0.0], angle=math.pi / 2 + np.arange(cells) * 1e-9, speed=[1.0])
    df = success_map(scene, AvoidFoul(), grid, noise=NoiseModel(angle=sigma), replicas=replicas, seed=seed, progress=False)
    return df, 2 * norm.cdf(alpha / sigma) - 1


def test_replay_of_the_best_cell_is_free_of_the_selection():
    # 30 cells of probability p = 0.589 (closed form), 100 replicas each: the best rate lies above
    # p (the winner's curse; all 30 at or below it has probability 0.45**30 < 1e-10), while the
    # best cell replayed with 4000 fresh shots has p inside its 99.9 % interval
    df, p = _lone_coin_map(30, 100, seed=4)
    best = df.ranking(1).iloc[0]
    assert best["p_success"] > p and best["p_success"] == df["p_success"].max()
    again = df.replay(confidence=0.999, progress=False)
    r = again.iloc[0]
    assert r["rank"] == 1 and r["cell"] == best["cell"] and r["p_selection"] == best["p_success"]
    assert r["n_valid"] == 4000 and r["ci_low"] <= p <= r["ci_high"]
    assert list(again.columns[2:]) == list(df.columns)  # the map's columns, from the fresh shots
    low, high = binomial_ci(r["n_success"], 4000, confidence=0.999)
    assert (r["ci_low"], r["ci_high"]) == (low[0], high[0])
    # fresh streams: replayed with the map's 100 replicas, every cell's count would repeat if the
    # replay drew the map's errors; independent draws repeat a count with probability 0.08
    same = df.replay(top=30, replicas=100, progress=False).sort_values("cell")["n_success"].to_numpy() == df["n_success"].to_numpy()
    assert same.sum() < 10


def test_ranking_and_replay_order_and_bad_input(straight_scene):
    grid = ShotGrid(placement=[U], angle=np.radians([-2.0, 0.0, 2.0]).tolist(), speed=[SOFT], aim="ghost")
    df = success_map(straight_scene, PocketPiece(0, "ne"), grid, noise=NoiseModel.preset("expert"), replicas=20,
                     confidence=0.8, progress=False)  # fmt: skip
    ranked = df.ranking()
    assert ranked["rank"].tolist() == [1, 2, 3] and ranked["p_success"].is_monotonic_decreasing
    again = df.replay(top=2, replicas=50, progress=False)
    assert again["cell"].tolist() == ranked["cell"].tolist()[:2]
    low, high = binomial_ci(again["n_success"], again["n_valid"], confidence=0.8)  # the map's level by default
    np.testing.assert_array_equal(again["ci_low"], low)
    np.testing.assert_array_equal(again["ci_high"], high)
    for kwargs, name in (({"top": 0}, "top"), ({"replicas": 0}, "replicas"), ({"confidence": 1.0}, "confidence")):
        with pytest.raises(ValueError, match=f"'{name}' parameter"):
            df.replay(**kwargs)
    with pytest.raises(ValueError, match="made by success_map"):
        type(df)(pd.DataFrame(df)).replay()


@pytest.mark.slow
def test_replay_is_unbiased_where_the_maximum_is_not():
    # 200 maps of 30 cells of probability p = 0.589 (closed form) x 100 replicas, the best cell of
    # each replayed with 1000 fresh shots. The best rate sits 0.10 above p on average (the mean
    # of the largest of 30 standard normals, 2.04, times a cell's standard error 0.049; required:
    # above 0.05, 25 standard errors of the average below it) and its own 95 % interval covers p
    # about half the time (required: under 0.8). The replayed rate is unbiased: its average is
    # within 4 standard errors (0.0044) of p, and its interval covers p 95 % of the time, within
    # 0.062 (4 binomial standard errors of 200 maps)
    best, replayed, best_covers, covers = [], [], [], []
    for seed in range(200):
        df, p = _lone_coin_map(30, 100, seed=seed)
        b = df.ranking(1).iloc[0]
        r = df.replay(replicas=1000, progress=False).iloc[0]
        best.append(b["p_success"])
        replayed.append(r["p_success"])
        best_covers.append(b["ci_low"] <= p <= b["ci_high"])
        covers.append(r["ci_low"] <= p <= r["ci_high"])
    assert np.mean(best) - p > 0.05 and np.mean(best_covers) < 0.8
    assert abs(np.mean(replayed) - p) < 4 * math.sqrt(p * (1 - p) / (1000 * 200))
    assert abs(np.mean(covers) - 0.95) <= 0.062
