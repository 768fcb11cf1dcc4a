"""Pages read as a tree, with Django's own HTML parser (the one of ``assertContains(...,
html=True)``), so that a test names the element it means rather than a run of characters."""

from django.test.html import Element, parse_html

#: An attribute's value for ``find_all`` and ``find``: the attribute is there, whatever its value.
ANY = object()


def dom(page) -> Element:
    """A response's page, or a page's text, as a tree."""
    return parse_html(page if isinstance(page, str) else page.content.decode())


def find_all(node: Element, tag: str | None, **attrs: object) -> list[Element]:
    """The elements ``tag`` (None: any) in ``node`` (itself included), in document order, that
    carry every attribute of ``attrs`` with that value (``data_player="Ana"`` for
    ``data-player``; ``class_`` names one of its classes; None for a boolean attribute, as
    ``selected``; ``ANY`` for any value)."""
    wanted = {name.rstrip("_").replace("_", "-"): value for name, value in attrs.items()}
    found = []
    if tag in (node.name, None) and all(_has(node, name, value) for name, value in wanted.items()):
        found.append(node)
    for child in node.children:
        if isinstance(child, Element):
            found += find_all(child, tag, **attrs)
    return found


def find(node: Element, tag: str | None, **attrs: object) -> Element:
    """The one element ``tag`` with ``attrs`` in ``node``."""
    (element,) = find_all(node, tag, **attrs)
    return element


def attr(node: Element, name: str) -> str | None:
    return dict(node.attributes).get(name)


def classes(node: Element) -> set[str]:
    """The classes of ``node`` (the parser keeps them sorted: a set reads as written)."""
    return set((attr(node, "class") or "").split())


def chosen(node: Element, name: str) -> list[str]:
    """The values the form field ``name`` in ``node`` has chosen, as the page comes: a select's
    selected options, the checked ones of its radio buttons or check boxes."""
    picked = [
        option
        for select in find_all(node, "select", name=name)
        for option in find_all(select, "option", selected=None)
    ]
    picked += find_all(node, "input", name=name, checked=None)
    return [attr(element, "value") for element in picked]


def text(node: Element | str) -> str:
    """The words an element shows, its whitespace collapsed and its pieces joined by one space
    (the parser keeps no space at the edge of a piece: "<b>16</b>, 12" reads "16 , 12")."""
    if isinstance(node, str):
        return " ".join(node.split())
    return " ".join(filter(None, (text(child) for child in node.children)))


def _has(node: Element, name: str, value: object) -> bool:
    attributes = dict(node.attributes)
    if name not in attributes:
        return False
    if value is ANY:
        return True
    if name == "class":
        return value in (attributes[name] or "").split()
    return attributes[name] == value
