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
    (HIK-4); an early jack costs ``JACK`` (HIK-5), plus the own pucks of the shot when
    they were the last ones (HIK-6) or under ``void_pucks_with_jack=True``;
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

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
import pandas as pd

from ..engine.scene import Scene
from ..rules.engine_bridge import batch_columns
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

#: Signature of a value function: ``(states, scene, which, batch) -> values``, one value
#: per batch row; row k was played from ``states[which[k]]`` on ``scene``, the states'
#: :func:`~carromlab.rules.engine_bridge.full_scene` (see :func:`~carromlab.match.shot_values`).
ValueFunction = Callable[[Sequence[GameState], Scene, npt.NDArray[np.int64], pd.DataFrame], npt.NDArray[np.float64]]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def _kind_bits(scene: Scene, kind: str) -> np.uint64:
    """Bit mask of the scene pieces of a kind (bit i = scene piece i)."""
    return np.uint64(sum(1 << i for i, k in enumerate(scene.kinds[:-1]) if k == kind))


def _rows(values: Iterable[object], which: IntArray, dtype: object) -> np.ndarray:
    """One value per state, spread to the batch rows (row k gets state ``which[k]``'s)."""
    return np.array(list(values), dtype=dtype)[which]


class _Side(NamedTuple):
    """The shooter's side of a state: team, own and opponent colours, and the number of
    pieces of each (kind, where)."""

    team: int
    own: str
    opp: str
    tally: Counter[tuple[str, str]]


def _sides(states: Sequence[GameState]) -> list[_Side]:
    out = []
    for s in states:
        team = s.team_of(s.shooter)
        out.append(_Side(team, s.colours[team], s.colours[1 - team], Counter((p.kind, p.where) for p in s.pieces)))
    return out


def _carrom(states: Sequence[GameState], scene: Scene, which: IntArray, batch: pd.DataFrame) -> FloatArray:
    bits = {k: _kind_bits(scene, k) for k in set(scene.kinds[:-1])}
    sides = _sides(states)

    mask = batch["pocketed_mask"].to_numpy()
    foul = batch["striker_pocketed"].to_numpy()
    n_own = np.where(foul, 0, np.bitwise_count(mask & _rows((bits.get(d.own, 0) for d in sides), which, np.uint64)).astype(np.int64))
    n_opp = np.bitwise_count(mask & _rows((bits.get(d.opp, 0) for d in sides), which, np.uint64)).astype(np.int64)
    queen_down = ((mask & bits.get("queen", np.uint64(0))) != 0) & ~foul
    own_down = _rows((d.tally[d.own, "pocketed"] > 0 for d in sides), which, bool)
    online = _rows((s.variant == "online" for s in states), which, bool)
    queen_ok = queen_down & (own_down | (online & (n_own > 0)))
    pending = _rows((s.queen_status == "pending" and s.queen_team == d.team for s, d in zip(states, sides)), which, bool)
    covered = _rows((s.queen_status == "covered" for s in states), which, bool) | ((pending | queen_ok) & (n_own > 0))
    value = n_own - n_opp + QUEEN * queen_ok - FOUL * foul
    clears_own = (n_own == _rows((d.tally[d.own, "board"] for d in sides), which, np.int64)) & (n_own > 0)
    clears_opp = (n_opp == _rows((d.tally[d.opp, "board"] for d in sides), which, np.int64)) & (n_opp > 0)
    value = np.where(clears_own, np.where(covered, BOARD, -BOARD), value)
    return np.where(clears_opp, -BOARD, value).astype(float)


def _hikone(states: Sequence[GameState], scene: Scene, which: IntArray, batch: pd.DataFrame) -> FloatArray:
    bits = {k: _kind_bits(scene, k) for k in set(scene.kinds[:-1])}
    sides = _sides(states)

    mask = batch["pocketed_mask"].to_numpy()
    foul = batch["striker_pocketed"].to_numpy()
    n_own = np.bitwise_count(mask & _rows((bits.get(d.own, 0) for d in sides), which, np.uint64)).astype(np.int64)
    n_opp = np.bitwise_count(mask & _rows((bits.get(d.opp, 0) for d in sides), which, np.uint64)).astype(np.int64)
    jack = (mask & bits.get("jack", np.uint64(0))) != 0
    own_left = _rows((d.tally[d.own, "board"] for d in sides), which, np.int64)
    # own pucks of an early-jack shot are void when they were the last ones (HIK-6), or always
    # under HikoneOptions(void_pucks_with_jack=True); otherwise they count (HIK-5 alone)
    void = _rows((s.options.void_pucks_with_jack for s in states), which, bool) | (n_own == own_left)
    value = np.where(foul, -FOUL, n_own) - n_opp - np.where(jack, JACK + np.where(foul | ~void, 0, n_own), 0)
    value = np.where(jack & ~foul & (own_left == 0), WIN, value)
    doubles = [k for k, s in enumerate(states) if s.n_players == 4]
    if doubles:
        # pieces wholly inside the shooter's own area (HIK-9), by state and scene piece
        inside = np.zeros((len(states), scene.n_pieces + 1), bool)
        radius = scene.arrays["radius"]
        for k in doubles:
            s = states[k]
            for p in s.pieces:
                inside[k, p.id] = p.where == "board" and inside_own_area(s, s.shooter, p.x, p.y, radius[p.id])
        value = np.where(inside[which, batch["first_contact"].to_numpy()], -FOUL, value)  # -1 (none) reads the shot disc
    return value.astype(float)


