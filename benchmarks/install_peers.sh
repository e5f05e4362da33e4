#!/usr/bin/env bash
# Install the benchmark peers: pymunk and pooltool-billiards 0.6 (see benchmarks/README.md).
#
#   bash benchmarks/install_peers.sh            # into the current Python environment
#   bash benchmarks/install_peers.sh VENV_DIR   # into a new virtual environment VENV_DIR
#
# pooltool-billiards 0.6 pins panda3d==1.11.0.dev3702 on Linux, a build PyPI does not
# have, so its requirements come from the `bench` extra of pyproject.toml (panda3d 1.10.x
# in place of the pin) and pooltool itself is installed with --no-deps. numba 0.62 needs
# numpy < 2.4: installed into the current environment this may downgrade numpy (carromlab
# then needs a rebuild); a separate VENV_DIR leaves it alone, and run.py is pointed at it
# with --pooltool-python VENV_DIR/bin/python.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
py="${PYTHON:-python3}"
if [[ $# -ge 1 ]]; then
    "$py" -m venv "$1"
    py="$1/bin/python"
fi
# the extra's requirements alone (carromlab itself is not needed where pooltool runs)
reqs="$(mktemp)"
trap 'rm -f "$reqs"' EXIT
"$py" - "$here/pyproject.toml" > "$reqs" <<'PY'
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    print("\n".join(tomllib.load(f)["project"]["optional-dependencies"]["bench"]))
PY
"$py" -m pip install -r "$reqs"
"$py" -m pip install --no-deps "pooltool-billiards==0.6.*"
"$py" -c "import pooltool, pymunk; print('pooltool', pooltool.__version__, '/ pymunk', pymunk.version)"
