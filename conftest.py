"""Every test and every docstring example of the package (collected with
``--doctest-modules``, see pyproject.toml) draws off-screen and closes the figures it
opens."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")
