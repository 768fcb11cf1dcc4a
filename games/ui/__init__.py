"""How each game is entered at the table: setup forms, move forms, boards and score sheets.

Found by convention, for every game of the referee's registry (``referee.GAMES``): the module
``games.ui.<the referee module's name>`` names its ``GameUI`` subclass ``UI`` (as the referee
module names its engine ``GAME``). A game without one stops the site at start-up
(``GamesConfig.ready``): there is no fallback form. A game's UI is one module, or a package
when it is large: its UI class in ``__init__.py``, beside it ``board.py`` (what the pages draw),
``words.py`` (its words), ``why.py`` (why a move scored) as the game needs them. A module whose
name starts with "_" is shared by several games (``_decktet``: the Decktet's words); this
module holds what every game shares.

A move form may take several taps (Thricewise: the reveal, then each placement; Punto: the card,
then a cell): until the move is complete, ``parse_move`` returns a ``Draft`` that the page keeps
in a hidden field and nothing is stored. Only a complete move reaches the referee, through
``games.services.record_move``. Every form also takes the setup or the move typed as JSON, as in
the game log (``read_setup`` and ``read_move`` handle that for every game; the move form's box is
``templates/jinja2/plays/_move_json.html``).

Templates, per game: ``templates/plays/games/<game name>/setup.html`` (setup fields, a Django
template), and under ``templates/jinja2/plays/games/<game name>/`` the Jinja templates drawn for
every move (games.jinja): ``board.html`` (the table as the players see it), ``move_form.html``
(the fields of the move form, inside the page's <form>) and ``sheet.html`` (the score sheet as
kept on paper); beside them, partials named with a leading "_" (a card, Punto's table). Every
game draws them from the data its ``move_context`` gives, never from HTML made in Python.
"""

from __future__ import annotations

import importlib
import json
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from referee import GAMES, Game, Judgement
from referee.base import Plan
from referee.registry import module_name

from .. import userjson

#: what each game's templates folder holds
TEMPLATES = ("setup", "board", "move_form", "sheet")


class BadNews(str):
    """Something a move did that is bad news for the table ("The game is lost."): said next to
    the controls in the colours of a refusal, not in the green of good news."""

    bad_news = True  # what the play page asks (a plain str has no such attribute)


class FormError(Exception):
    """What the user typed or tapped cannot make a setup or a move: say what is wrong."""

    def __init__(self, message: str, draft: Draft | None = None):
        super().__init__(message)
        self.message = message
        #: what to show again of the refused input, so that fixing it is one tap
        self.draft = draft


@dataclass
class Draft:
    """A move being composed over several taps: nothing is stored until it is complete."""

    data: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> str:
        return json.dumps(self.data, ensure_ascii=False)


def damaged_form() -> FormError:
    """A draft the page never made (an old page, a hand-edited form): the move starts again."""
    return FormError(_("The form was damaged: start the move again."))


def read_draft(post: QueryDict) -> dict[str, Any]:
    """The draft a move form carried in its hidden ``draft`` field ({} when there is none)."""
    raw = post.get("draft") or ""
    if not raw:
        return {}
    try:
        data = userjson.parse(raw)
    except userjson.UserJSONError:
        raise damaged_form()
    if not isinstance(data, dict):
        raise damaged_form()
    return data


def read_json_field(post: QueryDict, name: str) -> Any:
    """The JSON typed in the box ``name``, read within the site's caps (games.userjson)."""
    raw = (post.get(name) or "").strip()
    if not raw:
        raise FormError(_("Enter the move as JSON."))
    try:
        return userjson.parse(raw)
    except userjson.UserJSONError as exc:
        raise FormError(exc.message)


#: French elides "de" before a vowel or a mute h: "les cartes d'Ana", not "de Ana".
_ELIDED = re.compile(r"\bde (?=[AEIOUYHÀÂÄÉÈÊËÎÏÔÖÙÛÜaeiouyhàâäéèêëîïôöùûü])")


def whose(name: str) -> str:
    """``name``'s, in the reader's language: "Ana's", « d'Ana », « de Ben »."""
    return _ELIDED.sub("d'", _("%(name)s's") % {"name": name})


def and_list(items: Iterable[str]) -> str:
    """ "Ana", "Ana and Ben", "Ana, Ben and Chloé", in the reader's language."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return _("%(items)s and %(last)s") % {"items": ", ".join(items[:-1]), "last": items[-1]}


def or_list(items: Iterable[str]) -> str:
    """ "Ana", "Ana or Ben", "Ana, Ben or Chloé", in the reader's language."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return _("%(items)s or %(last)s") % {"items": ", ".join(items[:-1]), "last": items[-1]}


