"""Buntherum at the table (docs/gamelog.md §6): the six starting series, then each turned card and
its call in two taps.

The move form is a two-tap flow: tap the turned card in a colour × object grid (only cards in
no series are offered: ``unplaced_cards()``), then choose who called first and tap the series
(1–6) or "Impossible!" — or tick the players who tied. The form never says which series the
card fits: the players race to find it, and the referee only checks the call afterwards.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import QueryDict
from django.templatetags.static import static
from django.utils.text import capfirst
from django.utils.translation import get_language, gettext_noop, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext as _
from markupsafe import Markup

from referee import Game, Judgement
from referee.buntherum import (
    COLOURS,
    CRASHES_TO_ELIMINATE,
    IMPOSSIBLE,
    OBJECTS,
    SIDES,
    Buntherum,
    Call,
    Tie,
    card_parts,
    parse_card,
)

from .. import jinja
from . import Builder, Draft, FormError, GameUI, and_list, read_draft
from ._drawing import Pieces, esc, said, said_with

COLOUR_NAMES = {
    "red": pgettext_lazy("buntherum colour", "red"),
    "orange": pgettext_lazy("buntherum colour", "orange"),
    "yellow": pgettext_lazy("buntherum colour", "yellow"),
    "green": pgettext_lazy("buntherum colour", "green"),
    "blue": pgettext_lazy("buntherum colour", "blue"),
    "purple": pgettext_lazy("buntherum colour", "purple"),
    "pink": pgettext_lazy("buntherum colour", "pink"),
    "black": pgettext_lazy("buntherum colour", "black"),
}

OBJECT_NAMES = {
    "die": pgettext_lazy("buntherum object", "die"),
    "butterfly": pgettext_lazy("buntherum object", "butterfly"),
    "ball": pgettext_lazy("buntherum object", "ball"),
    "icecream": pgettext_lazy("buntherum object", "ice cream"),
    "cup": pgettext_lazy("buntherum object", "cup"),
    "flower": pgettext_lazy("buntherum object", "flower"),
    "car": pgettext_lazy("buntherum object", "car"),
    "telephone": pgettext_lazy("buntherum object", "telephone"),
}

#: The project's drawing of each object (static/img/buntherum.svg, one <symbol> per object): every
#: device shows it, where an emoji is an empty box without a colour-emoji font.
SPRITE = "img/buntherum.svg"


def object_icon(obj: str) -> str:
    """The address of the object's drawing, for ``<svg><use href="…">``."""
    return f"{sprite_address()}#{obj}"


def sprite_address() -> str:
    """The sprite's address, asked of the static files' storage once for its settings: every
    card drawn asked it again (a manifest lookup and a URL join each, a few per cent of a move's
    answer: issue 32), and a storage's addresses do not change while it serves."""
    storage = settings.STORAGES.get("staticfiles", {}).get("BACKEND")
    key = (settings.STATIC_URL, storage)
    found = _SPRITE_ADDRESSES.get(key)
    if found is None:
        found = _SPRITE_ADDRESSES[key] = static(SPRITE)
    return found


#: sprite_address's, by the settings they were made under
_SPRITE_ADDRESSES: dict[tuple, str] = {}


