"""Clubs and their people: a club and its settings, its players, its invite links, who joins and
who is taken out."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .. import names as naming
from ..models import (
    CLUB_NAME_MAX,
    INVITE_LIFETIME,
    PLAYER_NAME_MAX,
    AuditEntry,
    Club,
    ClubInvite,
    Membership,
    Player,
    validate_time_zone,
)
from .audit import record_audit
from .errors import ServiceError
from .vetting import refuse_look_alike, vetted_name


@transaction.atomic
def create_club(*, name: str, owner: AbstractBaseUser) -> Club:
    """A new club, owned by ``owner``. Club names need not be unique: a refusal would tell
    anyone which clubs exist, and every club is found by its id."""
    name = vetted_name(
        name,
        limit=CLUB_NAME_MAX,
        missing=_("A club needs a name."),
        too_long=_("A club's name is at most %(max)d characters."),
    )
    club = Club.objects.create(name=name)
    Membership.objects.create(club=club, user=owner, role=Membership.Role.OWNER)
    return club


@transaction.atomic
def update_club_settings(*, club: Club, time_zone: str, by: AbstractBaseUser | None) -> Club:
    """Change a club's settings (its time zone); the audit keeps what they were."""
    validate_time_zone(time_zone)
    club = Club.objects.select_for_update().get(pk=club.pk)
    before = {"time_zone": club.time_zone}
    club.time_zone = time_zone
    club.save(update_fields=["time_zone"])
    if before["time_zone"] != time_zone:
        record_audit(
            club_id=club.pk,
            action=AuditEntry.Action.CLUB_EDIT,
            by=by,
            object_kind="club",
            object_id=club.pk,
            summary=f"{before['time_zone']} → {time_zone}",
            data={"before": before, "after": {"time_zone": time_zone}},
        )
    return club


def _name_taken(name: str) -> ServiceError:
    return ServiceError(_("There is already a player named “%(name)s”.") % {"name": name})


def _player_name(name: str) -> str:
    return vetted_name(
        name,
        limit=PLAYER_NAME_MAX,
        missing=_("A player needs a name."),
        too_long=_("A player's name is at most %(max)d characters."),
    )


@transaction.atomic
def add_player(
    *, club: Club, name: str, user: AbstractBaseUser | None = None, guest: bool = False
) -> Player:
    """A new player of the club; ``guest`` for someone added at the table (start-a-play).

    Names are compared in their one spelling, and a name that would render like another
    player's (Cyrillic "Аna" beside "Ana") is refused."""
    name = _player_name(name)
    if Player.objects.filter(club=club, name=name).exists():
        raise _name_taken(name)
    existing = list(Player.objects.filter(club=club).values_list("name", flat=True))
    # A name stored before names were normalised ("Ana" + a zero-width space) is "Ana" too.
    if any(other != name and naming.normalise(other) == name for other in existing):
        raise _name_taken(name)
    refuse_look_alike(name, existing)
    try:
        # Two people adding the same name at once both pass the check above: the unique
        # constraint decides, and the loser is told, as if the name had been taken earlier.
        with transaction.atomic():
            return Player.objects.create(club=club, name=name, user=user, is_guest=guest)
    except IntegrityError:
        raise _name_taken(name)


