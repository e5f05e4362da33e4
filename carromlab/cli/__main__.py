"""``python -m carromlab.cli``: the same as the ``carromlab`` command."""

import sys

from . import main

sys.exit(main())
