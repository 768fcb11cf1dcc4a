"""Punto's table and hand as the pages draw them: the visible cards inside the floating 6 × 6
box and the ring where it may grow, the legal cells to tap, the last round's table with its
winning line, the cards the player to play may have drawn, the standing and the rounds played.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import get_language, ngettext

from referee import Judgement
from referee.punto import BOX, COLOURS, DIRECTIONS, VALUES

from .. import COLUMN_LETTERS, Draft, cell_label
from .sheet import draw_sheet
from .table import draw_grid, draw_hand
from .words import Cell, colour_names, label_origin


def _labels(colours: Any, names: dict[str, str] | None = None) -> list[dict[str, Any]]:
    names = names or colour_names()
    return [{"colour": c, "label": names[c]} for c in colours]


def _card(name: str, names: dict[str, str] | None = None) -> dict[str, Any]:
    """A card to draw (``names``: the colours' names in the reader's language, colour_names,
    when the caller has them: a board looks them up once)."""
    names = names or colour_names()
    colour, value = name.split("-")
    return {"name": name, "colour": colour, "label": names[colour], "value": int(value)}


def _span(low: int, high: int, reach: int = 1) -> range:
    """The columns (or rows) worth drawing: the cards' extent plus one on each side where the
    6 × 6 box still lets the table grow (``reach`` 2: where it may grow once one more card
    is laid)."""
    return range(max(low - reach, high - BOX + 1), min(high + reach, low + BOX - 1) + 1)


def _board(
    cells: dict[Cell, str],
    legal: set[Cell],
    last: Cell | None = None,
    line: frozenset[Cell] = frozenset(),
    origin: Cell | None = None,
    candidates: frozenset[Cell] = frozenset(),
    every_cell: bool = False,
    further: bool = False,
    names: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Rows of cells to draw, with the cards' extent and whether it reached the 6 × 6 limit;
    ``last`` is the cell of the last card played, ``line`` the cells of a winning line; with the
    column and row labels when ``origin`` (the cell labelled A1) is given. ``candidates`` (or
    ``every_cell``): the cells drawn as buttons that a move built on the phone offers once it
    knows the card, those the referee's options give for it (static/js/move-builder.js).
    ``further``: also the cells one ring further, where the table may have grown by a card
    still waiting to be sent; drawn as buttons shown only while moves wait ("past"), so that
    a move built then can be tapped there (the server judges it). ``names``: colour_names, when
    the caller has them."""
    names = names or colour_names()
    if not cells:
        columns = sorted({x for x, _y in legal | candidates})
        lines = sorted({y for _x, y in legal | candidates})
        near_columns, near_lines = set(columns), set(lines)
        if further and columns:
            # an empty table: the first card waiting lies in the centre, the next next to it
            columns = list(range(columns[0] - 1, columns[-1] + 2))
            lines = list(range(lines[0] - 1, lines[-1] + 2))
    else:
        xs = [x for x, _y in cells]
        ys = [y for _x, y in cells]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        columns, lines = list(_span(x0, x1)), list(_span(y0, y1))
        near_columns, near_lines = set(columns), set(lines)
        if further:
            columns, lines = list(_span(x0, x1, 2)), list(_span(y0, y1, 2))

    def beyond(x: int, y: int) -> bool:
        return x not in near_columns or y not in near_lines

    rows = [
        {
            "label": y - origin[1] + 1 if origin else None,
            "further": y not in near_lines,
            "cells": [
                _cell(
                    x,
                    y,
                    cells.get((x, y)),
                    legal,
                    not cells or (x0 <= x <= x1 and y0 <= y <= y1),
                    cell_label((x, y), origin) if origin else None,
                    names,
                )
                | {
                    "last": (x, y) == last,
                    "win": (x, y) in line,
                    "candidate": every_cell or (x, y) in candidates or beyond(x, y),
                    "further": beyond(x, y),
                }
                for x in columns
            ],
        }
        for y in lines
    ]
    board: dict[str, Any] = {
        "rows": rows,
        "column_labels": (
            [
                {"letter": COLUMN_LETTERS[x - origin[0]], "further": x not in near_columns}
                for x in columns
            ]
            if origin
            else []
        ),
    }
    if cells:
        width, height = x1 - x0 + 1, y1 - y0 + 1
        board |= {
            "width": width,
            "height": height,
            "full_width": width == BOX,
            "full_height": height == BOX,
            "box": BOX,
        }
    return board


