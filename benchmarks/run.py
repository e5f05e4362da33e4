"""Side-by-side speed benchmark: carromlab (event-driven) against pymunk (fixed step).

Both engines run in this one process on the same board, discs, friction and restitution:

* board: ``carromlab.Board.icf()`` (0.74 m square, four corner pockets); pymunk gets four
  zero-radius cushion segments on the edges and the same pockets (a body whose centre comes
  within ``sqrt(Rh**2 - r**2)`` of a pocket centre is removed after the step);
* discs: coin radius 0.0151 m, mass 0.0055 kg; striker radius 0.0206 m, mass 0.015 kg;
* Coulomb sliding friction mu = 0.2, g = 9.81 (pymunk: a per-body velocity callback);
* restitution 0.9 disc-disc and 0.8 disc-cushion, no contact friction in either engine.

The pymunk setup follows ``/work/shared/peers/pymunk_break.py`` (0.5 ms step, 10 iterations,
stop when every speed < 1e-4 m/s or t > 20 s). See ``benchmarks/README.md``.

Usage::

    python benchmarks/run.py --quick --json /tmp/bench.json     # a few minutes
    python benchmarks/run.py --json bench.json                  # full run
    python benchmarks/run.py --pooltool-python VENV/bin/python  # pooltool in its own venv

The varied-break cases time many different ICF breaks (seeded placements on the striker
line, directions within +-10 deg of the pack, 4-9 m/s) in CPU time: carromlab's
``simulate`` and ``simulate_batch``, pymunk with the friction callback and pymunk's C
stepping alone on the same breaks, pooltool-billiards 0.6 on its own 9-ball break (in a
subprocess, ``pooltool_break.py``), every friction law and a low restitution.

The analysis cases (carromlab only) time the analyses of :mod:`carromlab.analysis` with
the default physics: a success map, break studies and foul probabilities.

Cases live in :data:`CASES` (name -> function(ctx) -> dict) and targets in
:data:`TARGETS`; add a case by writing a function and registering it there.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

try:  # an installed carromlab, or one on PYTHONPATH
    import carromlab
except ImportError:  # else the source checkout this file lives in (built in place)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import carromlab
from carromlab import Board, DiscSpec, PhysicsParams, Scene, Shot, simulate, simulate_batch  # noqa: E402

try:
    import pymunk
except ImportError:  # the carromlab half still runs
    pymunk = None

# ----------------------------------------------------------------------------------------
# Shared setup (the peer's numbers: /work/shared/peers/pymunk_break.py)
# ----------------------------------------------------------------------------------------
RC, MC = 0.0151, 0.0055  # coin radius (m), mass (kg)
RS, MS = 0.0206, 0.015  # striker radius (m), mass (kg)
MU, G = 0.2, 9.81  # Coulomb sliding friction, gravity (m/s^2)
E_DISC, E_CUSHION = 0.9, 0.8  # restitution disc-disc, disc-cushion
DT, ITERATIONS = 1 / 2000.0, 10  # pymunk step (s) and solver iterations
STOP_SPEED, T_MAX = 1e-4, 20.0  # pymunk stop rule (m/s, s)
BREAK_SPEED = 6.0  # striker speed of the break (m/s)
CUT_COIN = (0.12, 0.15)  # coin of the cut shot (m)
CUT_POCKET = "ne"
CUT_COIN_SPEED = 3.0  # coin speed just after the hit (m/s)
CUT_JITTER_DEG = 0.5  # batch: angle uniform in aim +- this (deg)


def break_positions() -> list[tuple[float, float]]:
    """The peer's 19-coin touching hexagonal pack (gap 1e-5 m between ring neighbours)."""
    d = 2 * RC + 1e-5
    pts = [(0.0, 0.0)]
    for k in range(6):
        a = k * math.pi / 3
        pts.append((d * math.cos(a), d * math.sin(a)))
    for k in range(12):
        a = k * math.pi / 6
        rr = 2 * d if k % 2 == 0 else d * math.sqrt(3)
        pts.append((rr * math.cos(a), rr * math.sin(a)))
    return pts


def carrom_params() -> PhysicsParams:
    """carromlab parameters matching the pymunk setup (the rest are engine defaults)."""
    return PhysicsParams(mu=MU, g=G, e_disc=E_DISC, e_cushion=E_CUSHION, mu_contact=0.0, mu_cushion=0.0)


def make_scene(board: Board, coins: list[tuple[float, float]]) -> Scene:
    specs = {"coin": DiscSpec("coin", RC, MC, 0.008), "striker": DiscSpec("striker", RS, MS, 0.007)}
    frame = pd.DataFrame({"kind": ["coin"] * len(coins), "x": [p[0] for p in coins], "y": [p[1] for p in coins]})
    return Scene(board, frame, specs, striker="striker")


def cut_aim(board: Board, coin: tuple[float, float], striker: tuple[float, float]) -> dict[str, float]:
    """Ghost-disc aim that sends ``coin`` to the centre of pocket CUT_POCKET at CUT_COIN_SPEED.

    With no contact friction the coin leaves along the line of centres at
    (1 + e) m_s / (m_s + m_c) times the striker's normal speed; the striker slows at mu*g
    on its way to the contact point.
    """
    hole = next(h for h in board.holes if h.name == CUT_POCKET)
    ux, uy = hole.x - coin[0], hole.y - coin[1]
    n = math.hypot(ux, uy)
    ux, uy = ux / n, uy / n
    gx, gy = coin[0] - (RC + RS) * ux, coin[1] - (RC + RS) * uy  # striker centre at contact
    sx, sy = gx - striker[0], gy - striker[1]
    dist = math.hypot(sx, sy)
    cos_cut = (sx * ux + sy * uy) / dist
    v_hit = CUT_COIN_SPEED / ((1 + E_DISC) * MS / (MS + MC) * cos_cut)
    speed = math.sqrt(v_hit**2 + 2 * MU * G * dist)
    return {
        "angle": math.atan2(sy, sx),
        "speed": speed,
        "cut_deg": math.degrees(math.acos(min(1.0, cos_cut))),
        "striker_path_m": dist,
        "coin_to_pocket_m": n,
    }


# ----------------------------------------------------------------------------------------
# pymunk: written for this benchmark, physics as in the peer script
# ----------------------------------------------------------------------------------------
class PymunkTable:
    """Fresh pymunk space per shot (as the peer does), with ICF corner pockets.

    Chipmunk multiplies the elasticities of the two shapes in contact. With
    ``literal=False`` (default) discs get sqrt(0.9) and cushions 0.8 / sqrt(0.9), so the
    effective restitution is 0.9 disc-disc and 0.8 disc-cushion as in carromlab. With
    ``literal=True`` discs get 0.9 and cushions 0.8 exactly as the peer script writes them
    (effective 0.81 and 0.72).
    """

    def __init__(
        self, board: Board, literal: bool = False, *, mu: float = MU, e_disc: float = E_DISC,
        e_cushion: float = E_CUSHION, coin: tuple[float, float] = (RC, MC), striker: tuple[float, float] = (RS, MS),
    ) -> None:  # fmt: skip
        if pymunk is None:
            raise RuntimeError("pymunk is not installed: pip install 'pymunk>=7'")
        self.h = board.half_size
        self.holes = [(hl.x, hl.y, hl.radius, hl.name) for hl in board.holes]
        self.mu, self.coin, self.striker = mu, coin, striker
        self.e_shape_disc = e_disc if literal else math.sqrt(e_disc)
        self.e_shape_cushion = e_cushion if literal else e_cushion / math.sqrt(e_disc)
        # any body outside this box cannot be within a capture radius of a corner pocket
        self.guard = min(min(abs(x), abs(y)) - r for x, y, r, _ in self.holes) if self.holes else math.inf

    def shot(
        self, coins: list[tuple[float, float]], sx: float, sy: float, angle: float, speed: float,
        steps: int | None = None, removals: dict[int, int] | None = None,
    ) -> dict:  # fmt: skip
        """One shot. ``steps=None``: the peer's run (friction callback, pockets, stop rule);
        the result's ``pocket_step`` maps each pocketed body to the step after which it went.
        ``steps=n``: Chipmunk's C stepping alone on the same space (no velocity callback,
        no pocket or stop check), exactly ``n`` steps, removing the bodies of ``removals``
        (id -> step, a ``pocket_step`` of the peer's run) when that run did, so that as many
        bodies are stepped; the result has ``step_s`` and ``step_cpu_s``, the wall and CPU
        time of this loop alone."""
        space = pymunk.Space()
        space.iterations = ITERATIONS
        h = self.h
        for a, b in (((-h, -h), (h, -h)), ((h, -h), (h, h)), ((h, h), (-h, h)), ((-h, h), (-h, -h))):
            s = pymunk.Segment(space.static_body, a, b, 0.0)
            s.elasticity = self.e_shape_cushion
            s.friction = 0.0
            space.add(s)
        dv = self.mu * G * DT

        def coulomb(body, gravity, damping, dt):  # peer's velocity callback
            v = body.velocity
            sp = v.length
            if sp > 0:
                body.velocity = v * (max(sp - dv, 0.0) / sp)
            body.angular_velocity = 0.0

        live = []  # [body, shape, id, capture radii per hole]

        def add(x, y, r, m, ident):
            b = pymunk.Body(m, pymunk.moment_for_circle(m, 0, r))
            b.position = (x, y)
            if steps is None:
                b.velocity_func = coulomb
            c = pymunk.Circle(b, r)
            c.elasticity = self.e_shape_disc
            c.friction = 0.0
            space.add(b, c)
            caps = [math.sqrt(max(rh * rh - r * r, 0.0)) for _, _, rh, _ in self.holes]
            live.append([b, c, ident, caps])
            return b

        for i, (x, y) in enumerate(coins):
            add(x, y, *self.coin, i)
        st = add(sx, sy, *self.striker, len(coins))
        st.velocity = (speed * math.cos(angle), speed * math.sin(angle))
        if steps is not None:
            step, removals = space.step, removals or {}
            parts = {rec[2]: rec[:2] for rec in live}
            done, t0, c0 = 0, time.perf_counter(), time.process_time()
            for cut in sorted({*removals.values(), steps}):
                for _ in range(cut - done):
                    step(DT)
                done = cut
                for i in [i for i, at in removals.items() if at == cut]:
                    space.remove(*parts[i])
            return {"steps": steps, "step_s": time.perf_counter() - t0, "step_cpu_s": time.process_time() - c0}
        holes, guard = self.holes, self.guard
        pocketed: dict[int, tuple[str, float]] = {}
        pocket_step: dict[int, int] = {}
        t, steps = 0.0, 0
        while True:
            space.step(DT)
            steps += 1
            t += DT
            gone = None
            for rec in live:
                x, y = rec[0].position
                if abs(x) < guard and abs(y) < guard:
                    continue
                for (hx, hy, _, name), cap in zip(holes, rec[3]):
                    if (x - hx) ** 2 + (y - hy) ** 2 < cap * cap:
                        pocketed[rec[2]] = (name, t)
                        pocket_step[rec[2]] = steps
                        space.remove(rec[0], rec[1])
                        gone = gone or []
                        gone.append(rec)
                        break
            if gone:
                live = [r for r in live if r not in gone]
            if all(r[0].velocity.length < STOP_SPEED for r in live) or t > T_MAX:
                break
        return {
            "steps": steps,
            "t_end": t,
            "pocketed": pocketed,
            "pocket_step": pocket_step,
            "final": {r[2]: tuple(r[0].position) for r in live},
        }


