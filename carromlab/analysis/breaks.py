"""Break-shot studies: what the opening shot does to the ICF and Hikone starting layouts.

The break is swept over striker placement, aim, speed and spin, each nominal shot
played with execution noise; every noisy shot is kept (pieces pocketed per kind, striker
fouls, spread of the pack), and the breaks are ranked by an expected score whose
weights are a documented, overridable parameter (:class:`BreakWeights`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from .._angles import with_deg_columns
from .._validation import check_int, check_mapping, check_memory, check_real, check_str, check_type
from ..engine.scene import Scene
from ..physics.params import PhysicsParams
from ._random import MAX_REPLICAS
from .execution import Execution, build_execution, check_scene
from .goals import BasicFouls, FoulCheck, check_fouls
from .grid import ShotGrid
from .noise import NoiseModel
from .placement import StrikerLine
from .stats import check_confidence, mean_ci
from .store import sweep_manifest
from .sweep import check_backend, run_sweep

__all__ = ["BreakWeights", "BreakStudy", "break_study", "default_break_grid"]


@dataclass(frozen=True)
class BreakWeights:
    """What a break is worth to the breaker: a value per piece pocketed and per foul.

    score = sum over kinds of ``pieces[kind]`` * (pieces of that kind pocketed)
    + ``foul`` * (1 if the foul check flags the shot), where, on a foul with
    ``void_own_on_foul``, the breaker's own pieces pocketed count zero (they go back),
    and the kinds of ``with_own`` count only on a shot that pockets an own piece and is
    no foul.

    Parameters
    ----------
    own : str
        The breaker's kind (``"white"`` in ICF, ``"red"`` in Hikone).
    pieces : mapping of str to float
        Value of one pocketed piece of each kind, in own-piece units, in [-100, 100];
        kinds left out are worth 0.
    foul : float
        Value of a foul, in [-100, 0]. Default -1.
    void_own_on_foul : bool
        Own pieces pocketed on a foul shot are void. Default True (ICF-11, HIK-7).
    with_own : tuple of str
        Kinds of ``pieces`` that count only on a shot that also pockets an own piece and
        is no foul (0 otherwise): the queen of the online rules, covered on the break by
        the first own coin of the same shot (ONL-2). Default none.

    Examples
    --------
    >>> BreakWeights.icf().pieces
    {'white': 1.0, 'black': -0.5, 'queen': 0.0}
    >>> BreakWeights(own="white", pieces={"white": 1.0}, foul=0.5)
    Traceback (most recent call last):
    ...
    ValueError: The 'foul' parameter must be a finite real number in the range [-100, 0]. Got 0.5 instead.
    """

    own: str
    pieces: Mapping[str, float]
    foul: float = -1.0
    void_own_on_foul: bool = True
    with_own: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_str("own", self.own, what="a piece kind (a non-empty str)")
        check_mapping("pieces", self.pieces, str, object, what="a mapping of kind to value")
        pieces = {str(k): check_real(f"pieces[{k}]", v, low=-100.0, high=100.0) for k, v in self.pieces.items()}
        object.__setattr__(self, "pieces", pieces)
        object.__setattr__(self, "foul", check_real("foul", self.foul, low=-100.0, high=0.0))
        with_own = (self.with_own,) if isinstance(self.with_own, str) else tuple(self.with_own)
        for k in with_own:
            if k not in pieces or k == self.own:
                raise ValueError(
                    f"The 'with_own' parameter must name kinds of 'pieces' other than the own kind {self.own!r}. "
                    f"Got {k!r} instead."
                )
        object.__setattr__(self, "with_own", with_own)

    @classmethod
    def icf(cls) -> BreakWeights:
        """ICF carrom, the breaker playing white [EST weights], as the package's ICF
        rules (:func:`carromlab.rules.adjudicate` of an ``"icf"`` game) rule a break.

        white +1: an own coin, and the turn continues (ICF-4). black -0.5: it counts
        for the opponent (ICF-4), a coin they need not pocket, but it brings them no
        extra turn: half an own coin. queen 0: it goes back to the centre, even with a
        white in the same shot, as the queen may be pocketed only after the shooter has
        pocketed an own coin (ICF-5), which nobody has before the break; alone it also
        passes the turn. foul -1: the striker pocketed costs a penalty coin and the turn,
        and voids the own coins of the shot (ICF-11).
        """
        return cls("white", {"white": 1.0, "black": -0.5, "queen": 0.0}, foul=-1.0)

    @classmethod
    def online(cls) -> BreakWeights:
        """The online rules on the ICF board, the breaker playing white [EST weights], as
        :func:`carromlab.rules.adjudicate` rules an ``"online"`` break.

        white +1, black -0.5 and foul -1 as in :meth:`icf` (ONL-3, ONL-4). queen +0.5,
        only with a white in the same shot and no foul (``with_own``): the queen may
        fall with the first own coin, which covers it (ONL-2); alone, or with the
        striker, it goes back. A covered queen is a job done (no board is won before
        it, ONL-5), but its points go to the board's winner whoever covered it (ONL-6):
        half an own coin [EST]. Pass it to :func:`.break_study` with
        ``weights=BreakWeights.online()``: the ICF board's default is :meth:`icf`.

        Examples
        --------
        >>> shots = pd.DataFrame({"pocketed_white": [1, 0], "pocketed_black": [0, 0], "pocketed_queen": [1, 1],
        ...                       "foul": [False, False]})
        >>> BreakWeights.online().score(shots).tolist()      # the queen alone goes back
        [1.5, 0.0]
        """
        return cls("white", {"white": 1.0, "black": -0.5, "queen": 0.5}, foul=-1.0, with_own=("queen",))

    @classmethod
    def hikone(cls) -> BreakWeights:
        """Hikone carrom, the breaker playing red [EST weights].

        red +1: an own puck, and the turn continues (HIK-3). green -0.5: a "service"
        puck for the opponent (HIK-3), worth less than an own puck as it brings no turn.
        jack -5: pocketed before the own pucks it sends 5 own pucks back (HIK-5).
        foul -1: the striker pocketed returns one own puck and voids the shot's own
        pucks (HIK-7).

        Examples
        --------
        >>> BreakWeights.hikone().pieces["jack"]
        -5.0
        """
        return cls("red", {"red": 1.0, "green": -0.5, "jack": -5.0}, foul=-1.0)

    @classmethod
    def for_scene(cls, scene: Scene) -> BreakWeights:
        """:meth:`icf` or :meth:`hikone` from the scene's board name.

        Examples
        --------
        >>> BreakWeights.for_scene(Scene.hikone_start()).own
        'red'
        """
        presets = {"icf": cls.icf, "hikone": cls.hikone}
        if scene.board.name not in presets:
            raise ValueError(
                f"The 'weights' parameter has no default for a {scene.board.name!r} board (defaults: {sorted(presets)}); "
                "pass BreakWeights(own=..., pieces=...)."
            )
        return presets[scene.board.name]()

    def check(self, scene: Scene) -> None:
        """Raise ValueError if a kind named is not on the scene's board.

        Examples
        --------
        >>> BreakWeights.hikone().check(Scene.icf_break())
        Traceback (most recent call last):
        ...
        ValueError: The 'weights' parameter must name kinds on the board ['black', 'queen', 'white']. Got 'red' instead.
        """
        kinds = sorted(set(scene.pieces["kind"]))
        for k in (self.own, *self.pieces):
            if k not in kinds:
                raise ValueError(f"The 'weights' parameter must name kinds on the board {kinds}. Got {k!r} instead.")

    def score(self, shots: pd.DataFrame) -> np.ndarray:
        """Score of every shot from its ``pocketed_<kind>`` and ``foul`` columns.

        Examples
        --------
        >>> shots = pd.DataFrame({"pocketed_white": [2, 1], "pocketed_black": [1, 0], "pocketed_queen": [0, 0],
        ...                       "foul": [False, True]})
        >>> BreakWeights.icf().score(shots).tolist()         # 2 - 0.5; the foul voids the white
        [1.5, -1.0]
        """
        foul = shots["foul"].to_numpy(dtype=bool)
        total = self.foul * foul.astype(float)
        own_fell = ~foul & (shots[f"pocketed_{self.own}"].to_numpy() > 0) if self.with_own else None
        for kind, value in self.pieces.items():
            n = shots[f"pocketed_{kind}"].to_numpy(dtype=float)
            if kind == self.own and self.void_own_on_foul:
                n = np.where(foul, 0.0, n)
            if kind in self.with_own:
                n = np.where(own_fell, n, 0.0)
            total = total + value * n
        return total


def default_break_grid(scene: Scene) -> ShotGrid:
    """A starting grid for a break study, aimed relative to the pack (``aim="pack"``).

    ICF: 9 placements over the baseline, aim offsets -6..6 degrees in 2-degree steps,
    4, 6 and 8 m/s. Hikone: the tee spot only (the first shot is played from it,
    HIK-2), the same offsets, 3, 5 and 7 m/s (a smaller, lighter set [EST]).

    Examples
    --------
    >>> default_break_grid(Scene.icf_break()).n_cells
    189
    """
    offsets = np.radians(np.arange(-6.0, 6.5, 2.0))
    if scene.board.name == "hikone":
        return ShotGrid(placement=[0.0], angle=offsets, speed=[3.0, 5.0, 7.0], aim="pack")
    h = StrikerLine.for_scene(scene).half_length
    return ShotGrid(placement=np.linspace(-h, h, 9), angle=offsets, speed=[4.0, 6.0, 8.0], aim="pack")


@dataclass(frozen=True, eq=False)
class _BreakTask:
    """Runs the noisy replicas of a block of cells; one row per valid shot."""

    execution: Execution
    fouls: FoulCheck

    def __call__(self, cells: pd.DataFrame, workers: int) -> pd.DataFrame:
        ex = self.execution.run(cells, workers)
        scene, batch = self.execution.scene, ex.batch
        valid = ex.replicas["valid"].to_numpy()
        out = ex.replicas.loc[valid, ["cell", "replica", "x", "y", "angle", "speed", "spin"]].reset_index(drop=True)
        for kind in dict.fromkeys(scene.pieces["kind"]):
            out[f"pocketed_{kind}"] = batch[f"pocketed_{kind}"].to_numpy()
        out["striker_pocketed"] = batch["striker_pocketed"].to_numpy()
        out["no_contact"] = batch["first_contact"].to_numpy() < 0
        out["foul"] = np.asarray(self.fouls(scene, batch), dtype=bool)
        out["spread"] = batch["spread"].to_numpy()
        out["n_events"] = batch["n_events"].to_numpy()
        out["truncated"] = batch["truncated"].to_numpy()
        return out


@dataclass(frozen=True, eq=False)
class BreakStudy:
    """Result of :func:`.break_study`.

    Attributes
    ----------
    scene : Scene
        The starting layout.
    grid : pandas.DataFrame
        The nominal breaks, one row per cell (columns as in :meth:`ShotGrid.cells`).
    shots : pandas.DataFrame
        One row per valid noisy shot: ``cell``, ``replica``; the executed ``x``, ``y``
        (m), ``angle`` (rad) and ``angle_deg``, ``speed`` (m/s), ``spin`` (rad/s); ``pocketed_<kind>``
        (count per piece kind); ``striker_pocketed``, ``no_contact``, ``foul`` (bool);
        ``spread`` (mean distance of the pieces left on the board from the centre, m);
        ``n_events``; ``truncated``; ``score`` (under ``weights``).
    weights : BreakWeights
        The scoring.
    replicas : int
        Noisy replicas per cell.
    confidence : float
        Level of the interval of ``mean_score`` (``score_low``, ``score_high``).
    task : optional
        What played the shots (execution and foul check), for :meth:`replay`.
    """

    scene: Scene
    grid: pd.DataFrame
    shots: pd.DataFrame
    weights: BreakWeights
    replicas: int
    confidence: float = 0.95
    task: _BreakTask | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        b = self.best
        return (
            f"BreakStudy({self.scene.board.name}, {len(self.grid)} breaks x {self.replicas} replicas; best: "
            f"placement {b['placement']:.3f} m, {np.degrees(b['angle']):.1f} deg, {b['speed']:.3g} m/s, "
            f"mean score {b['mean_score']:.3g}, foul {b['p_foul']:.2f})"
        )

    def _repr_html_(self) -> str:
        from ..plotting.display import rich_html, scene_picture

        top = self.ranking(5)
        rows = {"layout": repr(self.scene), "sweep": f"{len(self.grid)} breaks x {self.replicas} replicas",
                "valid shots": len(self.shots), "arrow": "the best break"}  # fmt: skip
        cols = ["rank", "placement", "angle_deg", "speed", "mean_pocketed", "p_foul", "mean_score"]
        return rich_html("BreakStudy: the 5 best breaks", rows, picture=scene_picture(self.scene, top.head(1)),
                         table=top[cols])  # fmt: skip

    @property
    def kinds(self) -> list[str]:
        """Piece kinds of the layout, in order of first appearance."""
        return list(dict.fromkeys(self.scene.pieces["kind"]))

    @cached_property
    def cells(self) -> pd.DataFrame:
        """One row per nominal break: the ``grid`` columns, with ``aim_deg`` and
        ``angle_deg`` after ``aim`` and ``angle`` (rad); ``n_valid``,
        ``n_invalid``; per kind ``mean_<kind>`` (pieces pocketed per shot) and
        ``p_<kind>`` (probability of at least one); ``mean_pocketed``;
        ``p_striker_pocketed``, ``p_no_contact``, ``p_foul``; ``mean_spread`` (m);
        ``mean_score``, ``sem_score``, ``score_low``, ``score_high``; ``n_truncated``.
        Means are NaN in a cell without valid shots.

        ``mean_score`` estimates the expected score of the nominal break under the
        execution noise (over the shots whose placement is valid: a striker that would
        overlap a piece is placed again). The cell's shots are independent draws (each
        replica has its own noise), so ``sem_score`` = s / sqrt(``n_valid``), s the
        standard deviation of their scores (ddof 1), is its standard error, and
        ``score_low``, ``score_high`` is the Student t interval at ``confidence``
        (:func:`.mean_ci`; NaN with fewer than 2 valid shots). Over the skewed, discrete
        scores of ICF and Hikone breaks (resampled) it held the expected score within 0.005
        of 95 % of the time from 50-100 replicas on (100 is the default), but 0.88 of the
        time for a Hikone tee break of 8 replicas, 73 % of whose shots score 0: with few
        replicas a cell whose shots all score alike gets a zero-width interval. The best
        cell of :meth:`ranking` is picked for its luck as well: see :meth:`replay`."""
        s = self.shots
        pocketed = [f"pocketed_{k}" for k in self.kinds]
        agg = s.assign(
            **{f"p_{k}": s[f"pocketed_{k}"] > 0 for k in self.kinds},
            mean_pocketed=s[pocketed].sum(axis=1),
        ).groupby("cell")
        means = agg[[*pocketed, *[f"p_{k}" for k in self.kinds], "mean_pocketed", "striker_pocketed", "no_contact",
                     "foul", "spread", "score"]].mean()  # fmt: skip
        means.columns = [
            *[f"mean_{k}" for k in self.kinds], *[f"p_{k}" for k in self.kinds], "mean_pocketed",
            "p_striker_pocketed", "p_no_contact", "p_foul", "mean_spread", "mean_score",
        ]  # fmt: skip
        means["sem_score"] = agg["score"].std(ddof=1) / np.sqrt(agg.size())
        means["score_low"], means["score_high"] = mean_ci(means["mean_score"], means["sem_score"], agg.size(),
                                                          confidence=self.confidence)  # fmt: skip
        means["n_valid"] = agg.size()
        means["n_truncated"] = agg["truncated"].sum()
        out = with_deg_columns(self.grid.merge(means, left_on="cell", right_index=True, how="left"), ("aim", "angle"))
        out["n_valid"] = out["n_valid"].fillna(0).astype(np.int64)
        out["n_truncated"] = out["n_truncated"].fillna(0).astype(np.int64)
        out.insert(out.columns.get_loc("n_valid") + 1, "n_invalid", self.replicas - out["n_valid"])
        return out

    def ranking(self, top: int | None = None) -> pd.DataFrame:
        """Breaks from best to worst by ``mean_score`` (ties: lower ``p_foul``), with
        a ``rank`` column (1 = best); the ``top`` best if given.

        Examples
        --------
        >>> grid = ShotGrid(placement=[-0.1, 0.1], angle=[0.0], speed=[6.0], aim="pack")
        >>> study = break_study(Scene.icf_break(), grid, replicas=4, progress=False)
        >>> study.ranking()["rank"].tolist()
        [1, 2]
        """
        order = self.cells.sort_values(["mean_score", "p_foul"], ascending=[False, True], kind="stable", na_position="last")
        order = order.reset_index(drop=True)
        order.insert(0, "rank", np.arange(1, len(order) + 1))
        return order if top is None else order.head(check_int("top", top, low=1))

    @property
    def best(self) -> pd.Series:
        """The best break (first row of :meth:`ranking`)."""
        return self.ranking(1).iloc[0]

    def distribution(self) -> pd.DataFrame:
        """Distribution of the number of pieces of each kind pocketed per shot, over all
        shots: ``kind``, ``n_pocketed``, ``shots``, ``probability``.

        Examples
        --------
        >>> grid = ShotGrid(placement=[0.0], angle=[0.0], speed=[6.0], aim="pack")
        >>> d = break_study(Scene.hikone_start(), grid, replicas=4, progress=False).distribution()
        >>> sorted(set(d["kind"])), float(d.groupby("kind")["probability"].sum().min())
        (['green', 'jack', 'red'], 1.0)
        """
        rows = []
        for k in self.kinds:
            counts = self.shots[f"pocketed_{k}"].value_counts().sort_index()
            for n, c in counts.items():
                rows.append({"kind": k, "n_pocketed": int(n), "shots": int(c), "probability": c / len(self.shots)})
        return pd.DataFrame(rows, columns=["kind", "n_pocketed", "shots", "probability"])

    def rescore(self, weights: BreakWeights) -> BreakStudy:
        """The same shots scored with other weights (no new simulation).

        Examples
        --------
        >>> study = break_study(Scene.icf_break(), ShotGrid(placement=[0.0], angle=[0.0], speed=[6.0], aim="pack"),
        ...                     replicas=4, progress=False)
        >>> greedy = BreakWeights(own="white", pieces={"white": 1.0, "black": 1.0, "queen": 1.0}, foul=0.0)
        >>> bool((study.rescore(greedy).shots["score"] >= study.shots["score"]).all())
        True
        """
        check_type("weights", weights, BreakWeights)
        weights.check(self.scene)
        return replace(self, shots=self.shots.assign(score=weights.score(self.shots)), weights=weights)

    def replay(
        self, top: int = 1, *, replicas: int = 1000, confidence: float | None = None, workers: int | None = None,
        progress: bool = True,
    ) -> pd.DataFrame:
        """The ``top`` best breaks of :meth:`ranking` played again with fresh noise.

        The best of many noisy means is biased upwards: the ranking picks the break whose
        replicas happened to be lucky as well as good, so its ``mean_score`` overstates
        what the break is worth (on the default ICF grid, 100 replicas, club noise, by
        0.12, 1.4 standard errors, averaged over 6 seeds). The replay plays the chosen
        breaks with noise streams that played no part in choosing them
        (``Execution.fresh``), scored with the study's weights: an unbiased estimate
        of each.

        Parameters
        ----------
        top : int
            Breaks to replay, the best first, >= 1. Default 1.
        replicas : int
            Fresh noisy shots per break, in [2, 2**21]. Default 1000.
        confidence : float, optional
            Level of the interval of the mean score, in (0, 1). Default the study's
            ``confidence``.
        workers : int, optional
            Local threads. Default all cores.
        progress : bool
            Show a progress bar for replays longer than a second. Default True.

        Returns
        -------
        pandas.DataFrame
            One row per break, best first: ``rank``, ``selection_score`` (the
            ``mean_score`` it was ranked by) and the columns of :attr:`cells` from the
            fresh shots, among them ``mean_score`` with its Student t interval
            ``score_low``, ``score_high``.

        Examples
        --------
        >>> grid = ShotGrid(placement=[-0.1, 0.1], angle=[0.0], speed=[6.0], aim="pack")
        >>> study = break_study(Scene.icf_break(), grid, replicas=4, progress=False)
        >>> again = study.replay(replicas=50)
        >>> again["rank"].tolist(), int(again["n_valid"].iat[0]), bool(again["score_low"].iat[0] < again["score_high"].iat[0])
        ([1], 50, True)
        """
        if self.task is None:
            raise ValueError("The study must hold the task that played its shots (made by break_study) to replay them.")
        ranked = self.ranking(top)
        level = check_confidence(confidence, self.confidence)
        check_int("replicas", replicas, low=2, high=MAX_REPLICAS)
        fresh = replace(self.task, execution=self.task.execution.fresh(replicas))
        cells = ranked[list(self.grid.columns)].reset_index(drop=True)
        shots = run_sweep(
            "break_study:replay", fresh, cells, manifest={}, replicas=replicas, chunk_cells=None, client=None,
            workers=check_backend(None, workers), store=None, progress=progress,
        )  # fmt: skip
        shots = with_deg_columns(shots, ("angle",))
        again = replace(self, grid=cells, shots=shots.assign(score=self.weights.score(shots)), replicas=replicas,
                        confidence=level).cells  # fmt: skip
        again.insert(0, "selection_score", ranked["mean_score"].to_numpy())
        again.insert(0, "rank", ranked["rank"].to_numpy())
        return again


def break_study(
    scene: Scene,
    grid: ShotGrid | None = None,
    *,
    noise: NoiseModel | None = None,
    replicas: int = 100,
    weights: BreakWeights | None = None,
    fouls: FoulCheck | None = None,
    params: PhysicsParams | None = None,
    line: StrikerLine | None = None,
    confidence: float = 0.95,
    seed: int = 0,
    client: Any = None,
    workers: int | None = None,
    store: str | os.PathLike[str] | None = None,
    chunk_cells: int | None = None,
    progress: bool = True,
) -> BreakStudy:
    """Sweep the break over placement, aim, speed and spin with execution noise.

    Parameters
    ----------
    scene : Scene
        The starting layout: ``Scene.icf_break()`` (optionally rotated) or
        ``Scene.hikone_start()``.
    grid : ShotGrid, optional
        Nominal breaks. Default :func:`default_break_grid`.
    noise : NoiseModel, optional
        Execution errors. Default ``NoiseModel.preset("club")``.
    replicas : int
        Noisy shots per nominal break, in [1, 2**21]. Default 100.
    weights : BreakWeights, optional
        Scoring. Default :meth:`BreakWeights.for_scene`.
    fouls : FoulCheck, optional
        Default ``BasicFouls(no_contact=False)``: a pocketed striker is a foul; a break
        that touches nothing is no foul and scores 0, reported as ``no_contact`` (under
        ICF the turn passes: ICF-16 retakes a break only when the striker never left the
        baseline area; the online rules retake it, ONL-9).
    confidence : float
        Level of the interval of each break's mean score (``score_low``,
        ``score_high`` of :attr:`BreakStudy.cells`), in (0, 1). Default 0.95.
    params, line, seed, client, workers, store, chunk_cells, progress
        As in :func:`success_map`. The store holds the per-shot rows without the
        score, so a study can be rescored without simulating again.

    Returns
    -------
    BreakStudy
        ``shots`` (one row per shot), ``cells`` (one row per nominal break),
        ``ranking()``, ``best``, ``distribution()``, ``rescore()``.

    Raises
    ------
    TypeError
        For an argument of the wrong type (the message names the parameter), e.g. a
        name where a ShotGrid, BreakWeights or FoulCheck is wanted.
    ValueError
        For invalid values (the message names the parameter), e.g. weights naming a
        kind that is not on the board; or, before any break is played, if the rows of
        every noisy break (returned at once, about 300 bytes each while they are
        joined) would take more than half this machine's memory.

    Examples
    --------
    >>> grid = ShotGrid(placement=[0.0], angle=[0.0], speed=[6.0, 8.0], aim="pack")
    >>> study = break_study(Scene.icf_break(), grid, replicas=8, progress=False)
    >>> len(study.shots), len(study.cells)
    (16, 2)
    """
    scene = check_scene(scene)
    grid = default_break_grid(scene) if grid is None else check_type("grid", grid, (ShotGrid, type(None)), hint="e.g. default_break_grid(scene)")
    weights = BreakWeights.for_scene(scene) if weights is None else check_type("weights", weights, (BreakWeights, type(None)))
    weights.check(scene)
    fouls = BasicFouls(no_contact=False) if fouls is None else check_fouls(fouls)
    confidence = check_confidence(confidence)
    workers = check_backend(client, workers)
    execution = build_execution(
        scene, params=params, line=line, noise=noise, thumb_noise=None, replicas=replicas, seed=seed,
        final_positions=fouls.needs_final_positions,
    )  # fmt: skip
    # every noisy break is a row of the result (about 90 bytes, held up to three times as the rows are joined)
    check_memory("noisy breaks", grid.n_cells * execution.replicas, 300, hint="Use fewer replicas or breaks.")
    cells = grid.cells(scene, execution.line)
    # described only for a store (the seed as an int, whatever int type was given)
    manifest = {} if store is None else sweep_manifest(execution.seed, {"execution": execution, "fouls": fouls, "grid": grid})
    shots = run_sweep(
        "break_study", _BreakTask(execution, fouls), cells, manifest=manifest, replicas=execution.replicas,
        chunk_cells=chunk_cells, client=client, workers=workers, store=store, progress=progress,
    )  # fmt: skip
    shots = with_deg_columns(shots, ("angle",))
    return BreakStudy(scene, cells, shots.assign(score=weights.score(shots)), weights, execution.replicas,
                      confidence=confidence, task=_BreakTask(execution, fouls))  # fmt: skip
