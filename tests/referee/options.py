"""What every engine's options tests ask alike (tests/referee/test_options_<game>.py)."""

from __future__ import annotations

import copy
import json
from typing import Any

from referee import Game


def asked_twice(game: Game) -> tuple[dict[str, Any], dict[str, Any]]:
    """``options()`` asked twice: it leaves the game as it was, says the same again, and is
    plain JSON, as the page receives it. Gives the game's state before and the second answer
    (for a test to change it, as a page may, and see the game unchanged)."""
    before = copy.deepcopy(vars(game))
    first = game.options()
    assert vars(game) == before
    again = game.options()
    assert again == first
    assert json.loads(json.dumps(first)) == first
    return before, again
