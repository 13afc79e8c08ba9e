"""The ``cases`` and ``check`` commands: known answers for other implementations, and a
differential checker that asks another program the same questions.

``cases`` writes the known-answer cases of :mod:`yahtzee_rules.testing.conformance`
as JSON lines, one JSON document or CSV. ``check -- COMMAND ...`` starts the program,
writes one question per line to its standard input and reads one answer per line from
its standard output, each within ``--timeout`` seconds and all within
``--total-timeout``; it stops at the first wrong answer, shrinks the question to a
minimal one the program still gets wrong, and reports it with the rule that decides
it and the rules' answer. A program that exits, stays silent or prints something
other than a JSON answer is reported as such, and is killed when the check ends.

Exit status of ``check``: 0 when every answer agrees, 1 at a wrong answer, 3 when the
program fails (exits, stays silent, prints no JSON, or the total time runs out).

Examples:
    >>> args = build_parser().parse_args(["--timeout", "2", "--", "node", "scorer.js"])
    >>> args.timeout, args.program
    (2.0, ['--', 'node', 'scorer.js'])
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import csv
import json
import os
import queue
import random
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from typing import IO, Any

from yahtzee_rules.apps.cli.console import AppError
from yahtzee_rules.support._limits import MAX_ANSWER_LENGTH
from yahtzee_rules.support._text import show
from yahtzee_rules.testing.conformance import (
    KINDS,
    answer,
    cases,
    disagreement,
    random_questions,
    shrink,
)

__all__ = [
    "EXIT_DISAGREES",
    "EXIT_PROGRAM_FAILED",
    "add_case_arguments",
    "add_check_arguments",
    "build_parser",
    "run_cases",
    "run_check",
]

_POSIX = os.name == "posix"

#: ``check``'s exit status when the program gives a wrong answer.
EXIT_DISAGREES = 1
#: ``check``'s exit status when the program exits, is silent or prints no JSON answer.
EXIT_PROGRAM_FAILED = 3


def add_case_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``cases`` command's arguments, added to ``parser``.

    Examples:
        >>> parser = argparse.ArgumentParser()
        >>> add_case_arguments(parser)
        >>> parser.parse_args(["--kind", "score", "--format", "csv"]).kind
        ['score']
    """
    _selection(parser)
    parser.add_argument(
        "--format",
        choices=("jsonl", "json", "csv"),
        default="jsonl",
        help="JSON lines, one case a line (default); one JSON document; or CSV",
    )


def _selection(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        metavar="NAME",
        default="forced",
        help="a ruleset of the Classic, Yatzy, Yacht or Triple Yahtzee card by name (default "
        "forced), or rules notation such as 'free-choice,yb=0'",
    )
    parser.add_argument(
        "--kind",
        action="append",
        choices=KINDS,
        default=None,
        help="only cases of this kind (repeatable; default all)",
    )
    parser.add_argument(
        "--exhaustive",
        action="store_true",
        help="the exhaustive set (every keep of every roll, more cards and games) instead "
        "of the small default one",
    )


def add_check_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``check`` command's arguments, added to ``parser``.

    Examples:
        >>> parser = argparse.ArgumentParser()
        >>> add_check_arguments(parser)
        >>> args = parser.parse_args(["--random", "10", "--", "python3", "mine.py"])
        >>> args.random, args.seed, args.program
        (10, 0, ['--', 'python3', 'mine.py'])
    """
    _selection(parser)
    parser.add_argument(
        "--random",
        type=int,
        default=1000,
        metavar="N",
        help="random questions asked after the cases (default 1000)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="the random questions' seed (default 0)"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="the longest wait for one answer (default 10)",
    )
    parser.add_argument(
        "--total-timeout",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="the longest the whole check may take (default 600)",
    )
    parser.add_argument(
        "program",
        nargs=argparse.REMAINDER,
        metavar="-- COMMAND ...",
        help="the program to check and its arguments, after --",
    )


def build_parser() -> argparse.ArgumentParser:
    """A parser of the ``check`` command's arguments alone (for the examples and tests)."""
    parser = argparse.ArgumentParser(prog="yahtzee-rules check")
    add_check_arguments(parser)
    return parser


