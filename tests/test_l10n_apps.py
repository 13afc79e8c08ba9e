"""The command line's ``--lang`` and the web table's ``Accept-Language``: box names and the
reasons a box is closed in the players' language, through the real program and app."""

from __future__ import annotations

import html
import random
import re

import pytest
from starlette.testclient import TestClient

from _cli import coach_screen, pty_only, run
from yahtzee_rules import Category, Game, GameRecord
from yahtzee_rules.apps.cli import main
from yahtzee_rules.apps.web import create_app

JOKER_GAME = Game.parse("forced 0 Ann,Bob y=50/y=50 44444@1")


def test_score_names_the_boxes_and_the_reasons_in_the_language() -> None:
    done = run("score", "44444", "--card", "fh=25,y=50", "--lang", "de-AT")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Würfel 44444 auf dem Block fh=25,y=50, Pflicht-Joker (Hasbro Classic)"
    assert any(
        line.startswith("Kniffel ") and "ist schon mit 50 ausgefüllt" in line for line in lines
    )
    assert any(
        line.startswith("Einer ") and "der Pflicht-Joker verlangt Vierer" in line for line in lines
    )
    assert not any(line.startswith("Yahtzee ") for line in lines)  # the box is Kniffel
    assert lines[1].split() == ["Feld", "Punkte", "Hinweis"]
    assert any(line.startswith("Zweier ") and line.endswith("wie bei Einer") for line in lines)
    assert any(line.startswith("Vierer ") and "+100 Kniffel-Bonus" in line for line in lines)


def test_score_refuses_an_unknown_language_as_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["score", "12345", "--lang", "pt-BR"]) == 2
    err = capsys.readouterr().err
    assert "argument --lang: locale 'pt-BR'" in err
    assert "available: en, de, fr, sv, da, es" in err
    assert main(["score", "12345", "--lang", "sv_SE.UTF-8"]) == 0
    assert "Chans" in capsys.readouterr().out


def test_rules_describes_the_rulesets_in_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--lang", "es"]) == 0
    out = capsys.readouterr().out
    assert "yatzy" in out
    assert "Yatzy escandinavo: 15 casillas" in out
    assert main(["rules", "--lang", "xx"]) == 2
    assert "locale 'xx'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("header", "label", "reason", "words"),
    [
        (
            "fr-CH, fr;q=0.9, en;q=0.8",
            "Yams",
            "le Joker forcé exige Quatre",
            ["fermé, comme pour As", ">Total général<", 'aria-label="Remplir Quatre avec 20'],
        ),
        (
            "sv-SE,sv;q=0.9",
            "Yatzy",
            "jokerregeln (tvingad joker) kräver Fyror",
            ["stängd, som för Ettor", ">Poäng<"],
        ),
        ("pt-BR,pt;q=0.9", "Yahtzee", "the forced Joker requires Fours", ["closed, as for Aces"]),
        ("", "Yahtzee", "the forced Joker requires Fours", [">Grand total<", ">State<"]),
    ],
)
def test_the_web_table_speaks_the_browser_s_language(
    header: str, label: str, reason: str, words: list[str]
) -> None:
    client = TestClient(create_app(rng=random.Random(1)))
    link = f"/play/{GameRecord.from_game(JOKER_GAME).share_code()}?seats=hh"
    page = client.get(link, headers={"Accept-Language": header} if header else {})
    assert page.status_code == 200
    text = html.unescape(page.text)
    assert f'<th scope="row">{label}</th>' in text
    assert reason in text
    for word in words:
        assert word in text
    assert page.headers["vary"] == "Accept-Language, Cookie"
    # the link and the moves stay language-neutral: the box's code is the same
    assert f'value="{Category.FOURS.code}"' in page.text


def test_every_page_of_the_web_table_speaks_the_browser_s_language() -> None:
    client = TestClient(create_app(rng=random.Random(1)))
    german = {"Accept-Language": "de-DE,de;q=0.9"}
    home = client.get("/", headers=german)
    assert '<html lang="de">' in home.text
    assert "Spiel starten" in home.text
    assert "gieriger Bot" in home.text
    assert 'placeholder="Spieler 3"' in home.text
    assert home.headers["vary"] == "Accept-Language, Cookie"
    assert "Start the game" in client.get("/").text  # English by default
    started = client.post("/new", data={"kind-0": "h", "kind-1": "g"}, headers=german)
    assert started.status_code == 200
    assert "Spieler 1 ist dran" in html.unescape(started.text)
    assert "Würfeln" in started.text
    record = GameRecord.from_share_code(str(started.url).split("/play/")[1].split("?")[0])
    assert record.game.players == ("Spieler 1", "Spieler 2")  # the names the page offered
    missing = client.get("/nowhere", headers={"Accept-Language": "es"})
    assert missing.status_code == 404
    assert "No encontrado" in missing.text
    assert "Empezar una partida nueva" in missing.text
    refused = client.get("/play/y1nonsense", headers={"Accept-Language": "sv"})
    assert refused.status_code == 400
    assert "Den här spellänken fungerar inte" in refused.text
    empty = client.post("/new", data={}, headers={"Accept-Language": "da"})
    assert empty.status_code == 400
    assert "Start spillet" in empty.text
    assert "every seat is empty" in empty.text  # the library's error stays English


