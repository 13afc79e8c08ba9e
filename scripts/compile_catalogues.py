"""Compile the gettext catalogues: each ``.po`` source beside the ``.mo`` the library reads.

Run: ``python scripts/compile_catalogues.py`` rewrites every
``src/yahtzee_rules/support/locales/<lang>/LC_MESSAGES/yahtzee_rules.mo`` from its ``.po``
(with Babel, a development dependency: the library reads the ``.mo`` with the standard
library's :mod:`gettext`). ``--check`` only says whether every ``.mo`` holds exactly its
``.po``'s messages, and whether every catalogue translates every message of the library
(the test suite runs both). Edit the ``.po``, then run this and commit both.
"""

from __future__ import annotations

import argparse
import gettext
import io
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALES = Path(__file__).resolve().parent.parent / "src/yahtzee_rules/support/locales"
DOMAIN = "yahtzee_rules"

Key = tuple[str | None, str]
"""A message's context (``None`` for none) and its English text."""


def sources() -> dict[str, Path]:
    """Every catalogue's ``.po``, by language."""
    return {
        path.parent.parent.name: path for path in sorted(LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    }


def po_messages(path: Path) -> dict[Key, str]:
    """The translated messages of a ``.po``, fuzzy and empty ones left out."""
    with path.open("rb") as file:
        catalog = read_po(file)
    return {
        (message.context, str(message.id)): str(message.string)
        for message in catalog
        if message.id and message.string and not message.fuzzy
    }


def mo_messages(data: bytes) -> dict[Key, str]:
    """The messages of compiled ``.mo`` bytes, as the library's :mod:`gettext` reads them."""
    catalog: dict[str, str] = gettext.GNUTranslations(io.BytesIO(data))._catalog  # type: ignore[attr-defined]
    found: dict[Key, str] = {}
    for key, text in catalog.items():
        if not key:
            continue  # the header
        context, _, msgid = key.rpartition("\x04")
        found[(context or None, msgid)] = text
    return found


def compile_po(path: Path) -> bytes:
    with path.open("rb") as file:
        catalog = read_po(file)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def stale() -> list[str]:
    """The languages whose ``.mo`` is missing or holds other messages than its ``.po``."""
    found = []
    for language, po in sources().items():
        mo = po.with_suffix(".mo")
        if not mo.is_file() or mo_messages(mo.read_bytes()) != po_messages(po):
            found.append(language)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check; write nothing")
    args = parser.parse_args(argv)
    if args.check:
        languages = stale()
        if languages:
            print(
                f"stale catalogues: {', '.join(languages)}; run scripts/compile_catalogues.py",
                file=sys.stderr,
            )
            return 1
        return 0
    for language, po in sources().items():
        po.with_suffix(".mo").write_bytes(compile_po(po))
        print(f"compiled {language}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
