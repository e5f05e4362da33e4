"""plot_match_summary: one line per team and variant, abandoned boards marked, PNG output."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from carromlab.match import RandomPolicy, new_state, play_game, play_match  # noqa: E402
from carromlab.plotting.match import plot_match_summary  # noqa: E402
from carromlab.rules.crokinole import CrokinoleOptions  # noqa: E402


@pytest.fixture(autouse=True)
def _figures(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("plt.show() must never be called")

    monkeypatch.setattr(plt, "show", refuse)
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def boards():
    four = play_match("crokinole", 2, players=4, options=CrokinoleOptions(discs_per_player=1, game_target=15), seed=1)
    stuck = play_game(new_state("icf"), RandomPolicy(), seed=1, max_shots_per_board=2)
    return pd.concat([four.boards, stuck.boards], ignore_index=True)


def test_one_line_per_team_and_variant_and_png(boards, tmp_path):
    fig, ax = plt.subplots()
    assert plot_match_summary(boards, ax) is ax
    labels = [line.get_label() for line in ax.get_lines()]
    assert len(labels) == 4 + 2
    assert any("icf 2p, team 0" in lab and "1 abandoned" in lab for lab in labels)
    # the teams in different colours, the variants in different line styles
    colour = {line.get_label().split(", team ")[1][0]: line.get_color() for line in ax.get_lines()}
    assert colour["0"] != colour["1"]
    styles = {line.get_label().split(",")[0]: line.get_linestyle() for line in ax.get_lines()}
    assert len(set(styles.values())) == 2
    assert len(ax.collections) >= 6 + 1  # bands and the abandoned marker
    path = tmp_path / "summary.png"
    fig.savefig(path)
    assert path.stat().st_size > 10_000


def test_band_off_and_a_new_figure(boards):
    ax = plot_match_summary(boards, band=False, linewidth=3)
    assert ax.get_xlabel() == "board" and {line.get_linewidth() for line in ax.get_lines()} == {3}
    assert tuple(ax.figure.get_size_inches()) == (7.0, 4.5)
    assert len(ax.collections) == 2  # only the abandoned-board crosses, one per ICF team


def test_bad_tables_are_refused(boards):
    with pytest.raises(ValueError, match="'boards'"):
        plot_match_summary(boards.drop(columns="score_0"))
    with pytest.raises(ValueError, match="'boards'"):
        plot_match_summary(boards.iloc[:0])


def test_variants_differ_in_marker_and_one_board_games_show_their_spread():
    from carromlab.match.records import TEAM_SLOTS

    one = pd.DataFrame({"variant": "hikone", "players": 2, "game": [0, 1, 2, 3], "board": 1, "end": "rules",
                        "score_0": [0.0, 10.0, 20.0, 30.0], "score_1": 5.0})  # fmt: skip
    for t in range(2, TEAM_SLOTS):
        one[f"score_{t}"] = float("nan")
    many = one.assign(variant="crokinole", board=[1, 2, 1, 2], game=[0, 0, 1, 1])
    ax = plot_match_summary(pd.concat([many, one], ignore_index=True))
    markers = {line.get_label().split(",")[0]: line.get_marker() for line in ax.get_lines()}
    assert markers["crokinole 2p"] != markers["hikone 2p"]
    # hikone team 0 after board 1: quartiles 7.5 and 22.5 of 0, 10, 20, 30, drawn as a bar at board 1
    bars = [seg for c in ax.collections if hasattr(c, "get_segments") for seg in c.get_segments()]
    assert any(np.allclose(seg, [[1, 7.5], [1, 22.5]]) for seg in bars)
    ax.figure.canvas.draw()
    legend = ax.get_legend().get_window_extent()
    assert legend.y1 <= ax.get_window_extent().y0 and legend.y0 >= 0  # under the axes, covering no score
