"""The ``cache`` command, and the notice every command gives before it writes a large file.

``yahtzee-rules cache`` lists what the solver's cache directory holds (each table's
kind, ruleset, size and last use), and ``yahtzee-rules cache remove`` removes tables:
all of them, or those of a ruleset or a kind. The directory and its size limit are
the solver's (``YAHTZEE_RULES_CACHE_DIR``, ``YAHTZEE_RULES_CACHE_LIMIT``); when a write
would take it over the limit, the least recently used tables go first.

Examples:
    >>> size_text(8_388_736), size_text(752_000_000), size_text(2_000_000_000), size_text(512)
    ('8.4 MB', '752.0 MB', '2.0 GB', '512 bytes')
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from yahtzee_rules.apps.cli import _extras
from yahtzee_rules.apps.cli.console import AppError
from yahtzee_rules.core.rules import Rules
from yahtzee_rules.support._text import for_terminal

if TYPE_CHECKING:
    from yahtzee_rules.bots.solver._internal import CacheEntry

__all__ = ["NOTICE_BYTES", "add_arguments", "notice", "run", "size_text"]

#: Files of at least this many bytes are announced before they are built ("a few MB").
NOTICE_BYTES = 4_000_000


def size_text(size: int) -> str:
    """``size`` bytes for a person: bytes, kB, MB or GB (powers of 1000), to 3 digits."""
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} bytes"


def _what(kind: str) -> str:
    from yahtzee_rules.bots.solver._internal import KINDS

    what = KINDS[kind].partition(":")[0]
    return f"{'an' if what[0] in 'aeiou' else 'a'} {what}"


def notice(kind: str, path: Path, size: int) -> None:
    """Say on standard error what is about to be built and written, where and how large
    (for files of :data:`NOTICE_BYTES` or more), before the work starts."""
    if size < NOTICE_BYTES:
        return
    from yahtzee_rules.bots.solver._internal import cache_limit

    limit = cache_limit()
    kept = (
        f"; that is over the cache's limit of {size_text(limit)} (YAHTZEE_RULES_CACHE_LIMIT), "
        f"so it is worked out but not kept"
        if size > limit
        else f" (the cache keeps at most {size_text(limit)}, set by YAHTZEE_RULES_CACHE_LIMIT, "
        f"the least recently used tables going first; 'yahtzee-rules cache' lists and removes "
        f"them)"
    )
    print(
        for_terminal(f"Writing {_what(kind)} of about {size_text(size)} to {path}{kept}."),
        file=sys.stderr,
        flush=True,
    )


def add_arguments(parser: argparse.ArgumentParser, ruleset: Callable[[str], Rules]) -> None:
    """The ``cache`` command's arguments, added to ``parser``; ``ruleset`` reads ``--rules``.

    Examples:
        >>> parser = argparse.ArgumentParser()
        >>> add_arguments(parser, Rules.from_name)
        >>> parser.parse_args([]).action, parser.parse_args(["remove", "--kind", "target"]).kind
        ('list', 'target')
    """
    parser.add_argument(
        "action",
        nargs="?",
        choices=("list", "remove"),
        default="list",
        help="list the cached tables (the default), or remove them",
    )
    parser.add_argument("--all", action="store_true", help="with remove: remove every cached table")
    parser.add_argument(
        "--rules",
        type=ruleset,
        metavar="NAME",
        default=None,
        help="only the tables of this ruleset (a name that 'yahtzee-rules rules' lists, or "
        "rules notation); the tie rule does not count, as no table depends on it",
    )
    parser.add_argument(
        "--kind",
        metavar="KIND",
        default=None,
        help="only the tables of this kind: optimal, decisions, target or distribution",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


def _entries(args: argparse.Namespace) -> list[CacheEntry]:
    from yahtzee_rules.bots.solver._internal import KINDS, cache_entries

    if args.kind is not None and args.kind not in KINDS:
        raise AppError(
            f"cache: --kind {args.kind!r}: no such kind of table; use one of {', '.join(KINDS)}"
        )
    return [
        entry
        for entry in reversed(cache_entries())  # the most recently used first
        if (args.kind is None or entry.kind == args.kind)
        and (args.rules is None or entry.serves(args.rules))
    ]


def _as_data(entry: CacheEntry) -> dict[str, Any]:
    return {
        "kind": entry.kind,
        "ruleset": entry.label,
        "maximum": entry.maximum,
        "bytes": entry.size,
        "last_used": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(entry.used)),
        "files": [str(path) for path in entry.paths],
    }


def _table(entries: list[CacheEntry]) -> list[str]:
    rows = [("Kind", "Ruleset", "Size", "Last used", "File")]
    for entry in entries:
        kind = entry.kind if entry.maximum is None else f"target to {entry.maximum}"
        used = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.used))
        rows.append((kind, entry.label, size_text(entry.size), used, entry.paths[-1].name))
    widths = [max(len(row[column]) for row in rows) for column in range(4)]
    lines = []
    for kind, label, size, used, name in rows:
        cells = (kind.ljust(widths[0]), label.ljust(widths[1]), size.rjust(widths[2]))
        lines.append("  ".join((*cells, used.ljust(widths[3]), name)).rstrip())
    return lines


def run(args: argparse.Namespace) -> int:
    """List or remove cached tables, as ``args`` ask; the exit status."""
    _extras.require_solver()
    from yahtzee_rules.bots.solver import cache_dir
    from yahtzee_rules.bots.solver._internal import cache_entries, cache_limit, remove_entry

    directory = cache_dir()
    if args.action == "list":
        if args.all:
            raise AppError("cache: --all goes with remove: 'yahtzee-rules cache remove --all'")
        entries = _entries(args)
        total = sum(entry.size for entry in entries)
        limit = cache_limit()
        if args.json:
            document = {
                "directory": str(directory),
                "limit": limit,
                "bytes": total,
                "entries": [_as_data(entry) for entry in entries],
            }
            print(json.dumps(document, indent=2))
            return 0
        tables = "table" if len(entries) == 1 else "tables"
        print(
            for_terminal(
                f"Cache {directory}: {len(entries)} {tables}, {size_text(total)} "
                f"(it keeps at most {size_text(limit)}: YAHTZEE_RULES_CACHE_LIMIT)"
            )
        )
        if entries:
            print("\n".join(for_terminal(line) for line in _table(entries)))
            print(
                "Remove them with 'yahtzee-rules cache remove --all', or by '--rules NAME' "
                "or '--kind KIND'."
            )
        return 0
    if not (args.all or args.rules is not None or args.kind is not None):
        raise AppError(
            "cache remove: which tables? give --all, --rules NAME or --kind KIND "
            "('yahtzee-rules cache' lists them)"
        )
    if args.all and (args.rules is not None or args.kind is not None):
        raise AppError("cache remove: --all removes every table; leave out --rules and --kind")
    chosen = _entries(args)
    removed = [entry for entry in chosen if remove_entry(entry)]
    freed = sum(entry.size for entry in removed)
    left = len(cache_entries())
    if args.json:
        document = {
            "directory": str(directory),
            "removed": [_as_data(entry) for entry in removed],
            "bytes": freed,
        }
        print(json.dumps(document, indent=2))
    else:
        tables = "table" if len(removed) == 1 else "tables"
        print(
            for_terminal(
                f"Removed {len(removed)} {tables} ({size_text(freed)}) from {directory}; "
                f"{left} left."
            )
        )
    if len(removed) < len(chosen):
        raise AppError(
            f"cache remove: {len(chosen) - len(removed)} tables could not be removed "
            f"(a folder you may not write to?)"
        )
    return 0
