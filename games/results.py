"""A play entered as a result, checked as a referee would check a result sheet.

The five refereed games are judged move by move (``referee/``); any other game is entered as
its result: who played, and their scores, or their places, or, for a co-operative game, whether
the table won. This module reads such a result and gives every seat its rank and win, or says in
words what is wrong with it. No database: the services call it, the BG Stats import too.

- **Scores** are typed as on paper: a sum of signed decimals ("6+10-3", "-2", "12.5" or "12,5"),
  read with ``Decimal`` (never ``eval``). ``parse_score`` reads one.
- **Highest (lowest) score wins**: every seat has a score; the ranks follow from the scores, ties
  sharing a rank (1, 1, 3), and rank 1 wins.
- **Places only**: every seat has a place (1 first; players who tie share one); scores are given
  for every seat or for none. Places are read as an order: 1, 1, 2 means two first, then a third
  (ranks 1, 1, 3).
- **Co-operative**: the table wins or loses together (``won``), every seat ranked 1; a score, when
  the game keeps one, is the table's and the same for every seat.
- **Teams**: seats sharing a team number are partners, and partners share their result (the same
  score, the same place).
- **Recorded winners** (a result brought in from another app, which may have broken a tie by a
  rule of its own): the winners are taken as recorded, and the ranks as recorded (or, with none,
  from the scores; with no score either, winners first); partners still share them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from django.utils.translation import gettext as _

#: A score typed may be a long sum, not a novel.
SCORE_TEXT_MAX = 100
#: The largest score kept (Seat.entered_score: 12 digits before the point, 4 after).
SCORE_MAX = Decimal("1e12")
SCORE_PLACES = Decimal("0.0001")

HIGHEST, LOWEST, RANKS, COOPERATIVE = "highest", "lowest", "ranks", "cooperative"
#: The most seats of a result recorded elsewhere (Seat positions and a page stay readable).
RECORDED_MAX_PLAYERS = 30

# A term: an optional sign, then digits with an optional decimal part (point or comma).
_SUM = re.compile(r"[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[+-](?:\d+(?:[.,]\d*)?|[.,]\d+))*")
_TERM = re.compile(r"[+-]?[^+-]+")


class ResultError(ValueError):
    """A result that cannot stand, with the reason in the reader's words."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def parse_score(text: str | None) -> Decimal | None:
    """A score as typed: a sum of signed decimals ("6+10-3" is 13), "" or None for no score.
    Spaces are ignored; a minus may be typed as "−". Anything else is refused with a message."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise ResultError(_("A score is a number or a sum such as 6+10-3."))
    if len(text) > SCORE_TEXT_MAX:
        raise ResultError(_("A score is at most %(max)d characters.") % {"max": SCORE_TEXT_MAX})
    compact = "".join(text.split()).replace("−", "-")
    if not compact:
        return None
    if not _SUM.fullmatch(compact):
        raise ResultError(
            _("“%(text)s” is not a score: type a number or a sum such as 6+10-3.")
            % {"text": text.strip()}
        )
    total = Decimal(0)
    try:
        for term in _TERM.findall(compact):
            total += Decimal(term.replace(",", "."))
    except InvalidOperation:  # pragma: no cover - the pattern lets only numbers through
        raise ResultError(_("“%(text)s” is not a score.") % {"text": text.strip()}) from None
    return checked_score(total)


def checked_score(value: Decimal) -> Decimal:
    """A score within what is kept (four decimals, under a million million either way)."""
    if not value.is_finite() or abs(value) >= SCORE_MAX:
        raise ResultError(_("A score must be under a million million."))
    return value.quantize(SCORE_PLACES).normalize() + 0  # "+ 0": never "-0"


def whole(score: Decimal | None) -> int:
    """A score as the points statistics count it: rounded to a whole number (halves away from
    zero); no score counts 0."""
    if score is None:
        return 0
    return int(score.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def score_text(score: Decimal | None) -> str:
    """A kept score as people write it: "13", "12.5", "" for none."""
    if score is None:
        return ""
    text = format(score.normalize(), "f")
    return "0" if text in ("-0", "") else text


@dataclass(frozen=True)
class Rule:
    """How a game's result reads."""

    result: str  # HIGHEST, LOWEST, RANKS or COOPERATIVE
    scored: bool = True  # a co-operative game that keeps a score (the others: from result)
    teams: bool = False  # whether seats may be partners
    min_players: int = 1
    max_players: int = 30

    @property
    def has_scores(self) -> bool:
        return self.result in (HIGHEST, LOWEST) or (self.scored and self.result != RANKS)


@dataclass(frozen=True)
class Entry:
    """One seat's result as entered: its score, place and team (each maybe missing)."""

    score: Decimal | None = None
    place: int | None = None
    team: int | None = None


@dataclass(frozen=True)
class Outcome:
    """One seat's result as kept: its score, rank, win and team."""

    score: Decimal | None
    rank: int
    winner: bool
    team: int | None


