"""Impact detection: split each disc's track into free-sliding segments.

Between impacts a disc slides freely on a straight line, slowing down smoothly; an impact
changes its velocity abruptly. The detector compares, at every gap between consecutive
points, the velocity of a straight line fitted to the ``window`` points before the gap with
that of a line fitted to the ``window`` points after it, and again with windows three times
as long (which resolve the small velocity changes of slow discs creeping into a cushion).
Friction alone can only slow the disc along its motion, by at most ``max_deceleration``
times the time between the two windows' centres and never beyond a stop; a velocity change
beyond that (a turn, a gain, or a larger loss) by more than ``threshold`` standard errors
(from the position noise) is an impact. The strongest such gap is taken first and moved to
the gap that best splits its neighbourhood into two lines; windows are then cut there and
the search repeats, so impacts a few frames apart are found one after the other. A break
that no contact explains, within two frames of an explained impact of the same disc, is
merged into it; so are two consecutive impacts of a disc on the same cushion or peg (the
detector cut on both sides of the true frame gap, as it can next to a missing frame), into
one at the gap that best splits their points into two lines.

An outlier would look like two impacts, so the points are screened first: a point is
*suspect* when no window of ``window`` consecutive points containing it agrees with it (the
consensus line of the window's other points, :func:`_consensus`, misses it by more than
``threshold`` standard errors plus what friction can explain). A point next to an impact
agrees with a window on its own side, so impacts survive the screen; the points of a
segment only one or two frames long between two impacts do not, and such a double impact
is then found as one. The detector skips suspect points and fits each window's line to its
consensus. Once the impacts are known the screen is repeated with windows that stop at
them. Suspect points stay in the segments: the robust fit decides how much they count.

A disc creeping into a cushion or a peg changes its velocity by less than the detector can
see, yet its slide ends there; so does a slow disc touching another (a striker at a few
cm/s nudging a coin). The centre of a disc of radius r cannot come closer than r to a
cushion (r plus the peg's radius to a peg, the two radii to another disc), so after the
detection a track is also cut where it comes within ``threshold`` standard errors of that
contact distance: before the first point of every such visit that starts inside a segment,
and after its last point when the disc leaves again (beyond twice that distance) inside the
segment. Another disc's position at a point's time is interpolated between its clean
points. A visit that reaches a detected impact is that impact and is left alone. These
cuts end segments but add no impact: a visit only says the disc came within noise of a
contact, which a disc passing a cushion or a disc a millimetre off also does. With given
``breaks`` nothing is added.

Each impact is classified from the geometry, extrapolating the discs' straight lines: two
discs whose breaks coincide and whose centres come within the sum of their radii are a
disc-disc impact; a disc whose line reaches a cushion (``|x|`` or ``|y|`` = half board
minus radius) or a peg is an obstacle impact; anything else is "unknown". The impact time
is the time of contact on the incoming lines. A detected break with another disc's centre
in reach but no break of that disc is a disc-disc impact too: the struck disc's velocity
changed by less than its own track shows (a disc at rest nudged a millimetre or two), and
its track is split at the frame gap holding the contact as well, so that no segment runs
across an impact (the detected disc heads the impact's row, with its ``dv``).
"""

from __future__ import annotations

import math
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from .._validation import check_int, check_real, check_table, check_type
from .tracks import Tracks, first_bad

__all__ = ["Segmentation", "segment_tracks", "breaks_from_events"]

#: How far (noise scales, plus 1 mm) two discs' or a disc's and an obstacle's extrapolated
#: contact may miss and still explain an impact.
_TOL_SIGMAS = 5.0



def _line(t: np.ndarray, p: np.ndarray, t0: float) -> tuple[np.ndarray, np.ndarray, float, float]:
    """Least-squares line through points ``p`` (n, 2) at times ``t``, evaluated at ``t0``.

    Returns the position at ``t0`` (m), the velocity (m/s), and the variance factors of the
    position and of the velocity per unit noise variance (1/n + (t0 - mean)^2 / Sxx and
    1 / Sxx).
    """
    tm = t.mean()
    sxx = float(np.sum((t - tm) ** 2))
    v = ((t - tm) @ (p - p.mean(axis=0))) / sxx
    pos = p.mean(axis=0) + v * (t0 - tm)
    return pos, v, 1.0 / len(t) + (t0 - tm) ** 2 / sxx, 1.0 / sxx


def _curvature_allowance(t: np.ndarray, t0: float) -> float:
    """|value at t0| of the line fitted to (t - t0)^2: half of it times a deceleration is how
    far a line through decelerating points can miss the position at t0."""
    tm = (t - t0).mean()
    q = (t - t0) ** 2
    slope = ((t - t0 - tm) @ (q - q.mean())) / np.sum((t - t0 - tm) ** 2)
    return float(abs(q.mean() - slope * tm))


