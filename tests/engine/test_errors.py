"""Bad input: a ValueError naming the parameter, the range and the value; nothing mutated."""

import math
import pickle

import numpy as np
import pandas as pd
import pytest

from carromlab import Board, DiscSpec, PhysicsParams, Scene, Shot, simulate, simulate_batch
from carromlab.equipment.layout import default_specs

H = Board.icf().half_size


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        (dict(speed=float("nan")), r"'speed'.*\[0, 30\].*nan"),
        (dict(speed=-1.0), r"'speed'.*\[0, 30\].*-1.0"),
        (dict(spin=1e5), r"'spin'.*100000.0"),
        (dict(x=float("inf")), r"'x'.*inf"),
    ],
)
def test_bad_shot(kwargs, pattern):
    base = dict(x=0.0, y=-0.25, angle=1.0, speed=1.0)
    with pytest.raises(ValueError, match=pattern):
        Shot(**{**base, **kwargs})


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        (dict(mu=0.0), r"'mu'.*\[1e-06, 2\].*0.0"),
        (dict(e_disc=1.2), r"'e_disc'.*\[0, 1\].*1.2"),
        (dict(g=float("nan")), r"'g'"),
        (dict(max_events=0), r"'max_events'"),
        (dict(contact_duration=-1e-6), r"'contact_duration'.*\[0, 0.01\].*-1e-06"),
        (dict(contact_duration=0.1), r"'contact_duration'.*0.1"),
        (dict(friction_law="magic"), r"'friction_law'.*coulomb.*magic"),
    ],
)
def test_bad_params(kwargs, pattern):
    with pytest.raises(ValueError, match=pattern):
        PhysicsParams(**kwargs)


def test_unknown_powder():
    with pytest.raises(ValueError, match=r"'powder'.*starch.*'talc'"):
        PhysicsParams.from_powder("talc")


def test_striker_off_board_or_overlapping():
    scene = Scene.icf_break()
    with pytest.raises(ValueError, match=r"striker placement.*wholly on the board \(\|x\|, \|y\| <= 0.3493 m for"):
        simulate(scene, Shot(0.0, -H, 1.0, 1.0))
    # the round board states its own rule: the disc's centre within the surface's radius
    with pytest.raises(ValueError, match=r"wholly on the board \(sqrt\(x\^2 \+ y\^2\) <= 0.3302 m for"):
        simulate(Scene.crokinole_empty(), Shot(0.0, -0.34, 1.0, 1.0))
    with pytest.raises(ValueError, match="must not overlap a piece.*piece 0 \\(queen\\)"):
        simulate(scene, Shot(0.0, 0.0, 1.0, 1.0))


def test_bad_layout_is_rejected_and_input_untouched():
    frame = pd.DataFrame({"kind": ["white", "black"], "x": [0.0, 0.01], "y": [0.0, 0.0]})
    before = frame.copy()
    with pytest.raises(ValueError, match="overlap"):
        Scene(Board.icf(), frame, default_specs("icf"))
    pd.testing.assert_frame_equal(frame, before)
    off = pd.DataFrame({"kind": ["white"], "x": [H], "y": [0.0]})
    with pytest.raises(ValueError):
        Scene(Board.icf(), off, default_specs("icf"))


def test_scene_is_a_copy():
    frame = pd.DataFrame({"kind": ["white"], "x": [0.1], "y": [0.1]})
    scene = Scene(Board.icf(), frame, default_specs("icf"))
    frame.loc[0, "x"] = 0.2
    assert scene.pieces["x"].iat[0] == 0.1
    assert math.isclose(simulate(scene, Shot(0.0, -0.25, 0.0, 0.0)).final["x"].iat[0], 0.1)


def test_record_false_has_no_event_log():
    res = simulate(Scene.icf_break(), Shot(0.0, -H + 0.1174, math.pi / 2, 5.0), record=False)
    assert res.n_events > 0
    with pytest.raises(RuntimeError, match="record=False"):
        res.events