def test_the_language_switch_is_kept_in_a_cookie_and_refuses_an_unknown_language() -> None:
    client = TestClient(create_app(rng=random.Random(1)))
    link = f"/play/{GameRecord.from_game(JOKER_GAME).share_code()}?seats=hh"
    page = client.get(link, headers={"Accept-Language": "de"})
    assert f'href="{html.escape(link)}&amp;lang=fr"' in page.text  # the switch's links
    assert 'aria-current="true" lang="de">Deutsch<' in page.text
    chosen = client.get(link + "&lang=fr", headers={"Accept-Language": "de"})
    assert "Au tour de Ann" in html.unescape(chosen.text)
    assert "lang=fr" in chosen.headers["set-cookie"]
    # the cookie outranks Accept-Language on the pages after, and on every page
    assert "Au tour de Ann" in html.unescape(
        client.get(link, headers={"Accept-Language": "de"}).text
    )
    assert "Commencer la partie" in client.get("/").text
    unknown = client.get(link + "&lang=tlh")
    assert unknown.status_code == 400
    text = html.unescape(unknown.text)
    assert "locale 'tlh'" in text
    assert "available: en, de, fr, sv, da, es" in text
    assert "Ce lien de partie ne fonctionne pas" in text  # in the kept language
    client.cookies.clear()
    client.cookies.set("lang", "xx-nonsense")  # a stale cookie is passed over
    assert "Kniffel-Tisch" in client.get("/", headers={"Accept-Language": "de"}).text


def _english_pieces(language: str, *contexts: str) -> list[str]:
    """The English words of ``contexts``' messages that ``language`` changes, cut at
    their fields, long enough not to be part of a name or a number."""
    from _scripts import load_script

    catalogues = load_script("compile_catalogues")
    translated = catalogues.po_messages(catalogues.sources()[language])
    return sorted(
        {
            piece.strip(" .,:;()'>")
            for (context, msgid), text in translated.items()
            if context in contexts and text != msgid
            for piece in msgid.replace("}", "{").split("{")[::2]
            if len(piece.strip(" .,:;()'>")) >= 6 and piece.strip(" .,:;()'>") not in text
        }
    )


def test_play_speaks_the_language_through_a_whole_game_and_takes_the_same_commands() -> None:
    fills = [f"f {category.code}" for category in Category]
    lines = ["help", "r 1 2", "undo", *fills[:1], "show", *fills[1:], ""]
    result = run(
        "play",
        "Ann",
        "--bot",
        "greedy",
        "Cy",
        "--seed",
        "4",
        "--lang",
        "de",
        stdin="\n".join(lines),
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Regeln: Hasbros klassisches Spiel" in out
    assert "Runde 1 - Ann - Wurf 1 von 3, noch 2 Würfe" in out
    assert "Befehle (die Würfel sind von 1 bis 5 nummeriert" in out
    assert "  r 1 3 4              die Würfel an den Positionen 1, 3 und 4 halten" in out
    assert "Ann würfelt und hält " in out
    assert "Zurückgenommen: der Wurf von Ann." in out
    assert "Ann füllt Einer mit " in out  # f 1, the same command in every language
    assert "Cy (greedy): " in out  # the bot's turns
    assert "; füllt " in out
    assert re.search(r"^Feld +Ann +Cy$", out, re.MULTILINE)
    assert re.search(r"^Kniffel +", out, re.MULTILINE)
    assert re.search(r"^  Würfel    \d(  \d){4}$", out, re.MULTILINE)
    assert re.search(r"^Auswürfeln: Ann \d+, Cy \d+$", out, re.MULTILINE)
    assert "Spiel vorbei." in out
    assert "Endstand: 1. " in out
    assert "Sieger: " in out
    # no English of the play command's own is left (the errors, for developers, are)
    shown = "\n".join(line for line in out.splitlines() if not line.startswith("error: "))
    english = _english_pieces("de", "play", "play help", "score sheet")
    assert "Cost of each choice in expected points" in english
    assert [words for words in english if words in shown] == []
    assert "Game over." in run("play", "Ann", "--seed", "4", stdin="\n".join(fills)).stdout


def test_play_refuses_an_unknown_language_before_the_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["play", "Ann", "--lang", "tlh"]) == 2
    err = capsys.readouterr().err
    assert "argument --lang: locale 'tlh'" in err
    assert "available: en, de, fr, sv, da, es" in err


