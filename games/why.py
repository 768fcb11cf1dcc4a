"""Why it scored: the referee's own breakdown of points, told in the reader's language.

The engines work it out (``Thricewise.why``, ``ForgetVenice.why``: which three cards formed
which kind of window, which suits and cards gave each criterion); this module only says it, as
a player checking the sheet would: "The Painter (3), The Battle (4), The Discovery (5):
straight, worth 3". The pages show it folded under the points (a ``<details>``), so it costs
nothing until somebody taps.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from referee.decktet import BY_NAME
from referee.forget_venice import CriterionScore, SuitTally
from referee.thricewise import KINDS, Scored, Window

from .ui import and_list

KIND_LABELS = {
    "set": gettext_lazy("set"),
    "flush": gettext_lazy("flush"),
    "straight": gettext_lazy("straight"),
}
assert set(KIND_LABELS) == set(KINDS)


@dataclass(frozen=True, slots=True)
class Reason:
    """Points told: a head line ("The Market at G7: +6") and the lines that make it up."""

    text: str
    lines: tuple[str, ...]


# Thricewise -------------------------------------------------------------------------------


def tw_card(name: str) -> str:
    """ "The Merchant (9)", "The Windfall (Crown)": a card with the rank a window reads."""
    from .ui.thricewise import RANK_LABELS

    rank = BY_NAME[name].rank
    return f"{name} ({RANK_LABELS.get(rank, rank)})"


def window_text(window: Window) -> str:
    """One window: its cards in line order, what kinds it is, and its points."""
    from .ui.thricewise import SUIT_LABELS

    kinds = []
    for kind in window.kinds:
        if kind == "flush":
            suits = and_list([str(SUIT_LABELS[suit]) for suit in window.suits])
            kinds.append(_("flush (%(suits)s)") % {"suits": suits})
        else:
            kinds.append(str(KIND_LABELS[kind]))
    values = {
        "cards": ", ".join(tw_card(card) for card in window.cards),
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


def thricewise_card(scored: Scored, cell_name: Callable[[tuple[int, int]], str]) -> Reason:
    """One placed card: where it went, its points, and each window it completed."""
    values = {"card": scored.card, "cell": cell_name(scored.cell), "points": scored.points}
    if scored.points:
        text = _("%(card)s at %(cell)s: +%(points)s") % values
    else:
        text = _("%(card)s at %(cell)s: no points") % values
    return Reason(text, tuple(window_text(window) for window in scored.windows))


# Forget Venice ----------------------------------------------------------------------------


def _fv_card(name: str) -> str:
    from .ui.forget_venice import RANK_LABELS

    rank = BY_NAME[name].rank
    return f"{name} ({RANK_LABELS.get(rank, rank)})"


def _suit_line(tally: SuitTally, criterion: str) -> str:
    from .ui.forget_venice import SUIT_LABELS

    suit = str(SUIT_LABELS[tally.suit])
    if not tally.cards:
        return _("%(suit)s: no card") % {"suit": suit}
    if criterion == "III":
        return _("%(suit)s: a run of %(length)s — %(cards)s") % {
            "suit": suit,
            "length": tally.run_length,
            "cards": ", ".join(_fv_card(card) for card in tally.run),
        }
    return _("%(suit)s: %(count)s — %(cards)s") % {
        "suit": suit,
        "count": tally.count,
        "cards": ", ".join(tally.cards),
    }


def criterion_reason(score: CriterionScore) -> Reason:
    """One criterion of a half: each of its suits with the cards that count, then the rule."""
    first, second = score.suits
    if score.criterion == "I":
        text = _("the smaller count: %(points)s") % {"points": score.points}
    elif score.criterion == "II":
        text = _("the difference of the counts: %(larger)s − %(smaller)s = %(points)s") % {
            "larger": max(first.count, second.count),
            "smaller": min(first.count, second.count),
            "points": score.points,
        }
    else:
        text = _("the longest run: %(points)s") % {"points": score.points}
    return Reason(text, (_suit_line(first, score.criterion), _suit_line(second, score.criterion)))
