"""What the scripts that publish measured figures on a docs page share.

Such a script measures (``--write``: plays the games, stores the raw figures in a JSON
file beside the page, then renders them into the page), re-renders the page from the
stored file (``--render``), or checks that the page's block is the rendering of the
stored file (``--check``, which plays nothing). The block sits between the comments
``<!-- NAME: begin -->`` and ``<!-- NAME: end -->`` of the page.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Z99 = 2.5758293035489004  # the two-sided 99 % point of the normal distribution


@dataclass(frozen=True)
class Published:
    """One page's figures: the JSON file that keeps them and the block that shows them."""

    data: Path
    page: Path
    format: str  # the file's "format" field: files this script wrote say it
    marker: str  # NAME in the page's begin and end comments
    names: tuple[str, ...]  # the strategies the file must list, in order

    def _markers(self) -> tuple[str, str]:
        return f"<!-- {self.marker}: begin -->", f"<!-- {self.marker}: end -->"

    def block(self) -> list[str]:
        """The lines of the page's block as it is now."""
        begin, end = self._markers()
        text = self.page.read_text(encoding="utf-8")
        return text.split(begin, 1)[1].split(end, 1)[0].strip("\n").split("\n")

    def write_block(self, lines: list[str]) -> None:
        """Put ``lines`` in the page's block."""
        begin, end = self._markers()
        text = self.page.read_text(encoding="utf-8")
        head, rest = text.split(begin, 1)
        tail = rest.split(end, 1)[1]
        self.page.write_text(f"{head}{begin}\n" + "\n".join(lines) + f"\n{end}{tail}", "utf-8")

    def check_format(self, data: object) -> dict[str, Any]:
        """``data`` if it is a file this script wrote for these strategies; else exit."""
        if not isinstance(data, dict) or data.get("format") != self.format:
            raise SystemExit(f"{self.data}: not a file this script wrote")
        if data.get("version") != 1:
            raise SystemExit(f"{self.data}: not a file this script wrote")
        names = [row.get("name") for row in data.get("strategies", [])]
        if names != list(self.names):
            raise SystemExit(f"{self.data}: its strategies {names} are not {list(self.names)}")
        return data

    def main(
        self,
        argv: list[str] | None,
        *,
        description: str,
        games: int,
        play: Callable[[int, int, int], dict[str, Any]],
        render: Callable[[dict[str, Any]], list[str]],
    ) -> int:
        """The command line: ``--games``, ``--seed``, ``--workers`` and one of ``--write``,
        ``--check``, ``--render`` (none: measure and print only)."""
        parser = argparse.ArgumentParser(description=description)
        parser.add_argument("--games", type=int, default=games)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--workers", type=int, default=1)
        action = parser.add_mutually_exclusive_group()
        action.add_argument(
            "--write", action="store_true", help="store the figures, render the page"
        )
        action.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
        action.add_argument("--render", action="store_true", help="render the page from the JSON")
        args = parser.parse_args(argv)
        if args.check or args.render:
            data = self.check_format(json.loads(self.data.read_text(encoding="utf-8")))
            if args.render:
                self.write_block(render(data))
                return 0
            if self.block() != render(data):
                print(
                    f"{self.page}: its {self.marker} block is not the rendering of {self.data}",
                    file=sys.stderr,
                )
                return 1
            return 0
        data = play(args.games, args.seed, args.workers)
        print("\n".join(render(data)))
        if args.write:
            self.data.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
            self.write_block(render(data))
        return 0
