"""Run one shot through the event-driven engine and read its result."""

from __future__ import annotations

import math
import warnings
import weakref
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from .._check_build import check_build
from .._validation import check_array, check_bool, check_type
from ..physics.friction import get_law
from ..physics.params import PhysicsParams, check_params
from .scene import Scene, Shot

check_build()
from . import _core  # noqa: E402  (after the build check, which explains a missing build)

__all__ = ["simulate", "ShotResult", "EVENT_KINDS", "STATUS", "STATUS_TEXT", "CUSHIONS", "engine_setup"]

#: Event kind codes of the compiled engine.
EVENT_KINDS = {1: "stop", 2: "cushion", 3: "pocket", 4: "peg", 5: "ditch", 6: "disc", 7: "pass"}
#: Disc status codes of the compiled engine.
STATUS = {0: "board", 1: "pocketed", 2: "ditch"}
#: Where a disc of each status ended, in words ("shot disc on the board").
STATUS_TEXT = {"board": "on the board", "pocketed": "pocketed", "ditch": "in the ditch"}
#: Cushion index of the compiled engine (the direction of the cushion's outward normal).
CUSHIONS = ("east", "west", "north", "south")


def engine_setup(scene: Scene, params: PhysicsParams) -> _core._Setup:
    """Board, disc and parameter arrays of ``scene`` packed for the compiled engine."""
    b = scene.board
    holes = np.array(
        [(h.x, h.y, h.radius, math.inf if h.capture_speed_max is None else h.capture_speed_max) for h in b.holes],
        dtype=float,
    ).reshape(-1, 4)
    pegs = np.array([(p.x, p.y, p.radius) for p in b.pegs], dtype=float).reshape(-1, 3)
    radius = scene.arrays["radius"]
    law = get_law(params.friction_law)
    decel, spin_decel = law.decelerations(params, radius)
    packed = (
        params.e_disc, params.mu_contact, params.beta0_disc,
        params.e_cushion, params.mu_cushion, params.beta0_cushion,
        params.e_peg, params.mu_peg, params.beta0_peg,
        params.plastic_speed, params.contact_duration, params.capture_speed_max,
        params.max_events,
    )  # fmt: skip
    fixed, reach, _, _, lim = scene._obstacles
    return _core._Setup(
        b.shape == "round", b.half_size, holes, pegs, packed, law.engine(params),
        radius, scene.arrays["mass"], decel, spin_decel, fixed, reach, lim,
    )  # fmt: skip


#: Engine setups of the last parameter sets simulated on each live scene (``simulate``
#: plays many shots on one scene; a setup is read-only once built).
_SETUPS: weakref.WeakKeyDictionary[Scene, dict[PhysicsParams, _core._Setup]] = weakref.WeakKeyDictionary()
_SETUPS_PER_SCENE = 8


def cached_setup(scene: Scene, params: PhysicsParams) -> _core._Setup:
    """``engine_setup(scene, params)``, built once per scene and parameter set (for
    :func:`simulate` and the batches).

    Parameters
    ----------
    scene : Scene
        The discs and the board.
    params : PhysicsParams
        The physics.

    Returns
    -------
    _core._Setup
        Read-only once built.
    """
    kept = _SETUPS.setdefault(scene, {})
    setup = kept.get(params)
    if setup is None:
        if len(kept) >= _SETUPS_PER_SCENE:
            del kept[next(iter(kept))]
        setup = kept[params] = engine_setup(scene, params)
    return setup


class _Pocketed(pd.DataFrame):
    """The pocketed table; printed as "nothing pocketed" when no piece fell (derived
    tables are plain DataFrames)."""

    @property
    def _constructor(self) -> type[pd.DataFrame]:
        return pd.DataFrame

    def __repr__(self) -> str:
        return f"nothing pocketed (columns: {', '.join(self.columns)})" if self.empty else super().__repr__()

    def _repr_html_(self) -> str | None:
        return f"<p>{self!r}</p>" if self.empty else super()._repr_html_()


