"""Game review with the chance of winning: the late decisions' chances are advice's, exact
once every other player has finished and marked as the bound before, and the points
figures are the same as without them."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import attrs
import jsonschema
import pytest

from yahtzee_rules import (
    Box,
    Category,
    Fill,
    Game,
    GameRecord,
    Keep,
    MalformedInputError,
    Rules,
    Scorecard,
    Turn,
)

pytest.importorskip("numpy")

from yahtzee_rules.bots.solver import (
    Table,
    TargetTable,
    advise,
    build_table,
    review,
    review_schema,
    target_table,
)


def _card(open_boxes: tuple[Category, ...], chance: int = 5) -> Scorecard:
    """A card with ``open_boxes`` open, ``chance`` in Chance if filled, 0 elsewhere."""
    return Scorecard(
        {c: (chance if c is Category.CHANCE else 0) for c in Category if c not in open_boxes}
    )


_BOB = _card((Category.CHANCE,))  # only Chance open, 0 points on the card
_ANN = _card((), chance=24)  # finished with 24


@pytest.fixture(scope="module")
def tables() -> tuple[Table, TargetTable]:
    return build_table(start=_BOB), target_table(start=_BOB, maximum=40, cache=False)


def _played(
    start: Game,
    table: Table,
    rng: random.Random,
    choose: Callable[[Game], Keep | Box] | None = None,
) -> GameRecord:
    """A record from ``start``: random keeps and boxes, or ``choose(game)``'s actions."""
    record = GameRecord.from_game(start)
    while not record.game.is_over:
        game = record.game
        turn = game.turn
        assert turn is not None
        if turn.dice is None:
            record = record.roll(rng)
            continue
        options = advise(turn, table).options
        action = rng.choice(options).action if choose is None else choose(game)
        record = record.fill(action) if isinstance(action, Box) else record.roll(rng, keep=action)
    return record


def _advised(
    record: GameRecord, table: Table, targets: TargetTable
) -> list[tuple[float | None, float | None, Keep | Box]]:
    """Each decision's (chance of the action taken, best chance, best action), from advise()
    on the game replayed through the public API."""
    found: list[tuple[float | None, float | None, Keep | Box]] = []
    game = record.start
    for action in record.actions:
        turn = game.turn
        assert turn is not None
        if turn.dice is not None:
            advice = advise(turn, table, game=game, targets=targets)
            taken = action.category if isinstance(action, Fill) else action.keep
            chance = next(o.chance for o in advice.options if o.action == taken)
            best = advice.most_likely
            found.append((chance, best.chance, best.action))
        if isinstance(action, Fill):
            game = game.fill(action.category)
        else:
            game = game.roll(keep=action.keep, outcome=action.outcome)
    return found


def _last_turn(first: int = 0, ann: Scorecard = _ANN) -> Game:
    return Game(["Ann", "Bob"], rules=Rules(), cards=[ann, _BOB], first=first, current=1,
                turn=Turn(_BOB))  # fmt: skip


@pytest.mark.parametrize("seed", range(4))
def test_each_chance_is_the_advice_s_and_exact_once_the_others_have_finished(
    tables: tuple[Table, TargetTable], seed: int
) -> None:
    table, targets = tables
    record = _played(_last_turn(), table, random.Random(seed))
    reviewed = review(record, table, wins=True, targets=targets)
    plain = review(record, table)
    assert reviewed.wins
    assert not plain.wins
    bob = reviewed.player("Bob")
    assert bob.decisions
    for decision, (chance, best_chance, best) in zip(
        bob.decisions, _advised(record, table, targets), strict=True
    ):
        assert decision.win_exact is True
        assert decision.win_chance == chance
        assert decision.best_win_chance == best_chance
        assert decision.best_for_winning == best
        assert decision.win_cost == max(0.0, best_chance - chance)  # type: ignore[operator]
    assert bob.exact_win_decisions == bob.decisions
    assert bob.win_cost == pytest.approx(sum(d.win_cost or 0.0 for d in bob.decisions))
    # the points are the same as without the chances
    for with_wins, without in zip(bob.decisions, plain.player("Bob").decisions, strict=True):
        assert attrs.evolve(with_wins, win_chance=None, best_for_winning=None,
                            best_win_chance=None, win_exact=None) == without  # fmt: skip
    assert reviewed.player("Ann").decisions == ()


