"""Django's template engine, letting go of each page's context as soon as the page is made.

Rendering a template builds a context whose parts point at each other (each layer of the
context holds the context, for ``with context.push():``). Only Python's cycle collector frees
such a ring, so everything a page was given stays in memory until its next pass: for a move
entry, the judged game before and after the move, the move log, the seats. That kept the
collector busy: it ran about every other request, and a move entry's 95th percentile was 30 %
above its median (docs/benchmarks.md, issue 19). Emptying the context's layers once the page is
made breaks the ring, so the page's objects are freed as soon as they are no longer used.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.template import TemplateDoesNotExist
from django.template.backends import django as backend
from django.template.context import make_context


class Template(backend.Template):
    def render(self, context: dict[str, Any] | None = None, request: HttpRequest | None = None):
        made = make_context(context, request, autoescape=self.backend.engine.autoescape)
        try:
            return self.template.render(made)
        except TemplateDoesNotExist as exc:
            backend.reraise(exc, self.backend)
        finally:
            made.dicts.clear()  # the ring: context → its layers → each layer's context


class DjangoTemplates(backend.DjangoTemplates):
    """``TEMPLATES``' backend: Django's own, whose templates let go of their context."""

    def from_string(self, template_code: str) -> Template:
        return Template(self.engine.from_string(template_code), self)

    def get_template(self, template_name: str) -> Template:
        try:
            return Template(self.engine.get_template(template_name), self)
        except TemplateDoesNotExist as exc:
            backend.reraise(exc, self)
