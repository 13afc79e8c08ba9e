"""The ``yahtzee-rules`` command (also ``python -m yahtzee_rules``).

Commands: ``play`` (pass-and-play with optional computer players and coach, one
game or a match), ``score`` (what every box would score), ``simulate`` (statistics
of many games), ``solve`` (build and cache the optimal table), ``distribution``
(the final score's spread under optimal play), ``target`` (the best chance of
reaching a total), ``rules`` (the
named rulesets), ``tournament`` (computer players against each other), ``serve``
(the web table), ``cases`` and ``check`` (known answers and a differential checker
for other implementations), ``cache`` (list or remove the solver's cached tables) and ``demo``; with no command it plays the seeded demonstration
game. Every command that plays or scores takes ``--rules NAME``. Only the standard
library is used, so the
app needs no extra beyond the features it calls on.

Examples:
    >>> main(["score", "44444"])  # doctest: +ELLIPSIS
    Dice 44444 on an empty card, forced Joker (Hasbro Classic)
    Box                Points  Note
    -----------------  ------  ----
    Aces                    0
    ...
    Yahtzee                50
    Chance                 20
    0
"""

from __future__ import annotations

import argparse
import gettext
import importlib
import os
import random
import shlex
import sys
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from yahtzee_rules.apps.cli import _extras, conformance, tournament
from yahtzee_rules.apps.cli import cache as cache_command
from yahtzee_rules.apps.cli import review as review_command
from yahtzee_rules.apps.cli.console import AppError, StreamConsole
from yahtzee_rules.apps.cli.play import EXIT_INTERRUPTED, Session
from yahtzee_rules.apps.cli.progress import Progress
from yahtzee_rules.apps.cli.stats import histogram, summary_lines, win_shares_line
from yahtzee_rules.core.dice import Dice
from yahtzee_rules.core.rules import JokerRule, Rules
from yahtzee_rules.play.game import Game, roll_off
from yahtzee_rules.play.match import MAX_BEST_OF, Match
from yahtzee_rules.play.record import GameRecord
from yahtzee_rules.play.scorecard import Scorecard
from yahtzee_rules.play.scoring import box_options
from yahtzee_rules.play.turn import check_marks_allowed
from yahtzee_rules.support._notices import listening
from yahtzee_rules.support._text import for_terminal
from yahtzee_rules.support.errors import MalformedInputError, RulesError, UnknownLocaleError
from yahtzee_rules.support.l10n import LOCALES, resolve_locale, translations

if TYPE_CHECKING:
    from yahtzee_rules.bots.solver import Table

__all__ = ["build_parser", "main", "rules_lines", "score_table"]

_JOKER_CHOICES = ",".join(rule.value for rule in JokerRule)

#: Exit status for a command that cannot run as asked (argparse uses it too).
EXIT_USAGE = 2


def _rules(args: argparse.Namespace) -> Rules:
    """The ruleset the options ask for: ``--rules``, else ``--joker`` on the Classic card."""
    chosen: Rules | None = getattr(args, "rules", None)
    if chosen is not None:
        return chosen
    return Rules(joker=args.joker or JokerRule.FORCED)


def _ruleset(text: str) -> Rules:
    """A --rules value: a name from ``Rules.names()`` (with any parts ``Rules.from_name``
    reads) or rules notation; argparse reports the error with the option's name."""
    for read in (Rules.from_name, Rules.parse):
        try:
            return read(text)
        except RulesError:
            pass
    raise argparse.ArgumentTypeError(
        f"{text!r} is no ruleset; use one of {', '.join(Rules.names())} "
        f"('yahtzee-rules rules' describes them), or rules notation such as 'free-choice,yb=0'"
    )


def _best_of(text: str) -> int:
    """A --match value: an odd number of games from 1 to 99."""
    if (
        not (text.isascii() and text.isdigit())
        or not 1 <= int(text) <= MAX_BEST_OF
        or int(text) % 2 == 0
    ):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an odd number of games from 1 to {MAX_BEST_OF}; "
            f"a match is the best of 3 or 5 games, say"
        )
    return int(text)


def _label(rules: Rules, locale: str | None = None) -> str:
    """The ruleset in a heading: "forced Joker (Hasbro Classic)", "yatzy rules" (in
    ``locale``'s language)."""
    text = translations(locale)
    if rules == Rules(joker=rules.joker):
        return text.pgettext("JokerRule", rules.joker.title)
    return text.pgettext("score table", "{name} rules").format(name=rules.name)


def _joker_rule(text: str) -> str:
    """A --joker value, checked as :class:`~yahtzee_rules.Rules` reads it (``free`` is
    short for ``free-choice``); argparse reports the error with the option's name."""
    try:
        Rules(joker=text)
    except RulesError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is no Joker rule; use {_JOKER_CHOICES.replace(',', ', ')}"
        ) from None
    return text


def _for_rules(rules: Rules) -> str:
    """The rule set after "for": "the forced Joker (Hasbro Classic)", "no Joker"."""
    name = _label(rules)
    return name if name == "no Joker" else f"the {name}"


