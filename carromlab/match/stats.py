"""What the rules change, measured over many simulated games: the breaker's advantage.

A board is opened ("broken") by one seat; if the break is worth something, the team that
breaks wins more than its fair share (one in the number of teams) of the decided boards.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import check_table
from ..analysis.stats import binomial_ci
from .records import TEAM_SLOTS

__all__ = ["breaker_advantage"]

_NEEDED = ("variant", "players", "board", "first", "end", "winner", *(f"score_{t}" for t in range(TEAM_SLOTS)))


def breaker_advantage(boards: pd.DataFrame, *, confidence: float = 0.95) -> pd.DataFrame:
    """How often the team that opens a board wins it, per variant and number of players.

    A board counts when the rules decided it with a winner (abandoned and tied boards
    are left out and counted apart). The breaking team is ``first % n_teams``, as in
    :class:`carromlab.rules.GameState`; the number of teams is read from the table (the
    per-team score columns a variant fills).

    Parameters
    ----------
    boards : pandas.DataFrame
        A boards table (:data:`~carromlab.match.records.BOARD_COLUMNS`), e.g.
        ``play_match(...).boards``, possibly of several variants concatenated.
    confidence : float
        Level of the Wilson interval of ``p`` (:func:`carromlab.analysis.binomial_ci`),
        in (0, 1). Default 0.95.

    Returns
    -------
    pandas.DataFrame
        One row per (``variant``, ``players``): ``teams``, ``boards`` (all boards),
        ``decided`` (boards with a winner), ``ties_or_abandoned``, ``breaker_won``, ``p``
        (``breaker_won / decided``), ``p_low``, ``p_high`` (its interval), ``fair``
        (``1 / teams``, what ``p`` would be if opening were worth nothing) and
        ``advantage`` (``p - fair``).

    Raises
    ------
    ValueError
        If ``boards`` lacks a column or has no rows.

    Examples
    --------
    >>> from carromlab.match import play_match
    >>> from carromlab.rules.crokinole import CrokinoleOptions
    >>> rec = play_match("crokinole", 2, options=CrokinoleOptions(discs_per_player=2, game_target=5))
    >>> breaker_advantage(rec.boards)[["variant", "players", "teams", "fair"]].to_string(index=False)
    '  variant  players  teams  fair\\ncrokinole        2      2   0.5'
    """
    check_table("boards", boards, _NEEDED, "a boards table")
    rows = []
    for (variant, players), g in boards.groupby(["variant", "players"], sort=True):
        teams = sum(bool(g[f"score_{t}"].notna().any()) for t in range(TEAM_SLOTS))
        decided = (g["end"] == "rules") & g["winner"].notna()
        breaker = g["first"].to_numpy(dtype=np.int64) % teams
        won = int((decided & (g["winner"].to_numpy(dtype=float, na_value=-1.0) == breaker)).sum())
        n = int(decided.sum())
        rows.append({"variant": variant, "players": int(players), "teams": teams, "boards": len(g), "decided": n,
                     "ties_or_abandoned": len(g) - n, "breaker_won": won})  # fmt: skip
    out = pd.DataFrame(rows)
    with np.errstate(invalid="ignore", divide="ignore"):
        out["p"] = np.where(out["decided"] > 0, out["breaker_won"] / out["decided"].clip(lower=1), np.nan)
    low, high = binomial_ci(out["breaker_won"], out["decided"], confidence=confidence)
    out["p_low"], out["p_high"] = low, high
    out["fair"] = 1.0 / out["teams"]
    out["advantage"] = out["p"] - out["fair"]
    return out
