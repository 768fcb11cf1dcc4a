"""The play page's hot parts (each game's board, move form, verdict and score sheet) are Jinja2
templates, compiled to Python: they are drawn for every move and for every phone watching it,
and Django's template engine, which interprets each template anew, spent 36–60 % of a move
entry drawing them (issue 32). Django's own pages keep Django's engine and include these with
``{% jinja %}`` (games.templatetags.jinja).

They are written as Django templates are, so that reading one is reading the other and the
French catalogue is made from them as from any template (``makemessages`` reads them):

- ``{% translate "…" [context "…"] [as name] %}`` and ``{% blocktranslate [context "…"]
  [with name=value …] [count name=value] [trimmed] [asvar name] %}…{% plural %}…
  {% endblocktranslate %}`` are Django's, with Django's escaping (a translation as it is, each
  value inserted escaped). A ``_("…")`` call at the start of ``{{ … }}`` or anywhere in a
  ``{% … %}`` tag is read by ``makemessages`` too.
- ``a.b`` looks in a dict first, as Django does (the boards are dicts): Jinja's usual order
  (the attribute first) costs an exception per lookup.
- What Jinja writes differently from Django is written as Django does: the two quotes escaped
  as ``&quot;`` and ``&#x27;``, so that a page is the same whichever engine drew each part.
- ``{% call part(drawing) %}…{% endcall %}`` is ``{% part %}`` (games.parts).
"""

from __future__ import annotations

import functools
import html
import json
import re
import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.template import engines
from django.template.defaultfilters import yesno
from django.templatetags.static import static
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import strip_spaces_between_tags
from django.utils.text import capfirst
from django.utils.translation import (
    get_language,
    gettext,
    ngettext,
    npgettext,
    pgettext,
    trans_real,
)
from jinja2 import ChainableUndefined, Environment, nodes
from jinja2.compiler import CodeGenerator
from jinja2.ext import InternationalizationExtension
from jinja2.parser import Parser
from markupsafe import Markup

from . import parts


def written(value: Any) -> str:
    """A ``{{ value }}`` as it is written on the page: escaped (the two quotes as Django writes
    them), unless it is markup already. markupsafe's ``escape`` makes a Markup of each value,
    two Python calls and an object, a thousand times in a move's answer (issue 32); what is
    written is joined into the page at once, so a plain string does."""
    kind = type(value)
    if kind is int:
        return str(value)
    if kind is not str:
        if hasattr(value, "__html__"):
            return value.__html__()
        value = str(value)
    # most values hold nothing to escape: one search costs half of html.escape's five replaces
    return value if _ESCAPED(value) is None else html.escape(value)


_ESCAPED = re.compile("[&<>\"']").search


class DjangoCodeGenerator(CodeGenerator):
    """Jinja's compiler, writing each ``{{ … }}`` of an escaping template with ``written``."""

    def _output_child_pre(self, node: nodes.Expr, frame: Any, finalize: Any) -> None:
        if frame.eval_ctx.autoescape and not frame.eval_ctx.volatile and finalize.src is None:
            self.write("environment.written(")
        else:
            super()._output_child_pre(node, frame, finalize)


class DjangoEnvironment(Environment):
    """Jinja's environment, looking ``a.b`` up in a dict first (see the module)."""

    code_generator_class = DjangoCodeGenerator
    written = staticmethod(written)

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