#: The commands that take ``--lang``: their ``--help`` is written in that language too.
LANG_COMMANDS = ("play", "score", "rules")


def help_locale(argv: Sequence[str]) -> str | None:
    """The language a command line's ``--help`` is written in: its ``--lang``, for a
    command that takes one (:data:`LANG_COMMANDS`); else ``None`` (English). An unknown
    language is left for the parser to refuse.

    Examples:
        >>> help_locale(["play", "--help", "--lang", "de-AT"]), help_locale(["score", "--lang=fr"])
        ('de', 'fr')
        >>> help_locale(["simulate", "--lang", "de"]), help_locale(["rules", "--lang", "xx"])
        (None, None)
    """
    if not argv or argv[0] not in LANG_COMMANDS:
        return None
    for place, word in enumerate(argv):
        value = None
        if word == "--lang" and place + 1 < len(argv):
            value = argv[place + 1]
        elif word.startswith("--lang="):
            value = word.removeprefix("--lang=")
        if value is not None:
            try:
                return resolve_locale(value)
            except UnknownLocaleError:
                return None
    return None


def _help_words(parser: argparse.ArgumentParser, text: gettext.NullTranslations) -> None:
    """argparse's own words in ``parser``'s help (usage, its sections, ``-h``) in
    ``text``'s language."""
    usage = text.pgettext("command line", "usage: ")

    class Formatter(argparse.HelpFormatter):
        def add_usage(
            self,
            usage_text: str | None,
            actions: Iterable[argparse.Action],
            groups: Iterable[argparse._MutuallyExclusiveGroup],
            prefix: str | None = None,
        ) -> None:
            super().add_usage(usage_text, actions, groups, usage if prefix is None else prefix)

    parser.formatter_class = Formatter
    parser._positionals.title = text.pgettext("command line", "positional arguments")
    parser._optionals.title = text.pgettext("command line", "options")
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            action.help = text.pgettext("command line", "show this help message and exit")


def _joker_parent(text: gettext.NullTranslations) -> argparse.ArgumentParser:
    """The ``--rules`` and ``--joker`` options many commands share, their help in
    ``text``'s language."""
    joker = argparse.ArgumentParser(add_help=False)
    chosen = joker.add_mutually_exclusive_group()
    chosen.add_argument(
        "--rules",
        type=_ruleset,
        metavar="NAME",
        default=None,
        help=text.pgettext(
            "command line",
            "the ruleset: a name that 'yahtzee-rules rules' lists (default forced), or rules "
            "notation such as 'free-choice,yb=0'",
        ),
    )
    titles = {rule: text.pgettext("JokerRule", rule.title) for rule in JokerRule}
    rules = "; ".join(f"{rule.value}: {titles[rule]}" for rule in JokerRule)
    chosen.add_argument(
        "--joker",
        type=_joker_rule,
        metavar="{" + _JOKER_CHOICES + "}",
        default=None,
        help=text.pgettext(
            "command line",
            "the Joker rule on the Classic card (default forced; free is short for "
            "free-choice): {rules}",
        ).format(rules=rules),
    )
    return joker


