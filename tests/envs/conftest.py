"""The environment tests share the suite's replayable seed (CARROMLAB_TEST_SEED)."""

from ..conftest import SEED

__all__ = ["SEED"]