@dataclass(frozen=True, eq=False)
class ShotResult:
    """Everything that happened in one shot.

    Disc ids are the scene's piece ids (0 .. n-1); the shot disc (striker) has id n.

    Attributes
    ----------
    scene, shot, params
        The inputs.
    duration : float
        Time of the last event, s: every disc has stopped sliding then. A disc may still
        spin in place (a shot with spin and no speed; a disc whose spin outlasts its
        slide under the ``coulomb``, ``linear`` and ``stribeck`` laws): its spin decays on
        its own and moves nothing, so no event follows.
    n_events : int
        Number of events processed (the pocket rows that log a fall at rest, see
        :attr:`events`, are part of the event before them and not counted).
    truncated : bool
        True if the event budget ``params.max_events`` ran out before everything stopped.
    """

    scene: Scene
    shot: Shot
    params: PhysicsParams
    duration: float
    n_events: int
    truncated: bool
    _raw: dict

    def _fell(self) -> str:
        p = self.pocketed
        return ", ".join(f"{k} {i} in {h}" for i, k, h in zip(p["id"], p["kind"], p["pocket"])) or "nothing"

    def _summary(self) -> dict[str, str]:
        shot, fc = self.shot, self.first_contact
        return {
            "shot": f"from ({shot.x:.4g}, {shot.y:.4g}) m at {shot.angle_deg:.2f} deg, {shot.speed:.3g} m/s, "
            f"spin {shot.spin:.3g} rad/s",
            "fell": self._fell(),
            "first contact": "none" if fc is None else f"{self.scene.kinds[fc]} {fc}",
            "shot disc": STATUS_TEXT[self.striker_fate],
            "events": f"{self.n_events} event{'s' * (self.n_events != 1)} in {self.duration:.3g} s"
            f"{' (truncated)' if self.truncated else ''}",
        }

    def __repr__(self) -> str:
        s = self._summary()
        return (
            f"ShotResult({self.scene.board.name}: {s['shot']}; fell: {s['fell']}; first contact: "
            f"{s['first contact']}; shot disc {s['shot disc']}; {s['events']})"
        )

    def _repr_html_(self) -> str:
        from ..plotting.display import figure_png, rich_html, scene_picture
        from ..plotting.shot import plot_shot

        def draw(ax: Any) -> None:
            plot_shot(self, ax, legend=False)
            ax.set_axis_off()
            ax.set_title("")

        picture = figure_png(draw) if "seg_f" in self._raw else scene_picture(self.scene)
        return rich_html(f"ShotResult on {self.scene!r}", self._summary(), picture=picture)

    def _logged(self, key: str) -> np.ndarray:
        if key not in self._raw:
            raise RuntimeError("This shot was simulated with record=False: rerun it with record=True for the event log.")
        return self._raw[key]

    @property
    def striker_id(self) -> int:
        """Id of the shot disc."""
        return self.scene.n_pieces

    @cached_property
    def events(self) -> pd.DataFrame:
        """One row per event, in order.

        Columns: ``t`` (s), ``kind`` (``stop``: the disc comes to rest; ``cushion``,
        ``peg``, ``disc``: an impact; ``pocket``: it falls into a pocket or hole; ``ditch``:
        it leaves a round board's playing surface; ``pass``: it crosses a hole's capture
        circle faster than the hole's ``capture_speed_max`` and slides on over it),
        ``disc`` and ``other`` (ids; ``other`` is -1 unless a disc-disc impact),
        ``disc_kind`` (the piece kind of ``disc``), ``where``
        (cushion name, pocket or hole name, or peg index; empty otherwise; read it as
        ``df["where"]``, since ``df.where`` is the DataFrame method), ``vn`` (normal impact
        speed, or the speed when falling, m/s), and the state just after the event of
        ``disc`` (``x``, ``y`` m, ``vx``, ``vy`` m/s, ``omega`` rad/s) and of ``other``
        (``other_x`` ... ``other_omega``; NaN when there is no other disc).

        A disc that comes to rest inside a capture circle falls (its stop, an impact or a
        merge brought it to rest there): a ``pocket`` row with ``vn`` 0 follows the row
        of that event, at the same time.
        """
        f, i = self._logged("ev_f"), self._logged("ev_i")
        names = [h.name for h in self.scene.board.holes]
        where = []
        for kind, detail in zip(i[:, 0], i[:, 3]):
            if kind == 2:
                where.append(CUSHIONS[detail])
            elif kind in (3, 7):
                where.append(names[detail])
            elif kind == 4:
                where.append(str(detail))
            else:
                where.append("")
        other = f[:, 7:12].copy()
        other[i[:, 2] < 0] = np.nan
        kinds = self.scene.kinds
        return pd.DataFrame(
            {
                "t": f[:, 0],
                "kind": pd.Categorical([EVENT_KINDS[k] for k in i[:, 0]], categories=list(EVENT_KINDS.values())),
                "disc": i[:, 1],
                "disc_kind": [kinds[d] for d in i[:, 1]],
                "other": i[:, 2],
                "where": where,
                "vn": f[:, 1],
                "x": f[:, 2], "y": f[:, 3], "vx": f[:, 4], "vy": f[:, 5], "omega": f[:, 6],
                "other_x": other[:, 0], "other_y": other[:, 1], "other_vx": other[:, 2],
                "other_vy": other[:, 3], "other_omega": other[:, 4],
            }  # fmt: skip
        )

    @cached_property
    def final(self) -> pd.DataFrame:
        """Final state, at ``duration``, one row per disc: ``id``, ``kind``, ``x``,
        ``y`` (m; where it fell for a captured disc), ``vx``, ``vy`` (m/s), ``omega``
        (rad/s: the spin at that time, which a disc spinning in place keeps losing
        afterwards, see ``duration`` and :meth:`positions_at`), ``status`` (board,
        pocketed, ditch), ``pocket`` (name or ""), ``t_out`` (s, NaN if on the board)."""
        r = self._raw
        names = [h.name for h in self.scene.board.holes]
        n = len(r["x"])
        t_out = np.where(np.isfinite(r["t_capture"]), r["t_capture"], np.nan)
        return pd.DataFrame(
            {
                "id": np.arange(n),
                "kind": self.scene.kinds,
                "x": r["x"], "y": r["y"], "vx": r["vx"], "vy": r["vy"], "omega": r["omega"],
                "status": [STATUS[s] for s in r["status"]],
                "pocket": [names[h] if h >= 0 else "" for h in r["hole"]],
                "t_out": t_out,
            }  # fmt: skip
        )

    @property
    def pocketed(self) -> pd.DataFrame:
        """Pieces that fell in a pocket or hole, in the order they fell: ``order``, ``id``,
        ``kind``, ``pocket``, ``t`` (s). The striker is included if it fell."""
        f = self.final[self.final["status"] == "pocketed"].sort_values(["t_out", "id"], kind="stable")
        return _Pocketed(
            {
                "order": np.arange(len(f)),
                "id": f["id"].to_numpy(),
                "kind": f["kind"].to_numpy(),
                "pocket": f["pocket"].to_numpy(),
                "t": f["t_out"].to_numpy(),
            }
        )

    @property
    def first_contact(self) -> int | None:
        """Id of the first piece the striker touched, or None."""
        fc = int(self._raw["first_contact"])
        return None if fc < 0 else fc

    @property
    def striker_fate(self) -> str:
        """``"board"``, ``"pocketed"`` or ``"ditch"``."""
        return STATUS[int(self._raw["status"][self.striker_id])]

    @property
    def off_board(self) -> list[int]:
        """Ids of discs that left the playing surface into the ditch (round boards)."""
        return [int(i) for i in np.flatnonzero(self._raw["status"] == 2)]

    @property
    def touched_by_striker(self) -> list[int]:
        """Ids of pieces the striker hit directly, in order of first contact."""
        ev = self.events
        sid = self.striker_id
        hits = ev[(ev["kind"] == "disc") & ((ev["disc"] == sid) | (ev["other"] == sid))]
        ids = np.where(hits["disc"] == sid, hits["other"], hits["disc"])
        return list(dict.fromkeys(int(i) for i in ids))

    @cached_property
    def segments(self) -> pd.DataFrame:
        """Piecewise motion: each row starts a segment of one disc: ``disc``, ``t0`` (s),
        ``x0``, ``y0`` (m), ``vx``, ``vy`` (m/s), ``omega0`` (rad/s), ``status``."""
        f, i = self._logged("seg_f"), self._logged("seg_i")
        return pd.DataFrame(
            {
                "disc": i[:, 0], "t0": f[:, 0], "x0": f[:, 1], "y0": f[:, 2],
                "vx": f[:, 3], "vy": f[:, 4], "omega0": f[:, 5],
                "status": [STATUS[s] for s in i[:, 1]],
            }  # fmt: skip
        ).sort_values(["disc", "t0"], kind="stable", ignore_index=True)

    def positions_at(self, times: np.ndarray | float) -> pd.DataFrame:
        """Positions of every disc at the requested times (exact, from the segments).

        Parameters
        ----------
        times : array_like
            Times in s, each >= 0.

        Returns
        -------
        pandas.DataFrame
            Long format: ``t`` (s), ``id``, ``kind``, ``x``, ``y`` (m), ``vx``, ``vy``
            (m/s), ``omega`` (rad/s), ``status`` (a captured disc stays where it fell).
            At an event time the state just after the event is given.
        """
        t = check_array("times", np.atleast_1d(times), shape=(None,), low=0.0, unit="s")
        law = get_law(self.params.friction_law)
        radius = self.scene.arrays["radius"]
        kinds = self.scene.kinds
        frames = []
        for d, g in self.segments.groupby("disc", sort=True):
            k = np.clip(np.searchsorted(g["t0"].to_numpy(), t, side="right") - 1, 0, len(g) - 1)
            x, y = np.empty_like(t), np.empty_like(t)
            vx, vy, w = np.empty_like(t), np.empty_like(t), np.empty_like(t)
            for seg_index in np.unique(k):
                row = g.iloc[seg_index]
                sel = k == seg_index
                v0 = math.hypot(row.vx, row.vy)
                dist, speed, spin, _ = law.kinematics(
                    self.params, radius[d], v0, row.omega0, np.maximum(t[sel] - row.t0, 0.0)
                )
                ux, uy = (row.vx / v0, row.vy / v0) if v0 > 0 else (0.0, 0.0)
                x[sel], y[sel] = row.x0 + ux * dist, row.y0 + uy * dist
                vx[sel], vy[sel], w[sel] = ux * speed, uy * speed, spin
            frames.append(
                pd.DataFrame(
                    {
                        "t": t, "id": d, "kind": kinds[d], "x": x, "y": y, "vx": vx, "vy": vy,
                        "omega": w, "status": g["status"].to_numpy()[k],
                    }  # fmt: skip
                )
            )
        return pd.concat(frames, ignore_index=True).sort_values(["t", "id"], ignore_index=True)


