"""Thricewise's words: the names of the grid's cells, as the board labels them, and the kinds
of a window of three cards."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext_lazy

from referee.messages import describe
from referee.thricewise import KINDS, MAX_SIDE, Thricewise

from .. import cell_label

Cell = tuple[int, int]

KIND_LABELS = {
    "set": gettext_lazy("set"),
    "flush": gettext_lazy("flush"),
    "straight": gettext_lazy("straight"),
}
assert set(KIND_LABELS) == set(KINDS)


def label_origin(setup_cells: Any) -> Cell:
    """The cell the board labels A1: its names never change during a game.

    The grid grows from its starting cards and never gets wider or taller than 6 cards, so no
    card can ever lie more than 5 columns left of the setup's rightmost column, or 5 rows above
    its lowest row: that column is A, that row 1 (rows are numbered downwards, as drawn)."""
    xs = [x for x, _y in setup_cells]
    ys = [y for _x, y in setup_cells]
    return (max(xs) - (MAX_SIDE - 1), max(ys) - (MAX_SIDE - 1))


def cell_namer(state: Thricewise) -> Callable[[Cell], str]:
    """The board's name of a cell ("C4") for this game, or its coordinates off the board."""
    origin = label_origin(state.setup_cells)
    return lambda cell: cell_label(cell, origin) or describe(list(cell))