def _consensus(t: np.ndarray, p: np.ndarray, tol: float) -> np.ndarray:
    """Which points (n >= 4) agree, within ``tol`` m, with the line through the two points
    that most others agree with: exhaustive over the pairs, so among ``n`` points up to
    ``n - 3`` outliers cannot win. All True if no line gathers three points."""
    i, j = _pairs(len(t))
    v = (p[j] - p[i]) / (t[j] - t[i])[:, None]
    off = p[None, :, :] - p[i][:, None, :] - v[:, None, :] * (t[None, :] - t[i][:, None])[..., None]
    miss = np.hypot(off[..., 0], off[..., 1])
    agree = miss <= tol
    best = np.lexsort((np.minimum(miss, tol).sum(axis=1), -agree.sum(axis=1)))[0]
    return agree[best] if agree[best].sum() >= 3 else np.ones(len(t), dtype=bool)


@lru_cache(maxsize=None)
def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """``np.triu_indices(n, 1)``, made once per window size (it took a third of the time
    of :func:`_consensus`)."""
    return np.triu_indices(n, 1)


def _clearance(tracks: Tracks, discs: dict[int, _Disc], disc: int) -> np.ndarray | None:
    """How far each point of ``disc`` is from touching a cushion, a peg or another disc,
    m (the distance its centre could still move towards the nearest one; another disc's
    position at the point's time interpolated between its clean points, where it is
    tracked); None if the disc's radius is unknown."""
    board, r, dd = tracks.board, tracks.radius.get(disc), discs[disc]
    if r is None:
        return None
    p = dd.p
    gap = np.full(len(p), np.inf)
    if board is not None and board.shape == "square":
        gap = board.half_size - r - np.abs(p).max(axis=1)
    for peg in board.pegs if board is not None else ():
        gap = np.minimum(gap, np.hypot(p[:, 0] - peg.x, p[:, 1] - peg.y) - r - peg.radius)
    for e, ee in discs.items():
        clean = ~ee.suspect
        if e == disc or e not in tracks.radius or clean.sum() < 2:
            continue
        te, pe = ee.t[clean], ee.p[clean]
        qx, qy = np.interp(dd.t, te, pe[:, 0]), np.interp(dd.t, te, pe[:, 1])
        d = np.hypot(p[:, 0] - qx, p[:, 1] - qy) - r - tracks.radius[e]
        gap = np.minimum(gap, np.where((dd.t >= te[0]) & (dd.t <= te[-1]), d, np.inf))
    return gap


def _contact_cuts(clearance: np.ndarray, suspect: np.ndarray, cuts: list[int], reach: float) -> list[int]:
    """Gaps (k: between points k and k + 1) that bound a track's visits to a cushion or peg
    inside its segments (between ``cuts``). A visit starts at a point whose ``clearance``
    (m) is below ``reach`` and ends after the last point before the clearance exceeds twice
    that (so that a disc resting near the contact distance makes one visit, not many);
    suspect points change nothing. A cut goes before a visit that starts after its
    segment's first point, and after one that ends before its segment's last point; a visit
    that reaches a cut (a detected impact) is left alone."""
    out: list[int] = []
    bounds = [-1, *cuts, len(clearance) - 1]
    for lo, hi in zip(bounds[:-1], bounds[1:]):  # a segment: points lo + 1 .. hi
        visits: list[list[int]] = []
        inside = False
        for i in range(lo + 1, hi + 1):
            if suspect[i]:
                continue
            if not inside and clearance[i] < reach:
                visits.append([i, i])
            elif inside and clearance[i] <= 2.0 * reach:
                visits[-1][1] = i
            inside = clearance[i] < reach if not inside else clearance[i] <= 2.0 * reach
        for a, b in visits:
            if (a == lo + 1 and lo in cuts) or (b == hi and hi in cuts):
                continue
            if a > lo + 1:
                out.append(a - 1)
            if b < hi:
                out.append(b)
    return out


@dataclass(frozen=True, eq=False)
class Segmentation:
    """Tracks split into free-sliding segments, with the impacts between them.

    Attributes
    ----------
    tracks : Tracks
        The input tracks.
    points : pandas.DataFrame
        The track rows (``disc``, ``t``, ``x``, ``y``, ...) plus ``segment`` (int: the
        segment the point belongs to) and ``suspect`` (bool: failed the outlier screen).
    segments : pandas.DataFrame
        One row per segment: ``segment``, ``disc``, ``t_start``, ``t_end`` (s),
        ``n_points``, ``moving`` (the disc moved by more than ``rest_distance``), ``usable``
        (moving with at least ``min_points`` points: used by the friction fit).
    impacts : pandas.DataFrame
        One row per impact: ``t`` (s, contact time on the incoming lines; the middle of the
        gap for "unknown"), ``kind`` ("disc", "cushion", "peg", "unknown"), ``disc``,
        ``other`` (the other disc of a disc-disc impact, else -1), ``where`` (cushion name
        or peg index, else ""), ``segment_before``, ``segment_after`` (of ``disc``),
        ``other_before``, ``other_after`` (segments of ``other``, else -1) and ``dv``
        (m/s, velocity change of ``disc`` seen by the detector; NaN for given breaks). The
        cuts where a disc came within reach of a cushion or peg end segments but are no
        impacts: two consecutive segments of a disc with no impact between them meet there.
    noise : float
        Position noise used by the detector, m.
    """

    tracks: Tracks
    points: pd.DataFrame
    segments: pd.DataFrame
    impacts: pd.DataFrame
    noise: float

    def __repr__(self) -> str:
        # one line: the dataclass repr printed the tracks and all three tables
        source = f"{self.tracks.source}: " if self.tracks.source else ""
        return (
            f"Segmentation({source}{len(self.segments)} segments ({len(self.usable)} usable), "
            f"{len(self.impacts)} impact{'s' * (len(self.impacts) != 1)}, position noise {self.noise * 1e3:.2g} mm)"
        )

    def segment_points(self, segment: int) -> pd.DataFrame:
        """Rows of one segment, in time order."""
        return self.points[self.points["segment"] == segment].reset_index(drop=True)

    @property
    def usable(self) -> list[int]:
        """Ids of the segments the friction fit uses."""
        return self.segments.loc[self.segments["usable"], "segment"].astype(int).tolist()