def build_parser(locale: str | None = None) -> argparse.ArgumentParser:
    """The argument parser for ``yahtzee-rules``; with ``locale``, the help of the
    commands that take ``--lang`` (:data:`LANG_COMMANDS`) in that language.

    Examples:
        >>> args = build_parser().parse_args(["play", "Ann", "--bot", "greedy", "Cy"])
        >>> args.names, args.bot
        (['Ann'], [['greedy', 'Cy']])
        >>> import contextlib, io
        >>> shown = io.StringIO()
        >>> with contextlib.redirect_stdout(shown), contextlib.suppress(SystemExit):
        ...     build_parser("es").parse_args(["rules", "--help"])
        >>> shown.getvalue().splitlines()[0]
        'uso: yahtzee-rules rules [-h] [--lang LANG]'
    """
    from yahtzee_rules import __version__

    english = translations(None)
    text = translations(locale)

    parser = argparse.ArgumentParser(
        prog="yahtzee-rules",
        description=(
            "Yahtzee in the terminal, by the exact rules. With no command, play and print "
            "the seeded demonstration game."
        ),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    joker = _joker_parent(english)
    local_joker = _joker_parent(text)  # for the commands that take --lang

    demo = sub.add_parser(
        "demo",
        parents=[joker],
        help="play and print the seeded demonstration game",
        description=(
            "Play a seeded game between computer players and print it turn by turn, with "
            "the final card; --seed plays another game, --full prints the card every turn."
        ),
    )
    demo.add_argument("--seed", type=int, default=None, help="another seed for the demo game")
    demo.add_argument(
        "--full", action="store_true", help="print the card after every turn, not only at the end"
    )

    play = sub.add_parser(
        "play",
        parents=[local_joker],
        help="pass-and-play at the terminal",
        description=text.pgettext(
            "command line",
            "Pass-and-play: each player in turn rolls, holds dice by position and fills a box. "
            "Type 'help' at the prompt for the commands.",
        ),
    )
    play.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help=text.pgettext("command line", "the human players, in seat order"),
    )
    play.add_argument(
        "--bot",
        nargs=2,
        action="append",
        default=[],
        metavar=("KIND", "NAME"),
        help=text.pgettext(
            "command line", "add a computer player: KIND is random, greedy or optimal (repeatable)"
        ),
    )
    play.add_argument(
        "--seed",
        type=int,
        default=None,
        help=text.pgettext("command line", "seed the dice, to replay a game"),
    )
    play.add_argument(
        "--coach",
        action="store_true",
        help=text.pgettext("command line", "show the optimal move and each choice's cost"),
    )
    play.add_argument(
        "--match",
        type=_best_of,
        metavar="N",
        default=None,
        help=text.pgettext(
            "command line",
            "play a match: best of N games (odd, such as 3 or 5), the first roller "
            "moving one seat each game",
        ),
    )
    resume = play.add_mutually_exclusive_group()
    resume.add_argument(
        "--load",
        metavar="FILE",
        help=text.pgettext("command line", "resume a game saved with 'save FILE'"),
    )
    resume.add_argument(
        "--code",
        metavar="CODE",
        help=text.pgettext("command line", "resume a game from its share code"),
    )
    _add_lang(
        play,
        text.pgettext(
            "command line", "show the card, the prompts and the coach (the commands stay as typed)"
        ),
        text,
    )
    _help_words(play, text)

    score = sub.add_parser(
        "score",
        parents=[local_joker],
        help="what every box would score for some dice",
        description=text.pgettext(
            "command line",
            "What every box would score for DICE on an empty card (or --card), and why each "
            "closed box is closed, under the ruleset's Joker and bonus rules.",
        ),
    )
    score.add_argument(
        "dice", metavar="DICE", help=text.pgettext("command line", "five faces, such as 44456")
    )
    score.add_argument(
        "--card",
        metavar="CARD",
        help=text.pgettext("command line", "the scorecard, in the text notation"),
    )
    _add_lang(
        score, text.pgettext("command line", "name the boxes and say why a box is closed"), text
    )
    _help_words(score, text)

    simulate = sub.add_parser(
        "simulate",
        parents=[joker],
        help="statistics and a histogram of many games",
        description=(
            "Play many seeded games of one strategy at every seat and print the mean, "
            "spread and percentiles of the final scores, with a histogram (and each seat's "
            "share of the wins with --players)."
        ),
    )
    simulate.add_argument(
        "--strategy", required=True, choices=_extras.BOT_KINDS, help="the strategy every seat plays"
    )
    simulate.add_argument("--games", type=int, default=1000, help="how many games (default 1000)")
    simulate.add_argument("--seed", type=int, default=0, help="the seed (default 0)")
    simulate.add_argument("--players", type=int, default=1, help="players per game (default 1)")

    sub.add_parser(
        "solve",
        parents=[joker],
        help="build and cache the optimal table; print its value",
        description=(
            "Build (or load) the optimal strategy table for the ruleset and print the "
            "expected final score of optimal solitaire play, to 7 decimals."
        ),
    )
    serve = sub.add_parser(
        "serve",
        help="serve the pass-and-play web table (needs the web extra)",
        description=(
            "Serve the web table: pass-and-play in the browser, each position at a link "
            "(and QR code) that continues the game on any device. Needs the web extra: "
            'pip install "yahtzee-rules[web]".'
        ),
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1; 0.0.0.0 for other devices)",
    )
    serve.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    serve.add_argument(
        "--table",
        type=_ruleset,
        action="append",
        default=[],
        metavar="RULES",
        help="a ruleset to play and coach optimally (repeatable): its optimal table is loaded, "
        "or built once, before the server starts; under other rules the optimal bots and the "
        "coach play greedily, and the page says so (needs the solver extra)",
    )
    serve.add_argument(
        "--public-url",
        metavar="URL",
        help="the address others reach the table at, for each page's link and QR code, such "
        "as https://table.example (default: the address and port each connection reached; "
        "never the Host header a browser sends)",
    )
    serve.add_argument(
        "--secret-file",
        metavar="FILE",
        help="sign every link with the key in FILE (16 to 1,024 bytes), and play only the "
        "links this table wrote (default: the key in $YAHTZEE_RULES_WEB_SECRET, if set; "
        "else any link is played)",
    )
    listing = sub.add_parser(
        "rules",
        help="list the named rulesets, one line each",
        description=text.pgettext(
            "command line", "List every ruleset --rules NAME accepts by name, with one line each."
        ),
    )
    _add_lang(listing, text.pgettext("command line", "describe the rulesets"), text)
    _help_words(listing, text)

    distribution = sub.add_parser(
        "distribution",
        parents=[joker],
        help="the final score's distribution under optimal play: mean, spread, percentiles",
        description=(
            "The exact distribution of the final score under optimal-expectation play, from "
            "the empty card (or --card): mean, standard deviation, median and percentiles."
        ),
    )
    distribution.add_argument(
        "--card", metavar="CARD", help="start from this card (text notation), not the empty one"
    )
    target = sub.add_parser(
        "target",
        parents=[joker],
        help="the best chance of a final score of at least T, and optimal play's",
        description=(
            "The highest probability any play has of a final score of T or more, from the "
            "empty card (or --card), to 7 decimals; and that of optimal-expectation play."
        ),
    )
    target.add_argument("total", type=int, metavar="T", help="the final score to reach")
    target.add_argument(
        "--card", metavar="CARD", help="start from this card (text notation), not the empty one"
    )

    reviewing = sub.add_parser(
        "review",
        help="what each decision of a game cost, and how lucky the dice were",
        description=(
            "Review a game against optimal solitaire play: for each player, the luck of the "
            "dice and the cost of the decisions in expected final points, a table turn by "
            "turn and the three costliest decisions. Needs the solver extra."
        ),
    )
    review_command.add_arguments(reviewing)

    arena = sub.add_parser(
        "tournament",
        parents=[joker],
        help="computer players against each other: win shares, scores, head to head",
        description=(
            "Play computer players against each other, every seat rotation of each group "
            "in a deal, and print each player's share of the wins, mean score and head-to-"
            "head results, with intervals."
        ),
    )
    tournament.add_arguments(arena)
    conformance.add_case_arguments(
        sub.add_parser(
            "cases",
            help="known-answer cases for another implementation to replay (JSON lines)",
            description="Write the known-answer cases: every case a question, the rules' "
            "answer and the numbered rule clause it exercises.",
        )
    )
    conformance.add_check_arguments(
        sub.add_parser(
            "check",
            help="ask another program the cases and random questions; stop at a wrong answer",
            description="Start COMMAND and ask it the cases and seeded random questions, one "
            "JSON line each on its standard input, one JSON answer a line on its output.",
        )
    )
    cache_command.add_arguments(
        sub.add_parser(
            "cache",
            help="list the cached solver tables with their sizes, or remove them",
            description="List what the solver's cache directory holds (each table's kind, "
            "ruleset, size and last use), or remove tables: all of them, or those of a ruleset "
            "or a kind. It keeps at most YAHTZEE_RULES_CACHE_LIMIT bytes (default 2 GB), the "
            "least recently used tables going first.",
        ),
        _ruleset,
    )
    return parser


