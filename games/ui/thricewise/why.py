"""Why a Thricewise turn scored: each card placed, where it went, and each window of three
cards it completed, told as a player checking the sheet would ("The Painter (3), The Battle (4),
The Discovery (5): straight, worth 3"). The engine works it out (``Thricewise.why``)."""

from __future__ import annotations

from collections.abc import Callable

from referee.thricewise import Scored, Window

from .. import Reason, and_list
from .._decktet import Words, words
from .words import KIND_LABELS, Cell


def window_text(window: Window, said: Words | None = None) -> str:
    """One window: its cards in line order, what kinds it is, and its points (``said``: the
    words of the language active, when the caller has them)."""
    said = said or words()
    _ = said.gettext
    kinds = []
    for kind in window.kinds:
        if kind == "flush":
            suits = and_list([said.suits[suit] for suit in window.suits])
            kinds.append(_("flush (%(suits)s)") % {"suits": suits})
        else:
            kinds.append(str(KIND_LABELS[kind]))
    values = {
        "cards": ", ".join(said.ranked_card(card) for card in window.cards),
        "kinds": and_list(kinds),
        "count": len(window.kinds),
        "worth": window.worth,
        "points": window.points,
    }
    if window.worth == 0:
        return _("%(cards)s: %(kinds)s, worth 0 (no number card)") % values
    if len(window.kinds) == 1:
        return _("%(cards)s: %(kinds)s, worth %(worth)s") % values
    return _("%(cards)s: %(kinds)s, %(count)s × %(worth)s = %(points)s") % values


def card_reason(
    scored: Scored, cell_name: Callable[[Cell], str], said: Words | None = None
) -> Reason:
    """One placed card: where it went, its points, and each window it completed."""
    said = said or words()
    _ = said.gettext
    values = {"card": scored.card, "cell": cell_name(scored.cell), "points": scored.points}
    if scored.points:
        text = _("%(card)s at %(cell)s: +%(points)s") % values
    else:
        text = _("%(card)s at %(cell)s: no points") % values
    return Reason(text, tuple(window_text(window, said) for window in scored.windows))
