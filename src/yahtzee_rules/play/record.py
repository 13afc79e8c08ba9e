"""Game records: a starting game and every action since, for replay, undo, saving and sharing.

A :class:`GameRecord` holds where the game started (usually a new game: the
players, the rules and the starting seat) and the actions played since, in
order: each :class:`Roll` with the dice held and the faces the thrown dice
showed, and each :class:`Fill`. Replaying the actions reproduces the game
exactly, so the record is all a program needs to save a game, undo moves,
attach a game to a bug report, or continue it on another device with a
:meth:`~GameRecord.share_code`.

Examples:
    >>> from yahtzee_rules import Category, GameRecord
    >>> record = GameRecord.new(["Ann", "Bob"]).roll(outcome="22345")
    >>> record = record.roll(keep="2345", outcome="6").fill(Category.LARGE_STRAIGHT)
    >>> str(record)
    'forced 0 Ann,Bob : 22345 2345/6 ls'
    >>> record.game.player_totals("Ann").grand_total, record.game.current_player
    (40, 'Bob')
    >>> record.undo().game.dice
    Dice('23456')
    >>> GameRecord.parse(str(record)) == record
    True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from gc import get_referents
from itertools import islice
from types import MappingProxyType
from typing import Any, TypeAlias

import attrs

from yahtzee_rules.core.boxes import Box, Card, card_of
from yahtzee_rules.core.classic import CLASSIC, Category
from yahtzee_rules.core.dice import (
    EMPTY_KEEP,
    KEEP_BY_FACES,
    KEEP_INDEXES_OF,
    Dice,
    DiceLike,
    Keep,
    KeepLike,
    as_keep,
    faces_from,
    outcome_index,
    roll_table,
)
from yahtzee_rules.core.rules import Rules, not_rules_error
from yahtzee_rules.play import _sharecode
from yahtzee_rules.play.game import Game, Replay, parse_game
from yahtzee_rules.play.scorecard import Scorecard, category_arg
from yahtzee_rules.play.turn import Turn
from yahtzee_rules.support import _text
from yahtzee_rules.support._frozen import reinit_error
from yahtzee_rules.support._limits import MAX_ACTIONS_PER_BOX, MAX_PLAYERS, MAX_ROLLS
from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import IllegalActionError, MalformedInputError

__all__ = ["Action", "Fill", "GameRecord", "Roll"]


def _to_outcome(value: object) -> tuple[int, ...]:
    if isinstance(value, (Dice, Keep)):
        return value.faces
    return faces_from(value, what="outcome", lengths=range(6))


def _to_keep(value: object) -> Keep:
    return EMPTY_KEEP if value is None else as_keep(value)


@attrs.frozen(repr=False)
class Roll:
    """A roll in a record: the dice held and the faces the thrown dice showed.

    The first roll of a turn holds nothing and throws five dice. Later rolls hold
    any of the dice showing (``keep``) and throw the rest; ``outcome`` has one face
    per die thrown, so ``len(keep) + len(outcome) == 5``. Both are stored in
    ascending order, as the order of dice never matters.

    Args:
        outcome: The faces the thrown dice showed (text such as ``"2456"`` or ints).
        keep: The dice held (a :class:`~yahtzee_rules.Keep` or anything it accepts).

    Raises:
        MalformedInputError: For faces outside 1-6 or a keep and outcome that are
            not five dice together.

    Examples:
        >>> roll = Roll("6542", keep="2")
        >>> roll, str(roll), roll.dice
        (Roll(outcome='2456', keep='2'), '2/2456', Dice('22456'))
        >>> str(Roll("22345"))
        '22345'
        >>> Roll("24", keep="2")
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: roll: keep '2' and outcome '24' are 3 dice; a roll holds some dice and throws the rest, five in all
    """

    outcome: tuple[int, ...] = attrs.field(converter=_to_outcome)
    keep: Keep = attrs.field(default=EMPTY_KEEP, converter=_to_keep)

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)

    def __attrs_post_init__(self) -> None:
        if len(self.keep.faces) + len(self.outcome) != 5:
            raise MalformedInputError(
                f"roll: keep {str(self.keep)!r} and outcome {_faces_text(self.outcome)!r} are "
                f"{len(self.keep.faces) + len(self.outcome)} dice; a roll holds some dice "
                f"and throws the rest, five in all"
            )

    def __str__(self) -> str:
        outcome = _faces_text(self.outcome)
        return f"{self.keep}/{outcome}" if self.keep.faces else outcome

    def __repr__(self) -> str:
        return f"Roll(outcome={_faces_text(self.outcome)!r}, keep={str(self.keep)!r})"

    @property
    def dice(self) -> Dice:
        """The dice showing after this roll: the held dice and the thrown ones.

        Examples:
            >>> Roll("3", keep="2233").dice
            Dice('22333')
        """
        return Dice(self.keep.faces + self.outcome)


def _box_arg(value: object) -> Box:
    if isinstance(value, Box):
        return value
    return category_arg(value)  # type: ignore[no-any-return]


@attrs.frozen(repr=False)
class Fill:
    """A fill in a record: the box the current player filled, ending the turn.

    Examples:
        >>> Fill(Category.CHANCE), str(Fill(Category.FULL_HOUSE))
        (Fill(Category.CHANCE), 'fh')
    """

    category: Box = attrs.field(converter=_box_arg)

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)

    def __str__(self) -> str:
        return self.category.code

    def __repr__(self) -> str:
        return f"Fill({type(self.category).__name__}.{self.category.name})"


Action: TypeAlias = Roll | Fill
"""One action of a record: a :class:`Roll` or a :class:`Fill`."""


def _faces_text(faces: tuple[int, ...]) -> str:
    return "".join(map(str, faces))


def roll_action(keep: Keep, outcome: tuple[int, ...]) -> Roll:
    """A roll built without validation, for parsers that have checked the faces."""
    roll = object.__new__(Roll)
    object.__setattr__(roll, "outcome", outcome)
    object.__setattr__(roll, "keep", keep)
    return roll


_FILLS: dict[Box, Fill] = {category: Fill(category) for category in Category}


def fill_action(category: Box) -> Fill:
    found = _FILLS.get(category)
    return Fill(category) if found is None else found


# every valid action text read so far, per card (4,381 at most for a card of 13 boxes)
_ACTIONS: dict[Card, dict[str, Roll | Fill]] = {}


def action_from_text(text: str, what: str, whole: str, design: Card = CLASSIC) -> Roll | Fill:
    """Read one action of a record's notation; ``what`` and ``whole`` name the text."""
    known = _ACTIONS.get(design)
    if known is None:
        known = _ACTIONS.setdefault(design, {})
    action = known.get(text)
    if action is None:
        action = known[text] = _read_action(text, what, whole, design)
    return action


