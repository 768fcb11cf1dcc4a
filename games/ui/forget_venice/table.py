"""Forget Venice's table drawn (games.ui._drawing: in Python, each piece kept once drawn): each
player's collection, a row of 12 rank slots per suit under each criterion (some 200 cells a
move for three players), and the deal being laid out: its cards (``deck``: every card not
dealt yet this half, each a button to tap; ``laid``: a pile's cards, each tapped to take it
back), its piles' buttons, and what it says for each dealer the phone may tap. The rest of
board.html and move_form.html stays in the templates. A card is named for the pieces it is
in, a criterion by its numeral: its face, its rule, are the same for them in a language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext_noop
from markupsafe import Markup

from .._drawing import Pieces, esc, said, said_with

#: What the pieces say, marked here for the catalogue (makemessages reads no f-string).
SUIT = gettext_noop("Suit")
TAKE_BACK = gettext_noop("Take it back")
#: What is said for each dealer the deal may have (move_form.html's ``form.deals``), by part.
FOR_EACH_DEAL = {
    "piles": gettext_noop("%(whose)s 7 cards in 3 piles (%(laid)s of %(to_lay)s laid out)"),
    "first": gettext_noop("%(who)s (First Chooser) took:"),
    "second": gettext_noop("%(who)s (Second Chooser) took:"),
    "keeps": gettext_noop("%(who)s (the dealer) keeps the last pile; the deal is entered at once."),
}
#: A pile, as its button says it; and as the chooser's tap says it on the phone.
PILE = gettext_noop("Pile %(number)s")
TOOK = {
    "first": gettext_noop("First Chooser: pile %(number)s"),
    "second": gettext_noop("Second Chooser: pile %(number)s"),
}
#: Whose name each part says.
_WHO = {"first": "first_chooser", "second": "second_chooser", "keeps": "dealer"}
#: The count of cards laid out, on the phone: its builder counts them (data-count).
_LAID_COUNT = Markup('<span class="fv-laid-count" data-count="piles">0</span>')


def draw_collection(player: dict[str, Any], ranks: Sequence[str]) -> Markup:
    """A player's collection (board.py's ``player_board``): under each criterion, its rule and
    points, then a row per suit, the cards it holds by rank (``held``: a count per rank)."""
    out = [
        '<table class="fv-collection">\n        ',
        _head(tuple(ranks)),
        "\n        ",
    ]
    for criterion in player["criteria"]:
        out.append(_criterion_head(criterion["criterion"], criterion["value"]))
        out.append(
            _suit_row.joined(
                [
                    (
                        suit["name"],
                        suit["css"],
                        suit["short"],
                        suit["label"],
                        suit["count"],
                        suit["held"],
                    )
                    for suit in criterion["suits"]
                ]
            )
        )
        out.append("\n        </tbody>\n        ")
    out.append("\n      </table>")
    return Markup("".join(out))


def draw_card_names(cards: Sequence[dict[str, Any]]) -> Markup:
    """The cards a player took this half, named in the order taken (board.py's ``card_info``
    each): a few words each, joined."""
    return Markup(", ".join([_card_name(card["name"]) for card in cards]))


def _card_name(name: str) -> str:
    return f'<span class="fv-card-name">{esc(name)}</span>'


def _draw_criterion_head(criterion: str, value: int) -> str:
    """A criterion's head: its rule, in the language active, and the points it gives."""
    from .board import CRITERION_RULES

    name = esc(criterion)
    return (
        '\n        <tbody class="fv-criterion">\n          <tr class="fv-criterion-head">'
        f'<th colspan="14" scope="rowgroup"><span class="fv-crit">{name}</span>'
        f' {esc(CRITERION_RULES[criterion])} = <strong class="fv-crit-value"'
        f' data-criterion="{name}">{esc(value)}</strong></th></tr>\n          '
    )


_criterion_head = Pieces(_draw_criterion_head, size=256)


def _draw_head(ranks: tuple[str, ...]) -> str:
    columns = "".join(f'<th class="fv-rank" scope="col">{esc(rank)}</th>' for rank in ranks)
    return (
        f'<thead><tr><th scope="col">{said(SUIT)}</th>'
        '<th scope="col" class="fv-count">#</th>'
        f"{columns}</tr></thead>"
    )


_head = Pieces(_draw_head, size=64)


def _draw_suit_row(
    name: str, css: str, short: str, label: str, count: int, counts: tuple[int, ...]
) -> str:
    """A suit's row: how many cards bear it, then each rank's slot, the cards of that rank it
    holds (most slots are empty)."""
    css = esc(css)
    slots = "".join(
        (
            f'<td class="fv-slot fv-held fv-held-{css}">{n if n > 1 else "●"}</td>'
            if n
            else '<td class="fv-slot"></td>'
        )
        for n in counts
    )
    return (
        f'\n          <tr class="fv-suit-row" data-suit="{esc(name)}">\n            '
        '<th scope="row">'
        f'<span class="fv-suit fv-suit-{css}">{esc(short)}</span> <span class="fv-suit-label">'
        f'{esc(label)}</span></th>\n            <td class="fv-count">{esc(count)}</td>\n'
        f"            {slots}\n          </tr>\n          "
    )


_suit_row = Pieces(_draw_suit_row)


def draw_deck(cards: Sequence[dict[str, Any]], building: bool) -> Markup:
    """The cards not dealt yet this half (board.py's ``card_info`` each): a tap lays one in the
    pile marked; on the phone (``building``) each toggles in the pile the builder points at."""
    return Markup(_undealt.joined([(card["name"], building) for card in cards]))


