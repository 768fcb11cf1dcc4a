"""Pages read as a tree (django.test.html), for tests that check a page's structure rather
than a substring of its markup."""

from django.test.html import Element, parse_html


def dom(page) -> Element:
    """A response's page, or a page's text, as a tree."""
    return parse_html(page if isinstance(page, str) else page.content.decode())


def find_all(node: Element, tag: str, **attrs: str | None) -> list[Element]:
    """The elements ``tag`` (``*``: any) in ``node`` (itself included), in document order,
    that carry every attribute of ``attrs`` with that value (``class_`` for ``class``: one of
    its classes; None for an attribute without a value)."""
    wanted = {name.rstrip("_"): value for name, value in attrs.items()}
    found = []
    if tag in (node.name, "*") and all(_has(node, name, value) for name, value in wanted.items()):
        found.append(node)
    for child in node.children:
        if isinstance(child, Element):
            found += find_all(child, tag, **attrs)
    return found


def find(node: Element, tag: str, **attrs: str | None) -> Element:
    """The one element ``tag`` with ``attrs`` in ``node``."""
    (element,) = find_all(node, tag, **attrs)
    return element


def attr(node: Element, name: str) -> str | None:
    return dict(node.attributes).get(name)


def text(node: Element | str) -> str:
    """The words an element shows, its whitespace collapsed."""
    if isinstance(node, str):
        return " ".join(node.split())
    return " ".join(filter(None, (text(child) for child in node.children)))


def _has(node: Element, name: str, value: str | None) -> bool:
    """``value`` None: an attribute written without a value (``selected``)."""
    attributes = dict(node.attributes)
    if name not in attributes:
        return False
    if name == "class":
        return value in attributes[name].split()
    return attributes[name] == value