def judge_result(
    rule: Rule,
    entries: Sequence[Entry],
    *,
    won: bool | None = None,
    winners: Sequence[bool] | None = None,
) -> list[Outcome]:
    """Every seat's outcome (in seat order), or ResultError saying what is wrong.

    ``won``: a co-operative game's result. ``winners``: the winners as recorded elsewhere (an
    import), taken as they are rather than from the scores."""
    count = len(entries)
    if winners is not None:
        # A result recorded elsewhere: its winners, ranks and teams as recorded (another app
        # may keep a score for some players only, or for a game played without one).
        if not 1 <= count <= RECORDED_MAX_PLAYERS:
            raise ResultError(
                _("A play has 1 to %(high)d players, not %(count)d.")
                % {"high": RECORDED_MAX_PLAYERS, "count": count}
            )
        if rule.result == COOPERATIVE:
            won = any(winners)
            return [Outcome(entry.score, 1, bool(won), entry.team) for entry in entries]
        return _recorded(entries, winners, lowest=rule.result == LOWEST)
    if count < max(rule.min_players, 1) or count > rule.max_players:
        low, high = max(rule.min_players, 1), rule.max_players
        raise ResultError(
            _("This game is played by %(low)d to %(high)d players, not %(count)d.")
            % {"low": low, "high": high, "count": count}
        )
    scores = [entry.score for entry in entries]
    teams = [entry.team for entry in entries]
    if not rule.teams and any(team is not None for team in teams):
        raise ResultError(_("This game is not played in teams."))
    given = [score is not None for score in scores]
    if rule.result in (HIGHEST, LOWEST) and not all(given):
        raise ResultError(_("Every player needs a score."))
    if any(given) and not all(given):
        raise ResultError(_("Give every player a score, or none."))
    if any(given) and not rule.has_scores:
        raise ResultError(_("This game's result has no scores."))
    _partners_share(entries)
    if rule.result == COOPERATIVE:
        return _cooperative(rule, entries, won)
    places = [entry.place for entry in entries]
    if rule.result == RANKS:
        if any(place is None for place in places):
            raise ResultError(_("Every player needs a place."))
        if any(place < 1 for place in places):
            raise ResultError(_("Places count from 1."))
        ranks = _ranks(places, teams)
    else:
        # Lower places first: the lowest score when it wins, else the highest.
        ranks = _ranks([s if rule.result == LOWEST else -s for s in scores], teams)
    return [
        Outcome(entry.score, rank, rank == 1, entry.team)
        for entry, rank in zip(entries, ranks, strict=True)
    ]


def _partners_share(entries: Sequence[Entry]) -> None:
    """Partners (seats with the same team number) have the same score and the same place."""
    shared: dict[int, tuple[Decimal | None, int | None]] = {}
    for entry in entries:
        if entry.team is None:
            continue
        result = (entry.score, entry.place)
        if shared.setdefault(entry.team, result) != result:
            raise ResultError(
                _("Partners share their result: team %(team)d has different scores or places.")
                % {"team": entry.team}
            )


def _cooperative(rule: Rule, entries: Sequence[Entry], won: bool | None) -> list[Outcome]:
    if won is None:
        raise ResultError(_("Say whether the table won or lost."))
    if len({entry.score for entry in entries}) > 1:
        raise ResultError(_("In a co-operative game the score is the table's: one for everyone."))
    return [Outcome(entry.score, 1, bool(won), entry.team) for entry in entries]


def _recorded(
    entries: Sequence[Entry], winners: Sequence[bool], *, lowest: bool = False
) -> list[Outcome]:
    """Winners as recorded; ranks as recorded, else from the scores (the best first: highest,
    or lowest when it wins), else the winners first. A winner is never ranked below a loser."""
    places = [entry.place for entry in entries]
    scores = [entry.score for entry in entries]
    teams = [entry.team for entry in entries]
    if any(place is not None for place in places):
        # A seat without a place comes after every placed one.
        last = max(place for place in places if place is not None) + 1
        ranks = _ranks([last if place is None else place for place in places], teams)
    elif all(score is not None for score in scores):
        sign = 1 if lowest else -1
        ranks = _ranks(
            [(not won, sign * score) for won, score in zip(winners, scores, strict=True)], teams
        )
    else:
        ranks = _ranks([not won for won in winners], teams)
    if any(won for won in winners):
        worst_winner = max(rank for rank, won in zip(ranks, winners, strict=True) if won)
        if any(rank < worst_winner for rank, won in zip(ranks, winners, strict=True) if not won):
            ranks = _ranks(
                [(not won, rank) for won, rank in zip(winners, ranks, strict=True)], teams
            )
    teams: dict[int, bool] = {}
    for entry, won in zip(entries, winners, strict=True):
        if entry.team is not None and teams.setdefault(entry.team, won) != won:
            raise ResultError(
                _("Partners share their result: team %(team)d has winners and losers.")
                % {"team": entry.team}
            )
    return [
        Outcome(entry.score, rank, bool(won), entry.team)
        for entry, rank, won in zip(entries, ranks, winners, strict=True)
    ]


def _ranks(keys: Sequence, teams: Sequence[int | None] | None = None) -> list[int]:
    """Competition ranks of the keys, lowest key first: equal keys share a rank (1, 1, 3).
    Partners (``teams``) are one side and count once: two teams of two rank 1 and 2."""
    teams = teams or [None] * len(keys)
    sides: dict[object, object] = {}
    for index, (key, team) in enumerate(zip(keys, teams, strict=True)):
        sides.setdefault(index if team is None else ("team", team), key)
    return [1 + sum(other < key for other in sides.values()) for key in keys]
