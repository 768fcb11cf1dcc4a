"""Thricewise's score sheet, worked out and drawn in Python (issue 32): the cards each player
set aside, and the points turn by turn with why each turn scored.

A turn's row never changes once the turn is played: the rows of a game's played turns are kept
per process for the state they were worked out from (its setup, placements, points and players)
and the language, and a move's sheet is the sheet of the move before with its last turn's row
added (``played_rows``), that row alone told (``card_reason``) and drawn. Each row keeps its
drawing (``Row``), and its part is looked up by that very string (games.jinja.drawn_part): no
row's reasons are written out again to be recognised, as a template's part did move after move.

It writes what plays/games/thricewise/sheet.html wrote (tests/views/test_sheets_drawn.py).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import pgettext
from markupsafe import Markup

from referee.thricewise import Thricewise

from ... import jinja
from .. import Reason, _drawing
from .._decktet import Words
from .._drawing import Pieces, esc, reasons, said, said_with
from .why import card_reason
from .words import cell_namer


class Row(dict):
    """A row of the sheet, as the context gives it (number, played, cells), that keeps its
    drawing once drawn: read, never changed."""

    __slots__ = ("drawn",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.drawn: tuple[str | None, str] | None = None


def rows(state: Thricewise, said_by: Words) -> list[Row]:
    """Every row of the sheet: the played turns' (``played_rows``), then the turns to come."""
    played = played_rows(state, said_by)
    players = tuple(state.players)
    return [*played, *(_future(players, n) for n in range(len(played), state.turns_total))]


def played_rows(state: Thricewise, said_by: Words) -> tuple[Row, ...]:
    """The rows of the turns played, kept for the state's setup, placements, points and
    players and the language; those of the turns before the last taken from the sheet of the
    move before when it is kept (``_PLAYED``)."""
    setup = tuple((cell, state.board[cell]) for cell in state.setup_cells)
    placements = tuple(state.placements)
    points = tuple(tuple(turn.items()) for turn in state.turn_points)
    head = (said_by.language, setup, tuple(state.players))
    found = _PLAYED.get((head, placements, points))
    if found is not None:
        return found
    last = len(points) - 1
    before = len(placements)
    while before and placements[before - 1][0] >= last:
        before -= 1
    made = list(_PLAYED.get((head, placements[:before], points[:-1]), ()))
    if len(made) != last:  # the move before's sheet is not kept here: every row
        made = []
    cards: dict[tuple[int, str], list[str]] = {}
    why: dict[tuple[int, str], list[Reason]] = {}
    cell_name = cell_namer(state)
    for placed in state.why():
        if placed.turn >= len(made):
            cards.setdefault((placed.turn, placed.player), []).append(placed.card)
            reason = card_reason(placed, cell_name, said_by)
            why.setdefault((placed.turn, placed.player), []).append(reason)
    for number in range(len(made), len(points)):
        scored = state.turn_points[number]
        made.append(
            Row(
                number=number + 1,
                played=True,
                cells=[
                    {
                        "points": scored.get(p),
                        "cards": cards.get((number, p), []),
                        "why": why.get((number, p), []),
                        "player": p,
                    }
                    for p in state.players
                ],
            )
        )
    if len(_PLAYED) >= _PLAYED_AT_MOST:
        _PLAYED.clear()
    kept = _PLAYED[head, placements, points] = tuple(made)
    return kept


#: ``played_rows``'s, by language, setup, players, placements and points; emptied when full.
_PLAYED: dict[tuple, tuple[Row, ...]] = {}
_PLAYED_AT_MOST = 256


def _future(players: tuple[str, ...], number: int) -> Row:
    """The row of a turn to come (its number from 0): the same for every game of ``players``."""
    found = _FUTURE.get((players, number))
    if found is None:
        if len(_FUTURE) >= _PLAYED_AT_MOST * 16:
            _FUTURE.clear()
        cells = [{"points": None, "cards": [], "why": [], "player": p} for p in players]
        found = _FUTURE[players, number] = Row(number=number + 1, played=False, cells=cells)
    return found


#: ``_future``'s, by players and number; emptied when full.
_FUTURE: dict[tuple, Row] = {}


# The drawing -------------------------------------------------------------------------------


