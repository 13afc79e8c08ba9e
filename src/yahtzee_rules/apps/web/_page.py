"""Internal: the web table's HTML, written from library values (no scoring here).

Every number and every reason on the page comes from the library: box options and
reasons from :meth:`Game.box_options <yahtzee_rules.Game.box_options>`, the Joker note
from :func:`yahtzee_rules.play.scoring.joker_note`, totals from
:meth:`Game.totals <yahtzee_rules.Game.totals>`, the result from
:attr:`Game.result <yahtzee_rules.Game.result>`. The page's script only adds keyboard
shortcuts and a copy button; the page works without it.
"""

from __future__ import annotations

import base64
import hashlib
import math
from collections.abc import Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING

import attrs

from yahtzee_rules.apps.web._position import FALLBACK, KINDS, MAX_SEATS, Coach, Position
from yahtzee_rules.core.boxes import Box
from yahtzee_rules.core.dice import Dice, Keep
from yahtzee_rules.core.rules import Rules, TieRule, plain_label
from yahtzee_rules.formats.render import column_headings, sheet_lines
from yahtzee_rules.play.game import Game
from yahtzee_rules.play.scoring import BoxOption, joker_note
from yahtzee_rules.support.l10n import translations

if TYPE_CHECKING:
    from yahtzee_rules.bots.solver import PlayerReview, Review

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "error_page",
    "play_page",
    "review_link",
    "review_page",
    "setup_page",
]

_FACE_WORDS = ("one", "two", "three", "four", "five", "six")
_PIPS = {
    1: ((50, 50),),
    2: ((28, 28), (72, 72)),
    3: ((26, 26), (50, 50), (74, 74)),
    4: ((28, 28), (72, 28), (28, 72), (72, 72)),
    5: ((26, 26), (74, 26), (50, 50), (26, 74), (74, 74)),
    6: ((28, 24), (72, 24), (28, 50), (72, 50), (28, 76), (72, 76)),
}

_STYLE = """
*{box-sizing:border-box}
body{font:16px/1.4 system-ui,sans-serif;margin:0;background:#f4f1ea;color:#1b1b1b}
main{max-width:960px;margin:0 auto;padding:12px}
h1{font-size:1.4rem;margin:.2rem 0}
h2{font-size:1.1rem;margin:1rem 0 .4rem}
.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:1rem}
a{color:#0b4f8a}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.layout{display:grid;gap:12px}
@media (min-width:760px){.layout{grid-template-columns:1fr 1fr}}
.panel{background:#fff;border-radius:10px;padding:12px;box-shadow:0 1px 3px #0002}
.dice{display:flex;gap:8px;justify-content:center;border:0;padding:0;margin:8px 0}
.dice legend{padding:0;margin-bottom:6px}
.die input{position:absolute;opacity:0;width:1px;height:1px}
.die label{display:block;width:56px;height:56px;border-radius:10px;background:#fff;
 border:2px solid #444;cursor:pointer}
.die svg{width:100%;height:100%}
.die input:checked+label{background:#ffe08a;border-color:#b07800;transform:translateY(-4px)}
.die input:focus-visible+label{outline:3px solid #0b4f8a;outline-offset:2px}
.held-tag{display:block;text-align:center;font-size:.75rem;height:1rem;white-space:nowrap;color:#0b4f8a}
button,.button{font:inherit;padding:.5rem .9rem;border-radius:8px;border:1px solid #0b4f8a;
 background:#0b4f8a;color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button.score{background:#fff;color:#0b4f8a;min-width:3.2rem;padding:.25rem .5rem}
button:focus-visible,.button:focus-visible,a:focus-visible{outline:3px solid #e08a00;outline-offset:2px}
.secondary{background:#fff;color:#0b4f8a}
table{border-collapse:collapse;width:100%}
th,td{padding:.25rem .35rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
td.num{text-align:right;white-space:nowrap}
tr.total th,tr.total td{background:#f6f4ee}
.reason{display:block;color:#6b3a00;font-size:.8rem}
.bonus{color:#1b6b00;font-size:.8rem}
.actions{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:8px 0}
.joker{background:#fff7e0;border-left:4px solid #b07800;padding:8px;margin:8px 0}
.coach{background:#eaf3ff;border-left:4px solid #0b4f8a;padding:8px;margin:8px 0}
.scroll{overflow-x:auto}
.qr{max-width:320px}
.qr svg{display:block;width:100%;height:auto;background:#fff;shape-rendering:crispEdges}
.link{word-break:break-all;font-size:.8rem}
.error{border-left:4px solid #a00;padding:8px;background:#fff0f0}
.setup td,.setup th{border:0}
.setup input[type=text]{width:100%;font:inherit;padding:.3rem}
.setup select{font:inherit;padding:.3rem;max-width:100%}
"""

