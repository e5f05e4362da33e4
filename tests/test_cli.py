"""The command line: outputs, one-line errors with exit status 2, help with examples."""

import pandas as pd
import pytest

from carromlab.cli import main


def test_simulate_writes_tables_and_png(tmp_path, capsys):
    assert main(["simulate", "--out", str(tmp_path)]) == 0
    events = pd.read_csv(tmp_path / "events.csv")
    assert {"t", "kind", "disc", "x", "y", "vx", "vy"} <= set(events.columns)
    assert (tmp_path / "trajectories.png").stat().st_size > 10_000
    assert "events" in capsys.readouterr().out


def test_bad_input_is_one_line_and_status_2(tmp_path, capsys):
    assert main(["simulate", "--speed", "-1", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'speed'" in err[0]


def test_help_has_examples(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--help"])
    assert exc.value.code == 0
    assert "examples:" in capsys.readouterr().out