def _cell(
    x: int,
    y: int,
    card: str | None,
    legal: set[Cell],
    in_box: bool,
    label: str | None,
    names: dict[str, str],
) -> dict[str, Any]:
    return {
        "at": f"{x},{y}",
        "x": x,
        "y": y,
        "label": label,
        "card": _card(card, names) if card else None,
        "legal": (x, y) in legal,
        "in_box": in_box,
    }


def _hand_card(
    colour: str,
    value: int,
    left: int,
    names: dict[str, str] | None = None,
    labels: dict[tuple, str] | None = None,
) -> dict[str, Any]:
    """A card of the hand, with its button's label said here rather than by the template: 18
    buttons are drawn after every move, and a plural in the template costs far more; each label
    said once per language (``labels``: _HAND_LABELS's; ``names``: colour_names; both looked up
    once by a board)."""
    if names is None or labels is None:
        language = get_language()
        names, labels = colour_names(language), _HAND_LABELS.setdefault(language, {})
    label = labels.get((colour, value, left))
    if label is None:
        label = labels[colour, value, left] = ngettext(
            "%(colour)s %(value)s, %(left)s copy left",
            "%(colour)s %(value)s, %(left)s copies left",
            left,
        ) % {"colour": names[colour], "value": value, "left": left}
    words = f"{names[colour]} {value}"  # as the outbox tells a move waiting: "red 7"
    return {
        "name": f"{colour}-{value}",
        "value": value,
        "left": left,
        "label": label,
        "words": words,
    }


def _cells_of(state: Any) -> dict[Cell, str]:
    """The visible table from the engine's ``grid()``."""
    origin, rows = state.grid()
    if origin is None:
        return {}
    x0, y0 = origin
    return {
        (x0 + dx, y0 + dy): name
        for dy, row in enumerate(rows)
        for dx, name in enumerate(row)
        if name is not None
    }


def _winning_line(cells: dict[Cell, str], colours: list[str], length: int) -> frozenset[Cell]:
    """The cells of the runs of ``length`` or more cards of one of ``colours`` on a round's last
    table. A round ends on the first such run, so on the table it left they are the winner's
    line (several only when the last card completed more than one)."""
    found: set[Cell] = set()
    for (x, y), name in cells.items():
        colour = name.split("-")[0]
        if colour not in colours:
            continue
        for dx, dy in DIRECTIONS:
            before = cells.get((x - dx, y - dy))
            if before is not None and before.split("-")[0] == colour:
                continue  # not the start of the run
            run = [(x, y)]
            while (nxt := cells.get((run[-1][0] + dx, run[-1][1] + dy))) and nxt.startswith(
                colour + "-"
            ):
                run.append((run[-1][0] + dx, run[-1][1] + dy))
            if len(run) >= length:
                found.update(run)
    return frozenset(found)


def _last_cell(judgement: Judgement) -> Cell | None:
    """Where the last card was played (None before the first move, or after "blocked")."""
    if not judgement.plans:
        return None
    at = judgement.plans[-1].canonical().get("at")
    return (at[0], at[1]) if at else None


def _parse_cells(board: dict[str, str]) -> dict[Cell, str]:
    """A details board (``{"x,y": "red-7"}``) as cells."""
    cells = {}
    for key, name in board.items():
        x, y = key.split(",")
        cells[(int(x), int(y))] = name
    return cells


#: The hand's buttons' labels, by language, then by colour, value and copies left (_hand_card).
_HAND_LABELS: dict[str | None, dict[tuple, str]] = {}