def _read_action(text: str, what: str, whole: str, design: Card) -> Roll | Fill:
    for category in design.members:
        if category.code == text:
            return fill_action(category)
    keep_text, slash, outcome_text = text.rpartition("/")
    if (
        (slash and not keep_text)
        or _text.FACES_RE.fullmatch(keep_text) is None
        or _text.FACES_RE.fullmatch(outcome_text) is None
        or len(keep_text) + len(outcome_text) != 5
        or "/" in keep_text
    ):
        raise _text.fail(
            what,
            whole,
            f"action {_text.quote(text, 40)} is neither a fill (a box code such as 'fh') nor a "
            f"roll: five faces ('22345'), or the faces held, '/', and the faces thrown "
            f"('2/2456'), five in all, each part ascending",
        )
    return roll_action(
        KEEP_BY_FACES[tuple(ord(c) - 48 for c in keep_text)],
        tuple(ord(c) - 48 for c in outcome_text),
    )


_OUTCOME_INDEX: dict[tuple[int, ...], int] = {}  # sorted thrown faces: 462 at most


def _play(state: Replay, action: Roll | Fill) -> None:
    """Play one action in place; raise IllegalActionError (as the core does) if it is not legal."""
    if isinstance(action, Fill):
        state.fill(action.category)
        return
    if not isinstance(action, Roll):
        raise MalformedInputError(
            f"action {show(action)}: not a Roll or a Fill; record actions are Roll(...) and Fill(...)"
        )
    roll = action
    turn = state.turn
    if turn is not None:
        held = roll.keep
        dice = turn.dice
        if turn.rolls_used < MAX_ROLLS and (
            not held.faces if dice is None else held.position in KEEP_INDEXES_OF[dice.position]
        ):
            index = _OUTCOME_INDEX.get(roll.outcome)
            if index is None:
                index = _OUTCOME_INDEX[roll.outcome] = outcome_index(roll.outcome)
            state.rolled(roll_table(held)[index])
            return
    state.roll(roll.keep, roll.outcome)  # raises the reason


