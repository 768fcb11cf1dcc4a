"""Who may see what: one helper per object kind, used by every view.

Everything belongs to a club and only its members see it; anyone else gets 404 (not 403), so
an outsider cannot even learn that an object exists.
"""

from __future__ import annotations

import functools

from django.db import connection
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from .models import Club, ClubInvite, GameNight, Membership, NightShare, Play, Player
from .sqlrows import Columns, column, instances, join, quoted, storable_key


def _user_id(request: HttpRequest) -> int:
    if not request.user.is_authenticated:
        raise Http404
    return request.user.pk


def get_club(request: HttpRequest, club_id: int) -> Club:
    return get_object_or_404(Club, pk=club_id, memberships__user_id=_user_id(request))


def get_owned_club(request: HttpRequest, club_id: int) -> Club:
    return get_object_or_404(
        Club,
        pk=club_id,
        memberships__user_id=_user_id(request),
        memberships__role=Membership.Role.OWNER,
    )


def get_night(request: HttpRequest, night_id: int) -> GameNight:
    return get_object_or_404(
        GameNight.objects.select_related("club"),
        pk=night_id,
        club__memberships__user_id=_user_id(request),
    )


@functools.cache
def _play_sql() -> tuple[str, Columns, Columns, Columns]:
    """get_play's statement, written by hand (games.sqlrows: every move entry runs it), with
    the columns of its play, club and night."""
    play, club, night = Columns.of(Play), Columns.of(Club), Columns.of(GameNight)
    plays, members = Play._meta.db_table, Membership._meta.db_table
    sql = (
        f"SELECT {play.sql}, {club.sql}, {night.sql} FROM {quoted(plays)}"
        + join(Club, column(plays, "club_id"))
        + join(GameNight, column(plays, "night_id"))
        + f" INNER JOIN {quoted(members)}"
        f" ON {column(members, 'club_id')} = {column(plays, 'club_id')}"
        f" WHERE {column(plays, 'id')} = %s AND {column(members, 'user_id')} = %s"
    )
    return sql, play, club, night


def get_play(request: HttpRequest, play_id: int) -> Play:
    """The play, its club and its night, if the user is a member of its club (one query)."""
    if not storable_key(Play, play_id):
        raise Http404
    play = member_play(_user_id(request), play_id)
    if play is None:
        raise Http404
    return play


def member_play(user_id: int, play_id: int) -> Play | None:
    """``get_play`` for ``user_id``, outside a request (a member's stream: games.views.live):
    None if they are not a member of its club, or it is gone."""
    if not storable_key(Play, play_id):
        return None
    sql, play_columns, club_columns, night_columns = _play_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, [play_id, user_id])
        row = cursor.fetchone()
    if row is None:
        return None
    (play,) = instances(Play, play_columns, [row])
    (play.club,) = instances(Club, club_columns, [row], start=len(play_columns))
    (play.night,) = instances(
        GameNight, night_columns, [row], start=len(play_columns) + len(club_columns)
    )
    return play


def get_player(request: HttpRequest, player_id: int) -> Player:
    return get_object_or_404(
        Player.objects.select_related("club"),
        pk=player_id,
        club__memberships__user_id=_user_id(request),
    )


def is_owner(request: HttpRequest, club: Club) -> bool:
    return Membership.objects.filter(
        club=club, user_id=_user_id(request), role=Membership.Role.OWNER
    ).exists()


# Owners only: invites, memberships, the audit, deletions ------------------------------------


def require_owner(request: HttpRequest, club: Club) -> None:
    """Owner-only pages answer 404 to members too, as to anyone outside the club."""
    if not is_owner(request, club):
        raise Http404


def get_owned_invite(request: HttpRequest, invite_id: int) -> ClubInvite:
    return get_object_or_404(
        ClubInvite.objects.select_related("club"),
        pk=invite_id,
        club__memberships__user_id=_user_id(request),
        club__memberships__role=Membership.Role.OWNER,
    )


def get_owned_membership(request: HttpRequest, membership_id: int) -> Membership:
    return get_object_or_404(
        Membership.objects.select_related("club", "user"),
        pk=membership_id,
        club__memberships__user_id=_user_id(request),
        club__memberships__role=Membership.Role.OWNER,
    )


def get_invite_by_token(request: HttpRequest, token: str) -> ClubInvite:
    """The link's token is the secret: any signed-in person who holds it may open it."""
    _user_id(request)
    return get_object_or_404(ClubInvite.objects.select_related("club"), token=token)


# Read-only links: the token is the only key, and it opens one night ---------------------------


def get_shared_night(token: str) -> GameNight:
    """The night a working read-only link opens, for anyone who holds it (no account needed);
    404 once the owner has withdrawn it."""
    return get_object_or_404(
        GameNight.objects.select_related("club"), shares__token=token, shares__revoked_at=None
    )


def get_shared_play(token: str, play_id: int) -> Play:
    """A play of the night a working link opens; any other play is a 404 through it."""
    return get_object_or_404(
        Play.objects.select_related("club", "night"),
        pk=play_id,
        night__shares__token=token,
        night__shares__revoked_at=None,
    )


def get_owned_share(request: HttpRequest, share_id: int) -> NightShare:
    return get_object_or_404(
        NightShare.objects.select_related("night__club"),
        pk=share_id,
        night__club__memberships__user_id=_user_id(request),
        night__club__memberships__role=Membership.Role.OWNER,
    )


# Live streams (games.views.live): async, and checked again on every wake-up ------------------


async def watcher_id(request: HttpRequest) -> int:
    """The signed-in person opening a stream; anyone else gets 404, as for the pages."""
    user = await request.auser()
    if not user.is_authenticated:
        raise Http404
    return user.pk


def watched_play(user_id: int, play_id: int):
    """The play's id and version, if ``user_id`` may still see it (a member of its club): no
    row once the member is removed or the play deleted, which ends the stream. A query of one
    row (read in whichever thread the stream has: games.views.live)."""
    return Play.objects.filter(pk=play_id, club__memberships__user_id=user_id).values_list(
        "id", "version"
    )


def watched_night(user_id: int, night_id: int):
    """The night's plays and their versions, if ``user_id`` may still see the night: a row
    (play id, version) per play, one row (None, None) for a night without plays, no row for a
    night out of reach. The stream counts its version from them (``night_version``) and keeps
    them up to date from the notifications (games.live)."""
    return GameNight.objects.filter(pk=night_id, club__memberships__user_id=user_id).values_list(
        "plays__id", "plays__version"
    )


def watched_shared_night(token: str):
    """``watched_night`` through a read-only link: no row once the link is withdrawn."""
    return GameNight.objects.filter(shares__token=token, shares__revoked_at=None).values_list(
        "plays__id", "plays__version"
    )


def versions_of(rows: list[tuple[int | None, int | None]]) -> dict[int, int] | None:
    """The plays' versions in ``watched_play``'s or ``watched_night``'s rows, by play id (None:
    no row, no access)."""
    if not rows:
        return None
    return {play_id: version for play_id, version in rows if play_id is not None}


def play_version(versions: dict[int, int]) -> int:
    """A play's version, as its stream tells it."""
    return max(versions.values(), default=0)


def night_version(versions: dict[int, int]) -> int:
    """A version for a night's plays as a whole: the sum of their versions plus their count,
    which changes with every change, a new play and a deleted one (the night's pages are made
    at the same number: games.views.clubs, sheets, shares)."""
    return sum(versions.values()) + len(versions)
