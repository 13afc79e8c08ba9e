"""Throw random and mutated input at every reader and constructor, and report what happened.

Run: ``python scripts/fuzz.py --seconds 300 --seed 1`` (or ``--inputs N`` for a fixed
count; the test suite runs ``run(seed=0, inputs=...)``, so CI's run is derandomised).
Each input goes to one reader: the notation parsers, ``from_notation``, ``from_json``
(text and bytes), ``from_dict``, share codes, ``Rules.from_name``, the value
constructors, the command line's ``play --load`` reader, and the environments' ``step``
(Gymnasium, PettingZoo) and ``apply_action`` (OpenSpiel) with hostile actions after a
seeded ``reset``, where those packages are installed, and the web table's handlers
(hostile requests to every route through its ASGI application) where the web extra
is. Inputs are made from a
corpus of valid values of every kind, on every card, in every format, by editing
characters, splicing, truncating, duplicating, nesting and changing document nodes, or
are random text, bytes and data.

The rules checked: only a :class:`~yahtzee_rules.RulesError` (or, from the command
line's reader, its usage error) may escape; an environment plays only an int or NumPy
integer its mask allows, and refuses anything else leaving the game as it was; the
web table answers every request with a page or a redirect, never a server error;
whatever is accepted is a valid value that
the validating constructors build again and that writes and reads back in its formats;
and no single read takes longer than ``--slow`` seconds. The report counts accepted and
refused inputs per reader and lists every finding with the input that caused it (as
``repr``, shortened); the exit status is 1 when there is a finding.
"""

from __future__ import annotations

import argparse
import base64
import copy
import json
import os
import random
import string
import sys
import tempfile
import time
import urllib.parse
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from yahtzee_rules import (
    CLASSIC,
    YACHT,
    YATZY,
    Category,
    Dice,
    Fill,
    Game,
    GameRecord,
    JokerRule,
    Keep,
    Roll,
    Rules,
    RulesError,
    Scorecard,
    TieRule,
    Turn,
    from_dict,
    from_json,
    from_notation,
    to_dict,
    to_json,
)
from yahtzee_rules.core.boxes import card_of
from yahtzee_rules.formats import notation

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # shared with the tests

from _kinds import KINDS

#: Values a web form field takes on the table's own pages, beside the hostile ones.
KINDS_OF_FIELD = {
    "hold": ("0", "1", "4"),
    "box": ("c", "fh", "6", "y"),
    "kind-0": ("h", "g", "r", "o"),
    "rules": ("forced", "yacht", "yatzy", "triple"),
    "tie": ("share", "play-off", "upper-total"),
}

ALPHABET = string.digits + '-=+,/@: abcdefhklnorsuyAPF%\t{}[]"_yYQw' + "\u00e9\U000f0000"


@dataclass
class Report:
    """Counts per reader and every finding."""

    accepted: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    findings: list[str] = field(default_factory=list)
    slowest: tuple[float, str] = (0.0, "")

    @property
    def total(self) -> int:
        return sum(self.accepted.values()) + sum(self.refused.values())

    def lines(self) -> list[str]:
        out = [f"{self.total} inputs, {len(self.findings)} findings"]
        for name in sorted(set(self.accepted) | set(self.refused)):
            out.append(f"  {name}: {self.accepted[name]} accepted, {self.refused[name]} refused")
        out.append(f"  slowest read: {self.slowest[0]:.3f} s ({self.slowest[1]})")
        out.extend(f"FINDING: {finding}" for finding in self.findings)
        return out


# --- the corpus ------------------------------------------------------------------------


def random_rules(rng: random.Random) -> Rules:
    card = rng.choice((CLASSIC, YACHT, YATZY))
    if card is not CLASSIC and rng.random() < 0.5:
        return Rules.for_card(card)
    values = (0, 35, 63, 100, 999_999_999)
    try:
        return Rules(
            card=card,
            joker=rng.choice(tuple(JokerRule)) if card.yahtzee else JokerRule.NONE,
            tie=rng.choice(tuple(TieRule)),
            upper_bonus=rng.choice(values),
            upper_bonus_threshold=rng.choice(values),
            yahtzee_bonus=rng.choice(values) if card.yahtzee else 0,
        )
    except RulesError:
        return Rules.for_card(card)


