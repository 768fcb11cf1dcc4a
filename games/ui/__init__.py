"""How each game is entered at the table: setup forms, move forms, boards and score sheets.

One module per game (``games/ui/<game>.py``) defines a ``GameUI`` subclass and registers it.
A move form may take several taps (Thricewise: the reveal, then each placement; Punto: the card,
then a cell): until the move is complete, ``parse_move`` returns a ``Draft`` that the page keeps
in a hidden field and nothing is stored. Only a complete move reaches the referee, through
``games.services.record_move``. Every form also takes the setup or the move typed as JSON, as in
the game log (``read_setup`` and ``read_move`` handle that for every game).

Templates, per game, under ``templates/plays/games/<game>/``: ``setup.html`` (setup fields),
``board.html`` (the table as the players see it), ``move_form.html`` (the fields of the move
form, inside the page's <form>) and ``sheet.html`` (the score sheet as kept on paper). The
``_generic`` folder holds fallbacks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

from django.http import QueryDict
from django.utils.translation import gettext as _

from referee import Judgement


class FormError(Exception):
    """What the user typed or tapped cannot make a setup or a move: say what is wrong."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass
class Draft:
    """A move being composed over several taps: nothing is stored until it is complete."""

    data: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> str:
        return json.dumps(self.data, ensure_ascii=False)


def read_draft(post: QueryDict) -> dict[str, Any]:
    """The draft a move form carried in its hidden ``draft`` field ({} when there is none)."""
    raw = post.get("draft") or ""
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except ValueError:
        raise FormError(_("The form was damaged: start the move again."))
    if not isinstance(data, dict):
        raise FormError(_("The form was damaged: start the move again."))
    return data


def read_json_field(post: QueryDict, name: str) -> Any:
    raw = (post.get(name) or "").strip()
    if not raw:
        raise FormError(_("Enter the move as JSON."))
    if len(raw) > 100_000:
        raise FormError(_("That is far too long to be one move."))
    try:
        return json.loads(raw)
    except ValueError as exc:
        raise FormError(_("That is not valid JSON: %(error)s") % {"error": exc})


def read_cell(value: str, message: str) -> tuple[int, int]:
    """A tapped cell, posted as "x,y"; ``message`` says what to do when it is not one."""
    try:
        x, y = (int(part) for part in value.split(","))
    except ValueError:
        raise FormError(message)
    return (x, y)


class GameUI:
    """The fallback for every game: setup and moves typed as JSON, details shown as they are."""

    game: ClassVar[str] = ""
    template_dir: ClassVar[str] = "_generic"

    def template(self, name: str) -> str:
        return f"plays/games/{self.template_dir}/{name}.html"

    # Setup ------------------------------------------------------------------------------------

    def default_setup(self, players: list[str]) -> Any:
        """A sensible setup to prefill the form with."""
        return {}

    def setup_context(self, players: list[str], post: QueryDict | None) -> dict[str, Any]:
        """What setup.html needs; ``post`` is the submitted form when it is shown again."""
        raw = post.get("setup_json") if post is not None else None
        if raw is None:
            raw = json.dumps(self.default_setup(players), ensure_ascii=False, indent=1)
        return {"setup_json": raw}

    def read_setup(self, post: QueryDict, players: list[str]) -> Any:
        """The setup a form posted: typed as JSON when a ``setup_json`` box was filled in,
        otherwise read from the game's own fields (``parse_setup``)."""
        if (post.get("setup_json") or "").strip():
            return read_json_field(post, "setup_json")
        return self.parse_setup(post, players)

    def parse_setup(self, post: QueryDict, players: list[str]) -> Any:
        """The setup (JSON value, as in the game log) from the submitted form, or FormError."""
        return read_json_field(post, "setup_json")

    # Moves ------------------------------------------------------------------------------------

    def move_context(self, judgement: Judgement, players: list[str], draft: Draft | None) -> dict:
        """What board.html, move_form.html and sheet.html need beyond the judgement."""
        return {}

    def read_move(self, post: QueryDict, judgement: Judgement, players: list[str]) -> Any:
        """The move a form posted: typed as JSON when the "Advanced" box was used (every game's
        form has it: a ``move_json`` textarea and a submit button named ``json``), otherwise
        composed by the game's own taps (``parse_move``)."""
        if (post.get("move_json") or "").strip() or "json" in post:
            return read_json_field(post, "move_json")
        return self.parse_move(post, judgement, players)

    def parse_move(self, post: QueryDict, judgement: Judgement, players: list[str]) -> Any:
        """A complete move (JSON, as in the game log), or a ``Draft`` to keep composing.

        Raise ``FormError`` when the input cannot make a move at all (the referee judges the
        rest: a well-formed but illegal move goes to it and is refused with its message).
        """
        return read_json_field(post, "move_json")


_REGISTRY: dict[str, GameUI] = {}
_loaded = False


def register(ui_class: type[GameUI]) -> type[GameUI]:
    _REGISTRY[ui_class.game] = ui_class()
    return ui_class


def ui_for(game: str) -> GameUI:
    """The game's UI (the JSON fallback for a game that has none yet)."""
    if not _loaded:
        _load_all()
    return _REGISTRY.get(game) or GameUI()


def _load_all() -> None:
    import importlib

    global _loaded
    _loaded = True
    for module in ("thricewise", "forget_venice", "punto", "buntherum", "three_high"):
        try:
            importlib.import_module(f"{__name__}.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{module}":
                raise
