"""``{% jinja name [with key=value …] %}``: a Jinja2 template (games.jinja) drawn inside a
Django template, from the same context: Django's ``{% include %}`` for the play page's parts
that Jinja draws. ``name`` is a template's name, or a variable that holds one."""

from __future__ import annotations

from django import template
from django.template.base import FilterExpression, Node, Parser, Token, token_kwargs
from django.utils.safestring import mark_safe

from games.jinja import render

register = template.Library()


class JinjaNode(Node):
    def __init__(self, name: FilterExpression, extra: dict[str, FilterExpression]) -> None:
        self.name = name
        self.extra = extra

    def render(self, context: template.Context) -> str:
        name = self.name.resolve(context)
        extra = {key: value.resolve(context) for key, value in self.extra.items()}
        values = context.flatten()
        values.update(extra)
        return mark_safe(render(name, values))


@register.tag
def jinja(parser: Parser, token: Token) -> JinjaNode:
    bits = token.split_contents()[1:]
    if not bits:
        raise template.TemplateSyntaxError("{% jinja %} takes a template's name")
    extra = {}
    if len(bits) > 1:
        if bits[1] != "with":
            raise template.TemplateSyntaxError("{% jinja name with key=value … %}")
        extra = token_kwargs(bits[2:], parser, support_legacy=False)
        if not extra or len(extra) != len(bits) - 2:
            raise template.TemplateSyntaxError("{% jinja name with key=value … %}")
    return JinjaNode(parser.compile_filter(bits[0]), extra)
