"""Thricewise drawn: the grid with its labels, the cards set aside, the reveal's picker or the
turn being placed, and the score sheet with why each turn scored."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from referee.decktet import BASIC_DECK
from referee.thricewise import CARD_NAMES, MAX_SIDE, Thricewise

from .. import COLUMN_LETTERS, Draft, FormError, cell_label
from .._decktet import SUIT_SYMBOLS, Words, words
from .draft import TurnDraft, picked_cards
from .sheet import rows
from .words import Cell, label_origin


def card_info(name: str, said: Words | None = None) -> dict[str, Any]:
    """What a template needs to draw a card: name, rank and suits (with CSS keys); ``said``:
    the words of the language active, when the caller has them. The same dict for every
    drawing in a language: read, never changed."""
    said = said or words()
    found = _CARDS.get(said.language)
    if found is None:
        found = _CARDS[said.language] = {name: _card_info(name, said) for name in CARD_NAMES}
    return found[name]


#: card_info of every card, by language: made once per process and language (issue 32)
_CARDS: dict[str | None, dict[str, dict[str, Any]]] = {}


def _card_info(name: str, said: Words) -> dict[str, Any]:
    card = BASIC_DECK[CARD_NAMES.index(name)]
    rank = said.rank(card.rank)
    suits = [
        {"key": s.lower(), "label": said.suits[s], "symbol": SUIT_SYMBOLS[s]} for s in card.suits
    ]
    short = name[4:] if name.startswith("The ") else name
    return {
        "name": name,
        "short": short,
        # An Ace is known by its rank and its suit: its face needs no name ("Ace of Moons").
        "ace": card.rank == "Ace",
        # "Couronne" is too long for a seventh of a phone at the size of a number
        "long_rank": len(rank) > len("Crown"),
        "rank": rank,
        "suits": suits,
        "label": f"{name} — {rank} · {', '.join(s['label'] for s in suits)}",
    }


def board_context(state: Thricewise, players: list[str], draft: Draft | None) -> dict[str, Any]:
    """What board.html, move_form.html and sheet.html draw of the game and the turn being
    entered."""
    said = words()  # the language looked up once for the whole board
    turn = None
    if draft is not None and draft.data.get("reveal"):
        try:
            turn = TurnDraft(state, players, draft.data)
        except FormError:
            turn = None
    points_at: dict[Cell, tuple[int, int]] = {
        cell: (number, points) for number, _p, _i, cell, points in state.placements
    }
    cells: dict[Cell, dict[str, Any]] = {}
    for cell, index in state.board.items():
        number, points = points_at.get(cell, (None, 0))
        cells[cell] = {
            "card": card_info(CARD_NAMES[index], said),
            "setup": cell in state.setup_cells,
            "turn": None if number is None else number + 1,
            "points": points,
            "last": number is not None and number == state.turn - 1,
        }
    legal: set[Cell] = set()
    placer = None
    if turn is not None and not turn.complete:
        placer = turn.placer
        for cell, card in turn.occupied().items():
            cells[cell] = {"card": card_info(card, said), "pending": True}
        legal = set(turn.legal_cells())
    everything = [*cells, *legal]
    min_x, max_x = min(x for x, _ in everything), max(x for x, _ in everything)
    min_y, max_y = min(y for _, y in everything), max(y for _, y in everything)
    shown = (min_x, max_x, min_y, max_y)
    reach = turn is None and not state.finished
    if reach:
        # A turn built on the phone (static/js/move-builder.js): every cell a card of this turn
        # might reach, within MAX_SIDE of the cards, is drawn; those beyond the cards hidden,
        # as the board shows them before the reveal, until the phone offers them.
        min_x, max_x = max_x - MAX_SIDE + 1, min_x + MAX_SIDE - 1
        min_y, max_y = max_y - MAX_SIDE + 1, min_y + MAX_SIDE - 1
    origin = label_origin(state.setup_cells)
    hidden_x = [not shown[0] <= x <= shown[1] for x in range(min_x, max_x + 1)]
    rows = [
        {
            "y": y,
            "label": y - origin[1] + 1,
            "hidden": not shown[2] <= y <= shown[3],
            "cells": [
                {
                    "x": x,
                    "y": y,
                    "label": cell_label((x, y), origin),
                    "legal": (x, y) in legal,
                    "hidden": hidden_x[x - min_x] or not shown[2] <= y <= shown[3],
                    **cells.get((x, y), {}),
                }
                for x in range(min_x, max_x + 1)
            ],
        }
        for y in range(min_y, max_y + 1)
    ]
    context: dict[str, Any] = {
        "tw_rows": rows,
        "tw_column_heads": [
            {"x": x, "letter": COLUMN_LETTERS[x - origin[0]], "hidden": hidden_x[x - min_x]}
            for x in range(min_x, max_x + 1)
        ],
        "tw_columns": shown[1] - shown[0] + 1,
        "tw_reach": reach,
        "tw_turn": state.turn,
        "tw_turns": state.turns_total,
        "tw_next_turn": state.turn + 1,
        "tw_set_aside": [
            {"player": p, "cards": [card_info(c, said) for c in cards]}
            for p, cards in state.set_aside_cards().items()
        ],
        "tw_sheet": sheet(state, said),
        "tw_last_turn": last_turn(state),
        "tw_all_tied": all_tied(state),  # what to say instead, or None
    }
    if turn is None:
        picked = picked_cards(draft.data if draft else {}, state, players) or {}
        by_card = {card: players[int(n)] for n, card in picked.items()}
        waiting = [n for n in range(len(players)) if str(n) not in picked]
        next_number = waiting[0] if waiting else None
        context["tw_reveal"] = {
            "players": [
                {
                    "number": n,
                    "player": p,
                    "card": card_info(picked[str(n)], said) if str(n) in picked else None,
                    "next": n == next_number,
                    # what the player may add to their group, for a turn built on the phone
                    "set_aside": [card_info(c, said) for c in state.set_aside_cards(p)],
                }
                for n, p in enumerate(players)
            ],
            "next": None if next_number is None else players[next_number],
            "cards": [
                {**card_info(name, said), "by": by_card.get(name)} for name in state.unseen_cards()
            ],
        }
    else:
        ready = turn.ready_card()
        following = turn.next_placer
        cards = []
        if placer is not None:
            for name in turn.cards_left(placer):
                aside = name != turn.reveal[placer]
                cards.append({**card_info(name, said), "player": placer, "aside": aside})
            if following is not None and turn.has_placed_revealed(placer):
                cards.append(
                    {**card_info(turn.reveal[following], said), "player": following, "aside": False}
                )
        context["tw_draft"] = {
            "reveal": [
                {
                    "number": number,
                    "player": p,
                    "card": card_info(c, said),
                    "aside": p in turn.set_aside_now,
                    "done": p in turn.done,
                    "current": p == placer,
                    "placed": [card_info(name, said) for name in turn.placed_by(p)],
                }
                for number, (p, c) in enumerate(turn.reveal.items())
            ],
            "order": turn.order,
            "placer": placer,
            "ready": ready,
            "cards": cards,
            "may_enter": placer is None or (following is None and turn.has_placed_revealed(placer)),
            "has_cells": bool(legal),
            "placed": len(turn.place),
        }
    return context


def sheet(state: Thricewise, said: Words | None = None) -> dict[str, Any]:
    """Points turn by turn per player, with the cards each placed and why they scored, and
    the totals: each played turn's row worked out once (games.ui.thricewise.sheet.rows)."""
    return {
        "players": state.players,
        "rows": rows(state, said or words()),
        "totals": state.scores(),
    }


@staticmethod
def all_tied(state: Thricewise) -> str | None:
    """When the last turn's cards all tied (every one set aside, none placed, nobody scored),
    that, said as such rather than as "+0" for everyone; else None."""
    last = state.turn - 1
    if not state.turn_points or any(t == last for t, *_ in state.placements):
        return None
    return _("Turn %(turn)s: every card tied and was set aside — nobody scores.") % {
        "turn": state.turn
    }


def last_turn(state: Thricewise) -> list[dict[str, Any]]:
    if not state.turn_points:
        return []
    return [{"player": p, "points": n} for p, n in state.turn_points[-1].items()]
