"""Playing whole games and matches: policies choose, noise executes, the engine
simulates, the rules adjudicate, and every shot is checked and recorded."""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from functools import cached_property
from queue import Empty
from typing import Any

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from .. import __version__
from .._validation import check_bool, check_choice, check_int, check_type, value_text
from ..analysis.store import describe
from ..analysis.noise import NoiseModel
from ..engine.scene import Shot
from ..equipment.disc import DiscSpec
from ..physics.params import PhysicsParams
from ..rules import VARIANTS, game_physics
from ..rules.arrays import GameArrays
from ..rules.state import GameState
from .clock import MatchClock
from .conservation import Inventory
from .lockstep import play_games, step
from .policies import Policy, RandomPolicy
from .store import MatchStore
from .records import (BOARD_COLUMNS, GAME_COLUMNS, GameRecord, MatchRecord, Played, PlayedArrays, StepRows, board_row,
                      frame, game_row, shots_frame)

__all__ = ["MAX_SHOTS_PER_BOARD", "MAX_BOARDS", "GameError", "Game", "Played", "new_state", "game_seed", "play_game", "play_match"]

#: Default guard against endless boards: shots on one board (retakes included) after
#: which the board is abandoned. Measured with random play on every seat: an ICF or
#: online board takes about 60-250 shots (never near the guard), while about half of
#: the Hikone games (one board each) are still running after 2000 shots.
MAX_SHOTS_PER_BOARD = 2000
#: Default guard against endless games: boards after which an unfinished game stops.
MAX_BOARDS = 100
#: How often a worker process of :func:`play_match` checks whether it should stop, s.
_WATCH_S = 0.5


#: The (absent) execution noise of games given none: one object, so that the games of a
#: lockstep step share it (one noise group) without comparing their parameters; their
#: physics is likewise one object per board (:func:`carromlab.rules.game_physics`).
_NO_NOISE = NoiseModel()


class GameError(RuntimeError):
    """A simulated game failed; the message says where, ``state_json`` holds the
    position (:meth:`.GameState.from_json`) and ``__cause__`` the original error.

    Parameters
    ----------
    message : str
        What failed and where.
    state_json : str
        The state before the failing shot.
    """

    def __init__(self, message: str, state_json: str) -> None:
        super().__init__(message)
        self.state_json = state_json

    def __reduce__(self) -> tuple[type, tuple[str, str]]:
        # pickled with both arguments, so the error crosses a process pool intact
        return type(self), (str(self), self.state_json)


def new_state(variant: str, players: int = 2, options: Any = None, *, discs: Mapping[str, DiscSpec] | None = None) -> GameState:
    """A new game of a variant.

    Parameters
    ----------
    variant : {"icf", "online", "hikone", "crokinole"}
        The rules.
    players : {2, 4}
        Seats: singles or doubles (ICF, Hikone), two or four individual players
        (crokinole); the online rules have two players.
    options : optional
        The variant's options (``ICFOptions``, ``OnlineHouseRules``, ``HikoneOptions``,
        ``CrokinoleOptions``). Default the variant's defaults.
    discs : mapping of str to DiscSpec, optional
        Discs of some piece kinds (one of :data:`~carromlab.rules.outcome.KINDS`: ``"striker"``,
        ``"white"``, ...: radius m, mass kg); the pieces are laid out for their radii,
        the other kinds keep the equipment's discs and kinds the variant does not use (a
        Hikone jack in a carrom game) are ignored; a misspelt kind (``"stiker"``) is a
        ValueError. Default: the standard discs.

    Returns
    -------
    GameState

    Examples
    --------
    >>> new_state("hikone", 4).n_players
    4
    >>> new_state("snooker")
    Traceback (most recent call last):
    ...
    ValueError: The 'variant' parameter must be one of ['crokinole', 'hikone', 'icf', 'online']. Got 'snooker' instead.
    """
    module = VARIANTS[check_choice("variant", variant, VARIANTS)]
    players = check_int("players", players, low=2, high=4)
    if players == 3 or (variant == "online" and players != 2):
        allowed = "2" if variant == "online" else "2 or 4"
        raise ValueError(f"The 'players' parameter must be {allowed} for {variant!r}. Got {players} instead.")

    def start(radii: dict[str, float] | None = None) -> GameState:
        if variant == "online":
            return module.new_game(rules=options, radii=radii)  # type: ignore[no-any-return]
        return module.new_game(players, options=options, **({"radii": radii} if radii else {}))  # type: ignore[no-any-return]

    state = start()
    if discs is None:
        return state
    state = state.with_discs(discs)  # checks them: a misspelt kind is refused, not ignored
    if variant == "crokinole":  # crokinole discs start in hand
        return state
    return start(dict(state.radii)).with_(masses=state.masses)  # the pieces laid out for their radii


