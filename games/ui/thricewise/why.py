"""Why a Thricewise turn scored: each card placed, where it went, and each window of three
cards it completed, told as a player checking the sheet would ("The Painter (3), The Battle (4),
The Discovery (5): straight, worth 3"). The engine works it out (``Thricewise.why``)."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _

from referee.thricewise import Scored, Window

from .. import Reason, and_list
from .._decktet import ranked_card, suit_label
from .words import KIND_LABELS, Cell


def window_text(window: Window) -> str:
    """One window: its cards in line order, what kinds it is, and its points."""
    kinds = []
    for kind in window.kinds:
        if kind == "flush":
            suits = and_list([suit_label(suit) for suit in window.suits])
            kinds.append(_("flush (%(suits)s)") % {"suits": suits})
        else:
            kinds.append(str(KIND_LABELS[kind]))
    values = {
        "cards": ", ".join(ranked_card(card) for card in window.cards),
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


def card_reason(scored: Scored, cell_name: Callable[[Cell], str]) -> Reason:
    """One placed card: where it went, its points, and each window it completed."""
    values = {"card": scored.card, "cell": cell_name(scored.cell), "points": scored.points}
    if scored.points:
        text = _("%(card)s at %(cell)s: +%(points)s") % values
    else:
        text = _("%(card)s at %(cell)s: no points") % values
    return Reason(text, tuple(window_text(window) for window in scored.windows))
