"""The gettext catalogues: compiled from their sources, complete for the library's own text,
and chosen by ``locale=`` with a region falling back to its language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from hypothesis import given
from hypothesis import strategies as st

from _scripts import load_script
from yahtzee_rules import (
    Card,
    Category,
    Game,
    JokerRule,
    Rules,
    Scorecard,
    TieRule,
    TripleBox,
    YachtBox,
    YatzyBox,
    box_options,
)
from yahtzee_rules.core.boxes import Box, registered_rulesets
from yahtzee_rules.support.errors import MalformedInputError, UnknownLocaleError
from yahtzee_rules.support.l10n import (
    DEFAULT_LOCALE,
    LOCALES,
    NATIVE_NAMES,
    best_locale,
    resolve_locale,
    translations,
)

SRC = Path(__file__).resolve().parents[1] / "src" / "yahtzee_rules"
catalogues = load_script("compile_catalogues")

Key = tuple[str | None, str]


def _box_messages() -> set[Key]:
    """Every label of every shipped card but Triple Yahtzee's, whose come from Classic's,
    and the Joker rules' names, which the reasons a box is closed use."""
    boxes = {Card.named(name).boxes for name in Card.names()} - {TripleBox}
    labels = {(box_type.__name__, box.label) for box_type in boxes for box in box_type}
    jokers = {("JokerRule", text) for rule in JokerRule for text in (rule.label, rule.title)}
    rulesets = {
        ("ruleset", entry.description)
        for _, entries in registered_rulesets()
        for entry in entries
        if entry.description is not None
    }
    ties = {("TieRule", rule.description) for rule in TieRule}
    return labels | jokers | rulesets | ties | _web_messages()


def _web_messages() -> set[Key]:
    """The web table's words it translates from values rather than literals: what sits at
    a seat, and the coach's notes."""
    from yahtzee_rules.apps.web._position import FALLBACK, HEURISTIC_NOTE, KINDS, SOLVER_NOTE

    notes = {("coach", note) for note in (FALLBACK, HEURISTIC_NOTE, SOLVER_NOTE)}
    return {("seat", kind) for kind in KINDS.values()} | notes


def _source_messages() -> set[Key]:
    """Every text the library's modules pass to gettext, as Babel extracts them."""
    found: set[Key] = set()
    for path in SRC.rglob("*.py"):
        if "gettext(" not in path.read_text(encoding="utf-8"):
            continue  # Babel's reading of every module takes seconds
        for _, message, _, context in extract_from_file("python", str(path)):
            text = message[0] if isinstance(message, tuple) else message
            found.add((context, text))
    return found


def test_every_mo_holds_exactly_its_po() -> None:
    assert catalogues.stale() == []


def test_a_changed_po_makes_its_mo_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "de" / "LC_MESSAGES"
    target.mkdir(parents=True)
    po = catalogues.LOCALES / "de" / "LC_MESSAGES" / "yahtzee_rules.po"
    (target / "yahtzee_rules.mo").write_bytes(po.with_suffix(".mo").read_bytes())
    text = po.read_text(encoding="utf-8").replace('msgstr "Kniffel"', 'msgstr "Yahtzee"')
    (target / "yahtzee_rules.po").write_text(text, encoding="utf-8")
    monkeypatch.setattr(catalogues, "LOCALES", tmp_path)
    assert catalogues.stale() == ["de"]


def test_every_catalogue_translates_every_message_of_the_library() -> None:
    wanted = _box_messages() | _source_messages()
    assert ("Category", "Yahtzee") in wanted
    for language, po in catalogues.sources().items():
        have = catalogues.po_messages(po)
        missing = wanted - set(have)
        assert not missing, f"{language}: no translation for {sorted(missing, key=str)}"
        unused = set(have) - wanted
        assert not unused, f"{language}: messages the library does not use: {unused}"
    assert sorted(catalogues.sources()) == sorted(set(LOCALES) - {DEFAULT_LOCALE})


def test_every_translation_keeps_the_placeholders_of_its_message() -> None:
    for language, po in catalogues.sources().items():
        for (_, msgid), text in catalogues.po_messages(po).items():
            wanted = sorted(re.findall(r"\{\w+\}", msgid))
            assert sorted(set(re.findall(r"\{\w+\}", text))) == sorted(set(wanted)), (
                language,
                msgid,
            )


def test_the_community_names() -> None:
    # The names each language's players use (sources: docs/how-to/localise.md).
    assert [box.label_in("de") for box in Category.lower()] == [
        "Dreierpasch",
        "Viererpasch",
        "Full House",
        "Kleine Straße",
        "Große Straße",
        "Kniffel",
        "Chance",
    ]
    assert [box.label_in("fr") for box in Category.lower()] == [
        "Brelan",
        "Carré",
        "Full",
        "Petite suite",
        "Grande suite",
        "Yams",
        "Chance",
    ]
    assert [box.label_in("sv") for box in YatzyBox.lower()] == [
        "Par",
        "Två par",
        "Tretal",
        "Fyrtal",
        "Liten stege",
        "Stor stege",
        "Kåk",
        "Chans",
        "Yatzy",
    ]
    assert YatzyBox.THREE_OF_A_KIND.label_in("da") == "Tre ens"
    assert Category.SMALL_STRAIGHT.label_in("es") == "Escalera menor"