_SCRIPT = """
document.addEventListener('keydown', function (e) {
  if (e.target.tagName === 'INPUT' && e.target.type === 'text') return;
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.key >= '1' && e.key <= '5') {
    var die = document.getElementById('die-' + (Number(e.key) - 1));
    if (die) { die.checked = !die.checked; die.focus(); e.preventDefault(); }
  } else if (e.key === 'r' || e.key === 'R') {  // R with or without Shift, as the docs say
    var roll = document.getElementById('roll');
    if (roll) { roll.click(); e.preventDefault(); }
  }
});
var copy = document.getElementById('copy-link');
if (copy && navigator.clipboard) {
  copy.hidden = false;
  copy.addEventListener('click', function () {
    navigator.clipboard.writeText(copy.dataset.link).then(function () {
      copy.textContent = 'Link copied';
    });
  });
}
"""


def _source_hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


CONTENT_SECURITY_POLICY = (
    f"default-src 'none'; script-src {_source_hash(_SCRIPT)}; "
    f"style-src {_source_hash(_STYLE)}; img-src 'self'; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'"
)
"""The pages' Content-Security-Policy: the one style and script every page holds (by
their hashes, so no other inline code runs), nothing loaded from elsewhere, forms
posted only to the table, and no framing. The pages have no ``style`` attributes and
no event-handler attributes, which it would block."""


def _document(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body><main>{body}</main><script>{_SCRIPT}</script></body></html>\n"
    )


def _die_svg(face: int) -> str:
    pips = "".join(f'<circle cx="{x}" cy="{y}" r="9"/>' for x, y in _PIPS[face])
    return f'<svg viewBox="0 0 100 100" aria-hidden="true" focusable="false">{pips}</svg>'


def _rules_line(rules: Rules) -> str:
    return Rules.describe(attrs.evolve(rules, tie=TieRule.SHARE))  # the tie rule follows


def setup_page(error: str | None = None, *, optimal: bool, tables: Sequence[str] = ()) -> str:
    """The page that seats 1-8 players and picks the rules; ``tables`` names the rulesets
    the optimal bots and the coach have optimal tables for."""
    kinds = [("", "empty seat"), ("h", "human")]
    kinds += [(k, v) for k, v in KINDS.items() if k != "h" and (optimal or k != "o")]
    rows = []
    for seat in range(MAX_SEATS):
        default = "h" if seat == 0 else "g" if seat == 1 else ""
        options = "".join(
            f'<option value="{k}"{" selected" if k == default else ""}>{escape(v)}</option>'
            for k, v in kinds
        )
        rows.append(
            f'<tr><th scope="row">{seat + 1}</th>'
            f'<td><label class="sr-only" for="name-{seat}">Seat {seat + 1} name</label>'
            f'<input type="text" id="name-{seat}" name="name-{seat}" maxlength="40" '
            f'placeholder="Player {seat + 1}"></td>'
            f'<td><label class="sr-only" for="kind-{seat}">Seat {seat + 1} player</label>'
            f'<select id="kind-{seat}" name="kind-{seat}">{options}</select></td></tr>'
        )
    rules = "".join(
        f'<option value="{escape(name)}">{escape(name)}: {escape(Rules.describe(name))}</option>'
        for name in Rules.names()
    )
    ties = "".join(
        f'<option value="{tie.value}">{escape(tie.description)}</option>' for tie in TieRule
    )
    problem = f'<p class="error" role="alert">{escape(error)}</p>' if error else ""
    if not optimal:
        optimal_note = ""
    elif tables:
        optimal_note = (
            f"Optimal bots and the coach play optimally under {escape(_names(tables))} "
            f"(and those rules with any tie rule); under other rules they play the greedy "
            f"player's moves, and the page says so."
        )
    else:
        optimal_note = (
            "This table has no optimal tables: optimal bots play the greedy player's moves "
            "and the coach gives a rule of thumb, and the page says so (start the server "
            "with <code>yahtzee-rules serve --table forced</code> for optimal play)."
        )
    if optimal_note:
        optimal_note = f'<p id="optimal-note">{optimal_note}</p>'
    body = (
        "<h1>Yahtzee table</h1>"
        "<p>Pass-and-play on one device: seat up to eight players, people or computer "
        "players, and play by the exact rules. Every position has its own link, so a "
        "game can be continued on another device.</p>"
        f"{problem}"
        '<form method="post" action="/new" class="panel setup">'
        '<h2 id="seats-heading">Players</h2>'
        '<table aria-labelledby="seats-heading"><thead><tr><th scope="col">Seat</th>'
        '<th scope="col">Name</th><th scope="col">Player</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
        '<h2>Rules</h2><p><label for="rules">Ruleset</label><br>'
        f'<select id="rules" name="rules">{rules}</select></p>'
        '<p><label for="tie">Tie rule</label><br>'
        f'<select id="tie" name="tie">{ties}</select></p>'
        f"{optimal_note}"
        '<p><button type="submit" id="start">Start the game</button></p></form>'
    )
    return _document("Yahtzee table", body)


