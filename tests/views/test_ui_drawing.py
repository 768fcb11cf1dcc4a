"""A table's pieces drawn in Python (games.ui._drawing, issue 32): each kept once drawn, for its
values and the language; written as the templates write."""

import pytest
from django.utils import translation

from games.ui import _drawing as drawing


@pytest.fixture
def for_real(monkeypatch):
    """Kept pieces as the site keeps them, not drawn again to be checked (tests/conftest.py)."""
    monkeypatch.setattr(drawing, "CHECK", False)


def test_a_piece_is_drawn_once_for_its_values_and_the_language(for_real):
    drawn = []

    def cell(at, card):
        drawn.append((at, card))
        return f"<i>{at}{card}</i>"

    pieces = drawing.Pieces(cell)
    assert pieces("0,0", "red-7") == pieces("0,0", "red-7") == "<i>0,0red-7</i>"
    assert drawn == [("0,0", "red-7")]
    pieces("0,0", None)  # another value
    with translation.override("fr"):
        pieces("0,0", "red-7")  # another language
    assert len(drawn) == 3


def test_a_piece_that_reads_more_than_its_values_is_caught(monkeypatch):
    monkeypatch.setattr(drawing, "CHECK", True)
    said = iter(["a", "b"])
    pieces = drawing.Pieces(lambda at: next(said))
    pieces("0,0")
    with pytest.raises(AssertionError, match="not drawn from"):
        pieces("0,0")


def test_the_kept_pieces_are_emptied_when_full(for_real):
    pieces = drawing.Pieces(str, size=2)
    for n in range(3):
        pieces(n)
    assert len(pieces._kept) == 1


def test_a_translated_text_is_written_as_it_is_and_its_values_escaped():
    with translation.override("fr"):
        assert drawing.said("The table") == "La table"
        assert (
            drawing.said_with(
                "Play the %(colour)s %(card)s at %(cell)s", colour="<b>", card=7, cell="A'1"
            )
            == "Jouer le 7 &lt;b&gt; en A&#x27;1"
        )


def test_a_drawing_looks_its_language_up_once_and_leaves_none_behind(monkeypatch):
    """The pieces of one drawing (games.jinja.render) take its language and catalogue from it,
    not each from the translation machinery; once it is drawn, nothing of it is left for the
    next drawing of the thread, nor for one drawn inside it."""
    from django.template import engines

    from games import jinja

    seen = []

    def inner():
        seen.append(drawing._now()[0])
        return ""

    def piece():
        seen.append(drawing._now()[0])
        if len(seen) == 1:  # a drawing inside this one, in another language
            with translation.override("en"):
                jinja.render("inner.html", {"inner": inner})
        seen.append(drawing._now()[0])
        return drawing.said("The table")

    env = engines["jinja2"].env
    templates = {
        "outer.html": env.from_string("{{ piece() }}"),
        "inner.html": env.from_string("{{ inner() }}"),
    }
    monkeypatch.setattr(env, "get_template", templates.__getitem__)
    asked = []
    monkeypatch.setattr(drawing, "get_language", lambda: asked.append(1) or "xx")
    with translation.override("fr"):
        html = jinja.render("outer.html", {"piece": piece})
    assert html == "La table"
    assert seen == ["fr", "en", "fr"] and asked == []
    assert getattr(jinja.DRAWING, "now", None) is None


def test_a_piece_drawn_in_the_language_looked_up_once_is_kept_for_that_language(for_real):
    """A table of many pieces looks the active language up once (``in_language``), not once a
    piece: a piece is kept for it as for the language ``Pieces`` looks up itself."""
    drawn = []
    pieces = drawing.Pieces(lambda at: drawn.append(at) or at)
    with translation.override("fr"):
        pieces.in_language(translation.get_language(), "0,0")
        pieces("0,0")
    pieces.in_language("en", "0,0")
    assert drawn == ["0,0", "0,0"]


def test_pieces_joined_are_drawn_as_many_calls_with_one_lookup_of_the_language(
    for_real, monkeypatch
):
    """A deck's 30 cards in a row: the language, looked up for each, cost as much as the cards."""
    looked_up = []
    language = drawing.get_language

    def counted():
        looked_up.append(1)
        return language()

    drawn = []
    pieces = drawing.Pieces(lambda at, card: drawn.append(at) or f"<i>{at}{card}</i>")
    pieces("0,0", "red-7")
    monkeypatch.setattr(drawing, "get_language", counted)
    rows = [("0,0", "red-7"), ("0,1", None), ("0,0", "red-7")]
    assert pieces.joined(rows) == "".join(pieces(*row) for row in rows)
    assert drawn == ["0,0", "0,1"]
    looked_up.clear()
    pieces.joined(rows)
    assert len(looked_up) == 1
