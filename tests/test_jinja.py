"""games.jinja: the play page's hot parts are Jinja templates written as Django templates are
(issue 32). What they share with Django's syntax draws the same HTML in both engines, in both
languages; the rest behaves as Django's does."""

from __future__ import annotations

import pytest
from django.template import TemplateSyntaxError, engines
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from games import jinja, parts

VALUES = {
    "name": "A<b>'\"&",
    "wins": 2,
    "one": 1,
    "cards": 7,
    "board": {"label": "e4", "items": "kept"},
    "nothing": None,
    # each kind a value can be, written as Django writes it (games.jinja.written)
    "flag": True,
    "safe": mark_safe("<em>kept</em>"),
    "lazy": gettext_lazy("Score sheet"),
    "plain": "Ace of Leaves",
}

#: Each is Django's syntax and Jinja's: drawn by both engines, they must agree.
SHARED = [
    # a translated literal is written as it is (Django's literals are safe): "d'" unescaped
    '{% translate "The referee\'s rulings" %}',
    '<b title="{% translate "The referee\'s rulings" %}">',
    '{% translate "Pile" context "a Buntherum player\'s own pile" %}',
    '{% translate "Cards turned" as label %}[{{ label }}]',
    # a value inserted is escaped, Django's way (&#x27; and &quot;)
    "{{ name }}",
    '<span data-player="{{ name }}">',
    "{{ flag }} {{ safe }} {{ lazy }} {{ plain }} {{ wins }} {{ nothing }}",
    "{% blocktranslate with player=name %}{{ player }} to play{% endblocktranslate %}",
    "{% blocktranslate count wins=wins %}{{ wins }} round won{% plural %}{{ wins }} rounds won"
    "{% endblocktranslate %}",
    "{% blocktranslate count wins=one %}{{ wins }} round won{% plural %}{{ wins }} rounds won"
    "{% endblocktranslate %}",
    '{% blocktranslate with label=name value=cards context "a label and its value" %}'
    "{{ label }}: {{ value }}{% endblocktranslate %}",
    "{% blocktranslate with zone=name %}Times in {{ zone }}.{% endblocktranslate %}",
    "{% blocktranslate trimmed %}\n  The table is empty:\n  the first card of the round goes "
    "anywhere.\n{% endblocktranslate %}",
    "{% blocktranslate with number=wins asvar said %}Round {{ number }}{% endblocktranslate %}"
    "<p>{{ said }}</p>",
    # dicts are looked up first; what is missing is drawn as nothing
    "{{ board.label }} {{ board.items }} [{{ board.missing }}] [{{ nothing.a }}]",
    "[{{ missing }}] [{{ missing.a.b }}] [{{ board.missing.a }}]",
]


def drawn(source: str, context: dict) -> str:
    """A Jinja template's text drawn from ``context``, written as the page writes it."""
    return jinja.as_django_writes(engines["jinja2"].env.from_string(source).render(context))


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("source", SHARED)
def test_what_both_engines_read_draws_the_same(source, language):
    django = engines["django"].from_string("{% load i18n %}" + source)
    own = engines["jinja2"].env.from_string(source)
    with translation.override(language):
        assert jinja.as_django_writes(own.render(VALUES)) == django.render(VALUES)


def test_the_french_is_french():
    own = engines["jinja2"].env.from_string(
        "{% blocktranslate count wins=wins %}{{ wins }} round won{% plural %}{{ wins }} rounds "
        "won{% endblocktranslate %}"
    )
    with translation.override("fr"):
        assert own.render(VALUES) == "2 manches gagnées"


def test_a_missing_value_is_drawn_as_nothing_with_debug_too():
    import jinja2

    # what Django's Jinja2 backend passes when DEBUG is on
    env = jinja.environment(undefined=jinja2.DebugUndefined)
    assert env.from_string("[{{ missing }}] [{{ missing.a.b }}]").render() == "[] []"


def test_a_dict_without_the_key_has_its_attribute_as_django_finds_it():
    env = engines["jinja2"].env
    assert env.from_string("{{ d.items() | list | length }}").render(d={"a": 1}) == "1"
    assert env.from_string("{{ d.items }}").render(d={"items": "kept"}) == "kept"


