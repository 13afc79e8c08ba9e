"""Storage: the cache directory, the keys of cached files, atomic writes and the one reader.

Every kind of table the solver caches (expected values, decisions, target tables) is
an ``.npz`` file holding its key (the library version, a digest of the source the
values depend on, the format and what was solved) beside its arrays, written
atomically (:func:`write_atomic`) and read back by :func:`read_arrays`, whose one list
of failures (:data:`BAD_FILE`) decides what counts as a file to rebuild. The kinds
check their arrays' shapes and types themselves.

Private to the package; :func:`cache_dir` and :data:`TABLE_FORMAT` are public.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Final

import numpy as np

from yahtzee_rules.bots.solver._model import value_rules
from yahtzee_rules.core.classic import CLASSIC
from yahtzee_rules.support import _version

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from yahtzee_rules.core.rules import Rules

_PACKAGE = "yahtzee_rules"
#: The directory of the ``yahtzee_rules`` package (this file is ``bots/solver/_storage.py`` in it).
_ROOT = Path(__file__).resolve().parents[2]

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
    pending = sorted(root.joinpath(*__name__.split(".")[1:-1]).glob("*.py"))  # bots/solver
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
    """The key of the expected-value table of ``rules`` from the start card of mask ``start``.

    Only what the values depend on is in it (:func:`value_rules`: not the tie rule), so
    rules that differ in nothing else share one file.
    """
    return (
        f"yahtzee_rules {_version.__version__} ({source_digest()}); "
        f"table format {TABLE_FORMAT}; rules={value_rules(rules)!r}; start={start}"
    )


def file_label(rules: Rules) -> str:
    """The start of a cache file's name: the Joker rule on Classic, else the ruleset's name
    (without the tie rule, which no value depends on)."""
    if rules.card is CLASSIC:
        return rules.joker.value
    return re.sub(r"[^a-z0-9]+", "-", value_rules(rules).name.lower()).strip("-")


#: Version of the saved decision layout; part of every decision file's key.
DECISIONS_FORMAT: Final = 1


def table_path(key: str, rules: Rules) -> Path:
    """The file of the expected-value table saved under ``key``."""
    digest = hashlib.sha256(key.encode()).hexdigest()[:20]
    return cache_dir() / f"optimal-{file_label(rules)}-{digest}.npz"


def decisions_key(rules: Rules, start: int, values: NDArray[np.float64]) -> str:
    """The key of the decisions of the table of ``rules`` from mask ``start`` with ``values``."""
    digest = hashlib.sha256(values.tobytes()).hexdigest()[:16]
    return f"{table_key(rules, start)}; decisions format {DECISIONS_FORMAT}; values {digest}"


def decisions_paths(key: str, rules: Rules) -> tuple[Path, Path]:
    """The decision codes' ``.npy`` file and its key's ``.npz`` file, saved under ``key``."""
    digest = hashlib.sha256(key.encode()).hexdigest()[:20]
    stem = f"decisions-{file_label(rules)}-{digest}"
    directory = cache_dir()
    return directory / f"{stem}.npy", directory / f"{stem}.npz"


def target_key(
    rules: Rules, start: tuple[int, int, int], maximum: int, open_boxes: int | None = None
) -> str:
    """The key of a target table of ``rules`` from the state ``start`` up to ``maximum``."""
    late = "" if open_boxes is None else f"; open boxes={open_boxes}"
    return (
        f"yahtzee_rules {_version.__version__} ({source_digest()}); "
        f"target table format {TABLE_FORMAT}; rules={value_rules(rules)!r}; start={start}; "
        f"maximum={maximum}"
        f"{late}"
    )


def target_path(key: str, rules: Rules, maximum: int) -> Path:
    """The file of the target table saved under ``key``."""
    digest = hashlib.sha256(key.encode()).hexdigest()[:20]
    return cache_dir() / f"target-{file_label(rules)}-{maximum}-{digest}.npz"


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


#: What reading a cached file may raise that means "damaged, truncated or not this
#: kind of file: rebuild it": any error at all, as a damaged zip directory can raise
#: almost anything (``BadZipFile``, ``EOFError``, ``KeyError``, ``ValueError``,
#: ``OSError``, and also ``NotImplementedError``, ``RuntimeError``, ``TypeError``...).
BAD_FILE: Final = (Exception,)


def read_arrays(
    path: Path, key: str, names: tuple[str, ...], *, mapped: Path | None = None
) -> dict[str, NDArray[Any]] | None:
    """The arrays ``names`` of the ``.npz`` file ``path``, if it is intact and saved under ``key``.

    ``None`` for a missing file, one saved under another key (other rules, version,
    source or format), or a bad one (see :data:`BAD_FILE`). With ``mapped``, also the
    ``.npy`` file there, mapped into memory read-only, as ``"mapped"``: it must be
    as large as the ``size`` array saved in ``path`` says.
    """
    try:
        with path.open("rb") as stream, np.load(stream, allow_pickle=False) as data:
            if str(data["key"]) != key:
                return None
            found: dict[str, NDArray[Any]] = {name: np.array(data[name]) for name in names}
        if mapped is not None:
            if mapped.stat().st_size != int(found["size"]):
                return None
            found["mapped"] = np.load(mapped, mmap_mode="r", allow_pickle=False)
    except BAD_FILE:  # missing (FileNotFoundError) or bad: rebuild
        return None
    return found