def _add_lang(parser: argparse.ArgumentParser, what: str, text: gettext.NullTranslations) -> None:
    """The ``--lang`` option: ``what`` the command writes in the chosen language (its help
    in ``text``'s)."""
    help_text = text.pgettext("command line", "{what} in this language: {locales} (default en)")
    parser.add_argument(
        "--lang",
        type=_lang,
        default=None,
        metavar="LANG",
        help=help_text.format(what=what, locales=", ".join(LOCALES)),
    )


def _lang(text: str) -> str:
    """The ``--lang`` argument: a locale the library has text for (``de-AT`` is ``de``)."""
    try:
        return resolve_locale(text)
    except UnknownLocaleError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def score_table(
    dice: Dice, card: Scorecard, *, rules: Rules | None = None, locale: str | None = None
) -> str:
    """What every box would score for ``dice`` on ``card``, and why closed boxes are closed.

    A reason that closes several boxes is given in full at the first of them; the
    others say ``as for`` that box.

    Examples:
        >>> from yahtzee_rules import Category
        >>> card = Scorecard({Category.YAHTZEE: 50})
        >>> print(score_table(Dice("66666"), card, rules=Rules()))  # doctest: +ELLIPSIS
        Box                Points  Note
        -----------------  ------  ----
        Aces                    -  the forced Joker requires Sixes, which is open: five 6s must go in Sixes
        Twos                    -  as for Aces
        ...
        Sixes                  30  +100 Yahtzee bonus
        ...
        Yahtzee                 -  Yahtzee is already filled with 50; each box is filled once
        Chance                  -  as for Aces
    """
    text = translations(locale)
    box, worth, about = (
        text.pgettext("score table", "Box"),
        text.pgettext("score table", "Points"),
        text.pgettext("score table", "Note"),
    )
    lines = [
        f"{box:<17}  {worth:>6}  {about}",
        f"{'-' * max(17, len(box))}  {'-' * max(6, len(worth))}  {'-' * len(about)}",
    ]
    first_with: dict[str, str] = {}  # a reason, and the first box it closes
    for category, option in box_options(card, dice, rules=rules, locale=locale).items():
        label = category.label_in(locale)
        if option.points is None:
            points, note = "-", option.reason or ""
            if note in first_with:  # the same reason again: name it once
                note = text.pgettext("score table", "as for {box}").format(box=first_with[note])
            elif note:
                first_with[note] = label
        else:
            points = str(option.points)
            note = (
                text.pgettext("score table", "+{bonus} Yahtzee bonus").format(bonus=option.bonus)
                if option.bonus
                else ""
            )
        lines.append(f"{label:<17}  {points:>6}  {note}".rstrip())
    return "\n".join(lines)


