"""Fuzz the engine: random positions and shots on every board under every friction law,
and a count of each invariant broken.

Every shot runs through the compiled engine with its event log (float64 throughout) and is
checked for:

* ``nan``: a non-finite final position, velocity or spin;
* ``overlap``: two discs overlapping by more than 1e-10 m, in the final state or in the
  state just after a disc-disc impact;
* ``energy_rise``: the motion segments starting at one instant (after its impacts) whose
  discs' kinetic energy (translation and spin, I = m r^2 / 2) exceeds their energy at
  their previous segment starts, or at the start (friction only removes energy in
  between), by more than 1e-9 relative plus 1e-12 J;
* ``conservation``: a disc neither on the board, nor in a hole, nor in the ditch, or a disc
  "in a hole" with no hole;
* ``off_board``: a disc at rest on the board that does not lie on it (more than 1e-9 m);
* ``exception``: the engine raised.

Positions: the preset starts (ICF break, Hikone start) and random positions of 0-19 pieces of
the board's kinds, redrawn every ``--per-scene`` shots. Shots: a placement anywhere clear of
the pieces, pegs and holes, any direction, speed log-uniform in [0.05, 12] m/s, spin
uniform in [-300, 300] rad/s (a quarter of the shots without spin).

Usage::

    python benchmarks/fuzz.py --n 1000000            # hours on a shared machine (60-140 shots/s measured)
    python benchmarks/fuzz.py --n 20000 --seed 3     # a quick look
    python benchmarks/fuzz.py --n 500000 --seed 11 --blocks 1234 --examples out/  # one block again
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd

try:  # an installed carromlab, or one on PYTHONPATH
    import carromlab  # noqa: F401
except ImportError:  # else the source checkout this file lives in (built in place)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from carromlab import Board, PhysicsParams, Scene, Shot  # noqa: E402
from carromlab.engine import _core  # noqa: E402
from carromlab.engine.simulate import engine_setup  # noqa: E402
from carromlab.equipment.layout import default_specs  # noqa: E402
from carromlab.physics.friction import FRICTION_LAWS  # noqa: E402

INVARIANTS = ("nan", "overlap", "energy_rise", "conservation", "off_board", "exception")
OVERLAP_TOL = 1e-10
BOARDS = ("icf", "hikone", "crokinole")


def _random_scene(board: Board, rng: np.random.Generator) -> Scene:
    """A random position of 0-19 pieces (rejection sampled), or the board's preset start."""
    if board.name != "crokinole" and rng.random() < 0.2:
        return Scene.icf_break(rng.uniform(-np.pi, np.pi), board=board) if board.name == "icf" else Scene.hikone_start(board=board)
    specs = default_specs(board.name)
    striker = "dark" if board.name == "crokinole" else "striker"
    kinds = [k for k in specs if k != "striker"]
    rows: list[tuple[str, float, float]] = []
    for _ in range(int(rng.integers(0, 20))):
        for _attempt in range(30):
            k = str(rng.choice(kinds))
            x, y = rng.uniform(-board.half_size, board.half_size, 2)
            try:
                Scene(board, pd.DataFrame([*rows, (k, x, y)], columns=["kind", "x", "y"]), specs, striker)
            except ValueError:
                continue
            rows.append((k, x, y))
            break
    return Scene(board, pd.DataFrame(rows, columns=["kind", "x", "y"]), specs, striker)


