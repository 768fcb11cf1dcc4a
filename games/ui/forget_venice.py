"""Forget Venice at the table: the score sheets, the deal tap by tap, collections by suit.

A deal is entered as the table plays it: the dealer lays 7 cards out in 3 piles (tap a pile, then
the cards that go in it; tap a laid card to take it back), then the First Chooser's pile and the
Second Chooser's pile are tapped; the dealer keeps the last one. Only cards not yet dealt this
half are offered, and only the dealers the rotation allows; the referee judges the complete deal.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from referee import Game, Judgement
from referee.decktet import BY_NAME, SUITS, Card
from referee.forget_venice import (
    CARDS_PER_DEAL,
    CRITERIA,
    DEALS,
    DEALS_PER_HALF,
    DEFAULT_SHEETS,
    HALVES,
    PILES,
    RUN_RANKS,
    Deal,
    ForgetVenice,
)

from ..why import criterion_reason
from . import Draft, FormError, GameUI, clauses, read_draft
from ._decktet import SUIT_LABELS, rank_label

#: The twelve run ranks as narrow column heads (Ace = 1 … Crown = 12).
RANK_SHORT = {"Ace": "A", "Pawn": "P", "Court": "Co", "Crown": "Cr"}
CRITERION_RULES = {
    "I": gettext_lazy("the smaller count"),
    "II": gettext_lazy("the difference of the counts"),
    "III": gettext_lazy("the longest run"),
}
TIE_BREAKS = {
    "second_half": gettext_lazy(
        "Tied on the total: the most second-half points decided the winner."
    ),
    "second_half_run": gettext_lazy(
        "Tied on the total and on the second half: the longest second-half run "
        "(criterion III) decided the winner."
    ),
    "shared": gettext_lazy(
        "Tied on the total, the second half and the second-half run: the win is shared."
    ),
}
RANKS_IN_ORDER = sorted(RUN_RANKS, key=RUN_RANKS.__getitem__)


def _suit(suit: str) -> dict[str, Any]:
    label = str(SUIT_LABELS[suit])
    return {"name": suit, "label": label, "short": label[:2], "css": suit.lower()}


def _card(card: Card | str) -> dict[str, Any]:
    if isinstance(card, str):
        card = BY_NAME[card]
    return {
        "name": card.name,
        "rank": rank_label(card.rank),
        "suits": [_suit(s) for s in card.suits],
    }


def _field(seat: int, half: str, suit: str) -> str:
    """The setup form's field of one suit of one seat's half: its value is the criterion."""
    return f"sheet-{seat}-{half}-{suit}"


def _criterion_of(pairs: Any) -> dict[str, str]:
    """{suit: criterion} for a half's three pairs of suits (criteria I, II, III in order)."""
    return {
        suit: criterion for criterion, pair in zip(CRITERIA, pairs, strict=True) for suit in pair
    }