def breaks_from_events(events: pd.DataFrame) -> pd.DataFrame:
    """Segment boundaries from an engine event list (for synthetic tracks).

    Parameters
    ----------
    events : pandas.DataFrame
        :attr:`carromlab.ShotResult.events`.

    Returns
    -------
    pandas.DataFrame
        One row per impact: ``t`` (s), ``kind``, ``disc``, ``other``, ``where`` — the
        ``breaks`` argument of :func:`segment_tracks`.

    Examples
    --------
    >>> from carromlab import Board, Scene, Shot, simulate
    >>> scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": [], "x": [], "y": []}))
    >>> res = simulate(scene, Shot.from_deg(0.0, -0.2, angle_deg=80.0, speed=2.0))
    >>> breaks_from_events(res.events)[["kind", "where"]].values.tolist()
    [['cushion', 'north']]
    """
    ev = events[events["kind"].isin(["disc", "cushion", "peg"])]
    return pd.DataFrame(
        {
            "t": ev["t"].to_numpy(dtype=float),
            "kind": ev["kind"].astype(str).to_numpy(),
            "disc": ev["disc"].to_numpy(dtype=np.int64),
            "other": ev["other"].to_numpy(dtype=np.int64),
            "where": ev["where"].astype(str).to_numpy(),
        }
    )


