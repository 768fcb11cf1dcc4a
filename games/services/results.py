"""Any game's result: the club's catalogue of games the referee does not know, and a play
entered as its result (games.results checks it), stored whole or refused whole.

A result play has no move log: its entered result is its source of truth. It is stored as a
``Play`` of kind ``result`` with its seats' scores, ranks and wins, so that every statistic
(running totals, ratings, head-to-head, the night's summary) reads it as it reads a refereed
play, through the same rows.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from referee import GAMES

from .. import live, ratings, results
from ..models import (
    GAME_NAME_MAX,
    NOTES_MAX,
    RESULT_MAX_PLAYERS,
    AuditEntry,
    CatalogueGame,
    Club,
    GameNight,
    Play,
    Player,
    Seat,
    is_catalogue_key,
)
from .audit import audit_play, record_audit
from .errors import ServiceError
from .playrow import advance_version
from .vetting import limited, vetted_name

#: The longest a play may last, in minutes (a week-end's campaign, not a typo of a year).
DURATION_MAX = 7 * 24 * 60


def rule_of(game: str, catalogue_game: CatalogueGame | None = None) -> results.Rule:
    """How a result of ``game`` reads: a catalogue game's own rule; one of the referee's games
    (a result brought in from BG Stats) by what the referee says of it."""
    if catalogue_game is not None:
        return results.Rule(
            catalogue_game.result,
            scored=catalogue_game.scored,
            teams=catalogue_game.teams,
            min_players=catalogue_game.min_players,
            max_players=catalogue_game.max_players,
        )
    engine = GAMES[game]
    if engine.cooperative:
        return results.Rule(results.COOPERATIVE, scored=False, teams=True)
    return results.Rule(results.HIGHEST, teams=True)


def game_of(club: Club, game: str) -> tuple[str, CatalogueGame | None]:
    """(``Play.game``, catalogue game) for a game named by its key: one of the referee's, or
    one of this club's catalogue; anything else is refused."""
    if game in GAMES:
        return game, None
    if is_catalogue_key(game):
        found = CatalogueGame.objects.filter(club=club, pk=int(game.split("-", 1)[1])).first()
        if found is not None:
            return found.key, found
    raise ServiceError(_("Unknown game “%(game)s”.") % {"game": game})


@transaction.atomic
def add_catalogue_game(
    *,
    club: Club,
    name: str,
    result: str = CatalogueGame.Result.HIGHEST,
    scored: bool | None = None,
    teams: bool = False,
    min_players: int = 1,
    max_players: int = RESULT_MAX_PLAYERS,
    bgg_id: int | None = None,
    bgstats_uuid: str = "",
    by: AbstractBaseUser | None = None,
) -> CatalogueGame:
    """A game added to the club's catalogue; a name it already has (in any case) is that game.
    ``scored``: whether a co-operative game keeps a score (by default it does not; the other
    kinds follow from ``result``)."""
    name = vetted_name(
        name,
        limit=GAME_NAME_MAX,
        missing=_("A game needs a name."),
        too_long=_("A game's name is at most %(max)d characters."),
    )
    existing = CatalogueGame.objects.filter(club=club, name__iexact=name).first()
    if existing is not None:
        return existing
    if result not in CatalogueGame.Result.values:
        raise ServiceError(_("Choose how a result of this game reads."))
    if not 1 <= min_players <= max_players <= RESULT_MAX_PLAYERS:
        raise ServiceError(
            _("A game is played by 1 to %(max)d players.") % {"max": RESULT_MAX_PLAYERS}
        )
    if bgg_id is not None and not 0 < bgg_id < 2**31:
        raise ServiceError(_("A BoardGameGeek id is a whole number above 0."))
    try:
        with transaction.atomic():  # another member may be adding the same name
            game = CatalogueGame.objects.create(
                club=club,
                name=name,
                result=result,
                scored=bool(scored) or result in (results.HIGHEST, results.LOWEST),
                teams=teams,
                min_players=min_players,
                max_players=max_players,
                bgg_id=bgg_id,
                bgstats_uuid=bgstats_uuid[:36],
            )
    except IntegrityError:
        return CatalogueGame.objects.get(club=club, name__iexact=name)
    record_audit(
        club_id=club.pk,
        action=AuditEntry.Action.GAME_ADD,
        by=by,
        object_kind="game",
        object_id=game.pk,
        summary=game.name,
        data={"result": game.result, "teams": game.teams},
    )
    return game


@dataclass(frozen=True)
class SeatResult:
    """A seat of a result as entered: the player, then what the game's result asks of it."""

    player: Player
    score: Decimal | None = None
    place: int | None = None
    team: int | None = None


def play_time(night: GameNight, started_at: datetime.datetime | None) -> datetime.datetime:
    """When a play without a given start began: now on tonight's night, else that evening."""
    if started_at is not None:
        return started_at
    zone = night.club.zone
    now = timezone.now()
    if night.date >= timezone.localdate(now, timezone=zone):
        return now
    return datetime.datetime.combine(night.date, datetime.time(20, 0), tzinfo=zone)


