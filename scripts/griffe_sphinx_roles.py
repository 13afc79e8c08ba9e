"""A griffe extension that turns Sphinx roles in docstrings into mkdocstrings cross-references.

The library's docstrings are Google style but name other objects with Sphinx roles
such as ``:func:`fill``` or ``:class:`~yahtzee_rules.Rules```, which also read well
in ``help()``. This extension rewrites each role, when the site is built, as a
Markdown cross-reference to the object's canonical path (``[`fill`][yahtzee_rules.scoring.fill]``),
resolving the name as Python would from the docstring's module and class. Names
outside the package (``:class:`int```) become plain code.

It is loaded by ``mkdocs.yml`` (``plugins.mkdocstrings.handlers.python.options.extensions``).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:func|class|meth|attr|mod|exc|data|obj):`(~?)([\w.]+)`")


class SphinxRoles(griffe.Extension):
    """Rewrite ``:role:`name``` in every docstring of the package as a cross-reference."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        self._walk(pkg, pkg)

    def _walk(self, obj: griffe.Object, pkg: griffe.Module) -> None:
        if obj.docstring is not None:
            obj.docstring.value = ROLE.sub(lambda m: self._link(m, obj, pkg), obj.docstring.value)
        for member in obj.members.values():
            if not member.is_alias:
                self._walk(member, pkg)  # type: ignore[arg-type]

    def _link(self, match: re.Match[str], obj: griffe.Object, pkg: griffe.Module) -> str:
        short, name = match.group(1), match.group(2)
        label = name.rsplit(".", 1)[-1] if short else name
        scopes = [obj.path]
        scope: griffe.Object | None = obj.parent
        while scope is not None:
            scopes.append(scope.path)
            scope = scope.parent
        for base in [*scopes, ""]:
            path = self._resolve(f"{base}.{name}" if base else name, pkg)
            if path is not None:
                return f"[`{label}`][{path}]"
        return f"`{label}`"

    @staticmethod
    def _resolve(path: str, pkg: griffe.Module) -> str | None:
        parts = path.split(".")
        if parts[0] != pkg.name:
            return None
        current: Any = pkg
        try:
            for part in parts[1:]:
                current = current.members[part]
                if current.is_alias:
                    current = current.final_target
        except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
            return None
        # Undocumented attributes (enum members) are not rendered: link to their owner.
        while current.is_attribute and current.docstring is None and current.parent is not None:
            current = current.parent
        return str(current.path)
