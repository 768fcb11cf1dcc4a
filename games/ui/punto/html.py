"""Punto drawn in Python rather than by templates, for speed: the table, the hand, the standing
and the score sheet's rows are drawn after every move, and the template engine took most of a
move entry's rendering to draw them (issue 19). Every text is escaped here, as a template would.
"""

from __future__ import annotations

from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from referee.punto import BOX


def grid_html(board: dict[str, Any], live: bool, drafted: dict[str, Any] | None) -> SafeString:
    """The table as HTML: the cells of ``_board``, the legal ones as buttons to tap when ``live``
    (``drafted`` is the card being placed), and the line saying how far the box has grown.

    Drawn here rather than by a template: up to 64 cells are drawn after every move, and the
    template engine took 4 ms of a move entry's 9 ms of rendering to draw them (issue 19)."""
    html = ['<div class="punto-grid']
    if board.get("full_width"):
        html.append(" limit-x")
    if board.get("full_height"):
        html.append(" limit-y")
    if not live:
        html.append(" punto-past")
    table = escape(_("The table"))  # outside the f-string, where makemessages finds it
    html.append(f'" role="grid" aria-label="{table}">')
    if board["column_labels"]:
        html.append(
            '<div class="punto-row punto-labels" aria-hidden="true"><span class="punto-label">'
            "</span>"
        )
        html.extend(
            f'<span class="punto-label">{letter}</span>' for letter in board["column_labels"]
        )
        html.append("</div>")
    last_played, in_line = escape(_("the last card played")), escape(_("in the winning line"))
    for row in board["rows"]:
        html.append('<div class="punto-row" role="row">')
        if row["label"]:
            html.append(f'<span class="punto-label" aria-hidden="true">{row["label"]}</span>')
        for cell in row["cells"]:
            card, at = cell["card"], cell["at"]
            named = f' data-cell="{cell["label"]}"' if cell["label"] else ""
            if live and cell["legal"] and drafted:
                html.append(
                    f'<button type="submit" form="move-form" name="at" value="{at}" '
                    'role="gridcell" class="punto-cell'
                )
                values = {
                    "card": drafted["value"],
                    "colour": drafted["label"],
                    "cell": cell["label"],
                }
                if card:
                    label = _(
                        "Cover the %(under_colour)s %(under)s at %(cell)s with the %(colour)s "
                        "%(card)s"
                    ) % (values | {"under": card["value"], "under_colour": card["label"]})
                    html.append(
                        f" punto-card punto-{card['colour']} legal cover"
                        f'{" last-move" if cell["last"] else ""}" aria-label="{escape(label)}">'
                        f'<span class="punto-value">{card["value"]}</span><span '
                        f'class="punto-cover-mark" aria-hidden="true">▲{drafted["value"]}</span>'
                        "</button>"
                    )
                else:
                    label = _("Play the %(colour)s %(card)s at %(cell)s") % values
                    html.append(
                        f' legal" aria-label="{escape(label)}"><span aria-hidden="true">+</span>'
                        "</button>"
                    )
            elif card:
                name = escape(card["label"])
                said = [name]
                classes = ["punto-cell punto-card", f"punto-{card['colour']}"]
                if cell["last"]:
                    classes.append("last-move")
                    said.append(last_played)
                if cell["win"]:
                    classes.append("win-line")
                    said.append(in_line)
                html.append(
                    f'<span role="gridcell" class="{" ".join(classes)}" data-at="{at}"{named} '
                    f'data-card="{card["name"]}" title="{name} {card["value"]}">'
                    f'<span class="punto-value">{card["value"]}</span>'
                    f'<span class="punto-sr">{", ".join(said)}</span></span>'
                )
            else:
                kind = "in-box" if cell["in_box"] else "ring"
                html.append(
                    f'<span role="gridcell" class="punto-cell {kind}" data-at="{at}"{named}></span>'
                )
        html.append("</div>")
    html.append("</div>")
    if board.get("width"):
        html.append(
            '<p class="punto-limit" id="punto-limit">'
            + escape(
                _("The cards span %(w)s × %(h)s of at most %(box)s × %(box)s.")
                % {"w": board["width"], "h": board["height"], "box": BOX}
            )
        )
        if board["full_width"] and board["full_height"]:
            full = _("No more columns or rows can be added.")
        elif board["full_width"]:
            full = _("No more columns can be added.")
        elif board["full_height"]:
            full = _("No more rows can be added.")
        else:
            full = None
        if full:
            html.append(f" <strong>{escape(full)}</strong>")
        html.append("</p>")
    # Safe: every text is escaped above; the rest are numbers, cell keys and colour names.
    return mark_safe("".join(html))


def hand_html(hand: list[dict[str, Any]]) -> SafeString:
    """The cards the player to play may have drawn, a button each, by colour (a card with no
    copy left is shown, disabled). Drawn here for the reason grid_html is: 18 buttons after
    every move."""
    html = []
    for colour in hand:
        legend = escape(capfirst(str(colour["label"])))
        if colour["neutral"]:
            neutral = escape(_("neutral"))  # outside the f-string, where makemessages finds it
            legend += f" ({neutral})"
        html.append(
            f'<fieldset class="punto-hand"><legend>{legend}</legend><div class="punto-values">'
        )
        for card in colour["cards"]:
            html.append(
                f'<button type="submit" name="card" value="{card["name"]}" class="punto-pick '
                f'punto-{colour["colour"]}"{"" if card["left"] else " disabled"} '
                f'aria-label="{escape(card["label"])}"><span class="punto-value">{card["value"]}'
                f'</span><small aria-hidden="true">×{card["left"]}</small></button>'
            )
        html.append("</div></fieldset>")
    # Safe: the labels are escaped; the rest are numbers and colour names.
    return mark_safe("".join(html))