def test_playing_the_best_action_for_winning_costs_no_chance(
    tables: tuple[Table, TargetTable],
) -> None:
    table, targets = tables

    def best(game: Game) -> Keep | Box:
        assert game.turn is not None
        return advise(game.turn, table, game=game, targets=targets).most_likely.action

    for seed in range(3):
        record = _played(_last_turn(), table, random.Random(seed), best)
        bob = review(record, table, wins=True, targets=targets).player("Bob")
        assert [d.win_cost for d in bob.decisions] == [0.0] * len(bob.decisions)
        assert all(d.action == d.best_for_winning for d in bob.decisions)
        assert bob.win_cost == 0.0


def test_an_opponent_still_to_play_gives_the_bound_then_the_exact_chance(
    tables: tuple[Table, TargetTable],
) -> None:
    table, targets = tables
    # Bob plays his last turn first; Ann, with Chance open too, plays hers after him
    start = _last_turn(first=1, ann=_BOB)
    record = _played(start, table, random.Random(5))
    reviewed = review(record, table, wins=True, targets=targets)
    bob, ann = reviewed.player("Bob"), reviewed.player("Ann")
    assert [d.win_exact for d in bob.decisions] == [False] * len(bob.decisions)
    assert [d.win_exact for d in ann.decisions] == [True] * len(ann.decisions)
    advised = _advised(record, table, targets)
    every = sorted(bob.decisions + ann.decisions, key=lambda d: d.player != "Bob")
    assert [(d.win_chance, d.best_win_chance) for d in every] == [a[:2] for a in advised]
    assert bob.win_cost == 0.0  # bounded decisions are not added up
    assert bob.exact_win_decisions == ()


def test_no_chances_unless_asked_for_or_before_the_late_turns(
    tables: tuple[Table, TargetTable],
) -> None:
    table, targets = tables
    record = _played(_last_turn(), table, random.Random(1))
    document = review(record, table).to_dict()
    assert "win_cost" not in json.dumps(document)  # today's document, unchanged
    # two boxes open: earlier than the turns a review gives chances for
    two = _card((Category.CHANCE, Category.SIXES))
    early_table = build_table(start=two)
    early = Game(["Ann", "Bob"], rules=Rules(), cards=[two, two], first=0, current=0,
                 turn=Turn(two))  # fmt: skip
    early_record = _played(early, early_table, random.Random(2))
    early_targets = target_table(start=two, maximum=40, cache=False)
    early_review = review(early_record, early_table, wins=True, targets=early_targets)
    for player in early_review.players:
        assert all(d.win_chance is None for d in player.decisions if d.turn == 12)
        assert all(d.win_chance is not None for d in player.decisions if d.turn == 13)
    assert early_review.player("Bob").exact_win_decisions
    with pytest.raises(MalformedInputError, match="targets: given without wins"):
        review(record, table, targets=targets)
    with pytest.raises(MalformedInputError, match="not a TargetTable"):
        review(record, table, wins=True, targets=table)  # type: ignore[arg-type]
    with pytest.raises(MalformedInputError, match="wins 1: not a bool"):
        review(record, table, wins=1)  # type: ignore[arg-type]
    yacht = Rules.from_name("yacht")
    yacht_targets = target_table(rules=yacht, maximum=0, open_boxes=0, cache=False)
    with pytest.raises(MalformedInputError, match="the record plays"):
        review(record, table, wins=True, targets=yacht_targets)


def test_a_review_with_chances_follows_the_schema(tables: tuple[Table, TargetTable]) -> None:
    table, targets = tables
    record = _played(_last_turn(), table, random.Random(3))
    document = json.loads(json.dumps(review(record, table, wins=True, targets=targets).to_dict()))
    validator = jsonschema.Draft202012Validator(review_schema())
    validator.validate(document)
    bob = document["players"][1]
    assert bob["exact_win_decisions"] == len(bob["decisions"])
    assert all(d["win_exact"] is True for d in bob["decisions"])
    del bob["decisions"][0]["win_exact"]  # a chance not said to be exact or a bound
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(document)
