"""Speed of the notation, JSON and share codes for a finished four-player game record.

Run: ``python benchmarks/bench_notation.py`` (``--quick`` for a short run).
Figures are printed, never asserted; each is the best of several repeats.

Targets (2-core machine): format and parse a finished four-player game record
(every turn uses all three rolls, 208 actions) in at most 1 ms each.
"""

from __future__ import annotations

import argparse
import random
import sys

from _timing import best_of

from yahtzee_rules import GameRecord, from_json, to_json


def finished_record(players: int = 4, seed: int = 2026) -> GameRecord:
    """A finished game in which every turn rolls three times: the longest record there is."""
    rng = random.Random(seed)
    record = GameRecord.new(["Ann", "Bob", "Cy", "Di"][:players])
    while not record.game.is_over:
        record = record.roll(rng)
        for _ in range(2):
            dice = record.game.dice
            assert dice is not None
            record = record.roll(rng, keep=rng.choice(dice.keeps()))
        record = record.fill(rng.choice(tuple(record.game.options)))
    return record


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    args, _ = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    repeats = 3 if args.quick else 7
    number = 50 if args.quick else 200

    record = finished_record()
    text = str(record)
    json_text = to_json(record)
    code = record.share_code()
    assert GameRecord.parse(text) == record
    assert from_json(json_text, GameRecord) == record
    assert GameRecord.from_share_code(code) == record

    print(f"notation: a finished 4-player game record, {len(record.actions)} actions")
    print(
        f"  sizes: notation {len(text):,} characters, JSON {len(json_text):,}, "
        f"share code {len(code):,}"
    )
    rows = [
        ("format  str(record)", lambda: str(record)),
        ("parse   GameRecord.parse", lambda: GameRecord.parse(text)),
        ("write   to_json", lambda: to_json(record)),
        ("read    from_json", lambda: from_json(json_text, GameRecord)),
        ("encode  share_code", record.share_code),
        ("decode  from_share_code", lambda: GameRecord.from_share_code(code)),
    ]
    for label, func in rows:
        seconds = best_of(repeats, number, func)
        target = " (target <= 1 ms)" if label.startswith(("format", "parse")) else ""
        print(f"  {label:<26} {seconds * 1e3:.3f} ms{target}")


if __name__ == "__main__":
    main()