_ERROR_HEADINGS = {
    400: "This game link does not work",
    403: "This table did not write this link",
    404: "Not found",
    413: "This move is too large",
    500: "Something went wrong on the server",
    503: "The table is busy",
}
_ERROR_NOTES = {
    400: "A game link holds the whole game and a checksum, so a link that was cut short, "
    "mistyped or damaged is refused rather than read as another game.",
    403: "This table plays only the links it wrote: each carries a signature made with "
    "the table's key. A link written by hand, changed, or written by another table is "
    "refused.",
}


def error_page(message: str, *, status: int) -> str:
    """The page for a link or a move the library refuses, with its reason."""
    heading = _ERROR_HEADINGS.get(status, "This game link does not work")
    note = f"<p>{escape(_ERROR_NOTES[status])}</p>" if status in _ERROR_NOTES else ""
    body = (
        f"<h1>{escape(heading)}</h1>"
        f'<p class="error" role="alert">{escape(message)}</p>'
        f"{note}"
        '<p><a class="button" href="/">Start a new game</a></p>'
    )
    return _document(heading, body)


def _joker_note(game: Game) -> str | None:
    """The library's note on the Joker rule for the dice showing, when it applies."""
    turn = game.turn
    if turn is None or turn.dice is None:
        return None
    return joker_note(turn.card, turn.dice, rules=game.rules)


def _held_positions(dice: Dice, keep: Keep) -> set[int]:
    held: set[int] = set()
    remaining = list(keep.faces)
    for index, face in enumerate(dice.faces):
        if face in remaining:
            remaining.remove(face)
            held.add(index)
    return held


def _dice_form(position: Position, advice: Coach | None, held: tuple[int, ...] | None) -> str:
    """The dice and the roll button; ``held`` are the positions the player holds (by
    default, those the last roll kept), and with ``advice`` each die the coach would hold
    is marked beside the player's holds, which stay as they are."""
    game = position.game
    dice = game.dice
    link = escape(position.link())
    action = link.replace("?", "/roll?", 1)
    left = game.rolls_left
    if dice is None:
        return (
            f'<form method="post" action="{action}"><p class="actions">'
            f'<button type="submit" id="roll" aria-keyshortcuts="r">Roll the dice</button>'
            f"<span>3 rolls this turn</span></p></form>"
        )
    if held is not None:
        holding = set(held)
    else:
        last = position.record.actions[-1] if position.record.actions else None
        keep = getattr(last, "keep", None)
        holding = _held_positions(dice, keep) if isinstance(keep, Keep) else set()
    advised = (
        _held_positions(dice, advice.keep)
        if advice is not None and advice.keep is not None
        else set()
    )
    dice_html = []
    for index, face in enumerate(dice.faces):
        checked = " checked" if index in holding else ""
        disabled = "" if left else " disabled"
        tag = "coach" if index in advised else ""
        spoken = " (the coach would hold it)" if tag else ""
        dice_html.append(
            f'<div class="die"><input type="checkbox" name="hold" value="{index}" '
            f'id="die-{index}"{checked}{disabled} aria-keyshortcuts="{index + 1}">'
            f'<label for="die-{index}" title="Die {index + 1}: {face}">'
            f'<span class="sr-only">Hold die {index + 1}, showing {_FACE_WORDS[face - 1]}'
            f"{spoken}</span>{_die_svg(face)}</label>"
            + (f'<span class="held-tag" aria-hidden="true">{tag}</span>' if advice else "")
            + "</div>"
        )
    if left:
        controls = (
            f'<button type="submit" id="roll" aria-keyshortcuts="r">Roll the others</button>'
            f"<span>{left} roll{'s' if left > 1 else ''} left</span>"
        )
        legend = "Dice: tap a die to hold it, then roll the others (keys 1-5, R)"
    else:
        controls = "<span>No rolls left: fill a box.</span>"
        legend = "Dice: no rolls left"
    if advice is None and not position.bot_to_play:
        coach_action = link.replace("?", "/coach?", 1)
        controls += (
            f' <button type="submit" class="secondary" id="ask-coach" '
            f'formaction="{coach_action}">Ask the coach</button>'
        )
    return (
        f'<form method="post" action="{action}">'
        f'<fieldset class="dice"><legend class="sr-only">{legend}</legend>'
        f"{''.join(dice_html)}</fieldset>"
        f'<p class="actions" aria-live="polite">Dice {dice} · {controls}</p></form>'
    )


