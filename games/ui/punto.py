"""Punto at the table: colours per player, then each move in two taps — the card drawn, then a
cell on the board (or "blocked" when the card has no legal cell).

The board shows the visible top cards inside the floating 6 × 6 box: the cards' bounding box and
the ring of cells around it where the box may still grow. Only the engine's legal cells are
offered as buttons; the referee judges the move.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from referee import Judgement
from referee.punto import BOX, COLOURS, ROUNDS_TO_WIN, VALUES

from . import Draft, FormError, GameUI, read_cell, read_draft

COLOUR_LABELS = {
    "red": pgettext_lazy("Punto colour", "red"),
    "orange": pgettext_lazy("Punto colour", "orange"),
    "blue": pgettext_lazy("Punto colour", "blue"),
    "green": pgettext_lazy("Punto colour", "green"),
}

Cell = tuple[int, int]


def _card(name: str) -> dict[str, Any]:
    colour, value = name.split("-")
    return {"name": name, "colour": colour, "label": COLOUR_LABELS[colour], "value": int(value)}


def _read_card(value: Any) -> str:
    """A card name from the form ("red-7"), or FormError for anything the form never offers."""
    text = value.strip().lower() if isinstance(value, str) else ""
    colour, _sep, number = text.partition("-")
    if colour not in COLOURS or number not in {str(v) for v in VALUES}:
        raise FormError(_("Choose the card drawn from the cards shown."))
    return f"{colour}-{number}"


def _span(low: int, high: int) -> range:
    """The columns (or rows) worth drawing: the cards' extent plus one on each side where the
    6 × 6 box still lets the table grow."""
    return range(max(low - 1, high - BOX + 1), min(high + 1, low + BOX - 1) + 1)


def _board(cells: dict[Cell, str], legal: set[Cell]) -> dict[str, Any]:
    """Rows of cells to draw, with the cards' extent and whether it reached the 6 × 6 limit."""
    if not cells:
        return {"rows": [[_cell(x, y, None, legal, True) for x, y in sorted(legal)]]}
    xs = [x for x, _y in cells]
    ys = [y for _x, y in cells]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    rows = [
        [
            _cell(x, y, cells.get((x, y)), legal, x0 <= x <= x1 and y0 <= y <= y1)
            for x in _span(x0, x1)
        ]
        for y in _span(y0, y1)
    ]
    width, height = x1 - x0 + 1, y1 - y0 + 1
    return {
        "rows": rows,
        "width": width,
        "height": height,
        "full_width": width == BOX,
        "full_height": height == BOX,
    }


def _cell(x: int, y: int, card: str | None, legal: set[Cell], in_box: bool) -> dict[str, Any]:
    return {
        "at": f"{x},{y}",
        "x": x,
        "y": y,
        "card": _card(card) if card else None,
        "legal": (x, y) in legal,
        "in_box": in_box,
    }


def _hand_card(colour: str, value: int, left: int) -> dict[str, Any]:
    """A card of the hand, with its button's label said here rather than by the template: 18
    buttons are drawn after every move, and a plural in the template costs far more."""
    label = ngettext(
        "%(colour)s %(value)s, %(left)s copy left",
        "%(colour)s %(value)s, %(left)s copies left",
        left,
    ) % {"colour": COLOUR_LABELS[colour], "value": value, "left": left}
    return {"name": f"{colour}-{value}", "value": value, "left": left, "label": label}


def _cells_of(state: Any) -> dict[Cell, str]:
    """The visible table from the engine's ``grid()``."""
    origin, rows = state.grid()
    if origin is None:
        return {}
    x0, y0 = origin
    return {
        (x0 + dx, y0 + dy): name
        for dy, row in enumerate(rows)
        for dx, name in enumerate(row)
        if name is not None
    }


def _parse_cells(board: dict[str, str]) -> dict[Cell, str]:
    """A details board (``{"x,y": "red-7"}``) as cells."""
    cells = {}
    for key, name in board.items():
        x, y = key.split(",")
        cells[(int(x), int(y))] = name
    return cells


