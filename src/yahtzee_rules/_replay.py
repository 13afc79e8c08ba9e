"""Building blocks the formats share: checked values from decoded fields, and replay.

Internal: nothing here is public API. The notation, JSON and share-code modules
read values field by field and then need the same checked assembly and replay
the value modules use themselves. Rather than import one another's private
names, they import them from here, under package-internal names; this module is
the one deliberate seam (see ``docs/explanation/layers.md``). It sits above
:mod:`yahtzee_rules.record` and below the formats.
"""

from __future__ import annotations

from yahtzee_rules.dice import _DICE_BY_FACES as DICE_BY_FACES
from yahtzee_rules.dice import _KEEP_BY_FACES as KEEP_BY_FACES
from yahtzee_rules.dice import _faces_from as faces_from
from yahtzee_rules.game import _make_game as make_game
from yahtzee_rules.record import _fill_action as fill_action
from yahtzee_rules.record import _parse_action as parse_action
from yahtzee_rules.record import _replay_record as replay_record
from yahtzee_rules.record import _roll_action as roll_action
from yahtzee_rules.turn import _make_turn as make_turn

__all__ = [
    "DICE_BY_FACES",
    "KEEP_BY_FACES",
    "faces_from",
    "fill_action",
    "make_game",
    "make_turn",
    "parse_action",
    "replay_record",
    "roll_action",
]
