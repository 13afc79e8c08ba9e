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
import contextlib
import functools
import hashlib
import io
import os
import re
import stat
import tempfile
import time
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Final

import attrs
import numpy as np

from yahtzee_rules.bots.solver._model import value_rules
from yahtzee_rules.core.classic import CLASSIC
from yahtzee_rules.support import _version
from yahtzee_rules.support._limits import MAX_CACHE_BYTES
from yahtzee_rules.support.errors import MalformedInputError

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from yahtzee_rules.core.rules import Rules

_PACKAGE = "yahtzee_rules"
#: The directory of the ``yahtzee_rules`` package (this file is ``bots/solver/_storage.py`` in it).
_ROOT = Path(__file__).resolve().parents[2]

#: Version of the saved table layout; part of every cache key.
TABLE_FORMAT: Final = 2


def cache_dir() -> Path:
    """Where tables are cached: ``$YAHTZEE_RULES_CACHE_DIR``, else the user's cache directory.

    Without ``YAHTZEE_RULES_CACHE_DIR`` this is ``$XDG_CACHE_HOME/yahtzee_rules``, or
    ``~/.cache/yahtzee_rules`` when ``XDG_CACHE_HOME`` is not set.

    Whatever is found there is checked, never trusted: only regular files are opened
    (a FIFO, device or directory in a table's place is rebuilt over, without
    blocking), no file larger than its kind of table is read and nothing is
    decompressed past that size, arrays of the wrong key, shape, type or values (a
    decision naming no action) are rebuilt, and a directory that cannot be read or
    written only costs a rebuild. Files are written through a temporary
    ``.<kind>-<pid>-<random>.tmp`` renamed into place; a temporary left by a writer
    that was killed is removed by the next write there once its process is gone or
    it is an hour old (``STALE_TEMPORARY_SECONDS``). The directory holds at most
    ``$YAHTZEE_RULES_CACHE_LIMIT`` bytes (2 GB by default: bytes, or a number with
    ``K``, ``M``, ``G`` or ``T``): after each write the least recently used tables
    (last written or read) are removed until the rest fit, and a table over the whole
    limit is not kept; ``yahtzee-rules cache`` lists and removes them.

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


#: The fields of a node that hold statements (an import is a statement: it is found in
#: these lists only, never in an expression).
_BODIES: Final = ("body", "orelse", "finalbody", "handlers", "cases")


def _statements(tree: ast.AST) -> list[ast.AST]:
    """Every statement of ``tree``, at any depth (function and class bodies, branches,
    handlers, ``match`` cases): what :func:`ast.walk` finds of them, without visiting
    the expressions (most of a module's nodes)."""
    found: list[ast.AST] = []
    pending = [tree]
    while pending:
        node = pending.pop()
        found.append(node)
        for field in _BODIES:
            children = getattr(node, field, None)
            if isinstance(children, list):
                pending.extend(children)
    return found


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
    for node in _statements(ast.parse(path.read_bytes(), filename=str(path))):
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
    imported), and the source of its compiled kernel (``_ckernel.c``, whether or not
    it is built here).
    """
    solver = root.joinpath(*__name__.split(".")[1:-1])  # bots/solver
    pending = sorted(solver.glob("*.py"))
    seen: set[Path] = set(solver.glob("*.c"))
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


#: Version of the saved distribution layout; part of every distribution file's key.
DISTRIBUTION_FORMAT: Final = 1


def distribution_key(
    rules: Rules, start: int, values: NDArray[np.float64], state: tuple[int, int, int]
) -> str:
    """The key of the distribution of the points to come from the turn-start ``state``
    under the play of the table of ``rules`` from mask ``start`` with ``values``."""
    digest = hashlib.sha256(values.tobytes()).hexdigest()[:16]
    return (
        f"{table_key(rules, start)}; distribution format {DISTRIBUTION_FORMAT}; "
        f"values {digest}; state={state}"
    )


def distribution_path(key: str, rules: Rules) -> Path:
    """The file of the distribution saved under ``key``."""
    digest = hashlib.sha256(key.encode()).hexdigest()[:20]
    return cache_dir() / f"distribution-{file_label(rules)}-{digest}.npz"


#: A temporary file a writer left behind (a process killed mid-write) is removed by the
#: next write to the directory once it is this old, in seconds, or sooner once the
#: process named in it (``.<kind>-<pid>-*.tmp``) is no longer running. A write takes
#: seconds (under a minute for the largest file), so no live writer's file is this old.
STALE_TEMPORARY_SECONDS: Final = 3600

#: The suffix of every temporary file :func:`write_atomic` writes.
_TEMPORARY_SUFFIX: Final = ".tmp"


def _running(pid: int) -> bool:
    """Whether a process ``pid`` runs on this machine (``True`` when it cannot be told,
    and on Windows, where ``os.kill`` would end the process: temporaries go by age)."""
    if pid == os.getpid() or os.name == "nt":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError, ValueError):  # not ours to signal, or no such pid
        return True
    return True


def remove_stale_temporaries(
    directory: Path, *, now: float | None = None, age: float = STALE_TEMPORARY_SECONDS
) -> list[Path]:
    """Remove the temporaries writers killed mid-write left in ``directory``; those removed.

    A temporary is a file named ``.<kind>-<pid>-<random>.tmp`` (see :func:`write_atomic`;
    ``<kind>`` is ``optimal``, ``decisions``, ``target`` or ``distribution``, and earlier versions wrote no
    ``<pid>``), and stale when its writer ``pid`` is no longer running here, or when it was last
    written over ``age`` seconds ago (:data:`STALE_TEMPORARY_SECONDS`: a writer on
    another machine sharing the directory, or a pid taken again). Errors are ignored:
    another process may be cleaning too, or the directory may be unreadable.
    """
    removed: list[Path] = []
    now = time.time() if now is None else now
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    for entry in entries:
        match = _TEMPORARY.fullmatch(entry.name)
        if match is None:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(info.st_mode):
                continue
            pid = match["pid"]
            if now - info.st_mtime > age or (pid is not None and not _running(int(pid))):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


#: A temporary of :func:`write_atomic`: its kind's prefix, the writer's pid (none in the
#: names of earlier versions, whose temporaries go by age alone) and mkstemp's letters.
_TEMPORARY: Final = re.compile(
    r"\.(?:optimal|decisions|target|distribution)-(?:(?P<pid>[0-9]{1,10})-)?[a-z0-9_]+"
    + re.escape(_TEMPORARY_SUFFIX)
)


def write_atomic(path: Path, prefix: str, save: Callable[[BinaryIO], None]) -> bool:
    """Write ``path`` atomically with ``save(stream)``: a temporary file in the same
    directory (``<prefix><pid>-<random>.tmp``), flushed to disk, then a rename; whether
    it was written (and kept: see :func:`evict`). An unwritable directory only costs a
    rebuild later. Temporaries left by writers that died first are removed
    (:func:`remove_stale_temporaries`)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(path.parent)
        handle, temporary = tempfile.mkstemp(
            dir=path.parent, prefix=f"{prefix}{os.getpid()}-", suffix=_TEMPORARY_SUFFIX
        )
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
    return path not in evict(path.parent, keep=path)


