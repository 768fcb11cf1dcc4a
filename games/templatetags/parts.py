"""``{% part %}…{% endpart %}``: a piece of the play page that an answer may send alone
(games.parts). ``{% part inner %}``: fingerprinted without its opening tag."""

from __future__ import annotations

from django import template
from django.template.base import Node, NodeList, Parser, Token

register = template.Library()


class PartNode(Node):
    def __init__(self, nodelist: NodeList, inner: bool) -> None:
        self.nodelist = nodelist
        self.inner = inner

    def render(self, context: template.Context) -> str:
        drawing = context.get("drawing")
        if drawing is None:  # a page drawn without parts (the table screen, a sheet)
            return self.nodelist.render(context)
        drawing.begin()
        return drawing.end(self.nodelist.render(context), inner=self.inner)


@register.tag
def part(parser: Parser, token: Token) -> PartNode:
    bits = token.split_contents()[1:]
    if bits not in ([], ["inner"]):
        raise template.TemplateSyntaxError("{% part %} takes nothing, or 'inner'")
    nodelist = parser.parse(("endpart",))
    parser.delete_first_token()
    return PartNode(nodelist, inner=bits == ["inner"])
