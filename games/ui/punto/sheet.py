"""Punto's score sheet drawn in Python (issue 32): the rounds played, the round in play, and the
rounds each side won. Each row is kept once drawn for what it shows and the language
(games.ui._drawing.Pieces), and its part looked up by that very string (games.jinja.drawn_part).

It writes what plays/games/punto/sheet.html wrote (tests/views/test_sheets_drawn.py).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import ngettext
from markupsafe import Markup

from ... import jinja
from .._drawing import Pieces, esc, said, said_with


def draw_sheet(drawing: Any, p: dict[str, Any], play: Any) -> Markup:
    """sheet.html's, from board_context's ``punto`` and the play (its status)."""
    out = [_head()]
    for r in p["rounds"]:
        removed = r["removed"]["name"] if r["removed"] else None
        html = _round(r["number"], r["winner"], r["partner"], r["how"], removed)
        out += ("\n    ", jinja.drawn_part(drawing, html), "\n  ")
    out.append("\n  ")
    if not p["finished"]:
        if play is not None and play.status == "abandoned":
            status = esc(play.status_label)
        else:
            status = said("in play")
        current = (
            f'<tr class="punto-current" id="punto-current"><td>{esc(p["round"])}</td>'
            f'<td colspan="3">{status}</td></tr>'
        )
        out += ("\n    ", jinja.drawn_part(drawing, current), "\n  ")
    out.append(_won_head(bool(p["teams"])))
    if p["teams"]:
        for index, team in enumerate(p["teams"], 1):
            members = tuple(member["name"] for member in team["members"])
            colours = tuple(c["label"] for c in team["colours"])
            html = _team(index, members, colours, team["wins"])
            out += ("\n    ", jinja.drawn_part(drawing, html), "\n  ")
    else:
        for index, seat in enumerate(p["seats"], 1):
            colours = tuple(c["label"] for c in seat["colours"])
            html = _seat(index, seat["name"], colours, seat["wins"])
            out += ("\n    ", jinja.drawn_part(drawing, html), "\n  ")
    out.append("\n  </tbody>\n</table>\n")
    if p["rounds_to_win"] != 2:
        wins = p["rounds_to_win"]
        said_of = ngettext(
            "Played to %(wins)s round won.", "Played to %(wins)s rounds won.", wins
        ) % {"wins": esc(wins)}
        out.append(f'<p class="punto-hint" id="punto-rounds-to-win-note">{said_of}</p>')
    out.append("\n")
    return Markup("".join(out))


def _draw_head() -> str:
    caption = said("Punto rounds")
    heads = "".join(
        f'<th scope="col">{text}</th>'
        for text in (said("Round"), said("Winner"), said("How"), said("Card removed"))
    )
    return (
        f'\n<table class="sheet punto-rounds" id="punto-rounds">\n  <caption>{caption}</caption>\n'
        f"  <thead><tr>{heads}</tr></thead>\n  <tbody>\n  "
    )


_head = Pieces(_draw_head, size=16)


def _draw_won_head(teams: bool) -> str:
    side = said("Team") if teams else said("Player")
    colours, won = said("Colours"), said("Rounds won")
    return (
        '\n  </tbody>\n</table>\n<table class="sheet punto-won" id="punto-won">\n'
        f'  <thead><tr><th scope="col">{side}</th><th scope="col">{colours}</th>'
        f'<th scope="col">{won}</th></tr></thead>\n  <tbody>\n  '
    )


_won_head = Pieces(_draw_won_head, size=16)


def _draw_round(
    number: int, winner: str | None, partner: str | None, how: str, removed: str | None
) -> str:
    if winner:
        who = esc(winner)
        if partner:
            partnered = said_with("(with %(partner)s)", partner=partner)
            who += f" <small>{partnered}</small>"
    else:
        who = said("nobody")
    told = said("a line") if how == "line" else said("blocked: series counted")
    if removed:
        from .board import _card

        card = _card(removed)
        value = esc(card["value"])
        card_html = (
            f'<span class="punto-card punto-inline punto-{esc(card["colour"])}">'
            f'<span class="punto-value">{value}</span></span> {esc(card["label"])} {value}'
        )
    else:
        card_html = "—"
    n = esc(number)
    return (
        f'<tr id="punto-round-{n}" data-round="{n}">\n      <td>{n}</td>\n'
        f'      <td class="punto-round-winner">{who}</td>\n      <td>{told}</td>\n'
        f"      <td>{card_html}</td>\n    </tr>"
    )


_round = Pieces(_draw_round)


def _draw_team(index: int, members: tuple[str, ...], colours: tuple[str, ...], wins: int) -> str:
    names = " &amp; ".join(esc(name) for name in members)
    return (
        f'<tr id="punto-won-{index}" data-team="{index - 1}"><td>{names}</td>'
        f'<td>{", ".join(esc(c) for c in colours)}</td><td class="punto-wins">{esc(wins)}</td></tr>'
    )


_team = Pieces(_draw_team)


def _draw_seat(index: int, name: str, colours: tuple[str, ...], wins: int) -> str:
    return (
        f'<tr id="punto-won-{index}" data-player="{esc(name)}"><td>{esc(name)}</td>'
        f'<td>{", ".join(esc(c) for c in colours)}</td><td class="punto-wins">{esc(wins)}</td></tr>'
    )


_seat = Pieces(_draw_seat)
