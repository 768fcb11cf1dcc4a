"""Forget Venice drawn: each player's collection by suit under the criteria it serves, the
deal being laid out, and the paper score sheet with why each criterion gave its points."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from referee import Game, Judgement
from referee.decktet import BY_NAME, Card
from referee.forget_venice import (
    CARDS_PER_DEAL,
    CRITERIA,
    DEALS,
    HALVES,
    PILES,
    RUN_RANKS,
    ForgetVenice,
)

from .. import Draft, whose
from .._decktet import Words, words
from .sheet import told
from .table import (
    draw_card_names,
    draw_choices,
    draw_collection,
    draw_deck,
    draw_each_deal,
    draw_laid,
    draw_pile_head,
)

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
#: Each run rank with its column head, in order.
RANK_COLUMNS = [(rank, RANK_SHORT.get(rank, rank)) for rank in RANKS_IN_ORDER]
#: Each run rank's column.
_COLUMN = {rank: column for column, rank in enumerate(RANKS_IN_ORDER)}


def suit_info(suit: str, said: Words | None = None) -> dict[str, Any]:
    """What a template needs to draw a suit: its name, label, two-letter short form, CSS key
    (``said``: the words of the language active, when the caller has them). The same dict for
    every drawing in a language: read, never changed."""
    return _drawn(said or words())[0][suit]


def card_info(card: Card | str, said: Words | None = None) -> dict[str, Any]:
    """What a template needs to draw a card: its name, rank and suits (as suit_info)."""
    return _drawn(said or words())[1][card if isinstance(card, str) else card.name]


def _drawn(said: Words) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """suit_info of every suit and card_info of every card, in ``said``'s language: made once
    per process and language (a move's board draws some 300 of them, issue 32)."""
    found = _DRAWN.get(said.language)
    if found is None:
        found = _DRAWN[said.language] = _draw_all(said)
    return found


#: _drawn's, by language
_DRAWN: dict[str | None, tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]] = {}


def _draw_all(said: Words) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    suits = {}
    for suit, label in said.suits.items():
        suits[suit] = {"name": suit, "label": label, "short": label[:2], "css": suit.lower()}
    cards = {
        card.name: {
            "name": card.name,
            "rank": said.rank(card.rank),
            "suits": [suits[s] for s in card.suits],
        }
        for card in BY_NAME.values()
    }
    return suits, cards


def deal_complete(piles: list[list[str]]) -> bool:
    """Whether the dealer has laid out the 7 cards, in 3 piles none of them empty."""
    return sum(len(p) for p in piles) == CARDS_PER_DEAL and all(piles)


def player_board(
    state: ForgetVenice, player: str, role: str | None, said: Words | None = None
) -> dict[str, Any]:
    """One player's collection this half, suit by suit, under the criteria the suits serve."""
    said = said or words()
    cards = [BY_NAME[name] for name in state.collection(player)]
    scores = state.criteria(player)
    pairs = state.sheets[player][str(state.half)]
    # Each suit's cards, and how many of them each rank column holds (RANK_COLUMNS' order):
    # the cards read once for the six suits.
    count = {suit: 0 for pair in pairs for suit in pair}
    held = {suit: [0] * len(RANK_COLUMNS) for suit in count}
    for card in cards:
        column = _COLUMN.get(card.rank)
        for suit in card.suits:
            count[suit] += 1
            if column is not None:
                held[suit][column] += 1
    criteria = []
    for criterion, pair in zip(CRITERIA, pairs, strict=True):
        rows = [
            {**suit_info(suit, said), "count": count[suit], "held": tuple(held[suit])}
            for suit in pair
        ]
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
        "cards": [card_info(card, said) for card in cards],
    }


def when_dealer(dealer: str) -> str:
    """What shows a part of the page only once ``dealer`` is the one tapped, for the phone's
    builder (data-when-value, static/js/move-builder.js)."""
    return json.dumps({"dealer": dealer}, ensure_ascii=False)


def dealings(state: ForgetVenice, dealer: str | None, building: bool) -> list[dict[str, Any]]:
    """Who deals, with the First and Second Chooser of each: the dealer known (a step drawn by
    the server), or, for the phone to build the deal, every player, each with ``when``, which
    shows what names that dealer's choosers once that dealer is tapped (the one dealer the
    rotation allows is set at once; a player tied for the deal, or anyone once deals wait in the
    outbox, is tapped), and ``may``: whether the referee's options offer that dealer now."""
    if building:
        names = state.players
    elif dealer is not None:
        names = [dealer]
    else:
        return []
    # The dealers the referee's options offer (ForgetVenice.options reads the same rotation),
    # without working out the rest of the options a second time for this page.
    offered = state.next_dealers()
    deals = []
    for name in names:
        first, second = state.choosers(name)
        deals.append(
            {
                "dealer": name,
                "whose": whose(name),
                "first_chooser": first,
                "second_chooser": second,
                "when": when_dealer(name) if building else "",
                "may": name in offered,
                "shown": name == dealer,
            }
        )
    return deals