def test_a_blocktranslate_holds_only_text_and_names():
    with pytest.raises(Exception, match="only text and"):
        engines["jinja2"].env.from_string(
            "{% blocktranslate %}{% if x %}a{% endif %}{% endblocktranslate %}"
        )


def test_a_plural_needs_a_count():
    with pytest.raises(Exception, match="needs a count"):
        engines["jinja2"].env.from_string(
            "{% blocktranslate with n=x %}{{ n }}{% plural %}{{ n }}s{% endblocktranslate %}"
        )


def test_regroup_keeps_the_order_of_the_runs():
    pieces = [{"size": "big"}, {"size": "small"}, {"size": "big"}]
    groups = jinja.regroup(pieces, "size")
    assert [(group["grouper"], len(group["list"])) for group in groups] == [
        ("big", 1),
        ("small", 1),
        ("big", 1),
    ]


def test_spaceless_takes_the_space_between_tags_away():
    assert jinja.spaceless(" <p> a </p>\n  <p>b</p> ") == "<p> a </p><p>b</p>"


def test_a_part_is_fingerprinted_as_django_s_tag_does_and_found_in_the_page():
    source = '<div id="outer">{{ name }}<p id="inner">{{ wins }}</p></div>'
    django_drawing, jinja_drawing = parts.Drawing(), parts.Drawing()
    engines["django"].from_string(
        "{% load parts %}{% part %}"
        + source.replace('<p id="inner">', '{% part %}<p id="inner">').replace(
            "</p>", "</p>{% endpart %}"
        )
        + "{% endpart %}"
    ).render({**VALUES, "drawing": django_drawing})
    html = drawn(
        "{% call part(drawing) %}"
        + source.replace('<p id="inner">', '{% call part(drawing) %}<p id="inner">').replace(
            "</p>", "</p>{% endcall %}"
        )
        + "{% endcall %}",
        {**VALUES, "drawing": jinja_drawing},
    )
    for name in ("outer", "inner"):
        assert jinja_drawing.parts[name].fingerprint == django_drawing.parts[name].fingerprint
        assert jinja_drawing.parts[name].html in html
    # without a drawing, the part is drawn plainly
    assert drawn("{% call part(None) %}<i id=x></i>{% endcall %}", {}) == ("<i id=x></i>")


def test_the_jinja_tag_draws_a_jinja_template_with_the_page_s_context():
    page = engines["django"].from_string(
        '{% load jinja %}{% jinja "plays/_why.html" with reasons=given %}'
    )
    html = page.render({"given": [{"text": "d'Ana", "lines": ["+3"]}]})
    assert html == '<ul class="why-list"><li>d&#x27;Ana<ul><li>+3</li></ul></li></ul>'


@pytest.mark.parametrize(
    "tag", ["{% jinja %}", '{% jinja "plays/_why.html" reasons=x %}', '{% jinja "a" with %}']
)
def test_the_jinja_tag_says_how_it_is_written(tag):
    with pytest.raises(TemplateSyntaxError):
        engines["django"].from_string("{% load jinja %}" + tag)


def test_a_url_is_reversed_for_the_prefix_and_the_urls_in_force():
    """url() keeps what it reversed, but not across a script prefix or a URL configuration."""
    from django.test import override_settings
    from django.urls import set_script_prefix

    template = engines["jinja2"].from_string("{{ url('play-undo', 7) }}")
    assert template.render({}) == "/plays/7/undo/"
    set_script_prefix("/night/")
    try:
        assert template.render({}) == "/night/plays/7/undo/"
    finally:
        set_script_prefix("/")
    assert template.render({}) == "/plays/7/undo/"
    with override_settings(ROOT_URLCONF="benchmarks.floor"):  # the same names, and one more
        assert engines["jinja2"].from_string("{{ url('bench-floor', 3) }}").render({}) == (
            "/bench/floor/3/"
        )


KEPT_ROW = (
    "{% call part(drawing, drawn_from=row) %}"
    '<tr id="row-{{ row.n }}">{{ row.points }}{{ drawn() }}</tr>{% endcall %}'
)


def _draw_row(row, drawn, language="en"):
    drawing = parts.Drawing()
    with translation.override(language):
        html = (
            engines["jinja2"]
            .from_string(KEPT_ROW)
            .render({"drawing": drawing, "row": row, "drawn": drawn})
        )
    return html, drawing