#: Whole card names, so that a translation can make the colour agree with the object.
CARD_NAMES = {
    "red-die": pgettext_lazy("buntherum card", "red die"),
    "red-butterfly": pgettext_lazy("buntherum card", "red butterfly"),
    "red-ball": pgettext_lazy("buntherum card", "red ball"),
    "red-icecream": pgettext_lazy("buntherum card", "red ice cream"),
    "red-cup": pgettext_lazy("buntherum card", "red cup"),
    "red-flower": pgettext_lazy("buntherum card", "red flower"),
    "red-car": pgettext_lazy("buntherum card", "red car"),
    "red-telephone": pgettext_lazy("buntherum card", "red telephone"),
    "orange-die": pgettext_lazy("buntherum card", "orange die"),
    "orange-butterfly": pgettext_lazy("buntherum card", "orange butterfly"),
    "orange-ball": pgettext_lazy("buntherum card", "orange ball"),
    "orange-icecream": pgettext_lazy("buntherum card", "orange ice cream"),
    "orange-cup": pgettext_lazy("buntherum card", "orange cup"),
    "orange-flower": pgettext_lazy("buntherum card", "orange flower"),
    "orange-car": pgettext_lazy("buntherum card", "orange car"),
    "orange-telephone": pgettext_lazy("buntherum card", "orange telephone"),
    "yellow-die": pgettext_lazy("buntherum card", "yellow die"),
    "yellow-butterfly": pgettext_lazy("buntherum card", "yellow butterfly"),
    "yellow-ball": pgettext_lazy("buntherum card", "yellow ball"),
    "yellow-icecream": pgettext_lazy("buntherum card", "yellow ice cream"),
    "yellow-cup": pgettext_lazy("buntherum card", "yellow cup"),
    "yellow-flower": pgettext_lazy("buntherum card", "yellow flower"),
    "yellow-car": pgettext_lazy("buntherum card", "yellow car"),
    "yellow-telephone": pgettext_lazy("buntherum card", "yellow telephone"),
    "green-die": pgettext_lazy("buntherum card", "green die"),
    "green-butterfly": pgettext_lazy("buntherum card", "green butterfly"),
    "green-ball": pgettext_lazy("buntherum card", "green ball"),
    "green-icecream": pgettext_lazy("buntherum card", "green ice cream"),
    "green-cup": pgettext_lazy("buntherum card", "green cup"),
    "green-flower": pgettext_lazy("buntherum card", "green flower"),
    "green-car": pgettext_lazy("buntherum card", "green car"),
    "green-telephone": pgettext_lazy("buntherum card", "green telephone"),
    "blue-die": pgettext_lazy("buntherum card", "blue die"),
    "blue-butterfly": pgettext_lazy("buntherum card", "blue butterfly"),
    "blue-ball": pgettext_lazy("buntherum card", "blue ball"),
    "blue-icecream": pgettext_lazy("buntherum card", "blue ice cream"),
    "blue-cup": pgettext_lazy("buntherum card", "blue cup"),
    "blue-flower": pgettext_lazy("buntherum card", "blue flower"),
    "blue-car": pgettext_lazy("buntherum card", "blue car"),
    "blue-telephone": pgettext_lazy("buntherum card", "blue telephone"),
    "purple-die": pgettext_lazy("buntherum card", "purple die"),
    "purple-butterfly": pgettext_lazy("buntherum card", "purple butterfly"),
    "purple-ball": pgettext_lazy("buntherum card", "purple ball"),
    "purple-icecream": pgettext_lazy("buntherum card", "purple ice cream"),
    "purple-cup": pgettext_lazy("buntherum card", "purple cup"),
    "purple-flower": pgettext_lazy("buntherum card", "purple flower"),
    "purple-car": pgettext_lazy("buntherum card", "purple car"),
    "purple-telephone": pgettext_lazy("buntherum card", "purple telephone"),
    "pink-die": pgettext_lazy("buntherum card", "pink die"),
    "pink-butterfly": pgettext_lazy("buntherum card", "pink butterfly"),
    "pink-ball": pgettext_lazy("buntherum card", "pink ball"),
    "pink-icecream": pgettext_lazy("buntherum card", "pink ice cream"),
    "pink-cup": pgettext_lazy("buntherum card", "pink cup"),
    "pink-flower": pgettext_lazy("buntherum card", "pink flower"),
    "pink-car": pgettext_lazy("buntherum card", "pink car"),
    "pink-telephone": pgettext_lazy("buntherum card", "pink telephone"),
    "black-die": pgettext_lazy("buntherum card", "black die"),
    "black-butterfly": pgettext_lazy("buntherum card", "black butterfly"),
    "black-ball": pgettext_lazy("buntherum card", "black ball"),
    "black-icecream": pgettext_lazy("buntherum card", "black ice cream"),
    "black-cup": pgettext_lazy("buntherum card", "black cup"),
    "black-flower": pgettext_lazy("buntherum card", "black flower"),
    "black-car": pgettext_lazy("buntherum card", "black car"),
    "black-telephone": pgettext_lazy("buntherum card", "black telephone"),
}