# ----------------------------------------------------------------------------------------
# Harness
# ----------------------------------------------------------------------------------------
@dataclass
class Ctx:
    quick: bool
    seed: int
    batch_n: int
    literal_elasticity: bool
    pooltool_python: str = sys.executable  # interpreter that runs pooltool_break.py
    board: Board = field(init=False)
    params: PhysicsParams = field(init=False)
    cache: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.board = Board.icf()
        self.params = carrom_params()
        self._pm = None

    @property
    def pm(self) -> PymunkTable:
        if self._pm is None:
            self._pm = PymunkTable(self.board, self.literal_elasticity)
        return self._pm

    def pick(self, quick, full):
        return quick if self.quick else full


def time_calls(fn: Callable[[], Any], repeats: int, budget_s: float, min_repeats: int = 3) -> tuple[list[float], Any]:
    """Per-call wall times (s) of ``fn``: up to ``repeats`` calls, stopping once ``budget_s``
    is spent (after at least ``min_repeats``). Returns (times, last result)."""
    times, out = [], None
    start = time.perf_counter()
    for k in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
        if k + 1 >= min_repeats and time.perf_counter() - start > budget_s:
            break
    return times, out


def single_shot_case(ctx: Ctx, coins, sx, sy, angle, speed, carrom_reps, pymunk_reps, pymunk_budget) -> dict:
    scene = make_scene(ctx.board, coins)
    shot = Shot(sx, sy, angle, speed)
    for _ in range(5):  # warm up
        simulate(scene, shot, ctx.params, record=False)
    ct, res = time_calls(lambda: simulate(scene, shot, ctx.params, record=False), carrom_reps, 30.0)
    # engine-only cost: many copies of the shot in one simulate_batch call (1 thread)
    nb = ctx.pick(1000, 5000)
    t0 = time.perf_counter()
    bdf = simulate_batch(scene, sx, sy, angle, np.full(nb, speed), params=ctx.params, workers=1)
    batch_s = (time.perf_counter() - t0) / nb
    pt, pres = time_calls(
        lambda: ctx.pm.shot(coins, sx, sy, angle, speed), pymunk_reps, pymunk_budget, min_repeats=2
    )
    c_med, p_med = statistics.median(ct), statistics.median(pt)
    fin = res.final
    c_pocketed = fin[(fin["status"] == "pocketed") & (fin["kind"] != "striker")]
    striker_id = len(coins)
    return {
        "carromlab_s": c_med,
        "pymunk_s": p_med,
        "ratio": p_med / c_med,
        "carromlab_min_s": min(ct),
        "carromlab_repeats": len(ct),
        "carromlab_batch_s_per_shot": batch_s,
        "carromlab_events": res.n_events,
        "carromlab_duration_s": res.duration,
        "carromlab_truncated": bool(res.truncated),
        "carromlab_batch_events_agree": bool((bdf["n_events"] == res.n_events).all()),
        "pymunk_steps": pres["steps"],
        "pymunk_duration_s": pres["t_end"],
        "pymunk_repeats": len(pt),
        "carromlab_pocketed": {int(i): p for i, p in zip(c_pocketed["id"], c_pocketed["pocket"])},
        "pymunk_pocketed": {int(i): v[0] for i, v in pres["pocketed"].items() if i != striker_id},
        "carromlab_striker": res.striker_fate,
        "pymunk_striker": "pocketed" if striker_id in pres["pocketed"] else "board",
    }


def case_icf_break(ctx: Ctx) -> dict:
    """The peer's break: 19 touching coins, striker at (0, -h + 0.13) at 6 m/s straight up."""
    sy = -ctx.board.half_size + 0.13
    out = single_shot_case(
        ctx, break_positions(), 0.0, sy, math.pi / 2, BREAK_SPEED,
        carrom_reps=ctx.pick(300, 3000), pymunk_reps=ctx.pick(3, 20), pymunk_budget=ctx.pick(2.0, 20.0),
    )  # fmt: skip
    out["n_pocketed_carromlab"] = len(out["carromlab_pocketed"])
    out["n_pocketed_pymunk"] = len(out["pymunk_pocketed"])
    return out


def _cut_setup(ctx: Ctx) -> tuple[list[tuple[float, float]], float, float, dict]:
    sx, sy = -0.05, -ctx.board.half_size + 0.1174  # between the two baselines
    return [CUT_COIN], sx, sy, cut_aim(ctx.board, CUT_COIN, (sx, sy))


def case_cut_shot(ctx: Ctx) -> dict:
    """One coin cut into the NE pocket (about 30 deg cut, coin leaves at 3 m/s)."""
    coins, sx, sy, aim = _cut_setup(ctx)
    out = single_shot_case(
        ctx, coins, sx, sy, aim["angle"], aim["speed"],
        carrom_reps=ctx.pick(1000, 10000), pymunk_reps=ctx.pick(5, 50), pymunk_budget=ctx.pick(2.0, 10.0),
    )  # fmt: skip
    out.update(
        striker_x=sx, striker_y=sy, angle_rad=aim["angle"], speed=aim["speed"], cut_deg=aim["cut_deg"],
        coin_pocketed_carromlab=out["carromlab_pocketed"].get(0, ""),
        coin_pocketed_pymunk=out["pymunk_pocketed"].get(0, ""),
    )  # fmt: skip
    out["outcome_agrees"] = (
        out["coin_pocketed_carromlab"] == out["coin_pocketed_pymunk"]
        and out["carromlab_striker"] == out["pymunk_striker"]
    )
    return out


def _cut_batch_inputs(ctx: Ctx, n: int) -> tuple[Scene, float, float, np.ndarray, float]:
    coins, sx, sy, aim = _cut_setup(ctx)
    rng = np.random.default_rng(ctx.seed)
    angles = aim["angle"] + np.radians(rng.uniform(-CUT_JITTER_DEG, CUT_JITTER_DEG, n))
    return make_scene(ctx.board, coins), sx, sy, angles, aim["speed"]


def case_batch_cut(ctx: Ctx) -> dict:
    """Throughput of jittered single-coin cut shots: simulate_batch (1 and 2 threads) vs a
    pymunk loop over the first shots of the same list (time-limited)."""
    n = ctx.batch_n
    scene, sx, sy, angles, speed = _cut_batch_inputs(ctx, n)
    simulate_batch(scene, sx, sy, angles[:2000], speed, params=ctx.params, workers=1)  # warm up
    # 1 and 2 threads interleaved, best of each: load from other processes hits both alike
    best = {1: math.inf, 2: math.inf}
    cpu1 = math.inf
    for _ in range(ctx.pick(5, 5)):
        for w in (1, 2):
            t0, c0 = time.perf_counter(), time.process_time()
            df = simulate_batch(scene, sx, sy, angles, speed, params=ctx.params, workers=w)
            best[w] = min(best[w], time.perf_counter() - t0)
            if w == 1:
                cpu1 = min(cpu1, time.process_time() - c0)
                ctx.cache["cut_batch_df"] = df
    df = ctx.cache["cut_batch_df"]
    # pymunk: the same shots, in order, until the count or the time budget runs out
    n_pm, budget = ctx.pick(50, 500), ctx.pick(5.0, 30.0)
    pm_coin = []
    t0 = time.perf_counter()
    for k in range(n_pm):
        r = ctx.pm.shot([CUT_COIN], sx, sy, float(angles[k]), speed)
        pm_coin.append(0 in r["pocketed"])
        if time.perf_counter() - t0 > budget:
            break
    pm_s = time.perf_counter() - t0
    m = len(pm_coin)
    c_coin = df["pocketed_coin"].to_numpy()[:m] > 0
    return {
        "carromlab": n / best[1],
        "pymunk": m / pm_s,
        "ratio": (n / best[1]) / (m / pm_s),
        "carromlab_per_cpu_s": n / cpu1,
        "carromlab_2_workers": n / best[2],
        "speedup_2_workers": best[1] / best[2],
        "n_shots": n,
        "n_pymunk_shots": m,
        "jitter_deg": CUT_JITTER_DEG,
        "carromlab_pocket_rate": float((df["pocketed_coin"] > 0).mean()),
        "carromlab_pocket_rate_same_shots": float(c_coin.mean()),
        "pymunk_pocket_rate_same_shots": float(np.mean(pm_coin)),
        "outcome_agreement_same_shots": float(np.mean(c_coin == np.array(pm_coin))),
        "carromlab_mean_events": float(df["n_events"].mean()),
        "carromlab_truncated": int(df["truncated"].sum()),
    }


def case_batch_memory(ctx: Ctx) -> dict:
    """Bytes per shot of the simulate_batch summary DataFrame, extrapolated to 1e6 shots."""
    df = ctx.cache.get("cut_batch_df")
    if df is None:
        scene, sx, sy, angles, speed = _cut_batch_inputs(ctx, ctx.batch_n)
        df = simulate_batch(scene, sx, sy, angles, speed, params=ctx.params)
    b = float(df.memory_usage(deep=True).sum()) / len(df)
    return {"bytes_per_shot": b, "mb_per_million": b * 1_000_000 / 1e6,  # decimal MB
            "n_shots": len(df), "columns": len(df.columns)}