def random_name(rng: random.Random) -> str:
    length = rng.choice((1, 3, 8, 100))
    return (
        "".join(rng.choice("Ann Bob%,:\u00e9\U000f0000xyz") for _ in range(length)).strip() or "A"
    )


def random_record(rng: random.Random) -> GameRecord:
    rules = random_rules(rng)
    players = sorted({random_name(rng) for _ in range(rng.randint(1, 4))})
    record = GameRecord.new(players, rules=rules, first=rng.randrange(len(players)))
    for _ in range(rng.randint(0, 6 * len(players))):
        game = record.game
        if game.is_over:
            break
        if game.dice is None or (game.rolls_left and rng.random() < 0.5):
            keep = () if game.dice is None else rng.sample(game.dice.faces, rng.randint(0, 4))
            outcome = [rng.randint(1, 6) for _ in range(5 - len(keep))]
            record = record.roll(keep=keep, outcome=outcome)
        else:
            record = record.fill(rng.choice(tuple(game.options)))
    return record


def corpus(rng: random.Random, size: int) -> list[object]:
    values: list[object] = []
    for _ in range(size):
        record = random_record(rng)
        game = record.game
        values.append(record)
        values.append(game)
        values.append(game.cards[game.current])
        values.append(game.rules)
        if game.turn is not None:
            values.append(game.turn)
            if game.dice is not None:
                values.append(game.dice)
                values.append(Keep(game.dice.faces[: rng.randint(0, 5)]))
        if record.actions:
            values.append(rng.choice(record.actions))
        values.append(rng.choice(game.rules.card.members))
    return values


# --- mutations -------------------------------------------------------------------------


def mutate_text(rng: random.Random, text: str, other: str) -> str:
    for _ in range(rng.randint(1, 3)):
        position = rng.randint(0, len(text))
        choice = rng.randrange(7)
        if choice == 0:
            text = (
                text[:position]
                + "".join(rng.choices(ALPHABET, k=rng.randint(1, 3)))
                + text[position:]
            )
        elif choice == 1:
            text = text[:position] + text[position + rng.randint(1, 3) :]
        elif choice == 2 and text:
            index = rng.randrange(len(text))
            text = text[:index] + rng.choice(ALPHABET) + text[index + 1 :]
        elif choice == 3:
            text = text[:position]
        elif choice == 4:
            end = rng.randint(position, len(text))
            text = text[:end] + text[position:end] * rng.choice((1, 2, 50)) + text[end:]
        elif choice == 5:
            cut = rng.randint(0, len(other))
            text = text[:position] + other[cut:]
        else:
            text = text.swapcase() if rng.random() < 0.5 else text[::-1]
    return text


def forge(rng: random.Random, code: str) -> str:
    """``code`` with its bytes edited and a checksum that matches them."""
    body = code[2:]
    data = bytearray(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))[:-4])
    for _ in range(rng.randint(1, 3)):
        position = rng.randint(0, len(data))
        choice = rng.randrange(5)
        if choice == 0:
            data[position:position] = bytes(
                rng.choice((0, 1, 3, 32, 44, 127, 128, 255)) for _ in range(rng.randint(1, 3))
            )
        elif choice == 1:
            del data[position : position + rng.randint(1, 3)]
        elif choice == 2 and data:
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        elif choice == 3:
            end = rng.randint(position, len(data))
            data[end:end] = data[position:end] * rng.choice((1, 2, 40))
        else:
            del data[position:]
    data += zlib.crc32(data).to_bytes(4, "big")
    return "y1" + base64.urlsafe_b64encode(bytes(data)).rstrip(b"=").decode("ascii")