class _Disc:
    """One disc's points and the detector's view of them.

    ``cuts`` holds the accepted breaks as gap indices (k: between points k and k + 1);
    no straight-line window reaches across one.
    """

    def __init__(self, disc: int, g: pd.DataFrame, window: int, threshold: float, sigma: float, a_max: float) -> None:
        self.disc = disc
        self.t = g["t"].to_numpy()
        self.p = g[["x", "y"]].to_numpy()
        self.suspect = np.zeros(len(self.t), dtype=bool)
        self.cuts: list[int] = []
        self.window, self.threshold, self.sigma, self.a_max = window, threshold, sigma, a_max
        self._agree: dict[bytes, np.ndarray] = {}

    def consensus(self, idx: np.ndarray) -> np.ndarray:
        """The points ``idx`` (>= 4) that agree with their consensus line (:func:`_consensus`),
        each set of points computed once: the right window of a frame gap is the left window
        of the gap ``window`` points on, and the screen and the detector meet the same sets."""
        key = idx.tobytes()
        if key not in self._agree:
            agree = idx[_consensus(self.t[idx], self.p[idx], self.threshold * self.sigma)]
            agree.flags.writeable = False  # shared by every caller
            self._agree[key] = agree
        return self._agree[key]

    def side(self, i: int, before: bool, *, clean: bool = False) -> np.ndarray:
        """Indices of the points (non-suspect ones if ``clean``) up to and including point
        ``i`` (``before``) or from it on, within its segment, nearest first cut to
        ``3 * window``."""
        start = max([k + 1 for k in self.cuts if k < i], default=0)
        stop = min([k for k in self.cuts if k >= i], default=len(self.t) - 1)
        idx = np.arange(max(start, i - 6 * self.window), i + 1) if before else np.arange(i, min(stop, i + 6 * self.window) + 1)
        if clean:
            idx = idx[~self.suspect[idx]]
        return idx[-3 * self.window :] if before else idx[: 3 * self.window]

    def trimmed_line(self, idx: np.ndarray, t0: float) -> tuple[np.ndarray, np.ndarray, float, float, np.ndarray]:
        """:func:`_line` through the points ``idx`` of the window's consensus
        (:func:`_consensus`; all of them for fewer than four)."""
        if len(idx) >= 4:
            idx = self.consensus(idx)
        return (*_line(self.t[idx], self.p[idx], t0), idx)

    def refine(self, a: int, b: int) -> int:
        """The gap that best splits the points near the break between clean points ``a``
        and ``b`` into two straight lines (each the least-squares line of its consensus),
        among the gaps up to ``window`` before ``a`` or after ``b`` within the segment:
        least sum of squared misses, each capped at ``threshold`` noise scales so that an
        outlier cannot decide. The greedy detection can pick a gap near the right one when
        its windows reach across another impact."""
        start = max([c + 1 for c in self.cuts if c < a], default=0)
        stop = min([c for c in self.cuts if c >= b], default=len(self.t) - 1)
        cap = (self.threshold * self.sigma) ** 2
        pts = np.arange(max(start, a - 2 * self.window), min(stop, b + 2 * self.window) + 1)

        def cost(g: int) -> float:
            total = 0.0
            for part in (pts[pts <= g], pts[pts > g]):
                if len(part) > 2:
                    pos, v, _, _, _ = self.trimmed_line(part, 0.0)
                    miss = self.p[part] - (pos + np.outer(self.t[part], v))
                    total += float(np.sum(np.minimum(np.sum(miss**2, axis=1), cap)))
            return total

        options = range(max(a - self.window, start), min(b + self.window - 1, stop - 1) + 1)
        return min(options, key=lambda g: (cost(g), abs(g - a)))

    def score(self, k: int, b: int) -> tuple[float, float]:
        """(z, |dv| m/s) of a break between the consecutive clean points k and b: the
        larger of the scores with ``window`` points a side and with three times as many
        (which resolves the small velocity changes of slow discs)."""
        return max(self._score(k, b, self.window), self._score(k, b, 3 * self.window))

    def _score(self, k: int, b: int, window: int) -> tuple[float, float]:
        left, right = self.side(k, True, clean=True)[-window:], self.side(b, False, clean=True)[:window]
        if len(left) < 2 or len(right) < 2:  # two points: impacts two frames apart are still seen
            return -math.inf, math.nan
        tg = 0.5 * (self.t[k] + self.t[b])
        _, vl, _, fl, left = self.trimmed_line(left, tg)
        _, vr, _, fr, right = self.trimmed_line(right, tg)
        dv = vr - vl
        # friction only slows a disc along its motion, by at most a_max dt and never
        # beyond a stop: the rest of the velocity change (any turn, any gain, a larger loss)
        # is unexplained
        speed = float(np.hypot(*vl))
        along_u = vl / speed if speed > 0.0 else np.zeros(2)
        along = float(dv @ along_u)
        across = float(np.hypot(*(dv - along * along_u)))
        loss = min(self.a_max * (self.t[right].mean() - self.t[left].mean()), speed)
        excess_along = max(along, -loss - along, 0.0)
        return math.hypot(across, excess_along) / (self.sigma * math.sqrt(fl + fr)), float(np.hypot(*dv))

    def detect(self) -> dict[int, float]:
        """Impacts as {gap index: |dv| m/s}: the strongest break above ``threshold`` between
        clean points is accepted (and refined), the windows are cut there, the gaps whose
        windows reached it are scored again, and the search repeats."""
        good = np.flatnonzero(~self.suspect)
        nxt = dict(zip(good[:-1].tolist(), good[1:].tolist()))
        scores = {k: self.score(k, b) for k, b in nxt.items()}
        found: dict[int, float] = {}
        while scores:
            k = max(scores, key=lambda g: scores[g][0])
            if not scores[k][0] > self.threshold:
                break
            dv = scores.pop(k)[1]
            cut = self.refine(k, nxt[k])
            found[cut] = dv
            self.cuts = sorted([*self.cuts, cut])
            for g in list(scores):
                if abs(g - k) <= 6 * self.window:  # every gap whose long windows reached k
                    crosses = any(g < c < nxt[g] or c == g for c in self.cuts)
                    scores[g] = (-math.inf, math.nan) if crosses else self.score(g, nxt[g])
        return found

    def screen(self) -> None:
        """Flag the points that no window of ``window`` consecutive points containing them
        (not reaching across a known impact) agrees with: the consensus line of the other
        points misses them by more than ``threshold`` standard errors plus what friction can
        explain. A point next to an impact agrees with a window on its own side; a point
        that cannot be judged (fewer than three others in every window) is not flagged."""
        n, w = len(self.t), self.window
        flags = np.zeros(n, dtype=bool)
        for i in range(n):
            lo = max([c + 1 for c in self.cuts if c < i], default=0)
            hi = min([c for c in self.cuts if c >= i], default=n - 1)
            judged = agreed = False
            for first in range(max(lo, i - w + 1), min(i, hi - w + 2) + 1 if hi - lo + 1 >= w else lo + 1):
                idx = np.arange(first, min(first + w, hi + 1))
                others = idx[idx != i]
                if len(others) < 3:
                    continue
                if len(others) >= 4:
                    others = self.consensus(others)
                pos, _, fac, _ = _line(self.t[others], self.p[others], self.t[i])
                tol = self.threshold * self.sigma * math.sqrt(1.0 + fac) + 0.5 * self.a_max * _curvature_allowance(
                    self.t[others], self.t[i]
                )
                judged = True
                if float(np.hypot(*(self.p[i] - pos))) <= tol:
                    agreed = True
                    break
            flags[i] = judged and not agreed
        self.suspect = flags


