"""Thricewise at the table: the starting grid, the reveal, then each placement tap by tap.

A turn is entered in three parts, a tap per choice. First every player's revealed card: the
unseen cards are laid out as a picker and a tap gives the card to the next player in seat order
(a second tap takes it back); the last card revealed moves on to the placements. Then the players
who place do so in the order the referee expects (``placing_order``): a tap on a free cell places
the card ready to go (the placer's revealed card, then the next placer's), and a tap on one of the
placer's set-aside cards readies it instead. Last, one tap enters the turn: it goes to the
referee, which has the final word.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from referee import Game, Judgement
from referee.base import IllegalMove
from referee.decktet import BASIC_DECK
from referee.messages import describe
from referee.thricewise import (
    CARD_NAMES,
    KINDS,
    MAX_SIDE,
    Thricewise,
    Turn,
    parse_card,
    setup_size,
)

from ..why import KIND_LABELS, Reason, thricewise_card
from . import Draft, FormError, GameUI, and_list, clauses, is_cell, read_cell, read_draft

SUIT_LABELS = {
    "Moons": gettext_lazy("Moons"),
    "Suns": gettext_lazy("Suns"),
    "Waves": gettext_lazy("Waves"),
    "Leaves": gettext_lazy("Leaves"),
    "Wyrms": gettext_lazy("Wyrms"),
    "Knots": gettext_lazy("Knots"),
}
SUIT_SYMBOLS = {"Moons": "☾", "Suns": "☀", "Waves": "≈", "Leaves": "❦", "Wyrms": "∿", "Knots": "⌘"}
RANK_LABELS = {"Ace": gettext_lazy("Ace"), "Crown": gettext_lazy("Crown")}

Cell = tuple[int, int]
COLUMN_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def label_origin(setup_cells: Any) -> Cell:
    """The cell the board labels A1: its names never change during a game.

    The grid grows from its starting cards and never gets wider or taller than 6 cards, so no
    card can ever lie more than 5 columns left of the setup's rightmost column, or 5 rows above
    its lowest row: that column is A, that row 1 (rows are numbered downwards, as drawn)."""
    xs = [x for x, _y in setup_cells]
    ys = [y for _x, y in setup_cells]
    return (max(xs) - (MAX_SIDE - 1), max(ys) - (MAX_SIDE - 1))


def cell_label(cell: Cell, origin: Cell) -> str | None:
    """ "C4": the cell as the board labels it, or None when it lies off the labelled area."""
    column, row = cell[0] - origin[0], cell[1] - origin[1]
    if not (0 <= column < len(COLUMN_LETTERS) and row >= 0):
        return None
    return f"{COLUMN_LETTERS[column]}{row + 1}"


def _cell_namer(state: Thricewise) -> Callable[[Cell], str]:
    """The board's name of a cell ("C4") for this game, or its coordinates off the board."""
    origin = label_origin(state.setup_cells)
    return lambda cell: cell_label(cell, origin) or describe(list(cell))


