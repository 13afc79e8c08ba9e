"""The plain C reference of the table build (``benchmarks/c/reference_build.c``): find a C
compiler, compile the reference, run it.

Used by ``bench_build.py`` (its CPU time beside the library's one-worker build, and
every state's value compared) and by ``tests/test_reference_build.py``.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sysconfig
from pathlib import Path

SOURCE = Path(__file__).resolve().parent / "c" / "reference_build.c"

#: C99, optimised, and no contraction of a product and a sum into one fused
#: multiply-add (nor fast-math): every sum is added in the order the source writes.
FLAGS = ("-std=c99", "-O2", "-ffp-contract=off")

#: The layout of the values the reference writes: the library's Table.values for
#: Hasbro's Classic card (8192 masks x 64 capped subtotals x 2 flags).
STATES = (1 << 13) * 64 * 2


def find_compiler() -> list[str] | None:
    """The C compiler Python was built with (sysconfig's ``CC``) if it is on the PATH,
    else ``cc``, ``gcc`` or ``clang`` from the PATH; None when there is none."""
    configured = shlex.split(sysconfig.get_config_var("CC") or "")
    if configured and shutil.which(configured[0]):
        return configured
    for name in ("cc", "gcc", "clang"):
        found = shutil.which(name)
        if found:
            return [found]
    return None


def compile_reference(directory: Path) -> tuple[Path | None, str]:
    """Compile the reference into ``directory``: the program and the command line, or
    None and the reason it could not be compiled."""
    compiler = find_compiler()
    if compiler is None:
        return None, "no C compiler (sysconfig's CC, cc, gcc or clang) on the PATH"
    program = directory / "reference_build"
    command = [*compiler, *FLAGS, "-o", str(program), str(SOURCE), "-lm"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as error:
        return None, f"{shlex.join(command)} did not run: {error}"
    if done.returncode != 0:
        return None, f"{shlex.join(command)} failed: {done.stderr.strip()[:500]}"
    version = subprocess.run(
        [*compiler, "--version"], capture_output=True, text=True, check=False
    ).stdout.splitlines()
    name = version[0] if version else compiler[0]
    return program, f"{name}; {' '.join(FLAGS)}"


def run_reference(
    program: Path,
    start: tuple[int, int, int] = (0, 0, 0),
    values: Path | None = None,
) -> dict[str, float]:
    """Run the reference in a fresh process from the state ``start`` (mask, capped upper
    subtotal, flag), writing every state's value to ``values`` when given.

    Returns its JSON (``value``, ``cpu_seconds`` of the induction, ``solved``,
    ``copied``) and ``process_cpu``, the CPU time of the whole process.
    """
    command = [str(program), "--start", ",".join(map(str, start))]
    if values is not None:
        command += ["--values", str(values)]
    before = os.times()
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    after = os.times()
    result: dict[str, float] = json.loads(output)
    result["process_cpu"] = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return result
