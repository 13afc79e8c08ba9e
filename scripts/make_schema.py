"""Write the card-dependent parts of the shipped JSON Schema from the library's own cards.

Run: ``python scripts/make_schema.py`` rewrites ``src/yahtzee_rules/schema/v1.schema.json``;
``--check`` only says whether it is up to date (the test suite runs that). Box names and the
values each box can hold come from every :class:`~yahtzee_rules.Card`, so a new card needs
no hand-written schema: its documents name it with a ``"card"`` key, and the Classic card,
named by no key, keeps the version-1 shapes unchanged.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from pathlib import Path
from typing import Any

from yahtzee_rules import CLASSIC, Card, JokerRule, TieRule

SCHEMA = Path(__file__).resolve().parent.parent / "src/yahtzee_rules/schema/v1.schema.json"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def _prefix(card: Card) -> str:
    return "" if card is CLASSIC else f"{card.name}_"


def _named(card: Card) -> dict[str, Any]:
    """A condition that holds for objects naming ``card`` (Classic: naming none)."""
    if card is CLASSIC:
        return {"not": {"required": ["card"]}}
    return {"required": ["card"], "properties": {"card": {"const": card.name}}}


def _card_defs(card: Card) -> dict[str, Any]:
    prefix = _prefix(card)
    boxes = {box.name.lower(): {"enum": sorted(card.possible[box])} for box in card.members}
    title = card.title
    return {
        f"{prefix}category": {
            "description": f"A box of the {title} card, by its name in snake case.",
            "enum": [box.name.lower() for box in card.members],
        },
        f"{prefix}boxes": {
            "description": (
                f"The filled boxes of a {title} card in card order, each with a value some "
                f"roll can give; open boxes are left out."
            ),
            "type": "object",
            "additionalProperties": False,
            "properties": boxes,
        },
        f"{prefix}scorecard": {
            "type": "object",
            "additionalProperties": False,
            "required": ["boxes", "bonus_marks"],
            "properties": {
                "boxes": _ref(f"{prefix}boxes"),
                "bonus_marks": {"type": "integer", "minimum": 0, "maximum": len(card) - 1},
            },
        },
    }


def _by_card(cards: tuple[Card, ...], where: str, make: Any) -> dict[str, Any]:
    """``allOf`` of one if/then per card: when the object at ``where`` names it, apply ``make``."""
    rules: list[dict[str, Any]] = []
    for card in cards:
        condition: dict[str, Any] = _named(card)
        for key in reversed(where.split(".")) if where else ():
            condition = {"required": [key], "properties": {key: condition}}
        rules.append({"if": condition, "then": make(card)})
    return {"allOf": rules}


def build(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with every card-dependent definition written from the library's cards."""
    cards = tuple(Card.named(name) for name in Card.names(switched=True))
    others = [card.name for card in cards if card is not CLASSIC]
    defs = schema["$defs"]
    for card in cards:
        defs.update(_card_defs(card))
    card_key = {
        "description": "The card, for every card but Classic (which has no key).",
        "enum": others,
    }
    tie_key = {
        "description": "The tie rule, unless the tied players share the win (no key).",
        "enum": [rule.value for rule in TieRule if rule is not TieRule.SHARE],
    }
    placement = {
        "forced_yahtzee": {
            "description": "Forced Yahtzee: five of a kind goes in its open upper box (no key: off).",
            "const": True,
        },
        "in_order": {
            "description": "The boxes are filled in card order, as in Forced Yatzy (no key: off).",
            "const": True,
        },
    }
    joker_key = {"enum": [rule.value for rule in JokerRule]}
    rest = _without_key(
        _without_key(_without_key(defs["rules"], "tie"), "forced_yahtzee"), "in_order"
    )
    defs["rules"]["properties"] = {
        "card": card_key,
        **_without(rest, "card"),
        "joker": joker_key,
        "tie": tie_key,
        **placement,
    }
    rest = _without_key(
        _without_key(_without_key(defs["rules_document"], "tie"), "forced_yahtzee"), "in_order"
    )
    defs["rules_document"]["properties"] = {
        **_without(rest, "card"),
        "joker": joker_key,
        "card": card_key,
        "tie": tie_key,
        **placement,
    }
    for name, key, of in (
        ("scorecard_document", "boxes", "boxes"),
        ("category_document", "category", "category"),
        ("fill_document", "category", "category"),
    ):
        document = defs[name]
        base = {k: v for k, v in document.items() if k != "allOf"}
        base["properties"] = {**_without(base, "card"), "card": card_key}
        base["properties"][key] = {}
        defs[name] = {
            **base,
            **_by_card(
                cards,
                "",
                lambda card, key=key, of=of: {"properties": {key: _ref(_prefix(card) + of)}},
            ),
        }
    for name in ("game", "game_document"):
        game = {k: v for k, v in defs[name].items() if k != "allOf"}
        game["properties"]["cards"]["items"] = {}
        defs[name] = {
            **game,
            **_by_card(
                cards,
                "rules",
                lambda card: {
                    "properties": {"cards": {"items": _ref(_prefix(card) + "scorecard")}}
                },
            ),
        }
    turn_parts = defs["turn_document"]["allOf"]
    turn_parts[0]["properties"]["card"] = {}
    defs["turn_document"]["allOf"] = [
        *turn_parts[:2],
        *_by_card(
            cards,
            "rules",
            lambda card: {"properties": {"card": _ref(_prefix(card) + "scorecard")}},
        )["allOf"],
    ]
    defs["fill"]["properties"]["category"] = {"type": "string"}
    record = {k: v for k, v in defs["game_record_document"].items() if k != "allOf"}
    defs["game_record_document"] = {
        **record,
        **_by_card(
            cards,
            "start.rules",
            lambda card: {
                "properties": {
                    "actions": {
                        "items": {
                            "if": {"properties": {"type": {"const": "fill"}}},
                            "then": {"properties": {"category": _ref(_prefix(card) + "category")}},
                        }
                    }
                }
            },
        ),
    }
    body = copy.deepcopy(defs["game_record_document"])
    body["required"] = [key for key in body["required"] if key not in ("version", "type")]
    body["properties"] = {
        key: value for key, value in body["properties"].items() if key not in ("version", "type")
    }
    defs["game_record"] = body
    defs["match_document"] = {
        "type": "object",
        "additionalProperties": False,
        "required": ["version", "type", "best_of", "records"],
        "properties": {
            "version": {"const": 1},
            "type": {"const": "match"},
            "best_of": {"type": "integer", "minimum": 1, "maximum": 99, "not": {"multipleOf": 2}},
            "records": {"type": "array", "minItems": 1, "items": _ref("game_record")},
        },
    }
    if _ref("match_document") not in schema["oneOf"]:
        schema["oneOf"].append(_ref("match_document"))
    return schema


def _without(definition: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in definition["properties"].items() if k != key}


def _without_key(definition: dict[str, Any], key: str) -> dict[str, Any]:
    return {**definition, "properties": _without(definition, key)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check; write nothing")
    args = parser.parse_args(argv)
    current = SCHEMA.read_text(encoding="utf-8")
    text = json.dumps(build(json.loads(current)), indent=2, ensure_ascii=False) + "\n"
    if args.check:
        if text != current:
            print(f"{SCHEMA} is out of date: run python scripts/make_schema.py", file=sys.stderr)
            return 1
        return 0
    SCHEMA.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
