"""Analyses over many noisy shots: success maps, margins of error, the shot planner,
break studies and foul probabilities by rule variant, on local cores or a Dask cluster,
streamed to Parquet; and the aim geometry (ghost-disc aims, cut angles).

See ``docs/analysis.md`` for a how-to of each analysis.
"""

from .aiming import cut_aim, ghost_aim, target_geometry
from .breaks import BreakStudy, BreakWeights, break_study, default_break_grid
from .fouls import ANY_FOUL, FOULS, ShotPopulation, comparable_states, foul_probabilities
from .goals import OPPONENT_FALLS, OPPONENT_KINDS, AvoidFoul, BasicFouls, FoulCheck, Goal, GoalOutcome, PocketAny, PocketPiece, Target
from .grid import AIM_MODES, ShotGrid
from .noise import NOISE_PRESETS, NoiseFit, NoiseModel, fit_noise
from .placement import StrikerLine
from .planner import plan_shots
from .routes import FULL_HIT_DEG, ROUTES, label_shots
from .stats import binomial_ci, clustered_binomial_ci, mean_ci
from .store import read_store
from .success import margin_of_error, success_map

__all__ = [
    "AIM_MODES",
    "ANY_FOUL",
    "AvoidFoul",
    "BasicFouls",
    "BreakStudy",
    "BreakWeights",
    "FOULS",
    "FULL_HIT_DEG",
    "FoulCheck",
    "Goal",
    "GoalOutcome",
    "NOISE_PRESETS",
    "NoiseFit",
    "NoiseModel",
    "OPPONENT_FALLS",
    "OPPONENT_KINDS",
    "PocketAny",
    "PocketPiece",
    "ROUTES",
    "ShotGrid",
    "ShotPopulation",
    "StrikerLine",
    "Target",
    "binomial_ci",
    "clustered_binomial_ci",
    "break_study",
    "comparable_states",
    "cut_aim",
    "default_break_grid",
    "fit_noise",
    "foul_probabilities",
    "ghost_aim",
    "label_shots",
    "margin_of_error",
    "mean_ci",
    "plan_shots",
    "read_store",
    "success_map",
    "target_geometry",
]