def game_seed(seed: int, game: int) -> int:
    """Seed of game ``game`` of a match seeded with ``seed``.

    A pure function of the two numbers (a hash by :class:`numpy.random.SeedSequence`),
    so that a game's result does not depend on which games are played, in which order,
    or on how many workers.

    Parameters
    ----------
    seed : int
        The match's seed, >= 0.
    game : int
        The game's number, >= 0.

    Returns
    -------
    int
        In [0, 2**63).

    Examples
    --------
    >>> game_seed(0, 3) == game_seed(0, 3) != game_seed(0, 4)
    True
    """
    words = np.random.SeedSequence([check_int("seed", seed, low=0), check_int("game", game, low=0)]).generate_state(1, np.uint64)
    return int(words[0] >> np.uint64(1))


def _per_seat(name: str, value: Any, cls: type | tuple[type, ...], n: int) -> tuple[Any, ...]:
    items = tuple(value) if isinstance(value, (list, tuple)) else (value,) * n
    if len(items) != n or not all(isinstance(v, cls) and not isinstance(v, type) for v in items):
        what = cls.__name__ if isinstance(cls, type) else " or ".join(c.__name__ for c in cls)
        wrong_type = len(items) == n
        raise (TypeError if wrong_type else ValueError)(
            f"The {name!r} parameter must be one {what} or a sequence of {n} (one per seat). Got {value_text(value) if wrong_type else repr(value)} instead."
        )
    return items


@dataclass(frozen=True)
class _Settings:
    """The validated parameters of :func:`.play_game`, shared by every shot."""

    policies: tuple[Policy, ...]
    noise: tuple[NoiseModel, ...]
    params: PhysicsParams
    seed: int
    max_shots_per_board: int
    max_boards: int
    record: bool
    clock: MatchClock | None

    @classmethod
    def checked(cls, state: GameState, policies: Any, noise: Any, params: Any, seed: Any,
                max_shots_per_board: Any, max_boards: Any, record: Any, clock: Any) -> _Settings:
        check_type("state", state, GameState)
        if state.game_over:
            raise ValueError("The 'state' parameter must be a game in progress. Got a finished game instead.")
        check_type("clock", clock, (MatchClock, type(None)), hint="MatchClock(think_s=...)")
        if clock is not None and state.variant != "hikone":
            raise ValueError(f"The 'clock' parameter is for Hikone games (HIK-10). Got a clock for a {state.variant!r} game instead.")
        params = game_physics(state, params)
        record = check_bool("record", record)
        n = state.n_players
        return cls(
            policies=_per_seat("policies", policies, Policy, n),
            noise=_per_seat("noise", _NO_NOISE if noise is None else noise, NoiseModel, n),
            params=params,
            seed=check_int("seed", seed, low=0, high=2**63 - 1),
            max_shots_per_board=check_int("max_shots_per_board", max_shots_per_board, low=1, high=10**6),
            max_boards=check_int("max_boards", max_boards, low=1, high=10**4),
            record=record,
            clock=clock,
        )

    @cached_property
    def policy_hashes(self) -> tuple[int | None, ...]:
        """The hash of each seat's policy (None: unhashable), computed on the first step
        and kept: the lockstep steps group the games' policies by them."""
        return tuple(_hash_or_none(p) for p in self.policies)

    @cached_property
    def params_hash(self) -> int | None:
        """The hash of the physics (None: unhashable), as :attr:`policy_hashes`."""
        return _hash_or_none(self.params)


