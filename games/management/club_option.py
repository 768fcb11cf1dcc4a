"""``--club``: the club a management command works on, by id or by an unambiguous name.

Club names are not unique (a refusal would tell outsiders which clubs exist), so a name may
match several clubs: the command then stops and lists them, for the operator to pick an id.
"""

from __future__ import annotations

from django.core.management.base import CommandError

from games.models import Club, Membership
from games.names import has_lone_surrogate, normalise

HELP = "the club's id, or its name if no other club has that name"


def club_from_option(value: str) -> Club:
    """The club ``value`` names: its id, or its name; CommandError if none or several."""
    value = value.strip()
    if has_lone_surrogate(value):  # bytes the terminal's encoding could not read
        raise CommandError(f"--club {value!r} is not valid text")
    is_id = value.isascii() and value.isdigit() and len(value) <= 18
    by_id = Club.objects.filter(pk=int(value)) if is_id else Club.objects.none()
    clubs = list((by_id | Club.objects.filter(name=normalise(value))).order_by("pk")[:21])
    if not clubs:
        raise CommandError(f"no club has the id or the name {value!r}")
    if len(clubs) > 1:
        raise CommandError(
            f"{'more than 20' if len(clubs) > 20 else len(clubs)} clubs answer to {value!r}: "
            "give the id of the one you mean with --club ID.\n" + describe(clubs[:20])
        )
    return clubs[0]


def describe(clubs: list[Club]) -> str:
    """One line per club: id, name, creation date and owners, to tell namesakes apart."""
    owners: dict[int, list[str]] = {}
    for club_id, username in Membership.objects.filter(
        club__in=clubs, role=Membership.Role.OWNER
    ).values_list("club_id", "user__username"):
        owners.setdefault(club_id, []).append(username)
    return "\n".join(
        f"  id {club.pk}: {club.name!r}, created {club.created_at:%Y-%m-%d}, "
        f"owner {', '.join(sorted(owners.get(club.pk, []))) or '-'}"
        for club in clubs
    )
