"""Check an installed copy of the package (a wheel, not the source tree) with one extra.

CI installs the built wheel into a fresh virtual environment once for each extra, with
nothing else (no test packages), and runs ``python scripts/check_installed.py EXTRA``
there; ``core`` stands for the wheel with no extra. The script checks that:

- the package imported is the installed one, not a source tree on the path;
- the installed metadata gives the package's own version, and the data files (the JSON
  schema, ``py.typed``) are there and readable through :mod:`importlib.resources`;
- the modules that need the extra import with only the extra's dependencies installed,
  and their docstring examples pass;
- the ``yahtzee-rules`` command the wheel installs runs.

The full test suite runs against the installed wheel, every extra together, on the other
interpreters (see ``.ci/run``); this is the check that each extra alone is enough.

Usage: ``python scripts/check_installed.py EXTRA`` (an extra of the wheel, or ``core``);
``python scripts/check_installed.py --example-needs EXTRA`` prints the requirements of
what the extra's examples use besides the extra (to install with it).
"""

from __future__ import annotations

import contextlib
import doctest
import importlib
import importlib.metadata
import importlib.resources
import io
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

DISTRIBUTION = "yahtzee-rules"
#: For each extra of the wheel, the modules that need it: each is imported and its
#: docstring examples run. A new extra must be added here (the script refuses one it
#: does not know), so that each extra is checked alone.
EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "core": (
        "yahtzee_rules",
        "yahtzee_rules.formats.serialization",
        "yahtzee_rules.formats.notation",
        "yahtzee_rules.apps.cli",
    ),
    "solver": ("yahtzee_rules.bots.solver",),
    "qr": ("segno",),
    "dask": ("distributed",),
    "rl": ("yahtzee_rules.integrations.rl", "yahtzee_rules.integrations.zoo"),
    "openspiel": ("yahtzee_rules.integrations.spiel",),
    "web": ("yahtzee_rules.apps.web", "yahtzee_rules.apps.web.app"),
}
#: What an extra's examples use beyond the extra itself (the web table's examples drive it
#: with Starlette's test client, which needs httpx2): names from the ``test`` dependency
#: group, whose requirement ``--example-needs EXTRA`` prints, read from ``pyproject.toml``.
EXAMPLE_NEEDS: dict[str, tuple[str, ...]] = {"web": ("httpx2",)}


def check_installed_copy() -> str:
    """The installed package's directory, after checking it is no source tree."""
    import yahtzee_rules

    package = Path(yahtzee_rules.__file__).resolve().parent
    purelib = Path(sysconfig.get_paths()["purelib"]).resolve()
    if package.parent != purelib:
        sys.exit(f"yahtzee_rules was imported from {package}, not from {purelib}")
    version = importlib.metadata.version(DISTRIBUTION)
    if version != yahtzee_rules.__version__:
        sys.exit(f"installed metadata says {version}, the package {yahtzee_rules.__version__}")
    files = importlib.resources.files("yahtzee_rules")
    if not files.joinpath("py.typed").is_file():
        sys.exit("py.typed is missing from the installed package")
    schema = json.loads(files.joinpath("schema", "v1.schema.json").read_text(encoding="utf-8"))
    if yahtzee_rules.json_schema() != schema:
        sys.exit("json_schema() does not give the installed schema file")
    from yahtzee_rules.support.l10n import DEFAULT_LOCALE, LOCALES, translations

    for locale in LOCALES:  # every compiled catalogue is installed and read
        if locale == DEFAULT_LOCALE:
            continue
        try:
            read = translations(locale).pgettext("web table", "Box")
        except OSError:
            read = "Box"
        if read == "Box":
            sys.exit(f"the {locale} catalogue is missing from the installed package")
    return str(package)


def run_examples(name: str) -> int:
    """Import a module and run its docstring examples; the number that failed."""
    module = importlib.import_module(name)
    if not name.startswith("yahtzee_rules"):
        return 0  # a dependency of the extra: importing it is the check
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    with contextlib.redirect_stderr(io.StringIO()):  # what examples of errors print there
        return doctest.testmod(module, optionflags=flags, verbose=False).failed


def example_needs(extra: str, pyproject: Path) -> list[str]:
    """The requirements (from the ``test`` group) of what ``extra``'s examples also use."""
    import re
    import tomllib

    group = tomllib.loads(pyproject.read_text(encoding="utf-8"))["dependency-groups"]["test"]
    wanted = EXAMPLE_NEEDS.get(extra, ())
    found = [req for req in group if re.split(r"[\s<>=!~;\[]", req, maxsplit=1)[0] in wanted]
    if len(found) != len(wanted):
        sys.exit(f"the test group lacks some of {wanted}")
    return found


def main(argv: list[str]) -> int:
    """Check the installed package with the extra ``argv[0]``; 0 if every check passed."""
    if len(argv) == 2 and argv[0] == "--example-needs" and argv[1] in EXTRA_MODULES:
        print(
            " ".join(example_needs(argv[1], Path(__file__).resolve().parents[1] / "pyproject.toml"))
        )
        return 0
    if len(argv) != 1 or argv[0] not in EXTRA_MODULES:
        print(
            f"usage: check_installed.py [--example-needs] EXTRA, one of {', '.join(EXTRA_MODULES)}"
        )
        return 2
    extra = argv[0]
    declared = set(importlib.metadata.metadata(DISTRIBUTION).get_all("Provides-Extra") or ())
    unknown = declared - set(EXTRA_MODULES)
    if unknown:
        print(f"extras this script does not check: {', '.join(sorted(unknown))}")
        return 1
    where = check_installed_copy()
    # Solver tables built by the examples go to a directory of their own, never the user's.
    cache = tempfile.mkdtemp(prefix="yahtzee-rules-check-")
    os.environ["YAHTZEE_RULES_CACHE_DIR"] = cache
    try:
        failed = sum(run_examples(name) for name in EXTRA_MODULES[extra])
        command = shutil.which("yahtzee-rules", path=str(Path(sys.executable).parent))
        if command is None:
            print("the wheel installed no yahtzee-rules command")
            return 1
        subprocess.run([command, "rules"], check=True, capture_output=True)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    if failed:
        print(f"{extra}: {failed} example(s) failed")
        return 1
    print(f"{extra}: the installed package ({where}) passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
