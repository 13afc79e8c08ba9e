"""The "Playing to win" page's figures are the script's rendering of its stored results.

``scripts/play_to_win.py --write`` plays the tournaments, keeps their raw results in
``docs/explanation/play-to-win.json`` and writes the page's marked block from them;
``--check`` (run here: it plays no games) fails when the block is not that rendering,
or when the file is not one the script wrote.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from _scripts import check_runs_light, load_script
from yahtzee_rules import GreedyStrategy, RandomStrategy, Strategy
from yahtzee_rules.bots.arena import tournament

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "play_to_win.py"


def _results() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ROOT / "docs/explanation/play-to-win.json").read_text())
    return data


def test_the_play_to_win_page_matches_its_stored_results() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


def test_the_check_plays_no_games() -> None:
    # The check must stay cheap: it never loads the solver (nor numpy).
    check_runs_light("play_to_win", "numpy", "yahtzee_rules.bots.solver")


def test_the_published_runs_show_win_strategy_ahead_head_to_head() -> None:
    runs = {run["field"]: run for run in _results()["runs"]}
    assert set(runs) == {2, 4, 10}
    head = runs[2]
    assert head["games"] == 2 * head["deals"]
    assert head["confidence"] == 0.99
    match = head["head_to_head"][0]
    assert (match["first"], match["second"]) == ("WinStrategy", "OptimalStrategy")
    assert match["interval"][0] > 0.5  # significantly more than half
    page = (ROOT / "docs/explanation/play-to-win.md").read_text(encoding="utf-8")
    for run in runs.values():
        assert run["command"] in page
        assert f"{run['deals']:,}" in page


def test_a_hand_edited_block_fails_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_script("play_to_win")
    page = (ROOT / "docs/explanation/play-to-win.md").read_text(encoding="utf-8")
    results = tmp_path / "play-to-win.json"
    results.write_text(json.dumps(_results()), encoding="utf-8")
    copy = tmp_path / "play-to-win.md"
    monkeypatch.setattr(script, "RESULTS", results)
    monkeypatch.setattr(script, "PAGE", copy)
    monkeypatch.setattr(script, "ROOT", tmp_path)
    copy.write_text(page, encoding="utf-8")
    assert script.main(["--check"]) == 0
    start, end = script.block(page)
    figures = page[start:end]
    share = f"{100 * _results()['runs'][0]['standings'][0]['win_share']:.2f} %"
    assert share in figures
    copy.write_text(page[:start] + figures.replace(share, "60.00 %") + page[end:])
    assert script.main(["--check"]) == 1
    assert "out of date" in capsys.readouterr().err
    assert script.main(["--render"]) == 0
    assert copy.read_text(encoding="utf-8") == page
    copy.write_text(page.replace(script.END, ""), encoding="utf-8")
    assert script.main(["--check"]) == 1
    assert "no single block" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("format",), 2, "format 2"),
        (("runs", 0, "games"), 3, "3 games"),
        (("runs", 0, "deals"), 0, "1 or more deals"),
        (("runs", 0, "command"), "python scripts/play_to_win.py", "command"),
        (("runs", 0, "standings", 0, "name"), "Bob", "standings for"),
        (("runs", 0, "standings", 0, "win_interval"), [0.0, 0.1], "does not hold the share"),
        (("runs", 0, "head_to_head", 0, "share"), "half", "is not a float"),
        (("runs", 0, "seconds"), True, "is not a float"),
    ],
)
def test_a_results_file_the_script_did_not_write_fails(
    path: tuple[str | int, ...], value: object, message: str
) -> None:
    script = load_script("play_to_win")
    data = _results()
    assert script.check_results(data)
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(script.ResultsError, match=message):
        script.check_results(data)


def test_what_a_run_stores_passes_the_check_and_renders() -> None:
    script = load_script("play_to_win")
    # enough deals for an interval (Wilson's) that a clean sweep puts above one half
    args = argparse.Namespace(field=2, deals=10, seed=5, open_boxes=2, maximum=200, workers=1)
    bots: dict[str, Strategy] = {
        "WinStrategy": GreedyStrategy(),
        "OptimalStrategy": RandomStrategy(),
    }
    result = tournament(bots, deals=10, seed=5, confidence=0.99)
    run = script.raw(result, args)
    assert run["command"] == (
        "python scripts/play_to_win.py --write --field 2 --deals 10 --seed 5 --open-boxes 2 "
        "--maximum 200"
    )
    runs = script.check_results({"format": 1, "runs": [run]})
    text = script.render(runs)
    assert text.startswith(script.BEGIN)
    assert text.endswith(script.END)
    assert "100.00 %" in text  # greedy beats random in every game
    assert "significantly above one half" in text
    assert "fewer than the 100,000 paired deals" in text  # the page says when a run is short


def test_saved_chunks_give_the_tables_of_a_fresh_run(tmp_path: Path) -> None:
    script = load_script("play_to_win")
    bots: dict[str, Strategy] = {"greedy": GreedyStrategy(), "random": RandomStrategy()}
    saved = script.SavedChunks(tmp_path, None)
    first = tournament(bots, deals=250, seed=3, executor=saved)
    assert first == tournament(bots, deals=250, seed=3)
    assert len(list(tmp_path.iterdir())) == 3  # chunks of 100, 100 and 50 deals
    assert saved.seconds > 0
    again = script.SavedChunks(tmp_path, None)
    fewer = tournament(bots, deals=200, seed=3, executor=again)  # both chunks from the folder
    assert fewer == tournament(bots, deals=200, seed=3)
    assert len(list(tmp_path.iterdir())) == 3