def _zone_points(state: GameState, reach: FloatArray) -> IntArray:
    """Points of discs whose outer edge lies ``reach`` m from the centre (CRK-4: a disc
    touching a line counts for the lower zone; NaN, a disc not on the board, none)."""
    rings = state.board.marks.scoring_rings  # type: ignore[union-attr]
    with np.errstate(invalid="ignore"):
        return np.select([reach < ring for _, ring in rings], [pts for pts, _ in rings], 0).astype(np.int64)


def _crokinole(states: Sequence[GameState], scene: Scene, which: IntArray, batch: pd.DataFrame) -> FloatArray:
    if "final_xy" not in batch.attrs:
        raise ValueError("The 'batch' parameter must come from simulate_batch(..., final_positions=True).")
    first_state = states[0]
    n = scene.n_pieces
    team = _rows((s.team_of(s.shooter) for s in states), which, np.int64)
    # team of each disc (the disc played is the shooter's colour), by state
    owner = np.array([[s.colours.index(k) for k in scene.kinds] for s in states])[which]
    bit = np.uint64(1) << np.arange(n + 1, dtype=np.uint64)
    xy = batch.attrs["final_xy"].astype(float)
    batch = batch_columns(batch)  # columns read without copying the final positions
    pocketed = (batch["pocketed_mask"].to_numpy()[:, None] & bit) != 0
    ditched = (batch["ditch_mask"].to_numpy()[:, None] & bit) != 0
    radius = scene.arrays["radius"]
    dist = np.hypot(xy[..., 0], xy[..., 1])
    points = np.where(pocketed, HOLE_POINTS, np.where(ditched, 0, _zone_points(first_state, dist + radius)))
    rows = np.arange(len(batch))
    # an opponent disc on the board before the shot
    contested = _rows((any(p.where == "board" and p.kind != scene.striker for p in s.pieces) for s in states), which, bool)
    first = batch["first_contact"].to_numpy().astype(np.int64)
    hit_opponent = (first >= 0) & (owner[rows, np.maximum(first, 0)] != team)
    points[contested & ~hit_opponent, n] = 0
    struck = np.flatnonzero(contested & ~hit_opponent & (first >= 0))
    points[struck, first[struck]] = 0
    ring_15 = first_state.board.marks.ring_15_radius  # type: ignore[union-attr]
    with np.errstate(invalid="ignore"):
        points[~contested & ~pocketed[:, n] & (dist[:, n] - radius[n] > ring_15), n] = 0
    n_teams = first_state.n_teams
    in_hole = _rows(
        ([sum(1 for p in s.pieces if p.where == "hole" and p.kind == s.colours[t]) for t in range(n_teams)] for s in states),
        which, np.int64,
    )  # fmt: skip
    totals = np.stack([np.where(owner == t, points, 0).sum(axis=1) for t in range(n_teams)], axis=1) + HOLE_POINTS * in_hole
    others = np.where(np.arange(n_teams)[None, :] == team[:, None], np.iinfo(np.int64).min, totals).max(axis=1)
    return (totals[rows, team] - others).astype(float)


_FAMILIES: dict[str, ValueFunction] = {"icf": _carrom, "online": _carrom, "hikone": _hikone, "crokinole": _crokinole}


def shot_values(states: Sequence[GameState], scene: Scene, which: npt.ArrayLike, batch: pd.DataFrame) -> FloatArray:
    """Value of each simulated shot for the shooter of the state it was played from (see
    the module notes), for shots from many states at once.

    Parameters
    ----------
    states : sequence of GameState
        The positions the shots are played from, all of one variant and sharing
        ``scene``.
    scene : Scene
        Their engine scene, :func:`carromlab.rules.engine_bridge.full_scene` (scene
        piece j is game piece j; the shot disc comes last).
    which : array_like of int
        For each batch row, the index in ``states`` of the state it was played from.
    batch : pandas.DataFrame
        :func:`carromlab.simulate_batch` summary of the shots on ``scene``, row k
        from the positions of ``states[which[k]]`` (``positions`` and ``on_board``;
        crokinole needs ``final_positions=True``).

    Returns
    -------
    numpy.ndarray
        One value per row, in own-coin (own-puck, crokinole point) units; higher is
        better.

    Raises
    ------
    ValueError
        If the states mix variant families, or ``which`` does not give one state index
        per row.

    Examples
    --------
    >>> import numpy as np
    >>> from carromlab import simulate_batch
    >>> from carromlab.match.policies import piece_arrays
    >>> from carromlab.rules import icf
    >>> from carromlab.rules.engine_bridge import full_scene
    >>> state = icf.new_game()
    >>> scene = full_scene(state)
    >>> xy, on = piece_arrays([state])
    >>> batch = simulate_batch(scene, 0.0, -0.2526, np.pi / 2, [0.1, 6.0], positions=xy[0], on_board=on[0], workers=1)
    >>> shot_values([state], scene, [0, 0], batch).shape
    (2,)
    """
    states = list(states)
    rows = np.asarray(which)
    if not states or len({_FAMILIES[s.variant] for s in states}) != 1:
        raise ValueError(f"The 'states' parameter must hold states of one variant. Got {sorted({s.variant for s in states})}.")
    if rows.shape != (len(batch),) or not np.issubdtype(rows.dtype, np.integer) or (len(rows) and not (0 <= rows.min() <= rows.max() < len(states))):
        raise ValueError(
            f"The 'which' parameter must give each of the {len(batch)} batch rows a state index in [0, {len(states) - 1}]. "
            f"Got {np.shape(which)} entries."
        )
    return _FAMILIES[states[0].variant](states, scene, rows.astype(np.int64), batch)
