"""What keeps a value a value: no caller's list inside it and no second ``__init__``;
and the builder of the values the rules engine made itself, which skips the checks.

Internal: nothing here is public API. It sits at the bottom of the layers so every
module that defines a value can use it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from gc import get_referents
from typing import Any, Final, TypeVar

import attrs

from yahtzee_rules.support._compiled import choice, compiled_module, required, values_digest
from yahtzee_rules.support.errors import MalformedInputError

__all__ = [
    "BUILDER_STATUS",
    "python_builder",
    "raw_builder",
    "refuse_reinit",
    "reinit_error",
    "tuple_of",
]

T = TypeVar("T")


def tuple_of(value: Sequence[Any]) -> tuple[Any, ...]:
    """A list given for a tuple field, copied into a tuple; anything else as given.

    Only a list is converted: any other value is kept, as before, so nothing new can fail.
    """
    if isinstance(value, list):
        return tuple(value)
    return value  # type: ignore[return-value]  # not a list: kept as given


# A value's ``__attrs_pre_init__`` refuses a second ``__init__`` when
# ``len(get_referents(self)) > 1``: an instance's referents are its type and the slots
# already set, so a new instance has one. Unlike reading a slot that is not yet set,
# the check raises nothing, so it adds little to every construction.


def reinit_error(value: object) -> MalformedInputError:
    """The error for calling ``__init__`` again on a value that already has its fields."""
    kind = type(value).__name__
    return MalformedInputError(
        f"{kind}.__init__ on an existing {kind}: {kind} values are immutable; build a new one"
    )


def refuse_reinit(value: object) -> None:
    """The check above, for a value's ``__attrs_pre_init__``: raise :func:`reinit_error`
    when ``value`` already has fields (a second ``__init__``). The hottest values
    (dice, cards, turns) write the check inline instead, saving the call."""
    if len(get_referents(value)) > 1:  # its type, then any field already set
        raise reinit_error(value)


# --- the values the rules engine made itself -----------------------------------------
#
# A roll makes a new game, a fill a new card and a new game: values whose fields the
# engine computed, so the checks of their constructors would only repeat its work.
# Setting a frozen slot from Python costs about 800 machine instructions (a game has
# six), several times the rest of the roll; the compiled builder sets them all from one
# call. Both builders set each slot through its descriptor, in the order of the class's
# attrs fields, and give the same value.

#: The values' builder's interface version (``_cvalues.c``'s ``VERSION``).
BUILDER_VERSION: Final = 1


def _load_builder() -> tuple[Any, str]:
    try:  # os.path, not pathlib: nothing else needs pathlib yet when the values load
        with open(os.path.join(os.path.dirname(__file__), "_cvalues.c"), "rb") as source:
            digest: str | None = values_digest(source.read())
    except OSError:
        digest = None
    module, why = compiled_module(
        "yahtzee_rules.support._cvalues", BUILDER_VERSION, digest, "the compiled builder"
    )
    if module is None:
        if choice() == "require":
            raise required(why)
        return None, f"the Python builder ({why})"
    return module, why


_BUILDER: Any
#: Which builder makes the engine's values in this process, and why.
BUILDER_STATUS: str
_BUILDER, BUILDER_STATUS = _load_builder()


def _slots(cls: type[Any]) -> tuple[Any, ...]:
    """The member descriptors of ``cls``'s attrs fields, in field order."""
    return tuple(cls.__dict__[field.name] for field in attrs.fields(cls))


def python_builder(cls: type[T]) -> Callable[..., T]:
    """:func:`raw_builder`'s function written in Python, as the library uses it where
    the compiled builder is not built."""
    slots = _slots(cls)
    names = [f"v{i}" for i in range(len(slots))]
    # Generated, as attrs generates __init__: one setter call per slot, no loop.
    lines = [f"def build({', '.join(names)}):", "    value = new(cls)"]
    lines += [f"    set{i}(value, {name})" for i, name in enumerate(names)]
    lines.append("    return value")
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    namespace.update({f"set{i}": slot.__set__ for i, slot in enumerate(slots)})
    exec("\n".join(lines), namespace)
    build: Callable[..., T] = namespace["build"]
    build.__qualname__ = f"raw_builder({cls.__name__})"
    return build


def raw_builder(cls: type[T]) -> Callable[..., T]:
    """A function that builds a ``cls`` from one value per attrs field, in field order
    (the fields ``__init__`` does not take included), without ``__init__`` and its checks:
    for values the rules engine made itself, never for a caller's input.

    ``cls`` is a frozen slotted attrs class. Compiled where the wheel has the values'
    builder (:data:`BUILDER_STATUS`), in Python otherwise: the same value either way.

    Examples:
        >>> import attrs
        >>> @attrs.frozen
        ... class Pair:
        ...     left: int = attrs.field(validator=attrs.validators.gt(0))
        ...     right: int
        >>> raw_builder(Pair)(1, 2)
        Pair(left=1, right=2)
    """
    if _BUILDER is None:
        return python_builder(cls)
    built: Callable[..., T] = _BUILDER.builder((cls, *_slots(cls)))
    return built
