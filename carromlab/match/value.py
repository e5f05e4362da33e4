"""How good a simulated shot is for the shooter: the value function of the greedy policy.

The value reads the one-row-per-shot summary of :func:`carromlab.simulate_batch` (with
``final_positions=True``) and counts what the rules will make of the shot, simply:

carrom (ICF, online)
    own coins pocketed - opponent coins pocketed (ICF-4, ONL-4), + ``QUEEN`` for the queen
    once an own coin is down (ICF-5; online also with the first coin, ONL-2). A
    pocketed striker voids the own coins and queen of the shot and costs ``FOUL``
    (ICF-11, ONL-3). Pocketing the last coin of either colour ends the board:
    ``+BOARD`` for the shooter's own last coin with the queen covered (ICF-7), else
    ``-BOARD`` (ICF-14, ICF-15, ONL-5).
Hikone
    own pucks - opponent pucks (HIK-3); the jack once all own pucks are in is ``WIN``
    (HIK-4); an early jack costs ``JACK`` plus the own pucks of the shot (HIK-5, HIK-6);
    a pocketed striker voids the own pucks and costs ``FOUL`` (HIK-7); in doubles a
    first contact with a piece inside the own area line costs ``FOUL`` (HIK-9, read
    without the cushion-first exception, which the summary does not record).
crokinole
    the shooter's total minus the best opponent total after the shot (CRK-4, CRK-5),
    from the zones of the final positions and the 20-hole. With no opponent disc on
    the board, a disc played that stops outside the 15 ring scores nothing (CRK-2);
    with opponents on the board, a shot whose first contact is not an opponent disc
    removes the disc played and the disc first struck (CRK-3, the chain read as its
    first link only).

These are heuristics for choosing a shot, not the rules: the ruling on the executed shot
always comes from :func:`carromlab.rules.adjudicate`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
import numpy.typing as npt
import pandas as pd

from ..engine.scene import Scene
from ..rules.hikone import inside_own_area
from ..rules.state import GameState

__all__ = ["QUEEN", "FOUL", "BOARD", "JACK", "WIN", "HOLE_POINTS", "ValueFunction", "shot_values"]

#: Value of a queen pocketed when it may be (an own coin down), own-coin units.
QUEEN = 1.0
#: Cost of a striker foul (a coin or puck back and the turn lost), own-coin units.
FOUL = 2.0
#: Value of ending a carrom board: won (+) or lost (-), own-coin units.
BOARD = 10.0
#: Cost of a Hikone jack pocketed too early (5 pucks back, HIK-5).
JACK = 5.0
#: Value of pocketing the Hikone jack after every own puck (the game, HIK-4).
WIN = 100.0
#: Points of a crokinole disc in the 20-hole (CRK-2).
HOLE_POINTS = 20

#: Signature of a value function: ``(state, scene, ids, batch) -> values`` (one per row).
ValueFunction = Callable[[GameState, Scene, np.ndarray, pd.DataFrame], npt.NDArray[np.float64]]

IntArray = npt.NDArray[np.int64]


def _bits(flags: Iterable[bool]) -> np.uint64:
    """Bit mask of the scene pieces whose flag is set (bit i = scene piece i)."""
    return np.uint64(sum(1 << i for i, f in enumerate(flags) if f))


def _count(mask: npt.NDArray[np.uint64], bits: np.uint64) -> IntArray:
    return np.bitwise_count(mask & bits).astype(np.int64)


def _carrom(state: GameState, scene: Scene, ids: np.ndarray, batch: pd.DataFrame) -> npt.NDArray[np.float64]:
    team = state.team_of(state.shooter)
    own, opp = state.colours[team], state.colours[1 - team]
    kinds = scene.kinds[:-1]
    mask = batch["pocketed_mask"].to_numpy()
    foul = batch["striker_pocketed"].to_numpy()
    n_own = np.where(foul, 0, _count(mask, _bits(k == own for k in kinds)))
    n_opp = _count(mask, _bits(k == opp for k in kinds))
    queen_down = (_count(mask, _bits(k == "queen" for k in kinds)) > 0) & ~foul
    if state.variant == "online":
        queen_ok = queen_down & ((state.count(own, "pocketed") > 0) | (n_own > 0))
    else:
        queen_ok = queen_down & (state.count(own, "pocketed") > 0)
    pending = state.queen_status == "pending" and state.queen_team == team
    covered = (state.queen_status == "covered") | ((pending | queen_ok) & (n_own > 0))
    value = n_own - n_opp + QUEEN * queen_ok - FOUL * foul
    clears_own = (n_own == state.count(own)) & (n_own > 0)
    clears_opp = (n_opp == state.count(opp)) & (n_opp > 0)
    value = np.where(clears_own, np.where(covered, BOARD, -BOARD), value)
    return np.where(clears_opp, -BOARD, value).astype(float)


def _hikone(state: GameState, scene: Scene, ids: np.ndarray, batch: pd.DataFrame) -> npt.NDArray[np.float64]:
    seat = state.shooter
    team = state.team_of(seat)
    own, opp = state.colours[team], state.colours[1 - team]
    kinds = scene.kinds[:-1]
    mask = batch["pocketed_mask"].to_numpy()
    foul = batch["striker_pocketed"].to_numpy()
    n_own = _count(mask, _bits(k == own for k in kinds))
    n_opp = _count(mask, _bits(k == opp for k in kinds))
    jack = _count(mask, _bits(k == "jack" for k in kinds)) > 0
    value = np.where(foul, -FOUL, n_own) - n_opp - np.where(jack, JACK + np.where(foul, 0, n_own), 0)
    value = np.where(jack & ~foul & (state.count(own) == 0), WIN, value)
    if state.n_players == 4:
        xy = scene.arrays["xy"]
        radius = scene.arrays["radius"]
        inside = [i for i in range(scene.n_pieces) if inside_own_area(state, seat, xy[i, 0], xy[i, 1], radius[i])]
        value = np.where(np.isin(batch["first_contact"].to_numpy(), inside), -FOUL, value)
    return value.astype(float)


def _zone_points(state: GameState, reach: npt.NDArray[np.float64]) -> IntArray:
    """Points of discs whose outer edge lies ``reach`` m from the centre (CRK-4: a disc
    touching a line counts for the lower zone)."""
    rings = state.board.marks.scoring_rings  # type: ignore[union-attr]
    return np.select([reach < ring for _, ring in rings], [pts for pts, _ in rings], 0).astype(np.int64)


def _crokinole(state: GameState, scene: Scene, ids: np.ndarray, batch: pd.DataFrame) -> npt.NDArray[np.float64]:
    if "final_xy" not in batch.attrs:
        raise ValueError("The 'batch' parameter must come from simulate_batch(..., final_positions=True).")
    team = state.team_of(state.shooter)
    n = scene.n_pieces
    owner = np.array([state.colours.index(k) for k in scene.kinds])  # the disc played is the shooter's colour
    bit = np.uint64(1) << np.arange(n + 1, dtype=np.uint64)
    pocketed = (batch["pocketed_mask"].to_numpy()[:, None] & bit) != 0
    ditched = (batch["ditch_mask"].to_numpy()[:, None] & bit) != 0
    xy = batch.attrs["final_xy"].astype(float)
    radius = scene.arrays["radius"]
    dist = np.hypot(xy[..., 0], xy[..., 1])
    points = np.where(pocketed, HOLE_POINTS, np.where(ditched, 0, _zone_points(state, dist + radius)))
    if any(k != scene.striker for k in scene.kinds[:-1]):  # an opponent disc is on the board
        first = batch["first_contact"].to_numpy().astype(np.int64)
        hit_opponent = (first >= 0) & (owner[np.maximum(first, 0)] != team)
        points[~hit_opponent, n] = 0
        struck = np.flatnonzero(~hit_opponent & (first >= 0))
        points[struck, first[struck]] = 0
    else:
        ring_15 = state.board.marks.ring_15_radius  # type: ignore[union-attr]
        points[~pocketed[:, n] & (dist[:, n] - radius[n] > ring_15), n] = 0
    totals = np.zeros((len(batch), state.n_teams))
    for t in range(state.n_teams):
        totals[:, t] = points[:, owner == t].sum(axis=1) + HOLE_POINTS * sum(
            1 for p in state.pieces if p.where == "hole" and p.kind == state.colours[t]
        )
    others = np.delete(totals, team, axis=1)
    return totals[:, team] - others.max(axis=1)


_FAMILIES: dict[str, ValueFunction] = {"icf": _carrom, "online": _carrom, "hikone": _hikone, "crokinole": _crokinole}


def shot_values(state: GameState, scene: Scene, ids: np.ndarray, batch: pd.DataFrame) -> npt.NDArray[np.float64]:
    """Value of each simulated shot for the shooter of ``state`` (see the module notes).

    Parameters
    ----------
    state : GameState
        The position the shots are played from.
    scene : Scene
        Its engine scene, from :func:`carromlab.rules.engine_bridge.scene_for`.
    ids : numpy.ndarray
        Game id of each scene piece.
    batch : pandas.DataFrame
        :func:`carromlab.simulate_batch` summary of the shots on ``scene``
        (crokinole needs ``final_positions=True``).

    Returns
    -------
    numpy.ndarray
        One value per row, in own-coin (own-puck, crokinole point) units; higher is
        better.

    Examples
    --------
    >>> import numpy as np
    >>> from carromlab import simulate_batch
    >>> from carromlab.rules import icf
    >>> from carromlab.rules.engine_bridge import scene_for
    >>> state = icf.new_game()
    >>> scene, ids = scene_for(state)
    >>> batch = simulate_batch(scene, 0.0, -0.2526, np.pi / 2, [0.1, 6.0], workers=1)
    >>> shot_values(state, scene, ids, batch).shape
    (2,)
    """
    return _FAMILIES[state.variant](state, scene, ids, batch)
