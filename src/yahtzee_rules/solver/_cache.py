"""The cache: one file per rule set, library version, source digest and table format."""

from __future__ import annotations

import ast
import functools
import hashlib
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, Final

import numpy as np

from yahtzee_rules import _version
from yahtzee_rules._filling import check_rules
from yahtzee_rules.categories import CLASSIC
from yahtzee_rules.errors import MalformedInputError
from yahtzee_rules.rules import Rules
from yahtzee_rules.scorecard import Scorecard, empty_card
from yahtzee_rules.solver._build import Progress
from yahtzee_rules.solver._model import check_solvable, mask_of
from yahtzee_rules.solver._table import Table, build_table, check_design

_CLASSIC = Rules()
_PACKAGE = "yahtzee_rules"
#: The directory of the ``yahtzee_rules`` package (this file is ``solver/_cache.py`` in it).
_ROOT = Path(__file__).resolve().parents[1]

#: Version of the saved table layout; part of every cache key.
TABLE_FORMAT: Final = 1


def cache_dir() -> Path:
    """Where tables are cached: ``$YAHTZEE_RULES_CACHE_DIR``, else the user's cache directory.

    Without ``YAHTZEE_RULES_CACHE_DIR`` this is ``$XDG_CACHE_HOME/yahtzee_rules``, or
    ``~/.cache/yahtzee_rules`` when ``XDG_CACHE_HOME`` is not set.

    Examples:
        >>> import os
        >>> os.environ["YAHTZEE_RULES_CACHE_DIR"] = "/tmp/tables"
        >>> cache_dir()
        PosixPath('/tmp/tables')
        >>> del os.environ["YAHTZEE_RULES_CACHE_DIR"]
    """
    explicit = os.environ.get("YAHTZEE_RULES_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "yahtzee_rules"


def _module_file(root: Path, module: str) -> Path | None:
    """The source file of ``module`` if it is in the package whose directory is ``root``."""
    parts = module.split(".")
    if parts[0] != _PACKAGE:
        return None
    base = root.joinpath(*parts[1:])
    for candidate in (base / "__init__.py", base.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


def _module_name(root: Path, path: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((_PACKAGE, *parts))


def _imported_files(root: Path, path: Path) -> set[Path]:
    """The package's files that ``path`` imports, read from its source.

    Imports anywhere count: at the top, inside functions, for type checking. Importing
    ``a.b.c`` (or ``c`` from ``a.b`` when it is a module) also runs the package
    ``a.b``; the package root is left out of those, as it only gathers public names,
    but counts when a name is imported from it.
    """
    name = _module_name(root, path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parent = package.split(".")[: package.count(".") + 2 - node.level]
                base = ".".join([*parent, node.module] if node.module else parent)
            else:
                base = node.module or ""
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                modules.add(submodule if _module_file(root, submodule) else base)
    files: set[Path] = set()
    for module in modules:
        parts = module.split(".")
        for depth in range(len(parts), 1, -1):  # the module, then its packages but the root
            found = _module_file(root, ".".join(parts[:depth]))
            if found is not None:
                files.add(found)
        if len(parts) == 1:
            found = _module_file(root, module)
            if found is not None:
                files.add(found)
    return files


def source_files(root: Path = _ROOT) -> tuple[Path, ...]:
    """The package's source files a table's values may depend on, sorted.

    They are the solver's own modules and, transitively, every module of the package
    they import (read from the source, so a new module is covered as soon as it is
    imported).
    """
    pending = sorted((root / "solver").glob("*.py"))
    seen: set[Path] = set()
    while pending:
        path = pending.pop()
        if path not in seen:
            seen.add(path)
            pending.extend(_imported_files(root, path) - seen)
    return tuple(sorted(seen))


def digest_files(root: Path, paths: tuple[Path, ...]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@functools.cache
def source_digest() -> str:
    """A digest of the code a table depends on, so an edited checkout never reads old tables."""
    try:
        return digest_files(_ROOT, source_files(_ROOT))
    except (OSError, SyntaxError, ValueError):  # pragma: no cover - e.g. running from a zip file
        return "no source"


def table_key(rules: Rules, start: int) -> str:
    return (
        f"yahtzee_rules {_version.__version__} ({source_digest()}); "
        f"table format {TABLE_FORMAT}; rules={rules!r}; start={start}"
    )


def cache_path(*, rules: Rules = _CLASSIC, start: Scorecard | None = None) -> Path:
    """The file :func:`load_table` uses for ``rules`` (it may not exist yet).

    The name holds a digest of the rules, the library version (and a digest of the
    source files the values depend on: the solver's modules and every module of
    the library they import), the table format and the start card's filled boxes,
    so tables for other versions never collide. It starts with the Joker rule for
    the Classic card, and with the ruleset's name for other cards.

    Raises:
        MalformedInputError: For a ``start`` card of another design than the rules'.

    Examples:
        >>> from yahtzee_rules import Rules
        >>> cache_path().name.startswith("optimal-forced-"), cache_path().suffix
        (True, '.npz')
        >>> cache_path(rules=Rules.from_name("yacht")).name.startswith("optimal-yacht-")
        True
    """
    rules = check_solvable(check_rules(rules))
    mask = 0 if start is None else mask_of(check_design(start, rules))
    digest = hashlib.sha256(table_key(rules, mask).encode()).hexdigest()[:20]
    return cache_dir() / f"optimal-{file_label(rules)}-{digest}.npz"


def file_label(rules: Rules) -> str:
    """The start of a cache file's name: the Joker rule on Classic, else the ruleset's name."""
    if rules.card is CLASSIC:
        return rules.joker.value
    return re.sub(r"[^a-z0-9]+", "-", rules.name.lower()).strip("-")


def _read_cached(path: Path, rules: Rules, start: Scorecard) -> Table | None:
    """The table in ``path`` if it is complete, intact and for these rules and version."""
    import zipfile

    try:
        with path.open("rb") as stream, np.load(stream, allow_pickle=False) as data:
            if str(data["key"]) != table_key(rules, mask_of(start)):
                return None
            values = np.array(data["values"])  # zip CRCs are checked on reading
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None  # truncated, damaged or not a table: rebuild
    except Exception:  # a damaged zip directory can raise almost anything
        return None  # (NotImplementedError, RuntimeError, TypeError...): rebuild too
    if values.dtype != np.float64 or not np.isfinite(values).all():
        return None
    try:
        return Table(values, rules=rules, start=start)
    except MalformedInputError:
        return None


def write_atomic(path: Path, prefix: str, save: Callable[[BinaryIO], None]) -> bool:
    """Write ``path`` atomically with ``save(stream)``: a temporary file in the same
    directory, flushed to disk, then a rename; whether it was written. An unwritable
    directory only costs a rebuild later."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=prefix, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as stream:
                save(stream)
                stream.flush()
                os.fsync(stream.fileno())
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError:
        return False  # an unwritable cache directory only costs a rebuild next time
    return True


def write_npz(path: Path, prefix: str, **arrays: object) -> None:
    """Write ``arrays`` to ``path`` atomically (see :func:`write_atomic`)."""
    write_atomic(path, prefix, lambda stream: np.savez(stream, **arrays))  # type: ignore[arg-type]


def _write_cached(path: Path, table: Table, rules: Rules) -> None:
    """Write the table's values under its key (see :func:`write_npz`)."""
    key = np.array(table_key(rules, mask_of(table.start)))
    write_npz(path, ".optimal-", key=key, values=table.values)


def load_table(
    *,
    rules: Rules = _CLASSIC,
    start: Scorecard | None = None,
    progress: Progress | None = None,
    cache: bool = True,
) -> Table:
    """The table for ``rules`` from the cache, building and caching it when needed.

    The cache file (see :func:`cache_path`) is keyed by the rules, the library
    version and the table format, and checked when read: a file for other rules or
    another version, or one that is truncated or damaged, is never used. The table
    is then rebuilt and the file replaced, written atomically so that a crash never
    leaves half a file behind.

    Args:
        rules: The rule set.
        start: As for :func:`build_table`.
        progress: Passed to :func:`build_table` when a build is needed.
        cache: ``False`` builds without reading or writing the cache.

    Examples:
        >>> import os, tempfile
        >>> from yahtzee_rules import Category, Scorecard
        >>> os.environ["YAHTZEE_RULES_CACHE_DIR"] = tempfile.mkdtemp()
        >>> card = Scorecard({c: 0 for c in Category.upper()})
        >>> table = load_table(start=card)  # built and saved
        >>> cache_path(start=card).exists()
        True
        >>> load_table(start=card).value(card) == table.value(card)  # read back
        True
        >>> del os.environ["YAHTZEE_RULES_CACHE_DIR"]
    """
    rules = check_solvable(check_rules(rules))
    start_card = empty_card(rules.card) if start is None else check_design(start, rules)
    if not cache:
        return build_table(rules=rules, start=start_card, progress=progress)
    path = cache_path(rules=rules, start=start_card)
    found = _read_cached(path, rules, start_card)
    if found is not None:
        return found
    table = build_table(rules=rules, start=start_card, progress=progress)
    _write_cached(path, table, rules)
    return table