def _hash_or_none(item: object) -> int | None:
    """``hash(item)``, None for an unhashable item."""
    try:
        return hash(item)
    except TypeError:
        return None


def play_game(
    state: GameState,
    policies: Policy | Sequence[Policy],
    *,
    params: PhysicsParams | None = None,
    noise: NoiseModel | Sequence[NoiseModel] | None = None,
    seed: int = 0,
    max_shots_per_board: int = MAX_SHOTS_PER_BOARD,
    max_boards: int = MAX_BOARDS,
    record: bool = True,
    clock: MatchClock | None = None,
    game: int = 0,
) -> GameRecord:
    """Play a game from ``state`` to its end.

    The game is the one-game case of :func:`carromlab.match.lockstep.play_games`; each
    shot is :func:`carromlab.match.lockstep.step`: the seat's policy chooses the intended
    shot (``choose_many``, drawing from the game's generator
    ``numpy.random.default_rng([seed, 1])``); :func:`execute` adds the seat's execution
    noise (keyed by ``seed`` and the shot's number) and keeps the placement legal;
    :func:`carromlab.simulate_batch` plays it from the state's positions;
    :func:`carromlab.rules.arrays.adjudicate_arrays` rules on it;
    :func:`~carromlab.match.conservation.check_shots` checks that no piece was created,
    lost or moved without a rule. A shot that exhausts the
    engine's event budget is kept (its warning is replaced by the ``truncated`` column).

    With a ``clock`` (Hikone), each shot takes the clock's thinking time and its motion
    (:class:`~carromlab.match.clock.MatchClock`); once the match time reaches the limit the
    game's time is called (:func:`carromlab.rules.hikone.call_time`, HIK-10), in the state
    after that shot, and the rules end the game when the round is over.

    Guards, never silent: a board still running after ``max_shots_per_board`` shots is
    abandoned and the game stops there (``end="abandoned"`` in the boards and games
    tables, no winner: the rules have no way to finish a board early, and starting the
    next one would invent a result); a game not over after ``max_boards`` boards stops
    with ``end="max_boards"`` and no winner.

    Parameters
    ----------
    state : GameState
        Starting position, usually a variant's ``new_game`` (see :func:`new_state`).
    policies : Policy or sequence of Policy
        One policy for every seat, or one per seat in seat order.
    params : PhysicsParams, optional
        The physics of the game. Default the board of its rules
        (:func:`carromlab.rules.game_physics`: ``PhysicsParams()``; an online game
        without powder, ONL-10, an unpowdered board). Physics given win, except where
        they contradict the online ``powder=False`` (a ValueError).
    noise : NoiseModel or sequence of NoiseModel, optional
        Execution noise of every seat, or one per seat. Default none (perfect execution).
    seed : int
        Seed of the game, in [0, 2**63).
    max_shots_per_board : int
        Guard against endless boards, in [1, 10**6]. Default :data:`.MAX_SHOTS_PER_BOARD`.
    max_boards : int
        Guard against endless games, in [1, 10**4]. Default :data:`.MAX_BOARDS`.
    record : bool
        Keep the shots table (False keeps only the boards and the game). Default True.
    clock : MatchClock, optional
        The match clock of a Hikone game (HIK-10). Default None: untimed, as the
        championship's final is.
    game : int
        Number of the game, written in the tables, >= 0. Default 0.

    Returns
    -------
    GameRecord

    Raises
    ------
    ValueError
        If a parameter is invalid (the message names it).
    GameError
        If a shot fails (a bug in a policy, the rules or the engine bridge, or a
        :class:`~carromlab.match.conservation.ConservationError`); the error holds the
        state before that shot.

    Examples
    --------
    >>> from carromlab.rules import crokinole
    >>> rec = play_game(crokinole.new_game(options=crokinole.CrokinoleOptions(discs_per_player=2, game_target=5)),
    ...                 RandomPolicy(), seed=1)
    >>> rec.end, int(rec.boards["n_shots"].sum()) == len(rec.shots)
    ('complete', True)
    """
    game_ = Game(state, policies, params=params, noise=noise, seed=seed, max_shots_per_board=max_shots_per_board,
                 max_boards=max_boards, record=record, clock=clock, game=game)
    play_games([game_])
    return game_.record()