def draw_laid(cards: Sequence[dict[str, Any]]) -> Markup:
    """A pile's cards, as the server's draft has them: a tap takes one back."""
    return Markup(_laid.joined([(card["name"],) for card in cards]))


def _face(name: str) -> str:
    """A card's face, from its name in the language active: its rank, name and suits. Ends
    with the newline the template's macro drew."""
    from .board import card_info  # board.py hands these functions to the templates

    card = card_info(name)
    marks = "".join(
        f'<span class="fv-suit fv-suit-{esc(suit["css"])}" title="{esc(suit["label"])}">'
        f"{esc(suit['short'])}</span>"
        for suit in card["suits"]
    )
    return (
        f'<span class="fv-card-rank">{esc(card["rank"])}</span> <span class="fv-card-name">'
        f'{esc(card["name"])}</span> <span class="fv-card-suits">{marks}</span>\n'
    )


def _draw_undealt(name: str, building: bool) -> str:
    face = _face(name)
    name = esc(name)
    builder = (
        f' data-toggle="piles.{{_pile}}" data-string data-value="{name}" data-offered="cards"'
        ' data-needs="dealer" data-unset="first"'
        if building
        else ""
    )
    return (
        f'<button type="submit" name="card" value="{name}" class="fv-card"{builder}>{face}</button>'
    )


_undealt = Pieces(_draw_undealt)


def _draw_laid(name: str) -> str:
    return (
        f'<button type="submit" name="take_back" value="{esc(name)}" class="fv-card fv-laid"'
        f' title="{said(TAKE_BACK)}">{_face(name)}</button>'
    )


_laid = Pieces(_draw_laid)


def draw_each_deal(form: dict[str, Any], part: str, tag: str = "p", classes: str = "") -> Markup:
    """What one part of the deal says, once for each dealer of ``form.deals`` (board.py's
    ``dealings``): on the phone, one per player, each shown once that dealer is tapped; ``part``
    a key of FOR_EACH_DEAL, drawn in ``tag`` (with ``classes``)."""
    building = form["building"]
    return Markup(
        _each_deal(
            part,
            tag,
            classes,
            building,
            None if building else form["laid"],
            form["to_lay"],
            tuple(
                (deal["when"], deal["shown"], deal["whose"], deal[_WHO.get(part, "dealer")])
                for deal in form["deals"]
            ),
        )
    )


def _draw_each_deal(
    part: str,
    tag: str,
    classes: str,
    building: bool,
    laid: int | None,
    to_lay: int,
    deals: tuple[tuple[str, bool, str, str], ...],
) -> str:
    opening = f'<{tag} class="{classes}"' if classes else f"<{tag}"
    out = []
    for when, shown, whose, who in deals:
        shows = f' data-when-value="{esc(when)}"{"" if shown else " hidden"}' if when else ""
        if part == "piles":
            says = said_with(
                FOR_EACH_DEAL[part],
                whose=whose,
                laid=_LAID_COUNT if building else laid,
                to_lay=to_lay,
            )
        else:
            says = said_with(FOR_EACH_DEAL[part], who=who)
        out.append(f"{opening}{shows}>{says}</{tag}>")
    return "".join(out)


_each_deal = Pieces(_draw_each_deal, size=256)


def draw_pile_head(pile: dict[str, Any], building: bool) -> Markup:
    """A pile's button (board.py's ``deal_form`` ``piles``): a tap makes it the pile the next
    cards go to (pressed)."""
    return Markup(_pile_head(pile["index"], pile["number"], pile["active"], building))


def _draw_pile_head(index: int, number: int, active: bool, building: bool) -> str:
    builder = f' data-set="_pile" data-value="{index}"' if building else ""
    return (
        f'<button type="submit" name="pile" value="{index}" class="fv-pile-head"'
        f' id="fv-pile-{number}" aria-pressed="{"true" if active else "false"}"{builder}>'
        f"{said_with(PILE, number=number)}</button>"
    )


_pile_head = Pieces(_draw_pile_head, size=64)


def draw_choices(form: dict[str, Any], chooser: str) -> Markup:
    """The piles the First Chooser (``chooser`` "first") or the Second Chooser ("second") may
    have taken, a button each; the First Chooser's pile taken is pressed."""
    building = form["building"]
    if chooser == "first":
        taken = form["first_number"]
        return Markup(
            _choice.joined(
                [(chooser, number, building, number == taken) for number in form["first_options"]]
            )
        )
    return Markup(
        _choice.joined([(chooser, number, building, False) for number in form["second_options"]])
    )


def _draw_choice(chooser: str, number: int, building: bool, pressed: bool) -> str:
    pile = number - 1
    if chooser == "first":
        kind = (
            f'class="fv-choice fv-first" id="fv-first-{number}"'
            f' aria-pressed="{"true" if pressed else "false"}"'
        )
        shows = ""
    else:
        kind = f'class="fv-choice" id="fv-second-{number}"'
        shows = f""" data-when-value='{{"!first": {pile}}}'"""
    builder = (
        f' data-set="{chooser}" data-value="{pile}"{shows}'
        f' data-label="{said_with(TOOK[chooser], number=number)}"'
        if building
        else ""
    )
    return (
        f'<button type="submit" name="{chooser}" value="{pile}" {kind}{builder}>'
        f"{said_with(PILE, number=number)}</button>"
    )


_choice = Pieces(_draw_choice, size=64)
