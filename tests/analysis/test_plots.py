"""Every analysis plot draws on the given axes, returns it and never shows."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import to_hex
from matplotlib.container import BarContainer

from carromlab import Scene
from carromlab.analysis import NoiseModel, PocketPiece, ShotGrid, binomial_ci, margin_of_error, plan_shots, success_map
from carromlab.analysis.breaks import break_study
from carromlab.plotting import CATEGORY_COLORS
from carromlab.plotting.analysis import (
    plot_best_shot,
    plot_break_heatmap,
    plot_break_outcomes,
    plot_foul_probabilities,
    plot_margins,
    plot_parameter_heatmap,
    plot_success_board,
)

from .conftest import PLACE, SOFT, wilson


@pytest.fixture(scope="module")
def smap(request):
    scene = request.getfixturevalue("two_coin_scene")
    grid = ShotGrid(placement=np.linspace(-0.2, 0.2, 5), angle=np.radians(np.linspace(-2, 2, 9)), speed=[2.5], aim="ghost")
    return scene, success_map(scene, PocketPiece(0), grid, noise=NoiseModel.preset("none"), replicas=1, progress=False)


@pytest.fixture(scope="module")
def study():
    grid = ShotGrid(placement=[-0.1, 0.1], angle=np.radians([-2.0, 2.0]), speed=[6.0], aim="pack")
    return break_study(Scene.icf_break(), grid, replicas=4, progress=False)


@pytest.fixture(autouse=True)
def _no_show(monkeypatch):
    def show(*args, **kwargs):
        raise AssertionError("a plot called plt.show()")

    monkeypatch.setattr(plt, "show", show)


def test_success_plots(smap, tmp_path):
    scene, df = smap
    _, axes = plt.subplots(1, 3, figsize=(15, 5))
    assert plot_success_board(df, scene, ax=axes[0]) is axes[0]
    assert axes[0].collections  # the fans
    assert axes[0].get_title().startswith("max success probability by placement and aim")  # in words, not p_success
    assert plot_parameter_heatmap(df, ax=axes[1], cmap="magma") is axes[1]
    assert axes[1].get_ylabel() == "aim: offset from the ghost-disc aim (deg)"  # what the aim is relative to
    assert plot_parameter_heatmap(df.assign(aim=df["angle"])).get_ylabel() == "aim: direction of travel (deg from +x)"
    assert plot_margins(margin_of_error(df), ax=axes[2]) is axes[2]
    axes[0].figure.savefig(tmp_path / "success.png")


def test_best_shot_plot(two_coin_scene):
    best = plan_shots(two_coin_scene, PocketPiece(0), noise=NoiseModel.preset("expert"), placement=[0.0, 0.1],
                      angle_deg=np.arange(40.0, 100.0, 0.5), speed=[2.5, 3.5], replicas=(4, 8, 16, 16), refine=0,
                      window_replicas=4, progress=False)  # fmt: skip
    assert not best.empty
    ax = plot_best_shot(best, two_coin_scene)
    assert isinstance(ax, Axes) and "rank 1: p(success)" in ax.get_title()
    with pytest.raises(ValueError, match="'rank' parameter must be one of"):
        plot_best_shot(best, two_coin_scene, rank=9)


def test_break_plots(study):
    ax = plot_break_outcomes(study)
    assert isinstance(ax, Axes) and len(ax.patches) > 0
    # every bar with its 95 % Wilson interval
    dist, n = study.distribution(), len(study.shots)
    low, high = binomial_ci(dist["shots"], n)
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    drawn = np.concatenate([np.array([seg[:, 1] for seg in b.errorbar.lines[2][0].get_segments()]) for b in bars])
    np.testing.assert_allclose(drawn, np.column_stack([low, high]), rtol=0, atol=1e-12)
    assert "95 % Wilson interval" in ax.get_ylabel()
    assert tuple(ax.figure.get_size_inches()) == (7.0, 4.5)  # a chart, not a 6 x 6 in square
    ax = plot_break_heatmap(study)
    assert ax.figure.axes[-1].get_ylabel() == "white pieces pocketed per shot (mean)"  # the colour bar, in words
    assert ax.get_ylabel() == "aim: offset from the direction to the pack (deg)"


def test_plot_errors(smap, study):
    scene, df = smap
    with pytest.raises(ValueError, match="'success' parameter must be a DataFrame with columns"):
        plot_success_board(df.drop(columns="angle"), scene)
    with pytest.raises(ValueError, match="'reduce' parameter"):
        plot_parameter_heatmap(df, reduce="median")
    with pytest.raises(ValueError, match="'table' parameter must be a DataFrame with columns"):
        plot_parameter_heatmap(study.cells, value="p_success")
    with pytest.raises(TypeError, match="'study' parameter must be a BreakStudy"):
        plot_break_outcomes(df)
    with pytest.raises(TypeError, match="'ax' parameter must be an Axes"):
        plot_parameter_heatmap(df, ax="axes")


def test_empty_tables_are_refused_by_name(smap, two_coin_scene):
    # a plan that found no shot (no coarse shot pots the coin from these placements) is an
    # empty table: the error names the table, not a rank "one of []" or an IndexError
    scene, df = smap
    plan = plan_shots(two_coin_scene, PocketPiece(0), noise=NoiseModel.preset("expert"), placement=[0.0],
                      angle_deg=[-90.0], speed=[2.5], replicas=(4, 4, 4, 4), refine=0, window_replicas=4,
                      progress=False)  # fmt: skip
    assert plan.empty
    with pytest.raises(ValueError, match="'candidates' parameter must have at least one row"):
        plot_best_shot(plan, two_coin_scene)
    with pytest.raises(ValueError, match="'table' parameter must have at least one row"):
        plot_parameter_heatmap(df.iloc[:0])
    with pytest.raises(ValueError, match="'success' parameter must have at least one row"):
        plot_success_board(df.iloc[:0], scene)
    with pytest.raises(ValueError, match="'margins' parameter must have at least one row"):
        plot_margins(margin_of_error(df).iloc[:0])


def test_margins_axis_names_the_quantity_with_its_unit(smap):
    margins = margin_of_error(smap[1])
    assert plot_margins(margins, x="target_distance").get_xlabel() == "striker to target distance (m)"
    assert plot_margins(margins, x="cut").get_xlabel() == "cut angle (deg)"


def test_foul_bars_of_four_variants_take_the_colour_blind_safe_palette():
    variants = ["icf", "online", "hikone", "crokinole"]
    table = pd.DataFrame({"variant": variants, "rule": "any", "foul": "any foul", "n": 100, "p": 0.1, "ci_low": 0.05,
                          "ci_high": 0.2})  # fmt: skip
    ax = plot_foul_probabilities(table)
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert [to_hex(b.patches[0].get_facecolor()) for b in bars] == list(CATEGORY_COLORS[:4])  # were tab10's C0-C3
    fig = ax.figure
    fig.canvas.draw()
    legend = ax.get_legend().get_window_extent()
    assert not legend.overlaps(ax.get_window_extent())  # inside, it covered the tops of error bars
    assert legend.x1 <= fig.bbox.width
    assert ax.get_title().endswith("(error bars: confidence interval)")  # a table that does not record its level


def _cells(p, low, high, speed=None):
    """A 3 x 2 table (placements 0, 0.1, 0.2 m x aims 0, 1 deg) with the given rates and
    intervals, listed placement by placement."""
    n = len(p)
    placement = np.repeat([0.0, 0.1, 0.2], 2)[:n] if speed is None else np.repeat([0.0, 0.1, 0.2], 4)[:n]
    aim = np.radians(np.tile([0.0, 1.0], 3)[:n] if speed is None else np.tile([0.0, 0.0, 1.0, 1.0], 3)[:n])
    df = pd.DataFrame({"placement": placement, "aim": aim, "p_success": p, "ci_low": low, "ci_high": high})
    return df if speed is None else df.assign(speed=speed)


def _outline_cells(ax):
    """The outline's unit segments as a set of ((x0, y0), (x1, y1)) with ends in order."""
    (lines,) = [c for c in ax.collections if isinstance(c, LineCollection)]
    return {tuple(sorted(tuple(np.round(pt, 9)) for pt in seg)) for seg in lines.get_segments()}


