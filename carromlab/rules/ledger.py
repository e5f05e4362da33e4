"""Pocket accounting shared by the variants: checking an outcome against the state,
moving pieces, penalties and dues, returned-piece placement and the final ruling.

A :class:`Ledger` is a private working copy of a state during one adjudication; the
input state is never changed, and a ValueError raised by :func:`check_outcome` leaves
nothing behind.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import numpy as np

from .._validation import check_type
from ..equipment.board import Board
from .outcome import ShotOutcome
from .ruling import Foul, Placement, Ruling
from .spots import nearest_free_spot, occupied
from .state import DEBT_RULES, GameState, Piece

__all__ = ["FATES_OF", "check_outcome", "check_record", "Ledger", "next_seat", "side_direction", "far_side_point"]

#: Where the shot piece can end in each variant (``ShotOutcome.striker_fate``): resting on
#: the frame is Hikone's (HIK-7), the ditch crokinole's (CRK-2).
FATES_OF = {
    "icf": ("board", "pocketed", "off_board"),
    "online": ("board", "pocketed", "off_board"),
    "hikone": ("board", "pocketed", "off_board", "frame"),
    "crokinole": ("board", "pocketed", "ditch"),
}

#: Unit vector from the board centre towards each side's player.
_SIDE_VECTORS = {"south": (0.0, -1.0), "east": (1.0, 0.0), "north": (0.0, 1.0), "west": (-1.0, 0.0)}


def side_direction(side: str) -> tuple[float, float]:
    """Unit vector from the board centre towards the player of ``side``."""
    return _SIDE_VECTORS[side]


def next_seat(state: GameState, seat: int) -> int:
    """The seat after ``seat`` in playing order."""
    return (seat + 1) % state.n_players


def _bad(message: str) -> ValueError:
    return ValueError(f"The 'outcome' parameter is inconsistent with the game state: {message}.")


def check_record(board: Board, variant: str, outcome: ShotOutcome, name: str = "outcome", *, players: int) -> None:
    """Raise ValueError if the outcome names a pocket the board lacks, puts a piece on
    the board outside the playing surface, or in Hikone doubles leaves the direct hits
    unknown (the checks of one outcome against the board and the game's set-up, shared
    by :func:`check_outcome` and ``OutcomeArrays.from_outcomes``).

    Parameters
    ----------
    board : Board
        The board of the game.
    variant : str
        The game's variant.
    outcome : ShotOutcome
        The shot.
    name : str
        The outcome parameter's name in the message (e.g. ``"outcomes[3]"``).
    players : int
        Players in the game (HIK-9 applies to Hikone doubles).
    """
    if variant == "hikone" and players == 4 and outcome.touched_before_frame is None:
        raise ValueError(
            f"The '{name}.touched_before_frame' parameter must be given in Hikone doubles when cushion_first is "
            "True and the striker touched pieces (HIK-9: a bounce off the shooter's own frame leaves the next hit "
            "direct, one off a side or front frame makes it indirect). Got None instead."
        )
    holes = board.holes
    names = [h.name for h in holes] + ["centre" for h in holes if h.x == 0.0 and h.y == 0.0]
    for i, p in enumerate(outcome.pocketed):
        if not (p.hole in names if isinstance(p.hole, str) else p.hole < len(holes)):
            raise ValueError(
                f"The '{name}.pocketed[{i}].hole' parameter must be a pocket of the {variant} board: an index "
                f"0..{len(holes) - 1} or one of the names {names}. Got {p.hole!r} instead."
            )
    fp = outcome.final_positions
    if fp is not None:
        on = fp["on_board"].to_numpy()
        out = on & ~board.contains(fp["x"].to_numpy(), fp["y"].to_numpy(), 0.0)
        if out.any():
            k = int(np.flatnonzero(out)[0])
            raise ValueError(
                f"The '{name}.final_positions' parameter must put the pieces it lists on the board "
                f"({board.surface_rule(0.0)}). Got piece "
                f"{int(fp['id'].iloc[k])} at ({float(fp['x'].iloc[k]):g}, {float(fp['y'].iloc[k]):g}) m instead."
            )


def check_outcome(state: GameState, outcome: ShotOutcome, *, shot_piece: int | None = None) -> None:
    """Raise ValueError if the outcome cannot have happened from this state.

    Parameters
    ----------
    state : GameState
        The state before the shot.
    outcome : ShotOutcome
        The shot.
    shot_piece : int or None
        Crokinole: the disc played (it may come from the hand); None for a striker.

    Raises
    ------
    ValueError
        If the game is over, or the outcome names an unknown piece, a piece of another
        kind, a piece not on the board (e.g. pocketing a piece already pocketed), the
        wrong striker, a striker fate the variant does not have (:data:`FATES_OF`), a
        pocket the board lacks, or has contradictory final positions or positions off
        the board, or (Hikone doubles) leaves its direct hits unknown (HIK-9).
    """
    check_type("outcome", outcome, ShotOutcome)
    if state.game_over:
        raise ValueError("The 'state' parameter must be a game in progress. Got a finished game instead.")
    if outcome.striker_fate not in FATES_OF[state.variant]:
        raise _bad(f"striker_fate must be one of {list(FATES_OF[state.variant])} under the {state.variant} rules, got {outcome.striker_fate!r}")
    check_record(state.board, state.variant, outcome, players=state.n_players)
    striker = state.striker_id if shot_piece is None else shot_piece
    if outcome.striker is not None and outcome.striker != striker:
        raise _bad(f"the shot piece must be {striker}, got {outcome.striker}")
    ids = {p.id for p in state.pieces}

    def known(pid: int, what: str) -> Piece:
        if pid not in ids:
            raise _bad(f"{what} names unknown piece id {pid} (known ids 0..{len(state.pieces) - 1}, striker {striker})")
        return state.piece(pid)

    def on_board(pid: int, what: str) -> None:
        piece = known(pid, what)
        if piece.where != "board" and pid != shot_piece:
            raise _bad(f"{what} names piece {pid}, which is not on the board (it is {piece.where!r})")

    for p in outcome.pocketed:
        if shot_piece is None and (p.kind == "striker" or p.piece_id == striker):
            if p.piece_id != striker or p.kind != "striker":
                raise _bad(f"pocketed lists piece {p.piece_id} as {p.kind!r}; the striker is id {striker}")
            continue
        on_board(p.piece_id, "pocketed")
        if state.piece(p.piece_id).kind != p.kind:
            raise _bad(f"pocketed lists piece {p.piece_id} as {p.kind!r}, but it is {state.piece(p.piece_id).kind!r}")
    for name in ("left_board", "on_frame"):
        for pid in getattr(outcome, name):
            if pid == striker:
                raise _bad(f"{name} names the shot piece {pid}; use striker_fate")
            on_board(pid, name)
    for name in ("striker_touched", "chain"):
        for pid in getattr(outcome, name):
            if pid == striker or known(pid, name).where != "board":
                raise _bad(f"{name} names piece {pid}, which was not lying on the board")
    gone = set(outcome.pocketed_ids) | set(outcome.left_board) | set(outcome.on_frame)
    if shot_piece is not None and outcome.striker_fate != "board":
        gone.add(shot_piece)
    if outcome.final_positions is not None:
        for row in outcome.final_positions.itertuples(index=False):
            if row.id == striker and shot_piece is None:
                continue
            piece = known(int(row.id), "final_positions")
            if piece.kind != row.kind:
                raise _bad(f"final_positions lists piece {row.id} as {row.kind!r}, but it is {piece.kind!r}")
            if bool(row.on_board) == (row.id in gone):
                raise _bad(f"final_positions says piece {row.id} is {'on' if row.on_board else 'off'} the board, contradicting the pocketed/left lists")
            if piece.where != "board" and row.on_board and row.id != shot_piece:
                raise _bad(f"final_positions puts piece {row.id} on the board, but it was {piece.where!r}")


def _debt_rules(mask: int) -> tuple[str, ...]:
    """The rules of a debt-origin bitmask (``GameState.dues_from``), in rule-id order."""
    return tuple(rule for k, rule in enumerate(DEBT_RULES) if mask >> k & 1)


def _dedupe(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


class Ledger:
    """Working copy of a state during one adjudication.

    Parameters
    ----------
    state : GameState
        The state before the shot (checked, never changed).
    outcome : ShotOutcome
        The shot, already checked with :func:`check_outcome`.
    """

    def __init__(self, state: GameState, outcome: ShotOutcome) -> None:
        self.state = state
        self.outcome = outcome
        self.pieces: dict[int, Piece] = {p.id: p for p in state.pieces}
        self.dues = list(state.dues)
        self.dues_from = list(state.dues_from)
        self.fouls: list[Foul] = []
        self.applied: list[str] = []
        self.placed: list[Placement] = []
        self._queue: list[tuple[int, str]] = []

    # ------------------------------------------------------------------ bookkeeping
    def note(self, *rules: str) -> None:
        """Record rules that decided something."""
        self.applied.extend(rules)

    def foul(self, rule: str, message: str) -> None:
        """Record a foul or penalty."""
        self.fouls.append(Foul(rule, message))
        self.note(rule)

    def kind(self, pid: int) -> str:
        """Kind of a piece."""
        return self.pieces[pid].kind

    def set(self, pid: int, where: str, xy: tuple[float, float] | None = None, by: int | None = None) -> None:
        """Move a piece to ``where`` (position ``xy``, m; ``by``: the seat that pocketed it)."""
        x, y = (None, None) if xy is None else xy
        self.pieces[pid] = replace(self.pieces[pid], where=where, x=x, y=y, by=by)

    def count(self, kind: str, where: str = "board") -> int:
        """Pieces of ``kind`` at ``where`` now."""
        return sum(1 for p in self.pieces.values() if p.kind == kind and p.where == where)

    def apply_motion(self, pocket_to: str = "pocketed") -> None:
        """Apply the outcome's final positions and move the pocketed pieces.

        Pieces that left the board or lie on the frame are left to the variant.

        Parameters
        ----------
        pocket_to : str
            Where pocketed pieces go (``"pocketed"``; crokinole ``"hole"``).
        """
        out = self.outcome
        if out.final_positions is not None:
            for row in out.final_positions.itertuples(index=False):
                if row.on_board and row.id in self.pieces:
                    self.set(int(row.id), "board", (float(row.x), float(row.y)))
        for pid in out.pocketed_ids:
            self.set(pid, pocket_to, by=self.state.shooter)

    def send_back(self, pids: Iterable[int], rule: str) -> None:
        """Queue pieces to be put back on the board by :meth:`place`."""
        for pid in pids:
            if all(pid != q for q, _ in self._queue):
                self.set(pid, "board")
                self._queue.append((pid, rule))

    def colour_team(self, colour: str) -> int:
        """Team owning a colour."""
        return self.state.colours.index(colour)

    def penalty(self, colour: str, n: int, rule: str) -> None:
        """Put back ``n`` pocketed pieces of ``colour``; any shortfall becomes a due.

        The pieces taken are the pocketed ones of lowest id (pieces already being put
        back do not count). A shortfall under one of :data:`~carromlab.rules.state.DEBT_RULES`
        also records ``rule`` among the origins of the team's debt (``dues_from``).

        Parameters
        ----------
        colour : str
            The colour owing the pieces.
        n : int
            Pieces to put back.
        rule : str
            The rule imposing the penalty.
        """
        pool = sorted(p.id for p in self.pieces.values() if p.kind == colour and p.where == "pocketed")
        self.send_back(pool[:n], rule)
        if n > len(pool):
            team = self.colour_team(colour)
            self.dues[team] += n - len(pool)
            if rule in DEBT_RULES:
                self.dues_from[team] |= 1 << DEBT_RULES.index(rule)
            self.note(rule)

    def pay_dues(self, rule: str, *, shooter_only: bool) -> None:
        """Pay dues with the pieces of the owing colour pocketed in this shot.

        Who pays is the variant's reading: in carrom (``shooter_only``) a team's due is
        paid only by its own coins pocketed on its own shot (ICF-11, ONL-3: "the next coin
        you pocket"), so the shooter's team alone can pay; in Hikone any puck of an owing
        colour pays, whoever pocketed it (seed 001).

        A payment cites the rules the team's debt came from (``dues_from``): every
        origin of the debts paid in the shot is noted among the applied rules, in
        rule-id order, and each piece paying goes back under the first origin of its
        team's debt. A debt of no recorded origin (the carrom dues, of one origin each,
        or a state saved before ``dues_from`` existed) goes back under ``rule`` and
        notes nothing, as before. A team's origins are forgotten once it owes nothing.

        Parameters
        ----------
        rule : str
            The rule cited for a debt of no recorded origin.
        shooter_only : bool
            Only the shooter's team pays (carrom); False: every owing colour (Hikone).
        """
        paid = 0
        shooter_team = self.state.team_of(self.state.shooter)
        for pid in self.outcome.pocketed_ids:
            piece = self.pieces[pid]
            if piece.kind not in self.state.colours or piece.where != "pocketed":
                continue
            team = self.colour_team(piece.kind)
            if self.dues[team] > 0 and not (shooter_only and team != shooter_team):
                origins = self.dues_from[team]
                paid |= origins
                self.dues[team] -= 1
                if self.dues[team] == 0:
                    self.dues_from[team] = 0
                self.send_back([pid], _debt_rules(origins)[0] if origins else rule)
        self.note(*_debt_rules(paid))

    def still_pocketed(self, pids: Iterable[int]) -> list[int]:
        """The ones among ``pids`` that are still in a pocket (not put back)."""
        return [pid for pid in pids if self.pieces[pid].where == "pocketed"]

    @property
    def returning(self) -> bool:
        """Whether pieces are queued to be put back."""
        return bool(self._queue)

    def queued_under(self, rule: str) -> bool:
        """Whether a piece is queued to be put back under ``rule``."""
        return any(r == rule for _, r in self._queue)

    def lead(self, pid: int) -> None:
        """Put piece ``pid`` first among the pieces to be placed, if it is queued (the
        others keep their order)."""
        self._queue.sort(key=lambda item: item[0] != pid)

    def drop_returns(self) -> None:
        """Forget the queued pieces (the board is being reset)."""
        self._queue.clear()

    def place(self, target: tuple[float, float], *, within: float | None = None, far: tuple[float, float] | None = None) -> None:
        """Place the queued pieces, in queue order, at the nearest free spots to ``target``.

        Parameters
        ----------
        target : tuple of float
            The spot aimed at, m.
        within : float or None
            Only spots at most this far from ``target`` (m) count; if there is none, the
            piece goes to the nearest free spot to ``far`` instead (ICF-13).
        far : tuple of float or None
            Fallback spot, m.
        """
        board = self.state.board
        for pid, rule in self._queue:
            r = self.state.radius(self.kind(pid))
            discs = occupied(self.pieces.values(), self.state.radius, exclude=(pid,))
            spot = nearest_free_spot(board, target, r, discs, within=within)
            if spot is None and far is not None:
                spot = nearest_free_spot(board, far, r, discs)
            if spot is None:
                raise RuntimeError(f"No free spot on the board for piece {pid}.")
            self.set(pid, "board", spot)
            self.placed.append(Placement(pid, self.kind(pid), spot[0], spot[1], rule))
        self._queue.clear()

    # ------------------------------------------------------------------ result
    def ruling(
        self,
        *,
        turn_continues: bool,
        next_shooter: int,
        retake: bool = False,
        board_over: bool = False,
        board_winner: int | None = None,
        board_points: tuple[int, ...] | None = None,
        **changes: Any,
    ) -> Ruling:
        """Assemble the new state and the ruling.

        Parameters
        ----------
        turn_continues, next_shooter, retake, board_over, board_winner, board_points
            See :class:`Ruling`.
        **changes
            Other fields of the new state; ``pieces``, ``dues``, ``dues_from`` and
            ``shooter`` default to the ledger's, and the shot counters advance unless given.
            A retake or a timed-out turn (ONL-8, HIK-10: the turn passes with no shot) does
            not count as a shot on the board or of the seat (``board_shots``,
            ``seat_shots``), so the next shot keeps the opening (ONL-9) or the tee spot
            (HIK-2) it would have had.
        """
        if self._queue:
            raise RuntimeError("Queued pieces were not placed.")
        s = self.state
        played = not retake and not self.outcome.timed_out
        seat_shots = list(s.seat_shots)
        if played:
            seat_shots[s.shooter] += 1
        if retake:
            shot_in_turn = s.shot_in_turn
        else:
            shot_in_turn = s.shot_in_turn + 1 if turn_continues else 0
        fields: dict[str, Any] = {
            "pieces": tuple(self.pieces[p.id] for p in s.pieces),
            "dues": tuple(self.dues),
            "dues_from": tuple(self.dues_from),
            "shooter": next_shooter,
            "shot_in_turn": shot_in_turn,
            "board_shots": s.board_shots + int(played),
            "break_attempts": s.break_attempts + 1 if retake else 0,
            "seat_shots": tuple(seat_shots),
        }
        fields.update(changes)
        new = replace(s, **fields)
        return Ruling(
            fouls=tuple(self.fouls),
            applied=_dedupe(self.applied),
            returned=tuple(self.placed),
            turn_continues=turn_continues,
            retake=retake,
            next_shooter=next_shooter,
            board_over=board_over,
            board_winner=board_winner,
            board_points=board_points if board_points is not None else (0,) * s.n_teams,
            state=new,
        )


def far_side_point(state: GameState, seat: int, radius: float) -> tuple[float, float]:
    """Point ``radius`` (m) beyond the board centre as seen from ``seat`` (ICF-13)."""
    dx, dy = side_direction(state.seat_sides[seat])
    return (-dx * radius, -dy * radius)
