"""Synthetic tracks: a simulated shot seen by a model camera.

The engine gives the exact positions (and spins) of every disc at every frame time; the
camera model then turns them into detections as a tracker would report them:

1. **Frames** at ``fps`` frames/s from t = 0 (the shot) to ``duration``; a disc that
   falls into a pocket or hole disappears from the frame after it fell.
2. **Projection** to pixels (u right, v down) by ``camera`` — by default an ideal overhead
   camera with ``px_per_m`` pixels per metre and the board centre at pixel (960, 540).
3. **Pixel noise**: independent Gaussian errors of standard deviation ``pixel_noise`` px
   on u and v (a centroid tracker locates a disc to a fraction of a pixel).
4. **Dropouts**: each detection is missing, independently, with probability ``dropout``.
5. **Outliers**: each remaining detection is, with probability ``outlier_rate``, moved by
   ``outlier_px[0]`` to ``outlier_px[1]`` px in a uniformly random direction (a
   mis-association with another blob).
6. **Orientation** (only when ``angle_noise`` is given): the integral of the disc's spin
   from a uniformly random initial orientation, plus Gaussian noise of ``angle_noise``
   rad, wrapped into (-pi, pi] and expressed in the image's sense of rotation.
7. **Frame timing** (only when ``timing_jitter`` > 0): frame i is taken at
   i / fps + dt_i, dt_i Gaussian of standard deviation ``timing_jitter`` s truncated at
   0.45 frame periods (frames keep their order; the first is not taken before 0), but
   reported at i / fps, as by a camera with a variable frame rate written as a constant one.

The defaults are the *documented noise level* of the fitting tests: 120 frames/s,
1000 px/m, 0.5 px noise, 5 % dropouts, 1 % outliers of 10-40 px.

The fitting tests and ``benchmarks/fit_coverage.py`` film random cut shots
(:func:`random_cut_shot`) made under :data:`EXAMPLE_PARAMS`; so can a pipeline of one's own,
to check that it recovers a known truth before it is trusted with filmed shots.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from .._validation import check_array, check_real, check_type
from ..engine import Scene, Shot, ShotResult, simulate
from ..equipment import Board
from ..physics.friction import get_law
from ..physics.params import PhysicsParams
from ._kinematics import free_slide
from .camera import BoardCalibration
from .segments import breaks_from_events
from .tracks import Tracks, write_tracks

__all__ = ["SyntheticTracks", "make_synthetic_tracks", "true_angles", "CAMERA_DEFAULTS", "EXAMPLE_PARAMS", "EXAMPLE_ANGLE_NOISE",
           "random_cut_shot"]

#: The documented camera-noise model (see the module docstring).
CAMERA_DEFAULTS: dict[str, Any] = {
    "fps": 120.0,
    "px_per_m": 1000.0,
    "origin_px": (960.0, 540.0),
    "pixel_noise": 0.5,
    "dropout": 0.05,
    "outlier_rate": 0.01,
    "outlier_px": (10.0, 40.0),
}

#: Parameters of each built-in friction law whose effects a camera at the documented noise
#: level can see: the truths of the fitting tests and of ``benchmarks/fit_coverage.py``. The
#: Stribeck law has ``stribeck_speed`` = 0.3 m/s, not the 0.05 m/s default, whose effect (the
#: last millimetre of a slide) no camera at that noise level can see.
EXAMPLE_PARAMS: dict[str, PhysicsParams] = {
    "coulomb": PhysicsParams(friction_law="coulomb", mu=0.12),
    "linear": PhysicsParams(friction_law="linear", mu=0.10, mu_v=0.03),
    "stribeck": PhysicsParams(friction_law="stribeck", mu=0.10, mu_static=0.16, stribeck_speed=0.3),
    "slide_spin": PhysicsParams(friction_law="slide_spin", mu=0.12),
}
#: Orientation noise of tracked angles in the fitting tests, rad: a mark 15 px from the disc
#: centre located to 0.75 px (``make_synthetic_tracks(angle_noise=)``).
EXAMPLE_ANGLE_NOISE = 0.05


def random_cut_shot(seed: int | np.random.Generator | None = None) -> tuple[Scene, Shot]:
    """A random cut shot on the ICF board: the striker from the south baseline into a coin
    in the middle of the board, which then bounces off cushions (both discs slide to rest).

    The coin is placed at x uniform in [-0.15, 0.15] m, y in [-0.05, 0.15] m; the striker at
    x uniform in [-0.15, 0.15] m, y = -0.25 m, aimed at the coin's centre within +-0.03 rad,
    at a speed uniform in [2, 3.5] m/s with a spin uniform in [-60, 60] rad/s.

    Parameters
    ----------
    seed : int or numpy.random.Generator, optional
        Seed of the draws; a Generator is drawn from (six draws, in the order above), so
        that it can go on to film the shot (``make_synthetic_tracks(..., seed=rng)``).

    Returns
    -------
    scene : Scene
        The ICF board with the coin.
    shot : Shot
        The striker's shot.

    Examples
    --------
    >>> rng = np.random.default_rng(3)
    >>> scene, shot = random_cut_shot(rng)
    >>> syn = make_synthetic_tracks(scene, shot, EXAMPLE_PARAMS["linear"], seed=rng)
    >>> syn.tracks().discs
    [0, 1]
    """
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    cx, cy = rng.uniform(-0.15, 0.15), rng.uniform(-0.05, 0.15)
    sx, sy = rng.uniform(-0.15, 0.15), -0.25
    angle = math.atan2(cy - sy, cx - sx) + rng.uniform(-0.03, 0.03)
    scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [cx], "y": [cy]}))
    return scene, Shot(sx, sy, angle, rng.uniform(2.0, 3.5), rng.uniform(-60.0, 60.0))


@dataclass(frozen=True, eq=False)
class SyntheticTracks:
    """A simulated shot and what the model camera saw of it.

    Attributes
    ----------
    pixels : pandas.DataFrame
        Detections: ``disc``, ``frame``, ``t`` (s), ``x``, ``y`` (px, image coordinates:
        x right, y down), and ``angle`` (rad, image sense) if orientations were made.
    truth : pandas.DataFrame
        Exact state at every frame time before the camera: ``disc``, ``frame``, ``t`` (s,
        the frame's reported time), ``t_taken`` (s, when it was taken: ``t`` plus the
        timing jitter), ``x``, ``y`` (m), ``vx``, ``vy`` (m/s), ``omega`` (rad/s), ``angle`` (rad, board
        sense; NaN without orientations), ``status``, and what the camera did:
        ``outlier`` (the detection was displaced) and ``dropped`` (no detection; also True
        once the disc has left the board).
    calibration : BoardCalibration
        The camera's pixel-to-board map.
    result : ShotResult
        The simulated shot (events, segments, parameters).
    settings : dict
        The camera-noise settings used, and the seed.
    """

    pixels: pd.DataFrame
    truth: pd.DataFrame
    calibration: BoardCalibration
    result: ShotResult
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def radius(self) -> dict[int, float]:
        """Disc radii by disc id, m."""
        return {i: float(r) for i, r in enumerate(self.result.scene.arrays["radius"])}

    def tracks(self) -> Tracks:
        """The detections as :class:`Tracks` in board metres.

        Examples
        --------
        >>> from carromlab import Board, Scene, Shot
        >>> scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": [], "x": [], "y": []}))
        >>> syn = make_synthetic_tracks(scene, Shot.from_deg(0.0, -0.2, angle_deg=80.0, speed=2.0), seed=1)
        >>> syn.tracks().discs
        [0]
        """
        return Tracks.from_frame(
            self.pixels, calibration=self.calibration, fps=self.settings["fps"], radius=self.radius,
            board=self.result.scene.board, source="synthetic",
        )  # fmt: skip

    def breaks(self) -> pd.DataFrame:
        """The true impacts, for :func:`~carromlab.fitting.segment_tracks` (``breaks=``)."""
        return breaks_from_events(self.result.events)

    def write(self, path: str | Path, *, layout: str = "carromlab", notes: str = "") -> tuple[Path, Path]:
        """Write the detections as a CSV track file with a JSON sidecar.

        Parameters
        ----------
        path : str or Path
            CSV file name; the sidecar gets the ``.json`` suffix.
        layout : {"carromlab", "trackpy"}
            Columns ``disc, frame, t, x, y[, angle]`` or trackpy's ``frame, particle, x, y``.
        notes : str
            Free text stored in the sidecar.

        Returns
        -------
        csv_path, sidecar_path : Path
        """
        if layout not in ("carromlab", "trackpy"):
            raise ValueError(f"The 'layout' parameter must be one of ['carromlab', 'trackpy']. Got {layout!r} instead.")
        df = self.pixels.copy()
        df[["x", "y"]] = df[["x", "y"]].round(3)
        df["t"] = df["t"].round(7)
        if "angle" in df:
            df["angle"] = df["angle"].round(4)
        if layout == "trackpy":
            df = df.rename(columns={"disc": "particle"})[["frame", "particle", "x", "y"]]
        res = self.result
        extra = {
            "synthetic": True,
            "notes": notes,
            "generator": {
                "function": "carromlab.fitting.make_synthetic_tracks",
                "camera": {k: list(v) if isinstance(v, tuple) else v for k, v in self.settings.items()},
                "shot": {"x": res.shot.x, "y": res.shot.y, "angle": res.shot.angle, "speed": res.shot.speed, "spin": res.shot.spin},
                "pieces": res.scene.pieces[["kind", "x", "y"]].to_dict("records"),
                "params": {k: v for k, v in res.params.to_dict().items() if k != "capture_speed_max"},
            },
            "kinds": {str(i): k for i, k in enumerate(res.scene.kinds)},
        }
        return write_tracks(
            df, path, units="px", calibration=self.calibration, fps=self.settings["fps"], radius=self.radius,
            board=res.scene.board, extra=extra,
        )  # fmt: skip


def true_angles(
    result: ShotResult, disc: npt.ArrayLike, t: npt.ArrayLike, seed: int | np.random.Generator | None = None
) -> np.ndarray:
    """The true orientation of discs of a simulated shot at given times (step 6 of the camera
    model, before its noise): a uniformly random start per disc plus the integral of the
    disc's spin over its engine segments.

    For a camera model of one's own: :func:`make_synthetic_tracks` fills the ``angle``
    column of its ``truth`` with it (at the times the frames were taken), and
    ``benchmarks/fit_coverage.py`` films its shots with it.

    Parameters
    ----------
    result : ShotResult
        The simulated shot.
    disc : array_like of int
        Disc of each row, an id of ``result.scene`` (0 to the number of discs - 1).
    t : array_like
        Time of each row, s, >= 0 (in any order).
    seed : int or numpy.random.Generator, optional
        Seed of the start orientations: one draw per disc of the scene, uniform in
        [-pi, pi) rad, whichever discs the rows name.

    Returns
    -------
    numpy.ndarray
        Orientation of each row, rad, in the board's sense of rotation (counter-clockwise
        seen from above; a camera whose v axis points down sees the opposite,
        ``BoardCalibration.angle_sign``); not wrapped: a spinning disc's angle keeps growing.

    Examples
    --------
    >>> from carromlab import Board, Scene, Shot, simulate
    >>> scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": [], "x": [], "y": []}))
    >>> res = simulate(scene, Shot(0.0, -0.2, angle=1.4, speed=2.0, spin=30.0))
    >>> a = true_angles(res, [0, 0], [0.0, 0.1], seed=1)
    >>> round(float(a[1] - a[0]), 2)  # turned in 0.1 s, a little under 30 rad/s x 0.1 s
    2.96
    """
    check_type("result", result, ShotResult)
    radius = result.scene.arrays["radius"]
    ids = check_array("disc", disc, shape=(None,), low=0.0, high=len(radius) - 1.0)
    if np.any(ids % 1):
        raise ValueError(f"The 'disc' parameter must hold disc ids, whole numbers. Got {float(ids[np.argmax(ids % 1 > 0)])!r} instead.")
    times = check_array("t", t, shape=ids.shape, low=0.0, unit="s")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    law = get_law(result.params.friction_law)
    out = np.full(len(times), np.nan)
    start = rng.uniform(-math.pi, math.pi, size=len(radius))
    for d, segs in result.segments.groupby("disc", sort=True):
        rows = np.flatnonzero(ids == d)
        t_d = times[rows]
        angle = start[d]
        ends = np.append(segs["t0"].to_numpy()[1:], np.inf)
        for seg, t_end in zip(segs.itertuples(index=False), ends):
            sel = (t_d >= seg.t0) & (t_d < t_end)
            # the frames of this segment, then its end (where the next one starts)
            span = np.concatenate([t_d[sel], [t_end] if np.isfinite(t_end) else []]) - seg.t0
            turned = free_slide(law, result.params, radius[d], math.hypot(seg.vx, seg.vy), seg.omega0, span, with_angle=True)[3]
            out[rows[sel]] = angle + turned[: np.count_nonzero(sel)]
            if np.isfinite(t_end):
                angle += turned[-1]
    return out


def make_synthetic_tracks(
    scene: Scene,
    shot: Shot,
    params: PhysicsParams | None = None,
    *,
    fps: float = CAMERA_DEFAULTS["fps"],
    pixel_noise: float = CAMERA_DEFAULTS["pixel_noise"],
    px_per_m: float | None = None,
    camera: BoardCalibration | None = None,
    dropout: float = CAMERA_DEFAULTS["dropout"],
    outlier_rate: float = CAMERA_DEFAULTS["outlier_rate"],
    outlier_px: Sequence[float] = CAMERA_DEFAULTS["outlier_px"],
    angle_noise: float | None = None,
    timing_jitter: float = 0.0,
    duration: float | None = None,
    seed: int | np.random.Generator | None = None,
) -> SyntheticTracks:
    """Simulate a shot and film it with the documented camera-noise model.

    Parameters
    ----------
    scene : Scene
        Board and pieces.
    shot : Shot
        How the striker is played.
    params : PhysicsParams, optional
        Physics of the shot (the "truth" a fit should recover). Default ``PhysicsParams()``.
    fps : float
        Frame rate, frames/s, in (0, 10000]. Default 120.
    pixel_noise : float
        Standard deviation of the position noise, px, >= 0. Default 0.5.
    px_per_m : float, optional
        Scale of the default overhead camera, px/m, > 0. Default 1000. Not with ``camera``.
    camera : BoardCalibration, optional
        Any camera (e.g. :meth:`BoardCalibration.from_corners` with perspective); pixels are
        ``camera.to_pixels(x, y)``.
    dropout : float
        Probability that a detection is missing, in [0, 1). Default 0.05.
    outlier_rate : float
        Probability that a detection is an outlier, in [0, 1). Default 0.01.
    outlier_px : (float, float)
        Range of outlier displacements, px. Default (10, 40).
    angle_noise : float, optional
        Standard deviation of the orientation noise, rad, >= 0; when given the detections
        carry an ``angle`` column. Default None (no orientations).
    timing_jitter : float
        Standard deviation of the error of every frame's time, s, >= 0 (truncated at 0.45
        frame periods): the frames are taken at the jittered times and reported at
        multiples of 1 / fps. Default 0 (exact times). See ``fit_friction(timing_jitter=)``.
    duration : float, optional
        Length of the film, s, > 0. Default: the shot's duration (its last event) plus 0.25 s.
    seed : int or numpy.random.Generator, optional
        Seed of the camera noise (and of the initial orientations).

    Returns
    -------
    SyntheticTracks

    Examples
    --------
    >>> from carromlab import Board, Scene, Shot
    >>> scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": [], "x": [], "y": []}))
    >>> syn = make_synthetic_tracks(scene, Shot.from_deg(0.0, -0.2, angle_deg=80.0, speed=2.0), seed=1)
    >>> syn.settings["fps"], len(syn.pixels) < len(syn.truth)
    (120.0, True)
    """
    fps = check_real("fps", fps, low=0.0, high=1e4, low_open=True, unit="1/s")
    pixel_noise = check_real("pixel_noise", pixel_noise, low=0.0, unit="px")
    dropout = check_real("dropout", dropout, low=0.0, high=1.0, high_open=True)
    outlier_rate = check_real("outlier_rate", outlier_rate, low=0.0, high=1.0, high_open=True)
    lo_px, hi_px = (check_real("outlier_px", v, low=0.0, unit="px") for v in outlier_px)
    if camera is not None and px_per_m is not None:
        raise ValueError(f"The 'px_per_m' parameter must be None when a camera is given. Got {px_per_m!r} instead.")
    if camera is None:
        scale = CAMERA_DEFAULTS["px_per_m"] if px_per_m is None else px_per_m
        camera = BoardCalibration.from_scale(scale, origin_px=CAMERA_DEFAULTS["origin_px"])
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    params = params or PhysicsParams()
    result = simulate(scene, shot, params)
    length = result.duration + 0.25 if duration is None else check_real("duration", duration, low=0.0, low_open=True, unit="s")
    jitter = check_real("timing_jitter", timing_jitter, low=0.0, high=1.0, unit="s")
    frames = np.arange(int(math.floor(length * fps)) + 1)
    taken = frames / fps
    if jitter > 0.0:  # drawn only then, so that a seed films the same without jitter
        taken = np.maximum(taken + np.clip(rng.normal(0.0, jitter, len(frames)), -0.45 / fps, 0.45 / fps), 0.0)
    pos = result.positions_at(taken)  # sorted by time: frame order, the times being increasing
    pos["frame"] = np.searchsorted(taken, pos["t"].to_numpy())
    pos["t_taken"], pos["t"] = pos["t"], pos["frame"] / fps
    cols = ["disc", "frame", "t", "t_taken", "x", "y", "vx", "vy", "omega", "status"]
    truth = pos.rename(columns={"id": "disc"})[cols]
    truth = truth.sort_values(["disc", "frame"], ignore_index=True)
    truth["angle"] = true_angles(result, truth["disc"], truth["t_taken"], rng) if angle_noise is not None else np.nan

    seen = truth[truth["status"] == "board"].reset_index(drop=True)
    u, v = camera.to_pixels(seen["x"].to_numpy(), seen["y"].to_numpy())
    n = len(seen)
    u = u + rng.normal(0.0, pixel_noise, n)
    v = v + rng.normal(0.0, pixel_noise, n)
    bad = rng.random(n) < outlier_rate
    jump = rng.uniform(lo_px, hi_px, n)
    heading = rng.uniform(0.0, 2.0 * math.pi, n)
    u = np.where(bad, u + jump * np.cos(heading), u)
    v = np.where(bad, v + jump * np.sin(heading), v)
    pixels = pd.DataFrame({"disc": seen["disc"], "frame": seen["frame"], "t": seen["t"], "x": u, "y": v})
    if angle_noise is not None:
        noise = check_real("angle_noise", angle_noise, low=0.0, unit="rad")
        a = camera.angle_sign * (seen["angle"].to_numpy() + rng.normal(0.0, noise, n))
        pixels["angle"] = (a + math.pi) % (2 * math.pi) - math.pi
    kept = rng.random(n) >= dropout
    pixels = pixels[kept].reset_index(drop=True)
    truth["outlier"] = False
    truth["dropped"] = truth["status"] != "board"
    on_board = np.flatnonzero(truth["status"].to_numpy() == "board")
    truth.loc[on_board, "outlier"] = bad & kept
    truth.loc[on_board, "dropped"] = ~kept
    settings = {
        "fps": fps, "px_per_m": camera.px_per_m, "pixel_noise": pixel_noise, "dropout": dropout,
        "outlier_rate": outlier_rate, "outlier_px": (lo_px, hi_px), "angle_noise": angle_noise,
        "timing_jitter": jitter, "duration": length, "seed": seed if isinstance(seed, int) else None,
    }  # fmt: skip
    return SyntheticTracks(pixels, truth, camera, result, settings)
