"""Punto at the table: colours per player (or, for four, per team of partners seated opposite)
and the rounds that win the match, then each move in two taps — the card drawn, then a cell on
the board (or "blocked" when the card has no legal cell). A partner's hand is the team's colours.

The board shows the visible top cards inside the floating 6 × 6 box: the cards' bounding box and
the ring of cells around it where the box may still grow. Only the engine's legal cells are
offered as buttons; the referee judges the move.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import get_language, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext as _

from referee import Game, Judgement
from referee.messages import describe
from referee.punto import (
    BOX,
    COLOURS,
    DIRECTIONS,
    MAX_ROUNDS_TO_WIN,
    ROUNDS_TO_WIN,
    VALUES,
    CardPlay,
    Punto,
    parse_card,
)

from . import Draft, FormError, GameUI, and_list, is_cell, read_cell, read_draft

COLOUR_LABELS = {
    "red": pgettext_lazy("Punto colour", "red"),
    "orange": pgettext_lazy("Punto colour", "orange"),
    "blue": pgettext_lazy("Punto colour", "blue"),
    "green": pgettext_lazy("Punto colour", "green"),
}

Cell = tuple[int, int]
COLUMN_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def label_origin(first_cell: Cell) -> Cell:
    """The cell the board labels A1 this round: its names never change during a round.

    The cards of a round stay inside a 6 × 6 box around its first card, so none can lie more
    than 5 columns left of it or 5 rows above it: that column is A, that row 1 (rows are
    numbered downwards, as drawn). The first card is always F6."""
    return (first_cell[0] - (BOX - 1), first_cell[1] - (BOX - 1))


def cell_label(cell: Cell, origin: Cell) -> str | None:
    """ "F6": a cell as the board labels it, or None when it lies off the labelled area."""
    column, row = cell[0] - origin[0], cell[1] - origin[1]
    if not (0 <= column < len(COLUMN_LETTERS) and row >= 0):
        return None
    return f"{COLUMN_LETTERS[column]}{row + 1}"


def cell_name(cell: Cell, state: Punto) -> str:
    """A cell of this round as the board names it: the first card of the round, or this cell
    when the table is empty, is F6."""
    origin = label_origin(state.first_cell or cell)
    return cell_label(cell, origin) or describe(list(cell))


def card_words(card: str | tuple[str, int]) -> str:
    """ "red-7" → "the red 7" in a sentence (French leaves the article to the sentence: "le 7
    rouge", "du 7 rouge")."""
    colour, value = card.split("-") if isinstance(card, str) else card
    return pgettext("a Punto card in a sentence", "the %(colour)s %(value)s") % {
        "colour": COLOUR_LABELS[colour],
        "value": value,
    }


#: the setup's choice of "each for themselves" or teams (four players only)
SOLO, TEAMS = "solo", "teams"
#: the colours each team is offered first: red and blue against orange and green, as two players
TEAM_COLOURS = (("red", "blue"), ("orange", "green"))


def opposite_teams(players: list[str]) -> list[list[str]]:
    """The only pairing the rules allow: partners seated opposite each other."""
    return [[players[0], players[2]], [players[1], players[3]]]


_COLOUR_NAMES: dict[str, dict[str, str]] = {}


def colour_names() -> dict[str, str]:
    """The colours' names in the active language, translated once per language: every card on
    the table and in the hand is named after every move."""
    language = get_language()
    names = _COLOUR_NAMES.get(language)
    if names is None:
        names = _COLOUR_NAMES[language] = {c: str(label) for c, label in COLOUR_LABELS.items()}
    return names


def _labels(colours: Any) -> list[dict[str, Any]]:
    names = colour_names()
    return [{"colour": c, "label": names[c]} for c in colours]


def _card(name: str) -> dict[str, Any]:
    colour, value = name.split("-")
    return {"name": name, "colour": colour, "label": colour_names()[colour], "value": int(value)}


def _read_card(value: Any) -> str:
    """A card name from the form ("red-7"), or FormError for anything the form never offers."""
    text = value.strip().lower() if isinstance(value, str) else ""
    colour, _sep, number = text.partition("-")
    if colour not in COLOURS or number not in {str(v) for v in VALUES}:
        raise FormError(_("Choose the card drawn from the cards shown."))
    return f"{colour}-{number}"


def _span(low: int, high: int) -> range:
    """The columns (or rows) worth drawing: the cards' extent plus one on each side where the
    6 × 6 box still lets the table grow."""
    return range(max(low - 1, high - BOX + 1), min(high + 1, low + BOX - 1) + 1)


def _board(
    cells: dict[Cell, str],
    legal: set[Cell],
    last: Cell | None = None,
    line: frozenset[Cell] = frozenset(),
    origin: Cell | None = None,
) -> dict[str, Any]:
    """Rows of cells to draw, with the cards' extent and whether it reached the 6 × 6 limit;
    ``last`` is the cell of the last card played, ``line`` the cells of a winning line; with the
    column and row labels when ``origin`` (the cell labelled A1) is given."""
    if not cells:
        columns = sorted({x for x, _y in legal})
        lines = sorted({y for _x, y in legal})
    else:
        xs = [x for x, _y in cells]
        ys = [y for _x, y in cells]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        columns, lines = list(_span(x0, x1)), list(_span(y0, y1))
    rows = [
        {
            "label": y - origin[1] + 1 if origin else None,
            "cells": [
                _cell(
                    x,
                    y,
                    cells.get((x, y)),
                    legal,
                    not cells or (x0 <= x <= x1 and y0 <= y <= y1),
                    cell_label((x, y), origin) if origin else None,
                )
                | {"last": (x, y) == last, "win": (x, y) in line}
                for x in columns
            ],
        }
        for y in lines
    ]
    board: dict[str, Any] = {
        "rows": rows,
        "column_labels": [COLUMN_LETTERS[x - origin[0]] for x in columns] if origin else [],
    }
    if cells:
        width, height = x1 - x0 + 1, y1 - y0 + 1
        board |= {
            "width": width,
            "height": height,
            "full_width": width == BOX,
            "full_height": height == BOX,
        }
    return board


def _cell(
    x: int, y: int, card: str | None, legal: set[Cell], in_box: bool, label: str | None
) -> dict[str, Any]:
    return {
        "at": f"{x},{y}",
        "x": x,
        "y": y,
        "label": label,
        "card": _card(card) if card else None,
        "legal": (x, y) in legal,
        "in_box": in_box,
    }


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


def _hand_card(colour: str, value: int, left: int) -> dict[str, Any]:
    """A card of the hand, with its button's label said here rather than by the template: 18
    buttons are drawn after every move, and a plural in the template costs far more."""
    label = ngettext(
        "%(colour)s %(value)s, %(left)s copy left",
        "%(colour)s %(value)s, %(left)s copies left",
        left,
    ) % {"colour": colour_names()[colour], "value": value, "left": left}
    return {"name": f"{colour}-{value}", "value": value, "left": left, "label": label}


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


class PuntoUI(GameUI):
    # The referee's words ----------------------------------------------------------------------

    def word(self, kind: str, value: Any, state: Game | None) -> str | None:
        if kind == "card" and (card := parse_card(value)) is not None:
            return card_words(card)
        if kind == "colour" and isinstance(value, str) and value in COLOUR_LABELS:
            return str(COLOUR_LABELS[value])
        if kind == "cell" and isinstance(state, Punto) and is_cell(value):
            return cell_name(value, state)
        return None

    def move_name(self, state: Game | None, number: int) -> str:
        if not isinstance(state, Punto) or state.finished:
            return super().move_name(state, number)
        return _("Round %(round)s, card %(number)s") % {
            "round": state.round,
            "number": state.cards_played() + 1,
        }

    def describe_move(self, state: Game, plan: CardPlay) -> str:
        """ "Ana plays the red 7 at F6", "… on the blue 3", "Ben is blocked with the green 9"."""
        assert isinstance(state, Punto)
        values = {"player": plan.player, "card": card_words(plan.card)}
        if plan.cell is None:
            return _("%(player)s draws %(card)s and is blocked: no cell for it") % values
        values["cell"] = cell_name(plan.cell, state)
        below = state.board.get(plan.cell)
        if below is not None:
            values["card_below"] = card_words(below)
            return _("%(player)s plays %(card)s at %(cell)s, on %(card_below)s") % values
        return _("%(player)s plays %(card)s at %(cell)s") % values

    def move_outcome(self, state: Game, plan: CardPlay) -> str | None:
        """The end of a round (the table is cleared) and of the match."""
        assert isinstance(state, Punto)
        if state.board or not state.rounds:  # the round goes on
            return None
        ended = state.rounds[-1]
        values = {"number": len(state.rounds), "player": ended["winner"]}
        if ended["removed"]:
            values["card"] = card_words(ended["removed"])
        # Said as the page says it next to the controls (PuntoUI.events).
        if ended["winner"] is None:
            said = [_("Round %(number)s ends blocked: nobody wins it.") % values]
        elif ended["how"] == "line":
            said = [_("%(player)s wins round %(number)s with a line.") % values]
        else:
            said = [_("%(player)s wins round %(number)s on series.") % values]
        if ended["removed"]:
            said.append(capfirst(_("%(card)s leaves the game.") % values))
        if state.finished:
            winners = state.winners()
            said.append(
                ngettext("%(names)s wins the match.", "%(names)s win the match.", len(winners))
                % {"names": and_list(winners)}
            )
        return " ".join(said)

    # Setup --------------------------------------------------------------------------------------

    def default_setup(self, players: list[str]) -> dict[str, Any]:
        """Two players: red + blue against orange + green (as in the rules' example); three or
        four: one colour each in the order red, orange, blue, green (with three, green is
        neutral)."""
        if len(players) == 2:
            return {"colours": {players[0]: ["red", "blue"], players[1]: ["orange", "green"]}}
        return {"colours": {name: [COLOURS[i]] for i, name in enumerate(players[: len(COLOURS)])}}

    def setup_context(self, players: list[str], post: QueryDict | None) -> dict[str, Any]:
        default = self.default_setup(players)["colours"]
        each = 2 if len(players) == 2 else 1

        def chosen(field: str, default: str) -> str:
            return post.get(field, "") if post is not None else default

        rows = []
        for index, name in enumerate(players):
            picks = []
            for k in range(each):
                field = f"colour-{index}-{k}"
                picks.append({"field": field, "chosen": chosen(field, default[name][k])})
            rows.append({"name": name, "picks": picks})
        team_rows = []
        if len(players) == 4:
            for index, members in enumerate(opposite_teams(players)):
                picks = []
                for k in range(2):
                    field = f"team-{index}-{k}"
                    picks.append({"field": field, "chosen": chosen(field, TEAM_COLOURS[index][k])})
                team_rows.append({"index": index, "members": members, "picks": picks})
        options = [(colour, COLOUR_LABELS[colour]) for colour in COLOURS]
        return {
            "colour_rows": rows,
            "colour_options": options,
            "two_each": each == 2,
            "has_neutral": len(players) == 3,
            "team_rows": team_rows,
            "mode": chosen("mode", SOLO),
            "rounds_options": range(1, MAX_ROUNDS_TO_WIN + 1),
            "rounds_chosen": chosen("rounds_to_win", str(ROUNDS_TO_WIN)),
        }

    def parse_setup(self, post: QueryDict, players: list[str]) -> Any:
        rounds = post.get("rounds_to_win", str(ROUNDS_TO_WIN))
        if rounds not in {str(n) for n in range(1, MAX_ROUNDS_TO_WIN + 1)}:
            raise FormError(_("Choose how many rounds win the match."))
        mode = post.get("mode", SOLO)
        if mode not in (SOLO, TEAMS) or (mode == TEAMS and len(players) != 4):
            raise FormError(_("The form was damaged: choose the setup again."))
        setup: dict[str, Any] = {}
        if mode == TEAMS:
            teams = opposite_teams(players)
            colours = {}
            for index, members in enumerate(teams):
                picked = [post.get(f"team-{index}-{k}", "") for k in range(2)]
                if any(colour not in COLOURS for colour in picked):
                    raise FormError(
                        _("Choose the colours of %(first)s and %(second)s's team.")
                        % {"first": members[0], "second": members[1]}
                    )
                for name in members:
                    colours[name] = picked
            setup = {"colours": {name: colours[name] for name in players}, "teams": teams}
        else:
            each = 2 if len(players) == 2 else 1
            colours = {}
            for index, name in enumerate(players):
                picked = [post.get(f"colour-{index}-{k}", "") for k in range(each)]
                if any(colour not in COLOURS for colour in picked):
                    raise FormError(_("Choose %(player)s's colours.") % {"player": name})
                colours[name] = picked
            setup = {"colours": colours}
        # The default number of rounds stays out of the log, as a log without the variant.
        if rounds != str(ROUNDS_TO_WIN):
            setup["rounds_to_win"] = int(rounds)
        # Whether each colour belongs to one player (or team) at most is the referee's to judge.
        return setup

    # Moves --------------------------------------------------------------------------------------

    def move_context(self, judgement: Judgement, players: list[str], draft: Draft | None) -> dict:
        state = judgement.state
        if state is None:
            return {}
        details = judgement.details
        drafted = draft.data.get("card") if draft else None
        legal: set[Cell] = set()
        blocked = False
        if drafted:
            cells = state.legal_cells(drafted)
            # "The first card of a round goes anywhere": offer the centre of the table.
            legal = {(0, 0)} if cells is None else set(cells)
            blocked = cells == []
        current = _cells_of(state)
        last = _last_cell(judgement)
        first = state.first_cell or next(iter(legal), None)
        origin = label_origin(first) if first is not None else None
        board = _board(current, legal, last, origin=origin) if current or legal else None
        last_board = None
        if not current and details.get("last_round_board"):
            # The round just ended: its last table, with the winning line if there was one.
            ended = _parse_cells(details["last_round_board"])
            round_won = (details.get("rounds") or [{}])[-1]
            line = frozenset()
            if round_won.get("how") == "line" and round_won.get("winner"):
                line = _winning_line(ended, state.colours[round_won["winner"]], state.line)
            last_board = _board(ended, set(), last, line)
        to_play = state.to_play
        hand = []
        if to_play is not None and not drafted:
            for colour in state.playable_colours(to_play):
                hand.append(
                    {
                        "colour": colour,
                        "label": colour_names()[colour],
                        "neutral": colour == state.neutral,
                        "cards": [
                            _hand_card(colour, value, state.cards_left(colour, value))
                            for value in VALUES
                        ],
                    }
                )
        seats = [
            {
                "name": name,
                "colours": _labels(state.colours[name]),
                "wins": state.wins[name],
                "to_play": name == to_play,
            }
            for name in state.players
        ]
        # The standing counts per side: a team (partners win together), or each player.
        teams = [
            {
                "members": [{"name": name, "to_play": name == to_play} for name in team],
                "colours": _labels(colours),
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
                "removed": _card(entry["removed"]) if entry["removed"] else None,
            }
            for number, entry in enumerate(details.get("rounds", []), start=1)
        ]
        drafted_card = _card(drafted) if drafted else None
        context = {
            "punto": {
                "board": board,
                "last_board": last_board,
                # the boards as drawn (grid_html): the cells to tap, or the last round's table
                "grid": board and grid_html(board, True, drafted_card),
                "last_grid": last_board and grid_html(last_board, False, None),
                "round": state.round,
                "finished": state.finished,
                "line": state.line,
                "rounds_to_win": state.rounds_to_win,
                "to_play": to_play,
                "to_play_partner": next(
                    (n for n in team_of.get(to_play, ()) if n != to_play), None
                ),
                "seats": seats,
                "teams": teams,
                "neutral": (
                    {"colour": state.neutral, "label": colour_names()[state.neutral]}
                    if state.neutral
                    else None
                ),
                "rounds": rounds,
                "hand": hand_html(hand),  # the cards the player to play may have drawn
                "drafted": drafted_card,
                "drafted_by": draft.data.get("player") if draft else None,
                "blocked": blocked,
                "empty_table": not current,
            }
        }
        p = context["punto"]
        p["standing"] = standing_html(p)
        p["round_rows"], p["won_rows"] = sheet_rows_html(p)
        return context

    def events(self, before: Judgement, after: Judgement, players: list[str]) -> list[str]:
        """A round that just ended: who won it and how."""
        rounds = after.details.get("rounds", [])
        if len(rounds) <= len(before.details.get("rounds", [])):
            return []
        ended = rounds[-1]
        number = len(rounds)
        if ended["winner"] is None:
            said = _("Round %(number)s ends blocked: nobody wins it.") % {"number": number}
        elif ended["how"] == "line":
            said = _("%(player)s wins round %(number)s with a line.") % {
                "player": ended["winner"],
                "number": number,
            }
        else:
            said = _("%(player)s wins round %(number)s on series.") % {
                "player": ended["winner"],
                "number": number,
            }
        return [said]

    def parse_move(self, post: QueryDict, judgement: Judgement, players: list[str]) -> Any:
        state = judgement.state
        if state is None or state.to_play is None:
            raise FormError(_("No move can be entered now."))
        if "card" in post:
            return Draft({"player": state.to_play, "card": _read_card(post["card"])})
        draft = read_draft(post)
        if not draft.get("card"):
            raise FormError(_("Choose the card drawn first."))
        card = _read_card(draft["card"])
        player = draft.get("player")
        if player not in players:
            raise FormError(_("The form was damaged: start the move again."))
        if post.get("blocked"):
            return {"player": player, "card": card, "blocked": True}
        if post.get("at"):
            return {
                "player": player,
                "card": card,
                "at": list(
                    read_cell(post["at"], _("Tap one of the highlighted cells on the board."))
                ),
            }
        raise FormError(_("Tap a highlighted cell on the board, or say the card is blocked."))


UI = PuntoUI