def _chosen(args: argparse.Namespace) -> Iterator[dict[str, Any]]:
    return cases(args.rules, kinds=args.kind or KINDS, exhaustive=args.exhaustive)


def run_cases(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    """Write the cases ``args`` select to ``out`` (standard output); return 0.

    Examples:
        >>> import io
        >>> parser = argparse.ArgumentParser()
        >>> add_case_arguments(parser)
        >>> out = io.StringIO()
        >>> run_cases(parser.parse_args(["--kind", "refusal"]), out)
        0
        >>> print(out.getvalue().splitlines()[0])  # doctest: +NORMALIZE_WHITESPACE
        {"version": 1, "id": "forced/refusal/1", "kind": "refusal", "clause": "R2.2",
         "question": {"ask": "roll", "rules": "forced", "rolls_used": 0, "dice": null, "keep": ""},
         "answer": {"legal": true}}
    """
    out = sys.stdout if out is None else out
    chosen = _chosen(args)
    if args.format == "jsonl":
        for case in chosen:
            out.write(json.dumps(case) + "\n")
    elif args.format == "json":
        json.dump({"version": 1, "rules": args.rules, "cases": list(chosen)}, out, indent=1)
        out.write("\n")
    else:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["id", "kind", "clause", "question", "answer"])
        for case in chosen:
            writer.writerow(
                [
                    case["id"],
                    case["kind"],
                    case["clause"],
                    json.dumps(case["question"]),
                    json.dumps(case["answer"]),
                ]
            )
    return 0


def _is_json(line: str) -> bool:
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


class ProgramFailedError(Exception):
    """The program did not give an answer: it exited, stayed silent or printed no JSON."""


class _Program:
    """The program under check: one question a line in, one answer a line out."""

    def __init__(self, command: Sequence[str], timeout: float, deadline: float) -> None:
        self.command = list(command)
        self.timeout = timeout
        self.deadline = deadline
        try:
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                start_new_session=_POSIX,  # its own process group, ended with it
            )
        except OSError as error:
            raise AppError(
                f"check: cannot start {show(' '.join(self.command))}: {error.strerror or error}"
            ) from None
        self.answers: queue.Queue[str | None] = queue.Queue()
        self.errors: collections.deque[str] = collections.deque(maxlen=5)
        self._stdout = threading.Thread(target=self._read, daemon=True)
        self._stdout.start()
        self._stderr = threading.Thread(target=self._read_errors, daemon=True)
        self._stderr.start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            line = stream.readline(MAX_ANSWER_LENGTH + 1)
            if not line:
                self.answers.put(None)
                return
            self.answers.put(line)
            if len(line) > MAX_ANSWER_LENGTH and not line.endswith("\n"):
                self.answers.put(None)
                return

    def _read_errors(self) -> None:
        stream = self.process.stderr
        assert stream is not None
        for line in iter(lambda: stream.readline(1000), ""):
            self.errors.append(line.rstrip("\n"))

    def _failed(self, what: str, question: dict[str, Any]) -> ProgramFailedError:
        asked = json.dumps(question)
        if self.process.poll() is not None:
            self._stderr.join(timeout=1)  # what it printed before it ended
        errors = "; its last standard error: " + " / ".join(self.errors) if self.errors else ""
        return ProgramFailedError(f"{what}, asked {asked}{errors}")

    def ask(self, question: dict[str, Any]) -> object:
        """Send one question; return the program's answer, parsed from JSON."""
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(json.dumps(question) + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError):
            # it ended first: what it printed before, if anything, says why
            early = self._early_line()
            if early is not None and not _is_json(early):
                raise self._not_json(early, question) from None
            raise self._failed(self._exited("before reading the question"), question) from None
        wait = min(self.timeout, self.deadline - time.monotonic())
        if wait <= 0:
            raise self._failed("the total time ran out", question)
        try:
            line = self.answers.get(timeout=wait)
        except queue.Empty:
            if wait < self.timeout:
                raise self._failed("the total time ran out", question) from None
            raise self._failed(f"no answer within {self.timeout:g} s", question) from None
        if line is None:
            raise self._failed(self._exited("without answering"), question)
        if len(line) > MAX_ANSWER_LENGTH and not line.endswith("\n"):
            raise self._failed(f"an answer longer than {MAX_ANSWER_LENGTH:,} characters", question)
        try:
            return json.loads(line)
        except ValueError:
            raise self._not_json(line, question) from None

    def _not_json(self, line: str, question: dict[str, Any]) -> ProgramFailedError:
        return self._failed(
            f"the program printed {show(line.rstrip(chr(10)), 100)}, not a JSON answer", question
        )

    def _early_line(self) -> str | None:
        """A line the program printed before it ended, if any (its reader is given a moment)."""
        try:
            return self.answers.get(timeout=1)
        except queue.Empty:
            return None

    def _exited(self, when: str) -> str:
        try:
            status = self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return f"the program closed its output {when}"
        return f"the program exited with status {status} {when}"

    def close(self) -> None:
        """Close the program's input and end it: at once if it does not end by itself."""
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if _POSIX:  # and whatever it started: a shell's or a wrapper's children
            with contextlib.suppress(OSError):
                os.killpg(self.process.pid, signal.SIGKILL)
        for thread, stream in (
            (self._stdout, self.process.stdout),
            (self._stderr, self.process.stderr),
        ):
            thread.join(timeout=1)  # the pipe ends when the program does
            if stream is not None and not thread.is_alive():
                stream.close()