#: A card in a sentence, with its article: the article agrees with the object ("la balle").
WITH_ARTICLE = {
    "die": pgettext_lazy("buntherum: a die card in a sentence", "the %(card)s"),
    "butterfly": pgettext_lazy("buntherum: a butterfly card in a sentence", "the %(card)s"),
    "ball": pgettext_lazy("buntherum: a ball card in a sentence", "the %(card)s"),
    "icecream": pgettext_lazy("buntherum: an ice cream card in a sentence", "the %(card)s"),
    "cup": pgettext_lazy("buntherum: a cup card in a sentence", "the %(card)s"),
    "flower": pgettext_lazy("buntherum: a flower card in a sentence", "the %(card)s"),
    "car": pgettext_lazy("buntherum: a car card in a sentence", "the %(card)s"),
    "telephone": pgettext_lazy("buntherum: a telephone card in a sentence", "the %(card)s"),
}


def card_name(card: str) -> str:
    """ "red-die" → "the red die" ("le dé rouge"): a card in a sentence."""
    return WITH_ARTICLE[card_parts(card)[1]] % {"card": CARD_NAMES[card]}


#: The example's starting series (docs/gamelog.md §6): a valid setup for any number of players.
DEFAULT_SERIES = {
    "1": ["red-die", "blue-car"],
    "2": ["orange-ball", "green-cup"],
    "3": ["yellow-ball", "purple-telephone"],
    "4": ["red-icecream", "black-butterfly"],
    "5": ["pink-ball", "orange-flower"],
    "6": ["red-telephone", "yellow-cup"],
}
SLOTS = (0, 1)


@dataclass(frozen=True)
class Card:
    """One card as the templates draw it."""

    id: str
    colour: str
    object: str

    @property
    def label(self) -> str:
        return card_names(get_language())[self.id][0]

    @property
    def icon(self) -> str:
        return object_icon(self.object)

    @property
    def colour_label(self) -> str:
        return card_names(get_language())[self.id][1]


def colour_word(label: str, colour: str) -> str:
    """A card's colour in words as its name (``label``) says it: French agrees the colour with
    the object ("balle violette", "papillon violet"), so that the word a cell shows is a word of
    the card's name (WCAG 2.5.3: a voice user says what they see)."""
    for word in label.split():
        if word.lower().startswith(colour.lower()):
            return word
    return colour


@functools.lru_cache(maxsize=16)  # a few languages
def card_names(language: str | None) -> dict[str, tuple[str, str]]:
    """Each card's name and its colour word (``colour_word``) in ``language``, the one active:
    translated once per process and language, as Django keeps the catalogues (the move form
    draws the 64 cards on every move, and each translation costs about 10 µs: issue 32)."""
    names = {}
    for card, name in CARD_NAMES.items():
        label = str(name)
        names[card] = (label, colour_word(label, str(COLOUR_NAMES[card_parts(card)[0]])))
    return names


def make_card(card: str) -> Card:
    colour, obj = card_parts(card)
    return Card(card, colour, obj)


DECK = [make_card(f"{colour}-{obj}") for colour in COLOURS for obj in OBJECTS]
CARDS = {card.id: card for card in DECK}


# The table drawn in Python (games.ui._drawing, issue 32): what every move's answer draws again —
# the move form's 64 cards by rows, its series buttons and its chips of players, the board's six
# series and its players — each piece kept once drawn for the values it shows (a card, whether
# it is offered, its drawing's address; a player's pile and tokens) and the language.


def draw_card(card: Card, icon: str | None = None) -> Markup:
    """A card as the board, the move form and the outcome show it (``icon``: its drawing's
    address, when the caller has it already: bh.icons)."""
    return Markup(_card(card.id, icon or card.icon))


def _draw_card(card: str, icon: str) -> str:
    colour = card_parts(card)[0]
    label = card_names(get_language())[card][0]
    return (
        f'<span class="bh-card bh-{esc(colour)}" data-card="{esc(card)}"><svg class="bh-sym"'
        f' aria-hidden="true" focusable="false"><use href="{esc(icon)}"></use></svg>'
        f' <span class="bh-label">{esc(label)}</span></span>'
    )


_card = Pieces(_draw_card, size=1024)


def draw_deck_card(card: Any) -> Markup:
    """The card named ``card`` (a move's, as it was logged), or nothing if no card is named so."""
    found = CARDS.get(card) if isinstance(card, str) else None
    return draw_card(found) if found is not None else Markup("")


def draw_series(series: list[dict[str, Any]], icons: dict[str, str]) -> Markup:
    """The board's six series, each a section listing its cards."""
    drawings = tuple(icons[obj] for obj in OBJECTS)
    return Markup(
        "".join(_series(s["side"], tuple(card.id for card in s["cards"]), drawings) for s in series)
    )


