"""Print the figures behind the slow statistical tests as the table in docs/fitting.md.

    python -m tests.fitting.statistics_report [--workers 2] [--trials N]

Same trials as ``test_statistics.py`` (coverage on seeds 100-199, model selection on seeds
100-149), one process per worker; about 15 minutes on two cores. ``--trials N`` takes the
first N coverage seeds and the first N // 2 model-selection seeds instead (a reduced sample,
stated in the output).
"""

from __future__ import annotations

import argparse
import os
from concurrent.futures import ProcessPoolExecutor

from carromlab.fitting import EXAMPLE_ANGLE_NOISE

from .test_statistics import COVERAGE_SEEDS, LAWS, SELECTION_SEEDS, covered, selected


def _cell(job: tuple[str, str, float | None, int]) -> tuple[tuple[str, str, float | None], object]:
    kind, law, angle_noise, trials = job
    if kind == "coverage":
        return job[:3], covered(law, COVERAGE_SEEDS[:trials], angle_noise=angle_noise)
    return job[:3], selected(law, SELECTION_SEEDS[: trials // 2])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--trials", type=int, default=len(COVERAGE_SEEDS), help="coverage trials per row (default all)")
    args = ap.parse_args()
    n = max(2, min(args.trials, len(COVERAGE_SEEDS)))
    jobs = [("coverage", law, a, n) for law in LAWS for a in (None, EXAMPLE_ANGLE_NOISE)] + [
        ("selection", law, None, n) for law in LAWS
    ]
    with ProcessPoolExecutor(args.workers) as pool:
        results = dict(pool.map(_cell, jobs))

    def rates(law: str, a: float | None) -> str:
        return ", ".join(f"{p} {r:.2f}" for p, r in results[("coverage", law, a)].items())

    cov, sel = COVERAGE_SEEDS[:n], SELECTION_SEEDS[: n // 2]
    print(f"coverage on seeds {cov.start}-{cov.stop - 1} ({len(cov)} trials per row), "
          f"model selection on seeds {sel.start}-{sel.stop - 1} ({len(sel)} trials per law)")  # fmt: skip
    print("| generating law | 95 % interval covers the truth (no angles) | (with angles) | BIC picks the law (with angles) |")
    print("|---|---|---|---|")
    for law in LAWS:
        print(f"| `{law}` | {rates(law, None)} | {rates(law, EXAMPLE_ANGLE_NOISE)} | {results[('selection', law, None)]:.2f} |")


if __name__ == "__main__":
    main()
