"""Figures that keep their parts apart: tick labels inside the figure, the title clear of
the colour bar, integer board ticks and the same legend facts for every team."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from carromlab import Board, Scene
from carromlab.analysis import NoiseModel, PocketPiece, ShotGrid, success_map
from carromlab.match import RandomPolicy, new_state, play_game
from carromlab.plotting.analysis import plot_foul_probabilities, plot_success_board
from carromlab.plotting.match import plot_match_summary


def _drawn(ax):
    fig = ax.figure
    fig.canvas.draw()
    return fig, fig.canvas.get_renderer()


def test_foul_tick_labels_stay_inside_a_plain_savefig(tmp_path):
    table = pd.DataFrame({"variant": ["icf", "icf", "online", "online"], "rule": ["ICF-11", "any", "ONL-3", "any"],
                          "foul": ["striker pocketed", "any foul"] * 2, "n": [100] * 4, "p": [0.2, 0.2, 0.25, 0.25],
                          "ci_low": [0.13, 0.13, 0.17, 0.17], "ci_high": [0.29, 0.29, 0.34, 0.34]})  # fmt: skip
    ax = plot_foul_probabilities(table)
    fig, renderer = _drawn(ax)
    assert "(ICF-11, ONL-3)" in ax.get_xticklabels()[0].get_text()
    for label in ax.get_xticklabels():  # "(ICF-11, ONL-3)" was cut off at the bottom edge
        box = label.get_window_extent(renderer)
        assert box.y0 >= 0 and box.x0 >= 0 and box.x1 <= fig.bbox.width, label.get_text()
    fig.savefig(tmp_path / "fouls.png")


def test_success_board_title_clear_of_the_colour_bar():
    scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [0.25], "y": [0.25]}))
    grid = ShotGrid(placement=[-0.1, 0.1], angle=np.radians([-1.0, 0.0, 1.0]), speed=[3.0], aim="ghost")
    df = success_map(scene, PocketPiece(0), grid, noise=NoiseModel.preset("expert"), replicas=4, progress=False)
    for ax in (None, plt.subplots(1, 3, figsize=(15, 5))[1][0]):
        ax = plot_success_board(df, scene, ax=ax)
        fig, renderer = _drawn(ax)
        bar = fig.axes[-1]
        assert bar is not ax and bar.get_label() == "<colorbar>"
        assert not ax.title.get_window_extent(renderer).overlaps(bar.get_tightbbox(renderer))


def test_match_summary_of_one_board_has_integer_ticks_and_even_legend():
    boards = play_game(new_state("icf"), RandomPolicy(), seed=1, max_shots_per_board=2).boards
    assert len(boards) == 1 and (boards["end"] == "abandoned").all()
    ax = plot_match_summary(boards)
    _drawn(ax)
    low, high = ax.get_xlim()
    ticks = [t for t in ax.get_xticks() if low <= t <= high]
    assert ticks == [1.0]  # not 0.945 ... 1.05
    labels = [line.get_label() for line in ax.get_lines()]
    assert len(labels) == 2 and all(lab.endswith("(1 game, 1 abandoned)") for lab in labels), labels
