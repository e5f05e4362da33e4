"""The error convention of the public API (docs/getting-started.md, "Errors"): a TypeError
for an argument of the wrong type, a ValueError for a value of the right type that is
not allowed; either message names the parameter and the value received."""

import math
import re

import numpy as np
import pandas as pd
import pytest

from carromlab import Board, DiscSpec, PhysicsParams, Scene, Shot, simulate, simulate_batch
from carromlab import analysis, match, plotting, rules
from carromlab.analysis.breaks import BreakWeights, break_study
from carromlab.analysis.store import store_directory
from carromlab.envs import CarromAECEnv, CarromEnv
from carromlab.equipment import default_specs, from_frame, hikone_start, icf_break
from carromlab.fitting import Tracks, compare_laws, data_path, fit_friction, fit_restitution, read_tracks, save_calibration
from carromlab.plotting.analysis import plot_break_outcomes
from carromlab.plotting.animation import ShotAnimation
from carromlab.plotting.fitting import plot_speed
from carromlab.rules.state import Piece

BREAK = Shot(0.0, -0.2526, angle=math.pi / 2, speed=3.0)
GRID = analysis.ShotGrid([0.0], angle=[math.pi / 2], speed=[3.0])
GOAL = analysis.PocketAny(("white",))


def _success_map(**kw):
    args = {"scene": Scene.icf_break(), "goal": GOAL, "grid": GRID, "replicas": 2, "progress": False} | kw
    return analysis.success_map(args.pop("scene"), args.pop("goal"), args.pop("grid"), **args)


def _break(**kw):
    return break_study(Scene.icf_break(), **({"replicas": 2, "progress": False} | kw))


def _plan(**kw):
    args = {"scene": Scene.icf_break(), "goal": analysis.PocketPiece(0), "progress": False} | kw
    return analysis.plan_shots(args.pop("scene"), args.pop("goal"), **args)


def _play(**kw):
    args = {"state": match.new_state("icf"), "max_boards": 1, "max_shots_per_board": 1} | kw
    return match.play_game(args.pop("state"), match.RandomPolicy(), **args)


