"""Checks shared by the match tests."""

import pandas as pd

from carromlab.match import GameRecord, MatchRecord

#: Pieces of every variant (docs/rulebook.md: ICF-1, HIK-1, CRK-5).
TOTALS = {("icf", 2): 19, ("online", 2): 19, ("hikone", 2): 25, ("hikone", 4): 25, ("crokinole", 2): 24, ("crokinole", 4): 24}
#: Rule-id prefix of each variant's rulings (online rulings also cite ICF rules they share).
PREFIXES = {"icf": ("ICF-",), "online": ("ONL-", "ICF-"), "hikone": ("HIK-",), "crokinole": ("CRK-",)}


def check_match(rec: MatchRecord | GameRecord, total: int) -> None:
    """Every game ended with a result or a reported reason, the tables agree, and every
    recorded shot conserved the pieces."""
    games, boards, shots = rec.games, rec.boards, rec.shots
    assert set(games["end"]) <= {"complete", "abandoned", "max_boards"}
    for g in games.itertuples():
        b, s = boards[boards["game"] == g.game], shots[shots["game"] == g.game]
        assert b["n_shots"].sum() == g.n_shots
        assert len(s) in (0, g.n_shots)  # empty with record=False
        last = b.iloc[-1]
        if g.end == "complete":
            assert last["end"] == "rules"
            # a finished game has a winner, or is a draw the rules allow (ICF-10, 8 boards)
            assert not pd.isna(g.winner) or "ICF-10" in last["reason"]
        elif g.end == "abandoned":
            assert last["end"] == "abandoned" and "max_shots_per_board" in last["reason"] and pd.isna(g.winner)
        else:
            assert last["end"] == "rules" and pd.isna(g.winner)
    census = shots["pieces_board"] + shots["pieces_off"] + shots["pieces_hand"]
    assert (census == shots["pieces_total"]).all() and (shots["pieces_total"] == total).all()