def _apply(game: Game, action: Roll | Fill) -> Game:
    """``game`` after one action; raise IllegalActionError (as the core does) if it is not legal."""
    state = Replay(game)
    _play(state, action)
    return state.game()


def _replay(start: Game, actions: Sequence[Roll | Fill], what: str, whole: str | None) -> Game:
    """The game after ``actions``, replayed in place: time linear in the number of actions."""
    if not actions:
        return start
    state = Replay(start)
    for index, action in enumerate(actions):
        try:
            _play(state, action)
        except (IllegalActionError, MalformedInputError) as error:
            shown = "" if whole is None else f" {_text.quote(whole)}"
            raise MalformedInputError(
                f"{what}{shown}: action {index} {str(action)!r}: {error}"
            ) from None
    return state.game()


_RollAt: TypeAlias = tuple[int, int, int, Keep]
"""Where a roll is thrown: the seat, the boxes that seat has filled, the rolls it has used
this turn, and the dice it holds. No two rolls of a game are thrown at the same place."""

_NOTHING_KEPT: Mapping[_RollAt, tuple[int, ...]] = MappingProxyType({})


def _roll_at(game: Game, held: Keep) -> _RollAt:
    seat = game.current
    return seat, game.cards[seat].turns_played, MAX_ROLLS - game.rolls_left, held


def _raw_record(
    start: Game,
    actions: tuple[Roll | Fill, ...],
    game: Game,
    kept: Mapping[_RollAt, tuple[int, ...]] = _NOTHING_KEPT,
) -> GameRecord:
    record = object.__new__(GameRecord)
    object.__setattr__(record, "start", start)
    object.__setattr__(record, "actions", actions)
    object.__setattr__(record, "_game", game)
    object.__setattr__(record, "_kept", kept)
    return record


def replay_record(
    start: Game, actions: tuple[Roll | Fill, ...], what: str, whole: str | None
) -> GameRecord:
    return _raw_record(start, actions, _replay(start, actions, what, whole))


# More actions than any game can play (a share code names at most 224 boxes; the replay
# refuses the first action after the game is over), so reading stops early on an endless
# iterator.
_MOST_ACTIONS = MAX_ACTIONS_PER_BOX * 224 * MAX_PLAYERS