def _draw_series(side: str, cards: tuple[str, ...], drawings: tuple[str, ...]) -> str:
    icons = dict(zip(OBJECTS, drawings, strict=True))
    items = "".join(f"<li>{_card(card, icons[card_parts(card)[1]])}</li>" for card in cards)
    named = said_with(SERIES, side=side)
    side = esc(side)
    return (
        f'\n  <section class="bh-series bh-side-{side}" id="series-{side}" aria-label="{named}">\n'
        f'    <span class="bh-num" aria-hidden="true">{side}</span>\n'
        f'    <ul class="bh-cards">{items}</ul>\n  </section>\n  '
    )


#: A series, by its number (marked for the catalogue: said_with translates it).
SERIES = gettext_noop("Series %(side)s")

_series = Pieces(_draw_series)


def draw_players(players: list[dict[str, Any]]) -> Markup:
    """The board's players: each one's pile, Crash tokens and whether they may call."""
    return Markup(
        "".join(
            _player(
                p["name"],
                p["pile"],
                p["crashes"],
                p["eliminated"],
                p["winner"],
                p["tied"],
                p["may_call"],
            )
            for p in players
        )
    )


def _draw_player(
    name: str,
    pile: int,
    crashes: int,
    eliminated: bool,
    winner: bool,
    tied: bool,
    may_call: bool,
) -> str:
    name = esc(name)
    marked = ' class="bh-out"' if eliminated else ' class="winner"' if winner else ""
    tokens_said = ngettext("%(n)s Crash token", "%(n)s Crash tokens", crashes) % {"n": crashes}
    tokens = "".join(
        f'<span class="bh-token{" bh-token-on" if i < crashes else ""}" aria-hidden="true"></span>'
        for i in range(CRASHES_TO_ELIMINATE)
    )
    if winner:
        status = f"★ {said(WINNER)}"
    elif eliminated:
        status = said(ELIMINATED)
    elif tied:
        status = said(TIED)
    elif may_call:
        status = said(MAY_CALL)
    else:
        status = said(MAY_NOT_CALL)
    return (
        f'\n    <tr data-player="{name}"{marked}>\n      <td>{name}</td>\n'
        f'      <td class="bh-pile">{esc(pile)}</td>\n'
        f'      <td><span class="bh-tokens" role="img" aria-label="{tokens_said}">{tokens}</span>'
        f' <span class="bh-crash-count">{esc(crashes)}</span></td>\n'
        f'      <td class="bh-status">{status}</td>\n    </tr>\n  '
    )


#: A player's status on the board (marked for the catalogue: said translates them).
WINNER = gettext_noop("winner")
ELIMINATED = gettext_noop("eliminated")
TIED = gettext_noop("tied: may call")
MAY_CALL = gettext_noop("may call")
MAY_NOT_CALL = gettext_noop("may not call")

_player = Pieces(_draw_player)


# The score sheet drawn in Python (issue 32): each row kept once drawn for what it shows and the
# language, its part looked up by that very string (games.jinja.drawn_part). It writes what
# plays/games/buntherum/sheet.html wrote (tests/views/test_sheets_drawn.py).


def draw_sheet(drawing: Any, bh: dict[str, Any], play: Any) -> Markup:
    """sheet.html's: a row per player, the piles' note, and the six series."""
    over = bool(bh["finished"]) or (play is not None and play.status == "abandoned")
    out = [_sheet_head()]
    for index, p in enumerate(bh["players"], 1):
        html = _sheet_row(
            index,
            p["name"],
            bool(p["winner"]),
            p["turned"],
            p["pile"],
            p["crashes"],
            bool(p["eliminated"]),
            p["out_order"],
            over,
        )
        out += ("\n    ", jinja.drawn_part(drawing, html), "\n  ")
    out += (
        "\n  </tbody>\n</table>\n",
        jinja.drawn_part(drawing, _sheet_note(bh["pile_size"], bh["winner"])),
        _sheet_series_head(),
    )
    for s in bh["series"]:
        html = _sheet_series(s["side"], tuple(card.id for card in s["cards"]))
        out.append(jinja.drawn_part(drawing, html))
    out.append("\n</ol>\n")
    return Markup("".join(out))


def _sheet_labels() -> tuple[str, str, str, str]:
    return said("Cards turned"), said("Pile left"), said("Crash tokens"), said("Result")