class PuntoUI(GameUI):
    # Setup --------------------------------------------------------------------------------------

    def default_setup(self, players: list[str]) -> dict[str, Any]:
        """Two players: red + blue against orange + green (as in the rules' example); three or
        four: one colour each in the order red, orange, blue, green (with three, green is
        neutral)."""
        if len(players) == 2:
            return {"colours": {players[0]: ["red", "blue"], players[1]: ["orange", "green"]}}
        return {"colours": {name: [COLOURS[i]] for i, name in enumerate(players[: len(COLOURS)])}}

    def setup_context(self, players: list[str], post: QueryDict | None) -> dict[str, Any]:
        default = self.default_setup(players)["colours"]
        each = 2 if len(players) == 2 else 1
        rows = []
        for index, name in enumerate(players):
            picks = []
            for k in range(each):
                field = f"colour-{index}-{k}"
                chosen = post.get(field, "") if post is not None else default[name][k]
                picks.append({"field": field, "chosen": chosen})
            rows.append({"name": name, "picks": picks})
        options = [(colour, COLOUR_LABELS[colour]) for colour in COLOURS]
        return {
            "colour_rows": rows,
            "colour_options": options,
            "two_each": each == 2,
            "has_neutral": len(players) == 3,
        }

    def parse_setup(self, post: QueryDict, players: list[str]) -> Any:
        each = 2 if len(players) == 2 else 1
        colours = {}
        for index, name in enumerate(players):
            picked = [post.get(f"colour-{index}-{k}", "") for k in range(each)]
            if any(colour not in COLOURS for colour in picked):
                raise FormError(_("Choose %(player)s's colours.") % {"player": name})
            colours[name] = picked
        # Whether each colour belongs to one player at most is the referee's to judge.
        return {"colours": colours}

    # Moves --------------------------------------------------------------------------------------

    def move_context(self, judgement: Judgement, players: list[str], draft: Draft | None) -> dict:
        state = judgement.state
        if state is None:
            return {}
        details = judgement.details
        drafted = draft.data.get("card") if draft else None
        legal: set[Cell] = set()
        blocked = False
        if drafted:
            cells = state.legal_cells(drafted)
            # "The first card of a round goes anywhere": offer the centre of the table.
            legal = {(0, 0)} if cells is None else set(cells)
            blocked = cells == []
        current = _cells_of(state)
        board = _board(current, legal) if current or legal else None
        last_board = None
        if not current and details.get("last_round_board"):
            last_board = _board(_parse_cells(details["last_round_board"]), set())
        to_play = state.to_play
        hand = []
        if to_play is not None and not drafted:
            for colour in state.playable_colours(to_play):
                hand.append(
                    {
                        "colour": colour,
                        "label": COLOUR_LABELS[colour],
                        "neutral": colour == state.neutral,
                        "cards": [
                            _hand_card(colour, value, state.cards_left(colour, value))
                            for value in VALUES
                        ],
                    }
                )
        seats = [
            {
                "name": name,
                "colours": [{"colour": c, "label": COLOUR_LABELS[c]} for c in state.colours[name]],
                "wins": state.wins[name],
                "to_play": name == to_play,
            }
            for name in state.players
        ]
        rounds = [
            {
                "number": number,
                "winner": entry["winner"],
                "how": entry["how"],
                "removed": _card(entry["removed"]) if entry["removed"] else None,
            }
            for number, entry in enumerate(details.get("rounds", []), start=1)
        ]
        return {
            "punto": {
                "board": board,
                "last_board": last_board,
                "round": state.round,
                "finished": state.finished,
                "line": state.line,
                "box": BOX,
                "rounds_to_win": ROUNDS_TO_WIN,
                "to_play": to_play,
                "seats": seats,
                "neutral": (
                    {"colour": state.neutral, "label": COLOUR_LABELS[state.neutral]}
                    if state.neutral
                    else None
                ),
                "rounds": rounds,
                "hand": hand,
                "drafted": _card(drafted) if drafted else None,
                "drafted_by": draft.data.get("player") if draft else None,
                "blocked": blocked,
                "empty_table": not current,
            }
        }

    def parse_move(self, post: QueryDict, judgement: Judgement, players: list[str]) -> Any:
        state = judgement.state
        if state is None or state.to_play is None:
            raise FormError(_("No move can be entered now."))
        if "card" in post:
            return Draft({"player": state.to_play, "card": _read_card(post["card"])})
        draft = read_draft(post)
        if not draft.get("card"):
            raise FormError(_("Choose the card drawn first."))
        card = _read_card(draft["card"])
        player = draft.get("player")
        if player not in players:
            raise FormError(_("The form was damaged: start the move again."))
        if post.get("blocked"):
            return {"player": player, "card": card, "blocked": True}
        if post.get("at"):
            return {
                "player": player,
                "card": card,
                "at": list(
                    read_cell(post["at"], _("Tap one of the highlighted cells on the board."))
                ),
            }
        raise FormError(_("Tap a highlighted cell on the board, or say the card is blocked."))


UI = PuntoUI
