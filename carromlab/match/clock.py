"""The Hikone match clock (HIK-10): simulated match time, and the call of time."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .._validation import check_real

__all__ = ["MatchClock"]


@dataclass(frozen=True)
class MatchClock:
    """The match clock of the Japanese championship's Hikone matches (HIK-10).

    Seed 001 (the Hikone rules): every match but the final has 5 minutes; from one minute
    before the end each shot must be played within 10 seconds; at time the round is
    played out and the side with fewer pucks on the board wins (the rules' side:
    :func:`carromlab.rules.hikone.call_time`). A game played with a clock keeps its
    simulated match time: each shot takes the player's ``think_s`` (placing, aiming,
    fetching the striker) and then the shot's own motion, until every piece is at rest
    (the engine's ``t_end``). Once the time reaches ``limit_s`` the game's time is
    called. In the last ``final_s`` seconds the player takes at most ``shot_limit_s`` to
    think: the simulated players always shoot in time, so no turn is skipped.

    Without a clock (the default of :func:`~carromlab.match.play_game`) a match is
    untimed, as the championship's final is.

    Parameters
    ----------
    think_s : float
        Time a player takes before each shot, s, in (0, 600]. No measurement of it
        exists here: it is the user's assumption (at 6 s and about 1.5 s of motion a
        shot, a 5-minute match has some 40 shots).
    limit_s : float
        Length of the match, s, in (0, 86400]. Default 300 (HIK-10).
    final_s : float
        The last part of the match in which each shot is limited, s, in [0, ``limit_s``].
        Default 60 (HIK-10).
    shot_limit_s : float
        Most thinking time a shot may take in the last ``final_s``, s, in (0, 600].
        Default 10 (HIK-10).

    Examples
    --------
    >>> clock = MatchClock(think_s=6.0)
    >>> clock.after([0.0, 295.0], motion_s=[1.5, 1.5]).tolist()   # the second shot is in the last minute: 6 s of thought
    [7.5, 302.5]
    >>> MatchClock(think_s=15.0).after([250.0], motion_s=[1.0]).tolist()  # at most 10 s there
    [261.0]
    >>> MatchClock(think_s=0.0)
    Traceback (most recent call last):
    ...
    ValueError: The 'think_s' parameter must be a finite real number in the range (0, 600] s. Got 0.0 instead.
    """

    think_s: float
    limit_s: float = 300.0
    final_s: float = 60.0
    shot_limit_s: float = 10.0

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "think_s", check_real("think_s", self.think_s, low=0.0, high=600.0, low_open=True, unit="s"))
        set_(self, "limit_s", check_real("limit_s", self.limit_s, low=0.0, high=86400.0, low_open=True, unit="s"))
        set_(self, "final_s", check_real("final_s", self.final_s, low=0.0, high=self.limit_s, unit="s"))
        set_(self, "shot_limit_s", check_real("shot_limit_s", self.shot_limit_s, low=0.0, high=600.0, low_open=True, unit="s"))

    def after(self, clock_s: npt.ArrayLike, motion_s: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """The match time after a shot of each game.

        Parameters
        ----------
        clock_s : array_like of float
            Each game's match time before its shot, s.
        motion_s : array_like of float
            How long each shot's pieces moved, s.

        Returns
        -------
        numpy.ndarray of float
            The match times after the shots, s: before + thinking time + motion.
        """
        before = np.asarray(clock_s, dtype=float)
        final = before >= self.limit_s - self.final_s
        think = np.where(final, min(self.think_s, self.shot_limit_s), self.think_s)
        return before + think + np.asarray(motion_s, dtype=float)

    def expired(self, clock_s: npt.ArrayLike) -> npt.NDArray[np.bool_]:
        """Whether each match time has reached the limit (time is called, HIK-10).

        Parameters
        ----------
        clock_s : array_like of float
            Match times, s.

        Returns
        -------
        numpy.ndarray of bool
        """
        return np.asarray(clock_s, dtype=float) >= self.limit_s

    def left(self, clock_s: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """The match time left before time is called, s (0 once it has been).

        Parameters
        ----------
        clock_s : array_like of float
            Match times, s.

        Returns
        -------
        numpy.ndarray of float
            ``limit_s`` less each match time, in [0, ``limit_s``], s.

        Examples
        --------
        >>> MatchClock(think_s=6.0).left([0.0, 250.5, 301.0]).tolist()
        [300.0, 49.5, 0.0]
        """
        return np.clip(self.limit_s - np.asarray(clock_s, dtype=float), 0.0, self.limit_s)