def write_npz(path: Path, prefix: str, **arrays: object) -> bool:
    """Write ``arrays`` to ``path`` atomically (see :func:`write_atomic`); whether it was.

    The file is what :func:`numpy.savez` writes (members stored, not compressed), but
    with each member's data starting at a multiple of :data:`ALIGN` bytes in the file,
    so that a process can map an array in place (:func:`map_arrays`).
    """
    return write_atomic(path, prefix, lambda stream: save_aligned(stream, arrays))


#: Where the data of each member of a written ``.npz`` starts: a multiple of this many
#: bytes into the file (NumPy's own ``.npy`` header alignment), so it maps in place.
ALIGN: Final = 64

#: The ID of the zip extra field that pads a member's local header to :data:`ALIGN`
#: (the one Android's ``zipalign`` writes; zip readers skip fields they do not know).
_PADDING_FIELD: Final = 0xD935

#: A zip local file header's fixed part, and the zip64 field every member gets.
_LOCAL_HEADER: Final = 30
_ZIP64_FIELD: Final = 20


def save_aligned(stream: BinaryIO, arrays: Mapping[str, object]) -> None:
    """Write ``arrays`` to ``stream`` (at its start) as :func:`numpy.savez` does, each
    member's data aligned to :data:`ALIGN` bytes in the file.

    Examples:
        >>> stream = io.BytesIO()
        >>> save_aligned(stream, {"a": np.arange(3.0), "b": np.zeros(2, dtype=np.int16)})
        >>> sorted(np.load(io.BytesIO(stream.getvalue())).items())[0]
        ('a', array([0., 1., 2.]))
    """
    import struct

    from numpy.lib import format as npy

    with zipfile.ZipFile(stream, mode="w", compression=zipfile.ZIP_STORED) as archive:
        for name, value in arrays.items():
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED
            fixed = stream.tell() + _LOCAL_HEADER + len(info.filename.encode()) + _ZIP64_FIELD
            pad = -(fixed + 4) % ALIGN
            info.extra = struct.pack("<HH", _PADDING_FIELD, pad) + bytes(pad)
            with archive.open(info, mode="w", force_zip64=True) as member:
                npy.write_array(member, np.asanyarray(value), allow_pickle=False)
            info.extra = b""  # the padding is in the local header only, not the directory


