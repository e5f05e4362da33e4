"""Piece conservation: no piece is created, lost or moved without a reason.

Checked after every shot of a simulated game. A violation is a bug in the rules, the
engine bridge or the engine, never a game event, so it raises :class:`~carromlab.match.ConservationError`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from ..engine import _core
from ..rules.arrays import WHERE, GameArrays, OutcomeArrays, RulingArrays
from ..rules.outcome import ShotOutcome
from ..rules.ruling import Ruling
from ..rules.state import LOCATIONS, GameState

__all__ = ["POSITION_TOL", "OVERLAP_TOL", "ConservationError", "Inventory", "census", "check_shots"]

#: Largest difference between a piece's position in the new state and where the engine
#: left it, m.
POSITION_TOL = 1e-9
#: Largest overlap of two pieces on the board, or of a piece with the board's edge, m
#: (the engine keeps overlaps below 5e-11 m).
OVERLAP_TOL = 1e-7

#: Rules that may take a piece the engine left on the board off it (crokinole: the disc
#: played outside the 15 ring, the discs of a shot that struck no opponent).
_REMOVING_RULES = frozenset({"CRK-2", "CRK-3"})
#: Fouls that void a shot and put every piece back where it was (Hikone doubles); read
#: among the fouls only: a later shot paying a debt of that foul cites the rule too.
_VOIDING_RULES = frozenset({"HIK-9"})


_LOCATIONS = tuple(sorted(LOCATIONS))


def _on_board(state: GameState) -> dict[int, tuple[float, float]]:
    """Position of every piece on the board (checked to exist by ``check_state``), m."""
    return {p.id: (p.x, p.y) for p in state.pieces if p.where == "board" and p.x is not None and p.y is not None}


class ConservationError(RuntimeError):
    """Pieces were created, lost, or moved in a way no rule explains."""


def census(state: GameState) -> dict[str, int]:
    """Number of pieces at each location.

    Parameters
    ----------
    state : GameState
        Any state.

    Returns
    -------
    dict of str to int
        One entry per location of :data:`carromlab.rules.state.LOCATIONS` (``board``,
        ``pocketed``, ``hand``, ``ditch``, ``hole``); they add up to the number of pieces.

    Examples
    --------
    >>> from carromlab.rules import icf
    >>> census(icf.new_game())["board"]
    19
    """
    counts = dict.fromkeys(_LOCATIONS, 0)
    for p in state.pieces:
        counts[p.where] += 1
    return counts


@dataclass(frozen=True)
class Inventory:
    """The pieces of a game: id and kind of each, fixed at the start.

    Parameters
    ----------
    kinds : tuple of (int, str)
        ``(id, kind)`` of every piece, sorted by id.

    Examples
    --------
    >>> from carromlab.rules import hikone
    >>> inv = Inventory.of(hikone.new_game())
    >>> inv.total, inv.totals()["red"]
    (25, 12)
    """

    kinds: tuple[tuple[int, str], ...]

    @classmethod
    def of(cls, state: GameState) -> Inventory:
        """The inventory of the pieces of ``state``."""
        return cls(tuple(sorted((p.id, p.kind) for p in state.pieces)))

    @property
    def total(self) -> int:
        """Number of pieces."""
        return len(self.kinds)

    def totals(self) -> dict[str, int]:
        """Number of pieces of each kind."""
        return dict(Counter(k for _, k in self.kinds))

    def check_state(self, state: GameState) -> None:
        """Raise :class:`~carromlab.match.ConservationError` unless ``state`` holds exactly these pieces
        (same ids and kinds), every piece on the board has a position on the playing
        surface, and no two pieces on the board overlap (by more than
        :data:`.OVERLAP_TOL`)."""
        have = tuple(sorted((p.id, p.kind) for p in state.pieces))
        if have != self.kinds:
            lost = sorted(set(self.kinds) - set(have))
            new = sorted(set(have) - set(self.kinds))
            raise ConservationError(f"The pieces changed: lost {lost}, appeared {new} (census {census(state)}).")
        on = [p for p in state.pieces if p.where == "board"]
        if any(p.position is None for p in on):
            raise ConservationError(f"Pieces on the board without a position: {[p.id for p in on if p.position is None]}.")
        if not on:
            return
        xy = np.array([p.position for p in on])
        r = np.array([state.radius(p.kind) for p in on])
        board = state.board
        inside = board.contains(xy[:, 0], xy[:, 1], np.maximum(r - OVERLAP_TOL, 0.0))
        if not inside.all():
            off = [p.id for p, ok in zip(on, inside) if not ok]
            raise ConservationError(f"Pieces off the playing surface but counted on the board: {off}.")
        gap = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1)) - (r[:, None] + r[None, :])
        np.fill_diagonal(gap, np.inf)
        if gap.min() < -OVERLAP_TOL:
            i, j = np.unravel_index(int(np.argmin(gap)), gap.shape)
            raise ConservationError(f"Pieces {on[i].id} and {on[j].id} overlap by {-gap[i, j]:.3g} m on the board.")

    def check_shot(self, before: GameState, outcome: ShotOutcome, ruling: Ruling) -> None:
        """Raise :class:`~carromlab.match.ConservationError` unless the shot conserved the pieces.

        After every shot the new state passes :meth:`check_state`. Within a board (the
        shot neither ended it nor was retaken), the pieces on the board after the ruling
        are exactly those the engine left on the board, minus those a rule took off
        (only CRK-2 and CRK-3 may), plus those the ruling put back
        (``ruling.returned``): on board = engine on board - removed + returned. A shot
        voided by the HIK-9 foul starts from the pieces on the board before it. The pieces the
        engine left on the board keep its positions. A retaken shot (ICF-16, ONL-9)
        changes no piece.

        Parameters
        ----------
        before : GameState
            The state the shot was played from.
        outcome : ShotOutcome
            What happened (with ``final_positions``).
        ruling : Ruling
            The ruling on it.
        """
        after = ruling.state
        self.check_state(after)
        if ruling.retake:
            if after.pieces != before.pieces:
                raise ConservationError("A retaken shot (ICF-16, ONL-9) moved pieces.")
            return
        if ruling.board_over:
            return
        engine: dict[int, tuple[float, float]]
        if {f.rule for f in ruling.fouls} & _VOIDING_RULES:
            engine = _on_board(before)
        elif outcome.final_positions is None:
            raise ConservationError("The outcome has no final positions to check the new state against.")
        else:
            fp = outcome.final_positions
            on = fp[fp["on_board"]]
            engine = {int(i): (float(x), float(y)) for i, x, y in zip(on["id"], on["x"], on["y"])}
        now = _on_board(after)
        returned = {p.piece_id for p in ruling.returned}
        removed = set(engine) - set(now)
        added = set(now) - set(engine)
        if removed and not ruling.rule_ids & _REMOVING_RULES:
            raise ConservationError(f"Pieces {sorted(removed)} left on the board by the engine were taken off by no rule.")
        if added != returned - removed:
            raise ConservationError(
                f"Pieces on the board after the shot do not match the engine's and the ruling's: "
                f"{sorted(added)} appeared, {sorted(returned)} were returned."
            )
        for pid in set(engine) & set(now) - returned:
            (x0, y0), (x1, y1) = engine[pid], now[pid]
            if abs(x1 - x0) > POSITION_TOL or abs(y1 - y0) > POSITION_TOL:
                raise ConservationError(
                    f"Piece {pid} moved from where the engine left it ({x0:.6g}, {y0:.6g}) to ({x1:.6g}, {y1:.6g}) "
                    "without a rule."
                )


def _overlapping(xy: np.ndarray, r: np.ndarray, on: np.ndarray) -> np.ndarray:
    """Which pieces on the board (``on``, shape (N, P)) overlap another by more than
    :data:`.OVERLAP_TOL`: their centres (``xy``, (N, P, 2), m) are nearer than their radii
    (``r``, (P,), m) added less the tolerance (``hypot``; NaN centres overlap nothing), in
    the compiled pair loop of the engine's position check (``engine/_core.pyx``)."""
    return _core.overlapping(np.ascontiguousarray(xy, dtype=float), np.ascontiguousarray(on).view(np.uint8),
                             np.ascontiguousarray(r, dtype=float), OVERLAP_TOL)  # fmt: skip