def case_batch_many_scenes(ctx: Ctx) -> dict:
    """Cost per shot of a many-scene batch against the single-scene batch on the same shots,
    1 thread, interleaved, best CPU time of each: the jittered cut shots and the varied ICF
    breaks. The many-scene batch gets an (N, n_pieces, 2) stack of starting positions and
    an (N, n_pieces) on-board mask whose rows hold the scene's own pieces (every row
    validated), so both ways play the same physics and the ratio is the many-scene cost."""
    cut_scene, sx, sy, angles, speed = _cut_batch_inputs(ctx, ctx.batch_n)
    b = _varied(ctx)
    out: dict[str, Any] = {}
    for label, (scene, x, y, angle, v) in (("cut", (cut_scene, sx, sy, angles, speed)),
                                           ("break", (b.scene, b.x, b.y, b.angle, b.speed))):  # fmt: skip
        n = len(angle)
        stack = np.repeat(scene.arrays["xy"][None], n, axis=0)
        mask = np.ones((n, scene.n_pieces), bool)
        params = ctx.params if label == "cut" else PhysicsParams()
        best = {"single": math.inf, "many": math.inf}
        simulate_batch(scene, x, y, angle, v, params=params, workers=1)  # warm up
        for _ in range(ctx.pick(7, 9)):
            for way, kw in (("single", {}), ("many", {"positions": stack, "on_board": mask})):
                c0 = time.process_time()
                simulate_batch(scene, x, y, angle, v, params=params, workers=1, **kw)
                best[way] = min(best[way], time.process_time() - c0)
        out[label] = {"n_shots": n, "single_cpu_s_per_shot": best["single"] / n,
                      "many_cpu_s_per_shot": best["many"] / n, "ratio": best["many"] / best["single"]}  # fmt: skip
    out["ratio_max"] = max(out["cut"]["ratio"], out["break"]["ratio"])
    return out


# ----------------------------------------------------------------------------------------
# Varied ICF breaks (Scene.icf_break): carromlab against three peers, per friction law
# ----------------------------------------------------------------------------------------
VARIED_AIM_DEG = 10.0  # direction uniform within +- this of the pack centre (deg)
VARIED_SPEED = (4.0, 9.0)  # striker speed uniform in this range (m/s)
#: Event budget of the friction-law rows: a varied break needs about 130 events; the
#: budget keeps a break that cascaded (as low restitution did before the TC model) from
#: swamping the timing. ``n_truncated`` counts the breaks that hit it.
LAW_MAX_EVENTS = 20_000
#: (label, PhysicsParams overrides) of the friction-law rows, on top of PhysicsParams();
#: each row's ratio is to the first (Coulomb).
FRICTION_LAWS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("coulomb", {"friction_law": "coulomb"}),
    ("slide_spin", {"friction_law": "slide_spin"}),
    ("linear", {"friction_law": "linear", "mu_v": 0.02}),
    ("stribeck", {"friction_law": "stribeck"}),
    ("coulomb_drag", {"friction_law": "coulomb", "air_drag": 0.03}),
    ("slide_spin_drag", {"friction_law": "slide_spin", "air_drag": 0.03}),
)
LOW_E_DISC = 0.1  # restitution of the low-restitution row


@dataclass(frozen=True)
class Breaks:
    """Seeded varied breaks from one scene: striker placement (m), direction (rad) and
    speed (m/s) of every break."""

    scene: Scene
    x: np.ndarray
    y: np.ndarray
    angle: np.ndarray
    speed: np.ndarray

    def __len__(self) -> int:
        return len(self.x)

    def shot(self, k: int) -> Shot:
        return Shot(float(self.x[k]), float(self.y[k]), float(self.angle[k]), float(self.speed[k]))

    def head(self, n: int) -> Breaks:
        """The first ``n`` breaks."""
        return Breaks(self.scene, self.x[:n], self.y[:n], self.angle[:n], self.speed[:n])


def varied_breaks(n: int, seed: int) -> Breaks:
    """``n`` different ICF breaks from ``Scene.icf_break()`` (never one repeated shot).

    The striker centre is on the south striker line (the middle of the two baselines,
    y = -0.2526 m on the ICF board), x uniform over the legal placements of rule ICF-3
    (rejection sampling with ``Baseline.striker_allowed``: |x| <= 0.2233 m less the two
    gaps next to the base circles); direction uniform within +-VARIED_AIM_DEG of the
    direction to the pack centre (the mean piece position); speed uniform in VARIED_SPEED.
    """
    from carromlab.analysis import StrikerLine

    scene = Scene.icf_break()
    line = StrikerLine.for_scene(scene)
    base = scene.board.baseline("south")
    r = scene.specs[scene.striker].radius
    reach = line.half_length + r  # a striker covering a base circle reaches past its centre
    rng = np.random.default_rng(seed)
    xs = np.empty(0)
    while len(xs) < n:
        u = rng.uniform(-reach, reach, 2 * n)
        xs = np.concatenate([xs, u[base.striker_allowed(u, line.y0, r)]])
    x, y = xs[:n], np.full(n, line.y0)
    cx, cy = scene.pieces["x"].mean(), scene.pieces["y"].mean()
    angle = np.arctan2(cy - y, cx - x) + np.radians(rng.uniform(-VARIED_AIM_DEG, VARIED_AIM_DEG, n))
    return Breaks(scene, x, y, angle, rng.uniform(*VARIED_SPEED, n))


def _varied(ctx: Ctx) -> Breaks:
    if "varied" not in ctx.cache:
        ctx.cache["varied"] = varied_breaks(ctx.pick(200, 1000), ctx.seed)
    return ctx.cache["varied"]


def time_breaks(b: Breaks, params: PhysicsParams, passes: int, budget_s: float, min_breaks: int = 10) -> tuple[dict, np.ndarray]:
    """Time ``simulate(record=False)`` on each break: ``passes`` passes over the breaks, or
    fewer once ``budget_s`` (wall) is spent; the first pass stops early at the budget
    (after ``min_breaks``) and later passes repeat the breaks it covered. Each break's
    time is its median over the passes. Returns (figures, per-break CPU seconds)."""
    simulate(b.scene, b.shot(0), params, record=False)  # warm up
    m, wall, cpu, events, truncated = len(b), [], [], [], 0
    start = time.perf_counter()
    for p in range(passes):
        w, c = [], []
        for k in range(m):
            w0, c0 = time.perf_counter(), time.process_time()
            res = simulate(b.scene, b.shot(k), params, record=False)
            c.append(time.process_time() - c0)
            w.append(time.perf_counter() - w0)
            if p == 0:
                events.append(res.n_events)
                truncated += bool(res.truncated)
                if k + 1 >= min_breaks and time.perf_counter() - start > budget_s:
                    m = k + 1
                    break
        wall.append(w)
        cpu.append(c)
        if time.perf_counter() - start > budget_s:
            break
    w_med, c_med = np.median(np.array(wall), axis=0), np.median(np.array(cpu), axis=0)
    return {
        "median_s": float(np.median(w_med)), "median_cpu_s": float(np.median(c_med)), "max_cpu_s": float(c_med.max()),
        "events_per_cpu_s": float(np.sum(events) / c_med.sum()), "median_events": float(np.median(events)),
        "max_events_seen": int(max(events)), "n_truncated": truncated, "breaks": m, "passes": len(cpu),
        "friction_law": params.friction_law,
    }, c_med  # fmt: skip


def time_batch(b: Breaks, params: PhysicsParams, repeats: int, budget_s: float = math.inf) -> dict:
    """``simulate_batch(..., workers=1)`` over the breaks, ``repeats`` times (fewer once
    ``budget_s`` of wall time is spent): per-break mean wall and CPU time (median over the
    repeats) and events per CPU-second. This is the engine's cost without the per-call
    Python overhead of ``simulate``."""
    simulate_batch(b.scene, b.x[:2], b.y[:2], b.angle[:2], b.speed[:2], params=params, workers=1)  # warm up
    wall, cpu = [], []
    start = time.perf_counter()
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        df = simulate_batch(b.scene, b.x, b.y, b.angle, b.speed, params=params, workers=1)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
        if time.perf_counter() - start > budget_s:
            break
    n, c = len(b), statistics.median(cpu)
    return {"per_break_s": statistics.median(wall) / n, "per_break_cpu_s": c / n,
            "events_per_cpu_s": float(df["n_events"].sum()) / c, "breaks": n, "repeats": len(cpu)}  # fmt: skip


def paired_batch_ratio(b: Breaks, params: PhysicsParams, base: PhysicsParams, pairs: int) -> float:
    """Median over ``pairs`` back-to-back pairs (A B A B ...) of the CPU time of
    ``simulate_batch(..., workers=1)`` over the breaks under ``params`` divided by that under
    ``base``: a ratio that a shared machine's drift of speed between the pairs does not move
    (it moved the ratio of separately timed laws by up to 30 %)."""
    ratios = []
    for _ in range(pairs):
        cpu = []
        for p in (params, base):
            c0 = time.process_time()
            simulate_batch(b.scene, b.x, b.y, b.angle, b.speed, params=p, workers=1)
            cpu.append(time.process_time() - c0)
        ratios.append(cpu[0] / cpu[1])
    return statistics.median(ratios)


def _pymunk_for(scene: Scene, params: PhysicsParams, literal: bool) -> PymunkTable:
    """A pymunk table with the scene's discs and the params' mu and restitution."""
    radii, masses = set(scene.pieces["radius"]), set(scene.pieces["mass"])
    if len(radii) != 1 or len(masses) != 1:
        raise ValueError("the pymunk peer needs pieces of one radius and mass")
    st = scene.specs[scene.striker]
    return PymunkTable(scene.board, literal, mu=params.mu, e_disc=params.e_disc, e_cushion=params.e_cushion,
                       coin=(radii.pop(), masses.pop()), striker=(st.radius, st.mass))  # fmt: skip


