"""Rule variants as data: which Joker rule applies and what the bonuses are worth.

Examples:
    >>> from yahtzee_rules import Rules, JokerRule
    >>> Rules()
    Rules(joker=JokerRule.FORCED, upper_bonus=35, upper_bonus_threshold=63, yahtzee_bonus=100)
    >>> Rules(joker=JokerRule.FREE_CHOICE).joker is JokerRule.FREE_CHOICE
    True
    >>> Rules.from_name("free")
    Rules(joker=JokerRule.FREE_CHOICE, upper_bonus=35, upper_bonus_threshold=63, yahtzee_bonus=100)
"""

from __future__ import annotations

import enum
from typing import Any

import attrs

from yahtzee_rules import _text
from yahtzee_rules.errors import MalformedInputError

__all__ = ["JokerRule", "Rules"]


class JokerRule(enum.Enum):
    """How an extra Yahtzee (five equal dice with the Yahtzee box filled) may be placed.

    * ``FORCED``: Hasbro's Classic order, the default. The matching upper box if
      open; else any open lower box at Joker values (Full House 25, Small
      Straight 30, Large Straight 40, the dice total elsewhere); else any open
      upper box for zero.
    * ``FREE_CHOICE``: any open box. Upper boxes score as usual; Full House and
      the straights take their Joker values only once the matching upper box is
      filled (otherwise they score 0); Three/Four of a Kind and Chance score the
      dice total. This is the rule behind the published optimum of 254.5896.
    * ``NONE``: no Joker at all; an extra Yahtzee scores like any other roll.

    The 100-point bonus mark does not depend on the Joker rule.

    Examples:
        >>> JokerRule("free-choice") is JokerRule.FREE_CHOICE
        True
    """

    FORCED = "forced"
    FREE_CHOICE = "free-choice"
    NONE = "none"

    def __repr__(self) -> str:
        return f"JokerRule.{self.name}"


def _to_joker(value: Any) -> JokerRule:
    if isinstance(value, JokerRule):
        return value
    if isinstance(value, str):
        key = value.strip().lower().replace("_", "-")
        key = {"free": "free-choice", "hasbro": "forced", "no": "none", "off": "none"}.get(key, key)
        try:
            return JokerRule(key)
        except ValueError:
            pass
    raise MalformedInputError(
        f"joker {value!r}: no such Joker rule; use JokerRule.FORCED, "
        f"JokerRule.FREE_CHOICE or JokerRule.NONE ('forced', 'free-choice', 'none')"
    )


def _non_negative(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    if type(value) is not int or value < 0:
        raise MalformedInputError(
            f"{attribute.name} {value!r}: not a non-negative int; "
            f"bonus values and thresholds are whole points, 0 or more"
        )


@attrs.frozen(repr=False)
class Rules:
    """A rule set. ``Rules()`` is Hasbro's Classic game with the forced Joker.

    Args:
        joker: The Joker rule (a :class:`JokerRule` or its value, such as ``"free-choice"``).
        upper_bonus: Points added when the upper boxes reach the threshold (35).
        upper_bonus_threshold: The upper subtotal that earns the bonus (63).
        yahtzee_bonus: Points per extra Yahtzee while the Yahtzee box holds 50
            (100); 0 turns the bonus off, and then no marks are made.

    Raises:
        MalformedInputError: For an unknown Joker rule or a negative or non-int value.

    Examples:
        >>> Rules(yahtzee_bonus=0, joker="none").yahtzee_bonus
        0
        >>> Rules().name
        'forced'
        >>> Rules(joker="none", yahtzee_bonus=0).name
        'none, yahtzee_bonus=0'
    """

    joker: JokerRule = attrs.field(default=JokerRule.FORCED, converter=_to_joker)
    upper_bonus: int = attrs.field(default=35, validator=_non_negative)
    upper_bonus_threshold: int = attrs.field(default=63, validator=_non_negative)
    yahtzee_bonus: int = attrs.field(default=100, validator=_non_negative)

    def __repr__(self) -> str:
        return (
            f"Rules(joker={self.joker!r}, upper_bonus={self.upper_bonus}, "
            f"upper_bonus_threshold={self.upper_bonus_threshold}, "
            f"yahtzee_bonus={self.yahtzee_bonus})"
        )

    def __str__(self) -> str:
        return _text.format_rules(self.joker.value, attrs.asdict(self), attrs.asdict(_CLASSIC))

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Read rules from their notation, such as ``"free-choice,yb=0"``; the inverse of ``str()``.

        See :func:`yahtzee_rules.notation.parse_rules`.

        Raises:
            MalformedInputError: For text that is not rules notation.

        Examples:
            >>> str(Rules()), Rules.parse("none,yb=0").yahtzee_bonus
            ('forced', 0)
        """
        text = _text.check_text("rules", text)
        joker, values = _text.parse_rules(
            text, [rule.value for rule in JokerRule], attrs.asdict(_CLASSIC)
        )
        return cls(joker=JokerRule(joker), **values)

    @property
    def name(self) -> str:
        """A short label: the Joker rule, then any bonus value that differs from Classic.

        Examples:
            >>> Rules(joker="free-choice", upper_bonus=50).name
            'free-choice, upper_bonus=50'
        """
        parts = [self.joker.value]
        default = _CLASSIC
        for field in ("upper_bonus", "upper_bonus_threshold", "yahtzee_bonus"):
            value = getattr(self, field)
            if value != getattr(default, field):
                parts.append(f"{field}={value}")
        return ", ".join(parts)

    @classmethod
    def from_name(cls, joker: str) -> Rules:
        """Classic bonuses with the Joker rule named by ``joker`` (``"forced"``, ``"free"``, ``"none"``).

        Examples:
            >>> Rules.from_name("none").joker
            JokerRule.NONE
        """
        return cls(joker=_to_joker(joker))


_CLASSIC = Rules()