class Game:
    """A game in progress, played one shot at a time; :func:`.play_game` plays one to its end.

    Parameters
    ----------
    state, policies, params, noise, seed, max_shots_per_board, max_boards, record, clock, game
        As in :func:`.play_game`.

    Attributes
    ----------
    state : GameState
        The current position (a property: once the game has played, built from its row
        of :attr:`arrays` when first asked for).
    end : str or None
        None while the game runs; then ``"complete"``, ``"abandoned"`` or
        ``"max_boards"`` (see :func:`.play_game`).
    n_shots : int
        Shots played so far.
    seconds, cpu_seconds : float
        Wall and processor time of the shots played so far, s (a game played in
        lockstep with others is given an equal share of each step's time).
    clock_s : float
        Simulated match time of the shots played so far, s (with a ``clock``; NaN
        without).
    arrays : tuple of (GameArrays, int) or None
        Set by :func:`~carromlab.match.lockstep.step`: the arrays of the games it
        played (their states after the shot) and this game's row, the game's current
        position, from which the next step stacks its rows; None before the first shot.

    Examples
    --------
    >>> from carromlab.rules import crokinole
    >>> g = Game(crokinole.new_game(options=crokinole.CrokinoleOptions(discs_per_player=2, game_target=5)),
    ...          RandomPolicy(), seed=1)
    >>> played = g.shoot()
    >>> g.n_shots, played.before.shooter
    (1, 0)
    """

    def __init__(
        self, state: GameState, policies: Policy | Sequence[Policy], *, params: PhysicsParams | None = None,
        noise: NoiseModel | Sequence[NoiseModel] | None = None, seed: int = 0,
        max_shots_per_board: int = MAX_SHOTS_PER_BOARD, max_boards: int = MAX_BOARDS, record: bool = True,
        clock: MatchClock | None = None, game: int = 0,
    ) -> None:  # fmt: skip
        self.settings = _Settings.checked(state, policies, noise, params, seed, max_shots_per_board, max_boards, record, clock)
        self.ids = {"variant": state.variant, "players": state.n_players, "game": check_int("game", game, low=0),
                    "seed": self.settings.seed}  # fmt: skip
        self._start = state
        self.inventory = Inventory.of(state)
        self.inventory.check_state(state)
        self.rng = np.random.default_rng([self.settings.seed, 1])
        #: the shots table's rows: shot, board shot, policy and the step's columns and row (records.shots_frame)
        self.shots: list[tuple[int, int, str, StepRows, int]] = []
        self.boards: list[dict[str, Any]] = []
        self.n_shots = self.board_shots = self.n_snapped = self.n_truncated = 0
        self.end: str | None = None
        #: the arrays of the last step and this game's row (see lockstep)
        self.arrays: tuple[GameArrays, int] | None = None
        #: wall and processor time (s) of this game's shots: its share of each step's time
        self.seconds = self.cpu_seconds = 0.0
        self.clock_s = float("nan") if clock is None else 0.0

    @property
    def state(self) -> GameState:
        """The current position (see the class notes)."""
        return self._start if self.arrays is None else self.arrays[0].state(self.arrays[1])

    @property
    def shooter(self) -> int:
        """The seat to shoot (read from :attr:`arrays` without building the state)."""
        return self._start.shooter if self.arrays is None else int(self.arrays[0].shooter[self.arrays[1]])

    def shoot(self, intended: Shot | None = None, *, policy: str = "agent") -> Played:
        """Play the next shot: ``intended`` if given (recorded under the policy name
        ``policy``), else the choice of the shooter's policy.

        Parameters
        ----------
        intended : Shot, optional
            The shooter's intended shot; execution noise and placement snapping apply
            as to a policy's shot. Default: the seat's policy chooses.
        policy : str
            Name written in the shots table for an ``intended`` shot. Default ``"agent"``.

        Returns
        -------
        Played

        Raises
        ------
        ValueError
            If the game is over.
        GameError
            If the shot fails (see :func:`.play_game`).
        """
        return step([self], None if intended is None else [intended], policy=policy)[0]

    def record(self) -> GameRecord:
        """The tables of the shots played so far; the games row has ``end`` None until the game ends."""
        summary = game_row(
            self.ids, self.state, n_boards=len(self.boards), n_shots=self.n_shots, end=self.end,
            n_snapped=self.n_snapped, n_truncated=self.n_truncated, seconds=self.seconds,
            cpu_seconds=self.cpu_seconds, clock_s=self.clock_s,
        )  # fmt: skip
        return GameRecord(shots_frame(self.ids, self.shots), frame(self.boards, BOARD_COLUMNS),
                          frame([summary], GAME_COLUMNS), self.state)


