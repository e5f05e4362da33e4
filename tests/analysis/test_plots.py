"""Every analysis plot draws on the given axes, returns it and never shows."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.axes import Axes
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
