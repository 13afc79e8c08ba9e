"""Dice and keeps: five faces as a multiset, and the dice a player holds before a reroll.

Scoring never depends on the order of the dice, so :class:`Dice` stores its
faces sorted: there are 252 distinct rolls of five dice. A :class:`Keep` is a
sub-multiset of a roll (zero to five dice), of which there are 462 in all.

Examples:
    >>> from yahtzee_rules import Dice, Keep
    >>> Dice("63613") == Dice([1, 3, 3, 6, 6])
    True
    >>> str(Dice([6, 3, 6, 1, 3])), repr(Dice("13366"))
    ('13366', "Dice('13366')")
    >>> Keep("33").issubset(Dice("13366"))
    True
    >>> len(Dice.all()), len(Keep.all())
    (252, 462)
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Iterator
from gc import get_referents
from typing import Any, ClassVar, Protocol, TypeAlias

import attrs

from yahtzee_rules.core._classic_scores import classic_scores
from yahtzee_rules.support._frozen import reinit_error
from yahtzee_rules.support._text import a_type, counted, show
from yahtzee_rules.support.errors import MalformedInputError

__all__ = ["Dice", "DiceLike", "Keep", "KeepLike"]

DiceLike: TypeAlias = "Dice | str | Iterable[int]"
"""Anything :class:`Dice` accepts: a Dice, five digits as text, or five ints."""
KeepLike: TypeAlias = "Keep | Dice | str | Iterable[int]"
"""Anything :class:`Keep` accepts: a Keep or Dice, up to five digits as text, or ints."""

_FACES = range(1, 7)


class _ScoresDice(Protocol):
    """Anything that scores dice: every box of every card."""

    def score(self, dice: Dice, /) -> int: ...  # pragma: no cover - a protocol


def faces_from(value: object, *, what: str, lengths: range) -> tuple[int, ...]:
    """Convert text or an iterable of ints into a sorted tuple of faces, or raise."""
    allowed = (
        "five faces from 1 to 6"
        if lengths == range(5, 6)
        else "zero to five faces from 1 to 6, held from the current dice"
    )
    if isinstance(value, str):
        if len(value) not in lengths or not value.isascii() or not (value.isdigit() or not value):
            raise MalformedInputError(
                f"{what} {show(value)}: not {'five' if lengths == range(5, 6) else 'up to five'} "
                f"digits; {_plural(what)} written as {allowed}, such as "
                f"'{'13366' if what == 'dice' else '33'}'"
            )
        faces = [ord(char) - 48 for char in value]
    elif isinstance(value, (bytes, bytearray, dict, set, frozenset)) or not isinstance(
        value, Iterable
    ):
        raise MalformedInputError(
            f"{what} {show(value)}: {a_type(value)} is not dice; "
            f"give text such as '13366' or a sequence of ints"
        )
    else:
        # Read one face past the longest allowed, so an endless iterator is refused quickly.
        faces = list(itertools.islice(value, lengths.stop))
        if len(faces) not in lengths:
            given = counted(value, len(faces), lengths.stop - 1)
            raise MalformedInputError(
                f"{what} {show(value)}: {given} faces given; {_plural(what)} "
                f"{'exactly ' if lengths == range(5, 6) else ''}{allowed}"
            )
        for face in faces:
            if type(face) is not int:
                raise MalformedInputError(
                    f"{what} {show(value)}: face {show(face)} is {a_type(face)}, not an int; "
                    f"{_plural(what)} {allowed}"
                )
    for face in faces:
        if not 1 <= face <= 6:
            raise MalformedInputError(
                f"{what} {show(value)}: face {show(face)} is outside 1-6; {_plural(what)} {allowed}"
            )
    return tuple(sorted(faces))


def _plural(what: str) -> str:
    return "dice are" if what == "dice" else f"{what}s are"


def _to_dice_faces(value: object) -> tuple[int, ...]:
    if isinstance(value, Dice):
        return value.faces
    return faces_from(value, what="dice", lengths=range(5, 6))


def _to_keep_faces(value: object) -> tuple[int, ...]:
    if isinstance(value, (Keep, Dice)):
        return value.faces
    return faces_from(value, what="keep", lengths=range(6))


def _counts(faces: tuple[int, ...]) -> tuple[int, int, int, int, int, int]:
    counts = [0] * 6
    for face in faces:
        counts[face - 1] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5])


def ways(counts: tuple[int, ...]) -> int:
    """Orderings of a multiset with these counts (multinomial coefficient)."""
    result = math.factorial(sum(counts))
    for count in counts:
        result //= math.factorial(count)
    return result


@attrs.frozen(repr=False, order=False, init=False)
class Dice:
    """Five dice as an immutable multiset of faces.

    ``Dice`` accepts five digits as text (``"13366"``), any iterable of five
    ints, or another ``Dice``. The order given does not matter: faces are
    stored sorted, so equal rolls are equal values with equal hashes.

    Args:
        faces: The five faces, each an int from 1 to 6.

    Raises:
        MalformedInputError: For a wrong count of faces, a face outside 1-6, or a
            value that is not an int (``True`` and ``3.0`` are refused).

    Attributes:
        faces: The five faces, sorted ascending.

    Examples:
        >>> dice = Dice("22256")
        >>> dice.faces, dice.total, dice.counts
        ((2, 2, 2, 5, 6), 17, (0, 3, 0, 0, 1, 1))
        >>> dice.count(2), dice.is_yahtzee
        (3, False)
        >>> Dice("44444").is_yahtzee
        True
        >>> list(Dice("53211"))
        [1, 1, 2, 3, 5]
    """

    faces: tuple[int, ...] = attrs.field(converter=_to_dice_faces)
    _index: int = attrs.field(init=False, eq=False, hash=False, repr=False)
    _classic: tuple[int, ...] = attrs.field(init=False, eq=False, hash=False, repr=False)
    # Internal: the position in Dice.all(), the ``_index`` slot under a plain name (set
    # below) so the library's tables over the 252 rolls read it as fast as an attribute;
    # likewise ``classic_row``, the roll's Classic scores (``_classic``), for score().
    position: ClassVar[int]
    classic_row: ClassVar[tuple[int, ...]]

    #: Number of dice in a roll.
    COUNT: ClassVar[int] = 5

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)

    def __init__(self, faces: object) -> None:
        # One call does the work of attrs' __init__, its pre-init and post-init: the check
        # against a second __init__ then costs nothing on this hot path.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)
        converted = _to_dice_faces(faces)
        template = DICE_BY_FACES.get(converted)
        _SET_FACES(self, converted)
        if template is not None:  # always, once the module has loaded
            _SET_INDEX(self, template._index)
            _SET_CLASSIC(self, template._classic)

    def __attrs_post_init__(self) -> None:  # after __attrs_init__ only
        template = DICE_BY_FACES.get(self.faces)
        if template is not None:
            object.__setattr__(self, "_index", template._index)
            object.__setattr__(self, "_classic", template._classic)

    def __str__(self) -> str:
        return "".join(map(str, self.faces))

    def __repr__(self) -> str:
        return f"Dice({str(self)!r})"

    def __iter__(self) -> Iterator[int]:
        return iter(self.faces)

    def __len__(self) -> int:
        return 5

    @property
    def counts(self) -> tuple[int, int, int, int, int, int]:
        """How many dice show each face, ones first.

        Examples:
            >>> Dice("13366").counts
            (1, 0, 2, 0, 0, 2)
        """
        return COUNTS[self._index]

    @property
    def total(self) -> int:
        """The sum of the five faces.

        Examples:
            >>> Dice("13366").total
            19
        """
        return _TOTALS[self._index]

    @property
    def is_yahtzee(self) -> bool:
        """Whether all five dice show the same face.

        Examples:
            >>> Dice("33333").is_yahtzee, Dice("33336").is_yahtzee
            (True, False)
        """
        return self.faces[0] == self.faces[4]

    @property
    def ways(self) -> int:
        """How many of the 7,776 ordered rolls of five dice give this multiset.

        Examples:
            >>> Dice("12345").ways, Dice("11111").ways, Dice("11222").ways
            (120, 1, 10)
            >>> sum(d.ways for d in Dice.all())
            7776
        """
        return ways(COUNTS[self._index])

    def count(self, face: int) -> int:
        """How many dice show ``face``.

        Raises:
            MalformedInputError: If ``face`` is not an int from 1 to 6.

        Examples:
            >>> Dice("13366").count(6)
            2
        """
        if type(face) is not int or not 1 <= face <= 6:
            raise MalformedInputError(
                f"face {show(face)}: not a die face; faces are the ints 1 to 6"
            )
        return COUNTS[self._index][face - 1]

    def keeps(self) -> tuple[Keep, ...]:
        """Every distinct keep of these dice, from holding nothing to holding all five.

        Examples:
            >>> [str(k) for k in Dice("11112").keeps()]
            ['', '1', '2', '11', '12', '111', '112', '1111', '1112', '11112']
            >>> len(Dice("12345").keeps())
            32
        """
        return KEEPS_OF[self._index]

    def score(self, category: _ScoresDice) -> int:
        """The plain value of a box for these dice; see :func:`yahtzee_rules.score`.

        ``category`` is any box (a :class:`~yahtzee_rules.Category` or another card's);
        the box knows how its card scores.

        Examples:
            >>> from yahtzee_rules import Category, YachtBox
            >>> Dice("22256").score(Category.TWOS), Dice("22333").score(YachtBox.FULL_HOUSE)
            (6, 13)
        """
        try:
            scorer = category.score
        except AttributeError:
            raise MalformedInputError(
                f"category {show(category)}: not a box; use a member such as Category.FOURS"
            ) from None
        return scorer(self)

    @classmethod
    def all(cls) -> tuple[Dice, ...]:
        """The 252 distinct rolls, in ascending order of their notation.

        Examples:
            >>> Dice.all()[0], Dice.all()[-1]
            (Dice('11111'), Dice('66666'))
        """
        return ALL_DICE

    @classmethod
    def from_counts(cls, counts: Iterable[int]) -> Dice:
        """Dice with ``counts[i]`` dice showing face ``i + 1``.

        Raises:
            MalformedInputError: Unless there are six non-negative counts adding up to five.

        Examples:
            >>> Dice.from_counts([1, 0, 2, 0, 0, 2])
            Dice('13366')
        """
        if isinstance(counts, (str, bytes)) or not isinstance(counts, Iterable):
            values: tuple[object, ...] = ()
        else:
            values = tuple(itertools.islice(counts, 7))
        if (
            len(values) != 6 or any(type(v) is not int or v < 0 for v in values) or sum(values) != 5  # type: ignore[arg-type]
        ):
            raise MalformedInputError(
                f"counts {show(counts)}: not six counts of faces 1-6 adding up to five"
            )
        return _DICE_BY_COUNTS[values]  # type: ignore[index]

    @classmethod
    def roll(cls, rng: random.Random | None = None) -> Dice:
        """Roll five fair dice with ``rng`` (a private generator when omitted).

        Examples:
            >>> import random
            >>> Dice.roll(random.Random(7))
            Dice('24566')
        """
        return roll_table(EMPTY_KEEP)[int((rng or RNG).random() * 7776)]


# The slots' own setters, for Dice.__init__: they skip object.__setattr__'s lookup.
_SET_FACES = Dice.__dict__["faces"].__set__
_SET_INDEX = Dice.__dict__["_index"].__set__
_SET_CLASSIC = Dice.__dict__["_classic"].__set__


@attrs.frozen(repr=False, order=False)
class Keep:
    """The dice a player holds before a reroll: a multiset of zero to five faces.

    Accepts the same forms as :class:`Dice` with any length from 0 to 5, for
    example ``Keep("33")``, ``Keep([3, 3])`` or ``Keep()`` to reroll everything.

    Raises:
        MalformedInputError: For more than five faces, faces outside 1-6 or non-ints.

    Attributes:
        faces: The held faces, sorted ascending.

    Examples:
        >>> keep = Keep("636")
        >>> keep, str(keep), len(keep)
        (Keep('366'), '366', 3)
        >>> keep.issubset(Dice("13366")), keep.issubset(Dice("12236"))
        (True, False)
        >>> Keep(), Keep(Dice("12345"))
        (Keep(''), Keep('12345'))
    """

    faces: tuple[int, ...] = attrs.field(default=(), converter=_to_keep_faces)
    _index: int = attrs.field(init=False, eq=False, hash=False, repr=False)
    # Internal: the position in Keep.all(), the ``_index`` slot under a plain name.
    position: ClassVar[int]

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)

    def __attrs_post_init__(self) -> None:
        template = KEEP_BY_FACES.get(self.faces)
        if template is not None:
            object.__setattr__(self, "_index", template._index)

    def __str__(self) -> str:
        return "".join(map(str, self.faces))

    def __repr__(self) -> str:
        return f"Keep({str(self)!r})"

    def __iter__(self) -> Iterator[int]:
        return iter(self.faces)

    def __len__(self) -> int:
        return len(self.faces)

    @property
    def counts(self) -> tuple[int, int, int, int, int, int]:
        """How many held dice show each face, ones first.

        Examples:
            >>> Keep("366").counts
            (0, 0, 1, 0, 0, 2)
        """
        return _KEEP_COUNTS[self._index]

    def issubset(self, dice: Dice) -> bool:
        """Whether every held die is among ``dice`` (counting repeats).

        Examples:
            >>> Keep("33").issubset(Dice("13366")), Keep("333").issubset(Dice("13366"))
            (True, False)
        """
        return self._index in KEEP_INDEXES_OF[dice._index]

    @classmethod
    def all(cls) -> tuple[Keep, ...]:
        """The 462 distinct keeps, by size and then by notation.

        Examples:
            >>> Keep.all()[:3]
            (Keep(''), Keep('1'), Keep('2'))
        """
        return ALL_KEEPS


def _build() -> None:
    # Built with attrs' validation bypassed only where the values are known good.
    global ALL_DICE, ALL_KEEPS
    dice_list: list[Dice] = []
    for index, faces in enumerate(itertools.combinations_with_replacement(_FACES, 5)):
        dice = object.__new__(Dice)
        object.__setattr__(dice, "faces", faces)
        object.__setattr__(dice, "_index", index)
        object.__setattr__(dice, "_classic", classic_scores(faces))
        dice_list.append(dice)
        DICE_BY_FACES[faces] = dice
        counts = _counts(faces)
        _DICE_BY_COUNTS[counts] = dice
        COUNTS.append(counts)
        _TOTALS.append(sum(faces))
    ALL_DICE = tuple(dice_list)
    keep_list: list[Keep] = []
    for size in range(6):
        for held in itertools.combinations_with_replacement(_FACES, size):
            keep = object.__new__(Keep)
            object.__setattr__(keep, "faces", held)
            object.__setattr__(keep, "_index", len(keep_list))
            keep_list.append(keep)
            KEEP_BY_FACES[held] = keep
            _KEEP_COUNTS.append(_counts(held))
    ALL_KEEPS = tuple(keep_list)
    for dice in ALL_DICE:
        subs = sorted(
            {
                KEEP_BY_FACES[tuple(sorted(c))]._index
                for r in range(6)
                for c in itertools.combinations(dice.faces, r)
            },
            key=lambda i: (len(ALL_KEEPS[i].faces), ALL_KEEPS[i].faces),
        )
        KEEPS_OF.append(tuple(ALL_KEEPS[i] for i in subs))
        KEEP_INDEXES_OF.append(frozenset(subs))


DICE_BY_FACES: dict[tuple[int, ...], Dice] = {}
_DICE_BY_COUNTS: dict[tuple[int, ...], Dice] = {}
COUNTS: list[tuple[int, int, int, int, int, int]] = []
_TOTALS: list[int] = []
KEEP_BY_FACES: dict[tuple[int, ...], Keep] = {}
_KEEP_COUNTS: list[tuple[int, int, int, int, int, int]] = []
KEEPS_OF: list[tuple[Keep, ...]] = []
KEEP_INDEXES_OF: list[frozenset[int]] = []
ALL_DICE: tuple[Dice, ...] = ()
ALL_KEEPS: tuple[Keep, ...] = ()
_build()
# The same slot as ``_index``: reading ``dice.position`` costs what reading ``_index`` does.
for _cls in (Dice, Keep):
    type.__setattr__(_cls, "position", _cls.__dict__["_index"])
del _cls
type.__setattr__(Dice, "classic_row", Dice.__dict__["_classic"])
EMPTY_KEEP = ALL_KEEPS[0]
RNG = random.Random()
_ROLL_TABLES: list[tuple[Dice, ...] | None] = [None] * len(ALL_KEEPS)


def roll_table(keep: Keep) -> tuple[Dice, ...]:
    """Dice for each ordered outcome of the dice not held by ``keep``, indexed 0 to 6**n - 1.

    A random roll draws its index as ``int(rng.random() * 6**n)``: one call to the
    generator per roll, uniform to within 6**5 / 2**53 (about 1e-12).

    Outcome index ``r`` is read as base-6 digits, least significant first, one per
    thrown die (digit ``d`` is face ``d + 1``).
    """
    table = _ROLL_TABLES[keep._index]
    if table is None:
        kept = keep.faces
        # itertools.product yields outcome r's faces in index order, its last die the
        # least significant digit: the digits in the reverse order, which sorting the
        # faces into dice cannot tell apart.
        outcomes = itertools.product(_FACES, repeat=5 - len(kept))
        table = tuple([DICE_BY_FACES[tuple(sorted(kept + thrown))] for thrown in outcomes])
        _ROLL_TABLES[keep._index] = table
    return table


def outcome_index(faces: tuple[int, ...]) -> int:
    """The inverse of the digit reading in :func:`roll_table` for thrown faces."""
    index = 0
    for face in reversed(faces):
        index = index * 6 + face - 1
    return index


def dice_index(dice: Dice) -> int:
    """The position of ``dice`` in :meth:`Dice.all`, for tables over the 252 rolls.

    Examples:
        >>> dice_index(Dice("11111")), dice_index(Dice("66666"))
        (0, 251)
    """
    return dice._index


def keep_index(keep: Keep) -> int:
    """The position of ``keep`` in :meth:`Keep.all`, for tables over the 462 keeps.

    Examples:
        >>> keep_index(Keep()), keep_index(Keep("66666"))
        (0, 461)
    """
    return keep._index


def as_dice(value: Any) -> Dice:
    """Public-boundary conversion: a Dice passes through, anything else is validated."""
    if value.__class__ is Dice:
        return value
    return Dice(value)


def as_keep(value: Any) -> Keep:
    if value.__class__ is Keep:
        return value
    return Keep(value)
