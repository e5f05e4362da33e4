"""Every shot adjudicated in the rules tests is also adjudicated on arrays
(:func:`carromlab.rules.arrays.adjudicate_arrays`), which must agree exactly."""

from __future__ import annotations

import pytest

from carromlab.rules import VARIANTS
from carromlab.rules.arrays import _ADJUDICATORS

from .rules_testkit import assert_arrays_agree


@pytest.fixture(autouse=True)
def _arrays_agree_on_every_scenario(monkeypatch):
    for name, module in VARIANTS.items():
        if name not in _ADJUDICATORS:
            continue
        reference = module.adjudicate

        def checked(state, outcome, _reference=reference):
            ruling = _reference(state, outcome)  # an outcome the rules reject raises here
            assert_arrays_agree([state], [outcome], rulings=[ruling])
            return ruling

        monkeypatch.setattr(module, "adjudicate", checked)
    yield
