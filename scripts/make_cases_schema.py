"""Write the shipped JSON Schema of the conformance cases from the library's own lists.

Run: ``python scripts/make_cases_schema.py`` rewrites
``src/yahtzee_rules/schema/cases-v1.schema.json``; ``--check`` only says whether it is up
to date (the test suite runs that). The schema itself is built by
:func:`yahtzee_rules.testing.conformance.cases_schema`, so the kinds, clause ids, boxes
and totals it lists are the ones the cases use.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from yahtzee_rules.testing.conformance import CASES_VERSION, cases_schema

SCHEMA = (
    Path(__file__).resolve().parent.parent
    / f"src/yahtzee_rules/schema/cases-v{CASES_VERSION}.schema.json"
)


def text() -> str:
    """The schema file's text."""
    return json.dumps(cases_schema(), indent=2) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the schema, or with ``--check`` return 1 if the file is out of date."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the file is up to date")
    args = parser.parse_args(argv)
    if args.check:
        if not SCHEMA.exists() or SCHEMA.read_text(encoding="utf-8") != text():
            print(f"{SCHEMA.name} is out of date; run python scripts/make_cases_schema.py")
            return 1
        return 0
    SCHEMA.write_text(text(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
