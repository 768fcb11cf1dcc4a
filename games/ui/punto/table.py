"""Punto's table and hand drawn (games.ui._drawing: in Python, each cell and card kept once
drawn). The table: its rows of
cells from ``board`` (board._board), the cards inside the 6 × 6 box and the ring where it may
still grow. Only the table in play has legal cells, those of the card drawn (``drafted``): each
is a button to tap. Before a card is drawn, the cells some card may go to are buttons too,
disabled until a move built on the phone offers them; those one ring further (``further``) are
shown only while moves wait to be sent, when the table shown is behind (data-when="past").
``past``: the table as the last round ended. Up to 64 cells are drawn after every move. The
hand: the cards the player to play may have drawn, 36 buttons.
"""

from __future__ import annotations

from typing import Any

from django.utils.text import capfirst
from markupsafe import Markup

from .._drawing import Pieces, esc, said, said_with


def draw_grid(
    board: dict[str, Any], drafted: dict[str, Any] | None = None, past: bool = False
) -> Markup:
    """The table's grid, and what limits it."""
    classes = "punto-grid"
    if board.get("full_width"):
        classes += " limit-x"
    if board.get("full_height"):
        classes += " limit-y"
    if past:
        classes += " punto-past"
    table = said("The table")
    out = [
        f'<div class="{classes}" role="grid" aria-label="{table}" data-keys="grid" data-next="1">\n'
    ]
    if board.get("column_labels"):
        out.append(
            '<div class="punto-row punto-labels" aria-hidden="true"><span class="punto-label">'
            "</span>"
        )
        for column in board["column_labels"]:
            hidden = ' hidden data-when="past"' if column["further"] else ""
            out.append(f'<span class="punto-label"{hidden}>{esc(column["letter"])}</span>')
        out.append("</div>")
    out.append("\n")
    for row in board["rows"]:
        hidden = ' hidden data-when="past"' if row["further"] else ""
        out.append(f'<div class="punto-row" role="row"{hidden}>')
        if row["label"]:
            out.append(f'<span class="punto-label" aria-hidden="true">{esc(row["label"])}</span>')
        out.append("\n")
        for cell in row["cells"]:
            card = cell["card"]
            legal = cell["legal"]
            out.append(
                _cell(
                    cell["at"],
                    cell["x"],
                    cell["y"],
                    cell["label"],
                    card["name"] if card else None,
                    card["colour"] if card else None,
                    card["label"] if card else None,
                    card["value"] if card else None,
                    legal,
                    cell["in_box"],
                    cell["last"],
                    cell["win"],
                    cell["candidate"],
                    cell["further"],
                    drafted["value"] if legal else None,
                    drafted["label"] if legal else None,
                )
            )
        out.append("</div>\n")
    out.append("</div>\n")
    if board.get("width"):
        out.append(_limit(board))
    return Markup("".join(out))


