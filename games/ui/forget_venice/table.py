"""Forget Venice's table drawn (games.ui.drawing: in Python, each piece kept once drawn): each
player's collection, a row of 11 rank slots per suit under each criterion (some 200 cells a
move for three players), and the cards of the deal being laid out (``deck``: every card not
dealt yet this half, each a button to tap; ``laid``: a pile's cards, each tapped to take it
back). The rest of board.html and move_form.html stays in the templates. A card is named
for the pieces it is in: its face is the same for its name in a language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext_noop
from markupsafe import Markup

from ..drawing import Pieces, esc, said

#: What the pieces say, marked here for the catalogue (makemessages reads no f-string).
SUIT = gettext_noop("Suit")
TAKE_BACK = gettext_noop("Take it back")


def draw_collection(player: dict[str, Any], ranks: Sequence[str]) -> Markup:
    """A player's collection (board.py's ``player_board``): under each criterion, its rule and
    points, then a row per suit, the cards it holds by rank."""
    out = [
        '<table class="fv-collection">\n        ',
        _head(tuple(ranks)),
        "\n        ",
    ]
    for criterion in player["criteria"]:
        name = esc(criterion["criterion"])
        out.append(
            '\n        <tbody class="fv-criterion">\n          <tr class="fv-criterion-head">'
            f'<th colspan="14" scope="rowgroup"><span class="fv-crit">{name}</span>'
            f' {esc(criterion["rule"])} = <strong class="fv-crit-value"'
            f' data-criterion="{name}">{esc(criterion["value"])}</strong></th></tr>\n          '
        )
        for suit in criterion["suits"]:
            out.append(
                _suit_row(
                    suit["name"],
                    suit["css"],
                    suit["short"],
                    suit["label"],
                    suit["count"],
                    tuple(slot["count"] for slot in suit["slots"]),
                )
            )
        out.append("\n        </tbody>\n        ")
    out.append("\n      </table>")
    return Markup("".join(out))


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
    return Markup("".join([_undealt(card["name"], building) for card in cards]))


def draw_laid(cards: Sequence[dict[str, Any]]) -> Markup:
    """A pile's cards, as the server's draft has them: a tap takes one back."""
    return Markup("".join([_laid(card["name"]) for card in cards]))


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