def _score(args: argparse.Namespace) -> int:
    rules = _rules(args)
    dice = Dice(args.dice)
    card = Scorecard(card=rules.card) if args.card is None else _rules_card(args, rules, "score")
    text = translations(args.lang)
    heading = (
        text.pgettext("score table", "Dice {dice} on an empty card, {rules}")
        if args.card is None
        else text.pgettext("score table", "Dice {dice} on the card {card}, {rules}")
    )
    print(heading.format(dice=dice, card=args.card, rules=_label(rules, args.lang)))
    print(score_table(dice, card, rules=rules, locale=args.lang))
    return 0


def _demo(args: argparse.Namespace) -> int:
    from yahtzee_rules.apps import demo

    rules = _rules(args)
    if args.seed is None:
        demo.main(full=args.full, rules=rules)
    else:
        _, log = demo.play_demo(args.seed, rules=rules)
        print("\n\n".join(log))
    return 0


def _new_game(args: argparse.Namespace, rng: random.Random) -> Game:
    names = [*args.names, *(name for _, name in args.bot)]
    if not names:
        raise AppError(
            "play: no players; give at least one name, such as 'play Ann Bob', "
            "or a computer player with '--bot greedy Cy'"
        )
    rules = _rules(args)
    game = Game.new(names, rules=rules)  # validates the names first
    if len(names) > 1:
        text = translations(args.lang)
        off = roll_off(names, rng)
        for number, throws in enumerate(off.rounds):
            said = ", ".join(f"{names[seat]} {dice.total}" for seat, dice in throws)
            line = (
                text.pgettext("play", "Roll-off: {throws}")
                if number == 0
                else text.pgettext("play", "  tie, rolled again: {throws}")
            )
            print(line.format(throws=said))
        print(text.pgettext("play", "{player} starts.").format(player=names[off.starter]))
        game = Game.new(names, rules=rules, first=off.starter)
    return game


def _play(args: argparse.Namespace) -> int:
    for kind, name in args.bot:
        if kind not in _extras.BOT_KINDS:
            raise AppError(
                f"play: --bot {kind} {name}: no such computer player; use random, greedy or optimal"
            )
    if args.coach or any(kind == "optimal" for kind, _ in args.bot):
        _extras.require_solver()  # before the roll-off: fail before anything is played
    rng = random.Random(args.seed)
    bot_kinds: dict[str, str] = {}
    if args.match is not None:
        if args.load is not None or args.code is not None:
            raise AppError(
                "play: --match with a saved game; a saved game is one game, so give either "
                "--match N with the players or --load FILE / --code CODE"
            )
        return _play_match(args, rng)
    if args.load is not None or args.code is not None:
        if args.names:
            raise AppError(
                f"play: names {' '.join(args.names)!r} given with a saved game; the saved "
                f"game has its own players, so give only --load FILE or --code CODE"
            )
        if args.load is not None:
            record, bot_kinds = _extras.load_game(args.load)
        else:
            record = _extras.game_from_code(args.code)
        game = record.game
        if args.joker is not None and _rules(args) != game.rules:
            raise AppError(
                f"play: --joker {args.joker}: the saved game plays with the "
                f"{_label(game.rules)}; a game keeps its rules, so leave "
                f"out --joker when resuming"
            )
        if args.rules is not None and args.rules != game.rules:
            raise AppError(
                f"play: --rules {args.rules.name}: the saved game plays by the "
                f"{game.rules.name} rules; a game keeps its rules, so leave out --rules "
                f"when resuming"
            )
        for kind, name in args.bot:
            if name not in game.players:
                raise AppError(
                    f"play: --bot {kind} {name}: {name!r} is not a player of the saved game; "
                    f"its players are {', '.join(game.players)}"
                )
            bot_kinds[name] = kind
        resuming = translations(args.lang).pgettext("play", "Resuming: {players}, round {round}.")
        print(resuming.format(players=", ".join(game.players), round=game.round))
        if args.code is not None and len(game.players) > 1:
            print(_seats_from_code(game.players, bot_kinds, args.lang))
    else:
        record = GameRecord.from_game(_new_game(args, rng))
        bot_kinds = {name: kind for kind, name in args.bot}
    if args.coach or "optimal" in bot_kinds.values():
        _ensure_table(record.game.rules, players=True)
    bots = {
        name: (kind, _extras.make_bot(kind, record.game.rules)) for name, kind in bot_kinds.items()
    }
    session = Session(record, rng, StreamConsole(), bots=bots, coach=args.coach, locale=args.lang)
    if args.load is not None:
        session.saved = (args.load, len(record.actions))
    return session.run()


