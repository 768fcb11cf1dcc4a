"""What a test run over every game of the registry needs to know of one game, found in that game's
own test module, so that a new game brings its own and no shared test names it.

A game's tests/views/test_ui_<module>.py holds, under these names:

- ``REFUSED_MOVE``: the refusal of its public illegal example, as the players say it
  (``{"en": ..., "fr": ...}``: tests/test_verdicts.py, tests/views/test_french_verdicts.py);
- ``REFUSED_SETUP``: a setup the referee refuses and its French (test_french_verdicts.py);
- ``SAMPLES``: a value of each kind of parameter its referee messages name, when the shared
  samples of tests/test_verdicts.py do not fit; ``SAYS``: how it says its things
  (``(kind, value, english, french)``, tests/test_verdicts.py);
- ``first_tap(log)``, when its first tap is not the first move's card: what its move form posts
  first (tests/views/test_stale_forms.py).

A game's tests/browser/test_<module>.py may hold ``LAYOUT_SEATS``: how many seats its setup page
is measured with (tests/browser/test_layout.py; the most the game seats otherwise).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from referee import GAMES
from referee.registry import module_name

_NOTHING = object()


def tests_of(game: str, folder: str = "views", prefix: str = "test_ui_") -> ModuleType:
    """The game's own test module: tests/<folder>/<prefix><module>.py."""
    return importlib.import_module(f"tests.{folder}.{prefix}{module_name(GAMES[game])}")


def own(game: str, name: str, default: Any = _NOTHING, **where: str) -> Any:
    """What the game's own test module says as ``name`` (``default`` when it says nothing; an
    error naming the module and the name when there is no default)."""
    module = tests_of(game, **where)
    if default is _NOTHING and not hasattr(module, name):
        raise AttributeError(f"{module.__name__} must define {name} (see tests/per_game.py)")
    return getattr(module, name, default)
