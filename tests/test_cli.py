"""The command-line app as a whole: arguments, exit codes, help, closed pipes, the
transcripts of the how-to page, and no decision taken on the text of a message.

The tests of each command are in ``test_cli_<command>.py``; what they share (running
the app, a pseudo-terminal) is in ``_cli.py``.
"""

from __future__ import annotations

import ast
import shlex
import subprocess
from pathlib import Path

import pytest

from _cli import APP, ENV, PROMPT, ROOT, SRC, matches, run, script, transcripts
from yahtzee_rules.apps.cli import main


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["score", "1234"], "dice '1234': not five digits"),
        (["score", "12347"], "face 7 is outside 1-6"),
        (["play"], "play: no players"),
        (["play", "Ann", "Ann"], "'Ann' appears twice"),
        (["simulate", "--strategy", "greedy", "--games", "0"], "--games 0"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_main_returns_the_exit_status_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "12345"]) == 0
    assert "Large Straight         40" in capsys.readouterr().out


DOC = ROOT / "docs" / "how-to" / "command-line.md"


def test_the_command_line_how_to_shows_real_output(tmp_path: Path) -> None:
    blocks = transcripts(DOC.read_text(encoding="utf-8"))
    assert len(blocks) >= 3
    for command, expected in blocks:
        if command[0] == "cat":  # a file the commands before wrote
            actual = (tmp_path / command[1]).read_text(encoding="utf-8").splitlines()
            assert matches(expected, actual), "\n".join(actual)
            continue
        assert command[0] == "yahtzee-rules"
        typed = [m.group(1) for line in expected if (m := PROMPT.match(line))]
        result = subprocess.run(
            [*APP, *command[1:]],
            input=script(*typed),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**ENV, "YAHTZEE_RULES_CACHE_DIR": str(tmp_path / "cache")},
            timeout=60,
            cwd=tmp_path,
        )
        actual = result.stdout.splitlines()
        assert matches(expected, actual), f"$ {shlex.join(command)}\n" + "\n".join(actual)


@pytest.mark.parametrize(
    ("expected", "actual", "result"),
    [
        (["a", "...", "d"], ["a", "b", "c", "d"], True),
        (["a", "...", "d"], ["a", "d"], True),
        (["a", "d"], ["a", "b", "d"], False),
        (["a", "...", "d"], ["a", "b", "c"], False),
        (["a.c"], ["abc"], False),
        (["at: .../x-....npz"], ["at: /tmp/a/x-1f2e.npz"], True),
        (["at: .../x-....npz"], ["at: /tmp/a/y-1f2e.npz"], False),
    ],
)
def test_transcript_matching_elides_only_where_marked(
    expected: list[str], actual: list[str], result: bool
) -> None:
    assert matches(expected, actual) is result


def test_the_console_script_is_declared_and_points_at_main() -> None:
    import importlib
    import tomllib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, _, name = scripts["yahtzee-rules"].partition(":")
    assert getattr(importlib.import_module(module), name) is main


def test_help_lists_every_command_and_exits_0() -> None:
    result = run("--help")
    assert result.returncode == 0
    for command in ("demo", "play", "score", "simulate", "solve"):
        assert f"    {command}  " in result.stdout
    assert main(["--version"]) == 0


def test_output_cut_short_by_a_closed_pipe_ends_quietly() -> None:
    with subprocess.Popen(
        APP, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, text=True
    ) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        process.stdout.close()  # the reader is gone before the program writes
        errors = process.stderr.read()
        status = process.wait(timeout=60)
    assert errors == ""
    assert status == 1


_TEXT_TESTS = {"startswith", "endswith", "find", "index", "count", "split", "partition"}


def _message_text_tests(tree: ast.AST) -> list[int]:
    """Lines that decide something by an error's message or a box's reason text.

    Caught: ``str(error)`` or ``error.args`` (for a name bound by ``except ... as``)
    tested with ``in``, ``==`` or a string method, and any ``.reason`` tested that way.
    Formatting a message into a new one (``f"...: {error}"``) is not a test and passes.
    """
    names = {
        node.name for node in ast.walk(tree) if isinstance(node, ast.ExceptHandler) and node.name
    }

    def is_text(node: ast.AST) -> bool:
        if isinstance(node, ast.Attribute) and node.attr == "reason":
            return True
        if isinstance(node, ast.Attribute) and node.attr == "args":
            return isinstance(node.value, ast.Name) and node.value.id in names
        return (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "str"
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id in names
        )

    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(
            isinstance(op, (ast.In, ast.NotIn, ast.Eq, ast.NotEq)) for op in node.ops
        ):
            if any(is_text(part) for part in (node.left, *node.comparators)):
                lines.append(node.lineno)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _TEXT_TESTS
            and is_text(node.func.value)
        ):
            lines.append(node.lineno)
    return lines


def test_the_message_text_check_finds_what_it_is_meant_to_find() -> None:
    caught = """
try:
    pass
except ValueError as error:
    if str(error).startswith("share code"):
        raise
    if "filled" in error.args[0] or "x" == str(error):
        pass
closed = [o for o in options if o.reason and "filled" not in o.reason]
"""
    assert _message_text_tests(ast.parse(caught)) == [5, 7, 9]
    passed = """
try:
    pass
except ValueError as error:
    print(f"error: {error}")
    raise OtherError(str(error)) from None
"""
    assert _message_text_tests(ast.parse(passed)) == []


@pytest.mark.parametrize(
    "path",
    sorted(p.relative_to(SRC) for p in (SRC / "yahtzee_rules").rglob("*.py")),
    ids=str,
)
def test_no_code_decides_anything_by_the_text_of_a_message(path: Path) -> None:
    tree = ast.parse((SRC / path).read_text(encoding="utf-8"))
    assert _message_text_tests(tree) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--code=--"],
        ["play", "--load=--"],
        ["play", "--seed=--", "Ann"],
        ["demo", "--seed=--"],
        ["simulate", "--strategy", "greedy", "--games=--"],
        ["simulate", "--strategy", "greedy", "--players=--"],
        ["score", "--joker=--", "12345"],
        ["score", "--card=--", "12345"],
        ["cache", "--kind=--"],
        ["cache", "remove", "--rules=--"],
    ],
)
def test_an_option_given_a_bare_double_dash_is_refused(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    # Python 3.13's argparse takes "--opt=--" as the value "--": the option's own check
    # then refuses it, naming it; before 3.13 argparse refuses it as a missing value.
    assert "expected one argument" in err or "'--'" in err, err