def case_varied_breaks(ctx: Ctx) -> dict:
    """Varied ICF breaks: carromlab ``simulate(record=False)`` and ``simulate_batch``
    (1 thread) with the default physics, and with the peer's physics (Coulomb, no contact
    friction); pymunk with the Coulomb velocity callback (a) and Chipmunk's C stepping
    alone (b) on the first breaks of the same list; ratios on the same breaks (CPU time),
    carromlab's timed again beside each peer, break by break."""
    b = _varied(ctx)
    default = PhysicsParams()
    matched = PhysicsParams(friction_law="coulomb", mu_contact=0.0, mu_cushion=0.0)
    passes, budget = ctx.pick(5, 5), ctx.pick(20.0, 60.0)
    out: dict[str, Any] = {"breaks": len(b), "aim_deg": VARIED_AIM_DEG, "speed": list(VARIED_SPEED)}
    out["carromlab"], _ = time_breaks(b, default, passes, budget)
    out["carromlab_batch"] = time_batch(b, default, passes)
    out["carromlab_matched"], _ = time_breaks(b, matched, passes, budget)
    ctx.cache["varied_carromlab"] = out["carromlab"]
    out["carromlab_median_cpu_s"] = out["carromlab"]["median_cpu_s"]  # the target's figure
    if pymunk is None:
        out["pymunk"] = "unavailable: pymunk is not installed"
        return out
    pm = _pymunk_for(b.scene, default, ctx.literal_elasticity)
    coins = list(zip(b.scene.pieces["x"], b.scene.pieces["y"]))
    n_pm, pm_budget = ctx.pick(12, 60), ctx.pick(8.0, 60.0)
    cb_cpu, steps, removals, dur = [], [], [], []
    start = time.perf_counter()
    for k in range(n_pm):  # (a) the callback peer, as the peer script runs it
        c0 = time.process_time()
        r = pm.shot(coins, float(b.x[k]), float(b.y[k]), float(b.angle[k]), float(b.speed[k]))
        cb_cpu.append(time.process_time() - c0)
        steps.append(r["steps"])
        removals.append(r["pocket_step"])
        dur.append(r["t_end"])
        if time.perf_counter() - start > pm_budget:
            break
    m = len(cb_cpu)

    def ours(params: PhysicsParams) -> float:
        """carromlab's CPU time over the m breaks, one call each (different breaks in turn)."""
        c0 = time.process_time()
        for k in range(m):
            simulate(b.scene, b.shot(k), params, record=False)
        return time.process_time() - c0

    # carromlab is timed again over the same breaks right after each peer: a shared machine's
    # speed drifts over the minutes between the cases. (b), C stepping alone (same space, the
    # steps (a) needed), runs 3 rounds over the breaks, each followed by carromlab's; a
    # ratio per round, and their median.
    ref_a, ref_a_m = ours(default), ours(matched)
    rounds: list[tuple[list[float], float, float]] = []
    for _ in range(3):
        peer = [pm.shot(coins, float(b.x[k]), float(b.y[k]), float(b.angle[k]), float(b.speed[k]), steps=steps[k],
                        removals=removals[k])["step_cpu_s"] for k in range(m)]  # fmt: skip
        rounds.append((peer, ours(default), ours(matched)))
    c_cpu_steps = [statistics.median(r[0][k] for r in rounds) for k in range(m)]
    ratio_c = statistics.median(sum(r[0]) / r[1] for r in rounds)
    ratio_c_m = statistics.median(sum(r[0]) / r[2] for r in rounds)
    ref, ref_m = statistics.median(r[1] for r in rounds), statistics.median(r[2] for r in rounds)
    cb, cs = statistics.median(cb_cpu), statistics.median(c_cpu_steps)
    out["pymunk_callback"] = {"median_cpu_s": cb, "breaks": m, "median_steps": statistics.median(steps),
                              "steps_per_cpu_s": sum(steps) / sum(cb_cpu), "mean_duration_s": statistics.fmean(dur)}  # fmt: skip
    out["pymunk_c_steps"] = {"median_cpu_s": cs, "breaks": m, "steps_per_cpu_s": sum(steps) / sum(c_cpu_steps)}
    out.update(
        carromlab_same_breaks_cpu_s=ref, matched_same_breaks_cpu_s=ref_m,
        ratio_pymunk_callback=sum(cb_cpu) / ref_a, ratio_pymunk_c=ratio_c,
        ratio_pymunk_callback_matched=sum(cb_cpu) / ref_a_m, ratio_pymunk_c_matched=ratio_c_m,
        pymunk_params={"mu": default.mu, "e_disc": default.e_disc, "e_cushion": default.e_cushion},
    )  # fmt: skip
    return out


def case_pooltool_break(ctx: Ctx) -> dict:
    """pooltool-billiards 0.6 on its own varied 9-ball breaks (``pooltool_break.py``, run in
    a subprocess with ``--pooltool-python``): events per CPU-second against carromlab's."""
    cmd = [ctx.pooltool_python, str(Path(__file__).with_name("pooltool_break.py")), "--n", str(ctx.pick(10, 50)),
           "--seed", str(ctx.seed), "--budget", str(ctx.pick(5.0, 30.0))]  # fmt: skip
    try:
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=900, check=False)
        out = json.loads(run.stdout.strip().splitlines()[-1]) if run.returncode == 0 and run.stdout.strip() else {
            "unavailable": f"{Path(cmd[0]).name} exited {run.returncode}: " + (run.stderr.strip().splitlines() or [""])[-1]
        }  # fmt: skip
    except (OSError, subprocess.TimeoutExpired, json.JSONDecodeError) as exc:
        out = {"unavailable": f"{type(exc).__name__}: {exc}"}
    out["python"] = ctx.pooltool_python
    ours = ctx.cache.get("varied_carromlab")
    if ours and "unavailable" not in out:
        out["ratio_events_per_cpu_s"] = ours["events_per_cpu_s"] / out["events_per_cpu_s"]
    return out


def case_friction_laws(ctx: Ctx) -> dict:
    """Every friction law on the varied breaks (PhysicsParams() with the law's overrides and
    max_events=LAW_MAX_EVENTS): median CPU time per ``simulate`` call and its ratio to
    Coulomb's on the same breaks; the engine-only cost (``simulate_batch``, 1 thread, mean
    per break) and its ratio to Coulomb's (``{law}_ratio``, the target: the per-call
    overhead, the same for every law, does not dilute it), timed in back-to-back pairs with
    Coulomb (``paired_batch_ratio``)."""
    sub = _varied(ctx).head(ctx.pick(100, 1000))
    coulomb = PhysicsParams(max_events=LAW_MAX_EVENTS, **FRICTION_LAWS[0][1])
    reps = ctx.pick(3, 5)
    out: dict[str, Any] = {"max_events": LAW_MAX_EVENTS}
    base: np.ndarray | None = None  # Coulomb's CPU time per break (simulate)
    for label, over in FRICTION_LAWS:
        params = PhysicsParams(max_events=LAW_MAX_EVENTS, **over)
        row, cpu = time_breaks(sub, params, reps, ctx.pick(6.0, 40.0))
        m = row["breaks"]
        batch = time_batch(sub.head(m), params, reps, ctx.pick(3.0, 20.0))
        base = cpu if base is None else base
        row.update(
            ratio_to_coulomb=float(np.median(cpu) / np.median(base[:m])), overrides=over, batch=batch,
            batch_ratio_to_coulomb=paired_batch_ratio(sub.head(m), params, coulomb, ctx.pick(5, 9)),
        )  # fmt: skip
        out[label] = row
        out[f"{label}_ratio"] = row["batch_ratio_to_coulomb"]
        out[f"{label}_median_cpu_s"] = row["median_cpu_s"]
    return out


def case_low_restitution(ctx: Ctx) -> dict:
    """The varied breaks with e_disc = LOW_E_DISC (default law, default event budget):
    events per break, time, truncated breaks; ratio of time per break to e_disc = 0.9."""
    sub = _varied(ctx).head(ctx.pick(100, 1000))
    out, cpu = time_breaks(sub, PhysicsParams(e_disc=LOW_E_DISC), ctx.pick(3, 5), ctx.pick(15.0, 60.0))
    ref, ref_cpu = time_breaks(sub, PhysicsParams(), 1, 5.0)
    out.update(e_disc=LOW_E_DISC, ratio_to_e09=float(np.median(cpu) / np.median(ref_cpu[: len(cpu)])),
               e09_median_events=ref["median_events"])  # fmt: skip
    return out


# ----------------------------------------------------------------------------------------
# Analyses (carromlab only, default physics)
# ----------------------------------------------------------------------------------------
def _analysis_run(run: Callable[[], Any], shots: int, full_shots: int) -> tuple[dict, Any]:
    """Time one analysis call of ``shots`` shots; quick runs are scaled down from
    ``full_shots`` and the full-size time is projected from the measured rate."""
    t0 = time.perf_counter()
    out = run()
    s = time.perf_counter() - t0
    return {
        "seconds": s, "shots": shots, "shots_per_s": shots / s, "full_shots": full_shots,
        "projected_full_s": s * full_shots / shots, "scaled_down": shots != full_shots,
    }, out  # fmt: skip


def _break_grid(placements: int = 10, speeds: Any = np.linspace(4, 8, 10)) -> Any:
    from carromlab.analysis import ShotGrid, StrikerLine

    h = StrikerLine.for_scene(Scene.icf_break()).half_length
    return ShotGrid(placement=np.linspace(-h, h, placements), angle=np.radians(np.linspace(-6, 6, 10)), speed=speeds,
                    aim="pack")  # fmt: skip


def case_success_map(ctx: Ctx) -> dict:
    """One coin at (0.25, 0.25): 100 placements x 100 ghost aims x 3 m/s, 100 replicas
    (1,000,000 shots; quick: 10 replicas, 100,000 shots)."""
    from carromlab.analysis import PocketPiece, ShotGrid, StrikerLine, success_map

    scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [0.25], "y": [0.25]}))
    h = StrikerLine.for_scene(scene).half_length
    grid = ShotGrid(placement=np.linspace(-h, h, 100), angle=np.radians(np.linspace(-5, 5, 100)), speed=[3.0], aim="ghost")
    replicas = ctx.pick(10, 100)
    out, df = _analysis_run(
        lambda: success_map(scene, PocketPiece(0), grid, replicas=replicas, progress=False),
        grid.n_cells * replicas, grid.n_cells * 100,
    )  # fmt: skip
    out.update(replicas=replicas, mean_p_success=float(df["p_success"].mean()))
    return out


def _break_case(params: PhysicsParams, grid: Any, replicas: int) -> dict:
    """An ICF break study, projected to the 100,000 shots of the full-size study."""
    from carromlab.analysis import break_study

    out, study = _analysis_run(
        lambda: break_study(Scene.icf_break(), grid, replicas=replicas, params=params, progress=False),
        grid.n_cells * replicas, 100_000,
    )  # fmt: skip
    s = study.shots
    out.update(replicas=replicas, friction_law=params.friction_law, mean_pocketed_white=float(s["pocketed_white"].mean()),
               mean_events=float(s["n_events"].mean()), n_truncated=int(s["truncated"].sum()))  # fmt: skip
    return out


def case_break_study(ctx: Ctx) -> dict:
    """ICF break study: 10 placements x 10 aims (pack +- 6 deg) x 10 speeds (4-8 m/s), 100
    replicas (100,000 shots; quick: 10 replicas, 10,000 shots), default physics (slide-spin)."""
    out = _break_case(PhysicsParams(), _break_grid(), ctx.pick(10, 100))
    ctx.cache["break_study_rate"] = out["shots_per_s"]
    return out