def _check_breaks(breaks: pd.DataFrame, tracks: Tracks) -> pd.DataFrame:
    """``breaks`` checked against ``tracks``: every ``disc`` (and ``other``, where it is a
    disc, >= 0) a tracked disc, every ``t`` finite and within the time span of the tracks;
    errors name the row (0-based position in ``breaks``)."""
    check_table("breaks", breaks, ("disc", "t"), "a DataFrame (t in s)", rows=False)
    t = pd.to_numeric(breaks["t"], errors="coerce").to_numpy(dtype=float)
    if not np.all(np.isfinite(t)):
        row, got = first_bad(breaks["t"], ~np.isfinite(t))
        raise ValueError(f"The 'breaks' parameter must contain finite times t. Got {got!r} at row {row} instead.")
    ids = tracks.discs
    for col in ("disc", "other"):
        if col not in breaks:
            continue
        d = pd.to_numeric(breaks[col], errors="coerce").to_numpy(dtype=float)
        # 'other' is -1 (no other disc) for cushion and peg impacts
        bad = ~np.isin(d, ids) if col == "disc" else ~(np.isin(d, ids) | (d < 0))
        if bad.any():
            row, got = first_bad(breaks[col], bad)
            raise ValueError(
                f"The 'breaks' parameter must name tracked discs in column {col!r}, one of {ids}"
                f"{' (or -1 for none)' if col == 'other' else ''}. Got {got!r} at row {row} instead."
            )
    # a disc's impact may fall just outside its own track (pocketed, lost by the camera):
    # such a break splits nothing, but one outside every track is a mistake (units?)
    lo, hi = float(tracks.data["t"].min()), float(tracks.data["t"].max())
    out = (t < lo) | (t > hi)
    if out.any():
        row = int(np.argmax(out))
        raise ValueError(
            f"The 'breaks' parameter must give times t within the tracks, in the range [{lo:g}, {hi:g}] s. "
            f"Got t = {float(t[row])!r} s at row {row} (disc {int(breaks['disc'].iat[row])}) instead."
        )
    return breaks


def segmentation_of(data: Tracks | Segmentation) -> Segmentation:
    """``data`` if it is a Segmentation, else its :func:`segment_tracks` with the defaults;
    a TypeError naming the 'data' parameter for anything else (what the fits take).

    Examples
    --------
    >>> from carromlab.fitting import read_tracks, data_path
    >>> seg = segmentation_of(read_tracks(data_path("cushion_shot.csv")))
    >>> segmentation_of(seg) is seg
    True
    """
    check_type("data", data, (Tracks, Segmentation), hint="e.g. from read_tracks")
    return data if isinstance(data, Segmentation) else segment_tracks(data)


def segment_tracks(
    tracks: Tracks,
    *,
    breaks: pd.DataFrame | None = None,
    window: int = 5,
    threshold: float = 5.0,
    max_deceleration: float = 3.0,
    min_points: int = 6,
    rest_distance: float | None = None,
) -> Segmentation:
    """Split tracks into free-sliding segments at impacts (detected, or given).

    Parameters
    ----------
    tracks : Tracks
        The tracks, in board metres.
    breaks : pandas.DataFrame, optional
        Override the detector: the impacts, with columns ``disc`` and ``t`` (s) and
        optionally ``kind``, ``other``, ``where`` (as from :func:`breaks_from_events`; a
        disc-disc row splits both discs). A track is split between its last point before
        ``t`` and its first point at or after ``t``. Without ``kind`` the impacts are
        classified from the geometry. Every ``disc`` (and ``other``, unless -1) must be a
        tracked disc, and ``t`` within the time span of the tracks; a break outside its
        disc's own track (a disc pocketed or lost by the camera) splits nothing.
    window : int
        Points in each straight-line window of the detector, >= 3. Default 5.
    threshold : float
        Detection threshold in standard errors, > 0. Default 5 (a chance of about 4e-6
        per frame gap that noise alone crosses it).
    max_deceleration : float
        Largest deceleration friction can cause, m/s^2, >= 0. Default 3 (mu = 0.3).
    min_points : int
        Fewest points of a segment the friction fit uses, >= 3. Default 6.
    rest_distance : float, optional
        A segment whose start and end (medians of three points) are closer than this is
        a disc at rest, m. Default 10 times the position noise.

    Returns
    -------
    Segmentation

    Raises
    ------
    ValueError
        If the position noise cannot be estimated (every track has fewer than 3 points)
        or an argument is out of range: for ``breaks``, a disc that is not tracked or a time
        outside the tracks (the message names the row of ``breaks``).

    Examples
    --------
    >>> from carromlab.fitting import read_tracks, data_path
    >>> seg = segment_tracks(read_tracks(data_path("cushion_shot.csv")))
    >>> seg.impacts["kind"].value_counts().to_dict()
    {'cushion': 9, 'disc': 1}
    """
    window = check_int("window", window, low=3)
    threshold = check_real("threshold", threshold, low=0.0, low_open=True)
    a_max = check_real("max_deceleration", max_deceleration, low=0.0, unit="m/s^2")
    min_points = check_int("min_points", min_points, low=3)
    sigma = tracks.position_noise
    if not math.isfinite(sigma):
        raise ValueError(
            "The 'tracks' parameter must have a disc with at least 3 points to estimate the position noise. "
            f"Got at most {int(tracks.report()['n_points'].max())} points per disc instead."
        )
    sigma = max(sigma, 1e-9)
    rest = 10.0 * sigma if rest_distance is None else check_real("rest_distance", rest_distance, low=0.0, unit="m")
    discs = {d: _Disc(d, tracks.disc(d), window, threshold, sigma, a_max) for d in tracks.discs}

    # breaks as frame gaps: (disc, k) splits disc between its points k and k + 1
    gaps: dict[tuple[int, int], float] = {}  # -> |dv| seen by the detector, m/s
    given: list[tuple[dict, tuple[int, int], tuple[int, int] | None]] = []
    if breaks is None:
        for d, dd in discs.items():
            dd.screen()
            for k, dv in dd.detect().items():
                gaps[(d, k)] = dv
    else:
        for row in _check_breaks(breaks, tracks).to_dict("records"):
            keys = []
            for d in (int(row["disc"]), int(row.get("other", -1))):
                k = int(np.searchsorted(discs[d].t, float(row["t"]), side="left")) - 1 if d in discs else -1
                keys.append((d, k) if 0 <= k < len(discs[d].t) - 1 else None)
            if keys[0] is None or keys[0] in gaps:
                continue  # the disc is not tracked across this time, or already split there
            for key in keys:
                if key is not None:
                    gaps[key] = math.nan
            given.append((row, keys[0], keys[1]))
    segments, points, seg_of, impacts = _assemble(tracks, discs, gaps, given, window, sigma, rest, min_points)
    if breaks is None:
        # an impact no contact explains, within two frames of an explained impact of the
        # same disc, is a piece of that impact (its windows reached across it): merge
        explained = impacts[impacts["kind"] != "unknown"]
        redundant = []
        for (d, k) in gaps:
            row = impacts[(impacts["disc"] == d) & (impacts["segment_before"] == seg_of[d][k])]
            if len(row) and row["kind"].iat[0] == "unknown":
                mine = explained[(explained["disc"] == d) | (explained["other"] == d)]
                if (np.abs(mine["t"] - row["t"].iat[0]) < 2.5 * np.median(np.diff(discs[d].t))).any():
                    redundant.append((d, k))
        if redundant:
            gaps = {dk: v for dk, v in gaps.items() if dk not in redundant}
            segments, points, seg_of, impacts = _assemble(tracks, discs, gaps, given, window, sigma, rest, min_points)
        while (merged := _merge_double_hits(impacts, discs, gaps, seg_of)) is not None:
            gaps = merged
            segments, points, seg_of, impacts = _assemble(tracks, discs, gaps, given, window, sigma, rest, min_points)
        if struck := _struck(tracks, discs, gaps, impacts, seg_of, window, sigma):
            gaps = {**gaps, **dict.fromkeys(struck, math.nan)}
            segments, points, seg_of, impacts = _assemble(
                tracks, discs, gaps, given, window, sigma, rest, min_points, struck=struck
            )
        contacts: set[tuple[int, int]] = set()
        for d, dd in discs.items():
            gap = _clearance(tracks, discs, d)
            if gap is not None:
                cuts = sorted(k for (e, k) in gaps if e == d)
                contacts.update((d, k) for k in _contact_cuts(gap, dd.suspect, cuts, threshold * sigma))
        if contacts - gaps.keys():
            segments, points, seg_of, impacts = _assemble(
                tracks, discs, gaps, given, window, sigma, rest, min_points, bounds=contacts, struck=struck
            )
    return Segmentation(tracks, points, segments, impacts, sigma)


