"""Compare friction laws fitted to the same tracks by information criteria.

Every law is fitted to the same segments with the same loss, so the log-likelihoods are
of the same observations under comparable error models. The Bayesian information
criterion (BIC, G. Schwarz, *Ann. Stat.* 6, 461, 1978, doi:10.1214/aos/1176344136) is the
default criterion: its penalty of log n per parameter grows with the number of residuals,
so a law with extra parameters that the data do not need (``linear`` with mu_v = 0 on
Coulomb data, ``slide_spin`` with no spin) loses to the simpler law it contains, whereas
AIC (H. Akaike, *IEEE Trans. Autom. Control* 19, 716, 1974, doi:10.1109/TAC.1974.1100705)
picks such a law about one time in six.

A law whose parameters the data cannot identify is fitted but marked and not ranked: a law
whose spin couples into sliding (``slide_spin``) on tracks without angles, where the
positions alone cannot tell it from Coulomb friction (its signature is the spin's decay).
The per-law fits run their goodness-of-fit check quietly: a wrong law is expected to fail
it, which the table shows (``suspect``) instead of a warning per law.

Air drag (``air_drag``, about 0.03 1/m for a coin, see ``docs/physics.md``) slows fast discs
more, as a friction that grows with speed does: on tracks made with Coulomb friction and
that drag, laws compared without drag can rank ``linear`` first, with a spurious mu_v.
``air_drag=True`` fits the drag with every law.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._validation import check_bool, check_choice
from ..physics.friction import FRICTION_LAWS, get_law
from ..physics.params import check_params
from ._goodness import FitWarning
from ._kinematics import spin_moves_disc
from .friction_fit import FrictionFit, fit_friction
from .segments import Segmentation, segmentation_of
from .tracks import Tracks

__all__ = ["LawComparison", "compare_laws"]


@dataclass(frozen=True, eq=False)
class LawComparison:
    """Several friction laws fitted to the same tracks.

    Attributes
    ----------
    fits : dict of str to FrictionFit
        The fit of every law, by name.
    criteria : pandas.DataFrame
        One row per law, best first: ``law``, ``n_params`` (law, nuisance and noise),
        ``loglik``, ``aic``, ``bic``, ``delta_aic``, ``delta_bic`` (difference to the best
        identifiable law), ``weight`` (Akaike or Schwarz weight exp(-delta/2), normalised
        over the identifiable laws, of the chosen criterion), ``noise`` (Gaussian-equivalent
        position noise, m), ``success``, ``suspect`` (the fit failed its goodness-of-fit
        check) and ``identifiable`` (False for a law the data cannot tell from a simpler
        one: listed last, with NaN deltas and weight, never :attr:`best`).
    criterion : str
        ``"bic"`` or ``"aic"``, the criterion that orders the table.
    """

    fits: dict[str, FrictionFit]
    criteria: pd.DataFrame
    criterion: str

    @property
    def best(self) -> str:
        """Name of the identifiable law with the smallest criterion."""
        return str(self.criteria["law"].iat[0])

    def __repr__(self) -> str:
        c = self.criteria
        order = ", ".join(f"{r.law} ({getattr(r, 'delta_' + self.criterion):+.1f})" for r in c.itertuples())
        return f"LawComparison(best by {self.criterion.upper()}: {self.best}; {order})"

    def _repr_html_(self) -> str:
        from ..plotting.display import rich_html

        rows = {"best law": self.best, "criterion": self.criterion.upper(), "laws": len(self.fits)}
        cols = ["law", "n_params", "loglik", "aic", "bic", f"delta_{self.criterion}", "weight", "noise", "success"]
        return rich_html("LawComparison", rows, table=self.criteria[cols]) + self.fits[self.best]._repr_html_()

    def table(self) -> pd.DataFrame:
        """The criteria with every law's estimates and standard errors as columns
        (``mu``, ``mu_se``, ``mu_v``, ...; NaN where a law has no such parameter).

        Examples
        --------
        >>> from carromlab.fitting import read_tracks, data_path
        >>> comp = compare_laws(read_tracks(data_path("slide_shot.csv")), ["coulomb", "linear"])
        >>> comp.table()[["law", "mu"]].shape
        (2, 2)
        """
        wide = []
        for law in self.criteria["law"]:
            est = self.fits[law].estimates.set_index("parameter")
            row: dict[str, Any] = {"law": law}
            for name, r in est.iterrows():
                row[str(name)], row[f"{name}_se"] = r["estimate"], r["std_error"]
            wide.append(row)
        return self.criteria.merge(pd.DataFrame(wide), on="law", how="left")


def compare_laws(
    data: Tracks | Segmentation,
    laws: Sequence[str] | None = None,
    *,
    criterion: str = "bic",
    air_drag: bool = False,
    **fit_options: Any,
) -> LawComparison:
    """Fit several friction laws to the same tracks and rank them.

    Parameters
    ----------
    data : Tracks or Segmentation
        The tracks (segmented once with default settings) or a segmentation.
    laws : sequence of str, optional
        Law names. Default: every registered law.
    criterion : {"bic", "aic"}
        Ranking criterion. Default ``"bic"`` (see the module docstring).
    air_drag : bool
        Fit the quadratic air drag ``air_drag`` (1/m) with every law, as
        ``parameters=law.parameters + ("air_drag",)``. Default False (the drag stays at its
        value in ``params``, 0 by default). Filmed shots have some drag, which a law without
        it may mimic (see the module docstring).
    **fit_options
        Passed to :func:`~carromlab.fitting.fit_friction` (``params``, ``loss``, ...;
        not ``parameters``, which differ by law: see ``air_drag``).

    Returns
    -------
    LawComparison

    Raises
    ------
    TypeError
        If ``data`` is neither Tracks nor a Segmentation, or ``laws`` is a string instead
        of a list.
    ValueError
        For an unknown law or criterion, an empty or repeated list of laws, or any error of
        :func:`~carromlab.fitting.fit_friction`.

    Examples
    --------
    >>> from carromlab.fitting import read_tracks, data_path
    >>> comp = compare_laws(read_tracks(data_path("slide_shot.csv")), ["coulomb", "linear"])
    >>> comp.best
    'coulomb'
    """
    seg = segmentation_of(data)
    check_choice("criterion", criterion, ("aic", "bic"))
    if isinstance(laws, str):  # else each letter would be taken for a law name
        raise TypeError(
            f"The 'laws' parameter must be a sequence of friction law names, e.g. {[n.strip() for n in laws.split(',')]}. "
            f"Got the string {laws!r} instead."
        )
    names = list(FRICTION_LAWS) if laws is None else [get_law(n, parameter="laws").name for n in laws]
    if not names or len(set(names)) != len(names):
        raise ValueError(f"The 'laws' parameter must name distinct friction laws. Got {laws!r} instead.")
    if "parameters" in fit_options:
        raise ValueError(
            "The 'parameters' option cannot be passed to compare_laws: each law fits its own parameters "
            "(air_drag=True adds the air drag to every law)."
        )
    air_drag = check_bool("air_drag", air_drag)
    extra = ("air_drag",) if air_drag else ()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitWarning)  # shown as the suspect column
        fits = {n: fit_friction(seg, n, parameters=get_law(n).parameters + extra, **fit_options) for n in names}
    base = check_params(fit_options.get("params"))
    rows = pd.DataFrame(
        {
            "law": names,
            "n_params": [fits[n].n_params for n in names],
            "loglik": [fits[n].loglik for n in names],
            "aic": [fits[n].aic for n in names],
            "bic": [fits[n].bic for n in names],
            "noise": [fits[n].noise["position"] for n in names],
            "success": [fits[n].success for n in names],
            "suspect": [fits[n].suspect for n in names],
            "identifiable": [seg.tracks.has_angle or not spin_moves_disc(get_law(n), base) for n in names],
        }
    )
    if not rows["identifiable"].any():
        raise ValueError(
            f"The 'laws' parameter must include a law these tracks can identify. Got {names!r}: without "
            "angles, positions cannot tell a spin-coupled law from Coulomb friction."
        )
    ok = rows["identifiable"]
    for c in ("aic", "bic"):
        rows[f"delta_{c}"] = (rows[c] - rows.loc[ok, c].min()).where(ok)
    w = np.exp(-0.5 * rows[f"delta_{criterion}"])
    rows["weight"] = w / w.sum()
    rows = rows.sort_values(["identifiable", criterion], ascending=[False, True], kind="stable", ignore_index=True)
    cols = ["law", "n_params", "loglik", "aic", "bic", "delta_aic", "delta_bic", "weight", "noise", "success",
            "suspect", "identifiable"]  # fmt: skip
    return LawComparison(fits, rows[cols], criterion)