def sentence(text: str) -> str:
    """A capital first letter and a full stop."""
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?", "…")) else text + "."


def clauses(parts: Iterable[str]) -> str:
    """The parts of one move told in a row: "Ben deals; Chloé takes pile 3 (...)"."""
    return pgettext("between the parts of one move", "; ").join(parts)


def is_cell(value: Any) -> bool:
    """A cell (column, row) of two integers, as the referee's messages carry them."""
    return (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


def read_cell(value: str, message: str) -> tuple[int, int]:
    """A tapped cell, posted as "x,y"; ``message`` says what to do when it is not one."""
    try:
        x, y = (int(part) for part in value.split(","))
    except ValueError:
        raise FormError(message)
    return (x, y)


#: a board's column names, left to right, as the cells are labelled ("C4")
COLUMN_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def cell_label(cell: tuple[int, int], origin: tuple[int, int]) -> str | None:
    """ "C4": a cell as a board labels it from its cell ``origin`` (A1, the top left: rows are
    numbered downwards, as drawn), or None when it lies off the labelled area."""
    column, row = cell[0] - origin[0], cell[1] - origin[1]
    if not (0 <= column < len(COLUMN_LETTERS) and row >= 0):
        return None
    return f"{COLUMN_LETTERS[column]}{row + 1}"


def turn_name(number: int) -> str:
    """ "Turn 3": the move at ``number`` (counted from 0 in the log), for the games whose
    players count turns."""
    return _("Turn %(number)s") % {"number": number + 1}


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a move scored, told: a head line ("The Market at G7: +6") and the lines that make
    it up. Each game's UI tells its own (``GameUI.explain_move``); the pages fold it under
    the points (``templates/plays/_why.html``), so it costs nothing until somebody taps."""

    text: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Builder:
    """How the play page builds a game's move on the phone (static/js/move-builder.js; issue
    28): the taps read the referee's options (``Game.options``) and only the finished move is
    sent. The buttons of the game's move form and board say what each tap sets."""

    #: the fields of a finished move, one set per alternative ("card at|card blocked"): the move
    #: is sent as soon as one set is complete, unless the form has a button to finish it;
    #: empty: only that button sends it (Thricewise's "Enter turn")
    complete: str
    #: the fields every move starts with, each from a path into the options ({"player": "player"};
    #: through a list, {"dealer": "dealers.*.dealer"}: its one item, else tapped)
    base: dict[str, str] = field(default_factory=dict)

    def attributes(self) -> dict[str, str]:
        return {"complete": self.complete, "base": json.dumps(self.base)}