def test_heatmap_outlines_the_cells_whose_interval_overlaps_the_best_cells():
    # best (0.1 m, 0 deg): 0.8 [0.7, 0.9]; (0, 0) reaches 0.7 and (0.1, 1 deg) 0.75: overlap;
    # the others stop below 0.7
    p = [0.5, 0.2, 0.8, 0.6, 0.1, 0.3]
    df = _cells(p, [0.4, 0.1, 0.7, 0.45, 0.0, 0.2], [0.7, 0.3, 0.9, 0.75, 0.2, 0.45])
    ax = plot_parameter_heatmap(df, interval="overlap")
    # cell edges: placements at -0.05, 0.05, 0.15, 0.25 m; aims at -0.5, 0.5, 1.5 deg
    ex, ey = [-0.05, 0.05, 0.15, 0.25], [-0.5, 0.5, 1.5]
    edges = {((ex[0], ey[0]), (ex[1], ey[0])), ((ex[1], ey[0]), (ex[2], ey[0])),  # below the bottom row
             ((ex[0], ey[0]), (ex[0], ey[1])), ((ex[2], ey[0]), (ex[2], ey[1])),  # left of (0, 0), right of (0.1, 0)
             ((ex[0], ey[1]), (ex[1], ey[1])),  # above (0, 0)
             ((ex[1], ey[1]), (ex[1], ey[2])), ((ex[2], ey[1]), (ex[2], ey[2])),  # either side of (0.1, 1)
             ((ex[1], ey[2]), (ex[2], ey[2]))}  # above (0.1, 1)  # fmt: skip
    assert _outline_cells(ax) == {tuple(sorted((tuple(np.round(a, 9)), tuple(np.round(b, 9))))) for a, b in edges}
    (ring,) = [line for line in ax.lines if line.get_marker() == "o"]
    np.testing.assert_allclose(np.column_stack([ring.get_xdata(), ring.get_ydata()]), [[0.1, 0.0]], atol=1e-12)
    assert ring.get_markeredgecolor() == "red"
    assert "the 3 of 6 cells whose confidence interval" in ax.get_title()
    assert "(red ring)" in ax.get_title()