def _seats_from_code(
    players: Sequence[str], bot_kinds: dict[str, str], locale: str | None = None
) -> str:
    """Who plays which seat of a game resumed from a share code, which keeps no computer
    players: the people, and how to have the computer play a seat (in ``locale``'s
    language).

    Examples:
        >>> print(_seats_from_code(["Ann", "Robo"], {}))
        People play every seat at this terminal: Ann and Robo (a share code keeps no computer players). To have the computer play a seat, add --bot KIND NAME to the command, such as --bot greedy Robo.
        >>> print(_seats_from_code(["Ann", "Robo"], {"Robo": "greedy"}))
        People play Ann at this terminal; the computer plays Robo (greedy).
    """
    text = translations(locale)
    people = [name for name in players if name not in bot_kinds]
    if not people:
        computers = ", ".join(f"{name} ({bot_kinds[name]})" for name in players)
        every = text.pgettext("play", "The computer plays every seat: {computers}.")
        return every.format(computers=computers)
    both = text.pgettext("play", " and ")
    named = ", ".join(people[:-1]) + both + people[-1] if len(people) > 1 else people[0]
    if not bot_kinds:
        return text.pgettext(
            "play",
            "People play every seat at this terminal: {people} (a share code keeps no "
            "computer players). To have the computer play a seat, add --bot KIND NAME to "
            "the command, such as --bot greedy {name}.",
        ).format(people=named, name=shlex.quote(players[-1]))
    computers = ", ".join(f"{name} ({bot_kinds[name]})" for name in players if name in bot_kinds)
    mixed = text.pgettext(
        "play", "People play {people} at this terminal; the computer plays {computers}."
    )
    return mixed.format(people=named, computers=computers)


def _wins_text(wins: Fraction) -> str:
    """Games won, as a whole number or with a shared game as a decimal: 1, 1.5, 0.33."""
    if wins.denominator == 1:
        return str(wins.numerator)
    return f"{float(wins):.2f}".rstrip("0")


def _play_match(args: argparse.Namespace, rng: random.Random) -> int:
    """Play a best-of-N match: the roll-off picks who rolls first in game 1, then the
    first roller moves one seat each game; each game is a ``play`` session."""
    names = [*args.names, *(name for _, name in args.bot)]
    if len(names) < 2:
        raise AppError(
            f"play: --match {args.match}: a match needs at least two players; give their "
            f"names, or computer players with '--bot greedy Cy'"
        )
    game = _new_game(args, rng)
    match = Match.new(game.players, best_of=args.match, rules=game.rules, first=game.first)
    bot_kinds = {name: kind for kind, name in args.bot}
    if args.coach or "optimal" in bot_kinds.values():
        _ensure_table(match.rules, players=True)
    bots = {name: (kind, _extras.make_bot(kind, match.rules)) for name, kind in bot_kinds.items()}
    text = translations(args.lang)
    tie = text.pgettext("TieRule", match.rules.tie.description)
    heading = text.pgettext("play", "Match: best of {games}; {tie}.")
    print(heading.format(games=match.best_of, tie=tie))
    while True:
        current = match.current
        assert current is not None
        number = len(match.records)
        starter = match.players[current.start.first]
        opening = text.pgettext(
            "play", "Game {number} of the best of {games}: {player} rolls first."
        )
        print("\n" + opening.format(number=number, games=match.best_of, player=starter))
        session = Session(
            current, rng, StreamConsole(), bots=bots, coach=args.coach, locale=args.lang
        )
        status = session.run()
        if not session.game.is_over:
            return status
        match = match.with_record(session.record)
        score = ", ".join(
            f"{name} {_wins_text(wins)}"
            for name, wins in zip(match.players, match.wins, strict=True)
        )
        after = text.pgettext("play", "Match after game {number}: {score}")
        print(after.format(number=number, score=score))
        if match.is_decided:
            won = (
                text.pgettext("play", "{players} share the match ({score}).")
                if len(match.winners) > 1
                else text.pgettext("play", "{players} wins the match ({score}).")
            )
            both = text.pgettext("play", " and ")
            print(won.format(players=both.join(match.winners), score=score))
            return 0
        match = match.next_game()


def _ensure_table(rules: Rules, *, players: bool = False) -> None:
    """Build the optimal table now, with a progress bar, unless it is cached already;
    with ``players``, the table the optimal players and the coach of ``rules`` read
    (on Triple Yahtzee, the Classic one of its columns)."""
    played = _extras.table_rules(rules) if players else rules
    if _extras.table_is_ready(played):
        _extras.optimal_table(played)
        return
    columns = f" (it values each column of the {_label(rules)})" if played != rules else ""
    print(
        f"Building the optimal strategy table for {_for_rules(played)}{columns}; "
        f"this is done once, then it is cached.",
        file=sys.stderr,
    )
    bar = Progress("optimal table", 1)
    try:
        _extras.optimal_table(played, bar.update)
    finally:
        bar.close()


def _simulate(args: argparse.Namespace) -> int:
    if args.games < 1 or args.players < 1:
        raise AppError(
            f"simulate: --games {args.games} --players {args.players}: both must be at least 1"
        )
    rules = _rules(args)
    if args.strategy == "optimal":
        _ensure_table(rules, players=True)
    bar = Progress(f"simulate {args.strategy}", args.games)
    try:
        result = _extras.simulate_games(
            args.strategy,
            games=args.games,
            seed=args.seed,
            players=args.players,
            rules=rules,
            progress=bar.update,
        )
    finally:
        bar.close()
    seats = f", {args.players} players each" if args.players > 1 else ""
    played = args.strategy
    if played == "optimal" and _extras.by_columns(rules):
        played = "optimal (TripleStrategy: the Classic values of each column)"
    print(f"{args.games} games of {played} play{seats}, seed {args.seed}, {_label(rules)}")
    print("\n".join(summary_lines(result)))
    if args.players > 1:
        print(win_shares_line(result))
    print()
    print("Final scores:")
    print(histogram(result))
    return 0


