"""The play page's parts (games.parts): what an answer sends of a page drawn again."""

import pytest
from django.template import Context, Engine

from games.parts import Drawing, answer, changed, shown

ENGINE = Engine(libraries={"parts": "games.templatetags.parts"})
PAGE = ENGINE.from_string(
    "{% load parts %}{% part inner %}<div id='main' data-version='{{ v }}'>"
    "<p>{{ title }}</p>"
    "{% part %}<table id='sheet'><caption>{{ caption }}</caption>"
    "{% for row in rows %}{% part %}<tr id='row-{{ forloop.counter }}'><td>{{ row }}</td></tr>"
    "{% endpart %}{% endfor %}"
    "</table>{% endpart %}</div>{% endpart %}<ol class='appended'><li>new</li></ol>"
)


def draw(**values) -> tuple[Drawing, str]:
    context = {"v": 1, "title": "Punto", "caption": "Rounds", "rows": [1, 2], **values}
    drawing = Drawing()
    html = PAGE.render(Context({**context, "drawing": drawing}))
    return drawing, html


def have(drawing: Drawing) -> dict[str, str]:
    return {name: part.fingerprint for name, part in drawing.parts.items()}


def test_a_page_drawn_the_same_has_the_same_fingerprints_and_nothing_to_send():
    before, _ = draw()
    after, _ = draw()
    assert have(before) == have(after)
    assert changed(after, have(before)) == []


def test_a_row_that_changes_is_sent_alone_not_its_table():
    before, _ = draw()
    after, html = draw(rows=[1, 3])
    assert [part.name for part in changed(after, have(before))] == ["row-2"]
    assert have(after)["sheet"] == have(before)["sheet"]
    body = answer(after, html, have(before))
    assert '<template data-part="row-2"><tr data-h=' in body and "<td>3</td>" in body
    assert "row-1" not in body and "Rounds" not in body


def test_a_row_that_appears_sends_its_table_whole():
    before, _ = draw()
    after, _ = draw(rows=[1, 2, 4])
    assert [part.name for part in changed(after, have(before))] == ["sheet"]


def test_a_table_that_changes_itself_is_sent_whole_with_its_rows():
    before, _ = draw()
    after, html = draw(caption="Manches", rows=[1, 3])
    assert [part.name for part in changed(after, have(before))] == ["sheet"]
    assert "<td>3</td>" in answer(after, html, have(before))


def test_the_pages_own_opening_tag_is_left_out_and_sent_as_it_is_now():
    before, _ = draw()
    after, html = draw(v=2)
    assert have(after)["main"] == have(before)["main"]
    body = answer(after, html, have(before))
    assert body.startswith("<div data-parts data-h=") and "data-version='2'" in body.split(">")[0]
    # what follows the page's element is carried as it is (the log's new line)
    assert body.endswith("</div><ol class='appended'><li>new</li></ol>")


def test_a_page_whose_own_content_changed_is_sent_whole():
    before, _ = draw()
    after, html = draw(title="Thricewise")
    assert changed(after, have(before)) is None
    assert answer(after, html, have(before)) is None


def test_a_kept_part_is_never_sent():
    before, _ = draw()
    after, _ = draw(caption="Manches")
    assert changed(after, have(before), frozenset({"sheet"})) == []


def test_the_header_reads_names_and_fingerprints_and_skips_what_is_damaged():
    assert shown("main:abc row-1:def junk :x y:") == {"main": "abc", "row-1": "def"}
    assert shown("") is None and shown(None) is None


def test_a_part_without_an_id_or_named_twice_is_a_template_error():
    with pytest.raises(ValueError, match="id"):
        ENGINE.from_string("{% load parts %}{% part %}<p>x</p>{% endpart %}").render(
            Context({"drawing": Drawing()})
        )
    with pytest.raises(ValueError, match="two parts"):
        ENGINE.from_string(
            "{% load parts %}{% part %}<p id='a'>x</p>{% endpart %}"
            "{% part %}<p id='a'>y</p>{% endpart %}"
        ).render(Context({"drawing": Drawing()}))


def test_without_a_drawing_a_part_is_drawn_as_it_is():
    html = ENGINE.from_string("{% load parts %}{% part %}<p id='a'>x</p>{% endpart %}").render(
        Context()
    )
    assert html == "<p id='a'>x</p>"
