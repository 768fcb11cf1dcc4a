"""The play page's parts (games.parts): what an answer sends of a page drawn again."""

import pytest
from django.template import Context, Engine, engines

from games.parts import Appended, Drawing, Lines, answer, changed, shown

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
    body = answer(after, have(before))
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
    assert "<td>3</td>" in answer(after, have(before))


def test_the_pages_own_opening_tag_is_left_out_and_sent_as_it_is_now():
    before, _ = draw()
    after, html = draw(v=2)
    assert have(after)["main"] == have(before)["main"]
    body = answer(after, have(before))
    assert body.startswith("<div data-parts data-h=") and "data-version='2'" in body.split(">")[0]
    # what follows the page's element is for a page drawn whole (the log's line out of band)
    assert body.endswith("</div>") and "appended" not in body


def test_a_page_whose_own_content_changed_is_sent_whole():
    before, _ = draw()
    after, html = draw(title="Thricewise")
    assert changed(after, have(before)) is None
    assert answer(after, have(before)) is None


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


# A part that grows by appending (the move log) ---------------------------------------------------

LOG_PAGE = (
    "{% call part(drawing, True) %}<div id='main' data-version='{{ v }}'><p>{{ title }}</p>"
    "{% call part(drawing, lines=log) %}<ol id='log'>{% if log %}{{ log }}{% else %}<li>None"
    "</li>{% endif %}</ol>{% endcall %}</div>{% endcall %}"
)


def draw_log(log: Lines, **values) -> tuple[Drawing, str]:
    drawing = Drawing()
    template = engines["jinja2"].env.from_string(LOG_PAGE)
    html = template.render({"v": 1, "title": "Punto", **values, "log": log, "drawing": drawing})
    return drawing, html


def lines(*numbers: int) -> list[str]:
    return [f"<li>{number}</li>" for number in numbers]


def test_a_log_that_grew_sends_only_the_lines_the_page_lacks_appended():
    before, _ = draw_log(Lines(lines(1, 2)))
    grown = Lines(lines(1, 2, 3, 4), grown_from=Lines(lines(1, 2)))
    after, html = draw_log(grown)
    assert "<ol data-h=" in html and "<li>1</li><li>2</li><li>3</li><li>4</li></ol>" in html
    (appended,) = changed(after, have(before))
    assert appended == Appended("log", have(after)["log"], "<li>3</li><li>4</li>")
    body = answer(after, have(before))
    assert f'<template data-part="log" data-append data-h="{have(after)["log"]}">' in body
    assert "<li>1</li>" not in body


def test_a_log_fingerprint_is_the_same_however_it_grew():
    at_once, _ = draw_log(Lines(lines(1, 2, 3)))
    step = Lines(lines(1))
    draw_log(step)
    step = Lines(lines(1, 2), grown_from=step)
    draw_log(step)
    grown, _ = draw_log(Lines(lines(1, 2, 3), grown_from=step))
    assert have(grown) == have(at_once)
    assert have(grown)["log"] != have(draw_log(Lines(lines(1, 3, 2)))[0])["log"]


def test_a_log_whose_earlier_line_changed_is_sent_whole():
    """An undo strikes a line through: the page's log is none of the new log's beginnings."""
    before, _ = draw_log(Lines(lines(1, 2)))
    after, _ = draw_log(Lines(["<li>1</li>", "<li><del>2</del></li>", "<li>3</li>"]))
    (part,) = changed(after, have(before))
    assert part.name == "log" and "<del>2</del>" in part.html and "<li>1</li>" in part.html


def test_a_page_that_shows_the_whole_log_or_no_log_of_it_gets_no_append():
    drawn, _ = draw_log(Lines(lines(1, 2)))
    assert changed(drawn, have(drawn)) == []
    empty, _ = draw_log(Lines([]))  # "None" drawn in its place: not a beginning of the log
    (part,) = changed(drawn, have(empty))
    assert part.name == "log" and part.html.endswith("<li>1</li><li>2</li></ol>")


def test_a_moves_line_is_appended_to_the_log_the_page_shows():
    """A move's answer holds only its line (``whole`` False): chained from the page's own
    fingerprint, the page's log then has the fingerprint of the whole log drawn anew."""
    page, _ = draw_log(Lines(lines(1, 2)))
    answered, _ = draw_log(Lines(lines(3), whole=False))
    (appended,) = changed(answered, have(page))
    assert appended.lines == "<li>3</li>"
    assert appended.fingerprint == have(draw_log(Lines(lines(1, 2, 3)))[0])["log"]
    # a page that says nothing of its log: the part itself
    assert changed(answered, {"main": have(page)["main"]})[0].name == "log"


def test_a_part_inside_another_stands_for_its_name_until_the_part_around_it_ends():
    """Each part's drawing is searched and copied once, not again by each part around it
    (issue 32): a part drawn inside another gives it a stand-in, put in its place when the
    part around it ends; the fingerprints are those of the parent with ``<part name>`` there."""
    drawing = Drawing()
    drawing.begin()
    drawing.begin()
    row = drawing.end("<tr id='row-1'><td>4</td></tr>", inner=False)
    assert "<td>" not in row and "row-1" in row
    page = drawing.end(f"<table id='sheet'><caption>Rounds</caption>{row}</table>", inner=False)
    assert page == drawing.parts["sheet"].html
    assert page.startswith("<table data-h=") and "<tr data-h=" in page and "<td>4</td>" in page
    sheet_alone = Drawing()
    sheet_alone.begin()
    sheet_alone.end("<table id='sheet'><caption>Rounds</caption><part row-1></table>", inner=False)
    assert drawing.parts["sheet"].fingerprint == sheet_alone.parts["sheet"].fingerprint
