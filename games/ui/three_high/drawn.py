"""3-High's table drawn (games.ui._drawing: in Python, each piece kept once drawn): the board's
64 squares with their stacks, labels and where each top piece would land, the card picker's 32
cards, and the list of top pieces to move. They are drawn after every move, and most of them
are drawn the same as after the move before: each is kept for the values it is drawn from and
the language.

``can_enter``: the move form is shown, so each top piece is a button; ``builder``: the move is
built on the phone, so where a piece would land is filled in there once a card and a side are
tapped.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop
from markupsafe import Markup

from referee.three_high import PIECES

from .._drawing import Pieces, esc, said

# The words drawn here, marked for the catalogue (makemessages reads no ``said``).
OFF_THE_BOARD = gettext_noop("off the board")
ALREADY_PLAYED = gettext_noop("already played")


def draw_board(ranks: list[list[dict[str, Any]]], can_enter: bool, builder: Any) -> Markup:
    """The board's ranks, north first, each of its 8 squares (board_context's ``th_ranks``)."""
    can_enter, builder = bool(can_enter), bool(builder)
    out = []
    for rank in ranks:
        out.append('\n    <div class="th-rank">\n      ')
        out.append(
            _square.joined(
                (
                    cell["name"],
                    cell["dark"],
                    cell["tree"],
                    cell["selected"],
                    cell["landing"],
                    cell["last"],
                    cell["rank_label"],
                    cell["file_label"],
                    cell["codes"],
                    cell["description"],
                    cell["top"],
                    cell["destination"],
                    can_enter,
                    builder,
                )
                for cell in rank
            )
        )
        out.append("\n    </div>\n    ")
    return Markup("".join(out))


def _draw_square(
    name: str,
    dark: bool,
    tree: bool,
    selected: bool,
    landing: bool,
    last: bool,
    rank_label: str,
    file_label: str,
    codes: str,
    description: str,
    top: str | None,
    destination: str | None,
    can_enter: bool,
    builder: bool,
) -> str:
    name = esc(name)
    marks = (
        (" th-dark" if dark else "")
        + (" th-has-tree" if tree else "")
        + (" th-selected" if selected else "")
        + (" th-landing" if landing else "")
        + (" last-move" if last else "")
    )
    titled = f"{name}: {esc(description)}"
    button = can_enter and bool(top)
    if button:
        if destination == "off":
            going = f" → {said(OFF_THE_BOARD)}"
        elif destination:
            going = f" → {esc(destination)}"
        else:
            going = ""
        opening = (
            f'\n        <button type="submit" form="move-form" name="piece" value="{esc(top)}"\n'
            f'          data-set="piece" data-string data-value="{esc(top)}"'
            ' data-offered="cards.{card}.{side}" data-needs="card side"'
            f' data-label="{name}"\n'
            f'          class="th-square{marks}"\n'
            f'          data-square="{name}" data-stack="{esc(codes)}"\n'
            f'          title="{titled}"><span class="th-sr">{titled}{going}</span>\n        '
        )
    else:
        title = f'title="{titled}"' if codes else ""
        opening = (
            f'\n        <div class="th-square{marks}"\n'
            f'          data-square="{name}" data-stack="{esc(codes)}"\n'
            f"          {title}>\n        "
        )
    rank = (
        f'<span class="th-rank-label" aria-hidden="true">{esc(rank_label)}</span>'
        if rank_label
        else ""
    )
    file = (
        f'<span class="th-file-label" aria-hidden="true">{esc(file_label)}</span>'
        if file_label
        else ""
    )
    if codes:
        pieces = "".join(
            f'<span class="th-piece th-{esc(PIECES[code][0])} th-size-{PIECES[code][1]}"></span>'
            for code in codes.split(",")
        )
        stack = f'<span class="th-stack">{pieces}</span>'
    else:
        stack = ""
    target = '<span class="th-target" aria-hidden="true">◎</span>' if landing else ""
    if can_enter and destination:
        if destination == "off":
            where = '<span class="th-dest th-dest-off" aria-hidden="true">✕</span>'
        else:
            where = f'<span class="th-dest" aria-hidden="true">{esc(destination)}</span>'
    elif builder and top:
        where = (
            '<span class="th-dest" aria-hidden="true"'
            f' data-show-option="cards.{{card}}.{{side}}.{esc(top)}" data-null="✕" hidden></span>'
        )
    else:
        where = ""
    closing = "</button>" if button else "</div>"
    return (
        f"\n        {opening}\n          {rank}\n          {file}\n          {stack}"
        f"\n          {target}\n          {where}\n        {closing}\n      "
    )


_square = Pieces(_draw_square)


def draw_cards(columns: list[dict[str, Any]], chosen: Any) -> Markup:
    """The card picker's 32 cards, suit by suit (board_context's ``th_card_columns``), those
    already played disabled; ``chosen``: the code of the card chosen."""
    return Markup(
        _card.joined(
            (
                card["code"],
                card["text"],
                card["name"],
                card["red"],
                chosen == card["code"],
                card["played"],
            )
            for column in columns
            for card in column["cards"]
        )
    )


def _draw_card(code: str, text: str, name: str, red: bool, chosen: bool, played: bool) -> str:
    code = esc(code)
    marks = (" th-red-suit" if red else "") + (" th-chosen" if chosen else "")
    if played:
        already_played = esc(said(ALREADY_PLAYED))
        disabled = f' disabled title="{already_played}"'
        named = f"{esc(name)} ({already_played})"
    else:
        disabled = ""
        named = esc(name)
    return (
        f'\n    <button type="submit" name="card" value="{code}" data-set="card" data-string'
        f' data-value="{code}" data-offered="cards" data-label="{esc(text)}"'
        f' data-key-text="{code}" class="th-card{marks}"{disabled} aria-label="{named}">'
        f"{esc(text)}</button>\n  "
    )


_card = Pieces(_draw_card)


def draw_tops(tops: list[dict[str, Any]], builder: Any) -> Markup:
    """The pieces on top of their stacks, to choose the one to move (board_context's
    ``th_tops``), each with where it would land once a card and a side are chosen."""
    builder = bool(builder)
    return Markup(
        _top.joined(
            (
                top["piece"],
                top["selected"],
                top["colour"],
                top["size"],
                top["label"],
                top["square"],
                top.get("destination"),
                builder,
            )
            for top in tops
        )
    )


def _draw_top(
    piece: str,
    selected: bool,
    colour: str,
    size: int,
    label: str,
    square: str,
    destination: str | None,
    builder: bool,
) -> str:
    piece, label, square = esc(piece), esc(label), esc(square)
    if destination == "off":
        where = f" → {esc(said(OFF_THE_BOARD))}"
    elif destination:
        where = f" → {esc(destination)}"
    elif builder:
        where = (
            f' <span class="th-dest-built" data-show-option="cards.{{card}}.{{side}}.{piece}"'
            f' data-null="{esc(said(OFF_THE_BOARD))}" hidden></span>'
        )
    else:
        where = ""
    chosen = " th-chosen" if selected else ""
    return (
        f'\n    <button type="submit" name="piece" value="{piece}"'
        f' class="th-piece-choice{chosen}" data-piece="{piece}" data-set="piece" data-string'
        f' data-value="{piece}" data-offered="cards.{{card}}.{{side}}" data-needs="card side"'
        f' data-label="{label} ({square})">\n'
        f'      <span class="th-chip th-{esc(colour)} th-size-{esc(size)}" aria-hidden="true">'
        "</span>\n"
        f'      {label} <span class="th-where">{square}{where}</span>\n'
        "    </button>\n  "
    )


_top = Pieces(_draw_top)
