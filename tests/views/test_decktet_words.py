"""games/ui/_decktet.py: the Decktet's words, translated once per language and kept (issue 32),
follow the language of each page."""

from __future__ import annotations

from django.utils import translation

from games.ui._decktet import rank_label, suit_label


def test_the_suits_and_ranks_are_said_in_the_language_of_the_page_whichever_came_first():
    said = []
    for language in ("en", "fr", "en", "fr"):
        with translation.override(language):
            said.append((suit_label("Moons"), rank_label("Crown"), rank_label("9")))
    assert said == [("Moons", "Crown", "9"), ("Lunes", "Couronne", "9")] * 2
