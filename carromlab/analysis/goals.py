"""What a shot is meant to achieve, and what counts as a foul.

A goal reads the one-row-per-shot summary of :func:`carromlab.simulate_batch` and says,
for every shot, whether it succeeded, whether it was a foul and a goal-specific value.
Goals and foul checks are small frozen dataclasses following the :class:`Goal` and
:class:`FoulCheck` protocols, so a rules-based foul check (a variant's adjudication) or a
new goal plugs into every analysis without touching it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt
import pandas as pd

from .._validation import check_bool, check_choice, check_int, check_sequence, check_str, check_type, value_text
from ..engine.scene import Scene

__all__ = [
    "FoulCheck", "Goal", "GoalOutcome", "Target", "BasicFouls", "PocketPiece", "PocketAny", "AvoidFoul",
    "OPPONENT_KINDS", "OPPONENT_FALLS",
]  # fmt: skip

BoolArray = npt.NDArray[np.bool_]

#: The other side's kind of each side's kind (carrom coins, Hikone pucks, crokinole discs):
#: the default opponent of a pocketing goal.
OPPONENT_KINDS = {"white": "black", "black": "white", "red": "green", "green": "red", "dark": "light", "light": "dark"}
#: How an opponent piece falling in the shot counts for a pocketing goal: ``"spoils"`` (no
#: success: the piece is the opponent's gain, and its last coin is a foul in carrom, ICF-14)
#: or ``"allowed"`` (the goal looks only at its own pieces).
OPPONENT_FALLS = ("spoils", "allowed")


class GoalOutcome(NamedTuple):
    """Per-shot verdict of a goal: ``success`` and ``foul`` (bool arrays) and ``value``
    (float array, documented by each goal)."""

    success: BoolArray
    foul: BoolArray
    value: npt.NDArray[np.float64]


class Target(NamedTuple):
    """The piece a goal is about and the pockets (hole names) it may fall in."""

    piece: int
    pockets: tuple[str, ...]


@runtime_checkable
class FoulCheck(Protocol):
    """Flags the fouls of shots from their batch summary.

    ``needs_final_positions`` asks the analysis for ``batch.attrs["final_xy"]`` (where
    every disc ended or fell, m); ``__call__(scene, batch)`` returns one bool per row.
    """

    @property
    def needs_final_positions(self) -> bool: ...

    def __call__(self, scene: Scene, batch: pd.DataFrame) -> BoolArray: ...


@runtime_checkable
class Goal(Protocol):
    """The aim of a shot.

    ``check(scene)`` raises ValueError if the goal is impossible on the scene (a piece
    or pocket that is not there); ``target(scene)`` is the piece aimed at, or None;
    ``evaluate(scene, batch)`` returns a :class:`GoalOutcome`. A goal may also say
    itself in words with ``describe(scene)`` (the built-in goals do), which
    :class:`~carromlab.explore.ShotExplorer` shows; without it the explorer shows its repr.
    """

    fouls: FoulCheck

    @property
    def needs_final_positions(self) -> bool: ...

    def check(self, scene: Scene) -> None: ...

    def target(self, scene: Scene) -> Target | None: ...

    def evaluate(self, scene: Scene, batch: pd.DataFrame) -> GoalOutcome: ...


@dataclass(frozen=True)
class BasicFouls:
    """Fouls read from the physics alone: the striker fell in a pocket, or it touched no
    piece. Rules-based fouls (a variant's adjudication) replace this class.

    Parameters
    ----------
    striker_pocketed : bool
        A pocketed striker is a foul (ICF-11, HIK-7). Default True.
    no_contact : bool
        A striker that touches no piece is a foul. Default True.

    Examples
    --------
    >>> from carromlab import simulate_batch
    >>> scene = Scene.icf_break()
    >>> batch = simulate_batch(scene, 0.0, -0.2526, [1.5708, -1.5708], [3.0, 0.5])  # at the pack; away, softly
    >>> BasicFouls()(scene, batch).tolist()
    [False, True]
    """

    striker_pocketed: bool = True
    no_contact: bool = True

    def __post_init__(self) -> None:
        check_bool("striker_pocketed", self.striker_pocketed)
        check_bool("no_contact", self.no_contact)

    @property
    def needs_final_positions(self) -> bool:
        """False: the batch columns suffice."""
        return False

    def __call__(self, scene: Scene, batch: pd.DataFrame) -> BoolArray:
        foul = np.zeros(len(batch), dtype=bool)
        if self.striker_pocketed:
            foul |= batch["striker_pocketed"].to_numpy(dtype=bool)
        if self.no_contact:
            foul |= batch["first_contact"].to_numpy() < 0
        return foul


def check_fouls(fouls: object) -> FoulCheck:
    """``fouls`` if it follows the :class:`FoulCheck` protocol, else a TypeError naming it."""
    return check_type("fouls", fouls, FoulCheck, hint="the protocol: needs_final_positions and __call__(scene, batch), e.g. BasicFouls()")


def check_goal(goal: object, kinds: type | tuple[type, ...] | None = None, hint: str = "") -> Goal:
    """``goal`` if it follows the :class:`Goal` protocol (and is one of ``kinds``), else a
    TypeError naming it."""
    return check_type("goal", goal, Goal if kinds is None else kinds, hint=hint or "the protocol: check, target, evaluate, e.g. PocketPiece(0)")


def _holes(scene: Scene) -> list[str]:
    return [h.name for h in scene.board.holes]


def _pocket_of(scene: Scene, batch: pd.DataFrame, disc: int) -> npt.NDArray[np.int64]:
    """Index of the hole each shot's disc fell in (nearest hole to where it fell), -1 if
    it did not fall."""
    fell = (batch["pocketed_mask"].to_numpy() >> np.uint64(disc)) & np.uint64(1) == 1
    xy = batch.attrs["final_xy"][:, disc, :].astype(float)
    holes = np.array([(h.x, h.y) for h in scene.board.holes], dtype=float).reshape(-1, 2)
    d = np.hypot(xy[:, None, 0] - holes[None, :, 0], xy[:, None, 1] - holes[None, :, 1])
    return np.where(fell, np.argmin(d, axis=1), -1)


def _verdict(achieved: BoolArray, foul: BoolArray, value: npt.ArrayLike, allow_foul: bool) -> GoalOutcome:
    success = achieved if allow_foul else achieved & ~foul
    return GoalOutcome(success, foul, np.asarray(value, dtype=float))


def _check_piece(piece: object) -> None:
    """A piece id (int >= 0) or a kind (non-empty str); whether the scene has it is
    checked when the goal is used."""
    want = "The 'piece' parameter must be a piece id (an int in the range [0, inf)) or a kind with one piece on the board (e.g. 'queen')."
    if isinstance(piece, str):
        if not piece:
            raise ValueError(f"{want} Got '' instead.")
        return
    try:
        check_int("piece", piece, low=0)
    except TypeError:
        raise TypeError(f"{want} Got {value_text(piece)} instead.") from None
    except ValueError:
        raise ValueError(f"{want} Got {piece!r} instead.") from None


def _check_pocket(pocket: object) -> None:
    """None or a hole name (a non-empty str); whether the scene's board has that hole is
    checked when the goal is used, since boards may name their holes as they like."""
    if pocket is not None:
        check_str("pocket", pocket, what="None (any pocket) or the name of a hole of the board (e.g. 'ne')")


def _check_opponent(goal: PocketPiece | PocketAny) -> None:
    check_choice("opponent_falls", goal.opponent_falls, OPPONENT_FALLS)
    if goal.opponent is not None:
        what = "a kind or a sequence of kinds"
        kinds = (goal.opponent,) if isinstance(goal.opponent, str) else check_sequence("opponent", goal.opponent, str, what=what)
        object.__setattr__(goal, "opponent", kinds)


def _provisos(allow_foul: bool, spoilers: Sequence[str]) -> str:
    """What spoils a pocketing goal, in words: ``", without a foul or a black falling"``."""
    spoiled = ([] if allow_foul else ["a foul"]) + [f"a {k} falling" for k in spoilers]
    return (", without " + " or ".join(spoiled) if spoiled else "") + (", a foul allowed" if allow_foul else "")


def _opponent_kinds(goal: PocketPiece | PocketAny, own: Sequence[str]) -> tuple[str, ...]:
    """The kinds whose falling spoils the goal (none with ``opponent_falls="allowed"``)."""
    if goal.opponent_falls == "allowed":
        return ()
    if goal.opponent is not None:
        return tuple(goal.opponent)
    return tuple(dict.fromkeys(OPPONENT_KINDS[k] for k in own if k in OPPONENT_KINDS))


def _opponent_fell(batch: pd.DataFrame, kinds: Sequence[str]) -> BoolArray:
    fell = np.zeros(len(batch), dtype=bool)
    for k in kinds:
        if f"pocketed_{k}" in batch.columns:
            fell |= batch[f"pocketed_{k}"].to_numpy() > 0
    return fell


@dataclass(frozen=True)
class PocketPiece:
    """Pocket one piece, in a given pocket or in any.

    Parameters
    ----------
    piece : int or str
        Piece id (row of ``scene.pieces``), or a kind of which the scene has exactly one
        piece (``"queen"``, ``"jack"``).
    pocket : str, optional
        Name of the hole (``"sw"``, ``"se"``, ``"ne"``, ``"nw"``; ``"20"`` in crokinole;
        a custom board's own names); the scene's board must have it, checked when the goal
        is used. Default None: any pocket.
    allow_foul : bool
        Count a pocketing with a foul as a success. Default False.
    fouls : FoulCheck
        Default :class:`BasicFouls`.
    opponent : str or sequence of str, optional
        The opponent's kinds. Default None: the other side of the piece's kind
        (:data:`.OPPONENT_KINDS`: white <-> black, red <-> green, dark <-> light; none for
        the queen or the jack).
    opponent_falls : {"spoils", "allowed"}
        How an opponent piece falling in the same shot counts (:data:`.OPPONENT_FALLS`).
        Default ``"spoils"``: the shot is no success.

    Notes
    -----
    ``value`` is 1.0 when the piece fell in an allowed pocket, foul or not, whatever
    else fell.

    Examples
    --------
    >>> PocketPiece("queen").target(Scene.icf_break())
    Target(piece=0, pockets=('sw', 'se', 'ne', 'nw'))
    >>> PocketPiece(30).check(Scene.icf_break())
    Traceback (most recent call last):
    ...
    ValueError: The 'piece' parameter must be an int in the range [0, 18]. Got 30 instead.
    >>> PocketPiece(0, pocket="north-east").check(Scene.icf_break())
    Traceback (most recent call last):
    ...
    ValueError: The 'pocket' parameter must be one of ['ne', 'nw', 'se', 'sw']. Got 'north-east' instead.
    """

    piece: int | str
    pocket: str | None = None
    allow_foul: bool = False
    fouls: FoulCheck = field(default_factory=BasicFouls)
    opponent: str | Sequence[str] | None = None
    opponent_falls: str = "spoils"

    def __post_init__(self) -> None:
        _check_piece(self.piece)
        _check_pocket(self.pocket)
        check_bool("allow_foul", self.allow_foul)
        check_fouls(self.fouls)
        _check_opponent(self)

    @property
    def needs_final_positions(self) -> bool:
        """True when a pocket is named (which pocket a piece fell in is read from where
        it fell) or the foul check needs them."""
        return self.pocket is not None or self.fouls.needs_final_positions

    def _piece_id(self, scene: Scene) -> int:
        if scene.n_pieces == 0:  # (not "an int in the range [0, -1]")
            raise ValueError(f"The 'piece' parameter must name a piece of the position, which has no pieces. Got {self.piece!r} instead.")
        if isinstance(self.piece, str):
            ids = np.flatnonzero(scene.pieces["kind"].to_numpy() == self.piece)
            if len(ids) != 1:
                raise ValueError(
                    f"The 'piece' parameter must be a piece id or a kind with exactly one piece on the board "
                    f"(kinds: {sorted(set(scene.pieces['kind']))}). Got {self.piece!r}, which names {len(ids)} pieces, instead."
                )
            return int(ids[0])
        return check_int("piece", self.piece, low=0, high=scene.n_pieces - 1)

    def check(self, scene: Scene) -> None:
        """Raise ValueError if the piece or the pocket is not on the board."""
        self._piece_id(scene)
        if self.pocket is not None:
            check_choice("pocket", self.pocket, _holes(scene))

    def target(self, scene: Scene) -> Target:
        """The piece and its allowed pockets."""
        self.check(scene)
        return Target(self._piece_id(scene), (self.pocket,) if self.pocket is not None else tuple(_holes(scene)))

    def spoilers(self, scene: Scene) -> tuple[str, ...]:
        """The kinds whose falling spoils the goal (see ``opponent_falls``)."""
        return _opponent_kinds(self, [str(scene.pieces["kind"].iat[self._piece_id(scene)])])

    def describe(self, scene: Scene) -> str:
        """The goal in words, as :class:`~carromlab.explore.ShotExplorer` shows it.

        Examples
        --------
        >>> PocketPiece(1, "ne").describe(Scene.icf_break())
        'white 1 into the ne pocket, without a foul or a black falling'
        """
        pid = self._piece_id(scene)
        where = "any pocket" if self.pocket is None else f"the {self.pocket} pocket"
        return f"{scene.kinds[pid]} {pid} into {where}{_provisos(self.allow_foul, self.spoilers(scene))}"

    def evaluate(self, scene: Scene, batch: pd.DataFrame) -> GoalOutcome:
        """Success: the piece fell (in the named pocket) without a foul and, unless
        ``opponent_falls="allowed"``, without an opponent piece."""
        pid = self._piece_id(scene)
        if self.pocket is None:
            fell = (batch["pocketed_mask"].to_numpy() >> np.uint64(pid)) & np.uint64(1) == 1
        else:
            fell = _pocket_of(scene, batch, pid) == _holes(scene).index(self.pocket)
        achieved = fell & ~_opponent_fell(batch, self.spoilers(scene))
        return _verdict(achieved, self.fouls(scene, batch), fell, self.allow_foul)


@dataclass(frozen=True)
class PocketAny:
    """Pocket at least ``min_count`` pieces of the given kinds (e.g. any own coin).

    Parameters
    ----------
    kinds : str or sequence of str
        Piece kinds that count (``"white"``; ``("red", "jack")``).
    min_count : int
        Pieces needed, >= 1. Default 1.
    allow_foul : bool
        Count a pocketing with a foul as a success. Default False.
    fouls : FoulCheck
        Default :class:`BasicFouls`.
    opponent : str or sequence of str, optional
        The opponent's kinds. Default None: the other side of each of ``kinds``
        (:data:`.OPPONENT_KINDS`).
    opponent_falls : {"spoils", "allowed"}
        How an opponent piece falling in the same shot counts (:data:`.OPPONENT_FALLS`).
        Default ``"spoils"``: the shot is no success.

    Notes
    -----
    ``value`` is the number of pieces of those kinds pocketed, foul or not.

    Examples
    --------
    >>> PocketAny("white").check(Scene.icf_break())
    >>> PocketAny("red").check(Scene.icf_break())
    Traceback (most recent call last):
    ...
    ValueError: The 'kinds' parameter must name kinds on the board ['black', 'queen', 'white']. Got 'red' instead.
    """

    kinds: str | Sequence[str]
    min_count: int = 1
    allow_foul: bool = False
    fouls: FoulCheck = field(default_factory=BasicFouls)
    opponent: str | Sequence[str] | None = None
    opponent_falls: str = "spoils"

    def __post_init__(self) -> None:
        what = "a kind or a non-empty sequence of kinds"
        kinds = (self.kinds,) if isinstance(self.kinds, str) else check_sequence("kinds", self.kinds, str, nonempty=True, what=what)
        if not all(kinds):
            raise ValueError(f"The 'kinds' parameter must be a kind or a non-empty sequence of kinds. Got {self.kinds!r} instead.")
        object.__setattr__(self, "kinds", kinds)
        check_int("min_count", self.min_count, low=1)
        check_bool("allow_foul", self.allow_foul)
        check_fouls(self.fouls)
        _check_opponent(self)

    @property
    def needs_final_positions(self) -> bool:
        """Whether the foul check needs final positions."""
        return self.fouls.needs_final_positions

    def check(self, scene: Scene) -> None:
        """Raise ValueError if a kind has no piece on the board."""
        on_board = sorted(set(scene.pieces["kind"]))
        for k in self.kinds:
            if k not in on_board:
                raise ValueError(f"The 'kinds' parameter must name kinds on the board {on_board}. Got {k!r} instead.")

    def target(self, scene: Scene) -> None:
        """None: no single piece is aimed at."""
        return None

    def spoilers(self, scene: Scene) -> tuple[str, ...]:
        """The kinds whose falling spoils the goal (see ``opponent_falls``)."""
        return _opponent_kinds(self, self.kinds)  # type: ignore[arg-type]

    def describe(self, scene: Scene) -> str:
        """The goal in words, as :class:`~carromlab.explore.ShotExplorer` shows it.

        Examples
        --------
        >>> PocketAny("white", allow_foul=True).describe(Scene.icf_break())
        'at least 1 white piece into any pocket, without a black falling, a foul allowed'
        """
        kinds = "/".join(self.kinds)  # type: ignore[arg-type]
        return f"at least {self.min_count} {kinds} piece{'s' if self.min_count > 1 else ''} into any pocket" + _provisos(
            self.allow_foul, self.spoilers(scene)
        )

    def evaluate(self, scene: Scene, batch: pd.DataFrame) -> GoalOutcome:
        """Success: at least ``min_count`` pieces of the kinds fell without a foul and,
        unless ``opponent_falls="allowed"``, without an opponent piece."""
        count = sum(batch[f"pocketed_{k}"].to_numpy(dtype=np.int64) for k in self.kinds)
        achieved = (count >= self.min_count) & ~_opponent_fell(batch, self.spoilers(scene))
        return _verdict(achieved, self.fouls(scene, batch), count, self.allow_foul)


@dataclass(frozen=True)
class AvoidFoul:
    """Play a shot without a foul (a safety shot).

    Parameters
    ----------
    fouls : FoulCheck
        Default :class:`BasicFouls`.

    Notes
    -----
    ``value`` is the number of pieces pocketed (any kind).

    Examples
    --------
    >>> from carromlab import simulate_batch
    >>> scene = Scene.icf_break()
    >>> batch = simulate_batch(scene, 0.0, -0.2526, [1.5708, -1.5708], [3.0, 0.5])
    >>> AvoidFoul().evaluate(scene, batch).success.tolist()
    [True, False]
    """

    fouls: FoulCheck = field(default_factory=BasicFouls)

    def __post_init__(self) -> None:
        check_fouls(self.fouls)

    @property
    def needs_final_positions(self) -> bool:
        """Whether the foul check needs final positions."""
        return self.fouls.needs_final_positions

    def check(self, scene: Scene) -> None:
        """Always possible."""

    def describe(self, scene: Scene) -> str:
        """The goal in words: ``"no foul (a safety shot)"``."""
        return "no foul (a safety shot)"

    def target(self, scene: Scene) -> None:
        """None: no piece is aimed at."""
        return None

    def evaluate(self, scene: Scene, batch: pd.DataFrame) -> GoalOutcome:
        """Success: no foul."""
        foul = self.fouls(scene, batch)
        n = np.bitwise_count(batch["pocketed_mask"].to_numpy() & ~np.uint64(1 << scene.n_pieces))
        return GoalOutcome(~foul, foul, n.astype(float))
