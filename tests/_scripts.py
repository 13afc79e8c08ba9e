"""Shared by the tests of the scripts in ``scripts/``: load one as a module, and run one's
``--check`` in a fresh interpreter, as CI and a contributor run it."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def load_script(name: str) -> ModuleType:
    """``scripts/<name>.py`` as a module named ``name`` (registered while it loads, since
    dataclasses look their module up by name)."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


def check_runs_light(name: str, *heavy: str) -> None:
    """``scripts/<name>.py --check`` passes in a fresh interpreter that never imports any
    of the ``heavy`` modules (the check stays cheap: it plays no games)."""
    script = str(SCRIPTS / f"{name}.py")
    code = (
        f"import runpy, sys; sys.argv = [{script!r}, '--check']\n"
        f"try:\n    runpy.run_path({script!r}, run_name='__main__')\n"
        "except SystemExit as stop:\n    assert stop.code == 0, stop.code\n"
        f"assert not {{*sys.modules}} & {set(heavy)!r}, 'imported a heavy module'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