class ForgetVeniceUI(GameUI):
    # The referee's words ----------------------------------------------------------------------

    def word(self, kind: str, value: Any, state: Game | None) -> str | None:
        if kind == "suit" and isinstance(value, str) and value in SUIT_LABELS:
            return str(SUIT_LABELS[value])
        return None

    def move_name(self, state: Game | None, number: int) -> str:
        if number >= DEALS:  # a move after the end: there is no such deal
            return super().move_name(state, number)
        return _("Deal %(number)s of %(deals)s") % {"number": number + 1, "deals": DEALS}

    def describe_move(self, state: Game, plan: Deal) -> str:
        """ "Ben deals; Chloé takes pile 3 (The Sailor, ...); Ana takes pile 1 (...); Ben keeps
        pile 2 (...)"."""
        assert isinstance(state, ForgetVenice)
        first, second = state.choosers(plan.dealer)
        rest = 3 - plan.first - plan.second  # the pile neither chooser took

        def pile(index: int) -> dict[str, Any]:
            return {"pile": index + 1, "cards": ", ".join(plan.piles[index])}

        return clauses(
            [
                _("%(player)s deals") % {"player": plan.dealer},
                _("%(player)s takes pile %(pile)s (%(cards)s)")
                % {"player": first, **pile(plan.first)},
                _("%(player)s takes pile %(pile)s (%(cards)s)")
                % {"player": second, **pile(plan.second)},
                _("%(player)s keeps pile %(pile)s (%(cards)s)")
                % {"player": plan.dealer, **pile(rest)},
            ]
        )

    def move_outcome(self, state: Game, plan: Deal) -> str | None:
        """The points of a half, once it is over."""
        assert isinstance(state, ForgetVenice)
        played = len(state.dealers)
        if played not in (DEALS_PER_HALF, DEALS):
            return None
        half = 1 if played == DEALS_PER_HALF else 2
        totals = ", ".join(
            f"{player} {state.criteria(player, half)['total']}" for player in state.players
        )
        if half == 1:
            return _("First half over: %(points)s.") % {"points": totals}
        return _("Second half over: %(points)s.") % {"points": totals}

    # Setup: the score sheets ------------------------------------------------------------------

    def default_setup(self, players: list[str]) -> Any:
        """No ``sheets``: every seat plays the default sheet of docs/gamelog.md §4."""
        return {}

    def setup_context(self, players: list[str], post: QueryDict | None) -> dict[str, Any]:
        """Each seat's sheet as a grid to tap: for each half, a row per criterion and a column
        per suit; a tap puts the suit in that criterion. Every seat starts from its default
        sheet, so that the default sheets take one tap: "Start the play"."""
        sheets = []
        edited = False
        for seat, name in enumerate(players):
            halves = []
            changed = False  # this seat's sheet, as sent back
            for half in HALVES:
                default = _criterion_of(DEFAULT_SHEETS[seat % len(DEFAULT_SHEETS)][half])
                chosen = {}
                for suit in SUITS:
                    value = default[suit]
                    if post is not None:
                        value = post.get(_field(seat, half, suit), "")
                        changed = changed or value != default[suit]
                    chosen[suit] = value
                rows = [
                    {
                        "criterion": criterion,
                        "rule": CRITERION_RULES[criterion],
                        "cells": [
                            {
                                **_suit(suit),
                                "field": _field(seat, half, suit),
                                "checked": chosen[suit] == criterion,
                            }
                            for suit in SUITS
                        ],
                    }
                    for criterion in CRITERIA
                ]
                halves.append({"half": half, "rows": rows})
            # One sheet is open at a time (a phone shows one whole): the first one changed, so
            # that a refused sheet is the one on the screen, or else the first.
            opened = changed and not edited
            sheets.append({"name": name, "seat": seat + 1, "halves": halves, "open": opened})
            edited = edited or changed
        if not edited:
            sheets[0]["open"] = True
        return {
            "fv_sheets": sheets,
            "fv_suits": [_suit(s) for s in SUITS],
            # a sheet sent back (refused, or changed): the grids stay open
            "fv_edited": edited,
        }

    def parse_setup(self, post: QueryDict, players: list[str]) -> Any:
        """The sheets as tapped; no ``sheets`` at all when they are the default sheets.

        A half's six suits each go to one criterion, two suits per criterion; within a
        criterion the two suits are listed in the Decktet's order of suits."""
        sheets: dict[str, dict[str, dict[str, list[str]]]] = {}
        is_default = len(players) <= len(DEFAULT_SHEETS)
        for seat, name in enumerate(players):
            sheet: dict[str, dict[str, list[str]]] = {}
            for half in HALVES:
                pairs: dict[str, list[str]] = {criterion: [] for criterion in CRITERIA}
                for suit in SUITS:
                    criterion = post.get(_field(seat, half, suit), "")
                    if criterion not in pairs:
                        raise FormError(
                            _("%(name)s's sheet, half %(half)s: tap the criterion of %(suit)s.")
                            % {"name": name, "half": half, "suit": SUIT_LABELS[suit]}
                        )
                    pairs[criterion].append(suit)
                for criterion, suits in pairs.items():
                    if len(suits) != 2:
                        raise FormError(
                            ngettext(
                                "%(name)s's sheet, half %(half)s: criterion %(c)s has "
                                "%(count)s suit (%(suits)s); each criterion takes two.",
                                "%(name)s's sheet, half %(half)s: criterion %(c)s has "
                                "%(count)s suits (%(suits)s); each criterion takes two.",
                                len(suits),
                            )
                            % {
                                "name": name,
                                "half": half,
                                "c": criterion,
                                "count": len(suits),
                                "suits": ", ".join(str(SUIT_LABELS[s]) for s in suits) or "—",
                            }
                        )
                sheet[half] = pairs
                if is_default and _criterion_of(DEFAULT_SHEETS[seat][half]) != {
                    suit: criterion for criterion, suits in pairs.items() for suit in suits
                }:
                    is_default = False
            sheets[name] = sheet
        return {} if is_default else {"sheets": sheets}

    # Moves: one deal ------------------------------------------------------------------------------

    def _read(self, post: QueryDict, state: ForgetVenice) -> dict[str, Any]:
        """The deal composed so far, checked for shape (a damaged form is refused)."""
        draft = read_draft(post)
        damaged = FormError(_("The form was damaged: start the move again."))
        dealer = draft.get("dealer")
        if dealer is not None and dealer not in state.players:
            raise damaged
        piles = draft.get("piles", [[] for _ in range(PILES)])
        if not (
            isinstance(piles, list)
            and len(piles) == PILES
            and all(isinstance(p, list) and all(c in BY_NAME for c in p) for p in piles)
        ):
            raise damaged
        active = draft.get("active", 0)
        first = draft.get("first")
        if not _is_pile(active) or not (first is None or _is_pile(first)):
            raise damaged
        return {"dealer": dealer, "piles": piles, "active": active, "first": first}

    def parse_move(self, post: QueryDict, judgement: Judgement, players: list[str]) -> Any:
        state = judgement.state
        if not isinstance(state, ForgetVenice) or state.finished:
            raise FormError(_("No deal can be entered now."))
        deal = self._read(post, state)
        dealers = state.next_dealers()
        if deal["dealer"] is None and len(dealers) == 1:
            deal["dealer"] = dealers[0]
        laid = [card for pile in deal["piles"] for card in pile]

        if "dealer" in post:
            if post["dealer"] not in dealers:
                raise FormError(_("Choose the dealer among the players offered."))
            deal["dealer"] = post["dealer"]
            deal["first"] = None
        elif "pile" in post:
            deal["active"] = _pile_index(post["pile"])
        elif "card" in post:
            card = post["card"]
            if deal["dealer"] is None:
                raise FormError(_("First choose who deals."))
            if card not in state.undealt() or card in laid:
                raise FormError(
                    _("%(card)s is not among the cards left to deal this half.") % {"card": card}
                )
            if len(laid) >= CARDS_PER_DEAL:
                raise FormError(_("The dealer lays out exactly 7 cards: take one back first."))
            deal["piles"][deal["active"]].append(card)
            deal["first"] = None
        elif "take_back" in post:
            card = post["take_back"]
            if card not in laid:
                raise FormError(_("%(card)s is not in a pile.") % {"card": card})
            for pile in deal["piles"]:
                if card in pile:
                    pile.remove(card)
            deal["first"] = None
        elif "first" in post or "second" in post:
            if deal["dealer"] is None or not _deal_complete(deal["piles"]):
                raise FormError(
                    _("Lay out the 7 cards in 3 piles before saying who took which pile.")
                )
            if "first" in post:
                deal["first"] = _pile_index(post["first"])
            else:
                if deal["first"] is None:
                    raise FormError(_("First say which pile the First Chooser took."))
                return {
                    "dealer": deal["dealer"],
                    "piles": deal["piles"],
                    "first": deal["first"],
                    "second": _pile_index(post["second"]),
                }
        else:
            raise FormError(_("Tap a card, a pile or a player."))
        return Draft(deal)

    def events(self, before: Judgement, after: Judgement, players: list[str]) -> list[str]:
        """A half completed: it is scored."""
        deals = after.details.get("deals_played", 0)
        if deals and deals % 6 == 0 and deals != before.details.get("deals_played"):
            return [_("Half %(half)s is over and scored.") % {"half": deals // 6}]
        return []

    def move_context(self, judgement: Judgement, players: list[str], draft: Draft | None) -> dict:
        state = judgement.state
        context: dict[str, Any] = {"fv_sheet": _sheet(judgement.details, players, state)}
        if not isinstance(state, ForgetVenice):
            return context
        data = draft.data if draft else {}
        dealers = state.next_dealers()
        dealer = data.get("dealer") or (dealers[0] if len(dealers) == 1 else None)
        choosers = state.choosers(dealer) if dealer else (None, None)
        roles = {}
        if dealer:
            roles = {
                dealer: _("Dealer"),
                choosers[0]: _("First Chooser"),
                choosers[1]: _("Second Chooser"),
            }
        context["fv_board"] = {
            "deal": state.deal,
            "deals": DEALS,
            "half": state.half,
            "dealers": dealers,
            "dealer": dealer,
            "first_chooser": choosers[0],
            "second_chooser": choosers[1],
            "ranks": [RANK_SHORT.get(rank, rank) for rank in RANKS_IN_ORDER],
            "players": [_player_board(state, p, roles.get(p)) for p in state.players],
        }
        if not state.finished:
            context["fv_form"] = _form(state, data, dealers, dealer, choosers)
        return context


def _is_pile(value: Any) -> bool:
    return type(value) is int and 0 <= value < PILES


def _pile_index(value: str) -> int:
    if value not in ("0", "1", "2"):
        raise FormError(_("There are only piles 1, 2 and 3."))
    return int(value)


def _deal_complete(piles: list[list[str]]) -> bool:
    return sum(len(p) for p in piles) == CARDS_PER_DEAL and all(piles)


def _player_board(state: ForgetVenice, player: str, role: str | None) -> dict[str, Any]:
    """One player's collection this half, suit by suit, under the criteria the suits serve."""
    cards = [BY_NAME[name] for name in state.collection(player)]
    scores = state.criteria(player)
    pairs = state.sheets[player][str(state.half)]
    criteria = []
    for criterion, pair in zip(CRITERIA, pairs, strict=True):
        rows = []
        for suit in pair:
            held = [card for card in cards if suit in card.suits]
            slots = []
            for rank in RANKS_IN_ORDER:
                count = sum(1 for card in held if card.rank == rank)
                slots.append({"rank": RANK_SHORT.get(rank, rank), "count": count})
            rows.append({**_suit(suit), "count": len(held), "slots": slots})
        criteria.append(
            {
                "criterion": criterion,
                "rule": CRITERION_RULES[criterion],
                "value": scores[criterion],
                "suits": rows,
            }
        )
    return {
        "name": player,
        "role": role,
        "total": scores["total"],
        "criteria": criteria,
        "cards": [_card(card) for card in cards],
    }


def _form(
    state: ForgetVenice,
    data: dict[str, Any],
    dealers: list[str],
    dealer: str | None,
    choosers: tuple[str | None, str | None],
) -> dict[str, Any]:
    piles = data.get("piles") or [[] for _ in range(PILES)]
    active = data.get("active", 0)
    first = data.get("first")
    laid = [card for pile in piles for card in pile]
    complete = _deal_complete(piles)
    return {
        "dealers": dealers,
        "dealer": dealer,
        "first_chooser": choosers[0],
        "second_chooser": choosers[1],
        "laid": len(laid),
        "to_lay": CARDS_PER_DEAL,
        "piles": [
            {
                "index": i,
                "number": i + 1,
                "active": i == active,
                "cards": [_card(c) for c in pile],
            }
            for i, pile in enumerate(piles)
        ],
        "undealt": (
            [_card(c) for c in state.undealt() if c not in laid]
            if dealer and len(laid) < CARDS_PER_DEAL
            else []
        ),
        "complete": complete,
        "first": first,
        "first_number": None if first is None else first + 1,
        "first_options": [i + 1 for i in range(PILES)],
        "second_options": [i + 1 for i in range(PILES) if i != first],
    }


def _sheet(
    details: dict[str, Any], players: list[str], state: Game | None
) -> dict[str, Any] | None:
    """The paper score sheet: criteria I/II/III per half and player, half totals, totals; and,
    when the game state is at hand, why each criterion gave its points."""
    halves = details.get("halves")
    sheets = details.get("sheets")
    if not halves or not sheets:
        return None
    rows = []
    for index, half in enumerate(HALVES):
        scores = halves[index] if index < len(halves) else None
        why = {}
        if scores and isinstance(state, ForgetVenice):
            why = {p: state.why(p, index + 1) for p in players}
        criteria = []
        for number, criterion in enumerate(CRITERIA):
            cells = []
            for player in players:
                suits = [_suit(s) for s in sheets[player][half][criterion]]
                value = scores[player][criterion] if scores else None
                reason = criterion_reason(why[player][number]) if player in why else None
                cells.append({"value": value, "suits": suits, "why": reason, "player": player})
            criteria.append({"criterion": criterion, "cells": cells})
        totals = [scores[p]["total"] if scores else None for p in players]
        rows.append({"half": half, "criteria": criteria, "totals": totals})
    grand = [sum(h[p]["total"] for h in halves) for p in players]
    tie_break = details.get("tie_break")
    return {
        "halves": rows,
        "totals": grand,
        "tie_break": tie_break,
        "tie_break_text": TIE_BREAKS.get(tie_break) if tie_break else None,
        "finished": details.get("deal") is None,
    }


UI = ForgetVeniceUI