def map_arrays(
    path: Path, key: str, sizes: Mapping[str, int], mapped: tuple[str, ...]
) -> dict[str, NDArray[Any]] | None:
    """The arrays named in ``sizes`` of the ``.npz`` file ``path`` saved under ``key``, as
    :func:`read_arrays` gives them, but those named in ``mapped`` mapped into memory
    read-only in place (no copy: the processes that map one file share its pages).

    A member that cannot be mapped in place (compressed, or its data not aligned to its
    type: a file another writer wrote) is read instead. ``None`` for a file missing,
    saved under another key, or bad. The zip's checksums of the mapped members are not
    checked (that would read them): the caller checks their data (a digest).
    """
    key_bytes = 4 * len(key)
    most = key_bytes + sum(sizes.values()) + (len(sizes) + 1) * 2 * _NPY_HEADER
    try:
        with open_regular(path, most) as stream:
            with zipfile.ZipFile(stream) as archive:
                stored = _member(archive, "key", key_bytes)
                if stored.shape != () or str(stored) != key:
                    return None
                found = {
                    name: _member(archive, name, size)
                    for name, size in sizes.items()
                    if name not in mapped
                }
                infos = {name: archive.getinfo(f"{name}.npy") for name in mapped}
            for name, info in infos.items():
                array = _map_member(stream, info, sizes[name])
                if array is None:  # not in place: read it
                    with zipfile.ZipFile(stream) as archive:
                        array = _member(archive, name, sizes[name])
                found[name] = array
    except BAD_FILE:  # missing (FileNotFoundError), unreadable or bad
        return None
    return found


def _map_member(stream: BinaryIO, info: zipfile.ZipInfo, most: int) -> NDArray[Any] | None:
    """The member ``info`` of the zip file ``stream`` mapped read-only in place, if it is
    stored uncompressed with its data aligned to its type; else None (or an error)."""
    import struct

    if info.compress_type != zipfile.ZIP_STORED or info.file_size > most + _NPY_HEADER:
        return None
    stream.seek(info.header_offset)
    header = stream.read(_LOCAL_HEADER)
    if len(header) != _LOCAL_HEADER or header[:4] != b"PK\x03\x04":
        raise BadFileError(f"{info.filename}: no local header where the directory says")
    names, extras = struct.unpack("<HH", header[26:30])
    start = info.header_offset + _LOCAL_HEADER + names + extras
    stream.seek(start)
    shape, fortran, dtype = _npy_header(stream)
    offset = stream.tell()
    count = 1
    for side in shape:
        count *= side
    size = count * dtype.itemsize
    if fortran or offset - start + size != info.file_size:
        raise BadFileError(f"{info.filename}: not an array of shape {shape}")
    if offset + size > os.fstat(stream.fileno()).st_size:
        raise BadFileError(f"{info.filename}: past the end of the file")
    if offset % dtype.alignment:
        return None
    array = np.memmap(stream, dtype=dtype, mode="r", offset=offset, shape=shape)
    return array.view(np.ndarray)


#: What reading a cached file may raise that means "damaged, truncated or not this
#: kind of file: rebuild it": any error at all, as a damaged zip directory can raise
#: almost anything (``BadZipFile``, ``EOFError``, ``KeyError``, ``ValueError``,
#: ``OSError``, and also ``NotImplementedError``, ``RuntimeError``, ``TypeError``...).
BAD_FILE: Final = (Exception,)

