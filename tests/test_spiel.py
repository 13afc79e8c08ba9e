"""The OpenSpiel game: OpenSpiel's random-simulation checks, exact chance nodes, returns."""

from __future__ import annotations

import random
import subprocess
import sys
from fractions import Fraction

import pytest

from yahtzee_rules import Dice, Game, GameRecord, Keep, Rules, roll_distribution
from yahtzee_rules.formats.sharecode import encode_record
from yahtzee_rules.support.errors import MalformedInputError

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (the openspiel extra)")
np = pytest.importorskip("numpy")

from yahtzee_rules.integrations.spiel import GAME_NAME, YahtzeeGame, outcomes  # noqa: E402

NEAR_THE_END = (
    "forced 0 Ann,Bob 1=3,2=6,3=9,4=12,5=15,6=18,3k=20,4k=0,fh=25,ss=30,ls=0,y=0/"
    "1=2,2=6,3=9,4=12,5=15,6=24,3k=22,4k=0,fh=25,ss=30,ls=40,y=0 -"
)
# the same game as a share code: OpenSpiel can write it in a game's parameters
NEAR_THE_END_CODE = encode_record(GameRecord.from_game(Game.parse(NEAR_THE_END)))


@pytest.mark.parametrize(
    "params",
    [
        {"players": 1},
        {"players": 2, "reward": "win"},
        {"players": 3, "rules": "yatzy"},
        {"players": 2, "rules": "yacht", "reward": "win"},
        {"players": 1, "rules": "free-choice"},
        {"start": NEAR_THE_END_CODE, "reward": "win"},
    ],
    ids=str,
)
def test_openspiels_random_simulation_checks_pass(params: dict[str, object]) -> None:
    game = pyspiel.load_game(GAME_NAME, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_triple_yahtzee_plays_too() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 1, "rules": "triple"})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("keep", ["", "6", "33", "124", "5555"])
def test_chance_outcomes_are_the_exact_distribution(keep: str) -> None:
    exact = outcomes(Keep(keep))
    assert sum(p for _, p in exact) == Fraction(1)
    assert {Dice.all()[i]: p for i, p in exact} == dict(roll_distribution(keep))
    assert len(outcomes(Keep(""))) == 252


def test_the_chance_nodes_follow_the_holds() -> None:
    state = YahtzeeGame({"players": 1}).new_initial_state()
    first = state.chance_outcomes()
    assert len(first) == 252
    assert sum(p for _, p in first) == pytest.approx(1.0, abs=1e-12)
    state.apply_action(Dice.all().index(Dice("23666")))
    legal = state.legal_actions()
    # one hold action per distinct keep of 23666 (2 x 2 x 4), then the 13 boxes
    assert len(legal) == len(Dice("23666").keeps()) + 13 == 16 + 13
    assert len({state.action_to_string(a) for a in legal}) == len(legal)
    state.apply_action(0b11100)  # hold 666
    assert state.is_chance_node()
    assert {Dice.all()[i] for i, _ in state.chance_outcomes()} == set(roll_distribution("666"))
    state.apply_action(Dice.all().index(Dice("66666")))
    assert state.legal_actions()[-13:] != []
    assert str(state) == "forced 0 player_0 - 66666@2"


def _random_play(params: dict[str, object], seed: int) -> tuple[Game, list[float]]:
    rng = random.Random(seed)
    state = pyspiel.load_game(GAME_NAME, params).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, chances)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.game, state.returns()


def test_the_returns_are_the_final_totals_or_the_result() -> None:
    game, returns = _random_play({"players": 3}, 1)
    assert returns == [float(game.player_totals(seat).grand_total) for seat in range(3)]
    game, returns = _random_play({"players": 3, "reward": "win"}, 1)
    winners = game.result.winners
    assert returns == [1.0 if name in winners else -1.0 for name in game.players]


def test_mcts_plays_from_a_position() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(GAME_NAME, {"start": NEAR_THE_END, "reward": "win"})
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 1.4, 30, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=chances)))
        else:
            state.apply_action(bot.step(state))
    assert sorted(state.returns()) == [-1.0, 1.0]


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(MalformedInputError, match="players 0: not an int from 1 to 10"):
        YahtzeeGame({"players": 0})
    with pytest.raises(MalformedInputError, match="reward 'score': not 'points' or 'win'"):
        YahtzeeGame({"reward": "score"})
    with pytest.raises(MalformedInputError, match="a game over or already rolled"):
        YahtzeeGame({"start": "forced 0 Ann - 12345@1"})
    with pytest.raises(MalformedInputError):
        YahtzeeGame({"rules": "no such rules"})
    with pytest.raises(MalformedInputError, match="observer params"):
        YahtzeeGame().make_py_observer(None, {"x": 1})


def test_the_rules_follow_the_parameter_and_the_start() -> None:
    assert YahtzeeGame({"rules": "yatzy"}).rules == Rules.from_name("yatzy")
    by_code = YahtzeeGame({"start": NEAR_THE_END_CODE}).new_initial_state().game
    assert by_code == YahtzeeGame({"start": NEAR_THE_END}).new_initial_state().game
    assert by_code == Game.parse(NEAR_THE_END)


def test_importing_the_library_does_not_import_openspiel() -> None:
    code = "import sys, yahtzee_rules; print('pyspiel' in sys.modules)"
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert output.strip() == "False"
