"""Short reprs and Jupyter HTML (picture + summary) of the result objects."""

import math

import pytest

from carromlab import Scene, Shot, simulate
from carromlab.analysis import ShotGrid, break_study
from carromlab.fitting import compare_laws, fit_restitution, segment_tracks
from carromlab.match import play_match
from carromlab.rules.crokinole import CrokinoleOptions

from ..fitting.scenarios import shot as synthetic_shot

PNG = "data:image/png;base64,"


def check(obj, *needles, picture=True):
    text = repr(obj)
    assert "\n" not in text and len(text) < 400, text
    page = obj._repr_html_()
    assert (PNG in page) == picture
    assert type(obj).__name__ in page
    for needle in needles:
        assert needle in text, needle
    return text, page


def test_scene():
    text, page = check(Scene.icf_break(), "icf", "9 white", "1 queen")
    assert "DataFrame" not in text and "striker disc" in page and "20.65 mm" in page


def test_board_and_physics_params_print_one_short_line():
    # the dataclass reprs printed every hole, peg and mark (650-850 characters) and all 20 fields (340)
    from carromlab import Board, PhysicsParams

    text, page = check(Board.icf(), "'icf'", "square 0.74 m", "4 pockets", "IcfMarks")
    assert text == "Board('icf', square 0.74 m, 4 pockets, IcfMarks)" and "Hole(" not in text
    assert "ne (r = 22.25 mm)" in page
    assert repr(Board.crokinole()) == "Board('crokinole', round 0.6604 m, 1 hole, 8 pegs, CrokinoleMarks)"
    assert len(repr(Board.icf())) < 80
    params = PhysicsParams()
    text, page = check(params, "friction_law='slide_spin'", "mu=0.12", "e_disc=0.9", "e_cushion=0.75", picture=False)
    assert len(text) < 100 and "max_events" not in text and "air_drag" not in page.split("<table>")[0]
    # the fields changed from their defaults are shown too: the repr's fields rebuild the parameters
    changed = params.with_(friction_law="linear", mu_v=0.5, air_drag=0.03)
    assert repr(changed) == "PhysicsParams(friction_law='linear', mu=0.12, e_disc=0.9, e_cushion=0.75, mu_v=0.5, air_drag=0.03)"
    assert "0.03 1/m (default 0)" in changed._repr_html_() and "3 fields changed" in changed._repr_html_()


def test_shot_result_says_what_fell_and_pocketed_prints_plainly():
    res = simulate(Scene.icf_break(), Shot.from_deg(0.0, -0.2526, angle_deg=90.0, speed=6.0))
    fell = ", ".join(f"{k} {i} in {p}" for i, k, p in zip(res.pocketed["id"], res.pocketed["kind"], res.pocketed["pocket"]))
    text, _ = check(res, "90.00 deg", fell or 'nothing', f"{res.n_events} events in")
    assert len(text) < 400 and "_raw" not in text
    quiet = simulate(Scene.icf_break(), Shot(0.25, -0.2526, 0.0, 0.5))
    assert repr(quiet.pocketed).startswith("nothing pocketed") and "Empty DataFrame" not in str(quiet.pocketed)
    assert "fell: nothing" in repr(quiet)
    # it said "shot disc board" (the status code's name); a pocketed striker says "shot disc pocketed"
    assert "; shot disc on the board; " in repr(quiet)
    dropped = simulate(Scene.icf_break(), Shot(0.0, -0.2526, -math.pi / 2, 0.1))  # it only stops
    assert repr(dropped).endswith("; 1 event in 0.0849 s)")
    assert "Empty DataFrame" not in quiet._repr_html_()
    # a derived table is a plain DataFrame again
    assert type(res.pocketed.head()).__name__ == "DataFrame"


def test_break_study():
    grid = ShotGrid(placement=[-0.05, 0.05], angle=[0.0], speed=[6.0], aim="pack")
    study = break_study(Scene.icf_break(), grid, replicas=3, progress=False)
    b = study.best
    text, page = check(study, "2 breaks x 3 replicas")
    assert f"{math.degrees(b['angle']):.1f} deg" in text
    assert "mean_score" in page and "angle_deg" in page and f"{math.degrees(b['angle']):.4g}" in page


@pytest.fixture(scope="module")
def comparison():
    return compare_laws(segment_tracks(synthetic_shot(0, "linear", angle_noise=0.05).tracks()), ["coulomb", "linear"])


def test_fits(comparison):
    fit = comparison.fits["linear"]
    mu = fit.estimates.set_index("parameter")["estimate"]["mu"]
    _, page = check(fit, "linear", f"mu = {mu:.4g}")
    assert f"{mu:.4g}" in page and "tracked" not in page  # the legend is in the picture
    check(comparison, f"best by BIC: {comparison.best}")
    restitution = fit_restitution(segment_tracks(synthetic_shot(0, "linear", angle_noise=0.05).tracks()))
    check(restitution, "RestitutionFit(", picture=False)


def test_game_and_match_records():
    rec = play_match("crokinole", 2, options=CrokinoleOptions(discs_per_player=2, game_target=5))
    text, page = check(rec, "2 games of crokinole 2p")
    assert "wins" in text
    from carromlab.match import GreedyPolicy, play_game
    from carromlab.rules import crokinole

    game = play_game(crokinole.new_game(options=CrokinoleOptions(discs_per_player=2, game_target=5)), GreedyPolicy())
    text, page = check(game, "crokinole 2 players", f"{int(game.games['n_shots'].iat[0])} shots")
    assert game.end in text
