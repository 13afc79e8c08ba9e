"""The API reference as rendered: docstrings as the docs site's griffe extensions leave them.

``mkdocs build --strict`` does not notice a Sphinx role (``:meth:`...```) that the
extensions fail to rewrite: it shows raw on the page. This check does.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from _scripts import load_script

griffe = pytest.importorskip("griffe")

ROOT = Path(__file__).resolve().parents[1]
#: A Sphinx role, such as ``:meth:`...```: left in a docstring, it shows raw on the page.
RAW_ROLE = re.compile(r":[a-z]+:`")


def _docstrings(obj: Any) -> Iterator[tuple[str, str]]:
    if obj.docstring is not None:
        yield str(obj.path), obj.docstring.value
    for member in obj.members.values():
        if not member.is_alias:
            yield from _docstrings(member)


def _rendered(extensions: ModuleType) -> Any:
    return griffe.load(
        "yahtzee_rules",
        search_paths=[str(ROOT / "src")],
        extensions=griffe.load_extensions(
            extensions.AttrsInit, extensions.SphinxRoles, extensions.PublicDefaults
        ),
    )


def test_no_raw_sphinx_role_is_left_in_the_rendered_docstrings() -> None:
    extensions = load_script("griffe_extensions")
    left = [
        f"{path}: {match.group(0)}..."
        for path, text in _docstrings(_rendered(extensions))
        for match in RAW_ROLE.finditer(text)
    ]
    assert left == []


def test_roles_with_a_title_become_links_with_that_title() -> None:
    extensions = load_script("griffe_extensions")
    docstrings = dict(_docstrings(_rendered(extensions)))
    text = docstrings["yahtzee_rules.play.record.GameRecord.new"]
    assert "as for [`Game.new`][" in text


DOCS = ROOT / "docs"


def test_the_docs_home_introduces_the_command_line_app() -> None:
    home = (DOCS / "index.md").read_text(encoding="utf-8")
    assert "## Play in the terminal" in home
    assert "yahtzee-rules play " in home
    assert "(how-to/command-line.md)" in home


def test_install_instructions_match_an_install_from_a_clone() -> None:
    # The package is installed from a clone (the docs home's Install section), so no page
    # tells a reader to install it by name from a package index.
    for page in (DOCS / "how-to" / "command-line.md", DOCS / "how-to" / "optimal-advice.md"):
        text = page.read_text(encoding="utf-8")
        assert "pip install yahtzee-rules" not in text
        assert 'pip install "yahtzee-rules' not in text
        assert 'python -m pip install ".[solver]"' in text


def test_the_docs_theme_is_pinned_below_its_next_major_version() -> None:
    # Decision 0011: Material for MkDocs 9.x until the move to its successor.
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"mkdocs-material>=9.5,<10"' in pyproject
    assert (DOCS / "explanation" / "decisions" / "0011-docs-theme-end-of-life.md").exists()


def _as_rendered(text: str) -> str:
    lines = "\n".join(
        f'<a id="__codelineno-0-{n}"></a><span class="o">{html.escape(line)}</span>'
        for n, line in enumerate(text.splitlines(), start=1)
    )
    return f'<div class="highlight"><pre><span></span><code>{lines}\n</code></pre></div>'


def test_the_copy_button_copies_examples_without_prompts_and_outputs() -> None:
    hooks = load_script("docs_hooks")
    example = ">>> total = 0\n>>> for n in (1, 2):\n...     total += n\n>>> total\n3\n"
    page = hooks.on_page_content(_as_rendered(example) + _as_rendered("$ yahtzee-rules\n"))
    copied = [html.unescape(text) for text in re.findall(r'data-copy="([^"]*)"', page)]
    assert copied == ["total = 0\nfor n in (1, 2):\n    total += n\n\ntotal\n"]  # console: none
    namespace: dict[str, Any] = {}
    exec(copied[0], namespace)
    assert namespace["total"] == 3


def test_every_example_on_the_docs_home_pastes_and_runs_in_order() -> None:
    hooks = load_script("docs_hooks")
    text = (DOCS / "index.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    namespace: dict[str, Any] = {}
    for block in blocks:
        code = hooks.paste_ready(block)
        assert code is not None
        assert ">>>" not in code
        exec(compile(code, "<docs home>", "exec"), namespace)


@pytest.mark.parametrize("page", ["README.md", "docs/index.md"])
def test_each_example_block_runs_alone_once_pasted(page: str) -> None:
    pytest.importorskip("numpy")  # the README's bot-writer block uses the solver
    hooks = load_script("docs_hooks")
    text = (ROOT / page).read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    for block in blocks:
        code = hooks.paste_ready(block)
        assert code is not None
        exec(compile(code, f"<{page}>", "exec"), {})  # a fresh interpreter for each block