def card_info(name: str) -> dict[str, Any]:
    """What a template needs to draw a card: name, rank and suits (with CSS keys)."""
    card = BASIC_DECK[CARD_NAMES.index(name)]
    rank = str(RANK_LABELS.get(card.rank, card.rank))
    suits = [
        {"key": s.lower(), "label": str(SUIT_LABELS[s]), "symbol": SUIT_SYMBOLS[s]}
        for s in card.suits
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


def grid_cells(players: list[str]) -> list[Cell]:
    """The cells of the starting grid, row by row: 2×2, or 3×2 for six cards (a 2×3 grid is
    the same grid seen from the side; the JSON setup still accepts it)."""
    columns, rows = (2, 2) if setup_size(len(players)) == 4 else (3, 2)
    return [(x, y) for y in range(rows) for x in range(columns)]


class TurnDraft:
    """A turn being entered: the reveal, the placements so far, the players who are done."""

    def __init__(self, state: Thricewise, players: list[str], data: dict[str, Any]):
        damaged = FormError(_("The form was damaged: start the move again."))
        self.state = state
        reveal = data.get("reveal")
        place = data.get("place", [])
        done = data.get("done", [])
        if not isinstance(reveal, dict) or not isinstance(place, list):
            raise damaged
        if not isinstance(done, list) or any(p not in players for p in done):
            raise damaged
        try:
            self.order: list[str] = state.placing_order(reveal)
        except IllegalMove:
            raise damaged
        self.reveal: dict[str, str] = {p: CARD_NAMES[parse_card(reveal[p])] for p in players}
        self.place: list[dict[str, Any]] = []
        for entry in place:
            if not isinstance(entry, dict) or entry.get("player") not in self.order:
                raise damaged
            at = entry.get("at")
            if (
                not (isinstance(at, list) and len(at) == 2 and all(type(v) is int for v in at))
                or parse_card(entry.get("card")) is None
            ):
                raise damaged
            card = CARD_NAMES[parse_card(entry["card"])]
            self.place.append({"player": entry["player"], "card": card, "at": at})
        self.done: list[str] = [p for p in self.order if p in done]

    # --- Where the turn stands --------------------------------------------------------------

    @property
    def placer(self) -> str | None:
        """Whose group is being placed now (None once everybody has placed)."""
        return next((p for p in self.order if p not in self.done), None)

    @property
    def next_placer(self) -> str | None:
        """Who places after the current placer (None when the current placer is the last)."""
        waiting = [p for p in self.order if p not in self.done]
        return waiting[1] if len(waiting) > 1 else None

    def has_placed_revealed(self, player: str) -> bool:
        return self.reveal[player] in self.placed_by(player)

    @property
    def set_aside_now(self) -> list[str]:
        """Players whose revealed card goes aside this turn (a tied rank)."""
        return [p for p in self.reveal if p not in self.order]

    def placed_by(self, player: str) -> list[str]:
        return [e["card"] for e in self.place if e["player"] == player]

    def cards_left(self, player: str) -> list[str]:
        """The cards the player may still place this turn: the revealed one, then set-aside."""
        placed = set(self.placed_by(player))
        cards = [self.reveal[player], *self.state.set_aside_cards(player)]
        return [c for c in cards if c not in placed]

    def occupied(self) -> dict[Cell, str]:
        return {(e["at"][0], e["at"][1]): e["card"] for e in self.place}

    def legal_cells(self) -> list[Cell]:
        """The engine's legal cells on the grid with this turn's placements added."""
        return self.state.legal_cells(list(self.occupied()))

    # --- Taps -------------------------------------------------------------------------------

    def put(self, card: str, cell: Cell) -> None:
        player = self.placer
        if player is None:
            raise FormError(_("Everybody has placed: the turn is complete."))
        following = self.next_placer
        if (
            card not in self.cards_left(player)
            and following is not None
            and card == self.reveal[following]
            and self.has_placed_revealed(player)
        ):
            # The next placer's card: the current placer keeps their other set-aside cards.
            self.done.append(player)
            player = following
        if card not in self.cards_left(player):
            raise FormError(
                _("%(player)s cannot place that card now: choose one of the cards offered.")
                % {"player": player}
            )
        if cell not in self.legal_cells():
            raise FormError(_("A card cannot go there: tap one of the highlighted cells."))
        self.place.append({"player": player, "card": card, "at": [cell[0], cell[1]]})
        if not self.cards_left(player):
            self.done.append(player)

    def finish_group(self) -> None:
        player = self.placer
        if player is None:
            return
        if self.reveal[player] not in self.placed_by(player):
            raise FormError(
                _("%(player)s must first place %(card)s, the card revealed this turn.")
                % {"player": player, "card": self.reveal[player]}
            )
        self.done.append(player)

    def finish(self) -> None:
        """The turn entered as it stands: the last placer keeps any set-aside card left."""
        self.finish_group()
        player = self.placer
        if player is not None:
            raise FormError(
                _("%(player)s has not placed %(card)s yet: tap a highlighted cell.")
                % {"player": player, "card": self.reveal[player]}
            )

    def ready_card(self) -> str | None:
        """The card a tap on a cell places unless another is chosen: the placer's revealed card,
        then the next placer's (most players keep their set-aside cards), and for the last
        placer their first set-aside card left."""
        player = self.placer
        if player is None:
            return None
        if not self.has_placed_revealed(player):
            return self.reveal[player]
        if self.next_placer is not None:
            return self.reveal[self.next_placer]
        left = self.cards_left(player)
        return left[0] if left else None

    @property
    def complete(self) -> bool:
        return self.placer is None

    def move(self) -> dict[str, Any]:
        return {"reveal": self.reveal, "place": self.place}

    def as_data(self) -> dict[str, Any]:
        return {"reveal": self.reveal, "place": self.place, "done": self.done}


class ThricewiseUI(GameUI):
    # The referee's words ----------------------------------------------------------------------

    def word(self, kind: str, value: Any, state: Game | None) -> str | None:
        if kind == "cell" and isinstance(state, Thricewise) and is_cell(value):
            return cell_label(value, label_origin(state.setup_cells))
        if kind == "rank" and isinstance(value, str):
            return str(RANK_LABELS.get(value, value))
        return None

    def move_name(self, state: Game | None, number: int) -> str:
        return _("Turn %(number)s") % {"number": number + 1}

    def describe_move(self, state: Game, plan: Turn) -> str:
        """ "Ana reveals The Sailor, Ben The Origin; Ana places The Sailor at C4: +4"."""
        assert isinstance(state, Thricewise)
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
        origin = label_origin(state.setup_cells)
        for placed in state.why_turn(plan):
            values = {
                "player": placed.player,
                "card": placed.card,
                "cell": cell_label(placed.cell, origin) or describe(list(placed.cell)),
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
        return [
            thricewise_card(placed, _cell_namer(state))
            for placed in state.why_turn(plan)
            if placed.points
        ]

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
                "card": card_info(CARD_NAMES[index]),
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
                cells[cell] = {"card": card_info(card), "pending": True}
            legal = set(turn.legal_cells())
        everything = [*cells, *legal]
        min_x, max_x = min(x for x, _ in everything), max(x for x, _ in everything)
        min_y, max_y = min(y for _, y in everything), max(y for _, y in everything)
        origin = label_origin(state.setup_cells)
        rows = [
            {
                "label": y - origin[1] + 1,
                "cells": [
                    {
                        "x": x,
                        "y": y,
                        "label": cell_label((x, y), origin),
                        "legal": (x, y) in legal,
                        **cells.get((x, y), {}),
                    }
                    for x in range(min_x, max_x + 1)
                ],
            }
            for y in range(min_y, max_y + 1)
        ]
        context: dict[str, Any] = {
            "tw_rows": rows,
            "tw_column_labels": [COLUMN_LETTERS[x - origin[0]] for x in range(min_x, max_x + 1)],
            "tw_columns": max_x - min_x + 1,
            "tw_turn": state.turn,
            "tw_turns": state.turns_total,
            "tw_next_turn": state.turn + 1,
            "tw_set_aside": [
                {"player": p, "cards": [card_info(c) for c in cards]}
                for p, cards in state.set_aside_cards().items()
            ],
            "tw_sheet": self._sheet(state),
            "tw_last_turn": self._last_turn(state),
        }
        if turn is None:
            picked = _picked(draft.data if draft else {}, state, players) or {}
            by_card = {card: players[int(n)] for n, card in picked.items()}
            waiting = [n for n in range(len(players)) if str(n) not in picked]
            next_number = waiting[0] if waiting else None
            context["tw_reveal"] = {
                "players": [
                    {
                        "number": n,
                        "player": p,
                        "card": card_info(picked[str(n)]) if str(n) in picked else None,
                        "next": n == next_number,
                    }
                    for n, p in enumerate(players)
                ],
                "next": None if next_number is None else players[next_number],
                "cards": [
                    {**card_info(name), "by": by_card.get(name)} for name in state.unseen_cards()
                ],
            }
        else:
            ready = turn.ready_card()
            following = turn.next_placer
            cards = []
            if placer is not None:
                for name in turn.cards_left(placer):
                    aside = name != turn.reveal[placer]
                    cards.append({**card_info(name), "player": placer, "aside": aside})
                if following is not None and turn.has_placed_revealed(placer):
                    cards.append(
                        {**card_info(turn.reveal[following]), "player": following, "aside": False}
                    )
            context["tw_draft"] = {
                "reveal": [
                    {
                        "number": number,
                        "player": p,
                        "card": card_info(c),
                        "aside": p in turn.set_aside_now,
                        "done": p in turn.done,
                        "current": p == placer,
                        "placed": [card_info(name) for name in turn.placed_by(p)],
                    }
                    for number, (p, c) in enumerate(turn.reveal.items())
                ],
                "order": turn.order,
                "placer": placer,
                "ready": ready,
                "cards": cards,
                "may_enter": placer is None
                or (following is None and turn.has_placed_revealed(placer)),
                "has_cells": bool(legal),
                "placed": len(turn.place),
            }
        return context

    @staticmethod
    def _sheet(state: Thricewise) -> dict[str, Any]:
        """Points turn by turn per player, with the cards each placed and why they scored, and
        the totals."""
        cards: dict[tuple[int, str], list[str]] = {}
        why: dict[tuple[int, str], list[Reason]] = {}
        cell_name = _cell_namer(state)
        for placed in state.why():
            cards.setdefault((placed.turn, placed.player), []).append(placed.card)
            why.setdefault((placed.turn, placed.player), []).append(
                thricewise_card(placed, cell_name)
            )
        rows = []
        for number in range(state.turns_total):
            played = number < len(state.turn_points)
            points = state.turn_points[number] if played else {}
            rows.append(
                {
                    "number": number + 1,
                    "played": played,
                    "cells": [
                        {
                            "points": points.get(p),
                            "cards": cards.get((number, p), []),
                            "why": why.get((number, p), []),
                            "player": p,
                        }
                        for p in state.players
                    ],
                }
            )
        return {"players": state.players, "rows": rows, "totals": state.scores()}

    @staticmethod
    def _last_turn(state: Thricewise) -> list[dict[str, Any]]:
        if not state.turn_points:
            return []
        return [{"player": p, "points": n} for p, n in state.turn_points[-1].items()]

    def events(self, before: Judgement, after: Judgement, players: list[str]) -> list[str]:
        """A turn completed: what each player scored."""
        turns = after.details.get("turn_points", [])
        if len(turns) <= len(before.details.get("turn_points", [])):
            return []
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
                raise FormError(_("The form was damaged: start the move again."))
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
        picked = _picked(data, state, players)
        if picked is None:
            raise FormError(_("The form was damaged: start the move again."))
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


def _picked(data: dict[str, Any], state: Thricewise, players: list[str]) -> dict[str, str] | None:
    """The cards given so far in the picker, {seat number: card}; None when the draft's picks
    are damaged (not seats, not unseen cards, a card twice)."""
    picked = data.get("picked") or {}
    if not isinstance(picked, dict):
        return None
    unseen = set(state.unseen_cards())
    seats = {str(n) for n in range(len(players))}
    if any(n not in seats or c not in unseen for n, c in picked.items()):
        return None
    if len(set(picked.values())) != len(picked):
        return None
    return dict(picked)


UI = ThricewiseUI
