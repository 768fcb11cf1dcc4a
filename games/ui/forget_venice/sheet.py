"""Forget Venice's paper score sheet drawn in Python (issue 32): criteria I/II/III per half and
player with why each scored, each half's totals, the totals and the tie-break.

A criterion's row is drawn once per process and language for what it shows (``_row``: its
half, its numeral, and each player's points, suits and why), and its part looked up by that
very string (games.jinja.drawn_part), not by the repr of its reasons as a template's part was.
Why a half scored is told once for each telling the engine keeps (``told``).

It writes what plays/games/forget-venice/sheet.html wrote (tests/views/test_sheets_drawn.py).
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from referee.forget_venice import CriterionScore

from ... import jinja
from .. import Reason
from .._decktet import Words
from .._drawing import Pieces, esc, said, said_with
from .why import criterion_reason


def told(scores: tuple[CriterionScore, ...], said_by: Words) -> tuple[Reason, ...]:
    """Why each criterion of a half gave its points (criterion_reason), told once for each
    telling the engine keeps (referee.forget_venice's, the same tuple for the same cards and
    sheet) and language: a move's sheet told every criterion of every half again."""
    key = (id(scores), said_by.language)
    found = _TOLD.get(key)
    if found is not None and found[0] is scores:
        return found[1]
    reasons = tuple(criterion_reason(score, said_by) for score in scores)
    if len(_TOLD) >= _TOLD_AT_MOST:
        _TOLD.clear()
    # the telling kept with its reasons: its id is no other's while it is kept here
    _TOLD[key] = (scores, reasons)
    return reasons


_TOLD: dict[tuple[int, str | None], tuple[tuple[CriterionScore, ...], tuple[Reason, ...]]] = {}
_TOLD_AT_MOST = 1024


def draw_sheet(drawing: Any, sheet: dict[str, Any], names: list[str]) -> Markup:
    """sheet.html's, from board_context's ``fv_sheet`` and the players' ``names``."""
    heads = "".join(f'<th scope="col">{esc(name)}</th>' for name in names)
    hidden = said("Criterion")
    out = ['\n<div class="fv-score-sheet why-frame" id="fv-sheet">\n  ']
    for half in sheet["halves"]:
        number = half["half"]
        caption = said_with("Half %(half)s", half=number)
        out.append(
            f'\n  <table class="sheet fv-half-sheet" data-half="{esc(number)}">\n'
            f"    <caption>{caption}</caption>\n"
            f'    <thead><tr><th scope="col"><span class="fv-visually-hidden">{hidden}'
            f"</span></th>{heads}</tr></thead>\n    <tbody>\n    "
        )
        for index, row in enumerate(half["criteria"], 1):
            cells = tuple(
                (
                    cell["player"],
                    cell["value"],
                    tuple(suit["name"] for suit in cell["suits"]),
                    cell["why"],
                )
                for cell in row["cells"]
            )
            html = _row(number, index, row["criterion"], cells)
            out += ("\n      ", jinja.drawn_part(drawing, html), "\n    ")
        label = said("Half total")
        total = (
            f'<tr class="fv-half-total" id="fv-h{esc(number)}-total"><th scope="row">{label}'
            f"</th>{_totals(half['totals'])}</tr>"
        )
        out += (
            "\n    </tbody>\n    <tfoot>",
            jinja.drawn_part(drawing, total),
            "</tfoot>\n  </table>\n  ",
        )
    out.append(
        '\n  <table class="sheet fv-totals" id="fv-totals">\n'
        f'    <thead><tr><th scope="col"></th>{heads}</tr></thead>\n    <tbody>\n    '
    )
    for half in sheet["halves"]:
        label = said_with("Half %(half)s", half=half["half"])
        total = (
            f'<tr class="fv-totals-half" id="fv-total-h{esc(half["half"])}"><th scope="row">'
            f"{label}</th>{_totals(half['totals'])}</tr>"
        )
        out.append(jinja.drawn_part(drawing, total))
    label = said("Total")
    grand = "".join(f"<td>{esc(total)}</td>" for total in sheet["totals"])
    grand = (
        f'<tr class="fv-grand-total" id="fv-grand-total"><th scope="row">{label}</th>{grand}</tr>'
    )
    out += ("\n    ", jinja.drawn_part(drawing, grand), "\n    </tbody>\n  </table>\n  ")
    if sheet["finished"]:
        tie_break = sheet["tie_break_text"]
        said_of = esc(tie_break) if tie_break else said("No tie-break was needed.")
        out.append(f'\n  <p class="fv-tie-break" id="fv-tie-break">{said_of}</p>\n  ')
    out.append("\n</div>\n")
    return Markup("".join(out))


def _totals(totals: list[int | None]) -> str:
    return "".join(f"<td>{'–' if total is None else esc(total)}</td>" for total in totals)


def _draw_row(half: str, index: int, criterion: str, cells: tuple) -> str:
    from .board import suit_info

    out = [
        f'<tr id="fv-h{esc(half)}-{index}" data-criterion="{esc(criterion)}">'
        f'<th scope="row">{esc(criterion)}</th>\n        '
    ]
    for player, value, suits, why in cells:
        out.append("<td>")
        if why:
            head = said_with(
                "%(player)s, half %(half)s, criterion %(criterion)s: %(points)s",
                player=player,
                criterion=criterion,
                half=half,
                points=value,
            )
            lines = "".join(f"<li>{esc(line)}</li>" for line in why.lines)
            out.append(
                f'<details class="why"><summary><span class="fv-sheet-value">{esc(value)}'
                f'</span></summary><div class="why-body" role="note"><p class="why-head">{head}'
                f'</p><p>{esc(why.text)}</p><ul class="why-list">{lines}</ul></div></details>'
            )
        else:
            shown = "–" if value is None else esc(value)
            out.append(f'<span class="fv-sheet-value">{shown}</span>')
        out.append(' <span class="fv-sheet-suits">')
        for name in suits:
            suit = suit_info(name)
            out.append(
                f'<span class="fv-suit fv-suit-{esc(suit["css"])}" title="{esc(suit["label"])}">'
                f"{esc(suit['short'])}</span>"
            )
        out.append("</span></td>")
    out.append("\n      </tr>")
    return "".join(out)


_row = Pieces(_draw_row)