@pty_only
def test_play_with_the_coach_on_80_by_24_in_french_keeps_the_screen_in_view() -> None:
    pytest.importorskip("numpy")
    term, screen = coach_screen("--lang", "fr")  # what the terminal shows at the prompt
    assert screen[-1] == "Ann> "
    assert screen[-3] == "  position  1  2  3  4  5"
    assert screen[-2].startswith("  dés       ")
    assert any("Coach : le mieux est 'r " in line for line in screen)
    assert any("Tour 1 - Ann - lancer 2 sur 3, encore 1 lancer" in line for line in screen)
    assert any(line.startswith("Yams ") for line in screen)  # the sheet beside the coach
    assert any(re.match(r"Case +Ann +Bob ", line) for line in screen)
    assert screen[0].startswith("Ann lance en gardant ")
    assert max(len(line) for line in screen) <= 80
    term.send("quit")
    assert "Enregistrer d'abord la partie ?" in term.expect("enregistrer dans le fichier> ")
    term.send("")
    assert "Partie non enregistrée dans un fichier." in term.expect("play --code")
    assert term.wait() == 0


def test_the_help_of_a_command_that_takes_lang_is_in_that_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    shown = run("play", "--help", "--lang", "de-CH")  # through the real program
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout
    assert out.startswith("Aufruf: yahtzee-rules play [-h]")
    assert "\nOptionen:\n" in out
    assert "diese Hilfe zeigen und beenden" in out
    assert "einen Computerspieler hinzufügen: KIND ist random, greedy oder optimal" in out
    assert "forced: Pflicht-Joker (Hasbro Classic)" in out  # the Joker rules' own names
    english = _english_pieces("de", "command line")
    assert "seed the dice, to replay a game" in english
    assert [words for words in english if words in out] == []

    def help_of(*words: str) -> str:
        assert main([words[0], "--help", *words[1:]]) == 0
        return capsys.readouterr().out

    # a command without --lang: English
    assert help_of("simulate", "--lang", "de").startswith("usage: yahtzee-rules simulate")
    assert help_of("rules", "--lang=fr").startswith("usage : yahtzee-rules rules")
    plain = help_of("score")
    assert plain.startswith("usage: yahtzee-rules score")
    assert "name the boxes and say why a box is closed in this language" in " ".join(plain.split())
    # an unknown language: English help (the parser refuses it when it is used)
    assert help_of("play", "--lang", "xx").startswith("usage: yahtzee-rules play")


def test_a_match_and_a_resumed_game_speak_the_language() -> None:
    match = run("play", "--match", "3", "--bot", "greedy", "Cy", "--bot", "random", "Bo",
                "--seed", "2", "--lang", "sv")  # fmt: skip
    assert match.returncode == 0, match.stderr
    out = match.stdout
    assert "Match: bäst av 3; delad seger vid lika högsta summa." in out
    assert re.search(r"^Spel 1 av bäst av 3: \w+ slår först\.$", out, re.MULTILINE)
    assert re.search(r"^Matchen efter spel 2: ", out, re.MULTILINE)
    assert re.search(r"^\w+ vinner matchen \(", out, re.MULTILINE)
    code = GameRecord.new(["Ann", "Bob"]).share_code()
    resumed = run("play", "--code", code, "--lang", "da", stdin="quit\n\n")
    assert "Fortsætter: Ann, Bob, runde 1." in resumed.stdout
    assert "Mennesker spiller hver plads ved denne terminal: Ann og Bob" in resumed.stdout
    assert [words for words in _english_pieces("sv", "play") if words in out] == []
    assert [words for words in _english_pieces("da", "play") if words in resumed.stdout] == []


def test_the_coach_of_a_game_of_two_speaks_the_language_through_a_pipe() -> None:
    pytest.importorskip("numpy")
    done = run(
        "play", "Ann", "Bob", "--coach", "--seed", "5", "--lang", "de", stdin="hint\nquit\n\n"
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Trainer: am besten 'r" in out
    assert "Kosten jeder Wahl in erwarteten Punkten:" in out
    assert "Gewinnchance: wird gezeigt, sobald jeder Spieler " in out  # early in the game
    assert [words for words in _english_pieces("de", "play") if words in out] == []
