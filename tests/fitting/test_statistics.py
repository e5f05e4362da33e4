"""Statistical properties of the fits on synthetic tracks at the documented noise level.

* Coverage: the 95 % interval of every fitted parameter contains the generating value in
  at least 90 % of seeded trials.
* Model selection: BIC picks the generating law in at least 90 % of seeded trials (tracks
  with angles; without them the slide-spin law cannot be told from Coulomb friction).

The full runs are ``slow``. The unmarked versions use a fixed seed set: 10 coverage trials
must cover at least 8 times (at the nominal 95 % that fails with probability 1.2 %, while a
coverage of 70 % passes with probability 38 %), and the model selection must be right on
every one of 2 seeds per law.

* Drag: Coulomb friction with air drag (``DRAG``), both fitted. The full run needs a
  coverage of at least 0.93 for mu and air_drag over 200 seeds (at the nominal 0.95 that
  fails with probability 8 %, at 0.90 it passes with probability 9 %, at the 0.79 measured
  before Huber's covariance replaced the residual-by-residual sandwich with probability
  5e-8; measured since the fits leave out points across unresolved impacts: 0.94 for
  air_drag, 0.955 for mu); the sample of 20 seeds needs 0.8 (fails at the nominal 0.95 with probability
  0.3 %) and the standard deviation of the z-scores (estimate minus truth over standard
  error) within 0.6-1.5 (its sampling error at 20 seeds is about 0.16).
"""

import numpy as np
import pytest

from carromlab import PhysicsParams
from carromlab.fitting import EXAMPLE_ANGLE_NOISE, EXAMPLE_PARAMS, compare_laws, fit_friction

from .scenarios import shot

LAWS = list(EXAMPLE_PARAMS)
#: Coulomb friction with air drag, 1/m, the drag tests' generating parameters.
DRAG = PhysicsParams(friction_law="coulomb", mu=0.12, air_drag=0.1)
#: Seeds of the full runs: coverage trials and model-selection trials.
COVERAGE_SEEDS, SELECTION_SEEDS = range(100, 200), range(100, 150)


def covered(law: str, seeds, *, angle_noise=None) -> dict[str, float]:
    """Fraction of trials whose 95 % interval contains the generating value, by parameter."""
    hits: dict[str, list[bool]] = {}
    for seed in seeds:
        fit = fit_friction(shot(seed, law, angle_noise=angle_noise).tracks(), law)
        for row in fit.estimates.itertuples(index=False):
            truth = getattr(EXAMPLE_PARAMS[law], row.parameter)
            hits.setdefault(row.parameter, []).append(bool(row.ci_low <= truth <= row.ci_high))
    return {p: float(np.mean(h)) for p, h in hits.items()}


def drag_z(seeds) -> np.ndarray:
    """Drag fits, shape (seed, parameter, 2): for mu and air_drag the z-score (estimate -
    truth) / std_error and whether the 95 % interval covered the truth (1.0 or 0.0)."""
    out = []
    for seed in seeds:
        fit = fit_friction(shot(seed, "coulomb", params=DRAG).tracks(), "coulomb", parameters=("mu", "air_drag"))
        e = fit.estimates.set_index("parameter")
        truth = np.array([DRAG.mu, DRAG.air_drag])
        z = (e["estimate"].to_numpy() - truth) / e["std_error"].to_numpy()
        hit = (e["ci_low"].to_numpy() <= truth) & (truth <= e["ci_high"].to_numpy())
        out.append(np.c_[z, hit])
    return np.array(out)


def selected(law: str, seeds) -> float:
    """Fraction of trials in which BIC picks the generating law."""
    return float(np.mean([compare_laws(shot(s, law, angle_noise=EXAMPLE_ANGLE_NOISE).tracks()).best == law for s in seeds]))


def test_coverage_sample():
    for parameter, rate in covered("coulomb", range(10)).items():
        assert rate >= 0.8, (parameter, rate)


def test_drag_coverage_sample():
    trials = drag_z(range(20))
    for j, parameter in enumerate(("mu", "air_drag")):
        z, hit = trials[:, j, 0], trials[:, j, 1]
        assert hit.mean() >= 0.8, (parameter, hit.mean())
        assert 0.6 <= np.std(z, ddof=1) <= 1.5, (parameter, np.std(z, ddof=1))


@pytest.mark.slow
def test_drag_coverage_full():
    trials = drag_z(range(200))
    for j, parameter in enumerate(("mu", "air_drag")):
        assert trials[:, j, 1].mean() >= 0.93, (parameter, trials[:, j, 1].mean())


@pytest.mark.parametrize("law", LAWS)
def test_model_selection_sample(law):
    assert selected(law, range(2)) == 1.0


@pytest.mark.slow
@pytest.mark.parametrize("angle_noise", [None, EXAMPLE_ANGLE_NOISE])
@pytest.mark.parametrize("law", LAWS)
def test_coverage_full(law, angle_noise):
    for parameter, rate in covered(law, COVERAGE_SEEDS, angle_noise=angle_noise).items():
        assert rate >= 0.9, (parameter, rate)


@pytest.mark.slow
@pytest.mark.parametrize("law", LAWS)
def test_model_selection_full(law):
    assert selected(law, SELECTION_SEEDS) >= 0.9
