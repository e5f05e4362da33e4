"""Statistical properties of the fits on synthetic tracks at the documented noise level.

* Coverage: the 95 % interval of every fitted parameter contains the generating value in
  at least 90 % of seeded trials.
* Model selection: BIC picks the generating law in at least 90 % of seeded trials (tracks
  with angles; without them the slide-spin law cannot be told from Coulomb friction).

The full runs are ``slow``. The unmarked versions use a fixed seed set: 10 coverage trials
must cover at least 8 times (at the nominal 95 % that fails with probability 1.2 %, while a
coverage of 70 % passes with probability 38 %), and the model selection must be right on
every one of 2 seeds per law.
"""

import numpy as np
import pytest

from carromlab.fitting import compare_laws, fit_friction

from .scenarios import ANGLE_NOISE, GENERATING, shot

LAWS = list(GENERATING)
#: Seeds of the full runs: coverage trials and model-selection trials.
COVERAGE_SEEDS, SELECTION_SEEDS = range(100, 200), range(100, 150)


def covered(law: str, seeds, *, angle_noise=None) -> dict[str, float]:
    """Fraction of trials whose 95 % interval contains the generating value, by parameter."""
    hits: dict[str, list[bool]] = {}
    for seed in seeds:
        fit = fit_friction(shot(seed, law, angle_noise=angle_noise).tracks(), law)
        for row in fit.estimates.itertuples(index=False):
            truth = getattr(GENERATING[law], row.parameter)
            hits.setdefault(row.parameter, []).append(bool(row.ci_low <= truth <= row.ci_high))
    return {p: float(np.mean(h)) for p, h in hits.items()}


def selected(law: str, seeds) -> float:
    """Fraction of trials in which BIC picks the generating law."""
    return float(np.mean([compare_laws(shot(s, law, angle_noise=ANGLE_NOISE).tracks()).best == law for s in seeds]))


def test_coverage_sample():
    for parameter, rate in covered("coulomb", range(10)).items():
        assert rate >= 0.8, (parameter, rate)


@pytest.mark.parametrize("law", LAWS)
def test_model_selection_sample(law):
    assert selected(law, range(2)) == 1.0


@pytest.mark.slow
@pytest.mark.parametrize("angle_noise", [None, ANGLE_NOISE])
@pytest.mark.parametrize("law", LAWS)
def test_coverage_full(law, angle_noise):
    for parameter, rate in covered(law, COVERAGE_SEEDS, angle_noise=angle_noise).items():
        assert rate >= 0.9, (parameter, rate)


@pytest.mark.slow
@pytest.mark.parametrize("law", LAWS)
def test_model_selection_full(law):
    assert selected(law, SELECTION_SEEDS) >= 0.9
