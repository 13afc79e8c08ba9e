"""The ``tournament`` command: computer players against each other, with the arena's tables.

The players are the app's kinds (random, greedy, optimal), named after their kind
and numbered from the second of a kind on. The games run in this process, or on a
process pool with ``--workers``; either way the tables are the same.

Examples:
    >>> args = build_parser().parse_args(["greedy", "random", "--deals", "10"])
    >>> args.kinds, args.deals, args.seats, args.workers
    (['greedy', 'random'], 10, 2, 1)
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from yahtzee_rules.apps.cli import _extras
from yahtzee_rules.apps.cli.console import AppError
from yahtzee_rules.apps.cli.progress import Progress
from yahtzee_rules.bots.arena import Sprt, TournamentResult, tournament
from yahtzee_rules.bots.simulation import Strategy
from yahtzee_rules.core.rules import Rules

__all__ = ["add_arguments", "build_parser", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``tournament`` command's arguments, added to ``parser``.

    Examples:
        >>> parser = argparse.ArgumentParser()
        >>> add_arguments(parser)
        >>> parser.parse_args(["greedy", "greedy", "--sprt"]).sprt
        True
    """
    parser.add_argument(
        "kinds",
        nargs="+",
        metavar="KIND",
        help="two or more computer players: random, greedy or optimal (repeat a kind to "
        "play it against itself)",
    )
    parser.add_argument("--deals", type=int, default=1000, help="deals to play (default 1000)")
    parser.add_argument("--seats", type=int, default=2, help="players per game (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="the seed (default 0)")
    parser.add_argument(
        "--sprt",
        action="store_true",
        help="stop as soon as a sequential test has decided every pair",
    )
    parser.add_argument(
        "--edge",
        type=float,
        default=0.05,
        help="with --sprt: the head-to-head share above one half worth detecting (default 0.05)",
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="worker processes (default 1: play here)"
    )
    parser.add_argument(
        "--costs",
        action="store_true",
        help="review every game against optimal play: each player's mean cost a choice, "
        "with an interval (needs the solver extra)",
    )


def build_parser() -> argparse.ArgumentParser:
    """A parser for the ``tournament`` arguments alone (the app adds them to its own).

    Examples:
        >>> build_parser().parse_args(["optimal", "greedy"]).kinds
        ['optimal', 'greedy']
    """
    parser = argparse.ArgumentParser(prog="yahtzee-rules tournament")
    add_arguments(parser)
    return parser


def _bots(kinds: Sequence[str], rules: Rules) -> dict[str, Strategy]:
    bots: dict[str, Strategy] = {}
    for kind in kinds:
        if kind not in _extras.BOT_KINDS:
            raise AppError(
                f"tournament: {kind!r}: no such computer player; use random, greedy or optimal"
            )
        name, number = kind, 1
        while name in bots:
            number += 1
            name = f"{kind} {number}"
        bots[name] = _extras.make_bot(kind, rules)
    return bots


def run(args: argparse.Namespace, rules: Rules) -> TournamentResult:
    """Play the tournament ``args`` describe under ``rules``, with a progress bar on stderr.

    Raises:
        AppError: For an unknown kind or numbers out of range.

    Examples:
        >>> args = build_parser().parse_args(["greedy", "random", "--deals", "5"])
        >>> run(args, Rules()).pair("greedy", "random").share
        1.0
    """
    if len(args.kinds) < 2:
        raise AppError(
            f"tournament: {' '.join(args.kinds)}: give two or more computer players, "
            f"such as 'tournament greedy random'"
        )
    if args.deals < 1 or args.workers < 1 or not 2 <= args.seats <= len(args.kinds):
        raise AppError(
            f"tournament: --deals {args.deals} --workers {args.workers} --seats {args.seats}: "
            f"deals and workers must be at least 1, seats from 2 to the number of players"
        )
    if args.sprt and not 0 < args.edge < 0.5:
        raise AppError(f"tournament: --edge {args.edge}: not a number between 0 and 0.5")
    bots = _bots(args.kinds, rules)
    table = _extras.optimal_table(rules) if args.costs else None
    sprt = Sprt(edge=args.edge) if args.sprt else None
    bar = Progress("tournament", args.deals)
    try:
        run = functools.partial(
            tournament,
            bots,
            deals=args.deals,
            seats=args.seats,
            seed=args.seed,
            rules=rules,
            sprt=sprt,
            progress=bar.update,
            table=table,
        )
        if args.workers == 1:
            return run()
        with ProcessPoolExecutor(args.workers) as pool:
            return run(executor=pool)
    finally:
        bar.close()