def _draw_cell(
    at: str,
    x: int,
    y: int,
    label: str | None,
    name: str | None,
    colour: str | None,
    colour_label: str | None,
    value: int | None,
    legal: bool,
    in_box: bool,
    last: bool,
    win: bool,
    candidate: bool,
    further: bool,
    drafted_value: int | None,
    drafted_label: str | None,
) -> str:
    at = esc(at)
    data_cell = f' data-cell="{esc(label)}"' if label else ""
    if legal:
        if name:
            last_move = " last-move" if last else ""
            covering = said_with(
                "Cover the %(under_colour)s %(under)s at %(cell)s with the %(colour)s %(card)s",
                card=drafted_value,
                colour=drafted_label,
                under=value,
                under_colour=colour_label,
                cell=label,
            )
            return (
                f'\n<button type="submit" form="move-form" name="at" value="{at}" role="gridcell"'
                f' class="punto-cell punto-card punto-{esc(colour)} legal cover{last_move}"'
                f' aria-label="{covering}"><span class="punto-value">{esc(value)}</span>'
                f'<span class="punto-cover-mark" aria-hidden="true">▲{esc(drafted_value)}</span>'
                "</button>\n"
            )
        playing = said_with(
            "Play the %(colour)s %(card)s at %(cell)s",
            card=drafted_value,
            colour=drafted_label,
            cell=label,
        )
        return (
            f'\n<button type="submit" form="move-form" name="at" value="{at}" role="gridcell"'
            f' class="punto-cell legal" aria-label="{playing}"><span aria-hidden="true">+</span>'
            "</button>\n"
        )
    if candidate:
        if name:
            kind = f" punto-card punto-{esc(colour)}" + (" last-move" if last else "")
        else:
            kind = " in-box" if in_box else " ring"
        if further:
            kind += " further"
        card = f' data-card="{esc(name)}" title="{esc(colour_label)} {esc(value)}"' if name else ""
        hidden = ' hidden data-when="past"' if further else ""
        if name:
            last_played = ", " + said("the last card played") if last else ""
            inside = (
                f'<span class="punto-value">{esc(value)}</span><span class="punto-sr">'
                f"{esc(colour_label)}{last_played}, {esc(label)}</span>"
            )
        else:
            inside = (
                '<span class="punto-plus" aria-hidden="true">+</span>'
                f'<span class="punto-sr">{esc(label)}</span>'
            )
        return (
            f'\n<button type="submit" form="move-form" name="at" value="{at}" role="gridcell"'
            f' class="punto-cell candidate{kind}" data-at="{at}"{data_cell}{card}'
            f' data-set="at" data-value="[{esc(x)},{esc(y)}]" data-offered="cards.{{card}}"'
            f' data-needs="card" data-label="{esc(label)}"{hidden} disabled>{inside}</button>\n'
        )
    if name:
        marks = (" last-move" if last else "") + (" win-line" if win else "")
        said_last = ", " + said("the last card played") if last else ""
        said_win = ", " + said("in the winning line") if win else ""
        return (
            f'\n<span role="gridcell" class="punto-cell punto-card punto-{esc(colour)}{marks}"'
            f' data-at="{at}"{data_cell} data-card="{esc(name)}"'
            f' title="{esc(colour_label)} {esc(value)}"><span class="punto-value">{esc(value)}'
            f'</span><span class="punto-sr">{esc(colour_label)}{said_last}{said_win}</span>'
            "</span>\n"
        )
    place = "in-box" if in_box else "ring"
    return f'\n<span role="gridcell" class="punto-cell {place}" data-at="{at}"{data_cell}></span>\n'


_cell = Pieces(_draw_cell)


def _limit(board: dict[str, Any]) -> str:
    spans = said_with(
        "The cards span %(w)s × %(h)s of at most %(box)s × %(box)s.",
        w=board["width"],
        h=board["height"],
        box=board["box"],
    )
    full_width, full_height = board.get("full_width"), board.get("full_height")
    if full_width and full_height:
        full = said("No more columns or rows can be added.")
    elif full_width:
        full = said("No more columns can be added.")
    elif full_height:
        full = said("No more rows can be added.")
    else:
        return f'<p class="punto-limit" id="punto-limit">{spans}</p>'
    return f'<p class="punto-limit" id="punto-limit">{spans} <strong>{full}</strong></p>'


def draw_hand(hand: list[dict[str, Any]]) -> Markup:
    """The cards to tap, colour by colour (board.board_context's ``hand``): those of the player
    to play's colours shown, the others only while moves wait to be sent."""
    out = []
    for colour in hand:
        hidden = "" if colour["theirs"] else " hidden"
        neutral = " (" + said("neutral") + ")" if colour["neutral"] else ""
        out.append(
            f'\n  <fieldset class="punto-hand" data-players="{esc(colour["players"])}"{hidden}>'
            f"<legend>{esc(capfirst(colour['label']))}{neutral}</legend>"
            '<div class="punto-values">\n    '
        )
        for card in colour["cards"]:
            out.append(
                _pick(
                    colour["colour"],
                    card["name"],
                    card["value"],
                    card["left"],
                    card["label"],
                    card["words"],
                )
            )
        out.append("\n  </div></fieldset>\n  ")
    return Markup("".join(out))


def _draw_pick(colour: str, name: str, value: int, left: int, label: str, words: str) -> str:
    disabled = "" if left else " disabled"
    return (
        f'<button type="submit" name="card" value="{esc(name)}"'
        f' class="punto-pick punto-{esc(colour)}"{disabled} aria-label="{esc(label)}"'
        f' data-set="card" data-string data-value="{esc(name)}" data-offered="cards"'
        f' data-label="{esc(words)}" data-key-text="{esc(value)}"><span class="punto-value">'
        f'{esc(value)}</span><small aria-hidden="true">×{esc(left)}</small></button>'
    )


_pick = Pieces(_draw_pick)