def simulate(scene: Scene, shot: Shot, params: PhysicsParams | None = None, *, record: bool = True) -> ShotResult:
    """Simulate one shot exactly with the event-driven engine.

    Parameters
    ----------
    scene : Scene
        Board, pieces and shot disc.
    shot : Shot
        Striker placement (m), direction (rad), speed (m/s) and spin (rad/s).
    params : PhysicsParams, optional
        Physics parameters; default ``PhysicsParams()`` (club powder).
    record : bool
        Keep the event log and segments (needed for ``events``, ``segments``,
        ``positions_at``). Default True.

    Returns
    -------
    ShotResult

    Raises
    ------
    ValueError
        If the striker is placed off the board, overlapping a piece or a peg, or in a
        hole's capture circle.
    TypeError
        If ``scene``, ``shot`` or ``params`` is not a Scene, Shot or PhysicsParams.

    Examples
    --------
    >>> from carromlab import Scene, Shot, simulate
    >>> res = simulate(Scene.icf_break(), Shot.from_deg(0.0, -0.2526, angle_deg=90, speed=6.0))
    >>> res.events["kind"].iloc[0]
    'disc'
    """
    check_type("scene", scene, Scene, hint="e.g. Scene.icf_break()")
    check_type("shot", shot, Shot, hint="e.g. Shot(0.0, -0.2526, angle=math.pi / 2, speed=6.0)")
    params = check_params(params)
    record = check_bool("record", record)
    raw = _core.simulate_one(cached_setup(scene, params), scene.arrays["xy"], shot.x, shot.y, shot.angle, shot.speed,
                             shot.spin, record)  # fmt: skip
    if isinstance(raw, tuple):  # the placement is not allowed (the engine checked it first)
        raise scene._placement_error(shot.x, shot.y, *raw)
    if raw["truncated"]:
        warnings.warn(
            f"The shot used its event budget (max_events={params.max_events}) before every disc "
            "stopped; the result is truncated.",
            RuntimeWarning,
            stacklevel=2,
        )
    return ShotResult(
        scene=scene,
        shot=shot,
        params=params,
        duration=float(raw["t_end"]),
        n_events=int(raw["n_events"]),
        truncated=bool(raw["truncated"]),
        _raw=raw,
    )
