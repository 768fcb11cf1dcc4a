"""Game nights and their plays: a night and its read-only link; a play started, abandoned,
resumed or deleted."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from referee import GAMES, Judgement, judge

from .. import live, ratings, selectors, verdicts
from .. import names as naming
from ..gamelog import play_to_log
from ..models import (
    NOTES_MAX,
    PLACE_MAX,
    AuditEntry,
    Club,
    GameNight,
    NightShare,
    Play,
    Player,
    Seat,
)
from .audit import audit_play, record_audit
from .errors import ServiceError
from .playrow import advance_version, lock_play, refresh_results, rejudge
from .vetting import limited, storable


def _night_text(place: str, notes: str) -> tuple[str, str]:
    """A game night's place (one line) and notes, cleaned and within their limits."""
    place = " ".join(naming.clean_text(place).split())
    notes = naming.clean_text(notes)
    limited(place, PLACE_MAX, _("The place is at most %(max)d characters."))
    limited(notes, NOTES_MAX, _("The notes are at most %(max)d characters (these are %(count)d)."))
    return place, notes


@transaction.atomic
def create_game_night(
    *, club: Club, date: datetime.date, place: str = "", notes: str = ""
) -> GameNight:
    place, notes = _night_text(place, notes)
    return GameNight.objects.create(club=club, date=date, place=place, notes=notes)


@transaction.atomic
def update_game_night(
    *,
    night: GameNight,
    date: datetime.date,
    place: str = "",
    notes: str = "",
    by: AbstractBaseUser | None = None,
) -> GameNight:
    """Change a game night's date, place or notes; the audit keeps what it was."""
    place, notes = _night_text(place, notes)
    night = GameNight.objects.select_for_update().get(pk=night.pk)
    before = {"date": night.date.isoformat(), "place": night.place, "notes": night.notes}
    night.date, night.place, night.notes = date, place, notes
    night.save(update_fields=["date", "place", "notes"])
    after = {"date": night.date.isoformat(), "place": night.place, "notes": night.notes}
    if after != before:
        record_audit(
            club_id=night.club_id,
            action=AuditEntry.Action.NIGHT_EDIT,
            by=by,
            object_kind="night",
            object_id=night.pk,
            summary=f"{night.date.isoformat()} {night.place}".strip(),
            data={"before": before, "after": after},
        )
    return night


def _audit_share(share: NightShare, action: str, *, by: AbstractBaseUser) -> AuditEntry:
    night = share.night
    return record_audit(
        club_id=night.club_id,
        action=action,
        by=by,
        object_kind="night",
        object_id=night.pk,
        summary=f"{night.date:%Y-%m-%d} (#{share.pk})",
        data={"share": share.pk},
    )


@transaction.atomic
def share_night(*, night: GameNight, by: AbstractBaseUser) -> NightShare:
    """The night's read-only link: the working one if there is one, else a new one."""
    # The night's row is locked so that two owners asking at once make one link, not two.
    GameNight.objects.select_for_update().filter(pk=night.pk).first()
    share = NightShare.objects.active().filter(night=night).first()
    if share is not None:
        return share
    share = NightShare.objects.create(night=night, created_by=by)
    _audit_share(share, AuditEntry.Action.NIGHT_SHARE, by=by)
    return share


@transaction.atomic
def revoke_share(*, share: NightShare, by: AbstractBaseUser) -> NightShare:
    """Withdraw a read-only link: its pages answer 404 and its open streams end at once."""
    share = NightShare.objects.select_for_update().select_related("night").get(pk=share.pk)
    if share.revoked_at is None:
        share.revoked_at = timezone.now()
        share.save(update_fields=["revoked_at"])
        _audit_share(share, AuditEntry.Action.SHARE_REVOKE, by=by)
        # Wakes the night's streams, which read again and find the link gone (games.access).
        live.notify(share.night_id, 0)
    return share