def _merge_double_hits(
    impacts: pd.DataFrame, discs: dict[int, _Disc], gaps: dict[tuple[int, int], float], seg_of: dict[int, np.ndarray]
) -> dict[tuple[int, int], float] | None:
    """The breaks with the first split impact merged, or None if there is none.

    A disc sliding on straight lines cannot hit the same cushion or peg twice in a row, so
    two such consecutive impacts are one that the detector cut on both sides of the true
    frame gap (a few points between them seen as a segment, as when a frame next to the
    impact is missing): both breaks are replaced by the one gap that best splits the
    points around them into two lines (:meth:`_Disc.refine`)."""
    for d, dd in discs.items():
        mine = impacts[(impacts["disc"] == d) | (impacts["other"] == d)]
        for a, b in zip(mine.itertuples(index=False), list(mine.itertuples(index=False))[1:]):
            same = a.kind == b.kind and a.kind in ("cushion", "peg") and a.where == b.where and a.disc == b.disc == d
            if not same or a.segment_after != b.segment_before:
                continue
            k1, k2 = (int(np.flatnonzero(seg_of[d] == s)[-1]) for s in (a.segment_before, b.segment_before))
            dd.cuts = sorted(k for (e, k) in gaps if e == d and k not in (k1, k2))
            cut = dd.refine(k1, k2 + 1)
            rest = {dk: v for dk, v in gaps.items() if dk not in ((d, k1), (d, k2))}
            return {**rest, (d, cut): max(gaps[(d, k1)], gaps[(d, k2)])}
    return None


