"""``python -m carromlab``: the same as the ``carromlab`` command (and ``python -m carromlab.cli``)."""

import sys

from .cli import main

sys.exit(main())
