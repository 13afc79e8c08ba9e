"""Game records: replay, undo, resume from a record or a state, and share codes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from _records import legal_rolls, records, revalidate
from yahtzee_rules import (
    Category,
    Fill,
    Game,
    GameRecord,
    IllegalActionError,
    MalformedInputError,
    Roll,
    Rules,
    from_json,
    to_json,
)
from yahtzee_rules.formats.notation import MAX_INPUT_LENGTH
from yahtzee_rules.formats.sharecode import PREFIX
from yahtzee_rules.testing import strategies as yst

ANY_RULES = yst.rules()


def play_randomly(record: GameRecord, rng: random.Random) -> tuple[GameRecord, list[Game]]:
    """Play a whole game with random legal actions; also return every game along the way."""
    games = [record.game]
    while not record.game.is_over:
        game = record.game
        if game.dice is None or (game.rolls_left and rng.random() < 0.5):
            keep = rng.choice(game.dice.keeps()) if game.dice is not None else None
            record = record.roll(rng, keep=keep)
        else:
            record = record.fill(rng.choice(tuple(game.options)))
        games.append(record.game)
    return record, games


@settings(max_examples=15)
@given(st.integers(0, 2**32), st.integers(1, 4), ANY_RULES)
def test_replay_reproduces_the_played_game(seed: int, players: int, rules: Rules) -> None:
    rng = random.Random(seed)
    record, games = play_randomly(GameRecord.new(players, rules=rules), rng)
    # The same game played directly, with the recorded outcomes.
    game = Game.new(players, rules=rules)
    for action in record.actions:
        game = (
            game.fill(action.category)
            if isinstance(action, Fill)
            else game.roll(keep=action.keep, outcome=action.outcome)
        )
    assert game == record.game == games[-1]
    assert GameRecord(record.start, record.actions).game == game
    for index in (0, len(record.actions) // 2, len(record.actions)):
        assert record.game_at(index) == games[index]
        assert record.undo(len(record.actions) - index).game == games[index]
    assert game.result.winners or game.result.play_off


def test_recording_a_random_roll_keeps_its_outcome() -> None:
    record = GameRecord.new(["Ann"]).roll(random.Random(4))
    first = record.actions[-1]
    assert isinstance(first, Roll)
    assert first.keep.faces == ()
    record = record.roll(random.Random(5), keep=first.dice.faces[:2])
    second = record.actions[-1]
    assert isinstance(second, Roll)
    assert second.dice == record.game.dice
    assert second.keep.faces == first.dice.faces[:2]


def test_live_actions_raise_illegal_action_errors() -> None:
    record = GameRecord.new(["Ann"])
    with pytest.raises(IllegalActionError, match="no dice yet"):
        record.fill(Category.CHANCE)
    with pytest.raises(IllegalActionError, match="nothing to hold"):
        record.play(Roll("1111", keep="1"))
    with pytest.raises(MalformedInputError, match="not a Roll or a Fill"):
        record.play("12345")  # type: ignore[arg-type]
    with pytest.raises(MalformedInputError, match="not a non-negative int"):
        record.undo(-1)
    with pytest.raises(MalformedInputError, match="not a non-negative int"):
        record.undo(True)
    with pytest.raises(MalformedInputError, match="not an int from 0 to 0"):
        record.game_at(1)
    assert record.undo(0) is record


def test_constructed_records_are_replayed_and_checked() -> None:
    start = Game.new(["Ann"])
    with pytest.raises(MalformedInputError, match="action 2 'c': fill Chance: no dice yet"):
        GameRecord(start, [Roll("12345"), Fill(Category.CHANCE), Fill(Category.CHANCE)])
    with pytest.raises(MalformedInputError, match="not a Roll or a Fill"):
        GameRecord(start, ["12345"])
    with pytest.raises(MalformedInputError, match="not a Game"):
        GameRecord("forced 0 Ann", ())  # type: ignore[arg-type]
    with pytest.raises(MalformedInputError, match="sequence of Roll and Fill"):
        GameRecord(start, 3)


def test_resume_from_a_state() -> None:
    game = Game.parse("forced 0 Ann,Bob c=20/- 13366@1")
    record = GameRecord.from_game(game).roll(keep="66", outcome="666").fill(Category.SIXES)
    assert record.game.current_player == "Ann"
    assert record.undo(2).game == game
    with pytest.raises(IllegalActionError, match="only 2 actions"):
        record.undo(3)
    assert GameRecord.parse(str(record)) == record
    assert GameRecord.from_share_code(record.share_code()) == record
    assert from_json(to_json(record), GameRecord) == record
    with pytest.raises(MalformedInputError, match="not a Game"):
        GameRecord.from_game(str(game))  # type: ignore[arg-type]


# --- share codes -------------------------------------------------------------------------------


@settings(max_examples=40)
@given(st.one_of(records(rules=ANY_RULES), records(from_game=True, max_turns=2)))
def test_share_code_round_trip(record: GameRecord) -> None:
    code = record.share_code()
    assert code.startswith(PREFIX)
    assert all(c.isascii() and (c.isalnum() or c in "-_") for c in code)
    decoded = GameRecord.from_share_code(code)
    assert decoded == record
    assert decoded.game == record.game


def test_a_finished_four_player_game_has_a_short_code() -> None:
    record, _ = play_randomly(GameRecord.new(["Ann", "Bob", "Cy", "Di"]), random.Random(8))
    code = record.share_code()
    assert len(code) < len(str(record)) < 2000
    assert GameRecord.from_share_code(code) == record


@settings(max_examples=100)
@given(records(max_players=2, max_turns=3), st.data())
def test_damaged_share_codes_are_refused_or_exact(record: GameRecord, data: st.DataObject) -> None:
    code = record.share_code()
    position = data.draw(st.integers(len(PREFIX), len(code) - 1))
    replacement = data.draw(st.sampled_from("AQgw-_09Zz"))
    cut = data.draw(st.booleans())
    damaged = code[:position] if cut else code[:position] + replacement + code[position + 1 :]
    try:
        decoded = GameRecord.from_share_code(damaged)
    except MalformedInputError as error:
        message = str(error)
    else:
        message = ""
    if message:
        assert message.startswith("share code")
        return
    # Only a change that keeps the code's bytes (no change at all) may be read.
    assert damaged == code
    assert decoded == record


def test_share_code_errors() -> None:
    code = GameRecord.new(["Ann"]).share_code()
    for bad, fragment in [
        ("y2" + code[2:], "unknown version 'y2'"),
        ("x" + code, "not a share code"),
        (code + "=", "not base64url"),
        (code[:-1], "damaged or cut off"),
        ("y1", "checksum"),
        ("y1" + "A" * MAX_INPUT_LENGTH, "longer than the limit"),
    ]:
        with pytest.raises(MalformedInputError, match=fragment):
            GameRecord.from_share_code(bad)
    with pytest.raises(MalformedInputError, match="not text"):
        GameRecord.from_share_code(b"y1AAAA")  # type: ignore[arg-type]


# --- a stateful test: play, undo and resume, checking the record after every step ----------------


class RecordMachine(RuleBasedStateMachine):
    """Plays a game through a GameRecord; keeps a model history of games to check undo."""

    saved = Bundle("saved")

    def __init__(self) -> None:
        super().__init__()
        self.record = GameRecord.new(1)
        self.history: list[Game] = [self.record.game]

    @initialize(players=st.integers(1, 3), rules=ANY_RULES, data=st.data())
    def start(self, players: int, rules: Rules, data: st.DataObject) -> None:
        first = data.draw(st.integers(0, players - 1))
        self.record = GameRecord.new(players, rules=rules, first=first)
        self.history = [self.record.game]

    def _push(self, record: GameRecord) -> None:
        assert len(record.actions) == len(self.record.actions) + 1
        assert record.actions[:-1] == self.record.actions
        self.record = record
        self.history.append(record.game)

    @precondition(lambda self: self.record.game.rolls_left > 0)
    @rule(data=st.data())
    def roll(self, data: st.DataObject) -> None:
        self._push(self.record.play(data.draw(legal_rolls(self.record.game))))

    @precondition(lambda self: self.record.game.dice is not None)
    @rule(data=st.data())
    def fill(self, data: st.DataObject) -> None:
        category = data.draw(st.sampled_from(tuple(self.record.game.options)))
        before = self.record.game
        self._push(self.record.fill(category))
        assert self.record.game.cards[before.current][category] is not None

    @precondition(lambda self: self.record.game.dice is not None)
    @rule(data=st.data())
    def illegal_fill_changes_nothing(self, data: st.DataObject) -> None:
        game = self.record.game
        closed = [c for c in Category if c not in game.options]
        if closed:
            with pytest.raises(IllegalActionError):
                self.record.fill(data.draw(st.sampled_from(closed)))

    @precondition(lambda self: len(self.record.actions) > 0)
    @rule(data=st.data())
    def undo(self, data: st.DataObject) -> None:
        n = data.draw(st.integers(1, min(5, len(self.record.actions))))
        self.record = self.record.undo(n)
        del self.history[-n:]
        assert self.record.game == self.history[-1]

    @rule(target=saved)
    def save(self) -> str:
        return self.record.share_code()

    @rule()
    def resume_from_share_code(self) -> None:
        resumed = GameRecord.from_share_code(self.record.share_code())
        assert resumed == self.record
        self.record = resumed

    @rule()
    def resume_from_json(self) -> None:
        resumed = from_json(to_json(self.record), GameRecord)
        assert resumed == self.record
        self.record = resumed

    @rule()
    def resume_from_notation(self) -> None:
        resumed = GameRecord.parse(str(self.record))
        assert resumed == self.record
        self.record = resumed

    @rule()
    def resume_from_state(self) -> None:
        # Only the position is kept: history before it is gone.
        game = from_json(to_json(self.record.game), Game)
        assert game == Game.parse(str(self.record.game)) == self.record.game
        self.record = GameRecord.from_game(game)
        self.history = [game]

    @rule(code=saved)
    def saved_codes_still_read(self, code: str) -> None:
        revalidate(GameRecord.from_share_code(code))

    @invariant()
    def record_is_consistent(self) -> None:
        record = self.record
        assert record.game == self.history[-1]
        assert len(self.history) == len(record.actions) + 1
        revalidate(record.game)
        assert GameRecord(record.start, record.actions).game == record.game


RecordMachine.TestCase.settings = settings(max_examples=25, stateful_step_count=40)
TestRecordMachine = RecordMachine.TestCase
