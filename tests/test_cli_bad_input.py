"""Bad input on the command line: a table of cases, each exit status 2 and one line on
stderr holding the expected words."""

import importlib
import re

import pytest

from carromlab.cli import main
from carromlab.fitting.calibration_io import save_calibration
from carromlab.physics.params import PhysicsParams


@pytest.fixture
def files(tmp_path):
    """Malformed input files, by name."""
    cal = save_calibration(PhysicsParams(), tmp_path / "ok.toml", name="ok").read_text()
    out = {
        "empty.csv": "",
        "nopieces.csv": "kind,x,y\n",
        "crokinole_shots.csv": "variant,players,seat,intended_x,intended_y,intended_angle,intended_speed,intended_spin\n"
                               "crokinole,2,0,0.0,-0.2,1.5,2.0,0.0\n",
        "bad_value.csv": "kind,x,y\nwhite,0.1,0.2\nblack,abc,0\n",
        "bad.json": '{"format": "carromlab-position",\n "board": }',
        "bad.toml": cal.replace("mu = 0.12", "mu = "),
        "noparams.toml": cal.split("[params]")[0],
        "pixels.csv": "frame,particle,x,y\n" + "".join(f"{i},0,{900 + 40 * i},540\n" for i in range(10)),
        "nox.csv": "frame,particle,y\n0,0,0.0\n1,0,0.0\n",
        "side.csv": "disc,t,x,y\n0,0.0,0.0,0.0\n0,0.01,0.01,0.0\n",
        "side.json": '{"fps": 100,\n',
        "garbage.parquet": "kind,x,y\n",
        "nullname.json": '{"calibration": {"name": null}, "params": {"mu": 0.1}}',
    }
    for name, text in out.items():
        (tmp_path / name).write_text(text)
    return tmp_path