def _solve(args: argparse.Namespace) -> int:
    rules = _rules(args)
    ready = _extras.table_is_ready(rules)
    bar = Progress("optimal table", 1)
    try:
        path, expected = _extras.solve_table(rules, bar.update)
    finally:
        bar.close()
    print(f"Optimal strategy table for {_for_rules(rules)}: {'loaded' if ready else 'built'}.")
    print(f"Cached at: {path}")
    print(f"Expected final score from the empty card under optimal play: {expected:.7f}")
    return 0


def _rules_card(args: argparse.Namespace, rules: Rules, command: str) -> Scorecard:
    """The ``--card`` of ``command``, refused unless legal play under ``rules`` reaches it."""
    card = _extras.parse_card(args.card)
    if card.card != rules.card:
        raise AppError(
            f"{command}: --card {args.card}: a {card.card.title} card, but the {rules.name} rules "
            f"play the {rules.card.title} card; give a card of the ruleset's own boxes"
        )
    try:
        check_marks_allowed(card, rules)
    except MalformedInputError as error:
        raise AppError(f"{command}: --card {args.card}: {error}") from None
    return card


def _start_card(args: argparse.Namespace, rules: Rules, command: str) -> tuple[Scorecard, str]:
    """The ``--card`` of ``command`` (the rules' empty card without one), and its description."""
    if args.card is None:
        return Scorecard(card=rules.card), "the empty card"
    card = _rules_card(args, rules, command)
    if card.is_complete:
        raise AppError(f"{command}: --card {args.card}: the card is full; give one with open boxes")
    return card, f"the card {args.card}"


def _distribution(args: argparse.Namespace) -> int:
    rules = _rules(args)
    card, where = _start_card(args, rules, "distribution")
    _ensure_table(rules)
    bar = Progress("distribution", 1)
    try:
        mean, std, median, rows = _extras.final_distribution(rules, card, bar.update)
    finally:
        bar.close()
    print(f"Final score under optimal play from {where}, {_label(rules)}")
    print(f"Mean                {mean:.7f}")
    print(f"Standard deviation  {std:.7f}")
    print(f"Median              {median}")
    print()
    print("Percentile  Score")
    print("----------  -----")
    for percent, total in rows:
        print(f"{percent:>10}  {total:>5}")
    return 0


def _target(args: argparse.Namespace) -> int:
    rules = _rules(args)
    if args.total < 0:
        raise AppError(f"target: {args.total}: not a final score of 0 or more")
    card, where = _start_card(args, rules, "target")
    most = _extras.most_final_total(rules, card)
    if args.total > most:  # no game reaches it: 0, without building anything
        print(f"A final score of {args.total} or more from {where}, {_label(rules)}")
        print(f"No game can reach it: a game from there ends with {most} points at most.")
        print(f"Best chance (playing for the target):  {0:.7f}")
        print(f"Optimal play (the highest mean):       {0:.7f}")
        return 0
    _ensure_table(rules)
    bar = Progress("target table", 1)
    other = Progress("distribution", 1)
    try:
        best, expectation = _extras.target_chances(
            rules, card, args.total, bar.update, other.update
        )
    finally:
        bar.close()
        other.close()
    print(f"A final score of {args.total} or more from {where}, {_label(rules)}")
    print(f"Best chance (playing for the target):  {best:.7f}")
    print(f"Optimal play (the highest mean):       {expectation:.7f}")
    return 0


def rules_lines(locale: str | None = None) -> list[str]:
    """One line per named ruleset: its name and what it is, read from the library
    (in ``locale``'s language; English by default).

    The names come from :meth:`Rules.names <yahtzee_rules.Rules.names>` and the lines
    from :meth:`Rules.describe <yahtzee_rules.Rules.describe>`, so a ruleset added to
    the library is listed with no change here.

    Examples:
        >>> for line in rules_lines():  # doctest: +ELLIPSIS
        ...     print(line)
        forced...Hasbro's Classic game (the default): ...
        ...
        yacht...Yacht, as Hoyle gives it: ...
        ...
    """
    names = Rules.names()
    width = max(13, *(len(name) + 2 for name in names))
    return [f"{name:<{width}}{Rules.describe(name, locale=locale)}".rstrip() for name in names]


