"""Shared fixtures: a replayable seeded RNG (set CARROMLAB_TEST_SEED to replay)."""

import os

import numpy as np
import pytest

SEED = int(os.environ.get("CARROMLAB_TEST_SEED", "20261129"))


def pytest_report_header(config):
    return f"carromlab test seed: {SEED} (replay with CARROMLAB_TEST_SEED={SEED})"


@pytest.fixture
def rng() -> np.random.Generator:
    """A seeded generator; the seed is printed in the report header."""
    return np.random.default_rng(SEED)