def _draw_sheet_head() -> str:
    heads = "".join(f'<th scope="col">{label}</th>' for label in (said("Player"), *_sheet_labels()))
    return (
        '\n\n\n<table class="sheet stack bh-sheet" id="bh-sheet">\n'
        f"  <thead><tr>{heads}</tr></thead>\n  <tbody>\n  "
    )


_sheet_head = Pieces(_draw_sheet_head, size=16)


def _draw_sheet_row(
    index: int,
    name: str,
    winner: bool,
    turned: int,
    pile: int,
    crashes: int,
    eliminated: bool,
    out_order: int | None,
    over: bool,
) -> str:
    turned_label, pile_label, crashes_label, result_label = _sheet_labels()
    if winner:
        result = said("Winner")
    elif eliminated:
        result = said_with("Eliminated (out no. %(n)s)", n=out_order)
    elif over:
        result = "–"
    else:
        result = said("in play")
    name = esc(name)
    marked = ' class="winner"' if winner else ""
    star = "★ " if winner else ""
    return (
        f'<tr id="bh-player-{index}" data-player="{name}"{marked}>\n'
        f"      <td>{star}{name}</td>\n"
        f'      <td data-label="{turned_label}" class="bh-turned-count">{esc(turned)}</td>\n'
        f'      <td data-label="{pile_label}" class="bh-pile">{esc(pile)}</td>\n'
        f'      <td data-label="{crashes_label}" class="bh-crashes">{esc(crashes)}</td>\n'
        f'      <td data-label="{result_label}" class="bh-result">{result}</td>\n    </tr>'
    )


_sheet_row = Pieces(_draw_sheet_row)


def _draw_sheet_note(pile_size: int, winner: str | None) -> str:
    started = ngettext(
        "Each pile started with %(n)s card.", "Each pile started with %(n)s cards.", pile_size
    ) % {"n": esc(pile_size)}
    won = ""
    if winner:
        won_said = said_with("Winner: %(name)s", name=winner)
        won = f'<strong id="bh-winner">{won_said}</strong>'
    return f'<p class="bh-sheet-note" id="bh-sheet-note">{started}\n{won}</p>'


_sheet_note = Pieces(_draw_sheet_note, size=256)


def _draw_sheet_series_head() -> str:
    six = said("The six series")
    return f'\n<h3>{six}</h3>\n<ol class="bh-sheet-series">\n'


_sheet_series_head = Pieces(_draw_sheet_series_head, size=16)


def _draw_sheet_series(side: int, cards: tuple[str, ...]) -> str:
    labels = " · ".join(esc(CARDS[card].label) for card in cards)
    return f'<li id="bh-series-{esc(side)}" value="{esc(side)}">{labels}</li>'


_sheet_series = Pieces(_draw_sheet_series)


def draw_grid(unplaced: frozenset[str], icons: dict[str, str]) -> Markup:
    """The move form's grid of the 64 cards, a row per colour, a column per object: a card in
    no series (``unplaced``) is a button to tap, one in a series is shown greyed."""
    drawings = tuple(icons[obj] for obj in OBJECTS)
    out = ['<div class="bh-grid" data-keys="grid" data-next="4">\n    ', _heads(), "\n    "]
    for colour, cards in ROWS:
        out.append(_row(colour, tuple(card in unplaced for card in cards), drawings))
    out.append("\n    </div>")
    return Markup("".join(out))


#: The grid's rows: each colour's cards, one per object.
ROWS = tuple((colour, tuple(f"{colour}-{obj}" for obj in OBJECTS)) for colour in COLOURS)


def _draw_row(colour: str, offered: tuple[bool, ...], drawings: tuple[str, ...]) -> str:
    """A colour's cards, each offered or not, each with its object's drawing: a row is kept
    rather than each card, 8 looked up per move rather than 64 (a game takes its cards away one
    by one: a row is seen in a handful of states)."""
    return "".join(
        _draw_cell(f"{colour}-{obj}", tapped, icon)
        for obj, tapped, icon in zip(OBJECTS, offered, drawings, strict=True)
    )


_row = Pieces(_draw_row)


def _draw_heads() -> str:
    return "".join(
        f'<span class="bh-head" aria-hidden="true">{esc(label)}</span>'
        for label in OBJECT_NAMES.values()
    )


