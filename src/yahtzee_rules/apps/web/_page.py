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
from yahtzee_rules.core.rules import Rules, TieRule
from yahtzee_rules.formats.render import column_headings, line_label, sheet_lines
from yahtzee_rules.play.game import Game
from yahtzee_rules.play.scoring import BoxOption, joker_note
from yahtzee_rules.support.l10n import LOCALES, NATIVE_NAMES, resolve_locale, translations

if TYPE_CHECKING:
    from yahtzee_rules.bots.solver import PlayerReview, Review

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "busy_message",
    "default_name",
    "error_page",
    "kind_name",
    "not_found_message",
    "play_page",
    "review_link",
    "review_note",
    "review_page",
    "server_error_message",
    "setup_page",
]

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
.languages ul{list-style:none;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:.2rem .8rem;font-size:.85rem}
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
      copy.textContent = copy.dataset.copied;
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


def _document(title: str, body: str, locale: str | None = None, here: str | None = None) -> str:
    """A whole page in ``locale``'s language; with ``here`` (the page's own link), the
    language switch: a link to the same page in each language (``lang=``)."""
    language = resolve_locale(locale)
    switch = ""
    if here is not None:
        joiner = "&amp;" if "?" in here else "?"
        items = "".join(
            f'<li><strong aria-current="true" lang="{code}">{NATIVE_NAMES[code]}</strong></li>'
            if code == language
            else f'<li><a href="{escape(here)}{joiner}lang={code}" lang="{code}" '
            f'hreflang="{code}">{NATIVE_NAMES[code]}</a></li>'
            for code in LOCALES
        )
        label = escape(translations(locale).pgettext("web table", "Language"))
        switch = f'<nav class="languages" aria-label="{label}"><ul>{items}</ul></nav>'
    return (
        f'<!DOCTYPE html>\n<html lang="{language}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body><main>{switch}{body}</main><script>{_SCRIPT}</script></body></html>\n"
    )


def _die_svg(face: int) -> str:
    pips = "".join(f'<circle cx="{x}" cy="{y}" r="9"/>' for x, y in _PIPS[face])
    return f'<svg viewBox="0 0 100 100" aria-hidden="true" focusable="false">{pips}</svg>'


def _rules_line(rules: Rules, locale: str | None = None) -> str:
    # the tie rule follows
    return Rules.describe(attrs.evolve(rules, tie=TieRule.SHARE), locale=locale)


def _tie(tie: TieRule, locale: str | None) -> str:
    """A tie rule's description in ``locale``'s language."""
    return translations(locale).pgettext("TieRule", tie.description)


def kind_name(kind: str, locale: str | None) -> str:
    """What sits at a seat (:data:`~yahtzee_rules.apps.web._position.KINDS`' words) in
    ``locale``'s language."""
    return translations(locale).pgettext("seat", kind)


def default_name(seat: int, locale: str | None) -> str:
    """The name of the player at ``seat`` (from 0) when none was given, in ``locale``'s
    language: the setup page's placeholder."""
    return translations(locale).pgettext("web table", "Player {number}").format(number=seat + 1)


