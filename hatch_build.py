"""Wheel build hook: compile the library's two optional C modules.

- ``yahtzee_rules.bots.solver._ckernel``, the solver's per-turn kernel: where it is not
  built, the solver uses its NumPy path, which gives the same values and choices.
- ``yahtzee_rules.support._cvalues``, the values' builder (cards, turns, games and totals
  the rules engine made itself): where it is not built, the same values are built in
  Python, more slowly.

Each is built with setuptools' extension builder against CPython's limited API (3.11),
so one wheel serves every later CPython on its platform (tag ``cp311-abi3``). Where
they cannot be built (no C compiler, another interpreter, or ``YAHTZEE_RULES_PURE=1``
in the environment), the wheel is pure Python. An editable install compiles the
modules into the source tree (``pip install -e .`` again after changing a C file: each
module carries its source's digest, and the library ignores a module built from
another source than the C file beside it).
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import sys
import sysconfig
import tempfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

Digest = Callable[[bytes], str]


def _sha256(source: bytes) -> str:
    """The kernel's digest, as ``bots/solver/_compiled.py`` computes it."""
    return hashlib.sha256(source).hexdigest()[:16]


def _crc32(source: bytes) -> str:
    """The values' builder's digest, as ``support/_compiled.py`` computes it."""
    return f"{zlib.crc32(source):08x}"


#: Each module, the macro that carries its C file's digest into it, the digest, a title.
MODULES = (
    ("yahtzee_rules.bots.solver._ckernel", "KERNEL_SOURCE", _sha256, "the solver's C kernel"),
    ("yahtzee_rules.support._cvalues", "VALUES_SOURCE", _crc32, "the values' C builder"),
)
# No reordered or fused floating-point operations: the kernel adds in the NumPy path's order.
FLAGS = ["-O3", "-ffp-contract=off", "-fno-fast-math", "-std=c99"]


def _source(module: str) -> Path:
    """The C file of ``module``, from the project's root."""
    return Path("src", *module.split(".")).with_suffix(".c")


def _compile(root: Path, out: Path, module: str, macro: str, digest: Digest) -> Path:
    """Build the extension ``module`` into ``out``; returns the built file."""
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    source = digest((root / _source(module)).read_bytes())
    extension = Extension(
        module,
        [str(root / _source(module))],
        py_limited_api=True,
        # the source's digest, by which the library tells a module built from another source
        define_macros=[("Py_LIMITED_API", "0x030B0000"), (macro, f'"{source}"')],
        extra_compile_args=FLAGS if os.name != "nt" else ["/O2", "/fp:precise"],
    )
    command = build_ext(Distribution({"name": "yahtzee-rules", "ext_modules": [extension]}))
    command.build_lib = str(out / "lib")
    command.build_temp = str(out / "temp")
    command.ensure_finalized()
    command.run()
    built = Path(command.get_ext_fullpath(module))
    if not built.is_file():
        raise FileNotFoundError(built)
    return built


def _platform_tag() -> str:
    return sysconfig.get_platform().replace("-", "_").replace(".", "_")


class KernelBuildHook(BuildHookInterface):  # type: ignore[misc]
    """Compiles the C modules into the wheel, or leaves the wheel pure Python."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        if os.environ.get("YAHTZEE_RULES_PURE") == "1":
            self.app.display_info("YAHTZEE_RULES_PURE=1: the C modules are not built")
            return
        if platform.python_implementation() != "CPython":
            self.app.display_info("not CPython: the C modules are not built")
            return
        work = self._work = Path(tempfile.mkdtemp(prefix="yahtzee-rules-kernel-"))
        for module, macro, digest, title in MODULES:
            try:
                built = _compile(root, work / module, module, macro, digest)
            except Exception as error:  # no compiler, no headers: Python serves
                self.app.display_warning(
                    f"{title} was not built ({type(error).__name__}: {error}); "
                    "the library will use Python for it (the same results, more slowly)"
                )
                continue
            target = (_source(module).parent.relative_to("src") / built.name).as_posix()
            if version == "editable":
                shutil.copy2(built, root / "src" / target)
            else:  # from the work directory, removed once the wheel is written
                build_data["force_include"][str(built)] = target
            build_data["pure_python"] = False
            build_data["tag"] = f"cp311-abi3-{_platform_tag()}"
            self.app.display_info(f"compiled {title} ({built.name}) for {sys.version.split()[0]}")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
