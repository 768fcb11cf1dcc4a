"""config/templates.py: a rendered page lets go of what it was given at once, without waiting
for Python's cycle collector (issue 19: that wait made a move entry's slow requests slower)."""

from __future__ import annotations

import gc
import weakref

import pytest
from django.template import TemplateDoesNotExist, engines
from django.template.loader import get_template, render_to_string


class Given:
    """Something a page is given (a move entry gives it the judged game, the log...)."""

    name = "a given thing"


@pytest.fixture
def no_collector():
    """Only reference counting frees objects during the test."""
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    yield
    if was_enabled:
        gc.enable()


def test_a_rendered_page_lets_go_of_its_context(no_collector, rf):
    given = Given()
    freed = weakref.ref(given)
    html = render_to_string("plays/_play_cards.html", {"given": given}, rf.get("/"))
    del given
    assert freed() is None, "the page's context still holds what it was given"
    assert isinstance(html, str)


def test_a_template_from_a_string_lets_go_of_its_context_too(no_collector, rf):
    given = Given()
    freed = weakref.ref(given)
    template = engines["django"].from_string("{{ given.name }}")
    html = template.render({"given": given}, rf.get("/"))
    del given
    assert freed() is None and html == "a given thing"


def test_a_missing_template_is_still_said_missing():
    with pytest.raises(TemplateDoesNotExist):
        get_template("plays/no-such-page.html")
