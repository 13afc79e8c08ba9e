"""Wheel build hook: compile the solver's optional C kernel (``yahtzee_rules.bots.solver._ckernel``).

The kernel is built with setuptools' extension builder against CPython's limited API
(3.11), so one wheel serves every later CPython on its platform (tag ``cp311-abi3``).
Where it cannot be built (no C compiler, another interpreter, or
``YAHTZEE_RULES_PURE=1`` in the environment), the wheel is pure Python and the
solver uses its NumPy path, which gives the same values and choices. An editable
install compiles the module into the source tree (``pip install -e .`` again after
changing the C file: the module carries its source's digest, and the library ignores
a module built from another source than the ``_ckernel.c`` beside it).
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

MODULE = "yahtzee_rules.bots.solver._ckernel"
SOURCE = Path("src/yahtzee_rules/bots/solver/_ckernel.c")
# No reordered or fused floating-point operations: the kernel adds in the NumPy path's order.
FLAGS = ["-O3", "-ffp-contract=off", "-fno-fast-math", "-std=c99"]


def _compile(root: Path, out: Path) -> Path:
    """Build the extension into ``out``; returns the built file."""
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    source = hashlib.sha256((root / SOURCE).read_bytes()).hexdigest()[:16]
    extension = Extension(
        MODULE,
        [str(root / SOURCE)],
        py_limited_api=True,
        # the source's digest, by which the library tells a module built from another source
        define_macros=[("Py_LIMITED_API", "0x030B0000"), ("KERNEL_SOURCE", f'"{source}"')],
        extra_compile_args=FLAGS if os.name != "nt" else ["/O2", "/fp:precise"],
    )
    command = build_ext(Distribution({"name": "yahtzee-rules", "ext_modules": [extension]}))
    command.build_lib = str(out / "lib")
    command.build_temp = str(out / "temp")
    command.ensure_finalized()
    command.run()
    built = Path(command.get_ext_fullpath(MODULE))
    if not built.is_file():
        raise FileNotFoundError(built)
    return built


def _platform_tag() -> str:
    return sysconfig.get_platform().replace("-", "_").replace(".", "_")


class KernelBuildHook(BuildHookInterface):  # type: ignore[misc]
    """Compiles the kernel into the wheel, or leaves the wheel pure Python."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        if os.environ.get("YAHTZEE_RULES_PURE") == "1":
            self.app.display_info("YAHTZEE_RULES_PURE=1: the solver's C kernel is not built")
            return
        if platform.python_implementation() != "CPython":
            self.app.display_info("not CPython: the solver's C kernel is not built")
            return
        work = self._work = Path(tempfile.mkdtemp(prefix="yahtzee-rules-kernel-"))
        try:
            built = _compile(root, work)
        except Exception as error:  # no compiler, no headers: the NumPy path serves
            self.app.display_warning(
                f"the solver's C kernel was not built ({type(error).__name__}: {error}); "
                "the solver will use its NumPy path (the same results, more slowly)"
            )
            return
        target = f"yahtzee_rules/bots/solver/{built.name}"
        if version == "editable":
            shutil.copy2(built, root / "src" / target)
        else:  # from the work directory, removed once the wheel is written
            build_data["force_include"][str(built)] = target
        build_data["pure_python"] = False
        build_data["tag"] = f"cp311-abi3-{_platform_tag()}"
        self.app.display_info(
            f"compiled the solver's C kernel ({built.name}) for {sys.version.split()[0]}"
        )

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
