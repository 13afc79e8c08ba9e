"""``python -m yahtzee_rules``: the ``yahtzee-rules`` command (with no arguments, the demo game)."""

import sys

from yahtzee_rules.apps.cli import main

sys.exit(main())