@pytest.mark.parametrize("scene", [Scene.icf_break(), Scene.hikone_start(), Scene.crokinole_empty()], ids=["icf", "hikone", "crokinole"])
def test_placement_check_agrees_with_the_geometry(scene):
    """check_placement refuses exactly the placements a direct computation calls faulty:
    off the surface (square: |x|, |y| <= h - r; round: centre within h), or closer than
    the sum of radii to a piece on the board or a peg, or inside a capture circle."""
    rng = np.random.default_rng(3)
    board, r = scene.board, scene.specs[scene.striker].radius
    h = board.half_size
    obstacles = [(float(px), float(py), float(pr) + r) for px, py, pr in
                 zip(scene.pieces["x"], scene.pieces["y"], scene.arrays["radius"][:-1])]
    obstacles += [(g.x, g.y, g.radius + r) for g in board.pegs] + [(o.x, o.y, o.capture_radius(r)) for o in board.holes]
    refused = 0
    for x, y in rng.uniform(-1.05 * h, 1.05 * h, (300, 2)):
        on = math.hypot(x, y) <= h if board.shape == "round" else max(abs(x), abs(y)) <= h - r
        clear = all(math.hypot(x - ox, y - oy) - reach >= -1e-9 for ox, oy, reach in obstacles)
        try:
            scene.check_placement(x, y)
            accepted = True
        except ValueError:
            accepted = False
        assert accepted == (on and clear), (x, y)
        refused += not accepted
    assert 0 < refused < 300


@pytest.mark.parametrize("kind, radius", [("white", 0.03), ("black", 0.01), ("queen", 0.016)])
def test_break_specs_of_unequal_radii_are_refused_naming_specs(kind, radius):
    spec = DiscSpec.icf_queen() if kind == "queen" else DiscSpec.icf_coin()
    with pytest.raises(ValueError, match=f"'specs' parameter must keep the white, black and queen discs of one radius.*'{kind}': {radius}"):
        Scene.icf_break(specs={kind: spec.with_(kind=kind, radius=radius)})


@pytest.mark.parametrize(
    "make, allowed",
    [
        (Scene.icf_break, r"icf discs \['black', 'queen', 'striker', 'white'\]"),
        (Scene.hikone_start, r"hikone discs \['green', 'jack', 'red', 'striker'\]"),
        (Scene.crokinole_empty, r"crokinole discs \['dark', 'light'\]"),
    ],
)
def test_preset_specs_of_a_misspelt_kind_are_refused_not_ignored(make, allowed):
    # Scene.icf_break(specs={"stiker": heavy}) made the standard striker, heavy unused;
    # hikone_start and crokinole_empty raised "'list' object is not a mapping" for a list
    heavy = DiscSpec.icf_striker().with_(mass=0.02)
    with pytest.raises(ValueError, match=rf"^The 'specs' parameter must name kinds of the {allowed}\. Got \['stiker'\] instead"):
        make(specs={"stiker": heavy})
    with pytest.raises(TypeError, match=r"^The 'specs' parameter must be a mapping of kind to DiscSpec\. Got \[DiscSpec"):
        make(specs=[heavy])


def test_from_frame_refuses_specs_of_a_kind_neither_in_the_scene_nor_of_its_game():
    heavy = DiscSpec.icf_striker().with_(mass=0.02)
    one = pd.DataFrame({"kind": ["white"], "x": [0.0], "y": [0.0]})
    with pytest.raises(ValueError, match=r"^The 'specs' parameter must name kinds of the scene's discs or the icf discs \[.*'striker', 'white'\]\. Got \['stiker'\]"):
        Scene.from_frame(Board.icf(), one, {"stiker": heavy})
    assert Scene.from_frame(Board.icf(), one, {"striker": heavy}).specs["striker"].mass == 0.02
    # a kind of the game absent from the frame, or a piece of another game's kind, is fine
    assert Scene.from_frame(Board.icf(), one, {"queen": DiscSpec.icf_queen()}).n_pieces == 1
    red = pd.DataFrame({"kind": ["red"], "x": [0.0], "y": [0.0]})
    assert Scene.from_frame(Board.icf(), red, {"red": DiscSpec.hikone_puck("red")}).kinds == ["red", "striker"]


