"""Why a Forget Venice criterion gave its points: each of its two suits with the cards that
count, then the rule ("the difference of the counts: 2 − 0 = 2"), told as a player checking the
sheet would. The engine works it out (``ForgetVenice.why``)."""

from __future__ import annotations

from referee.forget_venice import CriterionScore, SuitTally

from .. import Reason
from .._decktet import Words, words


def _suit_line(tally: SuitTally, criterion: str, said: Words) -> str:
    _ = said.gettext
    suit = said.suits[tally.suit]
    if not tally.cards:
        return _("%(suit)s: no card") % {"suit": suit}
    if criterion == "III":
        return _("%(suit)s: a run of %(length)s — %(cards)s") % {
            "suit": suit,
            "length": tally.run_length,
            "cards": ", ".join(said.ranked_card(card) for card in tally.run),
        }
    return _("%(suit)s: %(count)s — %(cards)s") % {
        "suit": suit,
        "count": tally.count,
        "cards": ", ".join(tally.cards),
    }


def criterion_reason(score: CriterionScore, said: Words | None = None) -> Reason:
    """One criterion of a half: each of its suits with the cards that count, then the rule
    (``said``: the words of the language active, when the caller has them)."""
    said = said or words()
    _ = said.gettext
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
    lines = (_suit_line(first, score.criterion, said), _suit_line(second, score.criterion, said))
    return Reason(text, lines)