def draw_sheet(drawing: Any, sheet: dict[str, Any], set_aside: list[dict[str, Any]]) -> Markup:
    """sheet.html's: the cards set aside (a part per player), then the points turn by turn (a
    part per turn, and the totals'), each row drawn once and kept (``Row``)."""
    language = _drawing._now()[0]  # the drawing's, looked up once
    out = [
        '\n<section class="tw-aside" id="tw-aside" aria-label="',
        said("Set-aside cards"),
        '">\n  <h3>',
        said("Set aside in front of each player"),
        "</h3>\n  <ul>\n    ",
    ]
    for number, entry in enumerate(set_aside, 1):
        names = tuple(card["name"] for card in entry["cards"])
        html = _aside.in_language(language, number, entry["player"], names)
        out += ("\n    ", jinja.drawn_part(drawing, html), "\n    ")
    players = sheet["players"]
    many = " tw-many" if len(players) > 3 else ""
    out += (
        '\n  </ul>\n</section>\n<div class="tw-sheet-frame why-frame">\n\n'
        f'<table class="sheet tw-sheet{many}" id="tw-sheet">\n  <caption>',
        said("Points turn by turn"),
        '</caption>\n  <thead><tr><th scope="col">',
        said("Turn"),
        "</th>",
    )
    out += (f'<th scope="col"><span class="tw-sheet-name">{esc(p)}</span></th>' for p in players)
    out.append("</tr></thead>\n  <tbody>\n    ")
    for row in sheet["rows"]:
        drawn = row.drawn if type(row) is Row else None
        if drawn is None or drawn[0] != language or _drawing.CHECK:
            html = _draw_row(row)
            if drawn is not None and drawn[0] == language and drawn[1] != html:
                raise AssertionError(f"Turn {row['number']}'s row changed once drawn.")
            if type(row) is Row:
                row.drawn = (language, html)
        else:
            html = drawn[1]
        out += ("\n    ", jinja.drawn_part(drawing, html), "\n    ")
    totals = "".join(
        f'<td data-player="{esc(p)}">{esc(total)}</td>' for p, total in sheet["totals"].items()
    )
    total = said("Total")
    totals = f'<tr class="tw-totals" id="tw-totals"><th scope="row">{total}</th>{totals}</tr>'
    out += (
        "\n  </tbody>\n  <tfoot>",
        jinja.drawn_part(drawing, totals),
        "</tfoot>\n</table>\n</div>\n",
    )
    return Markup("".join(out))


def _draw_row(row: dict[str, Any]) -> str:
    number = row["number"]
    played = row["played"]
    future = "" if played else ' class="tw-future"'
    out = [f'<tr id="tw-turn-{esc(number)}"{future}><th scope="row">{esc(number)}</th>\n      ']
    for cell in row["cells"]:
        out.append("<td>")
        if played:
            points = esc(cell["points"])
            if cell["why"]:
                head = said_with(
                    "Turn %(turn)s: %(player)s scores %(points)s",
                    turn=number,
                    player=cell["player"],
                    points=cell["points"],
                )
                out.append(
                    f'<details class="why"><summary><span class="tw-sheet-points">{points}'
                    f'</span></summary><div class="why-body" role="note"><p class="why-head">'
                    f"{head}</p>{reasons(cell['why'])}</div></details>"
                )
            else:
                out.append(f'<span class="tw-sheet-points">{points}</span>')
            if cell["cards"]:
                cards = ", ".join(esc(card) for card in cell["cards"])
                out.append(f'<small class="tw-sheet-cards">{cards}</small>')
        out.append("</td>")
    out.append("\n    </tr>")
    return "".join(out)


def _draw_aside(number: int, player: str, names: tuple[str, ...]) -> str:
    label = pgettext("a label before its value", "%(label)s:") % {"label": esc(player)}
    if names:
        cards = _chip.joined((name,) for name in names)
    else:
        none = said("none")
        cards = f'<span class="tw-none">{none}</span>'
    return (
        f'<li id="tw-aside-{number}" data-player="{esc(player)}"><strong>{label}</strong>\n'
        f"      {cards}</li>"
    )


_aside = Pieces(_draw_aside)


def _draw_chip(name: str) -> str:
    """plays/games/thricewise/_chip.html's chip: its suits, name and rank, on one line."""
    from .board import card_info

    card = card_info(name)
    marks = "".join(f" suit-{esc(suit['key'])}" for suit in card["suits"])
    symbols = "".join(
        f'<span class="tw-suit suit-{esc(suit["key"])}" aria-hidden="true">'
        f"{esc(suit['symbol'])}</span>"
        for suit in card["suits"]
    )
    return (
        f'<span class="tw-chip{marks}" title="{esc(card["label"])}">{symbols} {esc(name)}'
        f' <span class="tw-chip-rank">({esc(card["rank"])})</span></span>\n'
    )


_chip = Pieces(_draw_chip, size=256)