def store_result(
    *,
    night: GameNight,
    game: str,
    catalogue_game: CatalogueGame | None,
    seats: Sequence[SeatResult],
    won: bool | None = None,
    winners: Sequence[bool] | None = None,
    started_at: datetime.datetime,
    duration_minutes: int | None = None,
    notes: str = "",
    ignored: bool = False,
    bgstats_uuid: str = "",
    by: AbstractBaseUser | None = None,
) -> Play:
    """The play and its seats written, its result checked first (refused whole, as a
    ServiceError); no rating, audit nor notice: the caller's (enter_result for one play, the
    BG Stats import once for all its plays)."""
    if len({seat.player.pk for seat in seats}) != len(seats):
        raise ServiceError(_("A player can take only one seat."))
    if any(seat.player.club_id != night.club_id for seat in seats):
        raise ServiceError(_("Every player must belong to the club."))
    if duration_minutes is not None and not 0 <= duration_minutes <= DURATION_MAX:
        raise ServiceError(_("A play lasts at most %(max)d minutes.") % {"max": DURATION_MAX})
    limited(notes, NOTES_MAX, _("The notes are at most %(max)d characters (these are %(count)d)."))
    try:
        outcomes = results.judge_result(
            rule_of(game, catalogue_game),
            [
                results.Entry(
                    None if seat.score is None else results.checked_score(Decimal(seat.score)),
                    seat.place,
                    seat.team,
                )
                for seat in seats
            ],
            won=won,
            winners=winners,
        )
    except results.ResultError as exc:
        raise ServiceError(exc.message) from None
    ended_at = started_at + datetime.timedelta(minutes=duration_minutes or 0)
    play = Play.objects.create(
        club_id=night.club_id,
        night=night,
        game=game,
        kind=Play.Kind.RESULT,
        catalogue_game=catalogue_game,
        status=Play.Status.IGNORED if ignored else Play.Status.FINISHED,
        started_at=started_at,
        ended_at=ended_at,
        duration_minutes=duration_minutes,
        notes=notes,
        bgstats_uuid=bgstats_uuid,
        created_by=by,
        details={"won": won} if won is not None else {},
    )
    Seat.objects.bulk_create(
        Seat(
            play=play,
            position=index,
            player=seat.player,
            score=results.whole(outcome.score),
            entered_score=outcome.score,
            rank=outcome.rank,
            is_winner=outcome.winner,
            team=outcome.team,
        )
        for index, (seat, outcome) in enumerate(zip(seats, outcomes, strict=True))
    )
    return play


@transaction.atomic
def enter_result(
    *,
    night: GameNight,
    game: str,
    seats: Sequence[SeatResult],
    won: bool | None = None,
    started_at: datetime.datetime | None = None,
    duration_minutes: int | None = None,
    notes: str = "",
    by: AbstractBaseUser | None = None,
) -> Play:
    """A finished play of ``game`` (a key: "punto", "game-12") entered as its result, checked
    as a referee would (games.results); rated and counted at once, or refused whole."""
    game, catalogue_game = game_of(night.club, game)
    if catalogue_game is None:
        # The referee's games are entered move by move; only an import brings their results.
        raise ServiceError(
            _("%(game)s is refereed move by move: start a play of it instead.")
            % {"game": GAMES[game].title}
        )
    play = store_result(
        night=night,
        game=game,
        catalogue_game=catalogue_game,
        seats=seats,
        won=won,
        started_at=play_time(night, started_at),
        duration_minutes=duration_minutes,
        notes=notes,
        by=by,
    )
    ratings.refresh_for_play(play)
    audit_play(
        play,
        AuditEntry.Action.RESULT_ENTER,
        by=by,
        names=[seat.player.name for seat in seats],
        results=[
            {
                "player": seat.player.name,
                "score": results.score_text(seat.entered_score),
                "rank": seat.rank,
                "winner": seat.is_winner,
            }
            for seat in play.seats.select_related("player").order_by("position")
        ],
    )
    live.notify(night.pk, play.pk)  # the night's page shows it
    return play


@transaction.atomic
def set_duration(*, play: Play, minutes: int | None, by: AbstractBaseUser | None = None) -> Play:
    """Correct how long a finished play lasted (``None``: back to its first-to-last-move length
    for a refereed play, unknown for a result play). The ratings follow when it moves a result
    play's end (a result play ends ``minutes`` after its start)."""
    if minutes is not None and not 0 <= minutes <= DURATION_MAX:
        raise ServiceError(_("A play lasts at most %(max)d minutes.") % {"max": DURATION_MAX})
    play = Play.objects.select_for_update().get(pk=play.pk)
    if play.status not in (Play.Status.FINISHED, Play.Status.IGNORED):
        raise ServiceError(_("A play's duration is corrected once it is finished."))
    before = play.duration_minutes
    play.duration_minutes = minutes
    fields = ["duration_minutes"]
    if play.kind == Play.Kind.RESULT and play.ended_at is not None:
        play.ended_at = play.started_at + datetime.timedelta(minutes=minutes or 0)
        fields.append("ended_at")
    play.save(update_fields=fields)
    if "ended_at" in fields:
        ratings.refresh_for_play(play)
    audit_play(play, AuditEntry.Action.PLAY_DURATION, by=by, before=before, after=minutes)
    # The play changed: its version moves on, which tells the pages that show it (the night's
    # cards show its duration) and makes a form of before stale.
    advance_version(play)
    return play