def _label(colour: dict[str, Any]) -> str:
    return escape(colour["label"])


def _chips(colours: list[dict[str, Any]]) -> str:
    return "".join(
        f'<span class="punto-chip punto-{c["colour"]}" title="{_label(c)}">'
        f'<span class="punto-sr">{_label(c)}</span></span>'
        for c in colours
    )


def _rounds_won(wins: int) -> str:
    return ngettext("%(wins)s round won", "%(wins)s rounds won", wins) % {"wins": wins}


def standing_html(p: dict[str, Any]) -> SafeString:
    """Above the board, from move_context's ``p``: the round and whose turn it is, the rounds
    each player (or team) has won with their colours, and what wins. Drawn here for the reason
    grid_html is: it is drawn after every move, and the template took a fifth of the rendering.
    As a template would, the words' values are escaped (the translations are ours)."""
    if p["finished"]:
        said = escape(_("The match is over."))
    else:
        said = _("Round %(number)s") % {"number": p["round"]}
        if p["to_play"]:
            said += " · " + _("%(player)s to play") % {"player": escape(p["to_play"])}
    html = [
        f'<p class="punto-round" id="punto-round">{said}</p>\n'
        f'<ul class="punto-standing" id="punto-standing" aria-label="{escape(_("Rounds won"))}">'
    ]
    for number, team in enumerate(p["teams"]):
        members = " &amp; ".join(
            f"<span{' class="punto-member-to-play"' if member['to_play'] else ''} "
            f'data-player="{escape(member["name"])}">{escape(member["name"])}</span>'
            for member in team["members"]
        )
        html.append(
            f'\n<li class="punto-team{" to-play" if team["to_play"] else ""}" '
            f'data-team="{number}">\n<span class="punto-name">{members}</span>\n'
            f"{_chips(team['colours'])}\n"
            f'<span class="punto-wins" data-wins="{team["wins"]}">{_rounds_won(team["wins"])}'
            "</span>\n</li>"
        )
    if not p["teams"]:
        for seat in p["seats"]:
            name = escape(seat["name"])
            html.append(
                f'\n<li class="{"to-play" if seat["to_play"] else ""}" data-player="{name}">\n'
                f'<span class="punto-name">{name}</span>\n{_chips(seat["colours"])}\n'
                f'<span class="punto-wins" data-wins="{seat["wins"]}">'
                f"{_rounds_won(seat['wins'])}</span>\n</li>"
            )
    if p["neutral"]:
        neutral = _("%(colour)s is neutral") % {"colour": _label(p["neutral"])}
        html.append(
            f'\n<li class="punto-neutral"><span class="punto-chip punto-{p["neutral"]["colour"]}">'
            f"</span> {neutral}</li>"
        )
    values = {"line": p["line"], "wins": p["rounds_to_win"]}
    if p["teams"]:
        goal = ngettext(
            "%(line)s in a row of a team's colour, laid by either partner, wins the round; "
            "%(wins)s round wins the match.",
            "%(line)s in a row of a team's colour, laid by either partner, wins the round; "
            "%(wins)s rounds win the match.",
            p["rounds_to_win"],
        )
    else:
        goal = ngettext(
            "%(line)s in a row wins the round; %(wins)s round wins the match.",
            "%(line)s in a row wins the round; %(wins)s rounds win the match.",
            p["rounds_to_win"],
        )
    html.append(f'\n</ul>\n<p class="punto-hint" id="punto-goal">{goal % values}</p>')
    # Safe: names and labels are escaped; the rest are numbers, colour names and our words.
    return mark_safe("".join(html))


def sheet_rows_html(p: dict[str, Any]) -> tuple[SafeString, SafeString]:
    """The score sheet's rows, from move_context's ``p``: the rounds played (who won, how, the
    card removed), then the rounds won by each player or team (drawn here as standing_html)."""
    rounds = []
    for r in p["rounds"]:
        if r["winner"]:
            winner = escape(r["winner"])
            if r["partner"]:
                with_partner = _("(with %(partner)s)") % {"partner": escape(r["partner"])}
                winner += f" <small>{with_partner}</small>"
        else:
            winner = escape(_("nobody"))
        how = _("a line") if r["how"] == "line" else _("blocked: series counted")
        removed = r["removed"]
        card = (
            f'<span class="punto-card punto-inline punto-{removed["colour"]}"><span '
            f'class="punto-value">{removed["value"]}</span></span> '
            f"{_label(removed)} {removed['value']}"
            if removed
            else "—"
        )
        rounds.append(
            f'<tr data-round="{r["number"]}">\n<td>{r["number"]}</td>\n'
            f'<td class="punto-round-winner">{winner}</td>\n<td>{escape(how)}</td>\n'
            f"<td>{card}</td>\n</tr>\n"
        )
    won = []
    for number, team in enumerate(p["teams"]):
        members = " &amp; ".join(escape(member["name"]) for member in team["members"])
        colours = ", ".join(_label(c) for c in team["colours"])
        won.append(
            f'<tr data-team="{number}"><td>{members}</td><td>{colours}</td>'
            f'<td class="punto-wins">{team["wins"]}</td></tr>\n'
        )
    if not p["teams"]:
        for seat in p["seats"]:
            name = escape(seat["name"])
            colours = ", ".join(_label(c) for c in seat["colours"])
            won.append(
                f'<tr data-player="{name}"><td>{name}</td><td>{colours}</td>'
                f'<td class="punto-wins">{seat["wins"]}</td></tr>\n'
            )
    # Safe: names and labels are escaped; the rest are numbers and colour names.
    return mark_safe("".join(rounds)), mark_safe("".join(won))
