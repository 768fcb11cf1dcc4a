"""Ratings and running totals, rebuilt deterministically from a club's finished plays.

One room per job: ``update`` is one Plackett–Luce update (openskill's, in plain floats),
``totals`` the running totals and pair records kept as plays are rated, ``rebuild`` the club's
rows rewritten in play order, ``bulk`` the tables read and written fast for it, ``_native``
(C, built by ``make``; optional) the rebuild's hot loop, to the same rows. The rest of the app
uses only what is named here.
"""

from .rebuild import COOPERATIVE_GAMES, cooperative_games, rebuild_club, refresh_for_play
from .update import INITIAL_MU, INITIAL_SIGMA, MODEL, ordinal, plackett_luce, rate_teams

__all__ = [
    "COOPERATIVE_GAMES",
    "INITIAL_MU",
    "INITIAL_SIGMA",
    "MODEL",
    "cooperative_games",
    "ordinal",
    "plackett_luce",
    "rate_teams",
    "rebuild_club",
    "refresh_for_play",
]
