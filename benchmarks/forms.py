"""Reading the play page as a browser would: a form's hidden fields by their name attribute, and
the move log's entries. Shared by the benchmarks and the load test, which post what the page's
own forms carry (whatever those hidden fields are) instead of guessing them with a regex."""

from __future__ import annotations

from html.parser import HTMLParser


class _PlayPage(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: dict[str, dict[str, str]] = {}
        self._form: str | None = None
        self.log_entries = 0
        self.undone_entries = 0
        self._in_log = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        if tag == "form":
            self._form = attributes.get("id") or attributes.get("action") or ""
            self.forms.setdefault(self._form, {})
        elif tag == "input" and self._form is not None and attributes.get("type") == "hidden":
            name = attributes.get("name")
            if name:
                self.forms[self._form][name] = attributes.get("value", "")
        elif tag == "ol" and attributes.get("id") == "move-log":
            self._in_log = True
        elif tag == "li" and self._in_log and "data-seq" in attributes:
            self.log_entries += 1
            self.undone_entries += "undone" in attributes.get("class", "").split()

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "ol":
            self._in_log = False


def parse(html: bytes | str) -> _PlayPage:
    page = _PlayPage()
    page.feed(html.decode() if isinstance(html, bytes) else html)
    page.close()
    return page


def hidden_fields(html: bytes | str, form: str) -> dict[str, str] | None:
    """The hidden fields of the form whose id (or, lacking one, action) is ``form``, by name;
    None when the page has no such form (a finished play has no move form)."""
    return parse(html).forms.get(form)