@pytest.mark.parametrize("locale", LOCALES)
def test_triple_labels_are_the_classic_labels_with_their_multiplier(locale: str) -> None:
    for box in TripleBox:
        classic = Category(box.row).label_in(locale)
        assert box.label_in(locale) == f"{classic} ×{box.multiplier}"


def test_english_is_the_label_and_codes_do_not_change() -> None:
    for box_type in (Category, YatzyBox, YachtBox, TripleBox):
        box: Box
        for box in box_type:
            assert box.label_in("en") == box.label_in(None) == box.label
            assert box_type.parse(box.code) is box
    assert Category.YAHTZEE.label_in("de") != Category.YAHTZEE.label


@given(
    st.sampled_from(LOCALES),
    st.sampled_from(["", "_AT", "-DE", "_se.UTF-8", "-419", "@euro"]),
    st.booleans(),
)
def test_a_region_or_an_encoding_falls_back_to_the_language(
    language: str, tail: str, upper: bool
) -> None:
    locale = (language.upper() if upper else language) + tail
    assert resolve_locale(locale) == language
    assert translations(locale) is translations(language)


@given(st.text(max_size=30) | st.integers() | st.none())
def test_anything_else_is_refused_naming_it_and_the_locales(locale: object) -> None:
    if locale is None or (
        isinstance(locale, str) and re.split(r"[-_.@]", locale.strip())[0].lower() in LOCALES
    ):
        return
    with pytest.raises(UnknownLocaleError) as raised:
        Category.CHANCE.label_in(locale)  # type: ignore[arg-type]
    message = str(raised.value)
    assert message.startswith("locale ")
    assert "available: en, de, fr, sv, da, es" in message
    assert len(message) < 300
    assert isinstance(raised.value, MalformedInputError)


def test_the_browser_preference() -> None:
    assert best_locale("de-CH,de;q=0.9,en;q=0.8") == "de"
    assert best_locale("en-GB;q=0.5, sv;q=0.8") == "sv"
    assert best_locale("pt-BR, pt;q=0.9") == "en"
    assert best_locale("da;q=0, *;q=0.1") == "en"
    assert best_locale("fr;q=nan, es;q=2, da;q=x, sv") == "sv"
    assert best_locale("x" * 10_000_000 + ", de") == "en"  # read up to the bound only


@pytest.mark.parametrize("locale", LOCALES)
def test_the_reasons_a_box_is_closed_are_in_the_locale(locale: str) -> None:
    card = Scorecard({Category.YAHTZEE: 50, Category.FULL_HOUSE: 25})
    options = box_options(card, "44444", locale=locale)
    filled = options[Category.FULL_HOUSE].reason
    joker = options[Category.CHANCE].reason
    assert filled is not None
    assert joker is not None
    assert Category.FULL_HOUSE.label_in(locale) in filled
    assert "25" in filled
    assert Category.FOURS.label_in(locale) in joker
    english = box_options(card, "44444")
    assert (filled == english[Category.FULL_HOUSE].reason) == (locale == "en")
    # every way a box is closed, through a game: the forced Joker's upper box filled
    game = Game.new(1, rules=Rules())
    for outcome, box in (("44444", Category.YAHTZEE), ("44442", Category.FOURS)):
        game = game.roll(outcome=outcome).fill(box)
    reasons = {
        option.reason for option in game.roll(outcome="44444").box_options(locale=locale).values()
    }
    assert all("{" not in reason for reason in reasons if reason)
    assert any(Category.CHANCE.label_in(locale) in reason for reason in reasons if reason)
    # English wording stays exactly as before
    assert box_options(card, "44444", locale=None) == english


def test_an_unknown_locale_is_refused_before_any_work() -> None:
    with pytest.raises(UnknownLocaleError, match="locale 'xx'"):
        box_options(Scorecard(), "12345", locale="xx")
    with pytest.raises(UnknownLocaleError):
        Game.new(1).roll(outcome="12345").box_options(locale="klingon")


@pytest.mark.parametrize("locale", LOCALES)
def test_every_named_ruleset_is_described_in_the_locale(locale: str) -> None:
    lines = {name: Rules.describe(name, locale=locale) for name in Rules.names()}
    english = {name: Rules.describe(name) for name in Rules.names()}
    assert all(lines.values())
    if locale == DEFAULT_LOCALE:
        assert lines == english
    else:
        assert all(lines[name] != english[name] for name in lines), locale
    assert Rules.describe(Rules.from_name("yatzy"), locale=locale) == lines["yatzy"]
    with pytest.raises(UnknownLocaleError):
        Rules.describe("yatzy", locale="zz")


def test_every_locale_has_its_own_name() -> None:
    assert tuple(NATIVE_NAMES) == LOCALES
    assert len(set(NATIVE_NAMES.values())) == len(LOCALES)