@transaction.atomic
def start_play(
    *,
    night: GameNight,
    game: str,
    players: Sequence[Player],
    setup: Any,
    by: AbstractBaseUser | None = None,
    started_at: datetime.datetime | None = None,
) -> Play:
    """Start a play with its seats in order; the referee checks the setup first."""
    if game not in GAMES:
        raise ServiceError(_("Unknown game “%(game)s”.") % {"game": game})
    if any(player.club_id != night.club_id for player in players):
        raise ServiceError(_("Every player must belong to the club."))
    if len({player.pk for player in players}) != len(players):
        raise ServiceError(_("A player can take only one seat."))
    storable(setup)
    names = [player.name for player in players]
    verdict = judge(
        {"format": "gamelog/1", "game": game, "players": names, "setup": setup, "moves": []}
    )
    if not verdict.legal:
        raise ServiceError(verdicts.explain(verdict, where=False))
    play = Play.objects.create(
        club=night.club,
        night=night,
        game=game,
        # What the referee understood (known keys, canonical names), never the raw input.
        setup=verdict.setup,
        started_at=started_at or timezone.now(),
        created_by=by,
    )
    Seat.objects.bulk_create(
        Seat(play=play, position=index, player=player) for index, player in enumerate(players)
    )
    refresh_results(play, verdict, position=(0, selectors.NO_MOVE))
    audit_play(play, AuditEntry.Action.PLAY_START, by=by, setup=play.setup)
    live.notify(night.pk, play.pk)  # the night's page shows it
    return play


@transaction.atomic
def abandon_play(
    *, play: Play, by: AbstractBaseUser | None = None, version: int | None = None
) -> Play:
    play = lock_play(play, version)
    if play.kind == Play.Kind.RESULT:
        raise ServiceError(_("This play was entered as a result: there is nothing to abandon."))
    # A finished play's results and ratings stand; an abandoned one keeps when it was abandoned.
    if play.status == Play.Status.FINISHED:
        raise ServiceError(_("A finished play cannot be abandoned."))
    if play.status == Play.Status.ABANDONED:
        raise ServiceError(_("This play was already abandoned."))
    play.status = Play.Status.ABANDONED
    play.ended_at = timezone.now()
    play.kept = ""  # no move until it is resumed, which judges its log again
    play.save(update_fields=["status", "ended_at", "kept"])
    advance_version(play)
    audit_play(play, AuditEntry.Action.PLAY_ABANDON, by=by)
    return play


@transaction.atomic
def resume_play(
    *, play: Play, by: AbstractBaseUser | None = None, version: int | None = None
) -> Judgement:
    """Take back abandoning a play (the owner's call: the view checks it): moves can be entered
    again. Its results are judged again from its log, so the status, and the ratings should the
    log be finished, follow the log rather than whatever the play said when it was abandoned."""
    play = lock_play(play, version)
    if play.status != Play.Status.ABANDONED:
        raise ServiceError(_("Only an abandoned play can be resumed."))
    play.status = Play.Status.IN_PROGRESS  # rejudge then sets it, and ended_at, from the log
    advance_version(play)
    judgement = rejudge(play)
    audit_play(play, AuditEntry.Action.PLAY_RESUME, by=by)
    return judgement


@transaction.atomic
def delete_play(*, play: Play, by: AbstractBaseUser, version: int | None = None) -> None:
    """Delete a play with its seats and moves; the audit keeps its whole log and results.

    ``version``: the one the confirmation was shown at — a play that changed since is not
    deleted unseen."""
    play = lock_play(play, version)
    seats = play.seats.select_related("player").order_by("position")
    audit_play(
        play,
        AuditEntry.Action.PLAY_DELETE,
        by=by,
        status=play.status,
        night=play.night.date.isoformat(),
        results=[
            {"player": seat.player.name, "score": seat.shown_score, "rank": seat.rank}
            for seat in seats
        ],
        # A result play has no log: its results above are the whole of it.
        log=None if play.kind == Play.Kind.RESULT else play_to_log(play),
    )
    live.notify(play.night_id, play.pk)  # its watchers find it gone and stop
    if play.status == Play.Status.FINISHED:
        # The plays rated after it were rated with it: rate them again without it (and take
        # what it counted out of the head-to-head records) before it goes.
        ratings.rebuild_club(play.club_id, since=play.ended_at, excluding=play.pk)
    play.delete()