def setup_page(
    error: str | None = None,
    *,
    optimal: bool,
    tables: Sequence[str] = (),
    locale: str | None = None,
) -> str:
    """The page that seats 1-8 players and picks the rules; ``tables`` names the rulesets
    the optimal bots and the coach have optimal tables for; its text in ``locale``'s
    language."""
    t = translations(locale)
    w_players = t.pgettext("web table", "Players")
    w_rules = t.pgettext("web table", "Rules")
    w_ruleset = t.pgettext("web table", "Ruleset")
    w_tie_rule = t.pgettext("web table", "Tie rule")
    w_start_the_game = t.pgettext("web table", "Start the game")
    kinds = [("", t.pgettext("seat", "empty seat"))]
    kinds += [(k, kind_name(v, locale)) for k, v in KINDS.items() if optimal or k != "o"]
    seat_name = t.pgettext("web table", "Seat {number} name")
    seat_player = t.pgettext("web table", "Seat {number} player")
    rows = []
    for seat in range(MAX_SEATS):
        default = "h" if seat == 0 else "g" if seat == 1 else ""
        options = "".join(
            f'<option value="{k}"{" selected" if k == default else ""}>{escape(v)}</option>'
            for k, v in kinds
        )
        rows.append(
            f'<tr><th scope="row">{seat + 1}</th>'
            f'<td><label class="sr-only" for="name-{seat}">'
            f"{escape(seat_name.format(number=seat + 1))}</label>"
            f'<input type="text" id="name-{seat}" name="name-{seat}" maxlength="40" '
            f'placeholder="{escape(default_name(seat, locale))}"></td>'
            f'<td><label class="sr-only" for="kind-{seat}">'
            f"{escape(seat_player.format(number=seat + 1))}</label>"
            f'<select id="kind-{seat}" name="kind-{seat}">{options}</select></td></tr>'
        )
    rules = "".join(
        f'<option value="{escape(name)}">{escape(name)}: '
        f"{escape(Rules.describe(name, locale=locale))}</option>"
        for name in Rules.names()
    )
    ties = "".join(
        f'<option value="{tie.value}">{escape(_tie(tie, locale))}</option>' for tie in TieRule
    )
    problem = f'<p class="error" role="alert">{escape(error)}</p>' if error else ""
    if not optimal:
        optimal_note = ""
    elif tables:
        optimal_note = escape(
            t.pgettext(
                "web table",
                "Optimal bots and the coach play optimally under {rulesets} (and those rules "
                "with any tie rule); under other rules they play the greedy player's moves, "
                "and the page says so.",
            ).format(rulesets=_names(tables, locale)),
            quote=False,
        )
    else:
        optimal_note = escape(
            t.pgettext(
                "web table",
                "This table has no optimal tables: optimal bots play the greedy player's "
                "moves and the coach gives a rule of thumb, and the page says so (start the "
                "server with {command} for optimal play).",
            ),
            quote=False,
        ).format(command="<code>yahtzee-rules serve --table forced</code>")
    if optimal_note:
        optimal_note = f'<p id="optimal-note">{optimal_note}</p>'
    title = t.pgettext("web table", "Yahtzee table")
    intro = t.pgettext(
        "web table",
        "Pass-and-play on one device: seat up to eight players, people or computer "
        "players, and play by the exact rules. Every position has its own link, so a "
        "game can be continued on another device.",
    )
    heads = [
        escape(t.pgettext("web table", "Seat")),
        escape(t.pgettext("web table", "Name")),
        escape(t.pgettext("web table", "Player")),
    ]
    body = (
        f"<h1>{escape(title)}</h1><p>{escape(intro)}</p>"
        f"{problem}"
        '<form method="post" action="/new" class="panel setup">'
        f'<h2 id="seats-heading">{escape(w_players)}</h2>'
        f'<table aria-labelledby="seats-heading"><thead><tr><th scope="col">{heads[0]}</th>'
        f'<th scope="col">{heads[1]}</th><th scope="col">{heads[2]}</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
        f"<h2>{escape(w_rules)}</h2>"
        f'<p><label for="rules">{escape(w_ruleset)}</label><br>'
        f'<select id="rules" name="rules">{rules}</select></p>'
        f'<p><label for="tie">{escape(w_tie_rule)}</label><br>'
        f'<select id="tie" name="tie">{ties}</select></p>'
        f"{optimal_note}"
        f'<p><button type="submit" id="start">{escape(w_start_the_game)}'
        "</button></p></form>"
    )
    return _document(title, body, locale, "/")


def _error_texts(locale: str | None) -> tuple[dict[int, str], dict[int, str]]:
    """The error pages' headings and notes, by status, in ``locale``'s language."""
    t = translations(locale)
    headings = {
        400: t.pgettext("web table", "This game link does not work"),
        403: t.pgettext("web table", "This table did not write this link"),
        404: t.pgettext("web table", "Not found"),
        413: t.pgettext("web table", "This move is too large"),
        500: t.pgettext("web table", "Something went wrong on the server"),
        503: t.pgettext("web table", "The table is busy"),
    }
    notes = {
        400: t.pgettext(
            "web table",
            "A game link holds the whole game and a checksum, so a link that was cut short, "
            "mistyped or damaged is refused rather than read as another game.",
        ),
        403: t.pgettext(
            "web table",
            "This table plays only the links it wrote: each carries a signature made with "
            "the table's key. A link written by hand, changed, or written by another table "
            "is refused.",
        ),
    }
    return headings, notes


