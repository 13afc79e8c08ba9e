"""Triple Yahtzee's review: every decision against TripleStrategy's values, labelled an
approximation, through the library, the command line and the web table.

The identity (final score - start = luck - cost) holds exactly for these values too; the
luck less its bias (the values' own share, at each turn's start) has mean 0 exactly,
checked here by averaging over every roll.
"""

from __future__ import annotations

import functools
import json
import math
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _cli import run
from yahtzee_rules import (
    Dice,
    Game,
    GameRecord,
    GreedyStrategy,
    Keep,
    MalformedInputError,
    RandomStrategy,
    Rules,
    Turn,
    totals,
)

pytest.importorskip("numpy")
import jsonschema

from test_review import _play
from yahtzee_rules.apps.cli import _extras
from yahtzee_rules.bots.simulation import Strategy
from yahtzee_rules.bots.solver import (
    RotationStrategy,
    TripleStrategy,
    load_table,
    review,
    review_schema,
)
from yahtzee_rules.bots.solver._review_kernel import steps

TRIPLE = Rules.from_name("triple")


@functools.cache
def _triple() -> TripleStrategy:
    return TripleStrategy(load_table(rules=Rules()), rules=TRIPLE)


def _players() -> dict[str, Strategy]:
    return {
        "triple": _triple(),
        "rotation": RotationStrategy(_triple().table, rules=TRIPLE),
        "greedy": GreedyStrategy(),
        "random": RandomStrategy(),
    }


@functools.cache
def _record(kinds: tuple[str, ...], seed: int, yahtzees: float) -> GameRecord:
    made = _players()
    names = [f"P{i}" for i in range(len(kinds))]
    return _play(
        Game.new(names, rules=TRIPLE),
        [made[k] for k in kinds],
        random.Random(seed),
        yahtzees=yahtzees,
    )


@settings(max_examples=6, deadline=None)
@given(
    kinds=st.lists(
        st.sampled_from(["triple", "rotation", "greedy", "random"]), min_size=1, max_size=2
    ),
    seed=st.integers(0, 2**32),
    yahtzees=st.sampled_from([0.0, 0.3]),
)
def test_a_triple_game_adds_up_by_the_strategys_values_and_says_they_are_approximate(
    kinds: list[str], seed: int, yahtzees: float
) -> None:
    record = _record(tuple(kinds), seed, yahtzees)
    reviewed = review(record)
    assert reviewed.approximation is not None
    assert "approximation" in reviewed.approximation
    assert "not the optimum" in reviewed.approximation
    strategy = _triple()
    played = list(steps(record))
    decisions = {i: iter(p.decisions) for i, p in enumerate(reviewed.players)}
    turn_starts: dict[int, list[float]] = {i: [] for i in range(len(kinds))}
    for seat, turn, taken in played:
        if taken is None:
            continue
        decision = next(decisions[seat])
        advice = strategy.advise(turn)  # the coach's values: the review's
        assert decision.best_expected == pytest.approx(advice.expected, abs=1e-9)
        chosen = next(o.expected for o in advice.options if o.action == taken)
        assert decision.expected == pytest.approx(chosen, abs=1e-9)
        distinct = {o.action for o in advice.options}
        assert decision.options == len(distinct)
        if turn.rolls_used == 1 and turn.card.filled_categories:
            turn_starts[seat].append(strategy.advise(Turn(turn.card, rules=TRIPLE)).expected)
    for seat, player in enumerate(reviewed.players):
        card = record.game.player_card(seat)
        final = totals(card, rules=TRIPLE).grand_total
        assert player.end == pytest.approx(final, abs=1e-9)  # the final score
        assert abs(player.unexplained) < 1e-9
        # the bias is each later turn's own start value against the fill before it
        fills = [d.expected for d in player.decisions if not isinstance(d.action, Keep)]
        assert player.luck_bias == pytest.approx(
            math.fsum(s - f for s, f in zip(turn_starts[seat], fills, strict=False)), abs=1e-6
        )
        if kinds[seat] == "triple":  # its own values: every decision is the best
            assert player.cost == 0.0
            assert {d.grade for d in player.decisions} <= {"best", "forced"}


def _rolls(kept: Keep) -> list[tuple[str, float]]:
    """Every outcome of rolling the dice not in ``kept``, with its chance."""
    free = 5 - len(kept)
    counts = Counter("".join(sorted(str(kept) + "".join(map(str, o)))) for o in _faces(free))
    return [(dice, n / 6**free) for dice, n in counts.items()]


def _faces(n: int) -> list[tuple[int, ...]]:
    return [()] if n == 0 else [(f, *rest) for f in range(1, 7) for rest in _faces(n - 1)]


