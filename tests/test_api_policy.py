"""Every name the docs show a reader is public, as the API policy page defines it.

docs/reference/api-policy.md: the public API is the root package's ``__all__`` and the
documented modules (each has a ``:::`` block in the reference): their ``__all__`` or,
without one, their names that do not start with an underscore. This test collects every
name the pages and the README reference (the ``:::`` blocks, the cross-references
``[text][yahtzee_rules.x]``, and the imports and dotted names in their code examples)
and checks each is public: reachable from a documented module or the root, through no
private (underscored) part and no old, deprecated path.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import importlib.util
import re
import warnings
from pathlib import Path
from types import ModuleType

import pytest

import yahtzee_rules
from yahtzee_rules import _moved

ROOT = Path(__file__).resolve().parents[1]
PAGES = [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]
PACKAGE = "yahtzee_rules"
#: The one page that shows the old, deprecated paths on purpose.
MIGRATION_PAGE = ROOT / "docs" / "how-to" / "migrate-from-0.1.md"

BLOCK = re.compile(r"^::: *([\w.]+)", re.M)
CROSS_REFERENCE = re.compile(r"\]\[(yahtzee_rules(?:\.\w+)*)\]")
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.S | re.M)


def documented_modules(pages: list[Path] = PAGES) -> set[str]:
    """The modules that have a ``:::`` block of their own in the docs."""
    found = set()
    for page in pages:
        for path in BLOCK.findall(page.read_text(encoding="utf-8")):
            if _module_or_none(path) is not None:
                found.add(path)
    return found


def _module_or_none(path: str) -> ModuleType | None:
    parts = path.split(".")
    if len(parts) == 2 and parts[0] == PACKAGE and parts[1] in _moved.MOVED:
        return None  # an old path, even once another test has imported it
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)  # an old path is no module here
        try:
            return importlib.import_module(path)
        except (ImportError, DeprecationWarning):
            return None


def _code_names(code: str) -> set[str]:
    """The dotted names under the package that a block of code imports or uses."""
    if code.lstrip().startswith(">>>"):
        examples = doctest.DocTestParser().get_examples(code)
        code = "\n".join(example.source for example in examples)
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    names: set[str] = set()
    inner_chains = {
        id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute)
    }  # a.b of a.b.c: only the whole chain counts
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == PACKAGE:
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names if a.name.split(".")[0] == PACKAGE)
        elif isinstance(node, ast.Attribute) and id(node) not in inner_chains:
            parts: list[str] = []
            inner: ast.expr = node
            while isinstance(inner, ast.Attribute):
                parts.append(inner.attr)
                inner = inner.value
            if isinstance(inner, ast.Name) and inner.id == PACKAGE:
                names.add(".".join([PACKAGE, *reversed(parts)]))
    return names


def referenced_names(page: Path) -> dict[str, str]:
    """Each name a page references, with how (``:::``, a cross-reference, in code)."""
    text = page.read_text(encoding="utf-8")
    found = dict.fromkeys(BLOCK.findall(text), "::: block")
    found.update((name, "cross-reference") for name in CROSS_REFERENCE.findall(text))
    for language, code in FENCE.findall(text):
        if language in ("python", "pycon", "py"):
            found.update((name, "code") for name in _code_names(code))
    return found


def why_not_public(path: str, documented: set[str]) -> str | None:
    """Why ``path`` is not public under the API policy, or ``None`` if it is."""
    parts = path.split(".")
    if parts[0] != PACKAGE:
        return "not in the package"
    private = [part for part in parts if part.startswith("_") and not part.startswith("__")]
    if private:
        return f"has a private part {private[0]!r}"
    if len(parts) > 1 and parts[1] in _moved.MOVED and parts[1] not in yahtzee_rules.__all__:
        return (
            f"an old path: yahtzee_rules.{parts[1]} moved to yahtzee_rules.{_moved.MOVED[parts[1]]}"
        )
    # the longest importable module in the path, then attributes
    for split in range(len(parts), 0, -1):
        module = _module_or_none(".".join(parts[:split]))
        if module is not None:
            break
    else:  # pragma: no cover - the package itself always imports
        return "no module"
    name, rest = ".".join(parts[:split]), parts[split:]
    subpackage = not rest and name in _public_subpackages()
    if name != PACKAGE and name not in documented and not subpackage:
        return f"{name} is not a documented module"
    if rest:
        exported = getattr(module, "__all__", None)
        if exported is not None and rest[0] not in exported:
            return f"{rest[0]!r} is not in {name}.__all__"
        value: object = module
        for attribute in rest:
            if not hasattr(value, attribute):
                return f"{name} has no {'.'.join(rest)}"
            value = getattr(value, attribute)
    return None


def _public_subpackages() -> set[str]:
    return {f"{PACKAGE}.{name}" for name in dir(yahtzee_rules) if _is_subpackage(name)}


def _is_subpackage(name: str) -> bool:
    return not name.startswith("_") and (
        importlib.util.find_spec(f"{PACKAGE}.{name}") is not None and name not in _moved.MOVED
    )


def test_every_name_the_docs_reference_is_public() -> None:
    documented = documented_modules()
    problems = []
    for page in PAGES:
        for name, how in sorted(referenced_names(page).items()):
            reason = why_not_public(name, documented)
            if page == MIGRATION_PAGE and (reason or "").startswith("an old path"):
                continue
            if reason is not None:
                problems.append(f"{page.relative_to(ROOT)}: {name} ({how}): {reason}")
    assert problems == []


def test_the_docs_reference_a_good_many_names() -> None:
    # the collection works: every page kind is seen
    names: dict[str, str] = {}
    for page in PAGES:
        names.update(referenced_names(page))
    hows = set(names.values())
    assert hows == {"::: block", "cross-reference", "code"}
    assert len(names) > 100


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("yahtzee_rules.Dice", None),
        ("yahtzee_rules.play.game.Game.new", None),
        ("yahtzee_rules.bots.solver.load_table", None),
        ("yahtzee_rules.bots.solver._decisions", "has a private part '_decisions'"),
        ("yahtzee_rules.dice.Dice", "an old path: yahtzee_rules.dice moved to"),
        ("yahtzee_rules.core.classic.Category.no_such_method", "yahtzee_rules.core.classic has no"),
        ("yahtzee_rules.core._shipped", "has a private part"),
        ("yahtzee_rules.play.scoring.NoSuchName", "'NoSuchName' is not in"),
        ("yahtzee_rules.bots._env", "has a private part"),
    ],
)
def test_the_check_tells_public_from_not(name: str, reason: str | None) -> None:
    found = why_not_public(name, documented_modules())
    if reason is None:
        assert found is None
    else:
        assert found is not None
        assert found.startswith(reason), found


def test_code_names_are_read_from_imports_and_dotted_uses() -> None:
    code = (
        ">>> from yahtzee_rules import Dice, score\n"
        ">>> import yahtzee_rules.bots.solver as solver\n"
        ">>> yahtzee_rules.play.totals.totals\n"
    )
    assert _code_names(code) == {
        "yahtzee_rules.Dice",
        "yahtzee_rules.score",
        "yahtzee_rules.bots.solver",
        "yahtzee_rules.play.totals.totals",
    }


def _hooks_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "scripts" / "docs_hooks.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_migration_note_lists_every_moved_module_from_the_finders_table() -> None:
    hooks = _hooks_module()
    assert hooks.MOVED_MARKER in MIGRATION_PAGE.read_text(encoding="utf-8")
    page = hooks.on_page_markdown(f"Before.\n\n{hooks.MOVED_MARKER}\n\nAfter.\n")
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    assert rows == [
        f"| `yahtzee_rules.{old}` | `yahtzee_rules.{new}` |"
        for old, new in sorted(_moved.MOVED.items())
    ]
    assert hooks.on_page_markdown("no marker") == "no marker"
