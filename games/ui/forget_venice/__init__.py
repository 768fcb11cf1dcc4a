"""Forget Venice at the table: the score sheets, the deal tap by tap, collections by suit.

A deal is entered as the table plays it: the dealer lays 7 cards out in 3 piles (tap a pile, then
the cards that go in it; tap a laid card to take it back), then the First Chooser's pile and the
Second Chooser's pile are tapped; the dealer keeps the last one. Only cards not yet dealt this
half are offered, and only the dealers the rotation allows; the referee judges the complete deal.

With a script the deal is built on the phone (``builder``; issue 28): the same taps, each shown
at once, and the finished deal sent once. Without, each tap posts the form and ``parse_move``
builds the deal in the page's draft.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from referee import Game, Judgement
from referee.decktet import BY_NAME, SUITS
from referee.forget_venice import (
    CARDS_PER_DEAL,
    CRITERIA,
    DEALS,
    DEALS_PER_HALF,
    DEFAULT_SHEETS,
    HALVES,
    PILES,
    Deal,
    ForgetVenice,
)

from .. import Builder, Draft, FormError, GameUI, clauses, damaged_form, read_draft
from .._decktet import SUIT_LABELS, suit_label
from .board import CRITERION_RULES, board_context, deal_complete, suit_info
from .sheet import draw_sheet


def _field(seat: int, half: str, suit: str) -> str:
    """The setup form's field of one suit of one seat's half: its value is the criterion."""
    return f"sheet-{seat}-{half}-{suit}"


def _criterion_of(pairs: Any) -> dict[str, str]:
    """{suit: criterion} for a half's three pairs of suits (criteria I, II, III in order)."""
    return {
        suit: criterion for criterion, pair in zip(CRITERIA, pairs, strict=True) for suit in pair
    }


class ForgetVeniceUI(GameUI):
    # On the phone: the dealer (the one the rotation allows, else tapped), the 7 cards into the
    # 3 piles, then the First Chooser's pile and the Second Chooser's, which sends the deal
    # (move_form.html).
    builder = Builder(complete="dealer piles first second", base={"dealer": "dealers.*.dealer"})

    # The referee's words ----------------------------------------------------------------------

    def word(self, kind: str, value: Any, state: Game | None) -> str | None:
        if kind == "suit" and isinstance(value, str) and value in SUIT_LABELS:
            return suit_label(value)
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
                                **suit_info(suit),
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
            "fv_suits": [suit_info(s) for s in SUITS],
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
                                "suits": ", ".join(suit_label(s) for s in suits) or "—",
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
        dealer = draft.get("dealer")
        if dealer is not None and dealer not in state.players:
            raise damaged_form()
        piles = draft.get("piles", [[] for _ in range(PILES)])
        if not (
            isinstance(piles, list)
            and len(piles) == PILES
            and all(isinstance(p, list) and all(c in BY_NAME for c in p) for p in piles)
        ):
            raise damaged_form()
        # The piles are drawn card by card: they hold at most the deal's 7 cards, each once and
        # each still to deal this half, as the taps lay them (issue 29: a draft is checked
        # against the position before it is drawn, not only for its shape).
        laid = [card for pile in piles for card in pile]
        undealt = set(state.undealt())
        if (
            len(laid) > CARDS_PER_DEAL
            or len(set(laid)) != len(laid)
            or any(card not in undealt for card in laid)
        ):
            raise damaged_form()
        active = draft.get("active", 0)
        first = draft.get("first")
        if not _is_pile(active) or not (first is None or _is_pile(first)):
            raise damaged_form()
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
            if deal["dealer"] is None or not deal_complete(deal["piles"]):
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
        # the score sheet drawn in Python (issue 32)
        return {**board_context(judgement, players, draft), "fv_sheet_drawn": draw_sheet}


def _is_pile(value: Any) -> bool:
    return type(value) is int and 0 <= value < PILES


def _pile_index(value: str) -> int:
    if value not in ("0", "1", "2"):
        raise FormError(_("There are only piles 1, 2 and 3."))
    return int(value)


UI = ForgetVeniceUI
