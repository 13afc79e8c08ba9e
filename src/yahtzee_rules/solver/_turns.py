"""Per-turn tables: the fills, keeps and best actions of one turn-start state."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from yahtzee_rules.boxes import Box
from yahtzee_rules.dice import Keep
from yahtzee_rules.solver._geometry import _geometry
from yahtzee_rules.solver._kernels import _best_over_subkeeps, _fills, _keep_values, _Workspace
from yahtzee_rules.solver._model import _Model

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: Two expected values closer than this, relative to their size, count as equal; on
#: such a tie the best action is the fill rather than a keep (the simpler action).
TIE_TOLERANCE = 1e-9


class _TurnTables:
    """Everything about one turn-start state: fills, keeps and best actions for every roll."""

    __slots__ = ("actions", "fills", "keeps", "start")

    def __init__(
        self, model: _Model, values: NDArray[np.float64], mask: int, u: int, y: int, index: int
    ) -> None:
        g = _geometry()
        self.start = float(values[index])
        # points each roll may write in each box: -1 where the rules do not allow it
        card = model.card
        points = np.where((model.open_bits(mask) & card.bits) == 0, -1, card.scores)
        points[:6] = model.joker[:, :, mask]
        fills = _fills(model, values, mask, u, y, points)[0]
        fills[:6] += model.bonus_due[:, y, None]  # extra-Yahtzee bonus: the same in every box
        self.fills = fills  # (internal roll, box)
        space = _Workspace(1)
        last = np.empty((462, 1))
        last[g.five :, 0] = fills.max(axis=1)
        _keep_values(last, space)
        first = np.empty((462, 1))
        first[g.five :] = _best_over_subkeeps(last.copy(), space)
        _keep_values(first, space)
        self.keeps = (last[:, 0], first[:, 0])  # by rerolls: one left, two left
        best_box = fills.argmax(axis=1)
        best_fill = fills.max(axis=1)
        boxes = [card.members[int(best_box[g.dice_pos[i]])] for i in range(252)]
        actions: list[tuple[Keep | Box, ...]] = [tuple(boxes)]
        for keep_values in self.keeps:
            chosen = g.subkeeps[np.arange(252), keep_values[g.subkeeps].argmax(axis=1)]
            # Equal values resolve to the simpler action: fill now when the best fill is
            # worth as much as the best keep, within TIE_TOLERANCE (relative).
            best_keep = keep_values[chosen]
            fill_now = best_fill >= best_keep - TIE_TOLERANCE * np.abs(best_keep)
            row: list[Keep | Box] = []
            for i in range(252):
                position = int(chosen[g.dice_pos[i]])
                filling = position >= g.five or bool(fill_now[g.dice_pos[i]])
                row.append(boxes[i] if filling else g.keeps[position])
            actions.append(tuple(row))
        self.actions = tuple(actions)