def _to_actions(value: object) -> tuple[Roll | Fill, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise MalformedInputError(
            f"actions {show(value)}: give a sequence of Roll and Fill actions"
        )
    actions = tuple(islice(value, _MOST_ACTIONS + 1))  # an endless iterator is refused too
    if len(actions) > _MOST_ACTIONS:
        raise MalformedInputError(
            f"actions {show(actions)}: more than {_MOST_ACTIONS}; no game of at most "
            f"{MAX_PLAYERS} players has that many"
        )
    for index, action in enumerate(actions):
        if action.__class__ not in (Roll, Fill):
            raise MalformedInputError(
                f"actions: action {index} {show(action)} is not a Roll or a Fill"
            )
    return actions


def check_ruleset(value: object, expected: object, what: str, shown: str) -> None:
    """Refuse a value read under ``expected`` rules that it was not written for.

    ``what`` and ``shown`` name the input (``"share code"``, its quoted text). Values
    with rules (records, games, turns, rules) must have exactly these rules; values
    of one card (scorecards, boxes, fills) must be of the rules' card.
    """
    if expected is None:
        return
    if not isinstance(expected, Rules):
        raise not_rules_error(expected)
    found: Rules | None = None
    if isinstance(value, GameRecord):
        found = value.start.rules
    elif isinstance(value, (Game, Turn)):
        found = value.rules
    elif isinstance(value, Rules):
        found = value
    if found is not None:
        if found != expected:
            raise MalformedInputError(
                f"{what} {shown}: written under the {show(found.name)} rules, not the "
                f"{show(expected.name)} rules asked for; read it under its own rules"
            )
        return
    design = None
    if isinstance(value, Scorecard):
        design = value.card
    elif isinstance(value, Box):
        design = card_of(value)
    elif isinstance(value, Fill):
        design = card_of(value.category)
    if design is not None and design != expected.card:
        raise MalformedInputError(
            f"{what} {shown}: a {design.title} card's, but the {show(expected.name)} rules play "
            f"the {expected.card.title} card; read it under rules of its own card"
        )


def _check_start(instance: GameRecord, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, Game):
        raise MalformedInputError(
            f"start {show(value)}: not a Game; start a record with GameRecord.new(players)"
        )


@attrs.frozen(repr=False)
class GameRecord:
    """A game as its starting position and every action since; replay gives the game.

    Build one with :meth:`new` (a new game) or :meth:`from_game` (continue from a
    position whose history is unknown), then play with :meth:`roll`,
    :meth:`fill` or :meth:`play`; each returns a new record. :meth:`undo` takes
    actions back. The record converts to notation (``str()``, :meth:`parse`),
    JSON (:func:`~yahtzee_rules.to_json`) and a share code (:meth:`share_code`).

    Constructing a record directly replays ``actions`` from ``start`` and checks
    each one.

    Args:
        start: The game before the first action.
        actions: The actions, in the order played.

    Raises:
        MalformedInputError: If ``start`` is not a Game, or an action is not legal
            when it is played; the message gives the action's index from 0.

    Attributes:
        start: The game before the first action.
        actions: The actions, in order.

    Examples:
        >>> from yahtzee_rules import Game
        >>> record = GameRecord(Game.new(["Ann"]), (Roll("12345"), Fill(Category.CHANCE)))
        >>> record.game.player_card("Ann")[Category.CHANCE]
        15
        >>> record
        GameRecord.parse('forced 0 Ann : 12345 c')
        >>> GameRecord(Game.new(["Ann"]), [Fill(Category.CHANCE)])
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: game record: action 0 'c': fill Chance: no dice yet; roll at least once before filling a box
    """

    start: Game = attrs.field(validator=_check_start)
    actions: tuple[Roll | Fill, ...] = attrs.field(default=(), converter=_to_actions)
    _game: Game = attrs.field(init=False, eq=False, hash=False, repr=False)
    # The faces of rolls taken back by undo(keep_dice=True), by where they were thrown: a
    # memory of the session, not of the game (not compared, saved or shared).
    _kept: Mapping[_RollAt, tuple[int, ...]] = attrs.field(
        init=False, eq=False, hash=False, repr=False
    )

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_game", _replay(self.start, self.actions, "game record", None))
        object.__setattr__(self, "_kept", _NOTHING_KEPT)

    def __str__(self) -> str:
        return " ".join([str(self.start), ":", *map(str, self.actions)])

    def __repr__(self) -> str:
        return f"GameRecord.parse({str(self)!r})"

    # --- building ------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        players: Sequence[str] | int,
        *,
        rules: Rules | None = None,
        first: int = 0,
    ) -> GameRecord:
        """A record of a new game; arguments as for :meth:`Game.new <yahtzee_rules.Game.new>`.

        Examples:
            >>> GameRecord.new(["Ann", "Bob"], first=1)
            GameRecord.parse('forced 1 Ann,Bob :')
        """
        game = Game.new(players, rules=rules, first=first)
        return _raw_record(game, (), game)

    @classmethod
    def from_game(cls, game: Game) -> GameRecord:
        """A record that starts at ``game``: resume a saved position and keep playing.

        Undo can go back to ``game`` but not before it, as earlier actions are unknown.

        Raises:
            MalformedInputError: If ``game`` is not a Game.

        Examples:
            >>> from yahtzee_rules import Game
            >>> game = Game.parse("forced 0 Ann,Bob c=20/- 13366@1")
            >>> record = GameRecord.from_game(game).roll(keep="66", outcome="666")
            >>> str(record)
            'forced 0 Ann,Bob c=20/- 13366@1 : 66/666'
            >>> record.undo().game == game
            True
        """
        if not isinstance(game, Game):
            raise MalformedInputError(f"game {show(game)}: not a Game")
        return _raw_record(game, (), game)

    @classmethod
    def parse(cls, text: str, *, rules: Rules | None = None) -> GameRecord:
        """Read a record from its notation; see :func:`yahtzee_rules.formats.notation.parse_record`.

        Args:
            text: The notation.
            rules: The rules the record must have been played under, if given; a record
                of other rules is refused, with both named.

        Examples:
            >>> GameRecord.parse("forced 0 Ann : 12345 ls").game.player_card("Ann").turns_played
            1
            >>> GameRecord.parse("yacht 0 Ann : 12345 ls", rules=Rules())
            Traceback (most recent call last):
            ...
            yahtzee_rules.support.errors.MalformedInputError: game record 'yacht 0 Ann : 12345 ls': written under the 'yacht' rules, not the 'forced' rules asked for; read it under its own rules
        """
        record = cls._parse(text)
        check_ruleset(record, rules, "game record", _text.quote(text))
        return record

    @classmethod
    def _parse(cls, text: str) -> GameRecord:
        text = _text.check_text("game record", text)
        fields = text.split(" ")
        try:
            split = fields.index(":")
        except ValueError:
            raise _text.fail(
                "game record",
                text,
                "no ':' field; a record is the starting game, ' :', then the actions, "
                "such as 'forced 0 Ann : 22345 c'",
            ) from None
        start = parse_game(fields[:split], text, "game record")
        actions = fields[split + 1 :]
        if "" in actions:
            raise _text.fail(
                "game record",
                text,
                "empty field; actions are separated by exactly one ' ', with nothing after the last",
            )
        limit = 4 * len(start.rules.card) * len(start.players)
        if len(actions) > limit:
            raise _text.fail(
                "game record",
                text,
                f"{len(actions)} actions; a game of {len(start.players)} players has at most {limit}",
            )
        design = start.rules.card
        parsed = tuple(action_from_text(action, "game record", text, design) for action in actions)
        return replay_record(start, parsed, "game record", text)

    @classmethod
    def from_share_code(cls, code: str, *, rules: Rules | None = None) -> GameRecord:
        """Read a record from a :meth:`share_code`, checking every action.

        Args:
            code: The share code.
            rules: The rules the record must have been played under, if given.

        Raises:
            MalformedInputError: For a code that is damaged, truncated, from an
                unknown version, whose actions are not legal, or (with ``rules``)
                that was played under other rules.

        Examples:
            >>> record = GameRecord.new(["Ann"]).roll(outcome="66666")
            >>> GameRecord.from_share_code(record.share_code()) == record
            True
        """
        roll: Callable[[Keep, tuple[int, ...]], Roll | Fill] = roll_action
        start, actions, game = _sharecode.decode(code, roll, fill_action, _play)
        record = _raw_record(start, actions, game)
        check_ruleset(record, rules, "share code", _text.quote(code))
        return record

    def share_code(self) -> str:
        """A short URL-safe code for this record, to continue the game elsewhere.

        The code starts with its format version (``y1``) and uses only letters,
        digits, ``-`` and ``_``. It holds the whole record, so undo works after
        resuming too, and a checksum, so a mistyped or cut-off code is refused.

        Examples:
            >>> code = GameRecord.new(["Ann", "Bob"]).roll(outcome="12345").share_code()
            >>> code
            'y1AAIAA0FubgNCb2JMC-O6bw'
            >>> GameRecord.from_share_code(code).game.dice
            Dice('12345')
        """
        return _sharecode.encode(self.start, self._steps())

    def _steps(self) -> Iterator[_sharecode.Step]:
        state = Replay(self.start)
        for action in self.actions:
            if isinstance(action, Roll):
                turn = state.turn
                yield None if turn is None else turn.dice, action.keep, action.dice
            else:
                yield action.category
            _play(state, action)

    # --- where the game stands -----------------------------------------------------

    @property
    def game(self) -> Game:
        """The game after every action: replaying the record gives exactly this value.

        Examples:
            >>> GameRecord.new(1).roll(outcome="12345").game.dice
            Dice('12345')
        """
        return self._game

    def game_at(self, index: int) -> Game:
        """The game after the first ``index`` actions (``0`` is the start).

        Raises:
            MalformedInputError: Unless ``index`` is an int from 0 to ``len(actions)``.

        Examples:
            >>> record = GameRecord.parse("forced 0 Ann : 12345 2345/6 ls")
            >>> record.game_at(1).dice, record.game_at(2).dice
            (Dice('12345'), Dice('23456'))
        """
        count = len(self.actions)
        if type(index) is not int or not 0 <= index <= count:
            raise MalformedInputError(
                f"index {show(index)}: not an int from 0 to {count}; the record has {count} actions"
            )
        if index == count:
            return self._game
        return _replay(self.start, self.actions[:index], "game record", None)

    # --- playing -------------------------------------------------------------------

    def play(self, action: Roll | Fill) -> GameRecord:
        """Play ``action`` and record it.

        Raises:
            IllegalActionError: If the rules forbid the action now.
            MalformedInputError: If ``action`` is not a Roll or a Fill.

        Examples:
            >>> record = GameRecord.new(1).play(Roll("55555")).play(Fill(Category.YAHTZEE))
            >>> record.game.player_totals(record.game.current).grand_total
            50
        """
        game = _apply(self._game, action)
        return _raw_record(self.start, (*self.actions, action), game, self._kept)

    def roll(
        self,
        rng: random.Random | None = None,
        *,
        keep: KeepLike | None = None,
        outcome: DiceLike | str | None = None,
    ) -> GameRecord:
        """Roll as :meth:`Game.roll <yahtzee_rules.Game.roll>` does and record what the dice showed.

        Args:
            rng: The random source, as for :meth:`Turn.roll <yahtzee_rules.Turn.roll>`: a
                seeded :class:`random.Random` replays the dice; omitted (with no
                ``outcome``), the library's private generator throws them, unseeded.
                The record keeps the faces either way, so it always replays.
            keep: The dice to hold; ``None`` holds nothing.
            outcome: Instead of ``rng``, the faces the thrown dice showed.

        Raises:
            IllegalActionError: Once the game is over, for a fourth roll, or holding
                dice that are not showing.
            MalformedInputError: For a malformed keep or outcome, or both ``rng`` and
                ``outcome``.

        Examples:
            >>> import random
            >>> record = GameRecord.new(1).roll(random.Random(2))
            >>> record.actions[-1].dice == record.game.dice
            True
        """
        if outcome is None and self._kept and not self._game.is_over:
            place = _roll_at(self._game, EMPTY_KEEP if keep is None else as_keep(keep))
            kept = self._kept.get(place)
            if kept is not None:  # thrown before and undone with keep_dice: the same dice
                rng, outcome = None, kept
        game = self._game.roll(rng, keep=keep, outcome=outcome)
        held = EMPTY_KEEP if keep is None else as_keep(keep)
        assert game.dice is not None
        thrown = list(game.dice.faces)
        for face in held.faces:
            thrown.remove(face)
        action = roll_action(held, tuple(thrown))
        return _raw_record(self.start, (*self.actions, action), game, self._kept)

    def fill(self, category: Box | str) -> GameRecord:
        """Fill ``category`` as :meth:`Game.fill <yahtzee_rules.Game.fill>` does and record it.

        Args:
            category: A box of the rules' card, or its name, label or code as text
                (``"fh"``, ``"full house"``), read as :meth:`Category.parse
                <yahtzee_rules.Category.parse>` reads it for the rules' card.

        Raises:
            IllegalActionError: Once the game is over, before a roll, for a filled box
                or a box the Joker rule forbids.

        Examples:
            >>> GameRecord.new(1).roll(outcome="12345").fill(Category.CHANCE).actions[-1]
            Fill(Category.CHANCE)
            >>> str(GameRecord.new(1).roll(outcome="22333").fill("full house"))
            'forced 0 Player%201 : 22333 fh'
        """
        box: Box = category_arg(category, self.start.rules.card)
        game = self._game.fill(box)
        return _raw_record(self.start, (*self.actions, fill_action(box)), game, self._kept)

    def undo(self, n: int = 1, *, keep_dice: bool = False) -> GameRecord:
        """The record without its last ``n`` actions (a roll or a fill each).

        Args:
            n: How many actions to take back.
            keep_dice: Also remember the faces of the rolls taken back, so that rolling
                again at the same place (the same player and turn, the same roll of it,
                holding the same dice) shows the same dice instead of throwing new ones,
                whatever ``rng`` is given: undoing a fill, or a misplaced hold, cannot
                reroll the dice. Holding other dice throws new ones. The memory is the
                session's, not the game's: records compare, save and share as without it,
                and a later ``undo`` keeps it.

        Raises:
            IllegalActionError: If fewer than ``n`` actions have been recorded.
            MalformedInputError: Unless ``n`` is a non-negative int.

        Examples:
            >>> record = GameRecord.parse("forced 0 Ann : 12345 2345/6 ls")
            >>> str(record.undo()), str(record.undo(3))
            ('forced 0 Ann : 12345 2345/6', 'forced 0 Ann :')
            >>> import random
            >>> again = record.undo(2, keep_dice=True).roll(random.Random(7), keep="2345")
            >>> again.game.dice  # the undone roll's dice, not the generator's
            Dice('23456')
            >>> record.undo(4)
            Traceback (most recent call last):
            ...
            yahtzee_rules.support.errors.IllegalActionError: undo 4: only 3 actions are recorded since the start; undo at most 3
        """
        if type(n) is not int or n < 0:
            raise MalformedInputError(f"undo {show(n)}: not a non-negative int of actions to undo")
        count = len(self.actions)
        if n > count:
            raise IllegalActionError(
                f"undo {show(n)}: only {count} actions are recorded since the start; undo at most {count}"
            )
        if type(keep_dice) is not bool:
            raise MalformedInputError(f"keep_dice {show(keep_dice)}: not True or False")
        if n == 0:
            return self
        actions = self.actions[: count - n]
        game = _replay(self.start, actions, "game record", None)
        memory = self._kept
        if keep_dice:
            found = dict(memory)
            state = game
            for action in self.actions[count - n :]:
                if isinstance(action, Roll):
                    found[_roll_at(state, action.keep)] = action.outcome
                state = _apply(state, action)
            memory = MappingProxyType(found)
        return _raw_record(self.start, actions, game, memory)
