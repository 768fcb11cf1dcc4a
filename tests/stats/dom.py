"""A page read as a tree, with Django's own HTML parser (the one of ``assertContains(...,
html=True)``), so that a test names the element it means rather than a run of characters."""

from django.test.html import Element, parse_html


def tree(response) -> Element:
    return parse_html(response.content.decode())


def find_all(element: Element, name: str | None, **attributes: str) -> list[Element]:
    """Every element under ``element`` (itself included) named ``name`` (any, if None) that has
    ``attributes`` (``data_player="Ana"`` for ``data-player``; ``class_`` names one of its
    classes)."""
    wanted = {key.rstrip("_").replace("_", "-"): value for key, value in attributes.items()}

    def has(found: Element) -> bool:
        own = dict(found.attributes)
        for key, value in wanted.items():
            if key == "class":
                if value not in (own.get("class") or "").split():
                    return False
            elif own.get(key) != value:
                return False
        return True

    found = [element] if name in (None, element.name) and has(element) else []
    for child in element.children:
        if isinstance(child, Element):
            found += find_all(child, name, **attributes)
    return found


def find(element: Element, name: str, **attributes: str) -> Element:
    """The one element under ``element`` named ``name`` with ``attributes``."""
    (found,) = find_all(element, name, **attributes)
    return found


def text(element: Element | str) -> str:
    """The element's text, its pieces joined by one space (the parser keeps no space at the
    edge of a piece: "<b>16</b>, 12" reads "16 , 12")."""
    if isinstance(element, str):
        return element
    return " ".join(" ".join(text(child) for child in element.children).split())
