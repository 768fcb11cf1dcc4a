"""Thricewise at the table: the starting grid, the reveal, then each placement tap by tap.

A turn is entered in three parts, a tap per choice. First every player's revealed card: the
unseen cards are laid out as a picker and a tap gives the card to the next player in seat order
(a second tap takes it back); the last card revealed moves on to the placements. Then the players
who place do so in the order the referee expects (``placing_order``): a tap on a free cell places
the card ready to go (the placer's revealed card, then the next placer's), and a tap on one of the
placer's set-aside cards readies it instead. Last, one tap enters the turn: it goes to the
referee, which has the final word.

On a phone with a script the same taps build the turn there (``builder``; issue 28): none of
them makes a request, and only the finished turn is sent, once. Without one, each tap posts the
form and the server keeps the turn as a draft (``parse_move``), as described above.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from referee import Game, Judgement
from referee.thricewise import CARD_NAMES, KINDS, Scored, Thricewise, Turn, setup_size

from .. import (
    Builder,
    Draft,
    FormError,
    GameUI,
    Reason,
    and_list,
    cell_label,
    clauses,
    damaged_form,
    is_cell,
    read_cell,
    read_draft,
    turn_name,
)
from .._decktet import rank_label
from .board import all_tied, board_context, card_info
from .draft import TurnDraft, picked_cards
from .sheet import draw_sheet
from .table import draw_deck, draw_grid, face
from .why import card_reason
from .words import KIND_LABELS, Cell, cell_namer, label_origin


def grid_cells(players: list[str]) -> list[Cell]:
    """The cells of the starting grid, row by row: 2×2, or 3×2 for six cards (a 2×3 grid is
    the same grid seen from the side; the JSON setup still accepts it)."""
    columns, rows = (2, 2) if setup_size(len(players)) == 4 else (3, 2)
    return [(x, y) for y in range(rows) for x in range(columns)]


class ThricewiseUI(GameUI):
    # On the phone: a card per player from the deck, then the cards placed group by group in
    # ascending rank of the cards revealed, each on a cell next to the cards, then "Enter turn"
    # sends the turn (templates/plays/games/thricewise/move_form.html says how).
    builder = Builder(complete="")

    # The referee's words ----------------------------------------------------------------------

    def word(self, kind: str, value: Any, state: Game | None) -> str | None:
        if kind == "cell" and isinstance(state, Thricewise) and is_cell(value):
            return cell_label(value, label_origin(state.setup_cells))
        if kind == "rank" and isinstance(value, str):
            return rank_label(value)
        return None

    def move_name(self, state: Game | None, number: int) -> str:
        return turn_name(number)

    def describe_move(self, state: Game, plan: Turn) -> str:
        """ "Ana reveals The Sailor, Ben The Origin; Ana places The Sailor at C4: +4"."""
        assert isinstance(state, Thricewise)
        return self._described(state, plan, state.why_turn(plan))

    def tell_move(self, state: Game, plan: Turn) -> tuple[str, list[Reason]]:
        # The turn's windows worked out once for both (a move's line: issue 32).
        assert isinstance(state, Thricewise)
        scored = state.why_turn(plan)
        return self._described(state, plan, scored), self._explained(state, scored)

    def _described(self, state: Thricewise, plan: Turn, scored: list[Scored]) -> str:
        reveals = []
        for player, index in plan.revealed.items():
            values = {"player": player, "card": CARD_NAMES[index]}
            if not reveals:
                reveals.append(_("%(player)s reveals %(card)s") % values)
            else:
                reveals.append(
                    pgettext("the next players' reveals", "%(player)s %(card)s") % values
                )
        parts = [", ".join(reveals)]
        if plan.set_aside:
            tied = and_list(CARD_NAMES[plan.revealed[player]] for player in plan.set_aside)
            parts.append(_("set aside (tied rank): %(cards)s") % {"cards": tied})
        cell_name = cell_namer(state)
        for placed in scored:
            values = {
                "player": placed.player,
                "card": placed.card,
                "cell": cell_name(placed.cell),
                "points": placed.points,
                # "+4 (set)": what made the points; the play page folds the windows under it
                "kinds": and_list(
                    str(KIND_LABELS[kind])
                    for kind in KINDS
                    if any(kind in window.kinds for window in placed.windows)
                ),
            }
            if placed.points:
                parts.append(
                    _("%(player)s places %(card)s at %(cell)s: +%(points)s (%(kinds)s)") % values
                )
            else:
                parts.append(_("%(player)s places %(card)s at %(cell)s") % values)
        return clauses(parts)

    def explain_move(self, state: Game, plan: Turn) -> list[Reason]:
        """Each card of the turn that scored, with the windows it completed."""
        assert isinstance(state, Thricewise)
        return self._explained(state, state.why_turn(plan))

    def _explained(self, state: Thricewise, scored: list[Scored]) -> list[Reason]:
        return [card_reason(placed, cell_namer(state)) for placed in scored if placed.points]

    # Setup ------------------------------------------------------------------------------------

    def default_setup(self, players: list[str]) -> dict[str, Any]:
        """Distinct cards of distinct ranks (2, 3, 4, 6, 7, 8), in a 2×2 or 3×2 grid: the
        players change them to the cards they actually drew."""
        cells = grid_cells(players)
        names = [CARD_NAMES[6 + 4 * i] for i in range(len(cells))]
        return {"grid": [{"card": n, "at": [x, y]} for n, (x, y) in zip(names, cells, strict=True)]}

    def setup_context(self, players: list[str], post: QueryDict | None) -> dict[str, Any]:
        """The starting grid, empty until the cards are tapped (or chosen in the lists that stand
        in for the picker without JavaScript); a refused setup shows its cards again."""
        cells = []
        for number, (x, y) in enumerate(grid_cells(players)):
            chosen = (post.get(f"cell_{number}") or "") if post is not None else ""
            cells.append({"number": number, "x": x, "y": y, "chosen": chosen})
        return {
            "setup_cells": cells,
            "setup_columns": max(x for x, _ in grid_cells(players)) + 1,
            "deck": [card_info(name) for name in CARD_NAMES],
            "setup_json": (post.get("setup_json") if post is not None else "") or "",
        }

    def parse_setup(self, post: QueryDict, players: list[str]) -> dict[str, Any]:
        grid = []
        seen: dict[str, int] = {}
        for number, (x, y) in enumerate(grid_cells(players)):
            value = post.get(f"cell_{number}") or ""
            if not value:
                raise FormError(_("Choose the card of cell %(number)s.") % {"number": number + 1})
            if value not in CARD_NAMES:
                raise FormError(
                    _("Cell %(number)s: choose a card of the basic deck from the list.")
                    % {"number": number + 1}
                )
            if value in seen:
                raise FormError(
                    _("%(card)s is chosen for cells %(first)s and %(second)s: each card once.")
                    % {"card": value, "first": seen[value] + 1, "second": number + 1}
                )
            seen[value] = number
            grid.append({"card": value, "at": [x, y]})
        return {"grid": grid}

    # Moves ------------------------------------------------------------------------------------

    def move_context(self, judgement: Judgement, players: list[str], draft: Draft | None) -> dict:
        state = judgement.state
        if not isinstance(state, Thricewise):
            return {}
        context = board_context(state, players, draft)
        # the grid and the deck drawn in Python, each piece kept once drawn (issue 32)
        context.update(
            tw_grid=draw_grid, tw_deck=draw_deck, tw_face=face, tw_sheet_drawn=draw_sheet
        )
        return context

    def events(self, before: Judgement, after: Judgement, players: list[str]) -> list[str]:
        """A turn completed: what each player scored."""
        turns = after.details.get("turn_points", [])
        if len(turns) <= len(before.details.get("turn_points", [])):
            return []
        tied = all_tied(after.state) if isinstance(after.state, Thricewise) else None
        if tied:
            return [tied]
        gains = ", ".join(f"{player} +{points}" for player, points in turns[-1].items())
        return [_("Turn %(turn)s scored: %(gains)s.") % {"turn": len(turns), "gains": gains}]

    def parse_move(self, post: QueryDict, judgement: Judgement, players: list[str]) -> Any:
        state = judgement.state
        if not isinstance(state, Thricewise):
            raise FormError(_("The referee cannot judge this play, so no move can be entered."))
        data = read_draft(post)
        if not data.get("reveal"):
            if "pick" in post:
                return self._pick(post.get("pick") or "", data, state, players)
            return self._reveal(post, state, players)
        turn = TurnDraft(state, players, data)
        if "unreveal" in post:
            # Back to the reveal, this player's card taken back; what was placed is dropped.
            number = post.get("unreveal") or ""
            picked = {str(n): turn.reveal[p] for n, p in enumerate(players)}
            if number not in picked:
                raise damaged_form()
            del picked[number]
            return Draft({"picked": picked})
        if "enter" in post:
            turn.finish()
            return turn.move()
        if "group_done" in post:
            turn.finish_group()
        elif "at" in post:
            card = post.get("card") or turn.ready_card() or ""
            if not card:
                raise FormError(_("Choose the card to place, then tap a cell."))
            turn.put(
                card,
                read_cell(post.get("at", ""), _("Tap one of the highlighted cells of the grid.")),
            )
        else:
            raise FormError(_("Tap one of the highlighted cells of the grid."))
        return Draft(turn.as_data())

    @staticmethod
    def _pick(card: str, data: dict[str, Any], state: Thricewise, players: list[str]) -> Draft:
        """A card of the picker tapped: the next player's revealed card, or taken back when it
        was already given; the last card revealed moves on to the placements."""
        picked = picked_cards(data, state, players)
        if picked is None:
            raise damaged_form()
        if card not in state.unseen_cards():
            raise FormError(
                _("%(card)s cannot be revealed: it has already been seen.") % {"card": card},
                draft=Draft({"picked": picked}),
            )
        taken = [number for number, name in picked.items() if name == card]
        if taken:
            del picked[taken[0]]
            return Draft({"picked": picked})
        waiting = [n for n in range(len(players)) if str(n) not in picked]
        if not waiting:  # a full reveal is never kept as picks, but a form may be old
            raise FormError(_("Every player has a card: tap one to take it back first."))
        picked[str(waiting[0])] = card
        if len(waiting) > 1:
            return Draft({"picked": picked})
        return Draft(
            {"reveal": {p: picked[str(n)] for n, p in enumerate(players)}, "place": [], "done": []}
        )

    @staticmethod
    def _reveal(post: QueryDict, state: Thricewise, players: list[str]) -> Any:
        """The reveal as lists (``reveal_0``…) post it: every player's card at once."""
        unseen = set(state.unseen_cards())
        reveal: dict[str, str] = {}
        by_card: dict[str, str] = {}
        # A refusal shows the unseen cards picked so far again: fixing one costs one choice.
        picked: dict[str, str] = {}
        for number in range(len(players)):
            card = post.get(f"reveal_{number}") or ""
            if card in unseen and card not in picked.values():  # a card twice: kept once
                picked[str(number)] = card
        kept = Draft({"picked": picked}) if picked else None
        for number, player in enumerate(players):
            card = post.get(f"reveal_{number}") or ""
            if not card:
                raise FormError(
                    _("Choose the card %(player)s revealed.") % {"player": player}, draft=kept
                )
            if card not in unseen:
                raise FormError(
                    _("%(player)s cannot reveal %(card)s: it has already been seen.")
                    % {"player": player, "card": card},
                    draft=kept,
                )
            if card in by_card:
                raise FormError(
                    _("%(first)s and %(second)s cannot both reveal %(card)s.")
                    % {"first": by_card[card], "second": player, "card": card},
                    draft=kept,
                )
            by_card[card] = player
            reveal[player] = card
        return Draft({"reveal": reveal, "place": [], "done": []})


UI = ThricewiseUI
