"""Plays the page tests share (the people, the club and ``play`` are in tests/conftest.py)."""

import json

import pytest

from tests.examples import EXAMPLES

PUNTO = json.loads((EXAMPLES / "punto-1.json").read_text())


@pytest.fixture
def punto(night, players):
    """A Punto play in progress, no card played yet: Ana (red, blue) against Ben (the example's
    colours)."""
    from games import services

    return services.start_play(night=night, game="punto", players=players[:2], setup=PUNTO["setup"])
