"""``{{ play|bgstats_push }}``: BG Stats' "add this play" link of a finished play (games.bgstats.
writer.push_link), "" for any other. ``{{ play|bgstats_push:seats }}``: from the seats the page
has read already (their players joined), with no statement of its own."""

from django import template

from ..bgstats.writer import push_link
from ..models import Play, Seat

register = template.Library()


@register.filter
def bgstats_push(play: Play, seats: list[Seat] | None = None) -> str:
    if play.status != Play.Status.FINISHED:
        return ""
    return push_link(play, seats)
