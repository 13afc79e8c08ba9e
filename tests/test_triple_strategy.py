"""TripleStrategy: Triple Yahtzee played by the Classic values of its columns.

It plays legal whole games on every Triple ruleset (through Game, which refuses an
illegal move, and batched, the same games), beats greedy play and the rotation
baseline on a seeded sample, explains its choices in the coach's words, and is the
command line's and the web table's optimal player and coach on a Triple card.
"""

from __future__ import annotations

import math
import random
import statistics

import pytest

from _cli import run, script
from yahtzee_rules import (
    Box,
    GreedyStrategy,
    Keep,
    MalformedInputError,
    Rules,
    Scorecard,
    TripleBox,
    Turn,
    simulate,
)

pytest.importorskip("numpy")

from yahtzee_rules.bots.solver import (
    RotationStrategy,
    TripleStrategy,
    column_rules,
    load_table,
)

T = TripleBox
TRIPLE_NAMES = [name for name in Rules.names() if len(Rules.from_name(name).card.columns) > 1]
TRIPLE = Rules.from_name("triple")


class ThroughGame:
    """A strategy's choices, played one by one through Game (not a BatchStrategy)."""

    def __init__(self, inner: object) -> None:
        self.inner = inner

    def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        keep: Keep | None = self.inner.choose_keep(turn, rng)  # type: ignore[attr-defined]
        return keep

    def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        box: Box = self.inner.choose_box(turn, rng)  # type: ignore[attr-defined]
        assert box in turn.options
        return box


def test_every_triple_ruleset_is_covered() -> None:
    assert set(TRIPLE_NAMES) >= {"triple", "triple-in-order"}


@pytest.mark.parametrize("name", TRIPLE_NAMES)
@pytest.mark.parametrize("kind", [TripleStrategy, RotationStrategy])
def test_whole_games_are_legal_and_the_batch_plays_the_same_games(
    name: str, kind: type[TripleStrategy]
) -> None:
    rules = Rules.from_name(name)
    strategy = kind(rules=rules)
    batched = simulate(strategy, games=2, seed=7, rules=rules)
    one_by_one = simulate(ThroughGame(strategy), games=2, seed=7, rules=rules)
    assert batched.scores == one_by_one.scores
    two = simulate([strategy, kind(rules=rules)], games=1, seed=3, rules=rules)
    assert two.scores == simulate([ThroughGame(strategy)] * 2, games=1, seed=3, rules=rules).scores


def test_it_beats_greedy_play_and_the_rotation_at_99_percent() -> None:
    games = 30
    found = {
        name: simulate(strategy, games=games, seed=11, rules=TRIPLE).scores
        for name, strategy in (
            ("triple", TripleStrategy(rules=TRIPLE)),
            ("rotation", RotationStrategy(rules=TRIPLE)),
            ("greedy", GreedyStrategy()),
        )
    }

    def z(one: str, other: str) -> float:
        a, b = found[one], found[other]
        spread = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
        return (statistics.mean(a) - statistics.mean(b)) / spread

    assert z("triple", "greedy") > 2.576
    assert z("triple", "rotation") > 2.576


def test_known_choices_a_yahtzee_goes_in_the_x3_column_and_a_straight_is_kept() -> None:
    strategy = TripleStrategy(rules=TRIPLE)
    rng = random.Random(0)
    last = Turn(rules=TRIPLE).roll(outcome="44444").roll(keep="44444", outcome="")
    assert strategy.choose_box(last.roll(keep="44444", outcome=""), rng) is T.YAHTZEE_X3
    assert strategy.choose_keep(Turn(rules=TRIPLE).roll(outcome="12345"), rng) is None
    assert strategy.choose_box(Turn(rules=TRIPLE).roll(outcome="12345"), rng) is (
        T.LARGE_STRAIGHT_X3
    )
    # with only Aces x1 and Sixes x3 open, sixes go to the x3 column
    chances = (T.CHANCE_X1, T.CHANCE_X2, T.CHANCE_X3)
    card = Scorecard(
        {box: 5 if box in chances else 0 for box in T if box not in (T.ACES_X1, T.SIXES_X3)}
    )
    turn = Turn(card, rules=TRIPLE).roll(outcome="66611")
    assert strategy.choose_keep(turn, rng) == Keep("666")