def json_like(rng: random.Random, depth: int = 0) -> Any:
    choice = rng.randrange(9 if depth < 4 else 6)
    if choice == 0:
        return None
    if choice == 1:
        return rng.choice((True, False))
    if choice == 2:
        return rng.choice((0, 1, -1, 5, 50, 10**9, 10**5000 if rng.random() < 0.1 else 7))
    if choice == 3:
        return rng.choice((0.5, float("nan"), float("inf"), 1e300))
    if choice == 4:
        return "".join(rng.choices(ALPHABET, k=rng.randint(0, 8)))
    if choice == 5:
        return rng.choice(
            ("dice", "game", "game_record", "roll", "fill", "forced", "yacht", "chance")
        )
    if choice in (6, 7):
        return [json_like(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    keys = ("version", "type", "faces", "boxes", "bonus_marks", "players", "turn", "card", "x")
    return {rng.choice(keys): json_like(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def mutate_document(rng: random.Random, document: Any) -> Any:
    document = copy.deepcopy(document)
    for _ in range(rng.randint(1, 3)):
        paths: list[list[Any]] = [[]]
        stack: list[tuple[list[Any], Any]] = [([], document)]
        while stack:
            path, node = stack.pop()
            items = (
                node.items()
                if isinstance(node, dict)
                else enumerate(node)
                if isinstance(node, list)
                else ()
            )
            for key, child in items:
                paths.append([*path, key])
                stack.append(([*path, key], child))
        path = rng.choice(paths)
        if not path:
            continue
        parent = document
        for step in path[:-1]:
            parent = parent[step]
        key = path[-1]
        choice = rng.randrange(5)
        if choice == 0 and isinstance(parent, dict):
            del parent[key]
        elif choice == 1 and type(parent[key]) is int:
            parent[key] += rng.choice((-1, 1, -5, 5, 100, 10**9))
        elif choice == 2 and isinstance(parent[key], list):
            parent[key] = parent[key] * rng.choice((0, 2, 60))
        elif choice == 3:
            nested: Any = parent[key]
            for _ in range(rng.choice((1, 2, 5000))):
                nested = [nested]
            parent[key] = nested
        else:
            parent[key] = json_like(rng)
    return document


# --- readers ---------------------------------------------------------------------------


def _load_game(text: str) -> object:
    """The command line's ``play --load`` reader, on a save file holding ``text``."""
    from yahtzee_rules.apps.cli._extras import load_game

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as file:
        file.write(text)
    try:
        record, _ = load_game(file.name)
        return record
    finally:
        os.unlink(file.name)


def _save_text(record: GameRecord) -> str:
    document = {
        "format": "yahtzee-rules saved game",
        "version": 1,
        "computer_players": {},
        "record": str(record),
    }
    return json.dumps(document, indent=2)


def revalidate(value: object) -> None:
    """Build ``value`` again through the validating constructors and its formats."""
    kind = type(value)
    if isinstance(value, Scorecard):
        assert Scorecard(value.boxes, bonus_marks=value.bonus_marks, card=value.card) == value
    elif isinstance(value, Turn):
        revalidate(value.card)
        Turn(value.card, rules=value.rules, dice=value.dice, rolls_used=value.rolls_used)
    elif isinstance(value, Game):
        for card in value.cards:
            revalidate(card)
        if value.turn is not None:
            revalidate(value.turn)
        Game(
            value.players,
            rules=value.rules,
            cards=value.cards,
            first=value.first,
            current=value.current,
            turn=value.turn,
        )
    elif isinstance(value, GameRecord):
        revalidate(value.start)
        assert GameRecord(value.start, value.actions).game == value.game
        revalidate(value.game)
        assert GameRecord.from_share_code(value.share_code()) == value
    if kind in KINDS:
        assert from_dict(to_dict(value), kind) == value
        assert from_json(to_json(value), kind) == value
        # A lone fill's notation is a box code, read on the card of the rules given.
        own = Rules.for_card(card_of(value.category)) if isinstance(value, Fill) else None
        assert from_notation(notation.to_notation(value), kind, rules=own) == value


@dataclass
class Fuzzer:
    rng: random.Random
    values: list[object]
    slow: float
    report: Report = field(default_factory=Report)
    client: Any = None  # the web table's test client, made on first use

    def attempt(self, reader: str, call: Callable[[], object], shown: object) -> None:
        from yahtzee_rules.apps.cli.console import AppError

        start = time.perf_counter()
        try:
            value = call()
        except RulesError as error:
            if not str(error):
                self.report.findings.append(f"{reader}: an empty message for {_brief(shown)}")
            self.report.refused[reader] += 1
            value = None
        except AppError:
            if reader != "play --load":
                self.report.findings.append(f"{reader}: AppError escaped for {_brief(shown)}")
            self.report.refused[reader] += 1
            value = None
        except Exception as error:
            self.report.findings.append(
                f"{reader}: {type(error).__name__} {_brief(str(error))} for {_brief(shown)}"
            )
            return
        else:
            self.report.accepted[reader] += 1
        took = time.perf_counter() - start
        if took > self.report.slowest[0]:
            self.report.slowest = (took, reader)
        if took > self.slow:
            self.report.findings.append(f"{reader}: {took:.2f} s for {_brief(shown)}")
        if value is not None:
            try:
                revalidate(value)
            except Exception as error:
                self.report.findings.append(
                    f"{reader}: accepted an invalid value ({type(error).__name__} {_brief(str(error))}) "
                    f"from {_brief(shown)}"
                )

    def one(self) -> None:
        rng = self.rng
        value = rng.choice(self.values)
        other = rng.choice(self.values)
        kind = rng.choice(KINDS) if rng.random() < 0.2 else type(value)
        if kind not in KINDS:
            kind = Category
        form = rng.randrange(9)
        if form == 0:  # notation, edited, to every text reader of its kind
            text = mutate_text(rng, notation.to_notation(value), notation.to_notation(other))
            self.attempt(f"from_notation[{kind.__name__}]", lambda: from_notation(text, kind), text)
            parser = {
                Rules: Rules.parse,
                Scorecard: Scorecard.parse,
                Turn: Turn.parse,
                Game: Game.parse,
            }
            if kind in parser:
                self.attempt(f"{kind.__name__}.parse", lambda: parser[kind](text), text)
            if kind is GameRecord:
                self.attempt("GameRecord.parse", lambda: GameRecord.parse(text), text)
        elif form == 1:  # JSON text, edited, as text or bytes
            text = mutate_text(rng, to_json(value), to_json(other))
            data: str | bytes = (
                text.encode("utf-8", "surrogatepass") if rng.random() < 0.3 else text
            )
            self.attempt(f"from_json[{kind.__name__}]", lambda: from_json(data, kind), text)
        elif form == 2:  # documents with edited nodes
            document = mutate_document(rng, to_dict(value))
            self.attempt(f"from_dict[{kind.__name__}]", lambda: from_dict(document, kind), document)
        elif form == 3:  # share codes, edited
            record = value if isinstance(value, GameRecord) else random_record(rng)
            if rng.random() < 0.5:  # forged: edit the bytes and write a good checksum
                text = forge(rng, record.share_code())
                self.attempt(
                    "from_share_code (forged)", lambda: GameRecord.from_share_code(text), text
                )
            else:
                text = mutate_text(
                    rng, record.share_code(), "y1" + rng.choice(string.ascii_letters) * 8
                )
                self.attempt("from_share_code", lambda: GameRecord.from_share_code(text), text)
        elif form == 4:  # random text or bytes anywhere
            junk = "".join(rng.choices(ALPHABET + string.printable, k=rng.randint(0, 60)))
            name = rng.choice(("from_notation", "from_json", "from_share_code", "Rules.from_name"))
            call: Callable[[], object] = {
                "from_notation": lambda: from_notation(junk, kind),
                "from_json": lambda: from_json(junk.encode() if rng.random() < 0.5 else junk, kind),
                "from_share_code": lambda: GameRecord.from_share_code("y1" + junk),
                "Rules.from_name": lambda: Rules.from_name(junk),
            }[name]
            self.attempt(name, call, junk)
        elif form == 5:  # random data
            data_value = json_like(rng)
            self.attempt(
                f"from_dict[{kind.__name__}]", lambda: from_dict(data_value, kind), data_value
            )
        elif form == 6:  # constructors with odd arguments
            self.constructors()
        elif form == 7:  # the environments, with hostile actions
            self.environments() if rng.random() < 0.5 else self.web()
        else:  # the command line's save-file reader
            record = value if isinstance(value, GameRecord) else random_record(rng)
            text = _save_text(record)
            if rng.random() < 0.8:
                text = mutate_text(rng, text, _save_text(random_record(rng)))
            self.attempt("play --load", lambda: _load_game(text), text)

    def environments(self) -> None:
        rng = self.rng
        try:
            import numpy as np

            from yahtzee_rules.integrations import rl, spiel, zoo
        except ImportError:  # the rl and openspiel extras are not installed: nothing to try
            return
        import pyspiel

        hostile: list[object] = [
            None, True, False, np.True_, 32.9, 3.0, float("nan"), float("inf"), -float("inf"),
            "33", "\u0663\u0663", "3_3", " 3", b"3", 3 + 0j, [3], (3,), {3: 3},
            np.float64(3.0), np.array([3]), np.array(3.5), 10**30, -1, -(2**63), 2**64,
            10**5000, rng.randint(-100, 300),
        ]  # fmt: skip
        choice = rng.randrange(3)
        seed = rng.randrange(2**32)
        mask: Callable[[], Any]
        state: Callable[[], str]
        act: Callable[[Any], object]
        if choice == 0:
            env = rl.SolitaireEnv(rng.choice((None, Rules.for_card(YACHT), Rules.for_card(YATZY))))
            env.reset(seed=seed)
            mask = lambda: env.action_mask()  # noqa: E731
            state = lambda: str(env._game)  # noqa: E731
            act = env.step
            reader = "SolitaireEnv.step"
        elif choice == 1:
            game = zoo.GameEnv(players=rng.randint(1, 4))
            game.reset(seed=seed)
            mask = lambda: game.observe(game.agent_selection)["action_mask"]  # noqa: E731
            state = lambda: str(game._play.game)  # noqa: E731
            act = game.step
            reader = "GameEnv.step"
        else:
            spiel_state = pyspiel.load_game(spiel.GAME_NAME, {"players": rng.randint(1, 3)})
            position = spiel_state.new_initial_state()
            position.apply_action(rng.randrange(252))

            def spiel_mask() -> Any:
                legal = np.zeros(300, dtype=np.int8)
                actions = (
                    [a for a, _ in position.chance_outcomes()]
                    if position.is_chance_node()
                    else position.legal_actions()
                )
                legal[actions] = 1
                return legal

            mask, state, act = spiel_mask, lambda: str(position), position.apply_action
            reader = "OpenSpiel apply_action"
            # ints only, of 64 bits, and not OpenSpiel's own kInvalidAction (-1): the
            # binding refuses the rest with its own errors before the game sees them
            hostile = [rng.randint(-(2**63), 2**63 - 1), rng.randint(-100, 400), 999, 252, 45]
            hostile = [h for h in hostile if h != -1]
        for _ in range(rng.randint(0, 8)):  # a few legal moves first, into the game
            legal = np.flatnonzero(mask())
            if not len(legal):
                break
            act(int(rng.choice(list(legal))))
        if not np.flatnonzero(mask()).size:
            return
        action: Any = rng.choice(hostile)
        legal_now = mask()

        def step() -> object:
            before = state()
            is_action = isinstance(action, (int, np.integer)) and not isinstance(
                action, (bool, np.bool_)
            )
            try:
                act(action)
            except RulesError:
                assert state() == before, "refused, but the game changed"
                raise
            assert is_action, "played a value that is not an int"
            number = int(action)  # an int: checked above
            assert 0 <= number < len(legal_now), "played an action out of range"
            assert legal_now[number], "played an action the mask forbids"
            return None

        self.attempt(reader, step, action)

    def web(self) -> None:
        """A hostile request to the web table: any route, with edited share codes, query
        parameters, form fields and headers. It must get an answer, never a server error."""
        rng = self.rng
        if self.client is None:
            try:
                from starlette.testclient import TestClient

                from yahtzee_rules.apps.web import create_app
            except ImportError:  # the web extra is not installed: nothing to try
                return
            self.client = TestClient(create_app(rng=random.Random(0)))
        client = self.client
        record = random_record(rng)
        code = record.share_code()
        if rng.random() < 0.6:
            code = forge(rng, code) if rng.random() < 0.5 else mutate_text(rng, code, "y1")
        odd = ("\u00b2", "\u2460", "\u0661", "-1", "5", "0", "", "x" * rng.randint(0, 3000))
        seats = "".join(rng.choices("hrgo?\u0661", k=rng.randint(0, 10)))
        query = {"seats": seats}
        for name in ("coach", "sig", "hold"):
            if rng.random() < 0.3:
                query[name] = rng.choice(odd)
        move = rng.choice(("", "/roll", "/fill", "/bot", "/coach", "/review", "/new", "/health"))
        where = urllib.parse.quote(code, safe="")  # a browser sends the link %-encoded
        path = {"/new": "/new", "/health": "/health", "/review": f"/review/{where}"}.get(
            move, f"/play/{where}{move}"
        )
        form: list[tuple[str, str]] = []
        for _ in range(rng.randint(0, 8)):
            field_name = rng.choice(("hold", "box", "name-0", "kind-0", "kind-9", "rules", "tie"))
            form.append((field_name, rng.choice((*odd, *KINDS_OF_FIELD.get(field_name, ())))))
        headers = {}
        if rng.random() < 0.2:
            headers["Host"] = rng.choice(("evil.example", "", "a" * 300))
        if rng.random() < 0.1:
            headers["Content-Length"] = rng.choice(("10000000000", "-1", "1e3", "abc"))

        def request() -> object:
            if move in ("", "/review", "/health"):
                answer = client.get(path, params=query, headers=headers)
            else:
                body = urllib.parse.urlencode(form).encode("ascii")
                sent = {"Content-Type": "application/x-www-form-urlencoded", **headers}
                answer = client.post(path, params=query, content=body, headers=sent)
            if answer.status_code >= 500:
                raise AssertionError(f"the server answered {answer.status_code}")
            if answer.status_code >= 400:
                if "text/html" not in answer.headers.get("content-type", ""):
                    raise AssertionError(f"a {answer.status_code} that is not a page")
                raise RulesError(f"refused with {answer.status_code}")
            return None

        self.attempt(f"web {move or '/play'}", request, (path, query, form, headers))

    def constructors(self) -> None:
        rng = self.rng
        odd = json_like(rng)
        faces: list[object] = [rng.randint(1, 6) for _ in range(rng.choice((0, 1, 4, 5, 5, 6)))]
        if faces and rng.random() < 0.5:  # one odd face
            odd_faces = (0, 7, True, 3.0, "3", None, 10**5000)
            faces[rng.randrange(len(faces))] = rng.choice(odd_faces)
        name = rng.choice(("Dice", "Keep", "Scorecard", "Rules", "Game.new", "Turn", "Roll"))
        call: Callable[[], object] = {
            "Dice": lambda: Dice(faces),
            "Keep": lambda: Keep(faces),
            "Scorecard": lambda: Scorecard({Category.CHANCE: rng.choice((0, 5, 30, 31, odd))}),
            "Rules": lambda: Rules(upper_bonus=rng.choice((0, 35, 10**9, -1, odd))),
            "Game.new": lambda: Game.new(
                rng.choice(
                    (
                        odd,
                        rng.randint(-2, 60),
                        [random_name(rng) for _ in range(rng.randint(0, 60))],
                    )
                )
            ),
            "Turn": lambda: Turn(
                dice=rng.choice((None, "12345", odd)), rolls_used=rng.choice((0, 1, 3, 4, odd))
            ),
            "Roll": lambda: Roll(faces, keep=rng.choice(("", "1", odd))),
        }[name]
        self.attempt(name, call, (name, faces, odd))


def _brief(value: object) -> str:
    try:
        text = repr(value)
    except ValueError:  # an int too long to print, deep inside
        text = f"<a {type(value).__name__} that repr() refuses>"
    return text if len(text) <= 200 else f"{text[:200]}... ({len(text)} characters)"


def run(
    seed: int, *, seconds: float | None = None, inputs: int | None = None, slow: float = 2.0
) -> Report:
    """Fuzz for ``seconds`` or ``inputs`` inputs from ``seed``; the report of what happened."""
    rng = random.Random(seed)
    fuzzer = Fuzzer(rng, corpus(rng, 40), slow)
    deadline = None if seconds is None else time.monotonic() + seconds
    limit = sys.getrecursionlimit()
    try:
        while (inputs is None or fuzzer.report.total + len(fuzzer.report.findings) < inputs) and (
            deadline is None or time.monotonic() < deadline
        ):
            fuzzer.one()
    finally:
        sys.setrecursionlimit(limit)
    return fuzzer.report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0, help="the random seed (default 0)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--seconds", type=float, help="run for this long")
    group.add_argument("--inputs", type=int, help="run this many inputs (default 2,000)")
    parser.add_argument("--slow", type=float, default=2.0, help="report reads slower than this (s)")
    arguments = parser.parse_args(argv)
    inputs = arguments.inputs
    if inputs is None and arguments.seconds is None:
        inputs = 2000
    started = time.monotonic()
    report = run(arguments.seed, seconds=arguments.seconds, inputs=inputs, slow=arguments.slow)
    print(f"seed {arguments.seed}, {time.monotonic() - started:.0f} s")
    print("\n".join(report.lines()))
    return 1 if report.findings else 0


if __name__ == "__main__":
    sys.exit(main())