def test_heatmap_interval_is_that_of_the_cell_shown():
    # at (0, 0) two speeds: the max, 0.6 [0.55, 0.65], is shown; the slower one's wide interval
    # [0, 0.95] would overlap the best's [0.8, 1.0], the shown one does not
    p = [0.6, 0.3, 0.1, 0.1, 0.9, 0.9, 0.1, 0.1]
    df = _cells(p, [0.55, 0.0, 0.0, 0.0, 0.8, 0.8, 0.0, 0.0], [0.65, 0.95, 0.2, 0.2, 1.0, 1.0, 0.2, 0.2],
                speed=[2.0, 3.0] * 4)  # fmt: skip
    ax = plot_parameter_heatmap(df, interval="overlap")
    assert "the 1 of 4 cells" in ax.get_title()  # the best alone: 2 with the slower speed's interval
    ax = plot_parameter_heatmap(df, interval="width")
    mesh = ax.collections[0]
    np.testing.assert_allclose(np.asarray(mesh.get_array()).reshape(2, 2), [[0.1, 0.2], [0.2, 0.2]], atol=1e-12)
    assert ax.figure.axes[-1].get_ylabel() == "width of the confidence interval of the success probability"
    assert ax.get_title().endswith("(of the cell of max over speed)")
    assert mesh.norm.vmin == 0.0


def test_heatmap_interval_names_the_level_of_a_success_map(smap):
    ax = plot_parameter_heatmap(smap[1], interval="overlap")
    assert "95 % interval overlaps the best cell's" in ax.get_title().replace("\n", " ")


def test_heatmap_interval_refusals_name_the_parameter(smap):
    df = smap[1]
    with pytest.raises(ValueError, match="'interval' parameter"):
        plot_parameter_heatmap(df, interval="band")
    with pytest.raises(ValueError, match="'interval' parameter needs value='p_success'.*'p_foul'"):
        plot_parameter_heatmap(df, value="p_foul", interval="width")
    with pytest.raises(ValueError, match="'table' parameter must be a DataFrame with columns"):
        plot_parameter_heatmap(df.drop(columns="ci_high"), interval="overlap")
    with pytest.raises(ValueError, match="'interval' parameter needs reduce 'max' or 'min'"):
        plot_parameter_heatmap(df, y="speed", reduce="mean", interval="overlap")


def _fans_and_hatching(ax):
    polys = [c for c in ax.collections if isinstance(c, PolyCollection)]
    fans = [c for c in polys if not c.get_hatch()]
    hatched = [c for c in polys if c.get_hatch()]
    assert len(fans) == 1 and len(hatched) <= 1
    return fans[0], (hatched[0].get_paths() if hatched else [])


@pytest.fixture(scope="module")
def few_and_many(straight_scene):
    """A straight pot (aim 0) from 4 noiseless replicas and a near-straight one (aim 0.5
    deg) from 100: every replica pots, so the counts are 4 of 4 and 100 of 100."""
    grid = ShotGrid(placement=[PLACE[0]], angle_deg=[0.0, 0.5], speed=[SOFT], aim="ghost")
    few, many = (success_map(straight_scene, PocketPiece(0, "ne"), grid, noise=NoiseModel.preset("none"), replicas=r,
                             progress=False) for r in (4, 100))  # fmt: skip
    table = pd.concat([few.iloc[[0]], many.iloc[[1]]], ignore_index=True)
    assert table["n_success"].tolist() == [4, 100] and table["n_valid"].tolist() == [4, 100]
    return table


