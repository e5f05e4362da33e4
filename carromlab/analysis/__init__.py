"""Analyses over many noisy shots: success maps, margins of error, the most forgiving
shot and break studies, on local cores or a Dask cluster, streamed to Parquet.

See ``docs/analysis.md`` for a how-to of each analysis.
"""

from .breaks import BreakStudy, BreakWeights, break_study, default_break_grid
from .goals import AvoidFoul, BasicFouls, FoulCheck, Goal, GoalOutcome, PocketAny, PocketPiece, Target
from .grid import AIM_MODES, ShotGrid
from .noise import NOISE_PRESETS, NoiseFit, NoiseModel, fit_noise
from .placement import StrikerLine
from .stats import binomial_ci
from .store import read_store
from .success import margin_of_error, most_forgiving_shots, success_map

__all__ = [
    "AIM_MODES",
    "AvoidFoul",
    "BasicFouls",
    "BreakStudy",
    "BreakWeights",
    "FoulCheck",
    "Goal",
    "GoalOutcome",
    "NOISE_PRESETS",
    "NoiseFit",
    "NoiseModel",
    "PocketAny",
    "PocketPiece",
    "ShotGrid",
    "StrikerLine",
    "Target",
    "binomial_ci",
    "break_study",
    "default_break_grid",
    "fit_noise",
    "margin_of_error",
    "most_forgiving_shots",
    "read_store",
    "success_map",
]