def record_step(games: Sequence[Game], played: PlayedArrays, policies: Sequence[str]) -> None:
    """Take the shots of a lockstep step into its games (called by
    :func:`carromlab.match.lockstep.step`): each game's new position, tables and guards,
    the step's columns read once for all the games.

    Parameters
    ----------
    games : sequence of Game
        The games of the step; game ``k`` played row ``k`` of ``played`` from its
        :attr:`Game.state`.
    played : PlayedArrays
        The step's shots.
    policies : sequence of str
        Name written in each game's shots table.
    """
    rows = played.table_rows if any(g.settings.record for g in games) else None
    after = played.after
    snapped, truncated = played.snapped.tolist(), played.truncated.tolist()
    board_over, game_over = played.rulings.board_over.tolist(), after.game_over.tolist()
    for k, (g, policy) in enumerate(zip(games, policies)):
        if g.settings.record:
            g.shots.append((g.n_shots, g.board_shots, policy, rows, k))  # type: ignore[arg-type]
        g.n_shots += 1
        g.board_shots += 1
        g.n_snapped += snapped[k]
        g.n_truncated += truncated[k]
        g.arrays = (after, k)
        if board_over[k]:
            g.boards.append(board_row(
                g.ids, board=int(played.before.board_number[k]), first=int(played.before.board_first[k]),
                scores=after.game_scores[k].tolist(), n_shots=g.board_shots, played=Played(played, k), reason="",
            ))  # fmt: skip
            g.board_shots = 0
        if game_over[k]:
            g.end = "complete"
        elif board_over[k] and len(g.boards) >= g.settings.max_boards:
            g.end = "max_boards"
        elif g.board_shots >= g.settings.max_shots_per_board:
            reason = f"max_shots_per_board={g.settings.max_shots_per_board} reached"
            g.boards.append(board_row(g.ids, board=int(after.board_number[k]), first=int(after.board_first[k]),
                                      scores=after.game_scores[k].tolist(), n_shots=g.board_shots, played=None, reason=reason))
            g.end = "abandoned"


def _play_chunk(task: tuple[range, dict[str, Any]], ended: Callable[[int], object] | None = None) -> list[GameRecord]:
    """The records of a chunk of games, played in lockstep; ``ended`` is told how many
    games each step ended (``play_games``)."""
    games, kwargs = task
    kwargs = dict(kwargs)
    variant, players, options, discs, policies, seed = (kwargs.pop(k) for k in ("variant", "players", "options", "discs", "policies", "seed"))
    chunk = [Game(new_state(variant, players, options, discs=discs), policies, seed=game_seed(seed, g), game=g, **kwargs) for g in games]
    play_games(chunk, ended)
    return [g.record() for g in chunk]


#: In a worker process of :func:`play_match`: the queue of (chunk, games ended) reports.
_REPORTS: Any = None


def _play_chunk_reporting(task: tuple[range, dict[str, Any]], k: int) -> list[GameRecord]:
    """``_play_chunk`` in a worker process, reporting (chunk k, games ended) to ``_REPORTS``."""
    return _play_chunk(task, lambda n: _REPORTS.put((k, n)))


