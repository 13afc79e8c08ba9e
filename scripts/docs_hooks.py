"""MkDocs hooks for the docs site: copied examples are paste-ready.

The code-copy button of each block copies the block's text, which for an example in the
interpreter's style (``>>> code`` then its output) pastes as nothing that runs. For such
blocks this hook stores the code alone, without prompts and outputs, in the block's
``data-copy`` attribute, which the theme's copy button copies instead.
"""

from __future__ import annotations

import html
import re
from typing import Any

_BLOCK = re.compile(r'<div class="highlight">(<pre><span></span><code>(.*?)</code></pre>)', re.S)
_TAG = re.compile(r"<[^>]+>")


def paste_ready(text: str) -> str | None:
    """The code of an interpreter-style example, ready to paste; None for other blocks.

    Prompts (``>>>`` and ``...``) go, outputs go, and a blank line follows each indented
    block, which the interpreter needs to end it before the next statement.
    """
    lines = text.split("\n")
    if not any(line.startswith(">>>") for line in lines):
        return None
    code: list[str] = []
    for line in lines:
        if line.startswith((">>> ", "... ")) or line in (">>>", "..."):
            body = line[4:]
            if line.startswith(">>>") and code and code[-1][:1] in (" ", "\t"):
                code.append("")  # end the indented block before the next statement
            code.append(body)
    while code and not code[-1].strip():
        code.pop()
    return "\n".join(code) + "\n"


def _with_copy_text(match: re.Match[str]) -> str:
    text = html.unescape(_TAG.sub("", match.group(2)))
    code = paste_ready(text)
    if code is None:
        return match.group(0)
    return f'<div class="highlight" data-copy="{html.escape(code, quote=True)}">{match.group(1)}'


def on_page_content(html_text: str, **kwargs: Any) -> str:
    """Give each interpreter-style example its paste-ready text for the copy button."""
    return _BLOCK.sub(_with_copy_text, html_text)


#: Where a page wants the table of the modules' old paths (the migration note).
MOVED_MARKER = "<!-- moved-modules -->"


def moved_table() -> str:
    """The Markdown table of each 0.1 module path and its path now, from ``_moved.MOVED``."""
    from yahtzee_rules._moved import MOVED  # the one table; the docs build imports src

    rows = [
        f"| `yahtzee_rules.{old}` | `yahtzee_rules.{new}` |" for old, new in sorted(MOVED.items())
    ]
    return "\n".join(["| In 0.1 | Now |", "|---|---|", *rows])


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """Write the generated table of moved modules where a page has its marker."""
    if MOVED_MARKER not in markdown:
        return markdown
    return markdown.replace(MOVED_MARKER, moved_table())