def busy_message(locale: str | None) -> str:
    """What the busy page (503) says, in ``locale``'s language."""
    return translations(locale).pgettext(
        "web table", "every worker of this table is busy; try again in a moment"
    )


def not_found_message(locale: str | None) -> str:
    """What the page of an address no page is at (404) says, in ``locale``'s language."""
    return translations(locale).pgettext(
        "web table", "No page of this table is at that address; a game's link starts with /play/."
    )


def server_error_message(locale: str | None) -> str:
    """What the page of a server error (500) says, in ``locale``'s language."""
    return translations(locale).pgettext("web table", "The server could not answer; try again.")


def review_note(why: str, locale: str | None) -> str:
    """Why a game has no review: ``"none"`` (no moves yet) or ``"no table"`` (no optimal
    values for its rules), in ``locale``'s language."""
    t = translations(locale)
    if why == "none":
        return t.pgettext("web table", "No moves to review yet.")
    return t.pgettext(
        "web table",
        "This table has no optimal values for these rules, so it cannot review the "
        "game; a table started with --table for them can.",
    )


def error_page(message: str, *, status: int, locale: str | None = None) -> str:
    """The page for a link or a move the library refuses, with its reason (the library's
    words, which stay English); the page's own words in ``locale``'s language."""
    headings, notes = _error_texts(locale)
    heading = headings.get(status, headings[400])
    note = f"<p>{escape(notes[status])}</p>" if status in notes else ""
    new_game = translations(locale).pgettext("web table", "Start a new game")
    body = (
        f"<h1>{escape(heading)}</h1>"
        f'<p class="error" role="alert">{escape(message)}</p>'
        f"{note}"
        f'<p><a class="button" href="/">{escape(new_game)}</a></p>'
    )
    return _document(heading, body, locale)


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