@attrs.frozen
class _Words:
    """The card table's own words in one language (each a literal the catalogue holds)."""

    filled: str
    open: str
    closed: str
    as_for: str
    bonus_note: str
    fill_label: str
    fill_bonus_label: str
    heads: tuple[str, str, str]
    more: str
    lines: Mapping[str, str]  # a totals line's kind: its label, with {threshold} or {box}


def _words(locale: str | None) -> _Words:
    text = translations(locale)
    # outside f-strings, where the catalogue's extractor finds them
    return _Words(
        filled=text.pgettext("web table", "filled"),
        open=text.pgettext("web table", "open"),
        closed=text.pgettext("web table", "closed"),
        as_for=text.pgettext("web table", "closed, as for {box}"),
        bonus_note=text.pgettext("web table", "+{bonus} bonus"),
        fill_label=text.pgettext("web table", "Fill {box} for {points} points"),
        fill_bonus_label=text.pgettext(
            "web table", "Fill {box} for {points} points and a {bonus}-point bonus"
        ),
        heads=(
            text.pgettext("web table", "Box"),
            text.pgettext("web table", "Points"),
            text.pgettext("web table", "State"),
        ),
        more=text.pgettext("web table", "{needed} more for the bonus"),
        lines={
            "upper subtotal": text.pgettext("web table", "Upper subtotal"),
            "upper bonus": text.pgettext("web table", "Upper bonus ({threshold}+)"),
            "column total": text.pgettext("web table", "Column total"),
            "multiplied total": text.pgettext("web table", "Multiplied total"),
            "yahtzee bonus": text.pgettext("web table", "{box} bonus"),
            "grand total": text.pgettext("web table", "Grand total"),
        },
    )


def _box_cell(
    position: Position,
    box: Box,
    options: Mapping[Box, BoxOption],
    first_with: dict[str, str],
    words: _Words,
    locale: str | None,
) -> str:
    """The points and state cells of one box of the current player's card."""
    game = position.game
    written = game.player_card(game.current)[box]
    can_fill = bool(options) and not position.bot_to_play
    label = box.label_in(locale)
    if written is not None:
        return f'<td class="num">{written}</td><td>{escape(words.filled)}</td>'
    if box not in options:
        return f'<td class="num"></td><td>{escape(words.open)}</td>'
    option = options[box]
    if option.points is not None and can_fill:
        bonus = (
            f' <span class="bonus">{escape(words.bonus_note.format(bonus=option.bonus))}</span>'
            if option.bonus
            else ""
        )
        aria = escape(
            (words.fill_bonus_label if option.bonus else words.fill_label).format(
                box=label, points=option.points, bonus=option.bonus
            )
        )
        return (
            f'<td class="num"><button class="score" type="submit" name="box" '
            f'value="{escape(box.code)}" aria-label="{aria}">'
            f"{option.points}</button></td><td>{escape(words.open)}{bonus}</td>"
        )
    reason = option.reason or ""
    note = reason
    if reason in first_with:
        note = words.as_for.format(box=first_with[reason])
    else:
        first_with[reason] = label
    return (
        f'<td class="num">-</td>'
        f'<td>{escape(words.closed)}<span class="reason">{escape(note)}</span></td>'
    )


def _line_label(words: _Words, kind: str, rules: Rules, locale: str | None) -> str:
    """A totals line's label in ``locale``'s language (the words are in it)."""
    yahtzee = rules.card.yahtzee
    box = "" if yahtzee is None else plain_label(yahtzee, locale)
    return words.lines[kind].format(threshold=rules.upper_bonus_threshold, box=box)