def test_luck_less_its_bias_has_mean_zero_exactly() -> None:
    """The value before a roll (a turn's start, a keep held) is the mean of the values
    after it, by the strategy's own numbers: each roll's luck is of mean 0 but for the
    gap between a fill's value and the next turn's start, which luck_bias adds up."""
    strategy = _triple()
    rng = random.Random(7)
    game = Game.new(["Ann"], rules=TRIPLE)
    for _ in range(9):  # a card some turns in
        game = game.roll(rng)
        game = game.fill(GreedyStrategy().choose_box(game.turn, rng))  # type: ignore[arg-type]
    turn = Turn(game.player_card(0), rules=TRIPLE)
    start = strategy.advise(turn).expected
    after = math.fsum(p * strategy.advise(turn.roll(outcome=d)).expected for d, p in _rolls(Keep()))
    assert after == pytest.approx(start, abs=1e-9)
    rolled = turn.roll(outcome="12236")
    for kept in (Keep("22"), Keep("1236")):
        held = next(o.expected for o in strategy.advise(rolled).options if o.action == kept)
        outcomes = [(Dice(d), p) for d, p in _rolls(kept)]
        mean = math.fsum(
            p * strategy.advise(rolled.roll(keep=kept, outcome=_rest(d, kept))).expected
            for d, p in outcomes
        )
        assert mean == pytest.approx(held, abs=1e-9)


def _rest(dice: Dice, kept: Keep) -> str:
    faces = list(str(dice))
    for face in str(kept):
        faces.remove(face)
    return "".join(faces)


def test_the_chance_of_winning_is_refused_on_triple_yahtzee() -> None:
    record = GameRecord.new(["Ann", "Bob"], rules=TRIPLE).roll(outcome="12345")
    with pytest.raises(MalformedInputError, match="no play-to-win table reaches"):
        review(record, wins=True)


def test_the_command_line_reviews_a_triple_game_as_an_approximation(tmp_path: Path) -> None:
    record = _record(("greedy",), 5, 0.0)
    path = tmp_path / "triple.json"
    _extras.save_game(str(path), record, {"P0": "greedy"})
    expected = review(record)
    text = run("review", str(path))
    assert text.returncode == 0, text.stderr
    assert "Review against TripleStrategy's values, an approximation" in text.stdout
    assert "not the optimum" in text.stdout
    for player in expected.players:
        assert (
            f"{player.player}: {player.end:g} points; expected {player.start:.2f} at the start "
            f"by the approximate values" in text.stdout
        )
        assert f"luck of the dice       {player.luck:+.2f}" in text.stdout
        assert f"values' share of it    {player.luck_bias:+.2f}" in text.stdout
        assert f"cost of the decisions  {-player.cost:+.2f}" in text.stdout
    assert re.search(r"^\s+39  \d{5}", text.stdout, re.MULTILINE)  # a row for the last turn
    answer = run("review", str(path), "--json")
    assert answer.returncode == 0, answer.stderr
    document = json.loads(answer.stdout)
    jsonschema.Draft202012Validator(review_schema()).validate(document)
    assert document == json.loads(json.dumps(expected.to_dict()))
    assert "not the optimum" in document["approximation"]
    for player in document["players"]:
        luck = math.fsum(roll["luck"] for roll in player["rolls"])
        cost = math.fsum(decision["cost"] for decision in player["decisions"])
        assert player["end"] - player["start"] == pytest.approx(luck - cost, abs=1e-9)
        assert "luck_bias" in player


def test_an_exact_review_carries_no_approximation() -> None:
    validator = jsonschema.Draft202012Validator(review_schema())
    document = {
        "format": "yahtzee-rules review",
        "version": 1,
        "rules": "forced",
        "grades": {},
        "players": [],
        "approximation": 3,
    }
    assert not validator.is_valid(document)  # the label is words
    record = GameRecord.new(["Ann"]).roll(outcome="12345").fill("ls")
    plain = review(record, load_table(rules=Rules())).to_dict()
    assert "approximation" not in plain
    assert "luck_bias" not in plain["players"][0]


def test_the_web_table_reviews_a_triple_game_as_an_approximation() -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from yahtzee_rules.apps.web import create_app

    client = TestClient(create_app(rng=random.Random(4), tables=[Rules()]))  # the Classic one
    form = {"rules": "triple", "tie": "share", "name-0": "Ann", "kind-0": "g"}
    page = client.post("/new", data=form)
    assert page.status_code == 200
    found = re.search(r'id="review-link" href="([^"]+)"', page.text)
    assert found, "the final standings link to the review"
    answer = client.get(found.group(1).replace("&amp;", "&"))
    assert answer.status_code == 200
    assert 'id="approximation-note"' in answer.text
    assert "not the optimum" in answer.text
    code = found.group(1).split("/review/")[1].split("?")[0]
    expected = review(GameRecord.from_share_code(code), load_table(rules=Rules()))
    for player in expected.players:
        assert f'<td class="num">{player.luck:+.2f}</td>' in answer.text
        assert f'<td class="num">{-player.cost:+.2f}</td>' in answer.text
        assert f"Ann {player.luck_bias:+.2f}" in answer.text