class DjangoTranslation(InternationalizationExtension):
    """Django's ``{% translate %}`` and ``{% blocktranslate %}``, for Jinja (see the module)."""

    tags = {"translate", "blocktranslate"}

    def parse(self, parser: Parser) -> nodes.Node:
        token = next(parser.stream)
        if token.value == "translate":
            return self._translate(parser, token.lineno)
        return self._blocktranslate(parser, token.lineno)

    def _translate(self, parser: Parser, lineno: int) -> nodes.Node:
        message = parser.stream.expect("string").value
        context = None
        if parser.stream.skip_if("name:context"):
            context = parser.stream.expect("string").value
        target = None
        if parser.stream.skip_if("name:as"):
            target = parser.stream.expect("name").value
        # As Django: a translated literal is written as it is (Django's literals are safe).
        if context is None:
            call = nodes.Call(nodes.Name("gettext", "load"), [nodes.Const(message)], [], None, None)
        else:
            call = nodes.Call(
                nodes.Name("pgettext", "load"),
                [nodes.Const(context), nodes.Const(message)],
                [],
                None,
                None,
            )
        call = nodes.MarkSafeIfAutoescape(call)
        if target is not None:
            return nodes.Assign(nodes.Name(target, "store"), call, lineno=lineno)
        return nodes.Output([call], lineno=lineno)

    def _blocktranslate(self, parser: Parser, lineno: int) -> nodes.Node:
        stream = parser.stream
        variables: dict[str, nodes.Expr] = {}
        context = count = target = None
        trimmed = False
        while stream.current.type != "block_end":
            word = stream.expect("name").value
            if word == "context":
                context = stream.expect("string").value
            elif word == "trimmed":
                trimmed = True
            elif word == "asvar":
                target = stream.expect("name").value
            elif word in ("with", "count"):
                while stream.current.type == "name" and stream.look().type == "assign":
                    name = stream.expect("name").value
                    stream.expect("assign")
                    variables[name] = parser.parse_expression()
                    if word == "count":
                        count = name
                        break
            else:
                parser.fail(f"blocktranslate does not take {word!r}", lineno)
        stream.expect("block_end")
        singular, names = self._body(parser, ("plural", "endblocktranslate"))
        plural = None
        if stream.current.test("name:plural"):
            next(stream)
            stream.expect("block_end")
            plural, more = self._body(parser, ("endblocktranslate",))
            names += more
        next(stream)  # endblocktranslate (its block_end is the parser's to read)
        for name in names:
            if name not in variables:
                variables[name] = nodes.Name(name, "load")
        if trimmed:
            singular = self._trim_whitespace(singular)
            plural = plural and self._trim_whitespace(plural)
        if plural is not None and count is None:
            parser.fail("{% plural %} needs a count", lineno)
        # the count's expression gives the number and stands for its name in the text
        plural_expr = variables[count] if plural is not None else None
        # As Django: the text's own "%" written "%%" whatever it holds, and always formatted.
        node = self._make_node(singular, plural, context, variables, plural_expr, True, False)
        if not variables:
            node.nodes[0] = nodes.Mod(node.nodes[0], nodes.Dict([]))
        node.set_lineno(lineno)
        if target is not None:  # Django's asvar: the text as drawn, safe
            return nodes.Assign(nodes.Name(target, "store"), node.nodes[0], lineno=lineno)
        return node

    def _body(self, parser: Parser, ends: tuple[str, ...]) -> tuple[str, list[str]]:
        """The text up to one of ``ends``, each ``{{ name }}`` in it as ``%(name)s``."""
        stream = parser.stream
        text: list[str] = []
        names: list[str] = []
        while True:
            if stream.current.type == "data":
                text.append(stream.current.value.replace("%", "%%"))
                next(stream)
            elif stream.current.type == "variable_begin":
                next(stream)
                name = stream.expect("name").value
                names.append(name)
                text.append(f"%({name})s")
                stream.expect("variable_end")
            elif stream.current.type == "block_begin":
                next(stream)
                if stream.current.type == "name" and stream.current.value in ends:
                    break
                parser.fail("a translated block holds only text and {{ names }}")
            else:
                parser.fail("a blocktranslate is not closed")
        return "".join(text), names


def part(
    drawing: parts.Drawing | None,
    inner: bool = False,
    *,
    caller,
    drawn_from: Any = None,
    lines: parts.Lines | None = None,
) -> Markup:
    """``{% call part(drawing) %}``: the part the call holds, fingerprinted (games.parts).

    ``drawn_from``: the values the part is drawn from, and nothing else of the page (a score
    sheet's row: its turn and its cells). Such a part is drawn once per process and language
    and kept: a sheet's past rows are the same move after move, and drawing them again was a
    quarter of a move's answer (issue 32). The test suite draws it each time all the same and
    checks that it is what was kept (``CHECK_KEPT``): a part that reads anything else fails.

    ``lines``: the part grows by appending them (games.parts.Lines, drawn ``{{ lines }}``: the
    move log): drawn apart, they are put in place once the part is fingerprinted."""
    if not isinstance(drawing, parts.Drawing):  # a page drawn without parts
        drawn = str(caller())
        return Markup(drawn.replace(lines.__html__(), lines.html) if lines is not None else drawn)
    key = _kept_key(caller, drawn_from) if drawn_from is not None else None
    kept = KEPT_PARTS.get(key) if key is not None else None
    if kept is not None and not CHECK_KEPT:
        return Markup(drawing.add(kept))
    drawing.begin()
    # written as the page will be, so that the part is found in it as it is kept
    marked = drawing.end(as_django_writes(str(caller())), inner=inner, lines=lines)
    if key is not None:
        made = drawing.parts[drawing.last]
        if kept is not None and kept != made:
            raise AssertionError(
                f"The part {made.name!r} is not drawn from {drawn_from!r} alone: it was "
                f"{kept.html!r}, and is now {made.html!r}."
            )
        if not made.children:  # a part holding parts is drawn with them
            if len(KEPT_PARTS) >= KEPT_PARTS_AT_MOST:
                KEPT_PARTS.clear()
            KEPT_PARTS[key] = made
    return Markup(marked)


