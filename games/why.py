"""Why it scored: the referee's own breakdown of points, told in the reader's language.

The engines work it out (``Thricewise.why``, ``ForgetVenice.why``: which three cards formed
which kind of window, which suits and cards gave each criterion); this module only says it, as
a player checking the sheet would: "The Painter (3), The Battle (4), The Discovery (5):
straight, worth 3". The pages show it folded under the points (a ``<details>``), so it costs
nothing until somebody taps.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from referee.forget_venice import CriterionScore, SuitTally

from .ui import Reason
from .ui._decktet import SUIT_LABELS, ranked_card


def _suit_line(tally: SuitTally, criterion: str) -> str:
    suit = str(SUIT_LABELS[tally.suit])
    if not tally.cards:
        return _("%(suit)s: no card") % {"suit": suit}
    if criterion == "III":
        return _("%(suit)s: a run of %(length)s — %(cards)s") % {
            "suit": suit,
            "length": tally.run_length,
            "cards": ", ".join(ranked_card(card) for card in tally.run),
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