def _serve(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise AppError(f"serve: --port {args.port}: not a port number from 0 to 65535")
    try:
        web = importlib.import_module("yahtzee_rules.apps.web")
    except ImportError:
        raise AppError(
            'serve: the web table needs the web extra; install it with pip install "yahtzee-rules[web]"'
        ) from None
    tables: list[Table] = []
    for rules in args.table:
        if _extras.by_columns(rules):
            classic = _extras.table_rules(rules).name
            raise AppError(
                f"serve --table {rules.name}: the exact solver is out of reach for the "
                f"{rules.card.title} card; start the table with --table {classic} instead: "
                f"its optimal seats and coach then play {rules.card.title} by that table's "
                f"values of each column"
            )
        if not any(table.serves(rules) for table in tables):  # one table per tie rule
            _ensure_table(rules)
            tables.append(_extras.optimal_table(rules))
    print(f"Web table at http://{args.host}:{args.port}/ (Ctrl-C stops it)", file=sys.stderr)
    web.serve(
        args.host,
        args.port,
        tables=tables,
        public_url=args.public_url,
        secret_file=args.secret_file,
    )
    return 0


def _list_rules(args: argparse.Namespace) -> int:
    print("\n".join(rules_lines(args.lang)))
    print()
    print(
        "Use one with --rules NAME, such as 'yahtzee-rules solve --rules yatzy'; "
        "rules notation works too, such as --rules 'free-choice,yb=0'."
    )
    return 0


def _review(args: argparse.Namespace) -> int:
    record = review_command.read_record(args)
    review_command.check_reviewable(record)
    rules = record.game.rules
    _extras.require_solver()
    from yahtzee_rules.bots.solver import review

    # its notice and progress go to standard error, never in --json; on Triple Yahtzee,
    # the Classic table of its columns (the review is then against TripleStrategy's values)
    _ensure_table(rules, players=True)
    reviewed = review(record, _extras.optimal_table(_extras.table_rules(rules)), wins=args.wins)
    if args.json:
        print(review_command.as_json(reviewed))
    else:
        print(review_command.report(reviewed, _label(rules)))
    return 0


def _tournament(args: argparse.Namespace) -> int:
    rules = _rules(args)
    if args.costs:
        _extras.require_solver()
    if args.costs:
        _ensure_table(rules)
    elif "optimal" in args.kinds:
        _ensure_table(rules, players=True)
    print(tournament.run(args, rules).report())
    return 0


_HANDLERS = {
    "cache": cache_command.run,
    "cases": conformance.run_cases,
    "check": conformance.run_check,
    "demo": _demo,
    "distribution": _distribution,
    "play": _play,
    "review": _review,
    "rules": _list_rules,
    "score": _score,
    "serve": _serve,
    "simulate": _simulate,
    "solve": _solve,
    "target": _target,
    "tournament": _tournament,
}


def _check_single_values(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse an option given ``--`` as its value (``--code=--``), as argparse should.

    Python's argparse drops a ``--`` value and stores an empty list without converting
    or checking it, so ``--joker=--`` would silently mean the default.
    """
    for name in (
        "joker",
        "rules",
        "match",
        "seed",
        "load",
        "code",
        "card",
        "games",
        "players",
        "strategy",
        "deals",
        "kind",  # one value for cache; cases and check take it again and again
        "host",
        "port",
        "public_url",
        "secret_file",
    ):
        if name == "kind" and args.command != "cache":
            continue
        if isinstance(getattr(args, name, None), list):
            subparser = _subparser(parser, args.command)
            subparser.error(f"argument --{name}: expected one argument, not '--'")


def _subparser(parser: argparse.ArgumentParser, command: str | None) -> argparse.ArgumentParser:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            chosen: argparse.ArgumentParser = action.choices[command]
            return chosen
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``yahtzee-rules`` with ``argv`` (the command line by default); return the exit status.

    Bad arguments and errors in the input print ``yahtzee-rules: error: ...`` on standard
    error and return 2; ``--help`` and ``--version`` return 0; Ctrl-C returns 130. Output
    cut short by a closed pipe (``yahtzee-rules | head``) ends quietly.

    Examples:
        >>> main(["score", "12345", "--joker", "free"])  # doctest: +ELLIPSIS
        Dice 12345 on an empty card, free-choice Joker
        ...
        Large Straight         40
        ...
        0
        >>> main(["score", "12345", "--joker", "maybe"])  # argparse writes to stderr
        2
    """
    for stream in (sys.stdout, sys.stderr):  # what the encoding lacks is written as \\xe9
        reconfigure = getattr(stream, "reconfigure", None)
        if callable(reconfigure):
            reconfigure(errors="backslashreplace")
    try:
        words = list(sys.argv[1:] if argv is None else argv)
        parser = build_parser(help_locale(words))
        args = parser.parse_args(words)
        _check_single_values(parser, args)
    except SystemExit as stop:  # --help, --version, or an argument error already reported
        return stop.code if isinstance(stop.code, int) else EXIT_USAGE
    try:
        if args.command is None:
            from yahtzee_rules.apps import demo

            demo.main()
            return 0
        with listening(cache_command.notice):  # large files are announced before they are built
            return _HANDLERS[args.command](args)
    except BrokenPipeError:
        # The reader went away (``| head``): stop writing, without a traceback at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except (AppError, RulesError, OSError) as error:
        # an argument or a file's text may be quoted raw: a terminal must not obey it
        print(f"yahtzee-rules: error: {for_terminal(str(error))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("\nyahtzee-rules: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