def board_context(judgement: Judgement, draft: Draft | None) -> dict:
    """What board.html, move_form.html and sheet.html draw of the match and the card drawn."""
    state = judgement.state
    if state is None:
        return {}
    # the language looked up once for the whole board (the colours of some 50 cards)
    language = get_language()
    names = colour_names(language)
    labels = _HAND_LABELS.setdefault(language, {})
    details = judgement.details
    drafted = draft.data.get("card") if draft else None
    legal: set[Cell] = set()
    blocked = False
    # A move built on the phone: every cell of the table is a button, which the phone offers
    # when the referee's options give it for the card tapped, or all of them while moves wait
    # to be sent (the table on the screen is then behind the play).
    building = not drafted and state.to_play is not None
    if drafted:
        cells = state.legal_cells(drafted)
        # "The first card of a round goes anywhere": offer the centre of the table.
        legal = {(0, 0)} if cells is None else set(cells)
        blocked = cells == []
    current = _cells_of(state)
    last = _last_cell(judgement)
    first = state.first_cell or next(iter(legal), None) or ((0, 0) if building else None)
    origin = label_origin(first) if first is not None else None
    board = centre = None
    if current or legal:
        board = _board(
            current, legal, last, origin=origin, every_cell=building, further=building, names=names
        )
    elif building:
        # An empty table: the centre cell, which the phone offers once a card is tapped, and
        # the cells around it for a second card built while the first waits to be sent.
        centre = _board(
            {}, set(), origin=origin, candidates=frozenset({(0, 0)}), further=building, names=names
        )
    last_board = None
    if not current and details.get("last_round_board"):
        # The round just ended: its last table, with the winning line if there was one.
        ended = _parse_cells(details["last_round_board"])
        round_won = (details.get("rounds") or [{}])[-1]
        line = frozenset()
        if round_won.get("how") == "line" and round_won.get("winner"):
            line = _winning_line(ended, state.colours[round_won["winner"]], state.line)
        last_board = _board(ended, set(), last, line, names=names)
    to_play = state.to_play
    hand = []
    if to_play is not None and not drafted:
        # The player's colours, then the others: shown only while moves wait to be sent, when
        # the phone cannot know whose turn it is (static/js/move-builder.js, "past").
        theirs = state.playable_colours(to_play)
        for colour in [*theirs, *(c for c in COLOURS if c not in theirs)]:
            hand.append(
                {
                    "colour": colour,
                    "label": names[colour],
                    "neutral": colour == state.neutral,
                    "theirs": colour in theirs,
                    # who may play it: whoever is chosen while moves wait to be sent
                    "players": json.dumps(
                        [name for name in state.players if colour in state.playable_colours(name)]
                    ),
                    "cards": [
                        _hand_card(colour, value, state.cards_left(colour, value), names, labels)
                        for value in VALUES
                    ],
                }
            )
    seats = [
        {
            "name": name,
            "colours": _labels(state.colours[name], names),
            "wins": state.wins[name],
            "to_play": name == to_play,
        }
        for name in state.players
    ]
    # The standing counts per side: a team (partners win together), or each player.
    teams = [
        {
            "members": [{"name": name, "to_play": name == to_play} for name in team],
            "colours": _labels(colours, names),
            "wins": state.wins[team[0]],
            "to_play": to_play in team,
        }
        for team, colours in zip(state.teams or (), state.side_colours, strict=False)
    ]
    team_of = {name: team for team in state.teams or () for name in team}
    rounds = [
        {
            "number": number,
            "winner": entry["winner"],
            "partner": next(
                (n for n in team_of.get(entry["winner"], ()) if n != entry["winner"]), None
            ),
            "how": entry["how"],
            "removed": _card(entry["removed"], names) if entry["removed"] else None,
        }
        for number, entry in enumerate(details.get("rounds", []), start=1)
    ]
    return {
        "punto": {
            # the table in play (its legal cells those of the card drawn), or the last round's
            "board": board,
            "centre": centre,
            "last_board": last_board,
            "round": state.round,
            "finished": state.finished,
            "line": state.line,
            "rounds_to_win": state.rounds_to_win,
            "to_play": to_play,
            "to_play_partner": next((n for n in team_of.get(to_play, ()) if n != to_play), None),
            "seats": seats,
            "teams": teams,
            "neutral": (
                {"colour": state.neutral, "label": names[state.neutral]} if state.neutral else None
            ),
            "rounds": rounds,
            "hand": hand,  # the cards the player to play may have drawn
            "drafted": _card(drafted, names) if drafted else None,
            "drafted_by": draft.data.get("player") if draft else None,
            "blocked": blocked,
            "empty_table": not current,
            # its grids drawn in Python, each cell kept once drawn (games.ui._drawing, issue 32)
            "grid": draw_grid,
            "hand_html": draw_hand,
            "sheet": draw_sheet,  # and its score sheet
        }
    }