CASES = [
    # (argv, substring of the one-line message); {d} is the folder of the files
    (["simulate", "--mu", "-1"], "'--mu' option must be a finite real number in the range [1e-06, 2]"),
    (["simulate", "--mu", "5"], "Got 5.0"),
    (["simulate", "--mu", "abc"], "invalid float value: 'abc'"),
    (["simulate", "--striker-radius", "0.5"], "'--striker-radius' option must be a finite real number in the range (0, 0.1] m"),
    (["simulate", "--striker-mass", "0"], "'--striker-mass' option must be a finite real number in the range (0, 1] kg"),
    (["simulate", "--jack-radius", "0.02"], "'--jack-radius' option sets pieces of hikone; this run plays icf"),
    (["simulate", "--coin-radius", "0.016"], "queen"),
    (["simulate", "--speed", "100"], "'--speed' option must be a finite real number in the range [0, 30] m/s"),
    (["simulate", "--layout", "crokinole", "--x", "0.003", "--y", "0"], "capture circle of hole '20'"),
    (["simulate", "--layout", "crokinole", "--x", "0.045", "--y", "0.0939"], "overlapping the peg at"),
    (["simulate", "--x", "0.3475", "--y", "0.3475", "--angle-deg", "180"], "capture circle of hole 'ne'"),
    (["simulate", "--position", "{d}/missing.csv"], "must be an existing file"),
    (["simulate", "--position", "{d}/empty.csv"], "empty.csv' must hold a table with the columns kind, x, y (m). Got an empty file"),
    (["simulate", "--position", "{d}/bad_value.csv"], "Got 'abc' on line 3"),
    (["simulate", "--position", "{d}/bad.json"], "bad.json' must be valid JSON. Got an error at line 2"),
    (["simulate", "--calibration", "{d}/bad.toml"], "bad.toml' must be valid TOML. Got an error: Invalid value (at line 9"),
    (["simulate", "--calibration", "{d}/noparams.toml"], "must have a [params] table"),
    (["simulate", "--calibration", "{d}/nullname.json"], "error: The file 'nullname.json' must have a str [calibration] name. Got None (NoneType) instead."),
    (["success-map", "--position", "{d}/empty.csv"], "Got an empty file"),
    (["success-map", "--position", "{d}/nopieces.csv"], "nopieces.csv' must hold the target piece. Got a position with no pieces instead"),
    # the options the user typed, not the library's names for them
    (["fouls", "--seed", "-1"], "The '--seed' option must be an int in the range [0, inf). Got -1 instead"),
    (["match", "--seed", "-1", "--games", "1"], "The '--seed' option must be an int in the range [0, 9223372036854775807]. Got -1"),
    (["simulate", "--calibration", "{d}/missing.toml"], "The '--calibration' option must be a registered calibration name"),
    # pandas' "No columns to parse from file" and pyarrow's "Could not open Parquet input source", naming no option
    (["fouls", "--shots", "{d}/empty.csv"], "The '--shots' file '{d}/empty.csv' must hold a CSV table. Got an empty file."),
    (["fouls", "--shots", "{d}/garbage.parquet"], "The '--shots' file '{d}/garbage.parquet' must be a Parquet table. Got an unreadable file"),
    (["fouls", "--shots", "{d}/crokinole_shots.csv"], "The '--shots' option's 'variant' column must hold variants played on the icf board"),
    (["best-shot", "--coin-mass", "2"], "'--coin-mass' option must be a finite real number in the range (0, 1] kg. Got 2.0"),
    (["break-study", "--puck-radius", "-0.01", "--variant", "hikone"], "'--puck-radius' option"),
    (["break-study", "--mu", "0"], "'--mu' option"),
    (["match", "--mu", "0"], "'--mu' option"),
    # HIK-10: the match clock is a Hikone rule; its thinking time is a positive number of seconds
    (["match", "--clock", "6"], "The '--clock' option is for Hikone games (HIK-10). Got a clock for a 'icf' game instead."),
    (["match", "--variant", "hikone", "--clock", "0"], "The '--clock' option must be a finite real number in the range (0, 600] s. Got 0.0 instead."),
    (["fouls", "--mu", "3"], "'--mu' option"),
    (["fouls", "--angle-range-deg", "-400,400"], "'--angle-range-deg' option must be a range LOW,HIGH with -180 <= LOW <= HIGH <= 180 degrees. Got -400,400"),
    (["fouls", "--angle-range-deg", "30,-30"], "'--angle-range-deg' option must be a range LOW,HIGH with -180 <= LOW <= HIGH <= 180 degrees. Got 30,-30"),
    (["fouls", "--speed-range", "5,1"], "'--speed-range' option must be a range LOW,HIGH with 0 <= LOW <= HIGH <= 30 m/s. Got 5,1"),
    (["fouls", "--speed-range", "-1,40"], "'--speed-range' option must be a range LOW,HIGH with 0 <= LOW <= HIGH <= 30 m/s. Got -1,40"),
    (["fouls", "--placement-range", "0.1,-0.1"], "'--placement-range' option must be a range LOW,HIGH with -0.219"),
    (["fouls", "--placement-range", "-5,5"], "<= 0.2191 m (along the shooter's line). Got -5,5"),
    # an empty entry of a comma list is refused, not skipped
    (["fouls", "--variants", "icf,,online", "--n", "2"], "argument --variants: must be comma-separated names, none empty. Got 'icf,,online'"),
    (["fit-friction", "--example", "cushion", "--laws", "coulomb,"], "argument --laws: must be comma-separated names, none empty. Got 'coulomb,'"),
    (["best-shot", "--routes", "direct,,cut", "--replicas", "4,4,4,4"], "argument --routes: must be comma-separated names, none empty"),
    (["match", "--policy", "greedy,", "--games", "1"], "argument --policy: must be comma-separated names, none empty. Got 'greedy,'"),
    # refused before connecting (no 10 s connection timeout)
    (["fouls", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "argument --scheduler: not allowed with argument --workers"),
    (["break-study", "--scheduler", "tcp://127.0.0.1:1", "--workers", "1"], "argument --workers: not allowed with argument --scheduler"),
    (["fit-friction", "--tracks", "{d}/empty.csv"], "track file"),
    (["fit-friction", "--tracks", "{d}/pixels.csv", "--fps", "240", "--board", "icf"], "pixel coordinates? Give a camera calibration"),
    (["fit-friction", "--tracks", "{d}/nox.csv"], "missing ['x']"),
    (["fit-friction", "--tracks", "{d}/side.csv"], "track sidecar"),
    # options are not abbreviated: --angle 1.57 was --angle-deg 1.57, a 1.57 degree shot
    (["simulate", "--angle", "1.57"], "carromlab simulate: error: unrecognized option '--angle'; did you mean --angle-deg? (options are not abbreviated)"),
    (["simulate", "--angle=1.57"], "unrecognized option '--angle'; did you mean --angle-deg?"),
    (["success-map", "--angle-range", "-30,30"], "unrecognized option '--angle-range'; did you mean --angle-range-deg?"),
    (["fouls", "--angle-range", "-30,30"], "unrecognized option '--angle-range'; did you mean --angle-range-deg?"),
    (["best-shot", "--angle-step", "2"], "unrecognized option '--angle-step'; did you mean --angle-step-deg?"),
    (["fouls", "--variant", "icf"], "unrecognized option '--variant'; did you mean --variants?"),
    (["fouls", "--speed", "3"], "unrecognized option '--speed'; did you mean --speed-range?"),
    (["match", "--max-shots", "30"], "unrecognized option '--max-shots'; did you mean --max-shots-per-board?"),
    (["simulate", "--sped", "3"], "unrecognized option '--sped'; did you mean --speed or --spin?"),
]


@pytest.mark.parametrize(("argv", "expected"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_bad_input_is_one_line_with_status_2(files, tmp_path, capsys, argv, expected):
    argv = [a.format(d=files) for a in argv] + ["--out", str(tmp_path / "out"), "--quiet"] * (argv[0] != "simulate") + (
        ["--out", str(tmp_path / "out")] if argv[0] == "simulate" else [])  # fmt: skip
    status = main(argv)
    err = capsys.readouterr().err
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert expected.format(d=files) in lines[0]


#: The function each subcommand computes with (a bad --out must stop it before it is called).
COMPUTE = {
    "simulate": ("carromlab.engine.simulate", "simulate"),
    "break-study": ("carromlab.analysis", "break_study"),
    "success-map": ("carromlab.analysis", "success_map"),
    "best-shot": ("carromlab.analysis", "plan_shots"),
    "fouls": ("carromlab.analysis", "foul_probabilities"),
    "match": ("carromlab.match", "play_match"),
    "fit-friction": ("carromlab.fitting", "segment_tracks"),
}


@pytest.mark.parametrize("command", list(COMPUTE))
@pytest.mark.parametrize("bad", ["file", "under_a_file"])
def test_a_bad_out_folder_fails_before_the_computation(tmp_path, capsys, monkeypatch, command, bad):
    def computing(*args, **kwargs):
        raise AssertionError("computed before --out was checked")

    monkeypatch.setattr(importlib.import_module(COMPUTE[command][0]), COMPUTE[command][1], computing)
    afile = tmp_path / "afile"
    afile.write_text("x")
    out = afile if bad == "file" else afile / "sub"
    extra = ["--example", "cushion"] if command == "fit-friction" else []
    status = main([command, *extra, "--out", str(out)])
    err = capsys.readouterr().err.strip()
    assert status == 2 and len(err.splitlines()) == 1, err
    why = "(a file)" if bad == "file" else "(Not a directory)"
    assert f"carromlab {command}: error: The '--out' option must be a writable folder (created if missing). Got '{out}' {why}" in err


@pytest.mark.parametrize("command", list(COMPUTE))
def test_every_option_of_the_help_is_offered_for_its_abbreviation(capsys, command):
    """The parser records its options as they are added, in argument groups and mutually
    exclusive groups too (argparse keeps its own list private): every option --help lists
    is offered for its abbreviation."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    options = set(re.findall(r"(?<![\w-])--[a-z][\w-]*", capsys.readouterr().out))
    assert {"--help", "--out", "--mu", "--calibration"} <= options
    required = ["--tracks", "t.csv"] if command == "fit-friction" else []  # else the missing --tracks is the error
    for option in sorted(options):
        assert main([command, *required, option[:-1]]) == 2
        err = capsys.readouterr().err
        assert re.search(rf"unrecognized option '{option[:-1]}'; did you mean [-\w ]*{option}\b", err), err


@pytest.mark.parametrize("where", ["no/such", "afile"])
def test_a_bad_save_calibration_folder_fails_before_the_fit(tmp_path, capsys, monkeypatch, where):
    """A --save-calibration file in a missing folder (or under a file) is refused naming the
    option, before the tracks are fitted (was "[Errno 2] ..." after the fit)."""
    monkeypatch.setattr(importlib.import_module("carromlab.fitting"), "segment_tracks", lambda *a, **k: pytest.fail("fitted"))
    (tmp_path / "afile").write_text("x")
    path = tmp_path / where / "board.toml"
    status = main(["fit-friction", "--example", "cushion", "--save-calibration", str(path), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip()
    assert status == 2 and len(err.splitlines()) == 1, err
    assert f"argument --save-calibration: must be a file in an existing, writable folder. Got '{path}' (" in err


def test_a_save_calibration_file_of_another_suffix_fails_before_the_fit(tmp_path, capsys, monkeypatch):
    """A --save-calibration name ending in .txt was refused only after the fit, as "The 'path'
    parameter"."""
    monkeypatch.setattr(importlib.import_module("carromlab.fitting"), "segment_tracks", lambda *a, **k: pytest.fail("fitted"))
    path = tmp_path / "board.txt"
    status = main(["fit-friction", "--example", "cushion", "--save-calibration", str(path), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip()
    assert status == 2 and len(err.splitlines()) == 1, err
    assert f"argument --save-calibration: must be a file name ending in one of ['.json', '.toml'] (the suffix chooses the format). Got '{path}' instead." in err