def _assemble(
    tracks: Tracks,
    discs: dict[int, _Disc],
    gaps: dict[tuple[int, int], float],
    given: list[tuple[dict, tuple[int, int], tuple[int, int] | None]],
    window: int,
    sigma: float,
    rest: float,
    min_points: int,
    bounds: AbstractSet[tuple[int, int]] = frozenset(),
    struck: AbstractSet[tuple[int, int]] = frozenset(),
) -> tuple[pd.DataFrame, pd.DataFrame, dict[int, np.ndarray], pd.DataFrame]:
    """Segments table, labelled points, segment labels by disc, and impacts for the breaks
    ``gaps``; the outlier screen is redone with windows that stop at the breaks. The frame
    gaps ``bounds`` (disc, k) also end segments, with no impact (the contact cuts: a disc
    passing a cushion a millimetre off makes the same visit as one creeping into it). The
    breaks ``struck`` (:func:`_struck`) enter the impacts only as the other disc of an
    impact."""
    for d, dd in discs.items():
        dd.cuts = sorted({k for (dk, k) in gaps if dk == d} | {k for (dk, k) in bounds if dk == d})
        dd.screen()
    seg_of: dict[int, np.ndarray] = {}
    seg_rows = []
    next_id = 0
    for d, dd in discs.items():
        labels = np.searchsorted(np.array(dd.cuts, dtype=float) + 0.5, np.arange(len(dd.t))) + next_id
        seg_of[d] = labels
        for s in np.unique(labels):
            idx = np.flatnonzero(labels == s)
            moved = float(np.hypot(*(np.median(dd.p[idx[:3]], axis=0) - np.median(dd.p[idx[-3:]], axis=0))))
            moving = moved > rest
            seg_rows.append(
                {
                    "segment": int(s), "disc": d, "t_start": dd.t[idx[0]], "t_end": dd.t[idx[-1]],
                    "n_points": len(idx), "moving": moving, "usable": moving and len(idx) >= min_points,
                }  # fmt: skip
            )
        next_id = int(labels.max()) + 1 if len(labels) else next_id
    points = tracks.data.copy()
    points["segment"] = np.concatenate([seg_of[d] for d in tracks.discs])
    points["suspect"] = np.concatenate([discs[d].suspect for d in tracks.discs])
    impacts = _classify(tracks, discs, gaps, given, seg_of, window, sigma, struck)
    return pd.DataFrame(seg_rows), points, seg_of, impacts


def _contact_time(
    a0: np.ndarray, va: np.ndarray, b0: np.ndarray, vb: np.ndarray, dist: float, lo: float, hi: float
) -> float | None:
    """First time in [lo, hi] (s, relative to the line origin) at which two straight-line
    paths a0 + va t and b0 + vb t are ``dist`` apart, or the time of closest approach if
    they come within ``dist`` of each other only there; None if they stay farther apart."""
    dp, dv = a0 - b0, va - vb
    A, B, C = dv @ dv, 2.0 * dp @ dv, dp @ dp - dist * dist
    if A > 0.0:
        disc = B * B - 4.0 * A * C
        if disc >= 0.0:
            t1 = (-B - math.sqrt(disc)) / (2.0 * A)
            if lo <= t1 <= hi:
                return t1
            if t1 < lo <= (-B + math.sqrt(disc)) / (2.0 * A):
                return lo  # already in contact at the window start: it happened just before
    return None


def _incoming(dd: _Disc, k: int, t0: float, window: int) -> tuple[np.ndarray, np.ndarray]:
    """Position (m) at time t0 and velocity (m/s) of disc ``dd`` on the straight line of
    the last ``window`` clean points up to its frame gap k (its point k at rest if fewer
    than two)."""
    idx = dd.side(k, True, clean=True)[-window:]
    if len(idx) < 2:
        return dd.p[k], np.zeros(2)
    pos, v, _, _ = _line(dd.t[idx], dd.p[idx], t0)
    return pos, v


def _reach(
    tracks: Tracks, discs: dict[int, _Disc], d: int, k: int, line: tuple[np.ndarray, np.ndarray], e: int, m: int,
    window: int, sigma: float,
) -> float | None:
    """When discs d and e, extrapolated on their incoming lines across d's frame gap k
    (from its first point, s), touch within the gap (and a frame either side), up to
    ``_TOL_SIGMAS`` noise scales plus 1 mm: the time of touching (or of closest approach),
    s from d's point k; else None. ``line`` is d's (:func:`_incoming` at gap k), e's the
    one up to its gap m."""
    dd, tb = discs[d], discs[d].t[k]
    dt_frame = 1.0 / tracks.fps if tracks.fps else 0.0
    lo, hi = -dt_frame, dd.t[k + 1] - tb + dt_frame
    p0, v = line
    q0, w = _incoming(discs[e], m, tb, window)
    sigma_rr = tracks.radius[d] + tracks.radius[e]
    reach = _contact_time(p0, v, q0, w, sigma_rr + _TOL_SIGMAS * sigma + 1e-3, lo, hi)
    if reach is None:
        return None
    exact = _contact_time(p0, v, q0, w, sigma_rr, lo, hi)
    return reach if exact is None else exact


def _struck(
    tracks: Tracks,
    discs: dict[int, _Disc],
    gaps: dict[tuple[int, int], float],
    impacts: pd.DataFrame,
    seg_of: dict[int, np.ndarray],
    window: int,
    sigma: float,
) -> set[tuple[int, int]]:
    """Frame gaps (e, m) of discs struck by an impact that no contact explained: another
    disc's centre in reach of the impact (``_reach``) means a disc-disc impact, which
    changed that disc's velocity too, by less than its own track shows (a disc at rest
    nudged a millimetre or two); its track is split at the gap holding the contact."""
    out: set[tuple[int, int]] = set()
    for row in impacts[impacts["kind"] == "unknown"].itertuples(index=False):
        d = int(row.disc)
        if d not in tracks.radius:
            continue
        k = int(np.flatnonzero(seg_of[d] == row.segment_before)[-1])
        tb, ta = discs[d].t[k], discs[d].t[k + 1]
        line = _incoming(discs[d], k, tb, window)
        for e, ee in discs.items():
            if e == d or e not in tracks.radius or len(ee.t) < 2:
                continue
            m = min(max(int(np.searchsorted(ee.t, tb, side="right")) - 1, 0), len(ee.t) - 2)
            if ee.t[m + 1] < tb or ee.t[m] > ta or (e, m) in gaps or (e, m) in out:
                continue
            if _reach(tracks, discs, d, k, line, e, m, window, sigma) is not None:
                out.add((e, m))
                break
    return out