def _card_table(position: Position, locale: str | None = None) -> str:
    """The current player's card, a column at a time: each column's boxes with its
    totals lines (as :func:`~yahtzee_rules.formats.render.sheet_lines` gives them),
    then the Yahtzee bonus and the grand total; the points column adds up. Its boxes
    are named, its closed boxes explained and its own words written in ``locale``'s
    language (the browser's, from ``Accept-Language``)."""
    game = position.game
    seat = game.current
    card = game.player_card(seat)
    rolled = not game.is_over and game.dice is not None
    options = game.box_options(locale=locale) if rolled else {}
    fill_action = escape(position.link()).replace("?", "/fill?", 1)
    can_fill = rolled and not position.bot_to_play
    lines = sheet_lines([card], rules=game.rules)
    headings = column_headings(game.rules)
    columns = game.player_totals(seat).columns or (game.player_totals(seat),)
    words = _words(locale)
    rows = []
    first_with: dict[str, str] = {}
    for column, heading in enumerate(headings):
        for line in lines:
            if not line.per_column:
                continue
            if line.kind == "box":
                box = line.boxes[column]
                cells = _box_cell(position, box, options, first_with, words, locale)
                rows.append(f'<tr><th scope="row">{escape(box.label_in(locale))}</th>{cells}</tr>')
                continue
            label = f"{_line_label(words, line.kind, game.rules, locale)} {heading}".strip()
            figure = line.figures[0][column]
            state = ""
            if line.kind == "upper bonus" and not figure and columns[column].upper_bonus_needed:
                state = words.more.format(needed=columns[column].upper_bonus_needed)
            rows.append(
                f'<tr class="total"><th scope="row">{escape(label)}</th>'
                f'<td class="num">{figure}</td><td>{escape(state)}</td></tr>'
            )
    for line in lines:
        if not line.per_column:
            (figure,) = line.figures[0]
            shown = f"<strong>{figure}</strong>" if line.kind == "grand total" else str(figure)
            label = _line_label(words, line.kind, game.rules, locale)
            rows.append(
                f'<tr class="total"><th scope="row">{escape(label)}</th>'
                f'<td class="num">{shown}</td><td></td></tr>'
            )
    name = escape(game.players[seat])
    heads = [escape(head) for head in words.heads]
    table = (
        f'<table id="card"><caption class="sr-only">{name}\'s card</caption>'
        f'<thead><tr><th scope="col">{heads[0]}</th><th scope="col" class="num">'
        f'{heads[1]}</th><th scope="col">{heads[2]}</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    if can_fill:
        return f'<form method="post" action="{fill_action}">{table}</form>'
    return table


def _all_cards(game: Game) -> str:
    """Every player's card in one table, laid out as the printed sheet: one column per
    player (per score column on a card of several), every totals line included."""
    lines = sheet_lines(game.cards, rules=game.rules)
    headings = column_headings(game.rules)
    several = len(headings) > 1
    span = f' colspan="{len(headings)}"' if several else ""
    head = "".join(f'<th scope="col" class="num"{span}>{escape(p)}</th>' for p in game.players)
    thead = f'<tr><th scope="col">Box</th>{head}</tr>'
    if several:
        subhead = "".join(
            f'<th scope="col" class="num">{escape(h)}</th>' for _ in game.players for h in headings
        )
        thead += f"<tr><td></td>{subhead}</tr>"
    rows = []
    for line in lines:
        cells = []
        for figures in line.figures:
            if line.per_column:
                cells += [f'<td class="num">{"" if f is None else f}</td>' for f in figures]
            else:
                shown = (
                    f"<strong>{figures[0]}</strong>" if line.kind == "grand total" else figures[0]
                )
                cells.append(f'<td class="num"{span}>{shown}</td>')
        kind = "" if line.kind == "box" else ' class="total"'
        rows.append(f'<tr{kind}><th scope="row">{escape(line.label)}</th>{"".join(cells)}</tr>')
    return (
        '<div class="scroll"><table id="all-cards"><caption class="sr-only">Every card</caption>'
        f"<thead>{thead}</thead><tbody>{''.join(rows)}"
        "</tbody></table></div>"
    )


def _standings(position: Position) -> str:
    game = position.game
    result = game.result
    rows = "".join(
        f'<tr><td class="num">{s.rank}</td><th scope="row">{escape(s.player)}</th>'
        f'<td>{escape(position.kind(s.seat))}</td><td class="num">{s.total}</td>'
        f'<td class="num">{game.player_totals(s.seat).upper_total}</td></tr>'
        for s in result.standings
    )
    if result.play_off:
        verdict = f"{_names(result.play_off)} tie and play another game to decide."
    elif len(result.winners) > 1:
        verdict = f"{_names(result.winners)} share the win."
    else:
        verdict = f"{result.winners[0]} wins."
    return (
        '<section class="panel" aria-labelledby="result-heading">'
        '<h2 id="result-heading">Final standings</h2>'
        f'<p id="verdict" role="status"><strong>{escape(verdict)}</strong> '
        f"Tie rule: {escape(game.rules.tie.description)}.</p>"
        '<table id="standings"><thead><tr><th scope="col" class="num">Rank</th>'
        '<th scope="col">Player</th><th scope="col">Seat</th><th scope="col" class="num">Total</th>'
        f'<th scope="col" class="num">Upper</th></tr></thead><tbody>{rows}</tbody></table>'
        f'<p class="actions"><a class="button" id="review-link" '
        f'href="{escape(review_link(position))}">'
        "Review the game: luck and each decision's cost</a> "
        '<a class="button secondary" href="/">New game</a></p></section>'
    )


def review_link(position: Position) -> str:
    """The path of the review page of ``position``'s game."""
    return position.link().replace("/play/", "/review/", 1)


#: The colours of the players' lines on the review page's chart, by seat.
_LINE_COLOURS = (
    "#1f5fa8",
    "#b8461b",
    "#2e7d32",
    "#7b3fa0",
    "#8a6d00",
    "#00838f",
    "#ad1457",
    "#555",
)


def _chart(reviewed: Review) -> str:
    """An SVG chart: each player's expected final score after every turn, from the start."""
    width, height, left, bottom, top, right = 640, 300, 48, 28, 12, 12
    series = []
    for player in reviewed.players:
        points = [(0, player.start)]
        points += [(d.turn, d.expected) for d in player.decisions if not isinstance(d.action, Keep)]
        series.append((player.player, points))
    turns = max((x for _, points in series for x, _ in points), default=1) or 1
    values = [y for _, points in series for _, y in points]
    low = math.floor(min(values) / 25) * 25
    high = max(math.ceil(max(values) / 25) * 25, low + 25)

    def at(x: float, y: float) -> str:
        px = left + (width - left - right) * x / turns
        py = top + (height - top - bottom) * (high - y) / (high - low)
        return f"{px:.1f},{py:.1f}"

    grid = []
    for value in range(low, high + 1, 25):
        y = at(0, value).split(",")[1]
        grid.append(
            f'<line x1="{left}" y1="{y}" x2="{width - right}" y2="{y}" stroke="#ddd"/>'
            f'<text x="{left - 6}" y="{y}" text-anchor="end" dominant-baseline="middle" '
            f'font-size="11">{value}</text>'
        )
    for turn in range(turns + 1):
        x = at(turn, low).split(",")[0]
        grid.append(
            f'<text x="{x}" y="{height - 8}" text-anchor="middle" font-size="11">{turn}</text>'
        )
    grid.append(
        f'<text x="{width - right}" y="{height - 8}" text-anchor="end" font-size="11" '
        f'dy="-14">turn</text>'
    )
    lines = []
    for seat, (name, points) in enumerate(series):
        colour = _LINE_COLOURS[seat % len(_LINE_COLOURS)]
        path = " ".join(at(x, y) for x, y in points)
        lines.append(
            f'<polyline class="player-line" fill="none" stroke="{colour}" stroke-width="2.5" '
            f'points="{path}"><title>{escape(name)}</title></polyline>'
        )
    legend = "".join(
        f'<li><svg width="14" height="14" aria-hidden="true"><rect width="14" height="14" '
        f'fill="{_LINE_COLOURS[seat % len(_LINE_COLOURS)]}"/></svg> {escape(name)}</li>'
        for seat, (name, _) in enumerate(series)
    )
    label = "Expected final score after each turn, with optimal play from there, for " + ", ".join(
        name for name, _ in series
    )
    return (
        f'<svg id="review-chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(label)}">{"".join(grid)}{"".join(lines)}</svg>'
        f'<ul class="legend">{legend}</ul>'
    )


def review_page(position: Position, reviewed: Review | None, note: str = "") -> str:
    """The review of ``position``'s game: luck and cost per player, a chart, the mistakes;
    ``reviewed`` is ``None`` (and ``note`` says why) when the table has no values for it."""
    back = (
        f'<p class="actions"><a class="button secondary" href="{escape(position.link())}">'
        "Back to the game</a></p>"
    )
    if reviewed is None:
        body = f'<h1>Game review</h1><p role="status">{escape(note)}</p>{back}'
        return _document("Game review · Yahtzee table", body)
    against = reviewed.approximation or "optimal solitaire play"
    rows = []
    for player in reviewed.players:
        grades = player.grades()
        rows.append(
            f'<tr><th scope="row">{escape(player.player)}</th>'
            f'<td class="num">{player.end:g}</td><td class="num">{player.start:.2f}</td>'
            f'<td class="num">{player.luck:+.2f}</td><td class="num">{-player.cost:+.2f}</td>'
            f'<td class="num">{player.mean_cost:.2f}</td>'
            f'<td class="num">{grades["inaccuracy"]}/{grades["mistake"]}/{grades["blunder"]}</td>'
            + (f'<td class="num">{escape(_win_lost(player))}</td>' if reviewed.wins else "")
            + "</tr>"
        )
    mistakes = []
    for player in reviewed.players:
        worst = player.mistakes(3)
        items = "".join(f"<li>{escape(d.describe())}</li>" for d in worst) or (
            "<li>Every decision was the best one.</li>"
        )
        mistakes.append(f"<h3>{escape(player.player)}</h3><ol>{items}</ol>")
    body = (
        "<h1>Game review</h1>"
        f"<p>Each player against {escape(against)}: <strong>luck</strong> is what the "
        "dice gave or took, <strong>cost</strong> what the decisions gave up, both in "
        "expected final points; the score is the expected score at the start plus the luck "
        "minus the cost.</p>"
        + (
            '<p id="approximation-note"><small>No table reaches this card: these values are '
            "an approximation, not the optimum, so the luck is not of mean 0. Of each "
            "player's luck, the approximation's own share: "
            + escape(", ".join(f"{p.player} {p.luck_bias:+.2f}" for p in reviewed.players))
            + ".</small></p>"
            if reviewed.approximation is not None
            else ""
        )
        + '<section class="panel" aria-labelledby="luck-heading">'
        '<h2 id="luck-heading">Luck and skill</h2>'
        '<table id="review-summary"><thead><tr><th scope="col">Player</th>'
        '<th scope="col" class="num">Score</th><th scope="col" class="num">Expected</th>'
        '<th scope="col" class="num">Luck</th><th scope="col" class="num">Cost</th>'
        '<th scope="col" class="num">Mean cost</th>'
        '<th scope="col" class="num">Inaccuracies / mistakes / blunders</th>'
        + (
            '<th scope="col" class="num">Chance of winning given up (last turn)</th>'
            if reviewed.wins
            else ""
        )
        + "</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
        + (
            '<p id="win-note"><small>The chance of winning given up is exact once every '
            "other player had finished; before that it is worked out from upper bounds "
            "on each chance, an estimate.</small></p>"
            if reviewed.wins
            else ""
        )
        + "</section>"
        '<section class="panel" aria-labelledby="chart-heading">'
        '<h2 id="chart-heading">Expected final score, turn by turn</h2>'
        f"{_chart(reviewed)}</section>"
        '<section class="panel" aria-labelledby="mistakes-heading">'
        '<h2 id="mistakes-heading">The costliest decisions</h2>'
        f'<div id="mistakes">{"".join(mistakes)}</div></section>{back}'
    )
    return _document("Game review · Yahtzee table", body)


def _win_lost(player: PlayerReview) -> str:
    """A player's chance of winning given up in the late turns, and how sure it is."""
    if player.exact_win_decisions:
        return f"{100 * player.win_cost:.1f}% (exact)"
    bounded = [d.win_cost or 0.0 for d in player.decisions if d.win_exact is False]
    if bounded:
        return f"{100 * math.fsum(bounded):.1f}% (from bounds)"
    return "not worked out"


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _coach_box(advice: Coach, dice: Dice | None) -> str:
    if advice.keep is not None:
        places = sorted(_held_positions(dice, advice.keep)) if dice is not None else []
        dice_words = (
            ""  # nothing held: all five are rolled again
            if not places
            else f" (die {places[0] + 1})"
            if len(places) == 1
            else f" (dice {_names([str(p + 1) for p in places])})"
        )
        what = (
            f"Hold {advice.keep}{dice_words} and roll the others"
            if advice.keep.faces
            else "Roll all five dice again"
        )
    else:
        assert advice.box is not None
        what = f"Fill {advice.box.label}"
    expected = (
        f" Expected final score: {advice.expected:.1f}." if advice.expected is not None else ""
    )
    source = {"solver": "Optimal solver", "approximation": "Triple Yahtzee strategy"}.get(
        advice.source, "Heuristic"
    )
    return (
        f'<div class="coach" id="coach" role="status"><strong>Coach ({source}):</strong> '
        f"{escape(what)}.{expected} <small>{escape(advice.note)}.</small></div>"
    )


def _recent(position: Position) -> str:
    turns = position.recent_turns()
    if not turns:
        return ""
    items = "".join(
        f"<li>{escape(t.player)} ({escape(t.kind)}): rolled {escape(', then '.join(t.rolls))}; "
        f"filled {escape(t.box.label)} for {t.points}</li>"
        for t in turns
    )
    return f'<h2>Last turns</h2><ul id="recent">{items}</ul>'


def play_page(
    position: Position,
    *,
    url: str,
    qr_svg: str | None,
    advice: Coach | None,
    coach_error: str,
    fallback: bool = False,
    held: tuple[int, ...] | None = None,
    locale: str | None = None,
) -> str:
    """The page of one position: dice, the current card, the others' scores, links;
    ``fallback`` when its optimal bots play greedily (no optimal table for the rules);
    ``held``, the dice positions the player holds (by default, those the last roll kept);
    the current card's box names, reasons and words in ``locale``'s language."""
    game = position.game
    rules = game.rules
    parts: list[str] = []
    if game.is_over:
        heading = "Game over"
        parts.append(_standings(position))
        turn_panel = ""
    else:
        player = game.current_player  # text: escaped where it is written, once
        kind = position.kind(game.current)
        heading = f"{player}'s turn"
        status = f"Round {game.round} of {len(rules.card)} · {escape(kind)}"
        controls = []
        if position.bot_to_play:
            bot_action = escape(position.link()).replace("?", "/bot?", 1)
            controls.append(
                f'<form method="post" action="{bot_action}"><p class="actions">'
                f'<button type="submit" id="bot">Let {escape(player)} play</button></p></form>'
            )
        else:
            controls.append(_dice_form(position, advice, held))
            note = _joker_note(game)
            if note is not None:
                controls.append(f'<p class="joker" id="joker-note" role="note">{escape(note)}</p>')
            if advice is not None:
                controls.append(_coach_box(advice, game.dice))
            elif coach_error:
                controls.append(f'<p class="coach" role="status">{escape(coach_error)}</p>')
        turn_panel = (
            '<section class="panel" aria-labelledby="card-heading">'
            f"<p>{status}</p>{''.join(controls)}"
            f'<h2 id="card-heading">{escape(player)}\'s card</h2>{_card_table(position, locale)}</section>'
        )
    undo = position.undo_target()
    undo_html = (
        f'<a class="button secondary" id="undo" href="{escape(position.link(undo))}">Undo</a>'
        if undo is not None
        else ""
    )
    qr = (
        f'<div class="qr" role="img" aria-label="QR code of this position\'s link">{qr_svg}</div>'
        if qr_svg
        else "<p>(The link is too long for a QR code; copy it instead.)</p>"
    )
    side = (
        '<section class="panel" aria-labelledby="scores-heading">'
        f'<h2 id="scores-heading">Scores</h2>{_all_cards(game)}{_recent(position)}'
        '<h2 id="link-heading">Continue on another device</h2>'
        "<p>This link holds the whole game so far: open it on any device, bookmark it, "
        "or scan the code.</p>"
        f'<p class="link"><a id="position-link" href="{escape(url)}">{escape(url)}</a></p>'
        f'<p class="actions"><button type="button" class="secondary" id="copy-link" hidden '
        f'data-link="{escape(url)}">Copy link</button>{undo_html}'
        '<a class="button secondary" href="/">New game</a></p>'
        f"{qr}</section>"
    )
    note = (
        f'<p class="joker" id="fallback" role="note">Optimal bots: {escape(FALLBACK)}; '
        f"they play the greedy player's moves.</p>"
        if fallback
        else ""
    )
    body = (
        f"<h1>{escape(heading)}</h1><p>Rules: {escape(_rules_line(rules))}; "
        f"{escape(rules.tie.description)}.</p>{note}"
        f'<div class="layout">{"".join(parts)}{turn_panel}{side}</div>'
    )
    return _document(f"{heading} · Yahtzee table", body)