def drawn_part(drawing: parts.Drawing | None, html: str) -> str:
    """A part drawn in Python (a score sheet's row: games.ui), as ``{% call part(drawing) %}``
    would hold ``html``: what the drawing around it gets (``part``'s), with the same name,
    fingerprint and HTML. ``html`` is written as Django writes (games.ui._drawing) and holds no
    part.

    The part is kept for its HTML alone, all it is made of: a past row drawn once and kept by
    its caller is the same string move after move, its hash known, so looking its part up costs
    nothing like the repr of its values that ``part``'s ``drawn_from`` asks for (issue 32). The
    test suite makes it again all the same and checks it (``CHECK_KEPT``)."""
    if not isinstance(drawing, parts.Drawing):  # a page drawn without parts
        return html
    kept = DRAWN_PARTS.get(html)
    if kept is not None and not CHECK_KEPT:
        return drawing.add(kept)
    drawing.begin()
    marked = drawing.end(html, inner=False)
    made = drawing.parts[drawing.last]
    if made.children:
        raise ValueError(f"a part drawn in Python holds no part: {made.name!r} does")
    if kept is not None and kept != made:
        raise AssertionError(f"The part {made.name!r} is not made of its HTML alone.")
    if len(DRAWN_PARTS) >= KEPT_PARTS_AT_MOST:
        DRAWN_PARTS.clear()
    DRAWN_PARTS[html] = made
    return marked


#: The parts drawn in Python (``drawn_part``), by their HTML; emptied when it is full.
DRAWN_PARTS: dict[str, parts.Part] = {}

#: The parts drawn from their values alone (``part``'s ``drawn_from``), by where they are in
#: which template, those values and the language; emptied when it is full.
KEPT_PARTS: dict[tuple, parts.Part] = {}
KEPT_PARTS_AT_MOST = 8192
#: Draw each kept part again and check it (the test suite: tests/conftest.py).
CHECK_KEPT = False


def _kept_key(caller: Any, drawn_from: Any) -> tuple | None:
    """Where the part is (the code Jinja made of its call), its values as Python writes them
    (which tells 1 from "1" and True), and the language; None for a value Python writes by
    its address, which a later value could be given."""
    written = repr(drawn_from)
    if " object at 0x" in written:
        return None
    # The drawing's language (render), not Django's get_language: a lookup through asgiref's
    # context-local storage for each of a sheet's rows (1 % of a move's answer).
    now = getattr(DRAWING, "now", None)
    return caller._func.__code__, written, now[0] if now is not None else get_language()


def regroup(items: Any, key: str) -> list[dict[str, Any]]:
    """Django's ``{% regroup items by key as groups %}``: runs of items with the same ``key``,
    in their order (Jinja's ``groupby`` sorts them first)."""
    groups: list[dict[str, Any]] = []
    for item in items:
        value = item[key] if isinstance(item, dict) else getattr(item, key)
        if not groups or groups[-1]["grouper"] != value:
            groups.append({"grouper": value, "list": []})
        groups[-1]["list"].append(item)
    return groups


def json_script(value: Any, element_id: str) -> Markup:
    """Django's ``json_script`` filter, writing the same: its three escapes made by three
    replaces rather than ``str.translate``, which looks each character up in a dict (the
    referee's options, some 5 KB of JSON in a move's answer: issue 32)."""
    # No search for cycles: what is drawn is JSON-shaped already (a referee's options: their
    # hundreds of cell lists took a third longer to write with it, issue 32).
    written = json.dumps(value, cls=DjangoJSONEncoder, check_circular=False)
    for char, escaped in _JSON_SCRIPT_ESCAPES:
        if char in written:
            written = written.replace(char, escaped)
    element_id = html.escape(element_id)
    return Markup(f'<script id="{element_id}" type="application/json">{written}</script>')