def _placements(scene: Scene, rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` striker centres clear of the pieces, pegs and holes."""
    h = scene.board.half_size
    out = np.empty((0, 2))
    while len(out) < n:
        xy = rng.uniform(-h, h, (4 * n, 2))
        ok = np.array([_placement_ok(scene, x, y) for x, y in xy])
        out = np.vstack([out, xy[ok]])
    return out[:n]


def _placement_ok(scene: Scene, x: float, y: float) -> bool:
    try:
        scene.check_placement(x, y)
    except ValueError:
        return False
    return True


def _energy(v2: np.ndarray, omega: np.ndarray, mass: np.ndarray, radius: np.ndarray) -> np.ndarray:
    return 0.5 * mass * v2 + 0.25 * mass * radius**2 * omega**2


def check_shot(scene: Scene, v0: np.ndarray, omega0: np.ndarray, raw: dict) -> str | None:
    """The first invariant ``raw`` (one engine result with its log, from initial velocities
    ``v0`` (n, 2) m/s and spins ``omega0`` rad/s) breaks, or None."""
    radius, mass = scene.arrays["radius"], scene.arrays["mass"]
    x, y = raw["x"], raw["y"]
    finals = np.concatenate([x, y, raw["vx"], raw["vy"], raw["omega"]])
    if not np.all(np.isfinite(finals)):
        return "nan"
    status, hole = raw["status"], raw["hole"]
    if not np.all(np.isin(status, (0, 1, 2))) or np.any((status == 1) & (hole < 0)):
        return "conservation"
    on = status == 0
    if on.any():
        inside = scene.board.contains(x[on], y[on], radius[on] - 1e-9)
        if not np.all(inside):
            return "off_board"
        xo, yo, ro = x[on], y[on], radius[on]
        gap = np.hypot(xo[:, None] - xo[None, :], yo[:, None] - yo[None, :]) - (ro[:, None] + ro[None, :])
        np.fill_diagonal(gap, np.inf)
        if gap.min() < -OVERLAP_TOL:
            return "overlap"
    ev_f, ev_i = raw["ev_f"], raw["ev_i"]
    pair = ev_i[:, 0] == 6
    if pair.any():
        a, b = ev_i[pair, 1], ev_i[pair, 2]
        d = np.hypot(ev_f[pair, 2] - ev_f[pair, 7], ev_f[pair, 3] - ev_f[pair, 8]) - (radius[a] + radius[b])
        if d.min() < -OVERLAP_TOL:
            return "overlap"
    # energy: the motion segments that start at one instant (after its impacts; a cluster
    # resolved at once logs intermediate states in its event rows, the segments are final)
    # against the energy their discs had at their previous segment starts, or at the start:
    # friction only removes energy in between
    order = np.argsort(raw["seg_f"][:, 0], kind="stable")  # by time; each disc's segments stay in order
    seg_f, disc = raw["seg_f"][order], raw["seg_i"][order, 0]
    energy = _energy(seg_f[:, 3] ** 2 + seg_f[:, 4] ** 2, seg_f[:, 5], mass[disc], radius[disc])
    e_last = _energy(v0[:, 0] ** 2 + v0[:, 1] ** 2, omega0, mass, radius)
    t0 = seg_f[:, 0]
    for group in np.split(np.arange(len(t0)), np.flatnonzero(np.diff(t0) > 0) + 1):
        after = dict(zip(disc[group].tolist(), energy[group].tolist()))  # a disc's last segment of the instant
        discs = list(after)
        if sum(after.values()) > float(e_last[discs].sum()) * (1 + 1e-9) + 1e-12:
            return "energy_rise"
        e_last[discs] = list(after.values())
    return None


def run(n: int, seed: int, per_scene: int, progress: bool = True,
        blocks: set[int] | None = None, save: Path | None = None,
        air_drag: float = 0.0) -> tuple[Counter, Counter, float, list]:
    """Fuzz ``n`` shots in blocks of ``per_scene`` (one position, law and mu each, and the
    quadratic drag ``air_drag`` (1/m) on every law: the random stream does not depend on it), simulating
    only the blocks in ``blocks`` if given (the others are drawn and skipped, so a block's
    shots do not depend on which blocks run), and saving each breaking shot in ``save``
    when found; returns (broken invariants, shots per board/law, seconds, every breaking
    shot as (invariant, block, index in block, scene, params, shot))."""
    rng = np.random.default_rng(seed)
    broken: Counter = Counter()
    examples: list[tuple[str, int, int, Scene, PhysicsParams, Shot]] = []
    played: Counter = Counter()
    combos = list(itertools.product(BOARDS, FRICTION_LAWS))
    boards = {name: Board.preset(name) for name in BOARDS}
    started = time.perf_counter()
    drawn = 0
    for block in itertools.count():
        if drawn >= n:
            break
        name, law = combos[block % len(combos)]
        scene = _random_scene(boards[name], rng)
        params = PhysicsParams(friction_law=law, mu=float(rng.uniform(0.05, 0.4)), air_drag=air_drag)
        m = min(per_scene, n - drawn)
        place = _placements(scene, rng, m)
        angle = rng.uniform(-np.pi, np.pi, m)
        speed = np.exp(rng.uniform(np.log(0.05), np.log(12.0), m))
        spin = np.where(rng.random(m) < 0.25, 0.0, rng.uniform(-300.0, 300.0, m))
        drawn += m
        if blocks is not None and block not in blocks:
            continue
        setup = engine_setup(scene, params)
        for j in range(m):
            vel = np.zeros((scene.n_pieces + 1, 2))
            vel[-1] = speed[j] * np.cos(angle[j]), speed[j] * np.sin(angle[j])
            omega = np.zeros(scene.n_pieces + 1)
            omega[-1] = spin[j]
            try:
                raw = _core.simulate_one(setup, scene.arrays["xy"], *place[j], angle[j], speed[j], spin[j], True)
                bad = check_shot(scene, vel, omega, raw)
            except Exception:  # noqa: BLE001 - counting every failure is the point
                bad = "exception"
            if bad:
                broken[bad] += 1
                shot = Shot(*place[j], float(angle[j]), float(speed[j]), float(spin[j]))
                examples.append((bad, block, j, scene, params, shot))
                if save is not None:
                    _save(save / f"{bad}-b{block}-s{j}", scene, params, shot)
                if progress:
                    print(f"  {bad}: block {block} shot {j} ({name}, {law}): {shot!r}", file=sys.stderr, flush=True)
        played[(name, law)] += m
        if progress and block % 50 == 0:
            rate = sum(played.values()) / (time.perf_counter() - started)
            print(f"  {drawn:,} shots drawn, {rate:,.0f} shots/s, broken {dict(broken) or 'none'}", file=sys.stderr, flush=True)
    return broken, played, time.perf_counter() - started, examples


def _save(stem: Path, scene: Scene, params: PhysicsParams, shot: Shot) -> None:
    """Write a breaking shot: ``stem.json`` (Scene.save) and ``stem.txt`` (shot, params)."""
    scene.save(stem.with_suffix(".json"))
    stem.with_suffix(".txt").write_text(f"{shot!r}\n{params!r}\n")


def _parse_blocks(text: str) -> set[int]:
    """Block numbers from ``"3,7-9"``."""
    out: set[int] = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=1_000_000, help="shots (default 1,000,000)")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("--per-scene", type=int, default=200, help="shots per random position (default 200)")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.add_argument("--air-drag", type=float, default=0.0, metavar="K",
                   help="quadratic air drag (1/m) added to every law (default 0; the shots are those of the seed)")
    p.add_argument("--blocks", default=None, metavar="LIST",
                   help="simulate only these blocks of --per-scene shots (as reported for a broken shot), "
                        "e.g. 17,40-45; the others are drawn and skipped")
    p.add_argument("--examples", metavar="DIR", default=None,
                   help="save every shot breaking an invariant as found: DIR/<invariant>-b<block>-s<shot>.json (Scene.save) "
                        "and .txt (shot, params)")  # fmt: skip
    args = p.parse_args(argv)
    blocks = None if args.blocks is None else _parse_blocks(args.blocks)
    out = None if args.examples is None else Path(args.examples)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    broken, played, seconds, examples = run(args.n, args.seed, args.per_scene, not args.quiet, blocks, out, args.air_drag)
    total = sum(played.values())
    print(f"fuzzed {total:,} shots in {seconds:.0f} s ({total / seconds:,.0f} shots/s), seed {args.seed}, air drag {args.air_drag:g} /m")
    for (name, law), k in sorted(played.items()):
        print(f"  {name:10s} {law:11s} {k:>10,} shots")
    print("invariants broken (shots):")
    for inv in INVARIANTS:
        print(f"  {inv:13s} {broken[inv]}")
    if out is not None:
        for inv, block, j, _scene, _params, shot in examples:
            print(f"  {inv}: {out / f'{inv}-b{block}-s{j}'}.json, {shot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