# (call, parameter, value): the call passes ``value`` as ``parameter``
WRONG_TYPE = [
    (lambda v: PhysicsParams(mu=v), "mu", "0.1"),
    (lambda v: PhysicsParams(mu=v), "mu", True),
    (lambda v: PhysicsParams(max_events=v), "max_events", 1000.0),
    (lambda v: PhysicsParams(friction_law=v), "friction_law", 3),
    (lambda v: PhysicsParams.from_powder(v), "powder", None),
    (lambda v: Board.preset(v), "name", 1),
    (lambda v: DiscSpec("white", radius=v, mass=0.005, thickness=0.008), "radius", None),
    (lambda v: Shot(0.0, -0.25, 1.0, v), "speed", "fast"),
    (lambda v: simulate(v, BREAK), "scene", "icf"),
    (lambda v: simulate(Scene.icf_break(), BREAK, params=v), "params", {"mu": 0.1}),
    (lambda v: simulate(Scene.icf_break(), BREAK, record=v), "record", "no"),
    (lambda v: simulate_batch(Scene.icf_break(), 0.0, -0.25, 1.0, 3.0, workers=v), "workers", 2.0),
    (lambda v: simulate_batch(Scene.icf_break(), 0.0, -0.25, 1.0, 3.0, final_positions=v), "final_positions", "yes"),
    (lambda v: analysis.NoiseModel(speed=v), "speed", [0.1]),
    (lambda v: analysis.NoiseModel.preset(v), "name", 0),
    (lambda v: _success_map(scene=v), "scene", None),
    (lambda v: _success_map(params=v), "params", "club"),
    (lambda v: _success_map(noise=v), "noise", "club"),
    (lambda v: _success_map(grid=v), "grid", [0.0]),
    (lambda v: _success_map(replicas=v), "replicas", 2.5),
    (lambda v: _success_map(progress=v), "progress", 1),
    (lambda v: analysis.binomial_ci(v, 10), "k", None),
    (lambda v: analysis.fit_noise(v), "recorded", [1.0]),
    (lambda v: match.new_state(v), "variant", None),
    (lambda v: _play(state=v), "state", "icf"),
    (lambda v: _play(params=v), "params", "club"),
    (lambda v: _play(record=v), "record", "yes"),
    (lambda v: rules.icf.new_game(options=v), "options", "x"),
    (lambda v: Tracks(data=v), "data", [1, 2]),
    (lambda v: save_calibration(PhysicsParams(), v, name="x"), "path", None),
    (lambda v: save_calibration(v, "x.json", name="x"), "params", "club"),
    (lambda v: save_calibration(PhysicsParams(), "x.json", name=v), "name", 3),
    (lambda v: _break(grid=v), "grid", "default"),
    (lambda v: _break(weights=v), "weights", "icf"),
    (lambda v: _break(fouls=v), "fouls", "basic"),
    (lambda v: BreakWeights(own=v, pieces={"white": 1.0}), "own", None),
    (lambda v: BreakWeights(own="white", pieces=v), "pieces", [1.0]),
    (lambda v: _plan(goal=v), "goal", analysis.AvoidFoul()),
    (lambda v: _plan(replicas=v), "replicas", 8),
    (lambda v: _plan(routes=v), "routes", "direct"),
    (lambda v: _success_map(goal=v), "goal", "pocket it"),
    (lambda v: analysis.PocketPiece(v), "piece", 1.5),
    (lambda v: analysis.PocketPiece(0, v), "pocket", 1),
    (lambda v: analysis.PocketAny(v), "kinds", 3),
    (lambda v: plotting.draw_board(v), "board", "icf"),
    (lambda v: plotting.draw_board(Board.icf(), ax=v), "ax", "axes"),
    (lambda v: plotting.draw_pieces(v, default_specs("icf")), "frame", None),
    (lambda v: plot_break_outcomes(v), "study", "study"),
    (lambda v: plot_speed(v), "fits", 3),
    (lambda v: plot_speed([], stride=v), "stride", 2.0),
    (lambda v: ShotAnimation(v, fps=10.0, slowdown=1.0, dpi=80), "result", None),
    (lambda v: from_frame(v, Board.icf(), default_specs("icf")), "df", "frame"),
    (lambda v: from_frame(icf_break(), v, default_specs("icf")), "board", "icf"),
    (lambda v: from_frame(icf_break(), Board.icf(), v), "specs", ["white"]),
    (lambda v: icf_break(coin=v), "coin", "white"),
    (lambda v: hikone_start(board=v), "board", "hikone"),
    (lambda v: Board(name="b", shape="square", size=1.0, holes=v), "holes", 3),
    (lambda v: Board(name=v, shape="square", size=1.0), "name", 3),
    (lambda v: DiscSpec(v, radius=0.01, mass=0.005, thickness=0.008), "kind", 7),
    (lambda v: fit_friction(v, "coulomb"), "data", "tracks.csv"),
    (lambda v: store_directory(v), "store", 3),
    (lambda v: fit_restitution(v), "data", None),
    (lambda v: fit_friction(read_tracks(data_path("slide_shot.csv")), "coulomb", max_passes=v), "max_passes", 2.0),
    (lambda v: compare_laws(read_tracks(data_path("slide_shot.csv")), air_drag=v), "air_drag", "yes"),
    (lambda v: CarromEnv(noise=v), "noise", "club"),
    (lambda v: CarromEnv(rewards=v), "rewards", {"win": 1.0}),
    (lambda v: CarromAECEnv(rewards=v), "rewards", 1),
    (lambda v: Piece(0, "white", "board", x=v, y=0.0), "x", "a"),
    (lambda v: Piece(0, v, "board"), "kind", None),
    (lambda v: match.new_state("icf").with_(radii=v), "radii", 3),
    (lambda v: match.new_state("icf").with_(radii=(("white", v),)), "radii[white]", "big"),
    (lambda v: analysis.foul_probabilities(v, analysis.ShotPopulation(angle=(0.0, 0.0), speed=(1.0, 1.0), n=2)), "states", [1]),
    (lambda v: analysis.comparable_states(pd.DataFrame({"kind": [], "x": [], "y": []}), v), "variants", "icf"),
    (lambda v: simulate_batch(Scene.icf_break(), 0.0, -0.25, 1.0, 3.0, details=True, carriers=v), "carriers", "striker"),
    (lambda v: match.RandomPolicy(name=v), "name", 0),
]

