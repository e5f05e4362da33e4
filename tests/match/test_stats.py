"""The breaker's advantage, counted by hand on small boards tables."""

import matplotlib

matplotlib.use("Agg")

import pandas as pd
import pytest

from carromlab.match import BOARD_COLUMNS, breaker_advantage, play_match
from carromlab.match.records import frame
from carromlab.plotting import plot_breaker_advantage
from carromlab.rules.crokinole import CrokinoleOptions


def _boards(variant, players, teams, rows):
    """Boards rows (first seat, end, winner team) with the score columns a variant fills."""
    out = []
    for b, (first, end, winner) in enumerate(rows, start=1):
        scores = {f"score_{t}": (0 if t < teams else pd.NA) for t in range(4)}
        out.append({"variant": variant, "players": players, "game": 0, "seed": 0, "board": b, "first": first,
                    "n_shots": 10, "end": end, "reason": "", "winner": winner,
                    **{f"points_{t}": (0 if t < teams else pd.NA) for t in range(4)}, **scores})
    return frame(out, BOARD_COLUMNS)


def test_counts_by_hand():
    singles = _boards("icf", 2, 2, [(0, "rules", 0), (1, "rules", 0), (0, "abandoned", pd.NA), (1, "rules", 1)])
    # doubles: seat 3 is team 1 (team = seat % 2); a tied board is left out
    doubles = _boards("icf", 4, 2, [(3, "rules", 1), (2, "rules", 1), (1, "rules", pd.NA)])
    # four crokinole players are four teams: seat 3 is team 3
    four = _boards("crokinole", 4, 4, [(3, "rules", 3), (0, "rules", 2)])
    t = breaker_advantage(pd.concat([singles, doubles, four], ignore_index=True)).set_index(["variant", "players"])
    assert t.loc[("icf", 2), ["teams", "boards", "decided", "ties_or_abandoned", "breaker_won"]].tolist() == [2, 4, 3, 1, 2]
    assert t.loc[("icf", 2), "p"] == pytest.approx(2 / 3)
    assert t.loc[("icf", 4), ["decided", "breaker_won"]].tolist() == [2, 1]
    assert t.loc[("crokinole", 4), ["teams", "breaker_won"]].tolist() == [4, 1]
    assert t.loc[("crokinole", 4), "fair"] == 0.25
    assert t.loc[("crokinole", 4), "advantage"] == pytest.approx(0.25)
    assert (t["p_low"] <= t["p"]).all() and (t["p"] <= t["p_high"]).all()


def test_no_decided_board_gives_nan():
    t = breaker_advantage(_boards("icf", 2, 2, [(0, "abandoned", pd.NA)]))
    assert t["decided"].iat[0] == 0 and pd.isna(t["p"].iat[0]) and pd.isna(t["p_low"].iat[0])


@pytest.mark.parametrize("bad", [pd.DataFrame({"x": [1]}), "boards", frame([], BOARD_COLUMNS)])
def test_bad_table_names_the_parameter(bad):
    with pytest.raises(TypeError if isinstance(bad, str) else ValueError, match="'boards' parameter"):
        breaker_advantage(bad)


def test_a_played_match_and_its_plot():
    rec = play_match("crokinole", 3, options=CrokinoleOptions(discs_per_player=2, game_target=5), seed=4)
    t = breaker_advantage(rec.boards)
    assert t["boards"].iat[0] == len(rec.boards)
    decided = ((rec.boards["end"] == "rules") & rec.boards["winner"].notna()).sum()
    assert t["decided"].iat[0] == decided
    ax = plot_breaker_advantage(t)
    assert ax.get_xlim() == (0.0, 1.0)
    assert [tk.get_text() for tk in ax.get_yticklabels()] == [f"crokinole 2p ({decided} boards)"]
    assert ax.figure.get_size_inches()[1] < 3.0  # one row: no 6 in of empty axes
    with pytest.raises(ValueError, match="'table' parameter"):
        plot_breaker_advantage(rec.boards)