def _classify(
    tracks: Tracks,
    discs: dict[int, _Disc],
    gaps: dict[tuple[int, int], float],
    given: list[tuple[dict, tuple[int, int], tuple[int, int] | None]],
    seg_of: dict[int, np.ndarray],
    window: int,
    sigma: float,
    struck: AbstractSet[tuple[int, int]] = frozenset(),
) -> pd.DataFrame:
    """The impacts table (see :class:`Segmentation`); a ``struck`` break is only ever
    the other disc of an impact."""
    dt_frame = 1.0 / tracks.fps if tracks.fps else 0.0
    tol = _TOL_SIGMAS * sigma + 1e-3  # how far an extrapolated contact may miss, m

    def base(d: int, k: int, t: float) -> dict:
        return {
            "t": t, "kind": "unknown", "disc": d, "other": -1, "where": "",
            "segment_before": int(seg_of[d][k]), "segment_after": int(seg_of[d][k + 1]),
            "other_before": -1, "other_after": -1, "dv": gaps[(d, k)],
        }  # fmt: skip

    def pair(row: dict, e: int, m: int) -> None:
        row.update(other=e, other_before=int(seg_of[e][m]), other_after=int(seg_of[e][m + 1]))
        used.add((e, m))

    rows = []
    used: set[tuple[int, int]] = set()
    for g, (d, k), other in given:
        if "kind" not in g:
            continue
        row = base(d, k, float(g["t"]))
        row.update(kind=str(g["kind"]), where=str(g.get("where", "")))
        used.add((d, k))
        if row["kind"] == "disc" and other is not None:
            pair(row, *other)
        rows.append(row)
    order = sorted((dk for dk in gaps if dk not in used), key=lambda dk: discs[dk[0]].t[dk[1]])
    for d, k in order:
        if (d, k) in used or (d, k) in struck:
            continue
        used.add((d, k))
        dd = discs[d]
        tb, ta = dd.t[k], dd.t[k + 1]
        lo, hi = -dt_frame, ta - tb + dt_frame
        row = base(d, k, 0.5 * (tb + ta))
        p0, v = _incoming(dd, k, tb, window)
        r = tracks.radius.get(d)
        # disc-disc: another disc broken in an overlapping frame gap, its centre in reach
        for e, m in order:
            if e == d or (e, m) in used or r is None or e not in tracks.radius:
                continue
            ee = discs[e]
            if ee.t[m + 1] < tb or ee.t[m] > ta:
                continue
            reach = _reach(tracks, discs, d, k, (p0, v), e, m, window, sigma)
            if reach is not None:
                row.update(t=tb + reach, kind="disc")
                pair(row, e, m)
                break
        if row["kind"] == "unknown" and r is not None and tracks.board is not None:
            row.update(_obstacle(tracks, p0, v, r, lo, hi, tb, tol))
        rows.append(row)
    cols = ["t", "kind", "disc", "other", "where", "segment_before", "segment_after", "other_before", "other_after", "dv"]
    out = pd.DataFrame(rows, columns=cols)
    return out.sort_values(["t", "disc"], kind="stable", ignore_index=True).astype(
        {"disc": np.int64, "other": np.int64, "segment_before": np.int64, "segment_after": np.int64,
         "other_before": np.int64, "other_after": np.int64, "t": float, "dv": float}  # fmt: skip
    )


def _obstacle(
    tracks: Tracks, p0: np.ndarray, v: np.ndarray, r: float, lo: float, hi: float, tb: float, tol: float
) -> dict:
    """Cushion or peg reached by the incoming line p0 + v t within [lo, hi] (+ tolerance)."""
    board = tracks.board
    assert board is not None
    h = board.half_size
    best: dict = {}
    if board.shape == "square":
        # cushion names as in the engine: the direction of the outward normal
        for name, axis, sign in (("east", 0, 1.0), ("west", 0, -1.0), ("north", 1, 1.0), ("south", 1, -1.0)):
            speed = sign * v[axis]
            if speed <= 0.0:
                continue
            tc = (sign * (h - r) - p0[axis]) / v[axis]
            slack = tol / speed
            if lo - slack <= tc <= hi + slack and ("t" not in best or tb + tc < best["t"]):
                best = {"t": tb + tc, "kind": "cushion", "where": name}
    for j, peg in enumerate(board.pegs):
        tc = _contact_time(p0, v, np.array([peg.x, peg.y]), np.zeros(2), r + peg.radius + tol, lo, hi)
        if tc is not None and ("t" not in best or tb + tc < best["t"]):
            exact = _contact_time(p0, v, np.array([peg.x, peg.y]), np.zeros(2), r + peg.radius, lo, hi)
            best = {"t": tb + (tc if exact is None else exact), "kind": "peg", "where": str(j)}
    return best