BAD_VALUE = [
    (lambda v: PhysicsParams(mu=v), "mu", math.nan),
    (lambda v: PhysicsParams(mu=v), "mu", -1.0),
    (lambda v: PhysicsParams(max_events=v), "max_events", 0),
    (lambda v: PhysicsParams(friction_law=v), "friction_law", "sticky"),
    (lambda v: PhysicsParams.from_powder(v), "powder", "talc"),
    (lambda v: Shot(0.0, -0.25, 1.0, v), "speed", math.inf),
    (lambda v: simulate_batch(Scene.icf_break(), 0.0, -0.25, 1.0, v), "speed", -1.0),
    (lambda v: simulate_batch(Scene.icf_break(), 0.0, -0.25, 1.0, 3.0, final_dtype=v), "final_dtype", "float16"),
    (lambda v: analysis.NoiseModel.preset(v), "name", "pro"),
    (lambda v: _success_map(replicas=v), "replicas", 0),
    (lambda v: _success_map(confidence=v), "confidence", 1.5),
    (lambda v: _success_map(ci=v), "ci", "normal"),
    (lambda v: analysis.binomial_ci(v, 10), "k", math.nan),
    (lambda v: analysis.binomial_ci(3, 10, confidence=v), "confidence", math.nan),
    (lambda v: match.new_state("icf", v), "players", 5),
    (lambda v: _plan(replicas=v), "replicas", (8, 16, 32)),
    (lambda v: analysis.PocketPiece(v), "piece", -1),
    (lambda v: BreakWeights(own=v, pieces={"white": 1.0}), "own", ""),
    (lambda v: Board(name=v, shape="square", size=1.0), "name", ""),
    (lambda v: Piece(0, "white", "board", x=v, y=0.0), "x", math.inf),
    (lambda v: match.new_state("icf").with_(radii=(("white", v),)), "radii[white]", -0.01),
    (lambda v: from_frame(icf_break(), Board.icf(), v), "specs", {}),
    (lambda v: plot_speed(v), "fits", []),
]


def _check(call, name, value, error):
    with pytest.raises(error) as info:
        call(value)
    assert type(info.value) is error  # not a subclass of the other kind
    message = str(info.value)
    assert f"'{name}'" in message
    assert re.search(re.escape(repr(value)), message), message


@pytest.mark.parametrize(("call", "name", "value"), WRONG_TYPE, ids=[f"{n}={v!r}" for _, n, v in WRONG_TYPE])
def test_a_wrong_type_is_a_type_error_naming_the_parameter_and_value(call, name, value):
    _check(call, name, value, TypeError)


@pytest.mark.parametrize(("call", "name", "value"), BAD_VALUE, ids=[f"{n}={v!r}" for _, n, v in BAD_VALUE])
def test_a_bad_value_is_a_value_error_naming_the_parameter_and_value(call, name, value):
    _check(call, name, value, ValueError)


def test_a_powder_name_for_params_points_at_from_powder_only_for_a_powder():
    with pytest.raises(TypeError, match=r"from_powder\('club'\)"):
        _success_map(params="club")
    with pytest.raises(TypeError) as info:
        _success_map(params="abc")
    assert "from_powder('abc')" not in str(info.value)


def test_numpy_scalars_and_0d_arrays_are_numbers():
    p = PhysicsParams(mu=np.float32(0.25), e_disc=np.array(0.5), max_events=np.array(10))
    assert (type(p.e_disc), p.max_events) == (float, 10)
    assert len(_success_map(replicas=np.int64(2))) == 1


def test_a_long_value_of_the_wrong_type_is_cut_in_the_message():
    with pytest.raises(TypeError, match=r"Got .{60,80}\.\.\. \(DataFrame\) instead") as info:
        simulate(pd.DataFrame({"x": np.arange(100.0)}), BREAK)
    assert len(str(info.value)) < 250


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: Shot(0.0, -0.2526, angle=1.57), "'speed' parameter (m/s) is required"),
        (lambda: Shot(0.0, -0.2526, speed=3.0), "'angle' parameter (rad) or 'angle_deg' (degrees) is required"),
        (lambda: simulate_batch(Scene.icf_break(), 0.0, -0.2526, angle_deg=90), "'speed' parameter (m/s) is required"),
        (lambda: analysis.ShotGrid([0.0], angle=[1.0]), "'speed' parameter (m/s) is required"),
    ],
)
def test_a_missing_required_argument_is_a_type_error(call, name):
    """A required argument left out (it defaults to None because it has two spellings or is
    keyword-only) is a TypeError, as Python raises for a missing argument."""
    with pytest.raises(TypeError, match=re.escape(name)):
        call()
