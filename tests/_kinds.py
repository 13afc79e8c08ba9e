"""The kinds of value that have a notation and a document: what the readers are fed and
what ``scripts/fuzz.py`` and the hostile-input tests build, read and write back.

They come from the library's one registry of them, :data:`yahtzee_rules.formats.notation.KINDS`,
so a kind added there is fuzzed here without a line of its own.
"""

from __future__ import annotations

from yahtzee_rules.formats.notation import KINDS as _REGISTRY

KINDS: tuple[type, ...] = tuple(kind.type for kind in _REGISTRY)
