"""``{{ play|bgstats_push }}``: BG Stats' "add this play" link of a finished play (games.bgstats.
writer.push_link), "" for any other."""

from django import template

from ..bgstats.writer import push_link
from ..models import Play

register = template.Library()


@register.filter
def bgstats_push(play: Play) -> str:
    if play.status != Play.Status.FINISHED:
        return ""
    return push_link(play)
