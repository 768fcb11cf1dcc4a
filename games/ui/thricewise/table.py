"""Thricewise's table drawn (games.ui._drawing: in Python, each piece kept once drawn): the grid,
its column and row labels and a cell per place, and the deck of unseen cards the reveal picks
from. A cell holds a card (one of the grid, or one placed in the turn being entered), or is free:
a button to tap where the card ready may go (``legal``), or, on a phone building the turn
(``builder``, before the reveal: ``reach``), a cell a card of this turn may reach, disabled until
the phone offers it and hidden beyond the cards. Some 100 cells and 30 cards are drawn after
every move.

A card's face (``face``) is drawn by its name alone, as plays/games/thricewise/_card.html draws
it for the setup page. The words are those the templates said, marked for makemessages with
``gettext_noop`` (it does not know ``said_with``) and translated as each piece is drawn.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop, pgettext
from markupsafe import Markup

from .._drawing import Pieces, esc, said_with
from .board import card_info


def draw_grid(
    rows: list[dict[str, Any]],
    heads: list[dict[str, Any]],
    columns: int,
    reach: bool,
    builder: Any = None,
) -> Markup:
    """The grid: ``rows`` and the column ``heads`` as board_context gives them (tw_rows,
    tw_column_heads), ``columns`` wide as the cards lie. Without ``builder``, the rows, columns
    and cells beyond the cards (``hidden``) are not drawn at all."""
    building = bool(builder and reach)
    out = [f'<div class="tw-grid cols-{esc(columns)}" id="tw-grid"']
    if building:
        grid = pgettext("Thricewise: the grid in play", "The grid")
        place = said_with(gettext_noop("Place here: %(cell)s"), cell="{label}")
        out.append(
            f' data-keys="grid" data-next="1" role="group" aria-label="{grid}" data-add="place"'
            f' data-adjacent="grid place" data-span="max_side" data-name="{place}"'
        )
    out.append('>\n  <span class="tw-label" aria-hidden="true"></span>')
    for head in heads:
        if builder or not head["hidden"]:
            hidden = " hidden" if head["hidden"] else ""
            out.append(
                f'<span class="tw-label tw-column-label" aria-hidden="true"'
                f' data-x="{esc(head["x"])}"{hidden}>{esc(head["letter"])}</span>'
            )
    out.append("\n  ")
    for row in rows:
        if not builder and row["hidden"]:
            continue
        hidden = " hidden" if row["hidden"] else ""
        out.append(
            f'<span class="tw-label tw-row-label" aria-hidden="true" data-y="{esc(row["y"])}"'
            f"{hidden}>{esc(row['label'])}</span>"
        )
        for cell in row["cells"]:
            if not builder and cell["hidden"]:
                continue
            card = cell.get("card")
            if card:
                points = cell.get("points")
                out.append(
                    _card_cell(
                        cell["x"],
                        cell["y"],
                        cell["label"],
                        card["name"],
                        bool(cell.get("pending")),
                        bool(cell.get("setup")),
                        bool(cell.get("last")),
                        points or None,
                        cell.get("turn") if points else None,
                    )
                )
            else:
                out.append(
                    _free_cell(
                        cell["x"], cell["y"], cell["label"], cell["legal"], building, cell["hidden"]
                    )
                )
    out.append("\n</div>")
    return Markup("".join(out))


def _draw_card_cell(
    x: int,
    y: int,
    label: str,
    name: str,
    pending: bool,
    setup: bool,
    last: bool,
    points: int | None,
    turn: int | None,
) -> str:
    card = card_info(name)
    label = esc(label)
    marks = "".join(f" suit-{esc(suit['key'])}" for suit in card["suits"])
    if pending:
        marks += " tw-pending"
    if setup:
        marks += " tw-setup-card"
    if last:
        marks += " tw-last last-move"
    scored = ""
    if points:
        scored_in = said_with(gettext_noop("scored in turn %(turn)s"), turn=turn)
        scored = f'<span class="tw-points" title="{scored_in}">+{esc(points)}</span>'
    return (
        f'\n    \n    <div class="tw-cell tw-card{marks}" data-at="{esc(x)},{esc(y)}"'
        f' data-cell="{label}" data-card="{esc(name)}" title="{label}: {esc(card["label"])}">\n'
        f"      {_face(name)}\n      {scored}\n    </div>\n    \n  "
    )


_card_cell = Pieces(_draw_card_cell)


def _draw_free_cell(x: int, y: int, label: str, legal: bool, building: bool, hidden: bool) -> str:
    at = f"{esc(x)},{esc(y)}"
    label = esc(label)
    if legal:
        place = said_with(gettext_noop("Place here: %(cell)s"), cell=label)
        cell = (
            f'<button type="submit" form="move-form" name="at" value="{at}" class="tw-cell'
            f' tw-free" data-at="{at}" data-cell="{label}" aria-label="{place}">+</button>'
        )
    elif building:
        hidden_attr = " hidden" if hidden else ""
        cell = (
            f'<button type="button" class="tw-cell tw-free" data-at="{at}" data-label="{label}"'
            f" disabled{hidden_attr}>+</button>"
        )
    else:
        cell = f'<div class="tw-cell tw-empty" data-at="{at}" data-cell="{label}"></div>'
    return f"\n    \n    {cell}\n    \n  "


_free_cell = Pieces(_draw_free_cell)


def draw_deck(cards: list[dict[str, Any]]) -> Markup:
    """The deck of unseen cards the reveal picks from (tw_reveal.cards), each a button; a card
    already given to a player (``by``) is pressed, and a tap takes it back."""
    out = ['<div class="tw-deck" id="tw-deck" data-keys="grid" data-next="2">\n    ']
    out.extend(_pick(card["name"], card["by"]) for card in cards)
    out.append("\n  </div>")
    return Markup("".join(out))


def _draw_pick(name: str, by: str | None) -> str:
    card = card_info(name)
    if by:
        spoken = said_with(
            gettext_noop("%(card)s: revealed by %(player)s (tap to take it back)"),
            card=card["label"],
            player=by,
        )
        by_mark = f'<span class="tw-pick-by" aria-hidden="true">{esc(by)}</span>'
    else:
        spoken, by_mark = esc(card["label"]), ""
    face, name = _face(name), esc(name)
    return (
        f'\n    <button type="submit" name="pick" value="{name}" class="tw-pick'
        f'{" tw-picked" if by else ""}" data-card="{name}"'
        f' aria-pressed="{"true" if by else "false"}" data-push="reveal" data-string'
        f' data-value="{name}" data-offered="reveal" data-label="{name}"'
        f' data-key-text="{esc(card["short"])}">\n'
        f'      <span class="tw-sr">{spoken}</span>\n'
        f'      <span class="tw-face" data-face aria-hidden="true">{face}</span>\n'
        f"      {by_mark}\n    </button>\n    "
    )


_pick = Pieces(_draw_pick)


def _draw_face(name: str) -> str:
    card = card_info(name)
    suits = "".join(
        f'<span class="tw-suit suit-{esc(suit["key"])}" title="{esc(suit["label"])}">'
        f'<span aria-hidden="true">{esc(suit["symbol"])}</span>'
        f'<span class="tw-sr">{esc(suit["label"])}</span></span>'
        for suit in card["suits"]
    )
    long_rank = " tw-rank-long" if card["long_rank"] else ""
    short = "" if card["ace"] else f'<span class="tw-name">{esc(card["short"])}</span>'
    return (
        f'<span class="tw-suits">{suits}</span>\n'
        f'<span class="tw-rank{long_rank}">{esc(card["rank"])}</span>\n{short}\n'
    )


_face = Pieces(_draw_face, size=256)


def face(card: dict[str, Any]) -> Markup:
    """A card's face (card_info), as the setup page draws it (plays/games/thricewise/
    _card.html): its suits, its rank and (but for an Ace) its name."""
    return Markup(_face(card["name"]))