def _questions(args: argparse.Namespace) -> Iterator[tuple[str, dict[str, Any]]]:
    for case in _chosen(args):
        yield f"case {case['id']}", case["question"]
    rng = random.Random(args.seed)
    asked = random_questions(args.rules, rng)
    for number in range(1, args.random + 1):
        yield f"random question {number} (seed {args.seed})", next(asked)


def run_check(args: argparse.Namespace) -> int:
    """Check the program ``args.program`` against the rules; print the report.

    Returns:
        0 when every answer agrees, :data:`EXIT_DISAGREES` at a wrong answer,
        :data:`EXIT_PROGRAM_FAILED` when the program fails.
    """
    command = args.program[1:] if args.program[:1] == ["--"] else args.program
    if not command:
        raise AppError(
            "check: no program given; name it after --, such as 'check -- node scorer.js'"
        )
    if args.timeout <= 0 or args.total_timeout <= 0 or args.random < 0:
        raise AppError(
            f"check: --timeout {args.timeout:g} --total-timeout {args.total_timeout:g} "
            f"--random {args.random}: the times must be above 0 and --random at least 0"
        )
    answer({"ask": "roll", "rules": args.rules, "rolls_used": 0, "keep": ""})  # the rules
    started = time.monotonic()
    program = _Program(command, args.timeout, started + args.total_timeout)
    count = 0
    try:
        for where, question in _questions(args):
            theirs = program.ask(question)
            line = disagreement(question, theirs)
            if line is not None:
                _report(program, where, question, theirs)
                return EXIT_DISAGREES
            count += 1
    except ProgramFailedError as failure:
        print(f"yahtzee-rules check: {_name(command)}: {failure}")
        print(f"{count} answers agreed before it.")
        return EXIT_PROGRAM_FAILED
    finally:
        program.close()
    seconds = time.monotonic() - started
    print(
        f"{count} questions ({count - args.random} cases, {args.random} random), every answer "
        f"agrees with the {args.rules} rules ({seconds:.1f} s)."
    )
    return 0


def _name(command: Sequence[str]) -> str:
    """The command, as one line of at most 80 characters."""
    text = shlex.join(command).replace("\n", "\\n")
    return text if len(text) <= 80 else text[:77] + "..."


def _report(program: _Program, where: str, question: dict[str, Any], theirs: object) -> None:
    """Shrink the question the program got wrong, and print the smallest one."""

    def fails(candidate: dict[str, Any]) -> bool:
        try:
            return disagreement(candidate, program.ask(candidate)) is not None
        except ProgramFailedError:
            return False

    small = shrink(question, fails, limit=100)
    if small != question:
        theirs = program.ask(small)
    line = disagreement(small, theirs)
    print(f"Disagreement at {where}:")
    print(line)
    print(f"  question:     {json.dumps(small)}")
    print(f"  the program:  {json.dumps(theirs)}")
    print(f"  the rules:    {json.dumps(answer(small))}")
