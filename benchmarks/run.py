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

    python benchmarks/run.py --quick --json /tmp/bench.json
    python benchmarks/run.py --json bench.json              # full run, a few minutes

The analysis cases (carromlab only) time the analyses of :mod:`carromlab.analysis` with
the default physics: a success map, break studies and foul probabilities.

Cases live in :data:`CASES` (name -> function(ctx) -> dict) and targets in
:data:`TARGETS`; add a case by writing a function and registering it there.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
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

    def __init__(self, board: Board, literal: bool = False) -> None:
        if pymunk is None:
            raise RuntimeError("pymunk is not installed: pip install 'pymunk>=7'")
        self.h = board.half_size
        self.holes = [(hl.x, hl.y, hl.radius, hl.name) for hl in board.holes]
        self.e_shape_disc = E_DISC if literal else math.sqrt(E_DISC)
        self.e_shape_cushion = E_CUSHION if literal else E_CUSHION / math.sqrt(E_DISC)
        # any body outside this box cannot be within a capture radius of a corner pocket
        self.guard = min(min(abs(x), abs(y)) - r for x, y, r, _ in self.holes) if self.holes else math.inf

    def shot(self, coins: list[tuple[float, float]], sx: float, sy: float, angle: float, speed: float) -> dict:
        space = pymunk.Space()
        space.iterations = ITERATIONS
        h = self.h
        for a, b in (((-h, -h), (h, -h)), ((h, -h), (h, h)), ((h, h), (-h, h)), ((-h, h), (-h, -h))):
            s = pymunk.Segment(space.static_body, a, b, 0.0)
            s.elasticity = self.e_shape_cushion
            s.friction = 0.0
            space.add(s)
        dv = MU * G * DT

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
            b.velocity_func = coulomb
            c = pymunk.Circle(b, r)
            c.elasticity = self.e_shape_disc
            c.friction = 0.0
            space.add(b, c)
            caps = [math.sqrt(max(rh * rh - r * r, 0.0)) for _, _, rh, _ in self.holes]
            live.append([b, c, ident, caps])
            return b

        for i, (x, y) in enumerate(coins):
            add(x, y, RC, MC, i)
        st = add(sx, sy, RS, MS, len(coins))
        st.velocity = (speed * math.cos(angle), speed * math.sin(angle))
        holes, guard = self.holes, self.guard
        pocketed: dict[int, tuple[str, float]] = {}
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
    replicas (100,000 shots; quick: 10 replicas, 10,000 shots), Coulomb friction."""
    out = _break_case(PhysicsParams(), _break_grid(), ctx.pick(10, 100))
    ctx.cache["break_study_rate"] = out["shots_per_s"]
    return out


#: Event budget of the slide-spin break case: a normal break needs about 130 events, but
#: about 3 % of slide-spin breaks of the grid cascade through the default 100,000 events
#: (about 150 s each), which would swamp the timing.
SLIDE_SPIN_MAX_EVENTS = 2000


def case_break_study_slide_spin(ctx: Ctx) -> dict:
    """The break study with the coupled slide-spin friction law, to show its cost: the
    same grid with 1 replica (1,000 shots; quick: 3 placements x 10 aims at 6 m/s, 30
    shots), event budget SLIDE_SPIN_MAX_EVENTS, projected to 100,000 shots; no target."""
    grid = ctx.pick(_break_grid(3, [6.0]), _break_grid())
    out = _break_case(PhysicsParams(friction_law="slide_spin", max_events=SLIDE_SPIN_MAX_EVENTS), grid, 1)
    coulomb = ctx.cache.get("break_study_rate")
    out["slowdown_vs_coulomb"] = coulomb / out["shots_per_s"] if coulomb else None
    out["max_events"] = SLIDE_SPIN_MAX_EVENTS
    return out


def case_foul_probabilities(ctx: Ctx) -> dict:
    """Foul probabilities under ICF and the online rules: the break layout without coins 1,
    2, 9 and 10, a population over the whole baseline, aims +- 57 deg, 1-6 m/s, club noise;
    10,000 shots per variant (quick: 500), scaled down from 100,000 in all: every shot is
    snapped, translated and adjudicated in Python."""
    from carromlab.analysis import ShotPopulation, comparable_states, foul_probabilities

    position = Scene.icf_break().pieces.drop(index=[1, 2, 9, 10])[["kind", "x", "y"]]
    states = comparable_states(position, ("icf", "online"))
    n = ctx.pick(500, 10_000)
    pop = ShotPopulation(angle=(-1.0, 1.0), speed=(1.0, 6.0), n=n, seed=ctx.seed)
    out, df = _analysis_run(lambda: foul_probabilities(states, pop, progress=False), 2 * n, 100_000)
    anyfoul = df[df["rule"] == "any"].set_index("variant")
    out.update(
        per_variant=n, p_any_foul={v: float(p) for v, p in anyfoul["p"].items()},
        p={f"{v} {r}": float(p) for v, r, p in zip(df["variant"], df["rule"], df["p"])},
        snapped={v: int(k) for v, k in anyfoul["n_snapped"].items()},
    )  # fmt: skip
    return out


#: name -> function(ctx) -> dict of figures.
COST_N = (2, 10, 19, 40, 63)  # coins per scene in cost_per_event


def _random_coins(rng: np.random.Generator, board: Board, n: int) -> Scene:
    """n white/black coins placed uniformly without overlap (and clear of the pockets) in
    the part of ``board`` beyond the south striker area."""
    h, r = board.size / 2, 0.0155
    pts: list[tuple[float, float]] = []
    while len(pts) < n:
        x, y = rng.uniform(-h + r, h - r), rng.uniform(-h + 0.17, h - r)
        if all(math.hypot(x - p.x, y - p.y) > 0.05 for p in board.holes) and all(
            math.hypot(x - u, y - v) > 2 * r + 1e-5 for u, v in pts
        ):
            pts.append((x, y))
    kinds = ["white" if k % 2 else "black" for k in range(n)]
    return Scene.from_frame(board, pd.DataFrame({"kind": kinds, "x": [p[0] for p in pts], "y": [p[1] for p in pts]}))


def case_cost_per_event(ctx: Ctx) -> dict:
    """Engine CPU time per event against the number of coins: random non-overlapping
    scenes of n coins on the ICF board, each hit by many striker shots from the baseline
    (x uniform in +-0.2 m, angle uniform in 20..160 deg, 4-9 m/s), default physics, one
    thread. ns per event = CPU time of the simulate_batch calls / total events."""
    rng = np.random.default_rng(ctx.seed)
    scenes, shots = ctx.pick((3, 1000), (10, 2000))
    out: dict[str, Any] = {"scenes": scenes, "shots_per_scene": shots, "ns_per_event": {}, "events_per_shot": {}}
    for n in COST_N:
        cpu, events = 0.0, 0
        for _ in range(scenes):
            scene = _random_coins(rng, ctx.board, n)
            x = rng.uniform(-0.2, 0.2, shots)
            angle = np.radians(rng.uniform(20.0, 160.0, shots))
            speed = rng.uniform(4.0, 9.0, shots)
            t0 = time.process_time()
            df = simulate_batch(scene, x, -0.2526, angle, speed, workers=1)
            cpu += time.process_time() - t0
            events += int(df["n_events"].sum())
        out["ns_per_event"][str(n)] = 1e9 * cpu / events
        out["events_per_shot"][str(n)] = events / (scenes * shots)
    out["ratio_63_10"] = out["ns_per_event"]["63"] / out["ns_per_event"]["10"]
    return out


CASES: dict[str, Callable[[Ctx], dict]] = {
    "icf_break": case_icf_break,
    "cut_shot": case_cut_shot,
    "batch_cut_shots_per_s": case_batch_cut,
    "batch_memory": case_batch_memory,
    "success_map": case_success_map,
    "break_study": case_break_study,
    "break_study_slide_spin": case_break_study_slide_spin,
    "foul_probabilities": case_foul_probabilities,
    "cost_per_event": case_cost_per_event,
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
    "success_map_s": (
        "success_map", "projected_full_s", "<=", 10.0, "success map, 1,000,000 shots <= 10 s",
    ),
    "break_study_s": ("break_study", "projected_full_s", "<=", 10.0, "ICF break study, 100,000 shots <= 10 s"),
    "cost_per_event_63_vs_10": ("cost_per_event", "ratio_63_10", "<=", 1.5, "ns per event, 63 coins <= 1.5x 10 coins"),
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
        if case not in cases:
            continue
        v = cases[case][key]
        met = v <= thr if op == "<=" else v >= thr
        out[name] = {"case": case, "key": key, "value": v, "op": op, "threshold": thr, "met": bool(met), "description": desc}
    return out


def _fmt_s(s: float) -> str:
    if s < 1e-3:
        return f"{s * 1e6:.1f} us"
    return f"{s * 1e3:.3f} ms" if s < 1 else f"{s:.2f} s"


def print_report(res: dict) -> None:
    c = res["cases"]
    la = res["machine"]["loadavg_at_start"]
    print("\ncarromlab vs pymunk (same board, discs, mu = 0.2, e = 0.9 / 0.8)"
          + (f"; load average at start {la[0]:.2f} on {res['machine']['cpu_count']} CPUs" if la else ""))
    print(f"{'case':<24}{'carromlab':>16}{'pymunk':>16}{'ratio':>10}  notes")
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
    analyses = [name for name in ("success_map", "break_study", "break_study_slide_spin", "foul_probabilities") if name in c]
    if analyses:
        print("\nanalyses (carromlab only, default physics, all local cores); * scaled down: the full-size"
              " time is projected from the measured rate")
        print(f"{'case':<24}{'shots':>12}{'time':>12}{'shots/s':>12}{'full size':>12}{'full time':>12}  notes")
        for name in analyses:
            a = c[name]
            if name == "success_map":
                note = f"{a['replicas']} replicas; mean p(success) {a['mean_p_success']:.3f}"
            elif name == "foul_probabilities":
                note = "ICF + online; p(any foul) " + ", ".join(f"{v} {p:.3f}" for v, p in a["p_any_foul"].items())
            else:
                note = f"{a['friction_law']}; {a['mean_events']:.0f} events/shot; {a['mean_pocketed_white']:.2f} whites/break"
                if "max_events" in a:
                    note += f"; {a['n_truncated']} of {a['shots']} hit max_events={a['max_events']:,}"
                if a.get("slowdown_vs_coulomb"):
                    note += f"; {a['slowdown_vs_coulomb']:.0f}x the Coulomb time per shot"
            label = name + ("*" if a["scaled_down"] else "")
            print(f"{label:<24}{a['shots']:>12,}{_fmt_s(a['seconds']):>12}{a['shots_per_s']:>12,.0f}"
                  f"{a['full_shots']:>12,}{_fmt_s(a['projected_full_s']):>12}  {note}")
    if "cost_per_event" in c:
        e = c["cost_per_event"]
        print("\ncost per event (1 thread, CPU time): " + ", ".join(
            f"{n} coins {ns:.0f} ns ({e['events_per_shot'][n]:.0f} events/shot)" for n, ns in e["ns_per_event"].items()
        ) + f"; 63/10 = {e['ratio_63_10']:.2f}")
    if res["targets"]:
        print("\ntargets")
        for t in res["targets"].values():
            v = t["value"]
            vs = _fmt_s(v) if t["key"].endswith("_s") else f"{v:,.2f}"
            print(f"  [{'MET' if t['met'] else 'MISSED':>6}] {t['description']:<52} measured {vs}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", type=Path, help="write the results as one JSON object to this file")
    ap.add_argument("--quick", action="store_true", help="short run (under a minute)")
    ap.add_argument("--cases", default=",".join(CASES), help=f"comma-separated subset of {list(CASES)}")
    ap.add_argument("--batch-n", type=int, default=None, help="shots in the batch cases (default 200,000 quick, 1,000,000 full)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument(
        "--peer-elasticity", action="store_true",
        help="give pymunk shapes the peer script's literal elasticities (0.9, 0.8; Chipmunk multiplies them: effective 0.81, 0.72)",
    )  # fmt: skip
    args = ap.parse_args(argv)
    names = [n.strip() for n in args.cases.split(",") if n.strip()]
    unknown = [n for n in names if n not in CASES]
    if unknown:
        ap.error(f"unknown case(s) {unknown}; known: {list(CASES)}")
    ctx = Ctx(
        quick=args.quick, seed=args.seed, literal_elasticity=args.peer_elasticity,
        batch_n=args.batch_n or (200_000 if args.quick else 1_000_000),
    )  # fmt: skip
    res: dict[str, Any] = {"cases": {}, "machine": machine_info()}
    t_all = time.perf_counter()
    for name in names:
        t0 = time.perf_counter()
        res["cases"][name] = CASES[name](ctx)
        res["cases"][name]["wall_s"] = time.perf_counter() - t0
        print(f"  {name}: {res['cases'][name]['wall_s']:.1f} s", file=sys.stderr, flush=True)
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