def play_match(
    variant: str,
    n_games: int,
    *,
    players: int = 2,
    options: Any = None,
    discs: Mapping[str, DiscSpec] | None = None,
    policies: Policy | Sequence[Policy] | None = None,
    params: PhysicsParams | None = None,
    noise: NoiseModel | Sequence[NoiseModel] | None = None,
    seed: int = 0,
    max_shots_per_board: int = MAX_SHOTS_PER_BOARD,
    max_boards: int = MAX_BOARDS,
    record: bool = True,
    clock: MatchClock | None = None,
    workers: int = 1,
    progress: bool = False,
    store: str | os.PathLike[str] | None = None,
    chunk_games: int = 256,
) -> MatchRecord:
    """Play many games of a variant.

    Game ``g`` starts from :func:`new_state` and is played by :func:`.play_game` with
    ``seed=game_seed(seed, g)``, so each game is reproducible on its own and the tables
    do not depend on ``workers``.

    Parameters
    ----------
    variant : {"icf", "online", "hikone", "crokinole"}
        The rules.
    n_games : int
        Number of games, in [1, 10**7].
    players : {2, 4}
        Seats (see :func:`new_state`). Default 2.
    options : optional
        The variant's options (see :func:`new_state`).
    discs : mapping of str to DiscSpec, optional
        Discs of some piece kinds, radius m and mass kg (see :func:`new_state`).
        Default: the standard discs.
    policies : Policy or sequence of Policy, optional
        One for every seat or one per seat. Default :class:`RandomPolicy` for all.
    params, noise, max_shots_per_board, max_boards, record, clock
        As in :func:`.play_game`.
    seed : int
        Seed of the match, in [0, 2**63).
    workers : int
        Processes playing games in parallel, in [1, 256]. Default 1 (in this process).
        Each chunk is written to ``store`` as soon as it is done; on an error or an
        interrupt (Ctrl-C) the workers stop within a second, dropping the chunks in play,
        and a worker whose parent process dies stops too.
    progress : bool
        Show a tqdm progress bar over the games, which advances as games end (in the
        worker processes too). Default False.
    store : str or os.PathLike, optional
        Directory of a :class:`~carromlab.match.store.MatchStore`: the tables of every
        chunk of ``chunk_games`` games are written there as Parquet when the chunk is
        done, and a rerun with the same parameters plays only the chunks still missing.
        In memory are only the chunks done and not yet written (seldom more than one;
        each worker holds the chunk it plays), and the returned record reads each table
        back from the store when it is first used: the boards and games of 10,000 random
        ICF games are about 16 MB, their shots 3.5 GB (see
        :class:`~carromlab.match.store.MatchStore` for piecewise reads).
        Default: every table kept in memory.
    chunk_games : int
        Most games per chunk, played in lockstep (one engine batch per step, see
        :func:`carromlab.match.lockstep.step`), in [1, 10**7]. Default 256 (a step's fixed
        cost shared by many games). The chunks are of one size (300 games: two of 150),
        so that no worker waits on a long chunk while another has a short one; without a
        store, smaller where needed to give each of the ``workers`` one.

    Returns
    -------
    MatchRecord
        The tables of every game; with ``store``, read from the store when first used.

    Raises
    ------
    ValueError
        If a parameter is invalid (the message names it).
    GameError
        If a game fails.

    Examples
    --------
    >>> from carromlab.rules.crokinole import CrokinoleOptions
    >>> rec = play_match("crokinole", 2, options=CrokinoleOptions(discs_per_player=2, game_target=5), seed=3)
    >>> rec.games["game"].tolist(), set(rec.games["end"])
    ([0, 1], {'complete'})
    """
    n_games = check_int("n_games", n_games, low=1, high=10**7)
    workers = check_int("workers", workers, low=1, high=256)
    chunk_games = check_int("chunk_games", chunk_games, low=1, high=10**7)
    check_bool("progress", progress)
    chosen: Policy | Sequence[Policy] = RandomPolicy() if policies is None else policies
    # every game checks its settings again; checking the first here fails fast
    _Settings.checked(new_state(variant, players, options, discs=discs), chosen, noise, params, seed, max_shots_per_board, max_boards,
                      record, clock)
    kwargs = {
        "variant": variant, "players": players, "options": options, "discs": discs, "policies": chosen, "params": params,
        "noise": noise, "seed": seed, "max_shots_per_board": max_shots_per_board, "max_boards": max_boards,
        "record": record, "clock": clock,
    }  # fmt: skip
    # chunks of one size, at most chunk_games games (a short last chunk would leave workers
    # idle while one plays a full chunk); in memory, at least one per worker. A game's play
    # does not depend on its chunk; a store's chunks are a function of its manifest.
    n_chunks = -(-n_games // chunk_games)
    if store is None:
        n_chunks = max(n_chunks, min(workers, n_games))
    size = -(-n_games // n_chunks)
    db = None
    if store is not None:
        manifest = {**describe(kwargs), "n_games": n_games, "chunk_games": chunk_games, "chunk_size": size,
                    "carromlab_version": __version__}  # fmt: skip
        db = MatchStore(store, manifest)
    done = db.completed() if db is not None else set()
    chunks = [range(k, min(k + size, n_games)) for k in range(0, n_games, size)]
    todo = [c for k, c in enumerate(chunks) if k not in done]
    kept: dict[int, list[GameRecord]] = {}
    with tqdm(total=n_games, initial=n_games - sum(map(len, todo)), disable=not progress, desc=f"{variant} games",
              unit="game") as bar:  # fmt: skip
        for chunk, recs in _records([(c, kwargs) for c in todo], workers, bar.update):
            if db is None:
                kept[chunk.start] = recs
            else:
                db.write(chunk.start // size, recs)
    if db is not None:
        return db.read()
    records = [r for start in sorted(kept) for r in kept[start]]
    return MatchRecord(
        shots=pd.concat([r.shots for r in records], ignore_index=True),
        boards=pd.concat([r.boards for r in records], ignore_index=True),
        games=pd.concat([r.games for r in records], ignore_index=True),
    )


def _records(
    tasks: list[tuple[range, dict[str, Any]]], workers: int, ended: Callable[[int], object]
) -> Iterator[tuple[range, list[GameRecord]]]:
    """Each task's chunk and its records as each chunk is done, played here (in task
    order) or by ``workers`` processes; ``ended`` is told of the games as they end (the
    workers report through a queue, read while the chunks are awaited), each chunk's
    once it is done. A chunk's records are not kept here once the next chunk is asked for,
    so a caller that writes each chunk away holds one at a time.

    On an error or an interrupt the workers stop within a second (``_worker_init``) and the
    chunks not yet done are dropped; a worker whose parent dies stops too."""
    if workers == 1 or len(tasks) <= 1:
        for task in tasks:
            yield task[0], _play_chunk(task, ended)
        return
    told = [0] * len(tasks)

    def tell(k: int, n: int) -> None:
        n = min(n, len(tasks[k][0]) - told[k])  # a report read after its chunk's records
        told[k] += n
        if n:
            ended(n)

    def drain() -> None:
        while True:
            try:
                tell(*reports.get_nowait())
            except Empty:
                return

    ctx = multiprocessing.get_context()
    reports, stop = ctx.Queue(), ctx.Event()
    with ProcessPoolExecutor(workers, ctx, initializer=_worker_init, initargs=(os.getpid(), reports, stop)) as pool:
        chunk_of = {pool.submit(_play_chunk_reporting, task, k): k for k, task in enumerate(tasks)}
        pending = set(chunk_of)
        try:
            while pending:
                done, pending = wait(pending, timeout=_WATCH_S, return_when=FIRST_COMPLETED)
                drain()
                while done:  # a done future holds its chunk's records: each is dropped once handed on
                    future = done.pop()
                    k = chunk_of.pop(future)
                    tell(k, len(tasks[k][0]))
                    yield tasks[k][0], future.result()
        except BaseException:
            stop.set()  # a failed game or an interrupt: the workers stop, no chunk starts
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def _worker_init(parent: int, reports: Any, stop: Any) -> None:
    """Worker initializer: keep the report queue, and end the worker process from a daemon
    thread once ``stop`` is set or the parent process ``parent`` has died."""
    global _REPORTS
    _REPORTS = reports

    def watch() -> None:
        while not stop.wait(_WATCH_S) and os.getppid() == parent:
            pass
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()
