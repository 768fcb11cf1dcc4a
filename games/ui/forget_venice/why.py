"""Why a Forget Venice criterion gave its points: each of its two suits with the cards that
count, then the rule ("the difference of the counts: 2 − 0 = 2"), told as a player checking the
sheet would. The engine works it out (``ForgetVenice.why``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from referee.forget_venice import CriterionScore, SuitTally

from .. import Reason
from .._decktet import ranked_card, suit_label


def _suit_line(tally: SuitTally, criterion: str) -> str:
    suit = suit_label(tally.suit)
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