@pytest.fixture
def kept_for_real(monkeypatch):
    """Kept parts as the site keeps them, not drawn again to be checked (tests/conftest.py)."""
    monkeypatch.setattr(jinja, "CHECK_KEPT", False)
    monkeypatch.setattr(jinja, "KEPT_PARTS", {})


def test_a_part_drawn_from_its_values_is_drawn_once_for_them_and_the_language(kept_for_real):
    times = []

    def drawn():
        times.append(1)
        return ""

    first, drawing = _draw_row({"n": 1, "points": 4}, drawn)
    again, again_drawing = _draw_row({"n": 1, "points": 4}, drawn)
    assert len(times) == 1 and again == first
    # kept, it is still a part of the drawing, fingerprinted as when it was drawn
    assert again_drawing.parts["row-1"] == drawing.parts["row-1"]
    _draw_row({"n": 1, "points": 5}, drawn)  # another value: drawn
    _draw_row({"n": 1, "points": "4"}, drawn)  # "4" is not 4
    _draw_row({"n": 1, "points": 4}, drawn, "fr")  # another language
    assert len(times) == 4


def test_a_value_written_by_its_address_is_never_kept(kept_for_real):
    times = []

    def drawn():
        times.append(1)
        return ""

    row = {"n": 1, "points": object()}
    _draw_row(row, drawn)
    _draw_row(row, drawn)
    assert len(times) == 2 and not jinja.KEPT_PARTS


def test_a_part_that_reads_more_than_it_is_drawn_from_is_caught(kept_for_real, monkeypatch):
    monkeypatch.setattr(jinja, "CHECK_KEPT", True)
    _draw_row({"n": 1, "points": 4}, lambda: "a")
    with pytest.raises(AssertionError, match="not drawn from"):
        _draw_row({"n": 1, "points": 4}, lambda: "b")


def test_the_kept_parts_are_emptied_when_full(kept_for_real, monkeypatch):
    monkeypatch.setattr(jinja, "KEPT_PARTS_AT_MOST", 2)
    for n in range(3):
        _draw_row({"n": n, "points": 0}, lambda: "")
    assert len(jinja.KEPT_PARTS) == 1


@pytest.mark.parametrize(
    "value",
    [
        {"reveal": ["The <Author>", "Ace & Knots", "a > b"], "é": [1, 2.5, None, True]},
        "</script><script>alert('x')</script>",
        [],
    ],
)
def test_json_script_writes_what_django_s_writes(value):
    from django.utils.html import json_script

    assert jinja.json_script(value, "play-options") == json_script(value, "play-options")
    assert "</script" not in jinja.json_script(value, "play-options")[:-9]


def test_each_message_is_looked_up_once_in_a_catalogue(monkeypatch):
    """A catalogue misses every message of its source language in each of the site's
    catalogues in turn: a drawing looks each message up once per catalogue (issue 32)."""
    looked_up = []

    class Catalogue:
        def gettext(self, message):
            looked_up.append(message)
            return message.upper()

    catalogue = Catalogue()
    monkeypatch.setattr(jinja.trans_real, "catalog", lambda: catalogue)
    env = engines["jinja2"].env
    template = env.from_string(
        "{% translate 'Score' %} {% translate 'Turn' %} {% translate 'Score' %}"
    )
    monkeypatch.setattr(env, "get_template", lambda name: template)
    for _ in range(2):
        assert jinja.render("page.html", {}) == "SCORE TURN SCORE"
    assert sorted(looked_up) == ["Score", "Turn"]
    # another catalogue (another language, or the translations reloaded) looks them up itself
    monkeypatch.setattr(jinja.trans_real, "catalog", Catalogue)
    jinja.render("page.html", {})
    assert sorted(looked_up) == ["Score", "Score", "Turn", "Turn"]


@pytest.mark.parametrize(
    "html",
    [
        "",
        "no entity at all",
        "&#39;",
        "&#34;x&#39;",
        "a &amp; b &lt; c, then O&#39;Neil",  # the quote after other entities
        "&amp;&amp;&#34;",
        "ends with an ampersand &",
        "&#x27; and &quot; are Django's already",
        "&#3 &#39",  # almost, but not quite
    ],
)
def test_quotes_are_written_as_django_writes_them_wherever_they_are(html):
    expected = html.replace("&#39;", "&#x27;").replace("&#34;", "&quot;")
    assert jinja.as_django_writes(html) == expected