_heads = Pieces(_draw_heads, size=16)


def _draw_cell(card: str, offered: bool, icon: str) -> str:
    colour = card_parts(card)[0]
    label, colour_label = card_names(get_language())[card]
    label, colour_label, icon = esc(label), esc(colour_label), esc(icon)
    symbol = (
        f'<svg class="bh-sym" aria-hidden="true" focusable="false"><use href="{icon}"></use></svg>'
    )
    if offered:
        card = esc(card)
        tag = (
            f'<button type="submit" name="card" value="{card}" class="bh-cell bh-{esc(colour)}"'
            f' aria-label="{label}" title="{label}" data-set="card" data-string'
            f' data-value="{card}" data-offered="cards" data-label="{label}">{symbol}'
            f'<span class="bh-cname">{colour_label}</span></button>'
        )
    else:
        gone = said_with(ALREADY_IN_A_SERIES, card=Markup(label))
        tag = (
            f'<span class="bh-cell bh-gone" title="{gone}">{symbol}'
            f'<span class="bh-cname" aria-hidden="true">{colour_label}</span></span>'
        )
    return f"\n      \n      {tag}\n      \n    "


#: A card in a series, in the grid (marked for the catalogue: said_with translates it).
ALREADY_IN_A_SERIES = gettext_noop("%(card)s: already in a series")


def draw_series_buttons(sides: tuple[str, ...]) -> Markup:
    """The call's buttons, one per series: the same on every move."""
    return Markup(_series_buttons(sides))


def _draw_series_buttons(sides: tuple[str, ...]) -> str:
    out = []
    for side in sides:
        named = said_with(SERIES, side=side)
        side = esc(side)
        out.append(
            f'<button type="submit" name="series" value="{side}" class="bh-series-btn"'
            f' id="call-{side}" aria-label="{named}" data-set="call.series" data-value="{side}"'
            f' data-offered="calls" data-needs="call.player" data-unset="tie"'
            f' data-label="{named}" data-key-text="{side}">{side}</button>'
        )
    return "".join(out)


_series_buttons = Pieces(_draw_series_buttons, size=16)


def draw_callers(may_call: list[str], kept: str | None) -> Markup:
    """Who may call, to choose the first who did (``kept``: the one chosen before a refusal)."""
    return Markup("".join(_caller(name, name == kept) for name in may_call))


def _draw_caller(name: str, checked: bool) -> str:
    name = esc(name)
    ticked = " checked" if checked else ""
    return (
        f'<label class="bh-chip"><input type="radio" name="caller" value="{name}" required'
        f'{ticked} data-set="call.player" data-string data-value="{name}" data-label="{name}"'
        f' data-offered="may_call" data-unset="tie"> {name}</label>'
    )


_caller = Pieces(_draw_caller)


def draw_tied(may_call: list[str], kept: list[str]) -> Markup:
    """Who may call, to tick those who tied (``kept``: those ticked before a refusal)."""
    return Markup("".join(_tied(name, name in kept) for name in may_call))


def _draw_tied(name: str, checked: bool) -> str:
    name = esc(name)
    ticked = " checked" if checked else ""
    return (
        f'<label class="bh-chip"><input type="checkbox" name="tied" value="{name}"{ticked}'
        f' data-toggle="tie" data-string data-value="{name}" data-offered="may_call"'
        f' data-unset="call"> {name}</label>'
    )


_tied = Pieces(_draw_tied)


def _field(side: str, slot: int, part: str) -> str:
    return f"s{side}_{slot}_{part}"


