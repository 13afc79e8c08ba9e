"""What keeps a value a value: no caller's list inside it and no second ``__init__``.

Internal: nothing here is public API. It sits at the bottom of the layers so every
module that defines a value can use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from gc import get_referents
from typing import Any

from yahtzee_rules.support.errors import MalformedInputError

__all__ = ["refuse_reinit", "reinit_error", "tuple_of"]


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
