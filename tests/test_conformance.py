"""The conformance kit: the known-answer cases, their schema and clauses, and the checker
run against the example scorers of docs/how-to/check-an-implementation.md (the JavaScript
one under Node, and the Python one), clean and with each classic mistake planted."""

from __future__ import annotations

import csv
import functools
import io
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from _cli import APP, ENV, ROOT, run
from yahtzee_rules import (
    Category,
    Dice,
    MalformedInputError,
    Rules,
    Scorecard,
    legal_fills,
    score,
)
from yahtzee_rules.apps.cli import main
from yahtzee_rules.core.boxes import Card, registered
from yahtzee_rules.core.yacht import YachtBox, yacht_scores
from yahtzee_rules.testing import conformance
from yahtzee_rules.testing.conformance import (
    CLAUSES,
    KINDS,
    answer,
    cases,
    disagreement,
    replay_cases,
)

RULESETS = (
    *("forced", "free-choice", "none", "kinds-first", "forced-yahtzee", "classic+5fh"),
    *("yatzy", "forced-yatzy", "yatzy+5fh", "yatzy+4k2p", "yatzy+5fh+4k2p", "yacht"),
)
#: The rulesets of Triple Yahtzee's card: the named ones, then the other Joker rules.
TRIPLES = ("triple", "triple-in-order", "triple,free-choice", "triple,none")
#: The default set's size on each card.
SIZES = {"classic": 3626, "yatzy": 4014, "yacht": 3249, "triple": 3861}
EXAMPLES = ROOT / "docs" / "how-to" / "conformance"
NODE = shutil.which("node")
SCORERS = {
    "python": [sys.executable, str(EXAMPLES / "scorer.py")],
    "node": [NODE or "node", str(EXAMPLES / "scorer.js")],
}

#: Each classic mistake the example scorers can plant, and the clause the checker must name.
MISTAKES = {
    "fourth-roll": "R2.1 a turn has at most three rolls: roll 4",
    "kind-sum": "R4.1 Three of a Kind scores the total of all five dice: score of",
    "five-full-house": "R4.3 Full House is three of one face and two of another; five equal dice",
    "bonus-on-grand-total": "R3.3 only the six upper boxes count towards the 63: fill",
    "bonus-without-50": "R5.2 while the Yahtzee box holds 0, further Yahtzees earn no bonus:",
    "joker-order": "R6.2 the forced Joker: an extra Yahtzee must fill its open upper box:",
}


@functools.cache
def _cases_of(name: str) -> tuple[dict[str, Any], ...]:
    """The default set of a named ruleset, made once for the tests that read it whole
    (they only read it)."""
    return tuple(cases(name))


def _scorer(kind: str) -> list[str]:
    if kind == "node" and NODE is None:
        pytest.skip("Node is not installed; the Python scorer is checked instead")
    return SCORERS[kind]


def _check(*args: str, timeout: float = 120) -> tuple[int, str, float]:
    started = time.monotonic()
    result = subprocess.run(
        [*APP, "check", *args], capture_output=True, text=True, env=ENV, timeout=timeout
    )
    assert result.stderr == "" or result.returncode == 2, result.stderr
    return result.returncode, result.stdout, time.monotonic() - started


# --- the cases ----------------------------------------------------------------------


@pytest.mark.parametrize("name", [*RULESETS, "triple"])
def test_the_cases_replay_against_the_library_through_the_written_file(name: str) -> None:
    """Every case as the command writes it (JSON lines, read back) has the library's
    answer, computed afresh; and replay_cases finds no disagreement."""
    result = run("cases", "--rules", name)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == SIZES[conformance._design(Rules.from_name(name))]
    for line in lines:
        case = json.loads(line)
        assert answer(case["question"]) == case["answer"], case["id"]
        assert disagreement(case["question"], case["answer"]) is None
    assert replay_cases(answer, name) == len(lines)