def test_fan_hatches_the_wedge_of_few_shots_and_not_the_one_of_many(few_and_many, straight_scene):
    (lo_few, hi_few), (lo_many, hi_many) = wilson(4, 4), wilson(100, 100)
    w_few, w_many = hi_few - lo_few, hi_many - lo_many  # 0.490 and 0.037
    assert w_few > 0.2 > w_many
    ax = plot_success_board(few_and_many, straight_scene)
    fans, hatched = _fans_and_hatching(ax)
    assert len(hatched) == 1  # the wedge at aim 0 (the first, fans go by aim), of 4 shots
    np.testing.assert_allclose(hatched[0].vertices, fans.get_paths()[0].vertices, atol=1e-12)
    assert ax.get_title().splitlines()[1] == f"confidence intervals {w_many:.2f} to {w_few:.2f} wide; 1 of 2 wedges hatched"
    assert ax.figure.axes[-1].get_xlabel().endswith("\nhatched: confidence interval wider than 0.2")
    # the width drawn is Wilson's to 1e-9: the wedge is hatched just below it and not just above
    for limit, n_hatched in ((w_few - 1e-9, 1), (w_few + 1e-9, 0), (w_many - 1e-9, 2), (w_many + 1e-9, 1)):
        assert len(_fans_and_hatching(plot_success_board(few_and_many, straight_scene, max_width=limit))[1]) == n_hatched
    plt.close("all")


def test_fan_of_a_map_names_its_level_and_draws_plain_wedges_without_an_interval(smap):
    scene, df = smap  # one noiseless replica a cell: every interval is wide
    ax = plot_success_board(df, scene)
    fans, hatched = _fans_and_hatching(ax)
    assert len(hatched) == len(fans.get_paths()) > 0
    assert ax.figure.axes[-1].get_xlabel().endswith("\nhatched: 95 % interval wider than 0.2")
    for plain in (plot_success_board(df, scene, interval=False), plot_success_board(df, scene, value="p_foul"),
                  plot_success_board(df.drop(columns="ci_low"), scene)):  # fmt: skip
        assert _fans_and_hatching(plain)[1] == [] and len(plain.get_title().splitlines()) == 1
    plt.close("all")


def test_fan_interval_is_that_of_the_speed_shown(two_coin_scene):
    # one wedge, two speeds: the max, 0.6 [0.55, 0.65], is shown; the other's interval is wide
    base = {"placement": 0.0, "aim": 0.0, "x": 0.0, "y": -0.2526, "angle": np.pi / 2, "target_distance": 0.5}
    table = pd.DataFrame([{**base, "speed": 2.0, "p_success": 0.6, "ci_low": 0.55, "ci_high": 0.65},
                          {**base, "speed": 3.0, "p_success": 0.3, "ci_low": 0.0, "ci_high": 0.95}])  # fmt: skip
    assert _fans_and_hatching(plot_success_board(table, two_coin_scene))[1] == []
    assert len(_fans_and_hatching(plot_success_board(table, two_coin_scene, reduce="min"))[1]) == 1
    # a mean of two rates has no interval in the table: plain wedges, unless one is asked for
    assert _fans_and_hatching(plot_success_board(table, two_coin_scene, reduce="mean"))[1] == []
    with pytest.raises(ValueError, match="'interval' parameter needs reduce 'max' or 'min' where cells share"):
        plot_success_board(table, two_coin_scene, reduce="mean", interval=True)
    plt.close("all")


def test_fan_interval_refusals_name_the_parameter(smap):
    scene, df = smap
    with pytest.raises(ValueError, match="'interval' parameter needs value='p_success'.*'p_foul'"):
        plot_success_board(df, scene, value="p_foul", interval=True)
    with pytest.raises(ValueError, match="'success' parameter must be a DataFrame with columns"):
        plot_success_board(df.drop(columns="ci_high"), scene, interval=True)
    with pytest.raises(TypeError, match="'interval' parameter must be a bool"):
        plot_success_board(df, scene, interval="yes")
    with pytest.raises(ValueError, match="'max_width' parameter"):
        plot_success_board(df, scene, max_width=1.5)