def case_break_study_coulomb(ctx: Ctx) -> dict:
    """The same break study under the Coulomb option (the law that ignores slide-spin
    coupling), a tenth of its replicas, to show what the default law costs; no target."""
    out = _break_case(PhysicsParams(friction_law="coulomb"), _break_grid(), ctx.pick(1, 10))
    default = ctx.cache.get("break_study_rate")
    out["default_time_ratio"] = out["shots_per_s"] / default if default else None
    return out


def _foul_states() -> dict:
    """The positions of the foul benchmark: the ICF break without coins 1, 2, 9 and 10
    (ICF, online), every third Hikone puck with the jack in doubles (so HIK-9 applies) and
    three crokinole discs."""
    from carromlab.analysis import comparable_states

    carrom = comparable_states(Scene.icf_break().pieces.drop(index=[1, 2, 9, 10])[["kind", "x", "y"]], ("icf", "online"))
    pucks = Scene.hikone_start().pieces.iloc[::3][["kind", "x", "y"]]
    discs = pd.DataFrame({"kind": ["light", "light", "dark"], "x": [0.0, 0.12, -0.1], "y": [-0.15, 0.05, 0.1]})
    return {**carrom, "hikone": comparable_states(pucks, ("hikone",), players=4)["hikone"],
            "crokinole": comparable_states(discs, ("crokinole",))["crokinole"]}  # fmt: skip


#: Pieces (the queen and coins) of the scattered ICF positions of the foul benchmark's
#: context rows: the count of the pack (15) and fewer.
FOUL_SCATTERED = (5, 9, 15)


def _foul_rate(key: str, state: Any, pop: Any) -> dict:
    """``foul_probabilities`` of one state on one core (CPU time) and the raw engine on the
    same executed shots (read back from a store: ``simulate_batch`` on one thread with the
    detail columns the rules read)."""
    import tempfile

    from carromlab.analysis import foul_probabilities, read_store
    from carromlab.rules.engine_bridge import forward_of, scene_for

    t0 = time.process_time()
    df = foul_probabilities({key: state}, pop, workers=1, progress=False)
    cpu = time.process_time() - t0
    with tempfile.TemporaryDirectory() as d:  # the executed shots, for the engine alone
        foul_probabilities({key: state}, pop, workers=1, progress=False, store=d)
        shots = read_store(d)
    scene, _ = scene_for(state)
    t0 = time.process_time()
    out = simulate_batch(
        scene, shots["x"], shots["y"], shots["angle"], shots["speed"], shots["spin"], workers=1, details=True,
        final_positions=True, forward=forward_of(state), carriers=(scene.striker,),
    )  # fmt: skip
    engine = time.process_time() - t0
    return {
        "cpu_s": cpu, "shots_per_cpu_s": pop.n / cpu, "engine_shots_per_cpu_s": pop.n / engine,
        "engine_share": engine / cpu, "events_per_shot": float(out["n_events"].mean()),
        "p_any_foul": float(df.loc[df["rule"] == "any", "p"].iat[0]),
    }  # fmt: skip


def case_foul_probabilities(ctx: Ctx) -> dict:
    """Foul probabilities by variant on one core (CPU time): per variant, a population over
    the whole line, aims +- 57 deg, 0.5-5 m/s, club noise, 20,000 shots (quick too: a call's
    fixed cost of 20-40 ms would otherwise weigh ten times more);
    beside the raw engine on the same executed shots (``_foul_rate``). As context (no
    target), ICF at positions of FOUL_SCATTERED pieces scattered over the board
    (``_scattered``) instead of the pack: what the rate owes to the number of pieces and
    what to the pack's cascades of impacts."""
    from carromlab.analysis import ShotPopulation, comparable_states

    n = 20_000
    pop = ShotPopulation(angle=(-1.0, 1.0), speed=(0.5, 5.0), n=n, seed=ctx.seed)
    by_variant = {key: _foul_rate(key, state, pop) for key, state in _foul_states().items()}
    cpu_total = sum(v["cpu_s"] for v in by_variant.values())
    rng = np.random.default_rng(ctx.seed)
    scattered = {}
    for k in FOUL_SCATTERED:
        kinds = ["queen"] + ["white" if q % 2 else "black" for q in range(k - 1)]
        state = comparable_states(_scattered(rng, ctx.board, kinds), ("icf",))["icf"]
        scattered[str(k)] = _foul_rate("icf", state, pop)
    shots = n * len(by_variant)
    return {
        "seconds": cpu_total, "shots": shots, "shots_per_s": shots / cpu_total, "full_shots": shots,
        "projected_full_s": cpu_total, "scaled_down": False, "per_variant": n, "by_variant": by_variant,
        "icf_scattered": scattered, "p_any_foul": {k: v["p_any_foul"] for k, v in by_variant.items()},
        "min_rate_per_core": min(v["shots_per_cpu_s"] for v in by_variant.values()),
        "min_fraction_of_engine": min(v["shots_per_cpu_s"] / v["engine_shots_per_cpu_s"] for v in by_variant.values()),
    }  # fmt: skip


def _engine_cpu_s(played: list) -> float:
    """CPU time of the raw engine (``simulate(record=False)``) replaying played shots
    from their positions: the engine's share of a shot."""
    from carromlab.rules.engine_bridge import scene_for

    scenes = [(scene_for(p.before)[0], p.executed.shot) for p in played]
    # a full collection of the scenes' frames landing in the loop would be timed as the engine's
    gc.collect()
    gc.disable()
    try:
        t0 = time.process_time()
        for scene, shot in scenes:
            simulate(scene, shot, record=False)
        return time.process_time() - t0
    finally:
        gc.enable()


#: (variant, seats) of the match cases.
MATCH_VARIANTS = (("icf", 2), ("icf", 4), ("online", 2), ("hikone", 2), ("hikone", 4), ("crokinole", 2), ("crokinole", 4))