@transaction.atomic
def delete_player(*, player: Player, by: AbstractBaseUser) -> None:
    """Delete a player who never took a seat; one with plays is kept (their results need them)."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    plays = player.seats.count()
    if plays:
        raise ServiceError(
            ngettext(
                "%(name)s has a seat in %(count)d play, so cannot be deleted: "
                "the play's results need them.",
                "%(name)s has seats in %(count)d plays, so cannot be deleted: "
                "those plays' results need them.",
                plays,
            )
            % {"name": player.name, "count": plays}
        )
    record_audit(
        club_id=player.club_id,
        action=AuditEntry.Action.PLAYER_DELETE,
        by=by,
        object_kind="player",
        object_id=player.pk,
        summary=player.name,
        data={"name": player.name, "user": player.user_id},
    )
    player.delete()


@transaction.atomic
def create_invite(
    *,
    club: Club,
    by: AbstractBaseUser,
    max_uses: int = 1,
    lifetime: datetime.timedelta | None = None,
) -> ClubInvite:
    """A new invite link for ``club``: ``max_uses`` people may join with it until it expires."""
    if not 1 <= max_uses <= 100:
        raise ServiceError(_("An invite link is for 1 to 100 people."))
    now = timezone.now()
    invite = ClubInvite.objects.create(
        club=club,
        created_by=by,
        created_at=now,
        expires_at=now + (lifetime or INVITE_LIFETIME),
        max_uses=max_uses,
    )
    record_audit(
        club_id=club.pk,
        action=AuditEntry.Action.MEMBER_INVITE,
        by=by,
        object_kind="invite",
        object_id=invite.pk,
        summary=f"#{invite.pk} ({invite.max_uses}×, → {invite.expires_at:%Y-%m-%d %H:%M} UTC)",
        data={"max_uses": max_uses, "expires_at": invite.expires_at.isoformat()},
    )
    return invite


@transaction.atomic
def revoke_invite(*, invite: ClubInvite, by: AbstractBaseUser) -> ClubInvite:
    invite = ClubInvite.objects.select_for_update().get(pk=invite.pk)
    if not invite.revoked:
        invite.revoked = True
        invite.save(update_fields=["revoked"])
        record_audit(
            club_id=invite.club_id,
            action=AuditEntry.Action.INVITE_REVOKE,
            by=by,
            object_kind="invite",
            object_id=invite.pk,
            summary=f"#{invite.pk}",
            data={"uses": invite.uses, "max_uses": invite.max_uses},
        )
    return invite


@transaction.atomic
def join_club(*, invite: ClubInvite, user: AbstractBaseUser) -> Membership:
    """Make ``user`` a member of the invite's club, using the link once; or refuse."""
    # Locked, so that two people racing for the last use of a link cannot both get in.
    invite = ClubInvite.objects.select_for_update().select_related("club").get(pk=invite.pk)
    if Membership.objects.filter(club_id=invite.club_id, user=user).exists():
        raise ServiceError(_("You are already a member of this club."))
    refusal = invite.refusal()
    if refusal is not None:
        raise ServiceError(refusal)
    membership = Membership.objects.create(
        club_id=invite.club_id, user=user, role=Membership.Role.MEMBER
    )
    invite.uses += 1
    invite.save(update_fields=["uses"])
    record_audit(
        club_id=invite.club_id,
        action=AuditEntry.Action.MEMBER_JOIN,
        by=user,
        object_kind="membership",
        object_id=membership.pk,
        summary=user.get_username(),
        data={"invite": invite.pk, "user": user.pk},
    )
    return membership


@transaction.atomic
def remove_member(*, membership: Membership, by: AbstractBaseUser) -> None:
    """Take a member (or an owner) out of the club; a club always keeps at least one owner."""
    # Lock the club's owners, so that two owners removing each other cannot leave none.
    owners = list(
        Membership.objects.select_for_update()
        .filter(club_id=membership.club_id, role=Membership.Role.OWNER)
        .values_list("pk", flat=True)
    )
    membership = Membership.objects.select_related("user").get(pk=membership.pk)
    if membership.role == Membership.Role.OWNER and owners == [membership.pk]:
        raise ServiceError(_("The club's last owner cannot be removed."))
    record_audit(
        club_id=membership.club_id,
        action=AuditEntry.Action.MEMBER_REMOVE,
        by=by,
        object_kind="membership",
        object_id=membership.pk,
        summary=membership.user.get_username(),
        data={"user": membership.user_id, "role": membership.role},
    )
    membership.delete()