#: Bytes an ``.npy`` header may take besides its data (NumPy writes 64 to 128).
_NPY_HEADER: Final = 4096


class BadFileError(Exception):
    """A cached file that is not one to read: not a regular file, too large, or not the
    arrays expected (rebuilt like any other bad file)."""


def open_regular(path: Path, most: int) -> BinaryIO:
    """``path`` opened for reading if it is a regular file of at most ``most`` bytes.

    Opened without blocking (a FIFO put in a file's place does not hang the open) and
    checked after opening, on the open file (no race with a rename): a FIFO, device,
    socket or directory, or a file larger than any file of its kind, is refused with
    :class:`BadFileError`. A symbolic link is followed, to a regular file only.

    Raises:
        OSError: When it cannot be opened (missing, or a directory that may not be
            searched...).
        BadFileError: When it is not a regular file or is over ``most`` bytes.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    handle = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise BadFileError(f"{path}: not a regular file")
        if info.st_size > most:
            raise BadFileError(f"{path}: {info.st_size} bytes, over the {most} its kind may take")
        return os.fdopen(handle, "rb")
    except BaseException:
        os.close(handle)
        raise


def _npy_header(stream: BinaryIO) -> tuple[tuple[int, ...], bool, np.dtype[Any]]:
    """The shape, Fortran order and type an ``.npy`` header read from ``stream`` gives."""
    from numpy.lib import format as npy

    version = npy.read_magic(stream)
    if version == (1, 0):
        shape, fortran, dtype = npy.read_array_header_1_0(stream, max_header_size=_NPY_HEADER)
    elif version == (2, 0):
        shape, fortran, dtype = npy.read_array_header_2_0(stream, max_header_size=_NPY_HEADER)
    else:
        raise BadFileError(f".npy version {version}: not one NumPy writes for these arrays")
    if dtype.hasobject:
        raise BadFileError(".npy of objects: never read")
    return shape, fortran, dtype


def _array(data: bytes) -> NDArray[Any]:
    """The array of the ``.npy`` bytes ``data``, whose header must describe exactly them."""
    stream = io.BytesIO(data)
    shape, fortran, dtype = _npy_header(stream)
    count = 1
    for side in shape:
        count *= side
    offset = stream.tell()
    if len(data) - offset != count * dtype.itemsize:
        raise BadFileError(f".npy of shape {shape}: {len(data) - offset} bytes of data")
    flat = np.frombuffer(data, dtype=dtype, count=count, offset=offset)
    return flat.reshape(shape, order="F" if fortran else "C").copy()


def _member(archive: zipfile.ZipFile, name: str, most: int) -> NDArray[Any]:
    """The array ``name`` of ``archive``, its data at most ``most`` bytes: decompressed
    no further than that (a zip bomb costs what a good file costs), whatever its
    directory says."""
    info = archive.getinfo(f"{name}.npy")
    limit = most + _NPY_HEADER
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise BadFileError(f"{name}: compression {info.compress_type}, never written here")
    if info.file_size > limit:
        raise BadFileError(f"{name}: {info.file_size} bytes, over {limit}")
    with archive.open(info) as member:
        data = member.read(limit + 1)  # decompressed in steps of at most this much
    if len(data) > limit:
        raise BadFileError(f"{name}: over {limit} bytes")
    return _array(data)


def read_arrays(
    path: Path,
    key: str,
    sizes: Mapping[str, int],
    *,
    mapped: Path | None = None,
    mapped_size: int = 0,
) -> dict[str, NDArray[Any]] | None:
    """The arrays named in ``sizes`` of the ``.npz`` file ``path``, if it is intact and
    saved under ``key``.

    ``sizes`` gives each array's most bytes of data (a file's own size): no array is
    read, nor decompressed, past that, and no file larger than they allow is opened
    (see :func:`open_regular`: only regular files are read). ``None`` for a missing
    file, one saved under another key (other rules, version, source or format), or
    a bad one (see :data:`BAD_FILE`). With ``mapped``, also the ``.npy`` file there,
    of at most ``mapped_size`` bytes, mapped into memory read-only, as ``"mapped"``:
    it must be as large as the ``size`` array saved in ``path`` says. A file read is
    marked as used now (its modification time), for :func:`evict`.
    """
    key_bytes = 4 * len(key)  # a NumPy string holds 4 bytes per character
    most = key_bytes + sum(sizes.values()) + (len(sizes) + 1) * 2 * _NPY_HEADER
    try:
        with open_regular(path, most) as stream, zipfile.ZipFile(stream) as archive:
            stored = _member(archive, "key", key_bytes)
            if stored.shape != () or str(stored) != key:
                return None
            found = {name: _member(archive, name, size) for name, size in sizes.items()}
        if mapped is not None:
            found["mapped"] = _mapped(mapped, int(found["size"]), mapped_size)
    except BAD_FILE:  # missing (FileNotFoundError), unreadable or bad: rebuild
        return None
    for used in (path, mapped):
        _touch(used)
    return found


def _mapped(path: Path, size: int, most: int) -> NDArray[Any]:
    """The ``.npy`` file ``path`` of ``size`` bytes (at most ``most``), mapped read-only."""
    if size > most:
        raise BadFileError(f"{path}: {size} bytes, over the {most} its kind may take")
    with open_regular(path, size) as stream:
        if os.fstat(stream.fileno()).st_size != size:
            raise BadFileError(f"{path}: not the {size} bytes its key says")
        shape, fortran, dtype = _npy_header(stream)
        offset = stream.tell()
        count = 1
        for side in shape:
            count *= side
        if fortran or size - offset != count * dtype.itemsize:
            raise BadFileError(f"{path}: not an array of shape {shape}")
        return np.memmap(stream, dtype=dtype, mode="r", offset=offset, shape=shape)


# --------------------------------------------------------------------------------------
# What the cache holds: its entries, their sizes and last use, and the size limit.
# --------------------------------------------------------------------------------------

#: The kinds of file the cache holds, by the start of their names, and what each is.
KINDS: Final = {
    "optimal": "expected-value table: the optimal strategy's values",
    "decisions": "decision table: the best action of every roll, mapped into memory",
    "target": "target table: the best chance of reaching every total up to its maximum",
    "distribution": "final-score distribution under optimal play, from one card",
}

#: A cache file's name: its kind, its label (the Joker rule on Classic, else the ruleset;
#: a target table's ends with its maximum), a digest of its key, and ``.npz`` (``.npy``
#: for a decision table's codes, beside its ``.npz`` key).
_ENTRY: Final = re.compile(
    r"(?P<kind>optimal|decisions|target|distribution)-(?P<label>[a-z0-9-]+)-[0-9a-f]{20}"
    r"\.(?:npz|npy)"
)

#: The environment variable that sets :func:`cache_limit`.
LIMIT_VARIABLE: Final = "YAHTZEE_RULES_CACHE_LIMIT"

_UNITS: Final = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}


def cache_limit() -> int:
    """The most bytes :func:`cache_dir` holds: ``$YAHTZEE_RULES_CACHE_LIMIT``, else 2 GB.

    The variable is a number of bytes, or of kilobytes, megabytes, gigabytes or
    terabytes with ``K``, ``M``, ``G`` or ``T`` after it (powers of 1000; a ``B`` may
    follow): ``500M``, ``4GB``, ``1.5G``; ``0`` keeps nothing.

    Raises:
        MalformedInputError: For a value that is no such size, naming the variable.

    Examples:
        >>> import os
        >>> os.environ["YAHTZEE_RULES_CACHE_LIMIT"] = "500M"
        >>> cache_limit()
        500000000
        >>> os.environ["YAHTZEE_RULES_CACHE_LIMIT"] = "lots"
        >>> cache_limit()
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: YAHTZEE_RULES_CACHE_LIMIT 'lots': not a size; give bytes, or a number with K, M, G or T, such as 500M or 4G
        >>> del os.environ["YAHTZEE_RULES_CACHE_LIMIT"]
    """
    text = os.environ.get(LIMIT_VARIABLE)
    if text is None or not text.strip():
        return MAX_CACHE_BYTES
    match = re.fullmatch(r"\s*([0-9]{1,15}(?:\.[0-9]{1,6})?)\s*([kmgt]?)b?\s*", text, re.I)
    if match is None:
        raise MalformedInputError(
            f"{LIMIT_VARIABLE} {text[:40]!r}: not a size; give bytes, or a number with K, M, "
            f"G or T, such as 500M or 4G"
        )
    return int(float(match[1]) * _UNITS[match[2].lower()])


@attrs.frozen
class CacheEntry:
    """One cached table: its file (a decision table's two), kind, label, size and last use.

    Attributes:
        kind: One of :data:`KINDS`.
        label: The Joker rule for the Classic card, else the ruleset's name, as in the
            file's name.
        paths: Its files: one, or a decision table's codes and key.
        size: Their bytes.
        used: When it was last written or read (seconds since the epoch).
        maximum: A target table's highest target; ``None`` for the other kinds.
    """

    kind: str
    label: str
    paths: tuple[Path, ...]
    size: int
    used: float
    maximum: int | None = None

    def serves(self, rules: Rules) -> bool:
        """Whether it was built for ``rules`` (or rules that differ only in the tie rule):
        read from its key, or from its name's label when the key cannot be read."""
        key = self.key()
        if key is not None:
            return f"; rules={value_rules(rules)!r}; " in key
        return self.label == file_label(rules)

    def key(self) -> str | None:
        """The key saved in its ``.npz`` file (what it was built for), or ``None`` when
        that cannot be read."""
        keyed = next((path for path in self.paths if path.suffix == ".npz"), None)
        if keyed is None:
            return None
        try:
            with open_regular(keyed, 1 << 40) as stream, zipfile.ZipFile(stream) as archive:
                stored = _member(archive, "key", 4 * 4096)
        except BAD_FILE:
            return None
        return str(stored) if stored.shape == () else None


def cache_entries(directory: Path | None = None) -> list[CacheEntry]:
    """The tables cached in ``directory`` (default :func:`cache_dir`), least recently used
    first; only regular files named as the solver names them count.

    Examples:
        >>> import tempfile
        >>> cache_entries(Path(tempfile.mkdtemp()))
        []
    """
    directory = cache_dir() if directory is None else directory
    grouped: dict[str, list[tuple[Path, os.stat_result, re.Match[str]]]] = {}
    try:
        listed = list(os.scandir(directory))
    except OSError:
        return []
    for item in listed:
        match = _ENTRY.fullmatch(item.name)
        if match is None:
            continue
        try:
            info = item.stat(follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            stem = item.name.rpartition(".")[0]
            grouped.setdefault(stem, []).append((Path(item.path), info, match))
    entries = []
    for files in grouped.values():
        kind, label = files[0][2]["kind"], files[0][2]["label"]
        maximum = None
        if kind == "target":  # target-<label>-<maximum>-<digest>
            label, _, most = label.rpartition("-")
            maximum = int(most) if most.isdigit() and len(most) < 10 else None
        entries.append(
            CacheEntry(
                kind=kind,
                label=label,
                paths=tuple(sorted(path for path, _, _ in files)),
                size=sum(info.st_size for _, info, _ in files),
                used=max(info.st_mtime for _, info, _ in files),
                maximum=maximum,
            )
        )
    return sorted(entries, key=lambda entry: (entry.used, entry.paths))


def remove_entry(entry: CacheEntry) -> bool:
    """Remove ``entry``'s files; whether they are gone (another process may remove them
    first, or the directory may be read-only)."""
    gone = True
    for path in entry.paths:
        try:
            path.unlink(missing_ok=True)
        except OSError:
            gone = False
    return gone


def evict(directory: Path, *, keep: Path | None = None, limit: int | None = None) -> list[Path]:
    """Remove the least recently used entries of ``directory`` until it holds at most
    ``limit`` bytes (default :func:`cache_limit`); the files removed.

    The entry of ``keep`` (the file just written) stays, unless it alone is over the
    limit: it is then removed, and nothing else.
    """
    limit = cache_limit() if limit is None else limit
    entries = cache_entries(directory)
    total = sum(entry.size for entry in entries)
    if total <= limit:
        return []
    kept = [entry for entry in entries if keep in entry.paths]
    if kept and kept[0].size > limit:  # over the limit on its own: not kept, the rest stays
        return list(kept[0].paths) if remove_entry(kept[0]) else []
    removed: list[Path] = []
    for entry in [entry for entry in entries if keep not in entry.paths]:
        if total <= limit:
            break
        if remove_entry(entry):
            total -= entry.size
            removed.extend(entry.paths)
    return removed


def _touch(path: Path | None) -> None:
    """Mark ``path`` as used now, for :func:`evict` (a read-only directory: not marked)."""
    if path is not None:
        with contextlib.suppress(OSError):
            os.utime(path)