def test_crokinole_shooter_is_named_as_the_caller_passed_it():
    # said "The 'striker' parameter", the name of Scene's field
    with pytest.raises(ValueError, match=r"^The 'shooter' parameter must be one of \['dark', 'light'\]\. Got 'drak' instead"):
        Scene.crokinole_empty("drak")
    assert Scene.crokinole_empty("light").striker == "light"


def test_scene_specs_are_read_only_and_pickle():
    scene = Scene.icf_break()
    with pytest.raises(TypeError):
        scene.specs["white"] = None  # type: ignore[index]
    again = pickle.loads(pickle.dumps(scene))
    assert dict(again.specs) == dict(scene.specs) and again.kinds == scene.kinds


def test_powder_and_mu_together_are_refused():
    with pytest.raises(ValueError, match="'mu' parameter is set by the powder .*'club'"):
        PhysicsParams.from_powder("club", mu=0.3)


def test_params_keep_the_floats_they_checked():
    p = PhysicsParams(mu=np.float32(0.25), e_disc=np.array(0.5), max_events=np.int64(10))
    assert type(p.mu) is float and type(p.e_disc) is float and type(p.max_events) is int
    assert hash(p) == hash(PhysicsParams(mu=float(np.float32(0.25)), e_disc=0.5, max_events=10))
    with pytest.raises(TypeError, match="'mu' parameter must be a finite real number in the range \\[1e-06, 2\\]. Got '0.1' \\(str\\)"):
        PhysicsParams(mu="0.1")


def test_one_row_of_positions_names_every_shot():
    scene = Scene.icf_break()
    pos = scene.arrays["xy"].copy()
    pos[1] = pos[0]
    with pytest.raises(ValueError, match="for every shot instead"):
        simulate_batch(scene, 0.0, -0.2526, 1.5, [1.0, 2.0], positions=pos)


def test_bad_layout_names_the_parameter_the_caller_passed():
    # Scene(pieces=...) and Scene.from_frame(board, frame) said "The 'df' parameter", the
    # name of an internal helper's argument
    overlap = pd.DataFrame({"kind": ["white", "black"], "x": [0.0, 0.01], "y": [0.0, 0.0]})
    typo = pd.DataFrame({"kind": ["whit"], "x": [0.0], "y": [0.0]})
    with pytest.raises(ValueError, match=r"^The 'pieces' parameter must hold discs overlapping.*rows 0 and 1"):
        Scene(Board.icf(), overlap, default_specs("icf"))
    with pytest.raises(ValueError, match=r"^The 'frame' parameter must hold discs overlapping.*rows 0 and 1"):
        Scene.from_frame(Board.icf(), overlap)
    with pytest.raises(ValueError, match=r"^The 'frame' parameter must have a kind in .*'whit' in row 0"):
        Scene.from_frame(Board.icf(), typo)
    with pytest.raises(TypeError, match=r"^The 'frame' parameter must be a DataFrame"):
        Scene.from_frame(Board.icf(), {"kind": ["white"], "x": [0.0], "y": [0.0]})


def test_from_frame_checks_the_layout_once(monkeypatch):
    import carromlab.engine.scene as scene_module

    calls = []
    check = scene_module.from_frame
    monkeypatch.setattr(scene_module, "from_frame", lambda *a, **k: calls.append(k.get("name")) or check(*a, **k))
    Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [0.0], "y": [0.0]}))
    assert calls == ["frame"]  # and not again as Scene's 'pieces'
    with pytest.raises(ValueError, match=r"^The 'frame' parameter must have at most 63 rows"):
        gx, gy = np.meshgrid(np.linspace(-0.245, 0.245, 8), np.linspace(-0.245, 0.245, 8))
        Scene.from_frame(Board.icf(), pd.DataFrame({"kind": "white", "x": gx.ravel(), "y": gy.ravel()}))