class GameUI(ABC):
    """One game's forms and pages. Every game answers each abstract method in its own words."""

    #: How its moves are built on the phone; None: tap by tap on the server (each tap a request).
    builder: Builder | None = None

    def __init__(self, engine: type[Game]):
        self.game = engine.name

    def template(self, name: str) -> str:
        return f"plays/games/{self.game}/{name}.html"

    # Setup ------------------------------------------------------------------------------------

    @abstractmethod
    def default_setup(self, players: list[str]) -> Any:
        """A sensible setup to prefill the form with."""

    @abstractmethod
    def setup_context(self, players: list[str], post: QueryDict | None) -> dict[str, Any]:
        """What setup.html needs; ``post`` is the submitted form when it is shown again."""

    def read_setup(self, post: QueryDict, players: list[str]) -> Any:
        """The setup a form posted: typed as JSON when a ``setup_json`` box was filled in,
        otherwise read from the game's own fields (``parse_setup``)."""
        if (post.get("setup_json") or "").strip():
            return read_json_field(post, "setup_json")
        return self.parse_setup(post, players)

    @abstractmethod
    def parse_setup(self, post: QueryDict, players: list[str]) -> Any:
        """The setup (JSON value, as in the game log) from the game's own fields, or FormError."""

    # Moves ------------------------------------------------------------------------------------

    @abstractmethod
    def move_context(self, judgement: Judgement, players: list[str], draft: Draft | None) -> dict:
        """What board.html, move_form.html and sheet.html need beyond the judgement."""

    def read_move(self, post: QueryDict, judgement: Judgement, players: list[str]) -> Any:
        """The move a form posted: typed as JSON when the "Advanced" box was used (every game's
        form includes it: a ``move_json`` textarea and a submit button named ``json``), otherwise
        composed by the game's own taps (``parse_move``)."""
        if (post.get("move_json") or "").strip() or "json" in post:
            return read_json_field(post, "move_json")
        return self.parse_move(post, judgement, players)

    @abstractmethod
    def parse_move(self, post: QueryDict, judgement: Judgement, players: list[str]) -> Any:
        """A complete move (JSON, as in the game log), or a ``Draft`` to keep composing.

        Raise ``FormError`` when the input cannot make a move at all (the referee judges the
        rest: a well-formed but illegal move goes to it and is refused with its message).
        """

    def kept_after_refusal(
        self, move: Any, judgement: Judgement, players: list[str]
    ) -> Draft | None:
        """The choices to show again when the referee refuses ``move`` (None: the draft shown
        before the last tap, which is what a game whose last tap completes the move needs)."""
        return None

    def events(self, before: Judgement, after: Judgement, players: list[str]) -> list[str]:
        """What a move just did beyond the board's change, in the players' words (a round won,
        a player out): said next to the controls, where the players look."""
        return []

    # The referee's words ----------------------------------------------------------------------

    def word(self, kind: str, value: Any, state: Game | None) -> str | None:
        """How the players of this game say one parameter of a referee message (its kind is
        the parameter's name up to the first "_", see referee.messages), in the reader's
        language; None leaves it to the shared words (games.verdicts). ``state`` is the game as
        it stood (None for a setup)."""
        return None

    def move_name(self, state: Game | None, number: int) -> str:
        """The move at ``number`` (counted from 0 in the log) as the players count it, e.g.
        "Turn 3"; ``state`` is the game just before that move."""
        return _("Move %(number)s") % {"number": number + 1}

    # The move log -----------------------------------------------------------------------------

    @abstractmethod
    def describe_move(self, state: Game, plan: Plan) -> str:
        """One move of the log in the reader's language, as a player would tell it ("Ana
        reveals The Sailor, Ben The Origin; Ana places The Sailor at C4: +4"); ``state`` is the
        game just before the move. Cheap: the play page tells every move each time it is shown.
        """

    def move_outcome(self, state: Game, plan: Plan) -> str | None:
        """What the move led to, once made ("Ana wins round 2"); ``state`` is the game just
        after it. None when there is nothing to add."""
        return None

    def explain_move(self, state: Game, plan: Plan) -> list[Reason]:
        """Why the move scored what it did (empty when there is nothing to explain); ``state``
        is the game just before the move."""
        return []

    def tell_move(self, state: Game, plan: Plan) -> tuple[str, list[Reason]]:
        """``describe_move`` and ``explain_move`` of one move, as its line of the log tells
        it: a game whose two work out the same thing first (Thricewise: the windows each card
        completes) works it out once here."""
        return self.describe_move(state, plan), self.explain_move(state, plan)


def find_uis(engines: Iterable[type[Game]]) -> dict[str, GameUI]:
    """Each game's UI, by convention: ``games.ui.<the referee module's name>`` names a
    ``GameUI`` subclass ``UI``. Raise ``ImproperlyConfigured`` naming every game without one."""
    uis: dict[str, GameUI] = {}
    problems = []
    for engine in engines:
        where = f"{__name__}.{module_name(engine)}"
        try:
            module = importlib.import_module(where)
        except ModuleNotFoundError as exc:
            if exc.name != where:
                raise
            problems.append(f"{engine.title} has no UI: {where} is missing")
            continue
        ui_class = getattr(module, "UI", None)
        if not (isinstance(ui_class, type) and issubclass(ui_class, GameUI)):
            problems.append(f"{engine.title} has no UI: {where} must name its GameUI subclass UI")
        elif ui_class.__abstractmethods__:
            lacking = ", ".join(sorted(ui_class.__abstractmethods__))
            problems.append(f"{engine.title}'s UI ({where}.UI) lacks {lacking}")
        else:
            uis[engine.name] = ui_class(engine)
    if problems:
        raise ImproperlyConfigured("; ".join(problems))
    return uis


_UIS: dict[str, GameUI] = {}


def load() -> None:
    """Find every game's UI (at start-up: a game without one stops the site there)."""
    found = find_uis(GAMES.values())
    _UIS.clear()
    _UIS.update(found)


def ui_for(game: str) -> GameUI:
    """The UI of a game of the registry."""
    return _UIS[game]
