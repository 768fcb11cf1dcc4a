"""Read-side selectors: player history, leaderboards, head-to-head, game night summaries.

Only finished plays count, anywhere; plays in progress and abandoned plays count nowhere.

- **Wins.** A seat with ``is_winner`` won: a tie for first is a win for each tied player.
- **Cooperative games** (the referee's ``cooperative``: 3-High): the table wins or loses as one
  team. Their plays are counted as team wins and team losses, apart, and never enter a
  competitive win rate, streak, head-to-head or rating.
- **Points.** Best / average / worst score is shown only for games whose score is a points total
  (the referee's ``has_points``: Thricewise and Forget Venice). Punto's score counts rounds won and
  Buntherum's counts cards turned; they measure progress toward the win, not points, and 3-High
  has no per-player score.
- **Head-to-head** (pairwise): in a play you beat everyone ranked below you.
- **Partners** (seats sharing ``Seat.team``: Punto's team play) win or lose together: a team's
  win is a win for both, they are never each other's opponents (head-to-head, nemesis), and
  each beats both opponents when their team wins. Pages name a player's partners.
- **Nemesis and victim**, among opponents sharing at least ``NEMESIS_MIN_PLAYS`` plays: the
  nemesis is the opponent who has beaten you most often; on a tie, the one you have beaten least
  often; still tied, the first by name. The victim ("beaten most") mirrors it: the opponent you
  have beaten most often, then the one who has beaten you least often, then the first by name.
  Nobody is a nemesis who never beat you, nor a victim you never beat.

The rooms: ``rules`` (what every read counts alike), ``standings`` (the leaderboard),
``players`` (a player's page), ``nights`` (a night's summary, a play's rating changes) and
``chart`` (the rating chart's geometry). What the rest of the site uses is named here.
"""

from ..models import ALL_GAMES
from ..ratings import COOPERATIVE_GAMES
from .chart import CHART_MAX_POINTS, draw_rating_chart, rating_chart
from .nights import night_summary, play_rating_changes
from .periods import PeriodLine, period_lines, player_breakdown, years_played
from .players import NEMESIS_MIN_PLAYS, head_to_head, player_summary
from .rules import (
    COMPETITIVE_GAMES,
    POINT_GAMES,
    PROVISIONAL_PLAYS,
    SCOPES,
    GameInfo,
    club_games,
    club_scopes,
    is_rated,
    scope_title,
)
from .standings import SORT_KEYS, leaderboard

__all__ = [
    "ALL_GAMES",
    "CHART_MAX_POINTS",
    "COMPETITIVE_GAMES",
    "COOPERATIVE_GAMES",
    "NEMESIS_MIN_PLAYS",
    "PeriodLine",
    "period_lines",
    "player_breakdown",
    "years_played",
    "POINT_GAMES",
    "PROVISIONAL_PLAYS",
    "SCOPES",
    "SORT_KEYS",
    "GameInfo",
    "club_games",
    "club_scopes",
    "draw_rating_chart",
    "head_to_head",
    "is_rated",
    "leaderboard",
    "night_summary",
    "play_rating_changes",
    "player_summary",
    "rating_chart",
    "scope_title",
]
