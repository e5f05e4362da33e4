"""Analyses over many noisy shots: success maps, margins of error, the most forgiving
shot, break studies and foul probabilities by rule variant, on local cores or a Dask
cluster, streamed to Parquet.

See ``docs/analysis.md`` for a how-to of each analysis.
"""

from .breaks import BreakStudy, BreakWeights, break_study, default_break_grid
from .fouls import ANY_FOUL, FOULS, ShotPopulation, comparable_states, foul_probabilities
from .goals import AvoidFoul, BasicFouls, FoulCheck, Goal, GoalOutcome, PocketAny, PocketPiece, Target
from .grid import AIM_MODES, ShotGrid
from .noise import NOISE_PRESETS, NoiseFit, NoiseModel, fit_noise
from .placement import StrikerLine
from .stats import binomial_ci
from .store import read_store
from .success import margin_of_error, most_forgiving_shots, success_map

__all__ = [
    "AIM_MODES",
    "ANY_FOUL",
    "AvoidFoul",
    "BasicFouls",
    "BreakStudy",
    "BreakWeights",
    "FOULS",
    "FoulCheck",
    "Goal",
    "GoalOutcome",
    "NOISE_PRESETS",
    "NoiseFit",
    "NoiseModel",
    "PocketAny",
    "PocketPiece",
    "ShotGrid",
    "ShotPopulation",
    "StrikerLine",
    "Target",
    "binomial_ci",
    "break_study",
    "comparable_states",
    "default_break_grid",
    "fit_noise",
    "foul_probabilities",
    "margin_of_error",
    "most_forgiving_shots",
    "read_store",
    "success_map",
]
