"""3-High's score sheet drawn in Python (issue 32): the outcome, the trees standing, the pile,
the hands and the cards played, a row each. Each row is kept once drawn for what it shows and
the language (games.ui._drawing.Pieces), and its part looked up by that very string
(games.jinja.drawn_part).

It writes what plays/games/three-high/sheet.html wrote (tests/views/test_sheets_drawn.py).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import ngettext, pgettext
from markupsafe import Markup

from ... import jinja
from .._drawing import Pieces, esc, said


def draw_sheet(
    drawing: Any,
    play: Any,
    outcome: str | None,
    reason: str,
    trees: list[dict[str, Any]],
    tree_count: int,
    pile: int | None,
    hands: list[dict[str, Any]],
    played: list[dict[str, Any]],
) -> Markup:
    """sheet.html's, from board_context's ``th_…`` values and the play (its status)."""
    abandoned = play is not None and play.status == "abandoned"
    rows = (
        _outcome(outcome, reason, abandoned),
        _trees(tuple((t["colour"], t["name"], bool(t["standing"])) for t in trees), tree_count),
        _pile(pile or 0),
        _hands(tuple((hand["player"], hand["cards"]) for hand in hands)),
        _played(tuple((card["text"], bool(card["red"])) for card in played)),
    )
    out = ['<table class="sheet th-sheet" id="th-sheet">\n  <tbody>\n    ']
    out.append("\n    ".join(jinja.drawn_part(drawing, html) for html in rows))
    out.append("\n  </tbody>\n</table>")
    return Markup("".join(out))


def _draw_outcome(outcome: str | None, reason: str, abandoned: bool) -> str:
    if outcome == "won":
        won = said("Won")
        told = f"<strong>{won}</strong> — {esc(reason)}"
    elif outcome == "lost":
        lost = said("Lost")
        told = f"<strong>{lost}</strong> — {esc(reason)}"
    elif abandoned:
        told = said("Abandoned")
    else:
        told = said("In progress")
    head = said("Outcome")
    return (
        f'<tr id="th-row-outcome"><th scope="row">{head}</th>'
        f'<td id="th-sheet-outcome">{told}</td></tr>'
    )


_outcome = Pieces(_draw_outcome, size=256)


def _draw_trees(trees: tuple[tuple[str, str, bool], ...], count: int) -> str:
    standing, missing = said("standing"), said("not standing")
    items = "".join(
        f'<li class="{"th-standing" if up else "th-missing"}"><span class="th-chip'
        f' th-{esc(colour)}" aria-hidden="true"></span> {esc(name)} '
        + (
            f'✓<span class="th-sr"> {standing}</span>'
            if up
            else f'–<span class="th-sr"> {missing}</span>'
        )
        + "</li>"
        for colour, name, up in trees
    )
    counted = ngettext("%(n)s tree standing", "%(n)s trees standing", count) % {"n": esc(count)}
    head = said("Trees")
    return (
        f'<tr id="th-row-trees"><th scope="row">{head}</th><td id="th-sheet-trees">\n'
        f'      <ul class="th-tree-list">{items}</ul>\n      {counted}\n    </td></tr>'
    )


_trees = Pieces(_draw_trees, size=256)


def _draw_pile(count: int) -> str:
    left = ngettext("%(n)s card left to draw", "%(n)s cards left to draw", count) % {
        "n": esc(count)
    }
    head = said("Pile")
    return (
        f'<tr id="th-row-pile"><th scope="row">{head}</th><td id="th-sheet-pile">{left}</td></tr>'
    )


_pile = Pieces(_draw_pile, size=256)


def _draw_hands(hands: tuple[tuple[str, Any], ...]) -> str:
    said_of = " · ".join(
        pgettext("a label and its value", "%(label)s: %(value)s")
        % {"label": esc(player), "value": esc(cards)}
        for player, cards in hands
    )
    head = said("Hands")
    return (
        f'<tr id="th-row-hands"><th scope="row">{head}</th><td id="th-sheet-hands">{said_of}'
        "</td></tr>"
    )


_hands = Pieces(_draw_hands, size=1024)


def _draw_played(played: tuple[tuple[str, bool], ...]) -> str:
    cards = (
        "".join(
            f'<span class="th-card-text{" th-red-suit" if red else ""}">{esc(text)}</span> '
            for text, red in played
        )
        or "—"
    )
    head = said("Cards played")
    return (
        f'<tr id="th-row-played"><th scope="row">{head}</th><td id="th-sheet-played">{cards}'
        "</td></tr>"
    )


_played = Pieces(_draw_played, size=1024)