def case_match_games(ctx: Ctx) -> dict:
    """Whole games by variant, random policy on every seat, no noise, one process: games
    and shots per CPU-second (``carromlab.match.Game``: policy, noise, engine, rules,
    conservation check, record), beside the raw engine's CPU time for the same shots.
    Games run to their end (or a board guard of 2,000 shots) until a budget of 20,000
    shots per variant (quick: 200, too few to finish a carrom game). Beside them,
    :data:`LOCKSTEP_GAMES` whole games of each variant in lockstep (one engine batch and
    one array adjudication per step), every game to its end as ``carromlab match`` plays a
    chunk: ``lockstep_*`` are measured on those games (their opening breaks, their middle
    and the last steps, when few games are left), and their mean length is the shots per
    game of both rows when the one-at-a-time budget finishes no game. And whole ICF games
    with the greedy policy on both seats in lockstep (:data:`GREEDY_GAMES` games to their
    end; quick: an eighth), whose games/s is measured on the greedy games themselves (a greedy game is
    a few dozen shots, not a random one's ~970)."""
    from carromlab.match import Game, GreedyPolicy, MatchClock, RandomPolicy, game_seed, new_state

    budget = ctx.pick(200, 20_000)
    out: dict[str, Any] = {"shot_budget": budget}
    for variant, seats in MATCH_VARIANTS:
        played, games, shots_in_games, g = [], 0, 0, 0
        cpu = 0.0
        while len(played) < budget:
            game = Game(new_state(variant, seats), RandomPolicy(), seed=game_seed(ctx.seed, g), record=False)
            g += 1
            t0 = time.process_time()
            while game.end is None and len(played) < budget:
                played.append(game.shoot())
            cpu += time.process_time() - t0
            if game.end is not None:
                games += 1
                shots_in_games += game.n_shots
        engine = _engine_cpu_s(played)
        lockstep = _lockstep(variant, seats, RandomPolicy(), LOCKSTEP_GAMES, ctx.seed)
        shots_per_game = shots_in_games / games if games else lockstep["shots_per_game"]
        out[f"{variant}_{seats}"] = {
            "shots": len(played), "complete_games": games, "shots_per_cpu_s": len(played) / cpu,
            "shots_per_game": shots_per_game, "games_per_cpu_s": len(played) / cpu / shots_per_game,
            "engine_shots_per_cpu_s": len(played) / engine, "engine_share": engine / cpu,
            "lockstep_shots_per_cpu_s": lockstep["lockstep_shots_per_cpu_s"],
            "lockstep_games_per_cpu_s": lockstep["lockstep_games_per_cpu_s"],
            "lockstep_shots_per_game": lockstep["shots_per_game"],
        }  # fmt: skip
    for seats in (2, 4):  # Hikone as its rules time a match (HIK-10): no target, beside the untimed rows
        out[f"hikone_{seats}_timed"] = _lockstep("hikone", seats, RandomPolicy(), LOCKSTEP_GAMES, ctx.seed,
                                                 clock=MatchClock(think_s=HIKONE_THINK_S))  # fmt: skip
    out["icf_2_greedy"] = _lockstep("icf", 2, GreedyPolicy(), ctx.pick(GREEDY_GAMES // 8, GREEDY_GAMES), ctx.seed)
    icf = out["icf_2"]
    out["icf_random_lockstep_games_per_cpu_s"] = icf["lockstep_games_per_cpu_s"]
    out["icf_greedy_lockstep_games_per_cpu_s"] = out["icf_2_greedy"]["lockstep_games_per_cpu_s"]
    slowest = min((f"{v}_{n}" for v, n in MATCH_VARIANTS), key=lambda k: out[k]["lockstep_games_per_cpu_s"])
    out["slowest_random_lockstep"] = slowest
    out["min_random_lockstep_games_per_cpu_s"] = out[slowest]["lockstep_games_per_cpu_s"]
    return out


#: Whole games advancing together in the lockstep rows of the match case (``play_match``'s default chunk).
LOCKSTEP_GAMES = 256


def _lockstep(variant: str, seats: int, policy: Any, n_games: int, seed: int, clock: Any = None) -> dict:
    """``n_games`` games of a variant advancing in lockstep (``carromlab.match.lockstep.step``)
    until every game has ended, with a match ``clock`` if given (Hikone): shots and games per
    CPU-second and the mean shots per game."""
    from carromlab.match import Game, game_seed, new_state
    from carromlab.match.lockstep import step

    games = [Game(new_state(variant, seats), policy, seed=game_seed(seed, g), game=g, record=False, clock=clock)
             for g in range(n_games)]  # fmt: skip
    active, shots, t0 = games, 0, time.process_time()
    while active:
        step(active)
        shots += len(active)
        active = [g for g in active if g.end is None]
    cpu = time.process_time() - t0
    return {"games": n_games, "shots": shots, "lockstep_shots_per_cpu_s": shots / cpu,
            "shots_per_game": shots / n_games, "lockstep_games_per_cpu_s": n_games / cpu}  # fmt: skip


#: Thinking time a shot of the timed Hikone rows (``MatchClock.think_s``), s: an assumption,
#: not a measurement (docs/match.md's example; some 45 shots a 5-minute match).
HIKONE_THINK_S = 6.0


#: Greedy ICF games of the match case's greedy row, played in lockstep to their end.
GREEDY_GAMES = 256


#: Environments stepped together in the vector rows of the env case (one row each; the
#: target is read from the last).
VECTOR_ENVS = (64, 256)


def _engine_batch_cpu_s(played: list) -> float:
    """CPU time of the raw many-scene batch engine (``simulate_batch_arrays(positions=...)``,
    summary arrays, no table) replaying played shots from their positions, one call per shooter's
    side: the engine's share of a lockstep shot."""
    from carromlab.engine import simulate_batch_arrays
    from carromlab.rules.arrays import WHERE, GameArrays
    from carromlab.rules.engine_bridge import FORWARD, full_scene

    by_side: dict[str, list] = {}
    for p in played:
        by_side.setdefault(p.before.seat_sides[p.before.shooter], []).append(p)
    cpu = 0.0
    for side, group in by_side.items():
        before = GameArrays.from_states([p.before for p in group])
        cols = np.array([[p.executed.shot.x, p.executed.shot.y, p.executed.shot.angle, p.executed.shot.speed,
                          p.executed.shot.spin] for p in group])  # fmt: skip
        scene = full_scene(group[0].before)
        t0 = time.process_time()
        simulate_batch_arrays(scene, *cols.T, positions=before.xy, on_board=before.where == WHERE.index("board"),
                              workers=1, forward=FORWARD[side], carriers=(scene.striker,))  # fmt: skip
        cpu += time.process_time() - t0
    return cpu


def case_env_steps(ctx: Ctx) -> dict:
    """Gymnasium ICF environment steps per CPU-second (random opponent at club skill,
    uniform random actions, resets included), and shots per step: the single
    environment (``carromlab/ICF-v0``) and the vector environment (64 and 256 games in
    lockstep, :data:`VECTOR_ENVS`, ``gymnasium.make_vec``; the target reads the 256),
    each beside the raw engine's CPU time for the same kind of shots (a game's worth of
    random shots replayed one ``simulate`` call each, and as one many-scene batch per
    side). Every row times the steps after the opening one (every game's break, about
    one step in 480 of a random ICF game, timed on its own; later games' openings come at
    their natural rate): a few steps from the reset would weigh the breaks dozens of
    times more than a training run does."""
    import gymnasium

    import carromlab.envs  # noqa: F401  (registers the ids)

    env = gymnasium.make("carromlab/ICF-v0", opponent="random", skill="club").unwrapped
    rng = np.random.default_rng(ctx.seed)
    n_steps = ctx.pick(60, 3000)
    env.reset(seed=ctx.seed)
    t0 = time.process_time()  # the opening step (the break), timed on its own as in the vector rows
    env.step(rng.uniform(-1, 1, 4).astype(np.float32))
    opening = time.process_time() - t0
    played: list = []
    shots = 0
    t0 = time.process_time()
    for _ in range(n_steps):
        before = env.game.n_shots
        *_, terminated, truncated, info = env.step(rng.uniform(-1, 1, 4).astype(np.float32))
        shots += env.game.n_shots - before
        if terminated or truncated:
            env.reset()
    cpu = time.process_time() - t0
    vector = {}
    for n_envs in VECTOR_ENVS:
        envs = gymnasium.make_vec("carromlab/ICF-v0", num_envs=n_envs, opponent="random", skill="club")
        envs.reset(seed=ctx.seed)
        t0 = time.process_time()  # the opening step: every game's break (about 1 step in 480)
        envs.step(rng.uniform(-1, 1, (n_envs, 4)).astype(np.float32))
        opening = time.process_time() - t0
        n_vec = ctx.pick(40, 200)
        vec_shots = 0
        t0 = time.process_time()
        for _ in range(n_vec):
            *_, info = envs.step(rng.uniform(-1, 1, (n_envs, 4)).astype(np.float32))
            vec_shots += int(info["shots"].sum())
        vec_cpu = time.process_time() - t0
        vector |= {f"vector_{n_envs}_steps": n_vec * n_envs, f"vector_{n_envs}_steps_per_cpu_second": n_vec * n_envs / vec_cpu,
                   f"vector_{n_envs}_shots_per_step": vec_shots / (n_vec * n_envs),
                   f"vector_{n_envs}_opening_steps_per_cpu_second": n_envs / opening}  # fmt: skip
    # the engine's share: replay a game's worth of the same kind of shots
    from carromlab.match import Game, RandomPolicy, new_state

    game = Game(new_state("icf"), RandomPolicy(), seed=ctx.seed, record=False)
    while game.end is None and len(played) < max(shots, 200):
        played.append(game.shoot())
    engine = _engine_cpu_s(played)
    batch = _engine_batch_cpu_s(played)
    vec_per_step = vector[f"vector_{VECTOR_ENVS[-1]}_shots_per_step"]
    return {"steps": n_steps, "steps_per_cpu_second": n_steps / cpu, "shots_per_step": shots / n_steps,
            "opening_step_cpu_s": opening,
            "engine_shots_per_cpu_s": len(played) / engine,
            "engine_steps_per_cpu_s": len(played) / engine / (shots / n_steps), **vector,
            "batch_engine_shots_per_cpu_s": len(played) / batch,
            "batch_engine_steps_per_cpu_s": len(played) / batch / vec_per_step}  # fmt: skip


#: name -> function(ctx) -> dict of figures.
COST_N = (2, 10, 19, 40, 63)  # coins per scene in cost_per_event


def _scattered(rng: np.random.Generator, board: Board, kinds: Sequence[str]) -> pd.DataFrame:
    """Pieces of ``kinds`` (coin radius) placed uniformly without overlap (and clear of the
    pockets) in the part of ``board`` beyond the south striker area: kind, x, y (m)."""
    h, r = board.size / 2, 0.0155
    pts: list[tuple[float, float]] = []
    while len(pts) < len(kinds):
        x, y = rng.uniform(-h + r, h - r), rng.uniform(-h + 0.17, h - r)
        if all(math.hypot(x - p.x, y - p.y) > 0.05 for p in board.holes) and all(
            math.hypot(x - u, y - v) > 2 * r + 1e-5 for u, v in pts
        ):
            pts.append((x, y))
    return pd.DataFrame({"kind": list(kinds), "x": [p[0] for p in pts], "y": [p[1] for p in pts]})


def _random_coins(rng: np.random.Generator, board: Board, n: int) -> Scene:
    """n white/black coins scattered over ``board`` (``_scattered``)."""
    return Scene.from_frame(board, _scattered(rng, board, ["white" if k % 2 else "black" for k in range(n)]))


def case_cost_per_event(ctx: Ctx) -> dict:
    """Engine CPU time per event against the number of coins: random non-overlapping
    scenes of n coins on the ICF board, each hit by many striker shots from the baseline
    (x uniform in +-0.2 m, angle uniform in 20..160 deg, 4-9 m/s), default physics, one
    thread. ns per event = CPU time of the simulate_batch calls / total events. The sizes
    take turns scene by scene, so that a shared machine's drift of speed falls on all alike."""
    rng = np.random.default_rng(ctx.seed)
    scenes, shots = ctx.pick((3, 1000), (10, 2000))
    out: dict[str, Any] = {"scenes": scenes, "shots_per_scene": shots, "ns_per_event": {}, "events_per_shot": {}}
    cpu, events = dict.fromkeys(COST_N, 0.0), dict.fromkeys(COST_N, 0)
    for _ in range(scenes):
        for n in COST_N:
            scene = _random_coins(rng, ctx.board, n)
            x = rng.uniform(-0.2, 0.2, shots)
            angle = np.radians(rng.uniform(20.0, 160.0, shots))
            speed = rng.uniform(4.0, 9.0, shots)
            t0 = time.process_time()
            df = simulate_batch(scene, x, -0.2526, angle, speed, workers=1)
            cpu[n] += time.process_time() - t0
            events[n] += int(df["n_events"].sum())
    for n in COST_N:
        out["ns_per_event"][str(n)] = 1e9 * cpu[n] / events[n]
        out["events_per_shot"][str(n)] = events[n] / (scenes * shots)
    out["ratio_63_10"] = out["ns_per_event"]["63"] / out["ns_per_event"]["10"]
    return out


CASES: dict[str, Callable[[Ctx], dict]] = {
    "icf_break": case_icf_break,
    "cut_shot": case_cut_shot,
    "batch_cut_shots_per_s": case_batch_cut,
    "batch_memory": case_batch_memory,
    "batch_many_scenes": case_batch_many_scenes,
    "varied_breaks": case_varied_breaks,
    "pooltool_break": case_pooltool_break,
    "friction_laws": case_friction_laws,
    "low_restitution": case_low_restitution,
    "success_map": case_success_map,
    "break_study": case_break_study,
    "break_study_coulomb": case_break_study_coulomb,
    "foul_probabilities": case_foul_probabilities,
    "cost_per_event": case_cost_per_event,
    "match_games": case_match_games,
    "env_steps": case_env_steps,
}

#: name -> (case, key, op, threshold, description)
TARGETS: dict[str, tuple[str, str, str, float, str]] = {
    "icf_break_median_s": ("icf_break", "carromlab_s", "<=", 2e-4, "ICF break <= 0.2 ms median, 1 thread"),
    "cut_shots_per_s_per_core": (
        "batch_cut_shots_per_s", "carromlab", ">=", 1e5, ">= 100,000 single-coin cut shots/s per core (batch)",
    ),
    "speedup_2_workers": ("batch_cut_shots_per_s", "speedup_2_workers", ">=", 1.8, "2-core batch >= 1.8x one core"),
    "mb_per_million_shots": (
        "batch_memory", "mb_per_million", "<=", 500.0, "1M-shot summary well under 1 GB (<= 500 MB)",
    ),
    "many_scenes_vs_one": (
        "batch_many_scenes", "ratio_max", "<=", 1.2, "many-scene batch <= 1.2x the single-scene batch per shot",
    ),
    "success_map_s": (
        "success_map", "projected_full_s", "<=", 10.0, "success map, 1,000,000 shots <= 10 s",
    ),
    "break_study_s": ("break_study", "projected_full_s", "<=", 10.0, "ICF break study, 100,000 shots <= 10 s"),
    "varied_vs_pymunk_c": ("varied_breaks", "ratio_pymunk_c", ">=", 30.0, "varied break >= 30x pymunk C stepping alone"),
    "varied_vs_pymunk_callback": (
        "varied_breaks", "ratio_pymunk_callback", ">=", 1000.0, "varied break >= 1000x pymunk with the callback",
    ),
    "slide_spin_vs_coulomb": ("friction_laws", "slide_spin_ratio", "<=", 1.5, "slide_spin <= 1.5x coulomb per break"),
    "slide_spin_break_s": (
        "varied_breaks", "carromlab_median_cpu_s", "<=", 2e-4, "varied break, default (slide_spin) law, <= 0.2 ms",
    ),
    **{
        f"{law}_vs_coulomb": ("friction_laws", f"{law}_ratio", "<=", 3.0, f"{law} <= 3x coulomb per break")
        for law in ("linear", "stribeck", "coulomb_drag", "slide_spin_drag")
    },
    "cost_per_event_63_vs_10": ("cost_per_event", "ratio_63_10", "<=", 1.5, "ns per event, 63 coins <= 1.5x 10 coins"),
    "env_steps_per_s": (
        "env_steps", f"vector_{VECTOR_ENVS[-1]}_steps_per_cpu_second", ">=", 5000.0,
        f"ICF vector env ({VECTOR_ENVS[-1]} games) >= 10,000 steps/s on 2 cores (5,000 per core)",
    ),
    "lockstep_icf_random_games_per_s": (
        "match_games", "icf_random_lockstep_games_per_cpu_s", ">=", 10.0, "ICF random games >= 20/s on 2 cores (10 per core)",
    ),
    "lockstep_every_variant_random_games_per_s": (
        "match_games", "min_random_lockstep_games_per_cpu_s", ">=", 10.0,
        "random games of every variant and player count >= 20/s on 2 cores (10 per core)",
    ),
    "lockstep_icf_greedy_games_per_s": (
        "match_games", "icf_greedy_lockstep_games_per_cpu_s", ">=", 1.0, "ICF greedy games >= 2/s on 2 cores (1 per core)",
    ),
    "foul_shots_per_s_per_core": (
        "foul_probabilities", "min_rate_per_core", ">=", 1e5, "foul probabilities >= 100,000 shots/s per core, every variant",
    ),
}  # fmt: skip


def machine_info() -> dict:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu_count": os.cpu_count(),
        "cpu_model": cpu or platform.processor(),
        "loadavg_at_start": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "platform": platform.platform(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "pandas": pd.__version__,
        "pymunk": getattr(pymunk, "version", None) if pymunk else None,
        "carromlab": carromlab.__version__,
    }


def evaluate_targets(cases: dict) -> dict:
    out = {}
    for name, (case, key, op, thr, desc) in TARGETS.items():
        if key not in cases.get(case, {}):  # case not run, or its peer unavailable
            continue
        v = cases[case][key]
        met = v <= thr if op == "<=" else v >= thr
        out[name] = {"case": case, "key": key, "value": v, "op": op, "threshold": thr, "met": bool(met), "description": desc}
    return out


def _is_duration(key: str) -> bool:
    """Whether a result key names a duration in seconds (``median_s``), not a rate per
    second (``games_per_cpu_s``)."""
    return key.endswith("_s") and "_per_" not in key


def _fmt_s(s: float) -> str:
    if s < 1e-3:
        return f"{s * 1e6:.1f} us"
    return f"{s * 1e3:.3f} ms" if s < 1 else f"{s:.2f} s"


def print_varied(c: dict) -> None:
    """The varied-break rows: carromlab, the three peers, the friction laws, low restitution."""
    if not any(k in c for k in ("varied_breaks", "pooltool_break", "friction_laws", "low_restitution")):
        return
    v = c.get("varied_breaks", {})
    print(f"\nvaried ICF breaks (Scene.icf_break(); striker x uniform on the legal striker line, +-{VARIED_AIM_DEG:g} deg of"
          f" the pack, {VARIED_SPEED[0]:g}-{VARIED_SPEED[1]:g} m/s, seeded; CPU time per break, median over breaks)")  # fmt: skip
    print(f"{'row':<38}{'per break':>12}{'events':>9}{'events/s/core':>15}{'peer/ours':>11}  notes")

    def row(label: str, t: float, ev: Any, rate: float, ratio: str, note: str) -> None:
        print(f"{label:<38}{_fmt_s(t):>12}{ev:>9}{rate:>15,.0f}{ratio:>11}  {note}")

    if "carromlab" in v:
        a, bt, m = v["carromlab"], v["carromlab_batch"], v["carromlab_matched"]
        row(f"carromlab simulate ({a['friction_law']}, defaults)", a["median_cpu_s"], f"{a['median_events']:.0f}",
            a["events_per_cpu_s"], "", f"{a['breaks']} breaks x {a['passes']} passes; wall {_fmt_s(a['median_s'])}")
        row("carromlab simulate_batch, 1 thread", bt["per_break_cpu_s"], "", bt["events_per_cpu_s"], "",
            f"mean per break over {bt['breaks']} breaks, median of {bt['repeats']}")
        row("carromlab, the peer's physics", m["median_cpu_s"], f"{m['median_events']:.0f}", m["events_per_cpu_s"], "",
            "coulomb, mu_contact = mu_cushion = 0 (what pymunk (a) models)")  # fmt: skip
    if isinstance(v.get("pymunk"), str):
        print(f"{'pymunk (a), (b)':<38}{v['pymunk']}")
    elif "pymunk_callback" in v:
        pa, pb, pp = v["pymunk_callback"], v["pymunk_c_steps"], v["pymunk_params"]
        row("pymunk (a) Coulomb velocity callback", pa["median_cpu_s"], f"{pa['median_steps']:.0f}", pa["steps_per_cpu_s"],
            f"{v['ratio_pymunk_callback']:.0f}x", f"steps; first {pa['breaks']} breaks; mu {pp['mu']}, e {pp['e_disc']} / "
            f"{pp['e_cushion']}; {v['ratio_pymunk_callback_matched']:.0f}x the peer's physics")
        row("pymunk (b) C stepping alone", pb["median_cpu_s"], f"{pa['median_steps']:.0f}", pb["steps_per_cpu_s"],
            f"{v['ratio_pymunk_c']:.1f}x", f"steps; as many as (a) needed, no callback; "
            f"{v['ratio_pymunk_c_matched']:.1f}x the peer's physics")  # fmt: skip
    if "pooltool_break" in c:
        p = c["pooltool_break"]
        if "unavailable" in p:
            print(f"{'pooltool (c) 9-ball break':<38}unavailable: {p['unavailable']}")
        else:
            ratio = f"{p['ratio_events_per_cpu_s']:.0f}x" if "ratio_events_per_cpu_s" in p else ""
            row(f"pooltool {p['pooltool']} (c) own 9-ball break", p["median_cpu_s"], f"{p['events_per_break']:.0f}",
                p["events_per_cpu_s"], ratio, f"a different game; {p['breaks']} breaks; ratio of events/s; "
                f"first call {p['warmup_s']:.1f} s")  # fmt: skip
    if "friction_laws" in c:
        f = c["friction_laws"]
        print(f"\nfriction laws on the varied breaks (PhysicsParams() + the law, max_events {f['max_events']:,}); "
              "simulate: median CPU per call; engine: simulate_batch, 1 thread, mean CPU per break")
        print(f"{'law':<20}{'simulate':>12}{'x coulomb':>11}{'engine':>12}{'x coulomb':>11}{'events':>9}"
              f"{'events/s/core':>15}{'truncated':>11}  breaks x passes")  # fmt: skip
        for label, over in FRICTION_LAWS:
            r = f[label]
            extra = ", ".join(f"{k} {w}" for k, w in over.items() if k != "friction_law")
            print(f"{label:<20}{_fmt_s(r['median_cpu_s']):>12}{r['ratio_to_coulomb']:>10.2f}x"
                  f"{_fmt_s(r['batch']['per_break_cpu_s']):>12}{r['batch_ratio_to_coulomb']:>10.2f}x{r['median_events']:>9.0f}"
                  f"{r['batch']['events_per_cpu_s']:>15,.0f}{r['n_truncated']:>11}  {r['breaks']} x {r['passes']}"
                  + (f"; {extra}" if extra else ""))  # fmt: skip
    if "low_restitution" in c:
        r = c["low_restitution"]
        print(f"{'e_disc = ' + format(r['e_disc'], 'g'):<20}{_fmt_s(r['median_cpu_s']):>12}{r['ratio_to_e09']:>10.2f}x"
              f"{'':>23}{r['median_events']:>9.0f}{r['events_per_cpu_s']:>15,.0f}{r['n_truncated']:>11}  {r['breaks']} x "
              f"{r['passes']}; {r['friction_law']}; max {r['max_events_seen']:,} events; ratio to e_disc 0.9 "
              f"({r['e09_median_events']:.0f} events)")  # fmt: skip


def print_report(res: dict) -> None:
    c = res["cases"]
    la = res["machine"]["loadavg_at_start"]
    load = f"; load average at start {la[0]:.2f} on {res['machine']['cpu_count']} CPUs" if la else ""
    if any(k in c for k in ("icf_break", "cut_shot", "batch_cut_shots_per_s", "batch_memory")):
        print("\ncarromlab vs pymunk (same board, discs, mu = 0.2, e = 0.9 / 0.8)" + load)
        print(f"{'case':<24}{'carromlab':>16}{'pymunk':>16}{'ratio':>10}  notes")
    else:
        print(load.removeprefix("; "))
    if "icf_break" in c:
        b = c["icf_break"]
        print(
            f"{'icf_break (median)':<24}{_fmt_s(b['carromlab_s']):>16}{_fmt_s(b['pymunk_s']):>16}{b['ratio']:>9.0f}x"
            f"  {b['carromlab_events']} events vs {b['pymunk_steps']} steps; engine-only "
            f"{_fmt_s(b['carromlab_batch_s_per_shot'])}; pocketed {b['n_pocketed_carromlab']} vs {b['n_pocketed_pymunk']}"
        )
    if "cut_shot" in c:
        s = c["cut_shot"]
        print(
            f"{'cut_shot (median)':<24}{_fmt_s(s['carromlab_s']):>16}{_fmt_s(s['pymunk_s']):>16}{s['ratio']:>9.0f}x"
            f"  {s['carromlab_events']} events vs {s['pymunk_steps']} steps; cut {s['cut_deg']:.1f} deg, "
            f"{s['speed']:.3f} m/s; engine-only {_fmt_s(s['carromlab_batch_s_per_shot'])}"
        )
        ok = "AGREE" if s["outcome_agrees"] else "DISAGREE"
        print(
            f"{'':<24}outcome check: coin -> {s['coin_pocketed_carromlab'] or 'board'} (carromlab) / "
            f"{s['coin_pocketed_pymunk'] or 'board'} (pymunk); striker {s['carromlab_striker']} / "
            f"{s['pymunk_striker']}: {ok}"
        )
    if "batch_cut_shots_per_s" in c:
        t = c["batch_cut_shots_per_s"]
        print(
            f"{'cut shots/s (1 thread)':<24}{t['carromlab']:>16,.0f}{t['pymunk']:>16,.1f}{t['ratio']:>9.0f}x"
            f"  N = {t['n_shots']:,} (pymunk {t['n_pymunk_shots']}), angle +-{t['jitter_deg']} deg; "
            f"{t['carromlab_per_cpu_s']:,.0f} per CPU-second"
        )
        print(
            f"{'cut shots/s (2 threads)':<24}{t['carromlab_2_workers']:>16,.0f}{'':>16}{'':>10}"
            f"  speedup {t['speedup_2_workers']:.2f}x"
        )
        print(
            f"{'':<24}pocket rate on the same {t['n_pymunk_shots']} shots: carromlab "
            f"{t['carromlab_pocket_rate_same_shots']:.0%}, pymunk {t['pymunk_pocket_rate_same_shots']:.0%}, "
            f"shot-by-shot agreement {t['outcome_agreement_same_shots']:.0%}"
        )
    if "batch_memory" in c:
        m = c["batch_memory"]
        print(f"{'summary memory':<24}{m['bytes_per_shot']:>12.1f} B/shot -> {m['mb_per_million']:.1f} MB per 1M shots")
    if "batch_many_scenes" in c:
        ms = c["batch_many_scenes"]
        for label in ("cut", "break"):
            r = ms[label]
            print(f"{'many scenes, ' + label + 's':<24}{_fmt_s(r['many_cpu_s_per_shot']):>16}{'':>16}{'':>10}"
                  f"  CPU per shot, 1 thread, N = {r['n_shots']:,} rows of positions; "
                  f"{r['ratio']:.3f}x the single-scene batch ({_fmt_s(r['single_cpu_s_per_shot'])})")  # fmt: skip
    print_varied(c)
    analyses = [name for name in ("success_map", "break_study", "break_study_coulomb", "foul_probabilities") if name in c]
    if analyses:
        print("\nanalyses (carromlab only, default physics, all local cores); * scaled down: the full-size"
              " time is projected from the measured rate")
        print(f"{'case':<24}{'shots':>12}{'time':>12}{'shots/s':>12}{'full size':>12}{'full time':>12}  notes")
        for name in analyses:
            a = c[name]
            if name == "success_map":
                note = f"{a['replicas']} replicas; mean p(success) {a['mean_p_success']:.3f}"
            elif name == "foul_probabilities":
                note = "4 variants, 1 core, CPU time; p(any foul) " + ", ".join(f"{v} {p:.3f}" for v, p in a["p_any_foul"].items())
            else:
                note = f"{a['friction_law']}; {a['mean_events']:.0f} events/shot; {a['mean_pocketed_white']:.2f} whites/break"
                if a["n_truncated"]:
                    note += f"; {a['n_truncated']} truncated"
                if a.get("default_time_ratio"):
                    note += f"; the default law takes {a['default_time_ratio']:.2f}x its time per shot"
            label = name + ("*" if a["scaled_down"] else "")
            print(f"{label:<24}{a['shots']:>12,}{_fmt_s(a['seconds']):>12}{a['shots_per_s']:>12,.0f}"
                  f"{a['full_shots']:>12,}{_fmt_s(a['projected_full_s']):>12}  {note}")
    if "foul_probabilities" in c:
        print("\nfoul probabilities by variant (1 core, CPU time), beside the raw engine on the same shots")
        print(f"{'variant':<24}{'shots/s':>12}{'engine/s':>12}{'engine %':>10}{'events/shot':>13}")
        rows = list(c["foul_probabilities"]["by_variant"].items()) + [
            (f"icf, {k} scattered*", f) for k, f in c["foul_probabilities"]["icf_scattered"].items()
        ]
        for v, f in rows:
            print(f"{v:<24}{f['shots_per_cpu_s']:>12,.0f}{f['engine_shots_per_cpu_s']:>12,.0f}{100 * f['engine_share']:>9.0f}%"
                  f"{f['events_per_shot']:>13.1f}")  # fmt: skip
        print("* context, no target: the queen and coins scattered over the board instead of the pack")
    if "cost_per_event" in c:
        e = c["cost_per_event"]
        print("\ncost per event (1 thread, CPU time): " + ", ".join(
            f"{n} coins {ns:.0f} ns ({e['events_per_shot'][n]:.0f} events/shot)" for n, ns in e["ns_per_event"].items()
        ) + f"; 63/10 = {e['ratio_63_10']:.2f}")
    if "match_games" in c:
        mg = c["match_games"]
        print(f"\nwhole games, random policy, 1 process (CPU time; budget {mg['shot_budget']:,} shots per variant)")
        print(f"{'variant':<24}{'games/s':>12}{'shots/s':>12}{'shots/game':>12}{'engine shots/s':>16}  engine share")
        for variant, seats in MATCH_VARIANTS:
            r = mg[f"{variant}_{seats}"]
            print(f"{variant + f' ({seats} seats)':<24}{r['games_per_cpu_s']:>12.3f}{r['shots_per_cpu_s']:>12,.0f}"
                  f"{r['shots_per_game']:>12,.0f}{r['engine_shots_per_cpu_s']:>16,.0f}  {r['engine_share']:.1%}"
                  f" ({r['complete_games']} complete games)")  # fmt: skip
        print(f"in lockstep ({LOCKSTEP_GAMES} whole games, each to its end)")
        for key in [f"{v}_{n}" for v, n in MATCH_VARIANTS] + ["hikone_2_timed", "hikone_4_timed", "icf_2_greedy"]:
            r = mg[key]
            print(f"{key:<24}{r['lockstep_games_per_cpu_s']:>12.3f}{r['lockstep_shots_per_cpu_s']:>12,.0f}"
                  + (f"{r['lockstep_shots_per_game']:>12,.0f}" if "lockstep_shots_per_game" in r
                     else f"{r['shots_per_game']:>12,.0f}  ({r['games']} whole games"
                     + (f", clock {HIKONE_THINK_S:g} s a shot)" if key.endswith("timed") else ")")))
    if "env_steps" in c:
        ev = c["env_steps"]
        print(f"\nICF gymnasium env: {ev['steps_per_cpu_second']:,.0f} steps per CPU-second "
              f"({ev['shots_per_step']:.2f} shots per step; the opening step {1e3 * ev['opening_step_cpu_s']:.1f} ms; "
              "the raw engine alone would allow "
              f"{ev['engine_steps_per_cpu_s']:,.0f} steps, {ev['engine_shots_per_cpu_s']:,.0f} shots per CPU-second)")
        for n in VECTOR_ENVS:
            print(f"ICF vector env ({n} games in lockstep): {ev[f'vector_{n}_steps_per_cpu_second']:,.0f} steps per "
                  f"CPU-second ({ev[f'vector_{n}_shots_per_step']:.2f} shots per step; the opening step "
                  f"{ev[f'vector_{n}_opening_steps_per_cpu_second']:,.0f})")
        print(f"  the raw many-scene batch engine alone would allow {ev['batch_engine_steps_per_cpu_s']:,.0f} steps, "
              f"{ev['batch_engine_shots_per_cpu_s']:,.0f} shots per CPU-second")  # fmt: skip
    if res["targets"]:
        print("\ntargets")
        for t in res["targets"].values():
            v = t["value"]
            vs = _fmt_s(v) if _is_duration(t["key"]) else f"{v:,.2f}"
            print(f"  [{'MET' if t['met'] else 'MISSED':>6}] {t['description']:<52} measured {vs}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", type=Path, help="write the results as one JSON object to this file")
    ap.add_argument("--quick", action="store_true", help="short run (a few minutes)")
    ap.add_argument("--cases", default=",".join(CASES), help=f"comma-separated subset of {list(CASES)}")
    ap.add_argument("--batch-n", type=int, default=None, help="shots in the batch cases (default 200,000 quick, 1,000,000 full)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument(
        "--peer-elasticity", action="store_true",
        help="give pymunk shapes the peer script's literal elasticities (0.9, 0.8; Chipmunk multiplies them: effective 0.81, 0.72)",
    )  # fmt: skip
    ap.add_argument(
        "--pooltool-python", default=os.environ.get("CARROMLAB_POOLTOOL_PYTHON", sys.executable),
        help="Python interpreter with pooltool-billiards 0.6 installed (default $CARROMLAB_POOLTOOL_PYTHON, else this one)",
    )  # fmt: skip
    args = ap.parse_args(argv)
    names = [n.strip() for n in args.cases.split(",") if n.strip()]
    unknown = [n for n in names if n not in CASES]
    if unknown:
        ap.error(f"unknown case(s) {unknown}; known: {list(CASES)}")
    ctx = Ctx(
        quick=args.quick, seed=args.seed, literal_elasticity=args.peer_elasticity, pooltool_python=args.pooltool_python,
        batch_n=args.batch_n or (200_000 if args.quick else 1_000_000),
    )  # fmt: skip
    res: dict[str, Any] = {"cases": {}, "machine": machine_info()}
    t_all = time.perf_counter()
    for name in names:
        t0 = time.perf_counter()
        res["cases"][name] = CASES[name](ctx)
        res["cases"][name]["wall_s"] = time.perf_counter() - t0
        print(f"  {name}: {res['cases'][name]['wall_s']:.1f} s", file=sys.stderr, flush=True)
    res["machine"]["loadavg_at_end"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    res["targets"] = evaluate_targets(res["cases"])
    res["settings"] = {
        "quick": args.quick, "seed": args.seed, "batch_n": ctx.batch_n, "mu": MU, "g": G,
        "e_disc": E_DISC, "e_cushion": E_CUSHION, "coin": [RC, MC], "striker": [RS, MS],
        "pymunk_dt": DT, "pymunk_iterations": ITERATIONS,
        "pymunk_shape_elasticity": [ctx.pm.e_shape_disc, ctx.pm.e_shape_cushion] if pymunk else None,
        "carromlab_params": {k: v for k, v in ctx.params.to_dict().items() if not (isinstance(v, float) and math.isinf(v))},
        "total_wall_s": time.perf_counter() - t_all,
    }  # fmt: skip
    print_report(res)
    sys.stdout.flush()
    print(f"\ntotal {res['settings']['total_wall_s']:.1f} s", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(res, indent=2, default=float) + "\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