def deal_form(
    state: ForgetVenice,
    data: dict[str, Any],
    dealers: list[str],
    dealer: str | None,
    choosers: tuple[str | None, str | None],
    deals: list[dict[str, Any]],
    said: Words | None = None,
) -> dict[str, Any]:
    """The deal being entered: as the server's draft has it (a step without a script), or, with
    no step taken yet, the whole of it for the phone to build (``building``): every card not
    dealt yet, the piles, who took which, hidden until the taps call for them."""
    said = said or words()
    building = not data
    piles = data.get("piles") or [[] for _ in range(PILES)]
    active = data.get("active", 0)
    first = data.get("first")
    laid = [card for pile in piles for card in pile]
    complete = deal_complete(piles)
    # What the phone's move holds before any tap: no card laid, pile 1 takes them ("_pile"
    # guides the taps and is never sent). The dealer is the builder's base (ForgetVeniceUI).
    start: dict[str, Any] = {"_pile": 0, "piles": [[] for _ in range(PILES)]}
    return {
        "building": building,
        "start": json.dumps(start, ensure_ascii=False),
        "deals": deals,
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
                "cards": [card_info(c, said) for c in pile],
            }
            for i, pile in enumerate(piles)
        ],
        "undealt": (
            [card_info(c, said) for c in state.undealt() if c not in laid]
            if (dealer or building) and len(laid) < CARDS_PER_DEAL
            else []
        ),
        "complete": complete,
        "first_number": None if first is None else first + 1,
        "first_options": [i + 1 for i in range(PILES)],
        "second_options": [i + 1 for i in range(PILES) if i != first],
        # the cards drawn in Python, each kept once drawn (games.ui._drawing, issue 32)
        "draw_deck": draw_deck,
        "draw_laid": draw_laid,
        "draw_each_deal": draw_each_deal,
        "draw_pile_head": draw_pile_head,
        "draw_choices": draw_choices,
    }


def sheet(
    details: dict[str, Any], players: list[str], state: Game | None, said: Words | None = None
) -> dict[str, Any] | None:
    """The paper score sheet: criteria I/II/III per half and player, half totals, totals; and,
    when the game state is at hand, why each criterion gave its points."""
    halves = details.get("halves")
    sheets = details.get("sheets")
    if not halves or not sheets:
        return None
    said = said or words()
    rows = []
    for index, half in enumerate(HALVES):
        scores = halves[index] if index < len(halves) else None
        why = {}
        if scores and isinstance(state, ForgetVenice):
            why = {p: told(state.why(p, index + 1), said) for p in players}
        criteria = []
        for number, criterion in enumerate(CRITERIA):
            cells = []
            for player in players:
                suits = [suit_info(s, said) for s in sheets[player][half][criterion]]
                value = scores[player][criterion] if scores else None
                reason = why[player][number] if player in why else None
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


def _roles(dealer: str, first: str | None, second: str | None) -> dict[str | None, str]:
    """Each player's part in the deal, as the board names it beside the player."""
    return {dealer: _("Dealer"), first: _("First Chooser"), second: _("Second Chooser")}


def _choosers(deal: dict[str, Any]) -> tuple[str, str]:
    return deal["first_chooser"], deal["second_chooser"]


def board_context(judgement: Judgement, players: list[str], draft: Draft | None) -> dict:
    """What board.html, move_form.html and sheet.html draw of the game and the deal being
    entered."""
    state = judgement.state
    said = words()  # the language looked up once for the whole board
    context: dict[str, Any] = {"fv_sheet": sheet(judgement.details, players, state, said)}
    if not isinstance(state, ForgetVenice):
        return context
    data = draft.data if draft else {}
    dealers = state.next_dealers()
    dealer = data.get("dealer") or (dealers[0] if len(dealers) == 1 else None)
    choosers = state.choosers(dealer) if dealer else (None, None)
    roles = _roles(dealer, *choosers) if dealer else {}
    players = [player_board(state, p, roles.get(p), said) for p in state.players]
    deals = [] if state.finished else dealings(state, dealer, not data)
    tied = []
    if not dealer:
        # Several may deal and the phone builds the deal: who is who, once one is tapped.
        tied = [deal for deal in deals if deal["may"]]
        for player in players:
            player["roles_if"] = [
                {"when": deal["when"], "role": role}
                for deal in tied
                if (role := _roles(deal["dealer"], *_choosers(deal)).get(player["name"]))
            ]
    context["fv_board"] = {
        "deal": state.deal,
        "deals": DEALS,
        "half": state.half,
        "dealers": dealers,
        "dealer": dealer,
        "first_chooser": choosers[0],
        "second_chooser": choosers[1],
        "ranks": [RANK_SHORT.get(rank, rank) for rank in RANKS_IN_ORDER],
        "players": players,
        # what the board says of each dealer the phone may tap (several may deal)
        "dealings": tied,
        # each collection drawn in Python, each suit's row kept once drawn (issue 32)
        "draw_collection": draw_collection,
        "draw_card_names": draw_card_names,
    }
    if not state.finished:
        context["fv_form"] = deal_form(state, data, dealers, dealer, choosers, deals, said)
    return context