def test_the_explanation_says_what_the_choice_is_worth_beyond_the_next_best() -> None:
    strategy = TripleStrategy(rules=TRIPLE)
    turn = Turn(rules=TRIPLE).roll(outcome="66612")
    advice = strategy.advise(turn)
    best, second = advice.options[0], advice.options[1]
    assert best.action == Keep("666") == strategy.choose_keep(turn, random.Random(0))
    text = strategy.explain(turn)
    assert text.startswith(
        f"hold 666 and reroll 1 2: worth {best.expected - second.expected:.2f} points more "
        f"than the next best, hold 1666 and reroll 2"
    )
    assert "an approximation" in text
    assert strategy.explain(Turn(rules=TRIPLE)).startswith("roll all five: expected final score")
    # every legal box and every keep is an option, ranked best first
    boxes = [o.action for o in advice.options if isinstance(o.action, Box)]
    assert set(boxes) == set(turn.options)
    values = [o.expected for o in advice.options]
    assert values == sorted(values, reverse=True)


def test_it_refuses_a_card_of_one_column_and_a_table_of_other_rules() -> None:
    with pytest.raises(MalformedInputError, match="has one column"):
        TripleStrategy(rules=Rules())
    yacht = load_table(rules=Rules.from_name("yacht"))
    with pytest.raises(MalformedInputError, match="its columns are valued under the rules"):
        TripleStrategy(yacht, rules=TRIPLE)
    assert column_rules(Rules.from_name("triple-in-order")) == Rules()
    strategy = TripleStrategy(rules=TRIPLE)
    with pytest.raises(MalformedInputError, match="this strategy plays 'triple'"):
        strategy.choose_keep(Turn().roll(outcome="12345"), random.Random(0))


def test_the_command_line_plays_it_and_its_coach_advises_on_a_triple_card() -> None:
    load_table(rules=Rules())  # in the session's cache, where the program finds it
    done = run(
        "play",
        "Ann",
        "--bot",
        "optimal",
        "Cy",
        "--rules",
        "triple",
        "--coach",
        "--seed",
        "3",
        stdin=script("hint", "quit", "y"),
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Cy (optimal): " in out
    assert "Coach: best is 'r 3 4' (hold 33), expected final score" in out
    assert "Triple Yahtzee strategy: hold 33 and reroll 1 1 6: worth " in out
    assert "an approximation" in out
    assert "Chance of winning: not worked out on this card" in out
    simulated = run("simulate", "--strategy", "optimal", "--rules", "triple", "--games", "2")
    assert simulated.returncode == 0, simulated.stderr
    mean = statistics.mean(simulate(TripleStrategy(rules=TRIPLE), games=2, rules=TRIPLE).scores)
    assert f"mean        {mean:.2f}" in simulated.stdout


def test_the_web_table_s_optimal_bot_and_coach_play_it_with_the_classic_table() -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from yahtzee_rules import GameRecord
    from yahtzee_rules.apps.web import create_app
    from yahtzee_rules.apps.web._position import FALLBACK

    client = TestClient(create_app(rng=random.Random(2), tables=[Rules()]))
    response = client.post(
        "/new",
        data={"rules": "triple", "tie": "share", "kind-0": "o", "kind-1": "h", "name-1": "Ann"},
    )
    assert response.status_code == 200
    assert FALLBACK not in response.text
    record = GameRecord.from_share_code(response.url.path.split("/play/")[1])
    assert record.game.current_player == "Ann"  # the bot played its turn
    rolled = client.post(response.url.path + "/roll?seats=oh")
    page = client.get(f"{rolled.url.path}?seats=oh&coach=1")
    assert "Coach (Triple Yahtzee strategy):" in page.text
    assert "worth " in page.text
    assert "points more than the next best" in page.text


def test_the_arena_seats_it_and_the_tournament_command_plays_it() -> None:
    from yahtzee_rules.bots.arena import tournament

    result = tournament(
        {"triple": TripleStrategy(rules=TRIPLE), "greedy": GreedyStrategy()},
        deals=2,
        rules=TRIPLE,
        seed=1,
    )
    assert sorted(record.name for record in result.standings) == ["greedy", "triple"]
    done = run("tournament", "optimal", "greedy", "--rules", "triple", "--deals", "2")
    assert done.returncode == 0, done.stderr
    assert "optimal vs greedy:" in done.stdout


def test_serve_refuses_a_triple_table_and_names_the_classic_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from yahtzee_rules.apps.cli import main

    assert main(["serve", "--table", "triple"]) == 2
    err = capsys.readouterr().err
    assert "out of reach for the Triple Yahtzee card" in err
    assert "start the table with --table forced instead" in err
