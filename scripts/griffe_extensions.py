"""Griffe extensions used when the documentation site is built (see ``mkdocs.yml``).

* :class:`AttrsInit` gives ``attrs`` classes the ``__init__`` signature attrs
  generates, so the reference shows each class's parameters, types and defaults.
* :class:`SphinxRoles` turns Sphinx roles in docstrings into cross-references.
* :class:`PublicDefaults` shows defaults held in private module constants as the
  public expression they equal (``rules=Rules()`` rather than ``rules=_CLASSIC``).


The library's docstrings are Google style but name other objects with Sphinx roles
such as ``:func:`fill``` or ``:class:`~yahtzee_rules.Rules```, which also read well
in ``help()``. This extension rewrites each role, when the site is built, as a
Markdown cross-reference to the object's canonical path (``[`fill`][yahtzee_rules.play.scoring.fill]``),
resolving the name as Python would from the docstring's module and class. Names
outside the package (``:class:`int```) become plain code.

Both are loaded by ``mkdocs.yml`` (``plugins.mkdocstrings.handlers.python.options.extensions``).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ATTRS_DECORATORS = {"attrs.frozen", "attrs.define", "attrs.mutable", "attr.s", "attr.attrs"}
FIELD_CALLS = {"attrs.field", "attr.ib", "attr.attrib"}


class AttrsInit(griffe.Extension):
    """Add the ``__init__`` that ``@attrs.frozen`` and friends generate, for signatures."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        self._walk(pkg)

    def _walk(self, obj: griffe.Object) -> None:
        for member in list(obj.members.values()):
            if member.is_alias:
                continue
            if isinstance(member, griffe.Class):
                self._add_init(member)
            if isinstance(member, (griffe.Module, griffe.Class)):
                self._walk(member)

    @staticmethod
    def _is_attrs(cls: griffe.Class) -> bool:
        for decorator in cls.decorators:
            value: Any = decorator.value
            if isinstance(value, griffe.ExprCall):
                value = value.function
            if getattr(value, "canonical_path", None) in ATTRS_DECORATORS:
                return True
        return False

    def _add_init(self, cls: griffe.Class) -> None:
        if "__init__" in cls.members or not self._is_attrs(cls):
            return
        parameters = [griffe.Parameter("self", kind=griffe.ParameterKind.positional_or_keyword)]
        for member in cls.members.values():
            if not isinstance(member, griffe.Attribute) or member.annotation is None:
                continue
            if "property" in member.labels or (
                "class-attribute" in member.labels and "instance-attribute" not in member.labels
            ):
                continue
            default: str | griffe.Expr | None = member.value
            value = member.value
            if isinstance(value, griffe.ExprCall) and value.canonical_path in FIELD_CALLS:
                arguments = {
                    argument.name: argument.value
                    for argument in value.arguments
                    if isinstance(argument, griffe.ExprKeyword)
                }
                if str(arguments.get("init")) == "False":
                    continue
                default = arguments.get("default")
                factory = arguments.get("factory")
                if isinstance(factory, griffe.Expr):
                    default = griffe.ExprCall(function=factory, arguments=[])
            parameters.append(
                griffe.Parameter(
                    member.name.lstrip("_"),
                    annotation=member.annotation,
                    kind=griffe.ParameterKind.positional_or_keyword,
                    default=default,
                )
            )
        init = griffe.Function(
            "__init__",
            lineno=0,
            endlineno=0,
            parent=cls,
            parameters=griffe.Parameters(*parameters),
            returns="None",
        )
        cls.set_member("__init__", init)


#: Private module constants used as defaults, and the public expression each equals.
DEFAULTS = {"_CLASSIC": "Rules()", "EMPTY_CARD": "Scorecard()", "_RNG": "None"}


class PublicDefaults(griffe.Extension):
    """Show ``rules=Rules()`` instead of the private constant ``rules=_CLASSIC``."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        self._walk(pkg)

    def _walk(self, obj: griffe.Object) -> None:
        for member in list(obj.members.values()):
            if member.is_alias:
                continue
            if isinstance(member, griffe.Function):
                for parameter in member.parameters:
                    shown = DEFAULTS.get(str(parameter.default))
                    if shown is not None:
                        parameter.default = shown
            if isinstance(member, (griffe.Module, griffe.Class)):
                self._walk(member)


ROLE = re.compile(
    r":(?:func|class|meth|attr|mod|exc|data|obj):`(~?)(?:([^`<]*?)\s*<([\w.]+)>|([\w.]+))`"
)


class SphinxRoles(griffe.Extension):
    """Rewrite ``:role:`name``` and ``:role:`title <name>``` in every docstring of the
    package as a cross-reference."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        self._walk(pkg, pkg)

    def _walk(self, obj: griffe.Object, pkg: griffe.Module) -> None:
        if obj.docstring is not None:
            obj.docstring.value = ROLE.sub(lambda m: self._link(m, obj, pkg), obj.docstring.value)
        for member in obj.members.values():
            if not member.is_alias:
                self._walk(member, pkg)  # type: ignore[arg-type]

    def _link(self, match: re.Match[str], obj: griffe.Object, pkg: griffe.Module) -> str:
        short, title, target, plain = match.groups()
        name = target or plain
        label = title or (name.rsplit(".", 1)[-1] if short else name)
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
