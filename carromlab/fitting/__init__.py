"""Fitting the physics to filmed shots: friction laws, restitution and saved calibrations.

The workflow (see ``docs/fitting.md``): read tracks (:func:`read_tracks`,
:meth:`Tracks.from_frame`) with a camera calibration (:class:`BoardCalibration`); split
them into free-sliding segments at impacts (:func:`segment_tracks`); fit a friction law
(:func:`fit_friction`) or compare several (:func:`compare_laws`); fit restitution and
contact friction from the impacts (:func:`fit_restitution`); save the result as a named
calibration (:func:`save_calibration`, :func:`load_calibration`). Synthetic tracks with a
documented camera-noise model come from :func:`make_synthetic_tracks` (the true orientations
of a shot's discs from :func:`true_angles`); random shots to film from
:func:`random_cut_shot`, under :data:`EXAMPLE_PARAMS`.
"""

from pathlib import Path

from .calibration_io import (
    Calibration,
    calibration_names,
    load_calibration,
    read_calibration,
    register_calibration,
    save_calibration,
)
from ._goodness import FitWarning
from .camera import BoardCalibration
from .compare import LawComparison, compare_laws
from .friction_fit import FITTABLE, FrictionFit, fit_friction
from .restitution_fit import RestitutionFit, fit_restitution
from .segments import Segmentation, breaks_from_events, segment_tracks
from .synthetic import (CAMERA_DEFAULTS, EXAMPLE_ANGLE_NOISE, EXAMPLE_PARAMS, SyntheticTracks, make_synthetic_tracks, random_cut_shot,
                        true_angles)
from .tracks import Tracks, read_tracks, write_tracks

__all__ = [
    "BoardCalibration",
    "CAMERA_DEFAULTS",
    "EXAMPLE_ANGLE_NOISE",
    "EXAMPLE_PARAMS",
    "Calibration",
    "FITTABLE",
    "FitWarning",
    "FrictionFit",
    "LawComparison",
    "RestitutionFit",
    "Segmentation",
    "SyntheticTracks",
    "Tracks",
    "breaks_from_events",
    "calibration_names",
    "compare_laws",
    "data_path",
    "fit_friction",
    "fit_restitution",
    "load_calibration",
    "make_synthetic_tracks",
    "random_cut_shot",
    "read_calibration",
    "read_tracks",
    "register_calibration",
    "save_calibration",
    "segment_tracks",
    "true_angles",
    "write_tracks",
]


def data_path(name: str) -> Path:
    """Path of an example file shipped in the ``data/`` folder of a source checkout.

    Parameters
    ----------
    name : str
        File name, e.g. ``"cushion_shot.csv"``.

    Returns
    -------
    Path

    Examples
    --------
    >>> data_path("README.md").name
    'README.md'
    """
    path = Path(__file__).resolve().parents[2] / "data" / name
    if not path.exists():
        raise FileNotFoundError(f"No example file {name!r} in {path.parent} (the data folder of a source checkout).")
    return path