_JSON_SCRIPT_ESCAPES = (("&", "\\u0026"), ("<", "\\u003C"), (">", "\\u003E"))


def spaceless(html: str) -> Markup:
    """``{% filter spaceless %}``: Django's ``{% spaceless %}``."""
    return Markup(strip_spaces_between_tags(str(html).strip()))


def url(name: str, *args: Any) -> str:
    """``{{ url('play-undo', play.pk) }}``: Django's ``reverse``, kept for the URL
    configuration and prefix in force (a move's answer asks for the same ten each time)."""
    return _reversed(name, args, get_urlconf() or settings.ROOT_URLCONF, get_script_prefix())


@functools.lru_cache(maxsize=4096)
def _reversed(name: str, args: tuple, urlconf: str, prefix: str) -> str:
    return reverse(name, args=args, urlconf=urlconf)


#: How markupsafe writes the two quotes, and how Django does.
_QUOTES = (("&#39;", "&#x27;"), ("&#34;", "&quot;"))


def as_django_writes(html: str) -> str:
    # Most drawings hold no quote markupsafe escaped: each "&" is found by a search for that one
    # character and looked at, where a search for "&#39;", or even "&#", over a move's answer
    # (some 50 KB, gone over three times: each part, then the whole) took ten times longer.
    at = html.find("&")
    while at != -1:
        if html.startswith(_MARKUPSAFE_QUOTES, at):
            for jinja, django in _QUOTES:
                html = html.replace(jinja, django)
            return html
        at = html.find("&", at + 1)
    return html


_MARKUPSAFE_QUOTES = tuple(jinja for jinja, _django in _QUOTES)


def render(name: str, context: dict[str, Any]) -> str:
    """The Jinja template ``name`` drawn from ``context``, written as Django writes."""
    # Each {% translate %} and {% blocktranslate %} asks the active catalogue itself, looked up
    # once for the drawing: Django's gettext looks it up again for every message (hundreds in
    # a move's answer), and does nothing else for a template's own literal text.
    gettext = translated(trans_real.catalog())
    before = getattr(DRAWING, "now", None)
    DRAWING.now = (get_language(), gettext)
    try:
        drawn = engines["jinja2"].env.get_template(name).render({**context, "gettext": gettext})
    finally:
        DRAWING.now = before
    return as_django_writes(drawn)


#: The language and the catalogue's gettext of the drawing under way in this thread (``render``),
#: for what it draws in Python (games.ui._drawing): looked up once for the drawing, not for each
#: of its hundred pieces.
DRAWING = threading.local()


def translated(catalog: Any) -> Callable[[str], str]:
    """The catalogue's gettext, each message looked up once: a catalogue misses its source
    language's messages in each of the site's catalogues in turn (English: every message of a
    move's answer, some 150), and a catalogue never changes once made (Django makes a new one
    when the translations are reloaded)."""
    found = getattr(catalog, "_jinja_translated", None)
    if found is None:
        found = catalog._jinja_translated = functools.lru_cache(maxsize=4096)(catalog.gettext)
    return found


def environment(**options: Any) -> Environment:
    """The Jinja2 backend's environment (settings.TEMPLATES)."""
    options.setdefault("extensions", [])
    options["extensions"] = [*options["extensions"], DjangoTranslation]
    # Like Django's, a missing value (or one of its attributes) is drawn as nothing, with DEBUG
    # too (Django's backend would give DebugUndefined, which draws "{{ name }}").
    options["undefined"] = ChainableUndefined
    env = DjangoEnvironment(**options)
    env.install_gettext_callables(
        gettext, ngettext, newstyle=False, pgettext=pgettext, npgettext=npgettext
    )
    from .templatetags.bgstats import bgstats_push  # it reads the models: once they are ready

    env.globals.update(part=part, url=url, static=static)
    env.filters.update(
        capfirst=capfirst,
        yesno=yesno,
        regroup=regroup,
        spaceless=spaceless,
        json_script=json_script,
        bgstats_push=bgstats_push,
    )
    return env