def check_shots(before: GameArrays, outcomes: OutcomeArrays, rulings: RulingArrays) -> None:
    """Raise :class:`~carromlab.match.ConservationError` unless each of N shots conserved
    the pieces: the array form of :meth:`Inventory.check_shot
    <carromlab.match.Inventory.check_shot>`, checked on every game of a lockstep step.

    The pieces themselves (ids and kinds) are the columns of the arrays, so none can be
    created or lost; every piece on the board after the ruling has a position on the
    playing surface and overlaps no other (by more than :data:`.OVERLAP_TOL`); a retaken
    shot changes no piece; within a board, on board = engine on board - removed (only
    CRK-2, CRK-3) + returned, a shot voided by the HIK-9 foul starting from the pieces before it,
    and the pieces the engine left keep its positions (within :data:`POSITION_TOL`).

    Parameters
    ----------
    before : GameArrays
        The games the shots were played from.
    outcomes : OutcomeArrays
        What happened (``final_xy`` NaN for the pieces the engine did not leave on the board).
    rulings : RulingArrays
        The rulings on them.

    Raises
    ------
    ConservationError
        Naming the first game (row) that fails and the pieces.
    """
    after = rulings.state
    board = WHERE.index("board")
    on = after.where == board
    xy = after.xy
    r = after.radius_of()
    with np.errstate(invalid="ignore"):
        inside = after.board.contains(xy[..., 0], xy[..., 1], np.maximum(r - OVERLAP_TOL, 0.0))
    overlapping = _overlapping(xy, r, on)
    retaken = np.flatnonzero(rulings.retake)
    same = np.ones(on.shape, dtype=bool)  # (tested on the retaken shots only: a few breaks)
    if retaken.size:
        same[retaken] = (after.where[retaken] == before.where[retaken]) & (
            (after.xy[retaken] == before.xy[retaken]) | (np.isnan(after.xy[retaken]) & np.isnan(before.xy[retaken]))
        ).all(axis=2)
    ids = set(rulings.rules)

    def any_rule(names: frozenset[str], fouls_only: bool = False) -> np.ndarray:
        """Whether each shot was ruled by one of the rules ``names`` (a foul, or applied)."""
        cols = [rulings.rules.index(x) for x in names if x in ids]
        if not cols:  # (the variant has none of them)
            return np.zeros(len(on), bool)
        called = rulings.fouls[:, cols] > 0
        return (called if fouls_only else called | (rulings.applied[:, cols] > 0)).any(axis=1)

    within = ~rulings.retake & ~rulings.board_over
    # where the engine left the pieces; a voided shot (a few games) starts from before it
    engine, left_at = ~np.isnan(outcomes.final_xy[..., 0]), outcomes.final_xy
    void = np.flatnonzero(any_rule(_VOIDING_RULES, fouls_only=True))
    if void.size:
        left_at = left_at.copy()
        engine[void], left_at[void] = before.where[void] == board, before.xy[void]
    returned = rulings.returned > 0
    removed, added = engine & ~on, on & ~engine
    off = np.abs(xy - left_at) > POSITION_TOL
    moved = (off[..., 0] | off[..., 1]) & engine & on & ~returned
    checks = (
        (on & np.isnan(xy[..., 0]), "pieces on the board without a position"),
        (on & ~inside, "pieces off the playing surface but counted on the board"),
        (overlapping, "pieces overlapping on the board"),
        (rulings.retake[:, None] & ~same, "a retaken shot (ICF-16, ONL-9) moved pieces"),
        (within[:, None] & removed & ~any_rule(_REMOVING_RULES)[:, None], "pieces left on the board by the engine taken off by no rule"),
        (within[:, None] & (added != (returned & ~removed)), "pieces on the board not matching the engine's and the ruling's"),
        (within[:, None] & moved, "pieces moved from where the engine left them without a rule"),
    )
    for bad, message in checks:
        if bad.any():
            g = int(np.flatnonzero(bad.any(axis=1))[0])
            raise ConservationError(f"Game row {g}: {message}: {np.flatnonzero(bad[g]).tolist()}.")
