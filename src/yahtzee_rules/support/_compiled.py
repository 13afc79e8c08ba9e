"""The library's optional compiled modules: whether one is built, and from which source.

Two C modules are built into the wheel where a C compiler exists (``hatch_build.py``):
the solver's per-turn kernel (``bots/solver/_ckernel.c``) and the values' builder
(``support/_cvalues.c``, see :func:`yahtzee_rules.support._frozen.raw_builder`). Each
carries the interface version it implements and a digest of the C file it was built
from, so that an editable install's module left over from an older C file is not used.
Where a module is missing or stale, the library computes the same results in Python
(or NumPy), more slowly.

Internal: nothing here is public API.
"""

from __future__ import annotations

import importlib
import os
from typing import Any, Final

__all__ = ["KERNEL_VARIABLE", "choice", "compiled_module", "required", "values_digest"]

#: ``YAHTZEE_RULES_KERNEL``: ``require`` makes a missing or stale compiled module a
#: ``RuntimeError`` where the library loads it (CI sets it: both must build there);
#: ``numpy`` turns the solver's kernel off (the values' builder stays on); ``auto``, the
#: default, uses each module where it is built.
KERNEL_VARIABLE: Final = "YAHTZEE_RULES_KERNEL"


def choice() -> str:
    """The value of ``YAHTZEE_RULES_KERNEL``, lower-cased (``auto`` when unset)."""
    return os.environ.get(KERNEL_VARIABLE, "auto").strip().lower()


def required(why: str) -> RuntimeError:
    """The error for a missing or stale module under ``YAHTZEE_RULES_KERNEL=require``:
    not an ImportError, since nothing is missing but the speed."""
    return RuntimeError(f"{KERNEL_VARIABLE}=require, but {why}: reinstall the package")


def values_digest(source: bytes) -> str:
    """The digest of the values' C file that its build puts in the module: the file's
    CRC-32 in 8 hex digits (``zlib``, cheap to import; it tells sources apart, nothing
    more is asked of it). ``hatch_build.py`` computes the same."""
    import zlib

    return f"{zlib.crc32(source):08x}"


def compiled_module(name: str, version: int, digest: str | None, title: str) -> tuple[Any, str]:
    """The compiled module ``name`` if it is built, implements ``version`` and was built
    from the source whose digest is ``digest``; otherwise ``None``. Also says why, in a
    phrase that starts with ``title`` (``"the compiled kernel"``)."""
    module: Any
    try:
        module = importlib.import_module(name)
    except ImportError as error:
        return None, f"{title} is not built: {error}"
    found = getattr(module, "VERSION", None)
    if found != version:
        return None, f"{title} at {module.__file__} is version {found}, not {version}"
    if getattr(module, "SOURCE", None) != digest:
        return None, f"{title} at {module.__file__} was built from another C file"
    return module, f"{title} ({os.path.basename(module.__file__ or name)})"