def _dice_form(
    position: Position,
    advice: Coach | None,
    held: tuple[int, ...] | None,
    locale: str | None = None,
) -> str:
    """The dice and the roll button; ``held`` are the positions the player holds (by
    default, those the last roll kept), and with ``advice`` each die the coach would hold
    is marked beside the player's holds, which stay as they are; in ``locale``'s language."""
    t = translations(locale)
    w_roll_the_dice = t.pgettext("web table", "Roll the dice")
    w_3_rolls_this_turn = t.pgettext("web table", "3 rolls this turn")
    w_roll_the_others = t.pgettext("web table", "Roll the others")
    w_no_rolls_left = t.pgettext("web table", "No rolls left: fill a box.")
    w_ask_the_coach = t.pgettext("web table", "Ask the coach")
    game = position.game
    dice = game.dice
    link = escape(position.link())
    action = link.replace("?", "/roll?", 1)
    left = game.rolls_left
    if dice is None:
        return (
            f'<form method="post" action="{action}"><p class="actions">'
            f'<button type="submit" id="roll" aria-keyshortcuts="r">'
            f"{escape(w_roll_the_dice)}</button>"
            f"<span>{escape(w_3_rolls_this_turn)}</span></p></form>"
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
    words = _face_words(locale)
    die_title = t.pgettext("web table", "Die {number}: {face}")
    hold_die = t.pgettext("web table", "Hold die {number}, showing {face}")
    coach_tag = t.pgettext("web table", "coach")
    coach_holds = t.pgettext("web table", " (the coach would hold it)")
    dice_html = []
    for index, face in enumerate(dice.faces):
        checked = " checked" if index in holding else ""
        disabled = "" if left else " disabled"
        tag = coach_tag if index in advised else ""
        spoken = coach_holds if tag else ""
        title = die_title.format(number=index + 1, face=face)
        spoken_hold = hold_die.format(number=index + 1, face=words[face - 1]) + spoken
        dice_html.append(
            f'<div class="die"><input type="checkbox" name="hold" value="{index}" '
            f'id="die-{index}"{checked}{disabled} aria-keyshortcuts="{index + 1}">'
            f'<label for="die-{index}" title="{escape(title)}">'
            f'<span class="sr-only">{escape(spoken_hold, quote=False)}'
            f"</span>{_die_svg(face)}</label>"
            + (f'<span class="held-tag" aria-hidden="true">{escape(tag)}</span>' if advice else "")
            + "</div>"
        )
    if left:
        rolls_left = (
            t.pgettext("web table", "{rolls} rolls left")
            if left > 1
            else t.pgettext("web table", "1 roll left")
        )
        controls = (
            f'<button type="submit" id="roll" aria-keyshortcuts="r">'
            f"{escape(w_roll_the_others)}</button>"
            f"<span>{escape(rolls_left.format(rolls=left))}</span>"
        )
        legend = t.pgettext(
            "web table", "Dice: tap a die to hold it, then roll the others (keys 1-5, R)"
        )
    else:
        controls = f"<span>{escape(w_no_rolls_left)}</span>"
        legend = t.pgettext("web table", "Dice: no rolls left")
    if advice is None and not position.bot_to_play:
        coach_action = link.replace("?", "/coach?", 1)
        controls += (
            f' <button type="submit" class="secondary" id="ask-coach" '
            f'formaction="{coach_action}">{escape(w_ask_the_coach)}'
            "</button>"
        )
    shown = escape(t.pgettext("web table", "Dice {dice}").format(dice=dice))
    return (
        f'<form method="post" action="{action}">'
        f'<fieldset class="dice"><legend class="sr-only">{escape(legend)}</legend>'
        f"{''.join(dice_html)}</fieldset>"
        f'<p class="actions" aria-live="polite">{shown} · {controls}</p></form>'
    )


def _face_words(locale: str | None) -> tuple[str, ...]:
    """The faces' names, one to six, in ``locale``'s language (for screen readers)."""
    t = translations(locale)
    return (
        t.pgettext("face", "one"),
        t.pgettext("face", "two"),
        t.pgettext("face", "three"),
        t.pgettext("face", "four"),
        t.pgettext("face", "five"),
        t.pgettext("face", "six"),
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
            label = f"{line_label(line, game.rules, locale)} {heading}".strip()
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
            label = line_label(line, game.rules, locale)
            rows.append(
                f'<tr class="total"><th scope="row">{escape(label)}</th>'
                f'<td class="num">{shown}</td><td></td></tr>'
            )
    caption = translations(locale).pgettext("web table", "{player}'s card")
    caption = escape(caption.format(player=game.players[seat]), quote=False)
    heads = [escape(head) for head in words.heads]
    table = (
        f'<table id="card"><caption class="sr-only">{caption}</caption>'
        f'<thead><tr><th scope="col">{heads[0]}</th><th scope="col" class="num">'
        f'{heads[1]}</th><th scope="col">{heads[2]}</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    if can_fill:
        return f'<form method="post" action="{fill_action}">{table}</form>'
    return table


def _all_cards(game: Game, locale: str | None = None) -> str:
    """Every player's card in one table, laid out as the printed sheet: one column per
    player (per score column on a card of several), every totals line included; its
    words in ``locale``'s language."""
    words = _words(locale)
    t = translations(locale)
    lines = sheet_lines(game.cards, rules=game.rules)
    headings = column_headings(game.rules)
    several = len(headings) > 1
    span = f' colspan="{len(headings)}"' if several else ""
    head = "".join(f'<th scope="col" class="num"{span}>{escape(p)}</th>' for p in game.players)
    thead = f'<tr><th scope="col">{escape(words.heads[0])}</th>{head}</tr>'
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
        label = line_label(line, game.rules, locale)
        rows.append(f'<tr{kind}><th scope="row">{escape(label)}</th>{"".join(cells)}</tr>')
    caption = escape(t.pgettext("web table", "Every card"))
    return (
        f'<div class="scroll"><table id="all-cards"><caption class="sr-only">{caption}</caption>'
        f"<thead>{thead}</thead><tbody>{''.join(rows)}"
        "</tbody></table></div>"
    )


def _standings(position: Position, locale: str | None = None) -> str:
    t = translations(locale)
    w_final_standings = t.pgettext("web table", "Final standings")
    w_new_game = t.pgettext("web table", "New game")
    game = position.game
    result = game.result
    rows = "".join(
        f'<tr><td class="num">{s.rank}</td><th scope="row">{escape(s.player)}</th>'
        f"<td>{escape(kind_name(position.kind(s.seat), locale))}</td>"
        f'<td class="num">{s.total}</td>'
        f'<td class="num">{game.player_totals(s.seat).upper_total}</td></tr>'
        for s in result.standings
    )
    if result.play_off:
        verdict = t.pgettext("web table", "{players} tie and play another game to decide.")
        verdict = verdict.format(players=_names(result.play_off, locale))
    elif len(result.winners) > 1:
        verdict = t.pgettext("web table", "{players} share the win.")
        verdict = verdict.format(players=_names(result.winners, locale))
    else:
        verdict = t.pgettext("web table", "{player} wins.").format(player=result.winners[0])
    tie = t.pgettext("web table", "Tie rule: {tie}.").format(tie=_tie(game.rules.tie, locale))
    heads = [
        escape(t.pgettext("web table", "Rank")),
        escape(t.pgettext("web table", "Player")),
        escape(t.pgettext("web table", "Seat")),
        escape(t.pgettext("web table", "Total")),
        escape(t.pgettext("web table", "Upper")),
    ]
    review = t.pgettext("web table", "Review the game: luck and each decision's cost")
    return (
        '<section class="panel" aria-labelledby="result-heading">'
        f'<h2 id="result-heading">{escape(w_final_standings)}</h2>'
        f'<p id="verdict" role="status"><strong>{escape(verdict)}</strong> '
        f"{escape(tie)}</p>"
        f'<table id="standings"><thead><tr><th scope="col" class="num">{heads[0]}</th>'
        f'<th scope="col">{heads[1]}</th><th scope="col">{heads[2]}</th>'
        f'<th scope="col" class="num">{heads[3]}</th>'
        f'<th scope="col" class="num">{heads[4]}</th></tr></thead><tbody>{rows}</tbody></table>'
        f'<p class="actions"><a class="button" id="review-link" '
        f'href="{escape(review_link(position))}">'
        f"{escape(review, quote=False)}</a> "
        f'<a class="button secondary" href="/">{escape(w_new_game)}'
        "</a></p></section>"
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


def _chart(reviewed: Review, locale: str | None = None) -> str:
    """An SVG chart: each player's expected final score after every turn, from the start."""
    t = translations(locale)
    w_turn = t.pgettext("web table", "turn")
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
        f'dy="-14">{escape(w_turn)}</text>'
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
    label = t.pgettext(
        "web table",
        "Expected final score after each turn, with optimal play from there, for {players}",
    ).format(players=", ".join(name for name, _ in series))
    return (
        f'<svg id="review-chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(label)}">{"".join(grid)}{"".join(lines)}</svg>'
        f'<ul class="legend">{legend}</ul>'
    )


def review_page(
    position: Position, reviewed: Review | None, note: str = "", locale: str | None = None
) -> str:
    """The review of ``position``'s game: luck and cost per player, a chart, the mistakes;
    ``reviewed`` is ``None`` (and ``note`` says why) when the table has no values for it.
    The page's words are in ``locale``'s language; each decision's description is the
    library's (English)."""
    t = translations(locale)
    w_back_to_the_game = t.pgettext("web table", "Back to the game")
    w_luck = t.pgettext("web table", "luck")
    w_cost = t.pgettext("web table", "cost")
    w_luck_and_skill = t.pgettext("web table", "Luck and skill")
    w_chart_heading = t.pgettext("web table", "Expected final score, turn by turn")
    w_the_costliest_decisions = t.pgettext("web table", "The costliest decisions")
    back = (
        f'<p class="actions"><a class="button secondary" href="{escape(position.link())}">'
        f"{escape(w_back_to_the_game)}</a></p>"
    )
    heading = escape(t.pgettext("web table", "Game review"))
    title = _title(t.pgettext("web table", "Game review"), locale)
    here = review_link(position)
    if reviewed is None:
        body = f'<h1>{heading}</h1><p role="status">{escape(note)}</p>{back}'
        return _document(title, body, locale, here)
    rows = []
    for player in reviewed.players:
        grades = player.grades()
        rows.append(
            f'<tr><th scope="row">{escape(player.player)}</th>'
            f'<td class="num">{player.end:g}</td><td class="num">{player.start:.2f}</td>'
            f'<td class="num">{player.luck:+.2f}</td><td class="num">{-player.cost:+.2f}</td>'
            f'<td class="num">{player.mean_cost:.2f}</td>'
            f'<td class="num">{grades["inaccuracy"]}/{grades["mistake"]}/{grades["blunder"]}</td>'
            + (f'<td class="num">{escape(_win_lost(player, locale))}</td>' if reviewed.wins else "")
            + "</tr>"
        )
    best = escape(t.pgettext("web table", "Every decision was the best one."))
    mistakes = []
    for player in reviewed.players:
        worst = player.mistakes(3)
        items = "".join(f"<li>{escape(d.describe())}</li>" for d in worst) or f"<li>{best}</li>"
        mistakes.append(f"<h3>{escape(player.player)}</h3><ol>{items}</ol>")
    intro = t.pgettext(
        "web table",
        "Each player against optimal solitaire play: {luck} is what the dice gave or took, "
        "{cost} what the decisions gave up, both in expected final points; the score is the "
        "expected score at the start plus the luck minus the cost.",
    )
    intro = escape(intro, quote=False).format(
        luck=f"<strong>{escape(w_luck)}</strong>",
        cost=f"<strong>{escape(w_cost)}</strong>",
    )
    heads = [
        t.pgettext("web table", "Player"),
        t.pgettext("web table", "Score"),
        t.pgettext("web table", "Expected"),
        t.pgettext("web table", "Luck"),
        t.pgettext("web table", "Cost"),
        t.pgettext("web table", "Mean cost"),
        t.pgettext("web table", "Inaccuracies / mistakes / blunders"),
    ]
    if reviewed.wins:
        heads.append(t.pgettext("web table", "Chance of winning given up (last turn)"))
    num = ' class="num"'
    cells = "".join(
        f'<th scope="col"{"" if place == 0 else num}>{escape(head)}</th>'
        for place, head in enumerate(heads)
    )
    win_note = t.pgettext(
        "web table",
        "The chance of winning given up is exact once every other player had finished; "
        "before that it is worked out from upper bounds on each chance, an estimate.",
    )
    body = (
        f"<h1>{heading}</h1><p>{intro}</p>"
        + (
            # in English, as each decision's description: measured against the strategy
            f'<p id="approximation-note"><small>Measured against '
            f"{escape(reviewed.approximation)}, not optimal play: no table reaches this "
            "card, so these values are an approximation, not the optimum, and the luck is "
            "not of mean 0. Of each player's luck, the approximation's own share: "
            + escape(", ".join(f"{p.player} {p.luck_bias:+.2f}" for p in reviewed.players))
            + ".</small></p>"
            if reviewed.approximation is not None
            else ""
        )
        + '<section class="panel" aria-labelledby="luck-heading">'
        f'<h2 id="luck-heading">{escape(w_luck_and_skill)}</h2>'
        f'<table id="review-summary"><thead><tr>{cells}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
        + (
            f'<p id="win-note"><small>{escape(win_note, quote=False)}</small></p>'
            if reviewed.wins
            else ""
        )
        + "</section>"
        '<section class="panel" aria-labelledby="chart-heading">'
        '<h2 id="chart-heading">'
        f"{escape(w_chart_heading)}</h2>"
        f"{_chart(reviewed, locale)}</section>"
        '<section class="panel" aria-labelledby="mistakes-heading">'
        '<h2 id="mistakes-heading">'
        f"{escape(w_the_costliest_decisions)}</h2>"
        f'<div id="mistakes">{"".join(mistakes)}</div></section>{back}'
    )
    return _document(title, body, locale, here)


def _win_lost(player: PlayerReview, locale: str | None = None) -> str:
    """A player's chance of winning given up in the late turns, and how sure it is."""
    t = translations(locale)
    if player.exact_win_decisions:
        return t.pgettext("web table", "{percent}% (exact)").format(
            percent=f"{100 * player.win_cost:.1f}"
        )
    bounded = [d.win_cost or 0.0 for d in player.decisions if d.win_exact is False]
    if bounded:
        return t.pgettext("web table", "{percent}% (from bounds)").format(
            percent=f"{100 * math.fsum(bounded):.1f}"
        )
    return t.pgettext("web table", "not worked out")


def _names(names: Sequence[str], locale: str | None = None) -> str:
    if len(names) == 1:
        return names[0]
    return (
        translations(locale)
        .pgettext("web table", "{names} and {last}")
        .format(names=", ".join(names[:-1]), last=names[-1])
    )


def _title(page: str, locale: str | None) -> str:
    """A page's title: its own words, then the table's name."""
    table = translations(locale).pgettext("web table", "Yahtzee table")
    return f"{page} · {table}"


def _coach_box(advice: Coach, dice: Dice | None, locale: str | None = None) -> str:
    t = translations(locale)
    if advice.keep is not None:
        places = sorted(_held_positions(dice, advice.keep)) if dice is not None else []
        dice_words = (
            ""  # nothing held: all five are rolled again
            if not places
            else t.pgettext("web table", " (die {number})").format(number=places[0] + 1)
            if len(places) == 1
            else t.pgettext("web table", " (dice {numbers})").format(
                numbers=_names([str(p + 1) for p in places], locale)
            )
        )
        what = (
            t.pgettext("web table", "Hold {keep}{dice} and roll the others").format(
                keep=advice.keep, dice=dice_words
            )
            if advice.keep.faces
            else t.pgettext("web table", "Roll all five dice again")
        )
    else:
        assert advice.box is not None
        what = t.pgettext("web table", "Fill {box}").format(box=advice.box.label_in(locale))
    expected = (
        t.pgettext("web table", " Expected final score: {points}.").format(
            points=f"{advice.expected:.1f}"
        )
        if advice.expected is not None
        else ""
    )
    sources = {
        "solver": t.pgettext("web table", "Optimal solver"),
        "approximation": t.pgettext("web table", "Triple Yahtzee strategy"),
    }
    source = sources.get(advice.source, t.pgettext("web table", "Heuristic"))
    coach = t.pgettext("web table", "Coach ({source}):").format(source=source)
    # the solver's and the heuristic's notes are the page's words; the Triple strategy
    # explains its own choice (the library's words, in English)
    note = advice.note if advice.source == "approximation" else t.pgettext("coach", advice.note)
    return (
        f'<div class="coach" id="coach" role="status"><strong>{escape(coach)}</strong> '
        f"{escape(what)}.{escape(expected)} <small>{escape(note)}.</small></div>"
    )


def _recent(position: Position, locale: str | None = None) -> str:
    turns = position.recent_turns()
    if not turns:
        return ""
    text = translations(locale)
    line = text.pgettext(
        "web table", "{player} ({kind}): rolled {rolls}; filled {box} for {points}"
    )
    then = text.pgettext("web table", ", then ")
    items = "".join(
        "<li>"
        + escape(
            line.format(
                player=t.player,
                kind=kind_name(t.kind, locale),
                rolls=then.join(t.rolls),
                box=t.box.label_in(locale),
                points=t.points,
            )
        )
        + "</li>"
        for t in turns
    )
    heading = escape(text.pgettext("web table", "Last turns"))
    return f'<h2>{heading}</h2><ul id="recent">{items}</ul>'


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
    every word of the page's own in ``locale``'s language (the library's notes on the
    Joker rule, the Triple strategy's explanations and error messages stay English)."""
    t = translations(locale)
    w_undo = t.pgettext("web table", "Undo")
    w_scores = t.pgettext("web table", "Scores")
    w_continue_elsewhere = t.pgettext("web table", "Continue on another device")
    w_link_copied = t.pgettext("web table", "Link copied")
    w_new_game = t.pgettext("web table", "New game")
    game = position.game
    rules = game.rules
    parts: list[str] = []
    if game.is_over:
        heading = t.pgettext("web table", "Game over")
        parts.append(_standings(position, locale))
        turn_panel = ""
    else:
        player = game.current_player  # text: escaped where it is written, once
        kind = kind_name(position.kind(game.current), locale)
        heading = t.pgettext("web table", "{player}'s turn").format(player=player)
        status = escape(
            t.pgettext("web table", "Round {round} of {rounds} · {kind}").format(
                round=game.round, rounds=len(rules.card), kind=kind
            )
        )
        controls = []
        if position.bot_to_play:
            bot_action = escape(position.link()).replace("?", "/bot?", 1)
            let_play = t.pgettext("web table", "Let {player} play").format(player=player)
            controls.append(
                f'<form method="post" action="{bot_action}"><p class="actions">'
                f'<button type="submit" id="bot">{escape(let_play)}</button></p></form>'
            )
        else:
            controls.append(_dice_form(position, advice, held, locale))
            note = _joker_note(game)
            if note is not None:
                controls.append(f'<p class="joker" id="joker-note" role="note">{escape(note)}</p>')
            if advice is not None:
                controls.append(_coach_box(advice, game.dice, locale))
            elif coach_error:
                controls.append(f'<p class="coach" role="status">{escape(coach_error)}</p>')
        card_heading = t.pgettext("web table", "{player}'s card").format(player=player)
        turn_panel = (
            '<section class="panel" aria-labelledby="card-heading">'
            f"<p>{status}</p>{''.join(controls)}"
            f'<h2 id="card-heading">{escape(card_heading, quote=False)}</h2>'
            f"{_card_table(position, locale)}</section>"
        )
    undo = position.undo_target()
    undo_html = (
        f'<a class="button secondary" id="undo" href="{escape(position.link(undo))}">'
        f"{escape(w_undo)}</a>"
        if undo is not None
        else ""
    )
    qr_label = t.pgettext("web table", "QR code of this position's link")
    too_long = t.pgettext("web table", "(The link is too long for a QR code; copy it instead.)")
    qr = (
        f'<div class="qr" role="img" aria-label="{escape(qr_label)}">{qr_svg}</div>'
        if qr_svg
        else f"<p>{escape(too_long)}</p>"
    )
    link_note = t.pgettext(
        "web table",
        "This link holds the whole game so far: open it on any device, bookmark it, "
        "or scan the code.",
    )
    copy = escape(t.pgettext("web table", "Copy link"))
    side = (
        '<section class="panel" aria-labelledby="scores-heading">'
        f'<h2 id="scores-heading">{escape(w_scores)}</h2>'
        f"{_all_cards(game, locale)}{_recent(position, locale)}"
        '<h2 id="link-heading">'
        f"{escape(w_continue_elsewhere)}</h2>"
        f"<p>{escape(link_note)}</p>"
        f'<p class="link"><a id="position-link" href="{escape(url)}">{escape(url)}</a></p>'
        f'<p class="actions"><button type="button" class="secondary" id="copy-link" hidden '
        f'data-link="{escape(url)}" '
        f'data-copied="{escape(w_link_copied)}">{copy}</button>'
        f"{undo_html}"
        f'<a class="button secondary" href="/">{escape(w_new_game)}'
        "</a></p>"
        f"{qr}</section>"
    )
    note = (
        '<p class="joker" id="fallback" role="note">'
        + escape(
            t.pgettext(
                "web table", "Optimal bots: {fallback}; they play the greedy player's moves."
            ).format(fallback=t.pgettext("coach", FALLBACK)),
            quote=False,
        )
        + "</p>"
        if fallback
        else ""
    )
    rules_line = t.pgettext("web table", "Rules: {rules}; {tie}.").format(
        rules=_rules_line(rules, locale), tie=_tie(rules.tie, locale)
    )
    body = (
        f"<h1>{escape(heading)}</h1><p>{escape(rules_line)}</p>{note}"
        f'<div class="layout">{"".join(parts)}{turn_panel}{side}</div>'
    )
    return _document(_title(heading, locale), body, locale, position.link())