class BuntherumUI(GameUI):
    # On the phone: the card turned, then who called and what (sent at once), or the players
    # tied (sent by "Record the tie"). The options never say which series a card fits: the
    # players race to find it.
    builder = Builder(complete="card call.player call.series")

    # The referee's words ----------------------------------------------------------------------

    def word(self, kind: str, value: Any, state: Game | None) -> str | None:
        if not isinstance(value, str):  # every thing Buntherum names is a name
            return None
        if kind == "card" and value in CARD_NAMES:
            return card_name(value)
        if kind == "colour" and value in COLOUR_NAMES:
            return str(COLOUR_NAMES[value])
        if kind == "object" and value in OBJECT_NAMES:
            return str(OBJECT_NAMES[value])
        return None

    def move_name(self, state: Game | None, number: int) -> str:
        return pgettext("the Nth card turned in Buntherum", "Card %(number)s") % {
            "number": number + 1
        }

    def describe_move(self, state: Game, plan: Call | Tie) -> str:
        """ "Ana calls the red die for series 4: right"."""
        card = card_name(plan.card)
        if isinstance(plan, Tie):
            return _("%(names)s tie on %(card)s") % {"names": and_list(plan.tied), "card": card}
        values = {"player": plan.caller, "card": card, "side": plan.side}
        if plan.side == IMPOSSIBLE:
            if plan.correct:
                return _("%(player)s calls “Impossible!” on %(card)s: right") % values
            return _("%(player)s calls “Impossible!” on %(card)s: wrong") % values
        if plan.correct:
            return _("%(player)s calls %(card)s for series %(side)s: right") % values
        return _("%(player)s calls %(card)s for series %(side)s: wrong") % values

    def move_outcome(self, state: Game, plan: Call | Tie) -> str | None:
        """A Crash token, an elimination, the end of the game."""
        assert isinstance(state, Buntherum)
        said = []
        if isinstance(plan, Call) and not plan.correct:
            crashes = state.crashes[plan.caller]
            said.append(
                _("%(player)s takes a Crash token (%(crashes)s of %(limit)s).")
                % {"player": plan.caller, "crashes": crashes, "limit": CRASHES_TO_ELIMINATE}
            )
            if crashes == CRASHES_TO_ELIMINATE:
                said.append(_("%(player)s is eliminated.") % {"player": plan.caller})
        if state.winner is not None:
            said.append(capfirst(_("%(player)s wins the game.") % {"player": state.winner}))
        return " ".join(said) or None

    # Setup ------------------------------------------------------------------------------------

    def default_setup(self, players: list[str]) -> Any:
        return {"series": {side: list(cards) for side, cards in DEFAULT_SERIES.items()}}

    def setup_context(self, players: list[str], post: QueryDict | None) -> dict[str, Any]:
        """A fresh form starts empty: the twelve cards are dealt at random, so any card shown
        before they are tapped would be one to undo. A form shown again keeps what was sent."""
        sides = []
        for side in SIDES:
            slots = []
            for slot in SLOTS:
                colour = obj = ""
                if post is not None:
                    colour = post.get(_field(side, slot, "colour"), "")
                    obj = post.get(_field(side, slot, "object"), "")
                slots.append(
                    {
                        "number": slot + 1,
                        "colour_field": _field(side, slot, "colour"),
                        "object_field": _field(side, slot, "object"),
                        "colour": colour,
                        "object": obj,
                    }
                )
            sides.append({"side": side, "slots": slots})
        return {
            "bh_sides": sides,
            "bh_colours": [(c, COLOUR_NAMES[c]) for c in COLOURS],
            "bh_objects": [(o, OBJECT_NAMES[o]) for o in OBJECTS],
            "bh_deck": DECK,
        }

    def parse_setup(self, post: QueryDict, players: list[str]) -> Any:
        """The six series from the colour and object selects; the referee checks the rest
        (distinct colours and objects within a side, twelve different cards)."""
        series: dict[str, list[str]] = {}
        for side in SIDES:
            cards = []
            for slot in SLOTS:
                colour = post.get(_field(side, slot, "colour"), "")
                obj = post.get(_field(side, slot, "object"), "")
                if colour not in COLOURS or obj not in OBJECTS:
                    raise FormError(
                        _("Series %(side)s: choose a colour and an object for both cards.")
                        % {"side": side}
                    )
                cards.append(f"{colour}-{obj}")
            series[side] = cards
        return {"series": series}

    # Moves ------------------------------------------------------------------------------------

    def move_context(self, judgement: Judgement, players: list[str], draft: Draft | None) -> dict:
        state = judgement.state
        if not isinstance(state, Buntherum):
            return {"bh": None}
        may_call = state.may_call()
        turned = state.scores()
        rows = [
            {
                "name": name,
                "pile": state.pile[name],
                "turned": turned[name],
                "crashes": state.crashes[name],
                "eliminated": name in state.eliminated,
                "out_order": state.eliminated.index(name) + 1 if name in state.eliminated else None,
                "may_call": name in may_call,
                "tied": state.tied is not None and name in state.tied,
                "winner": name == state.winner,
            }
            for name in state.players
        ]
        face_up = None
        kept_tied: list[str] = []
        kept_caller = None
        if draft is not None and parse_card(draft.data.get("card")) is not None:
            face_up = make_card(parse_card(draft.data["card"]))
            # what a refused tap had chosen, shown again (only names that may still call)
            tied = draft.data.get("tied")
            if isinstance(tied, list):
                kept_tied = [name for name in tied if name in may_call]
            if draft.data.get("caller") in may_call:
                kept_caller = draft.data["caller"]
        icons = {obj: object_icon(obj) for obj in OBJECTS}
        return {
            "verdict_template": "plays/games/buntherum/verdict.html",
            "bh": {
                "series": [
                    {"side": side, "cards": [make_card(c) for c in state.series[side]]}
                    for side in SIDES
                ],
                "players": rows,
                "may_call": may_call,
                "tied": list(state.tied) if state.tied is not None else None,
                "turned_from": state.turned_from,
                "neutral": state.neutral,
                "pile_size": state.pile_size,
                "finished": state.finished,
                "winner": state.winner,
                "face_up": face_up,
                "kept_tied": kept_tied,
                "kept_caller": kept_caller,
                "unplaced": frozenset(state.unplaced_cards()),
                "sides": SIDES,
                "icons": icons,
                "max_crashes": CRASHES_TO_ELIMINATE,
                # the cards drawn in Python, each kept once drawn (issue 32)
                "draw_card": draw_card,
                "draw_deck_card": draw_deck_card,
                "draw_grid": draw_grid,
                "draw_series": draw_series,
                "draw_players": draw_players,
                "draw_series_buttons": draw_series_buttons,
                "draw_callers": draw_callers,
                "draw_tied": draw_tied,
                "sheet": draw_sheet,  # and the score sheet
            },
        }

    def parse_move(self, post: QueryDict, judgement: Judgement, players: list[str]) -> Any:
        """Tap 1: the turned card (a draft). Tap 2: the caller and the series or "impossible",
        or the tied players. The referee judges whether the call was right."""
        state = judgement.state
        if not isinstance(state, Buntherum) or state.finished:
            raise FormError(_("No card can be turned: the game is over."))
        draft = read_draft(post)
        card = self._turned_card(post.get("card") or draft.get("card"), state)
        if "tie" in post:
            tied = post.getlist("tied")
            if any(name not in players for name in tied):
                raise FormError(_("Choose the tied players from the list."))
            if len(set(tied)) < 2:
                # the card and the tick stay: one more tick and the tie is recorded
                raise FormError(
                    _("Tick at least two players who called at the same time."),
                    draft=Draft({"card": card, "tied": tied}),
                )
            return {"card": card, "tie": tied}
        series = post.get("series")
        if not series:
            return Draft({"card": card})
        if series not in SIDES and series != IMPOSSIBLE:
            raise FormError(_("Choose a series from 1 to 6, or “Impossible!”."))
        caller = post.get("caller") or ""
        if not caller:
            raise FormError(_("Choose who called first, then tap the series."))
        if caller not in players:
            raise FormError(_("Choose the caller from the list."))
        return {
            "card": card,
            "call": {"player": caller, "series": int(series) if series in SIDES else IMPOSSIBLE},
        }

    def kept_after_refusal(
        self, move: Any, judgement: Judgement, players: list[str]
    ) -> Draft | None:
        """A refused call or tie keeps its card and who was chosen: fixing one is one tap."""
        state = judgement.state
        if not isinstance(move, dict) or not isinstance(state, Buntherum):
            return None
        if parse_card(move.get("card")) not in state.unplaced_cards():
            return None  # a card that cannot be turned: nothing worth keeping
        kept: dict[str, Any] = {"card": parse_card(move["card"])}
        call, tie = move.get("call"), move.get("tie")
        if isinstance(call, dict) and isinstance(call.get("player"), str):
            kept["caller"] = call["player"]
        if isinstance(tie, list):
            # only seated names, each once: the draft is kept in the session and drawn
            kept["tied"] = [name for name in players if name in tie]
        return Draft(kept)

    @staticmethod
    def _turned_card(value: Any, state: Buntherum) -> str:
        if not value:
            raise FormError(_("Tap the card that was turned."))
        card = parse_card(value)
        if card is None or card not in state.unplaced_cards():
            raise FormError(_("Tap one of the cards offered: that card cannot be turned now."))
        return card


UI = BuntherumUI
