"""A play created whole from a ``gamelog/1`` document (with its missing players and night), or
refused whole."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from referee import judge

from .. import names as naming
from .. import selectors
from ..models import PLAYER_NAME_MAX, AuditEntry, Club, GameNight, Move, Play, Player, Seat
from .audit import audit_play
from .errors import IllegalMoveError, ServiceError
from .playrow import refresh_results
from .vetting import refuse_look_alike, storable


def _imported_play_time(night: GameNight) -> datetime.datetime:
    """When an imported play took place: now for tonight's night, else that night's evening."""
    now = timezone.now()
    if night.date >= timezone.localdate(now):
        return now
    evening = datetime.datetime.combine(night.date, datetime.time(20, 0))
    return timezone.make_aware(evening) + datetime.timedelta(seconds=night.plays.count())


@transaction.atomic
def import_log(
    *,
    club: Club,
    log: Any,
    night_date: datetime.date | None = None,
    night: GameNight | None = None,
    by: AbstractBaseUser | None = None,
) -> Play:
    """Create a play (and missing players) from a ``gamelog/1`` document, or refuse it whole.

    The referee judges the log first; an illegal log is refused with the referee's message.
    The play goes into ``night``, or the club's first night on ``night_date`` (default: today),
    created if there is none.
    """
    if night is not None and night.club_id != club.pk:
        raise ServiceError(_("That game night belongs to another club."))
    # The referee reads any JSON value without fail, and keeps only what it understood: what is
    # stored (the names, the canonical setup and moves) is checked, once, and nothing else. An
    # unknown field, however big, is ignored as the format says, and never walked (issue 29).
    judgement = judge(log)
    if not judgement.legal:
        raise IllegalMoveError(judgement)
    log_names: list[str] = log["players"]
    storable([log_names, judgement.setup, judgement.moves])
    existing = list(Player.objects.filter(club=club).values_list("name", flat=True))
    players = []
    for name in log_names:
        player = Player.objects.filter(club=club, name=name).first()
        if player is None:
            # The log's names are its seats' names: a new player takes the name exactly as
            # written, so it must already be in its one spelling.
            if (
                len(name) > PLAYER_NAME_MAX
                or naming.has_lone_surrogate(name)
                or name != naming.normalise(name)
            ):
                raise ServiceError(
                    _(
                        "“%(name)s” cannot be a player's name here (at most %(max)d characters, "
                        "no invisible characters, no leading, trailing or double spaces)."
                    )
                    % {"name": name, "max": PLAYER_NAME_MAX}
                )
            refuse_look_alike(name, existing)
            try:
                with transaction.atomic():  # another import may be adding the same name
                    player = Player.objects.create(club=club, name=name)
            except IntegrityError:
                player = Player.objects.get(club=club, name=name)
            existing.append(name)
        players.append(player)
    if night is None:
        date = night_date or timezone.localdate()
        night = GameNight.objects.filter(club=club, date=date).order_by("id").first()
        if night is None:
            night = GameNight.objects.create(club=club, date=date)
    play = Play.objects.create(
        club=club,
        night=night,
        game=judgement.game,
        # What the referee understood (known keys, canonical names), never the raw input.
        setup=judgement.setup,
        started_at=_imported_play_time(night),
        created_by=by,
    )
    if judgement.status == "finished":
        # The log has no clock: a past night's play is dated that evening, not today.
        play.ended_at = play.started_at
    Seat.objects.bulk_create(
        Seat(play=play, position=index, player=player) for index, player in enumerate(players)
    )
    moves = judgement.moves
    Move.objects.bulk_create(
        Move(play=play, seq=index, data=move, entered_by=by) for index, move in enumerate(moves)
    )
    refresh_results(play, judgement, position=(len(moves), selectors.position(range(len(moves)))))
    audit_play(play, AuditEntry.Action.PLAY_IMPORT, by=by, moves=len(moves))
    return play