def test_the_cases_agree_with_the_worked_examples_of_the_rules() -> None:
    """Known answers from the rule documents, found among the cases."""
    by_question = {
        json.dumps(case["question"], sort_keys=True): case["answer"] for case in _cases_of("forced")
    }

    def known(question: dict[str, Any]) -> Any:
        return by_question[json.dumps({"rules": "forced", **question}, sort_keys=True)]

    assert known({"ask": "score", "dice": "33356", "box": "three_of_a_kind"}) == {"points": 20}
    assert known({"ask": "score", "dice": "33333", "box": "full_house"}) == {"points": 0}
    assert known({"ask": "score", "dice": "12346", "box": "small_straight"}) == {"points": 30}
    fill_aces = {"ask": "fill", "dice": "11123", "box": "aces"}
    par = {"twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}
    got = known({**fill_aces, "card": {"boxes": par, "bonus_marks": 0}})
    assert got["totals"]["upper_bonus"] == 35
    assert got["totals"]["grand_total"] == 98
    joker = known({"ask": "options", "card": {"boxes": {"yahtzee": 50}, "bonus_marks": 0},
                   "dice": "44444"})  # fmt: skip
    assert joker == {"options": {"fours": 20}, "bonus": 100}


def test_the_score_cases_are_every_roll_in_every_box() -> None:
    found = {
        (case["question"]["dice"], case["question"]["box"]): case["answer"]["points"]
        for case in cases(kinds=["score"])
    }
    assert len(found) == 252 * 13
    for dice in Dice.all()[::17]:
        for box in Category:
            assert found[str(dice), box.name.lower()] == score(dice, box)


def test_the_options_cases_cover_every_joker_branch_and_the_bonus() -> None:
    clauses = Counter(case["clause"] for case in cases(kinds=["options"]))
    assert {"R6.2", "R6.3", "R6.4", "R2.3"} <= set(clauses)
    bonuses = {case["answer"]["bonus"] for case in cases(kinds=["options"])}
    assert bonuses == {0, 100}
    kinds_first = Counter(case["clause"] for case in cases("kinds-first", kinds=["options"]))
    assert kinds_first["V1"] > 0
    for name, clause in (("free-choice", "R7.1"), ("none", "R7.2")):
        assert clause in {case["clause"] for case in cases(name, kinds=["options"])}
    forced_yahtzee = Counter(case["clause"] for case in _cases_of("forced-yahtzee"))
    assert forced_yahtzee["V2"] > 0
    assert Counter(case["clause"] for case in _cases_of("classic+5fh"))["V3"] == 252


def test_every_refusal_the_issue_names_is_a_case() -> None:
    refusals = {case["clause"] for case in cases(kinds=["refusal"]) if not case["answer"]["legal"]}
    assert refusals == {"R2.1", "R2.2"}  # a fourth roll; a keep not showing or before a roll
    closed = [
        case
        for case in cases(kinds=["fill"])
        if case["clause"] == "R1.1" and case["answer"] == {"legal": False}
    ]
    assert closed  # a closed box


def test_the_game_cases_are_whole_games_move_by_move() -> None:
    games: dict[str, list[dict[str, Any]]] = {}
    for case in cases(kinds=["game"]):
        games.setdefault(case["game"], []).append(case)
    assert len(games) == 3
    for moves in games.values():
        assert [case["move"] for case in moves] == list(range(1, 14))
        for before, after in itertools.pairwise(moves):
            assert after["question"]["card"] == before["answer"]["card"]
        for case in moves:
            assert case["rolls"][-1]["dice"] == case["question"]["dice"]
            assert 1 <= len(case["rolls"]) <= 3


def test_the_cases_are_the_same_every_run_in_every_format() -> None:
    first = run("cases", "--rules", "kinds-first").stdout
    assert run("cases", "--rules", "kinds-first").stdout == first
    lines = [json.loads(line) for line in first.splitlines()]
    document = json.loads(run("cases", "--rules", "kinds-first", "--format", "json").stdout)
    assert document["cases"] == lines
    rows = list(csv.DictReader(io.StringIO(run("cases", "--rules", "kinds-first",
                                               "--format", "csv").stdout)))  # fmt: skip
    assert [row["id"] for row in rows] == [case["id"] for case in lines]
    assert [json.loads(row["answer"]) for row in rows] == [case["answer"] for case in lines]


def test_the_kind_option_selects_kinds_in_their_order() -> None:
    result = run("cases", "--kind", "game", "--kind", "score")
    kinds = [json.loads(line)["kind"] for line in result.stdout.splitlines()]
    assert kinds == ["score"] * 3276 + ["game"] * 39


def test_the_documented_sizes_of_the_exhaustive_set() -> None:
    """The questions of the exhaustive set, counted without their answers (the page's table)."""
    rules = conformance._rules_of({"rules": "forced"})
    sizes = {kind: sum(1 for _ in make(rules, True)) for kind, make in conformance._MAKERS.items()}
    sizes["game"] = sum(1 for _ in conformance._games(rules, True))
    assert sizes == {
        "score": 3276,
        "refusal": 117_434,
        "options": 2144,
        "fill": 2021,
        "game": 1300,
    }
    page = (ROOT / "docs" / "how-to" / "check-an-implementation.md").read_text(encoding="utf-8")
    assert f"| {sum(sizes.values()):,} (" in page
    for kind, size in sizes.items():
        assert re.search(rf"^\| `{kind}` \|.*\| {size:,}( \(|\s*\|)", page, re.MULTILINE), kind


def test_the_documented_sizes_of_the_triple_set() -> None:
    """The Triple Yahtzee paragraph of the page: each kind of the default set, the
    exhaustive score cases (counted without their answers) and the whole set's size."""
    page = (ROOT / "docs" / "how-to" / "check-an-implementation.md").read_text(encoding="utf-8")
    paragraph = " ".join(page.split("On Triple Yahtzee's card, whose")[1].split("\n\n")[0].split())
    sizes = Counter(case["kind"] for case in cases("triple"))
    for kind in ("score", "options", "fill", "game"):
        assert f"({sizes[kind]:,} `{kind}` cases" in paragraph, kind
    rules = conformance._rules_of({"rules": "triple"})
    exhaustive = sum(1 for _ in conformance._questions_score(rules, True))
    assert f"every roll in every box, {exhaustive:,})" in paragraph
    assert f"Triple Yahtzee's {sizes.total():,}, below the table" in " ".join(page.split())


def test_every_named_ruleset_is_covered_and_rules_of_another_card_are_refused() -> None:
    assert set(conformance._covered_names()) == set(Rules.names()) == {*RULESETS, *TRIPLES[:2]}
    plain = Card(name="plain", title="Plain", boxes=YachtBox, scorer=yacht_scores)
    with registered(plain):
        for rules in ("plain", Rules.for_card(plain)):
            with pytest.raises(MalformedInputError, match="the Plain card has no numbered clauses"):
                next(cases(rules))
        with pytest.raises(MalformedInputError, match="question rules 'plain'"):
            answer({"ask": "score", "rules": "plain", "dice": "12345", "box": "ones"})
    result = run("cases", "--rules", "triple,free-choice,ub=x")
    assert result.returncode == 2
    assert "triple,free-choice,ub=x" in result.stderr
    with pytest.raises(MalformedInputError, match="case kind 'scores': no such kind"):
        next(cases(kinds=["scores"]))


@pytest.mark.parametrize(
    ("question", "message"),
    [
        ({"ask": "guess", "rules": "forced"}, "question ask 'guess': no such question"),
        ({"ask": "score", "dice": "1234", "box": "aces"}, "dice '1234'"),
        ({"ask": "score", "dice": "12345", "box": "straight"}, "question box 'straight'"),
        ({"ask": "roll", "rolls_used": 4, "dice": "12345"}, "question rolls_used 4"),
        ({"ask": "options", "card": [], "dice": "12345"}, "question card \\[\\]"),
        ({"ask": "score", "rules": 3}, "question rules 3"),
    ],
)
def test_a_malformed_question_is_refused_naming_it(question: dict[str, Any], message: str) -> None:
    with pytest.raises(MalformedInputError, match=message):
        answer(question)


# --- clauses and the schema ---------------------------------------------------------


def test_every_clause_a_case_names_is_an_anchor_of_the_docs() -> None:
    named = {case["clause"] for name in RULESETS for case in _cases_of(name)}
    assert named <= set(CLAUSES)
    for clause, (page, words) in CLAUSES.items():
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        assert f'<span id="{clause}"></span>**{clause}**' in text, (clause, page)
        assert words
        assert words == words.strip()


def test_the_shipped_schema_is_up_to_date_and_every_case_is_valid() -> None:
    shipped = resources.files("yahtzee_rules").joinpath("schema", "cases-v1.schema.json")
    schema = json.loads(shipped.read_text(encoding="utf-8"))
    assert schema == conformance.cases_schema()
    path = ROOT / "scripts" / "make_cases_schema.py"
    check = run_script(path, "--check")
    assert check.returncode == 0, check.stdout
    validator = jsonschema.Draft202012Validator(schema)
    for name in ("forced", "forced-yahtzee", "yatzy+5fh+4k2p", "yacht"):
        for case in _covering_the_score_cases(iter(_cases_of(name))):
            validator.validate(case)
    for case in cases("triple-in-order", kinds=["options", "fill"]):
        validator.validate(case)
    legal = next(case for case in cases("triple", kinds=["fill"]) if case["answer"]["legal"])
    assert not validator.is_valid({**legal, "answer": {**legal["answer"], "columns": [{}]}})
    document = json.loads(run("cases", "--kind", "refusal", "--format", "json").stdout)
    validator.validate(document)
    broken = next(cases(kinds=["refusal"]))
    assert not validator.is_valid({**broken, "clause": "R9.9"})
    assert not validator.is_valid({**broken, "answer": {"legal": "yes"}})


def _covering_the_score_cases(found: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every case but the score cases, and of those (every roll in every box: nine in ten
    cases) each that has a value no earlier one had in some field, its id's number aside.

    The schema checks a score case field by field (the version, kind, clause, rules,
    dice, box and points each on its own; the other questions and answers need other
    fields), so a score case is valid if every value in it is in one checked: the ones
    left out are valid too.
    """
    seen: set[tuple[str, object]] = set()
    for case in found:
        if case["kind"] != "score":
            yield case
            continue
        keys = {
            key: sorted(value) if isinstance(value, dict) else None for key, value in case.items()
        }
        fields = {
            ("id", case["id"].rsplit("/", 1)[0]),
            ("keys", json.dumps(keys, sort_keys=True)),
            *((key, value) for key, value in case.items() if not isinstance(value, dict)),
            *((f"question.{key}", value) for key, value in case["question"].items()),
            *((f"answer.{key}", value) for key, value in case["answer"].items()),
        } - {("id", case["id"])}
        if not fields <= seen:
            seen |= fields
            yield case


def run_script(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(path), *args], capture_output=True, text=True, env=ENV, timeout=60
    )


# --- the checker against the example scorers ----------------------------------------


@pytest.mark.parametrize("kind", ["python", "node"])
def test_the_example_scorer_passes_the_check(kind: str) -> None:
    status, out, _ = _check("--random", "300", "--", *_scorer(kind))
    assert status == 0, out
    assert out.startswith("3926 questions (3626 cases, 300 random), every answer agrees")


@pytest.mark.slow
def test_the_example_scorer_passes_the_exhaustive_check() -> None:
    """Every case of the exhaustive set (126,175) and 5,000 random questions: minutes."""
    status, out, _ = _check(
        "--exhaustive", "--random", "5000", "--", *SCORERS["python"], timeout=1200
    )
    assert status == 0, out
    assert out.startswith("131175 questions (126175 cases, 5000 random), every answer agrees")


def _check_in_process(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """``check`` run by the command's own entry point in this process (the program it
    checks is still started, and asked through its pipes): no interpreter to start, no
    library to import, for each of the many planted mistakes."""
    capsys.readouterr()
    status = main(["check", *args])
    out, err = capsys.readouterr()
    assert err == "", err
    return status, out


@pytest.mark.parametrize("kind", ["python", "node"])
@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_each_planted_mistake_is_found_and_explained_by_its_rule(
    kind: str, mistake: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = _check_in_process(capsys, "--random", "0", "--", *_scorer(kind), mistake)
    assert status == 1, out
    lines = out.splitlines()
    assert lines[0].startswith("Disagreement at case forced/")
    assert lines[1].startswith(MISTAKES[mistake]), lines[1]
    question = json.loads(lines[2].removeprefix("  question:"))
    assert json.loads(lines[4].removeprefix("  the rules:")) == answer(question)
    assert disagreement(question, json.loads(lines[3].removeprefix("  the program:"))) == lines[1]


@pytest.mark.parametrize("kind", ["python", "node"])
def test_the_example_scorer_plays_triple_yahtzee_and_its_planted_mistake_is_found(
    kind: str,
) -> None:
    """Triple Yahtzee's fill cases and random questions of every kind; then the Yahtzee
    bonus multiplied by the column it is written in, found by the clause T5."""
    asked = ("--rules", "triple", "--kind", "fill")
    status, out, _ = _check(*asked, "--random", "150", "--", *_scorer(kind))
    assert status == 0, out
    assert out.startswith("244 questions (94 cases, 150 random), every answer agrees with the "
                          "triple rules")  # fmt: skip
    status, out, _ = _check(*asked, "--random", "0", "--", *_scorer(kind), "bonus-times-column")
    assert status == 1, out
    lines = out.splitlines()
    assert lines[0].startswith("Disagreement at case triple/fill/")
    assert lines[1].startswith("T5 Triple Yahtzee: an extra Yahtzee earns the bonus while all "
                               "three Yahtzee boxes hold 50, added once, not multiplied: fill ")  # fmt: skip
    assert lines[1].endswith("the program's yahtzee_bonus is 200, the rules 100")


def test_check_takes_a_ruleset_of_every_card() -> None:
    """The rules are checked before the program starts with a question every card can
    answer (a card without an Aces box once made this a usage error)."""
    status, out, _ = _check("--rules", "yacht", "--kind", "refusal", "--random", "0", "--",
                            *SCORERS["python"])  # fmt: skip
    assert status == 0, out
    assert out.startswith("26 questions (26 cases, 0 random), every answer agrees with the "
                          "yacht rules")  # fmt: skip


def test_a_mistake_found_by_a_random_question_is_shrunk_to_a_minimal_card() -> None:
    """Only the random questions reach the Yahtzee bonus here; the card reported is one
    that no longer shows the mistake with any box emptied or a bonus mark dropped."""
    status, out, _ = _check(
        "--kind", "score", "--random", "3000", "--", *SCORERS["python"], "bonus-without-50"
    )
    assert status == 1, out
    lines = out.splitlines()
    assert lines[0].startswith("Disagreement at random question "), lines[0]
    assert lines[1].startswith("R5.2 "), lines[1]
    question = json.loads(lines[2].removeprefix("  question:"))
    theirs = json.loads(lines[3].removeprefix("  the program:"))
    assert question["card"]["boxes"]["yahtzee"] == 0
    assert disagreement(question, theirs) == lines[1]
    for simpler in conformance._simpler(question):
        try:
            ours = answer(simpler)
        except MalformedInputError:
            continue
        planted = ours.get("bonus") == 0 and len(set(simpler["dice"])) == 1
        if simpler["ask"] == "options" and planted:
            pytest.fail(f"{simpler} still shows the mistake")


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("import sys; sys.stderr.write('crashed at start\\n'); sys.exit(4)",
         "the program exited with status 4 "),
        ("print('hello', flush=True); import time; time.sleep(30)",
         "the program printed 'hello', not a JSON answer"),
        # it closes its input before the question can be written: what it printed says why
        ("import os, time; print('hello', flush=True); os.close(0); time.sleep(1)",
         "the program printed 'hello', not a JSON answer"),
        ("import time; time.sleep(30)", "no answer within 2 s, asked"),
        ("import sys, json\nfrom yahtzee_rules.testing.conformance import answer\n"
         "for n, line in enumerate(sys.stdin):\n"
         "    if n == 2: raise SystemExit('gave up')\n"
         "    print(json.dumps(answer(json.loads(line))), flush=True)",
         "the program exited with status 1 without answering"),
        ("print('x' * 200000, flush=True); import time; time.sleep(30)",
         "an answer longer than 100,000 characters"),
    ],
)  # fmt: skip
def test_a_failing_program_gets_a_clear_report_within_the_time_bound(
    code: str, expected: str
) -> None:
    status, out, seconds = _check("--timeout", "2", "--", sys.executable, "-c", code)
    assert status == 3, out
    assert expected in out.splitlines()[0], out
    assert seconds < 20  # the time bound, plus starting two programs on a busy machine
    if "crashed" in code:
        # whether it ended before the question was written or before its answer was read
        # is the machine's timing: either is said, with the question
        first = out.splitlines()[0]
        assert any(
            f'status 4 {when}, asked {{"ask": "score"' in first
            for when in ("without answering", "before reading the question")
        ), out
        assert "its last standard error: crashed at start" in out
    if "gave up" in code:
        assert "2 answers agreed before it." in out


@pytest.mark.skipif(os.name != "posix", reason="process groups are POSIX")
def test_the_program_and_what_it_started_are_ended(tmp_path: Path) -> None:
    """A wrapper whose child holds the pipes: both are gone when the check returns."""
    pid_file = tmp_path / "pid"
    child = f"import os, time; open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(60)"
    code = f"import subprocess, sys; subprocess.run([sys.executable, '-c', {child!r}])"
    status, out, seconds = _check("--timeout", "2", "--", sys.executable, "-c", code)
    assert status == 3, out
    assert "no answer within 2 s" in out
    pid = int(pid_file.read_text())
    for _ in range(50):  # the child is reaped by init shortly after it is killed
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"the wrapper's child {pid} still runs")
    assert seconds < 20


def test_the_total_time_bound_stops_a_slow_program() -> None:
    code = (
        "import sys, time, json\nfrom yahtzee_rules.testing.conformance import answer\n"
        "for line in sys.stdin:\n"
        "    time.sleep(0.5); print(json.dumps(answer(json.loads(line))), flush=True)"
    )
    status, out, seconds = _check(
        "--timeout", "5", "--total-timeout", "2", "--", sys.executable, "-c", code
    )
    assert status == 3, out
    assert "the total time ran out" in out
    assert seconds < 20


def test_check_refuses_bad_arguments() -> None:
    assert "no program given" in run("check").stderr
    assert "no program given" in run("check", "--").stderr
    result = run("check", "--", str(ROOT / "no-such-program"))
    assert result.returncode == 2
    assert "cannot start" in result.stderr
    result = run("check", "--timeout", "0", "--", sys.executable)
    assert result.returncode == 2
    assert "the times must be above 0" in result.stderr


# --- replay_cases -------------------------------------------------------------------


def test_replay_cases_names_the_case_and_the_rule() -> None:
    def bonus_on_zero(question: dict[str, Any]) -> object:
        reply = answer(question)
        card = question.get("card") or {}
        five = len(set(question.get("dice") or "")) == 1
        if question["ask"] == "options" and card["boxes"].get("yahtzee") == 0 and five:
            reply["bonus"] = 100
        return reply

    with pytest.raises(AssertionError, match=r"^case forced/options/\d+: R5\.2 while"):
        replay_cases(bonus_on_zero)
    assert replay_cases(answer, "none", kinds=["options"]) == 204


def test_replay_cases_gives_each_question_as_a_copy() -> None:
    def meddle(question: dict[str, Any]) -> object:
        reply = answer(question)
        question.clear()
        return reply

    assert replay_cases(meddle, kinds=["refusal"]) == 26


def test_the_answers_are_the_library_s() -> None:
    card = Scorecard({Category.YAHTZEE: 50, Category.FOURS: 12})
    options = answer(
        {"ask": "options", "card": {"boxes": {"yahtzee": 50, "fours": 12}, "bonus_marks": 0},
         "dice": "44444"}
    )  # fmt: skip
    assert options["options"] == {
        box.name.lower(): points for box, points in legal_fills(card, "44444").items()
    }


def test_kinds_are_listed_once() -> None:
    assert len(set(KINDS)) == len(KINDS) == 5


def test_a_classic_rule_on_the_yatzy_card_is_explained_by_yatzy_s_clause() -> None:
    def classic_straight(question: dict[str, Any]) -> object:
        if question["ask"] == "score" and question["box"] == "small_straight":
            faces = set(question["dice"])
            runs = ({"1", "2", "3", "4"}, {"2", "3", "4", "5"}, {"3", "4", "5", "6"})
            return {"points": 15 if any(run <= faces for run in runs) else 0}
        return answer(question)

    with pytest.raises(AssertionError, match=r"case yatzy/score/\d+: Y4 Yatzy: Small Straight"):
        replay_cases(classic_straight, "yatzy", kinds=["score"])


# --- Triple Yahtzee and the bonus threshold ------------------------------------------


def test_the_triple_cases_replay_and_name_every_clause_of_the_card() -> None:
    """The cases of every Triple ruleset (but the score cases, alike on each and replayed
    for ``triple`` above) agree with the library's answers asked afresh, and every T
    clause is named by some case."""
    named: Counter[str] = Counter()
    for name in TRIPLES:
        for case in cases(name, kinds=["refusal", "options", "fill", "game"]):
            assert disagreement(case["question"], case["answer"]) is None, case["id"]
            named[case["clause"]] += 1
    own = {clause for clause, (page, _) in CLAUSES.items() if page == "rulesets/triple.md"}
    assert own == {f"T{number}" for number in range(1, 13)}
    assert own <= set(named) <= set(CLAUSES), own - set(named)


def test_a_triple_fill_answer_gives_each_column_s_totals_at_each_column_s_threshold() -> None:
    found: set[tuple[str, int, int]] = set()
    for case in cases("triple", kinds=["fill"]):
        reply = case["answer"]
        if not reply["legal"]:
            continue
        columns, total = reply["columns"], reply["totals"]
        assert [set(column) for column in columns] == [set(conformance.COLUMN_TOTALS)] * 3
        weighted = sum(m * col["grand_total"] for m, col in zip((1, 2, 3), columns, strict=True))
        assert weighted + total["yahtzee_bonus"] == total["grand_total"]
        box = case["question"]["box"]
        if box.startswith("aces_x"):
            column = columns[int(box[-1]) - 1]
            found.add((box, column["upper_subtotal"], column["upper_bonus"]))
            if column["upper_subtotal"] == 5:  # the first column 3 short, the second's Aces
                assert (total["upper_bonus"], columns[0]["upper_subtotal"]) == (0, 60)
    for m in (1, 2, 3):
        assert {(f"aces_x{m}", 62, 0), (f"aces_x{m}", 63, 35), (f"aces_x{m}", 65, 35)} <= found
    assert all("columns" not in case["answer"] for case in cases(kinds=["fill"]))


def _planted(mistake: str) -> Any:
    """The library's answers on Triple Yahtzee's card, with one mistake planted."""

    def mine(question: dict[str, Any]) -> object:
        reply = answer(question)
        if question["ask"] != "fill" or not reply["legal"]:
            return reply
        total, columns = reply["totals"], reply["columns"]
        if mistake == "combined-upper-bonus" and not total["upper_bonus"]:
            upper = sum(column["upper_subtotal"] for column in columns)
            total["upper_bonus"] = 35 if upper >= 63 else 0
        if mistake == "bonus-times-column":
            earned = reply["card"]["bonus_marks"] - question["card"]["bonus_marks"]
            total["yahtzee_bonus"] += 100 * earned * (int(question["box"][-1]) - 1)
        return reply

    return mine


@pytest.mark.parametrize(
    ("mistake", "expected"),
    [
        ("combined-upper-bonus", r"T2 Triple Yahtzee: each column earns its own upper bonus"),
        ("bonus-times-column", r"T5 Triple Yahtzee: an extra Yahtzee earns the bonus .*"
         r"the program's yahtzee_bonus is [23]00, the rules 100"),
    ],
)  # fmt: skip
def test_a_triple_mistake_is_explained_by_the_card_s_clause(mistake: str, expected: str) -> None:
    with pytest.raises(AssertionError, match=rf"^case triple/fill/\d+: {expected}"):
        replay_cases(_planted(mistake), "triple", kinds=["fill"])


@pytest.mark.parametrize("name", ["forced,ut=70", "yatzy,ut=70", "triple,ut=70"])
def test_the_bonus_edges_follow_the_ruleset_s_threshold(name: str) -> None:
    """A house rule's threshold gets fills one short of it, at it and past it, and a
    program that keeps the usual 63 is caught, the threshold named."""
    rules = Rules.parse(name)
    assert rules.upper_bonus_threshold == 70
    found: set[tuple[int, bool]] = set()
    for case in cases(rules, kinds=["fill"]):
        reply = case["answer"]
        if reply["legal"] and case["question"]["box"].startswith(("aces", "ones")):
            for column in reply.get("columns", [reply["totals"]]):
                found.add((column["upper_subtotal"], column["upper_bonus"] > 0))
    assert {(69, False), (70, True), (72, True)} <= found

    def sixty_three(question: dict[str, Any]) -> object:
        reply = answer(question)
        if question["ask"] == "fill" and reply["legal"] and "columns" not in reply:
            reached = reply["totals"]["upper_subtotal"] >= 63
            reply["totals"]["upper_bonus"] = rules.upper_bonus if reached else 0
        elif question["ask"] == "fill" and reply["legal"]:
            for column in reply["columns"]:
                column["upper_bonus"] = rules.upper_bonus if column["upper_subtotal"] >= 63 else 0
        return reply

    with pytest.raises(AssertionError, match=r"the rules 0 \(the threshold of these rules is 70\)"):
        replay_cases(sixty_three, rules, kinds=["fill"])
