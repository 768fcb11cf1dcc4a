"""Clubs, their players and game nights, plays and their move logs.

The move log is the source of truth: every score stored here (``Seat.score``, ``Seat.rank``,
``Seat.is_winner``, ``Play.details``) is derived from it by the referee and rewritten, in the
same transaction, whenever the log changes (see ``games.services``).
"""

from __future__ import annotations

import datetime
import secrets
import zoneinfo
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from referee import GAMES

#: A catalogue game's key in ``Play.game`` and in the statistics' scopes: "game-<id>". The
#: referee's games keep their own names, so every statistic reads one column whatever the kind
#: of play (refereed move by move, or entered as a result).
CATALOGUE_PREFIX = "game-"


def is_catalogue_key(value: str) -> bool:
    number = value.removeprefix(CATALOGUE_PREFIX)
    # At most 18 digits: a bigger number is no row's id, and PostgreSQL refuses to compare it.
    return (
        value.startswith(CATALOGUE_PREFIX)
        and number.isascii()
        and number.isdigit()
        and len(number) <= 18
    )


def validate_game(value: str) -> None:
    """A play's game is one the referee knows (referee.registry: adding a game needs no
    migration), or one of the club's catalogue ("game-<id>")."""
    if value not in GAMES and not is_catalogue_key(value):
        raise ValidationError(
            _("Unknown game “%(game)s”."), code="unknown_game", params={"game": value}
        )


def game_menu() -> list[tuple[str, str]]:
    """(name, title) of every game the referee knows, in the registry's order: for menus."""
    return [(name, engine.title) for name, engine in GAMES.items()]


# How long free text may be (forms and services refuse more, with a message): enough for any
# real name or note, and an edited night's audit entry keeps two copies of its notes at most.
CLUB_NAME_MAX = 100
PLAYER_NAME_MAX = 60
PLACE_MAX = 120
NOTES_MAX = 2000


def default_time_zone() -> str:
    """A new club keeps the server's time zone until an owner sets its own."""
    return settings.TIME_ZONE


def time_zones() -> list[str]:
    """Every IANA time zone name, sorted: the choices of a club's time zone."""
    return sorted(zoneinfo.available_timezones())


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(
            _("“%(zone)s” is not a time zone."), code="unknown_zone", params={"zone": value}
        )


class Club(models.Model):
    name = models.CharField(_("name"), max_length=CLUB_NAME_MAX)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    #: the IANA name of the zone the club's pages show times in ("Europe/Paris")
    time_zone = models.CharField(
        _("time zone"), max_length=64, default=default_time_zone, validators=[validate_time_zone]
    )
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="clubs"
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    @property
    def zone(self) -> datetime.tzinfo:
        """The club's time zone (the server's, should the stored name be unknown here)."""
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo(settings.TIME_ZONE)


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        MEMBER = "member", _("member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="one_membership")]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"


class Player(models.Model):
    """A person at the table, maybe linked to a user account.

    A guest is someone added at the table, from the start-a-play form, rather than on the club
    page: a visitor, not one of the club's regular players (account or not).
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=PLAYER_NAME_MAX)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
    )
    is_guest = models.BooleanField(_("guest"), default=False)
    #: the player's uuid in BG Stats (lower-case), when one was matched or exported: a later
    #: import finds them by it
    bgstats_uuid = models.CharField(max_length=36, blank=True, default="")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="player_name_unique_in_club"),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=Q(user__isnull=False),
                name="one_player_per_user_in_club",
            ),
        ]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name


class GameNight(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="nights")
    date = models.DateField(_("date"))
    place = models.CharField(_("place"), max_length=PLACE_MAX, blank=True)
    notes = models.TextField(_("notes"), max_length=NOTES_MAX, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]
        indexes = [models.Index(fields=["club", "date"])]
        verbose_name = _("game night")
        verbose_name_plural = _("game nights")

    def __str__(self) -> str:
        return f"{self.club} — {self.date}" + (f" ({self.place})" if self.place else "")


def duration_text(minutes: int | None) -> str:
    """Minutes as people say them: "45 min", "1 h 05"; "" when unknown."""
    if minutes is None:
        return ""
    if minutes < 60:
        return _("%(minutes)d min") % {"minutes": minutes}
    return _("%(hours)d h %(minutes)02d") % {"hours": minutes // 60, "minutes": minutes % 60}


GAME_NAME_MAX = 100
#: The most seats a result play may have (BG Stats' own screens stop well before).
RESULT_MAX_PLAYERS = 30


class CatalogueGame(models.Model):
    """A game the club plays that the referee does not know: its plays are entered as results
    (games.results checks them). How a result reads is fixed by ``result``, ``scored`` and
    ``teams``; its statistics' scope is ``key`` ("game-<id>")."""

    class Result(models.TextChoices):
        HIGHEST = "highest", _("highest score wins")
        LOWEST = "lowest", _("lowest score wins")
        RANKS = "ranks", _("places only")
        COOPERATIVE = "cooperative", _("co-operative: won or lost together")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="catalogue")
    name = models.CharField(_("name"), max_length=GAME_NAME_MAX)
    result = models.CharField(
        _("result"), max_length=12, choices=Result.choices, default=Result.HIGHEST
    )
    #: a co-operative game with a score as well as won or lost (the other kinds: from result)
    scored = models.BooleanField(_("with a score"), default=True)
    teams = models.BooleanField(_("played in teams"), default=False)
    min_players = models.PositiveSmallIntegerField(_("fewest players"), default=1)
    max_players = models.PositiveSmallIntegerField(_("most players"), default=RESULT_MAX_PLAYERS)
    bgg_id = models.PositiveIntegerField(_("BoardGameGeek id"), null=True, blank=True)
    #: the game's uuid in BG Stats, when it came from there (kept for the way back)
    bgstats_uuid = models.CharField(max_length=36, blank=True, default="")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                Lower("name"), "club", name="catalogue_game_name_unique_in_club"
            ),
        ]
        verbose_name = _("catalogue game")
        verbose_name_plural = _("catalogue games")

    def __str__(self) -> str:
        return self.name

    @property
    def key(self) -> str:
        return f"{CATALOGUE_PREFIX}{self.pk}"

    @property
    def cooperative(self) -> bool:
        return self.result == self.Result.COOPERATIVE

    @property
    def has_scores(self) -> bool:
        """Whether its results carry a score: every kind but places only (a co-op game when
        it keeps one)."""
        if self.result == self.Result.RANKS:
            return False
        return self.scored or self.result != self.Result.COOPERATIVE


class PlayQuerySet(models.QuerySet):
    def with_durations(self) -> PlayQuerySet:
        """Each play with the times of its first and last move still in the log, from which a
        refereed play's duration is told (Play.duration)."""
        kept = Q(moves__undone_at__isnull=True)
        return self.annotate(
            first_move_at=models.Min("moves__entered_at", filter=kept),
            last_move_at=models.Max("moves__entered_at", filter=kept),
        )


class Play(models.Model):
    """One game played during a game night. A refereed play's move log (``moves``) is the
    source of truth of its results; a result play (``kind``) has no move log, and its entered
    result is the source (games.results checked it)."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("in progress")
        FINISHED = "finished", _("finished")
        ABANDONED = "abandoned", _("abandoned")
        #: kept but left out of every statistic (BG Stats' "ignored" plays)
        IGNORED = "ignored", _("left out of statistics")

    class Kind(models.TextChoices):
        REFEREED = "refereed", _("refereed move by move")
        RESULT = "result", _("entered as a result")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="plays")
    night = models.ForeignKey(GameNight, on_delete=models.CASCADE, related_name="plays")
    #: a game of the referee ("punto") or of the club's catalogue ("game-<id>")
    game = models.CharField(_("game"), max_length=20, validators=[validate_game])
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.REFEREED)
    catalogue_game = models.ForeignKey(
        CatalogueGame,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="plays",
        verbose_name=_("catalogue game"),
    )
    #: minutes, as entered (a result play, or a refereed play's corrected length); None: a
    #: refereed play's is from its first to its last move, a result play's is unknown
    duration_minutes = models.PositiveIntegerField(_("duration (minutes)"), null=True, blank=True)
    notes = models.TextField(_("notes"), max_length=NOTES_MAX, blank=True, default="")
    #: the play's uuid in BG Stats, when it came from there: a second import adds it once
    bgstats_uuid = models.CharField(max_length=36, blank=True, default="")
    setup = models.JSONField(_("setup"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.IN_PROGRESS
    )
    started_at = models.DateTimeField(_("started"))
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    #: derived: the referee's details after the last legal move of the log
    details = models.JSONField(_("details"), default=dict, blank=True)
    #: advanced by every change to the log or the status (a move, an undo, abandoning), in the
    #: change's transaction: a form made at an older version is refused, not applied to a
    #: position its sender never saw
    version = models.PositiveIntegerField(_("version"), default=0, editable=False)
    #: derived: the referee's judged state after the last move of the active log, with the
    #: version it was judged at (games.services.playrow.kept_judgement): a move entry judges its
    #: move from it instead of the whole log. Written with the results by every change of the
    #: log, while the play is in progress (empty once finished or abandoned); empty, or of
    #: another version or referee, or unreadable, it is judged again from the log. Text: the
    #: version, the log's next seq, the position, and the referee's kept state (referee.keep:
    #: pickle's bytes of plain values) in base64.
    kept = models.TextField(default="", db_default="", blank=True, editable=False)

    objects = PlayQuerySet.as_manager()

    class Meta:
        ordering = ["-started_at", "-id"]
        indexes = [
            models.Index(fields=["club", "status", "started_at"]),
            models.Index(fields=["club", "game", "status", "started_at"]),
            # The rating rebuild's "finished plays of the club from this time on", in its
            # order (the end, then the start, then the play's id: an index's last key), so
            # that it reads the seats of a million plays without sorting any.
            models.Index(
                fields=["club", "status", "ended_at", "started_at"], name="play_club_status_ended"
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "bgstats_uuid"],
                condition=~Q(bgstats_uuid=""),
                name="one_play_per_bgstats_uuid",
            )
        ]
        verbose_name = _("play")
        verbose_name_plural = _("plays")

    def __str__(self) -> str:
        return f"{self.game_title} #{self.pk}"

    @property
    def is_result(self) -> bool:
        return self.kind == self.Kind.RESULT

    @property
    def duration(self) -> int | None:
        """How long it lasted, in minutes: as entered (a result play, or a corrected refereed
        play); else, for a finished refereed play read with_durations(), from its first to its
        last move. None: not known (or not over)."""
        if self.duration_minutes is not None:
            return self.duration_minutes
        first = getattr(self, "first_move_at", None)
        last = getattr(self, "last_move_at", None)
        if self.status != self.Status.FINISHED or first is None or last is None or last <= first:
            return None
        # Under a minute between them is a log entered at once (an upload), not a play's length.
        return round((last - first).total_seconds() / 60) or None

    @property
    def duration_text(self) -> str:
        return duration_text(self.duration)

    @property
    def game_title(self) -> str:
        if self.catalogue_game_id is not None:
            return self.catalogue_game.name
        engine = GAMES.get(self.game)
        # A play of a game the referee no longer knows still shows, under its name.
        return engine.title if engine is not None else self.game

    @property
    def status_label(self) -> str:
        """``get_status_display()``, as it says it, without Django's making every choice
        hashable again at each call (a move's answer says the status: issue 32)."""
        try:
            return str(Play.Status(self.status).label)
        except ValueError:  # not a status (never stored): said as it is, as Django does
            return str(self.status)


class Seat(models.Model):
    """A player's seat in a play, with the derived result of that seat."""

    play = models.ForeignKey(Play, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("position"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    # Derived from the move log by the referee (games.services.refresh_results).
    score = models.IntegerField(_("score"), default=0)
    rank = models.PositiveSmallIntegerField(_("rank"), null=True, blank=True)
    is_winner = models.BooleanField(_("winner"), default=False)
    #: Partners share a team number (their seats also share a rank and the win); a seat without
    #: one plays for itself. Set from the referee's reading of the setup (Judgement.teams).
    team = models.PositiveSmallIntegerField(_("team"), null=True, blank=True)
    #: a result play's score exactly as entered (a sum, maybe with decimals: "6+10-3.5");
    #: ``score`` holds it rounded to a whole number for the points statistics. None: no score
    entered_score = models.DecimalField(
        _("entered score"), max_digits=16, decimal_places=4, null=True, blank=True
    )

    class Meta:
        ordering = ["play", "position"]
        constraints = [
            models.UniqueConstraint(fields=["play", "position"], name="one_seat_per_position"),
            models.UniqueConstraint(fields=["play", "player"], name="one_seat_per_player"),
        ]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")

    def __str__(self) -> str:
        return f"{self.play} seat {self.position}: {self.player}"

    @property
    def shown_score(self) -> str:
        """The score as the pages show it: a result play's as entered ("12.5"; nothing for
        places only), a refereed play's as the referee counted it."""
        if self.entered_score is not None:
            text = format(self.entered_score.normalize(), "f")
            return "0" if text == "-0" else text
        return "" if self.play.kind == Play.Kind.RESULT else str(self.score)


class MoveQuerySet(models.QuerySet):
    def active(self) -> MoveQuerySet:
        """The moves of the log as it stands: not undone, in order."""
        return self.filter(undone_at__isnull=True).order_by("seq")


class Move(models.Model):
    """One entry of a play's move log. Never deleted nor edited in place: undo marks it undone, a
    correction marks the entry it replaces (and any it drops) and takes the next place in the
    log (``seq``: its place, the later entries moved one on; games.services.corrections)."""

    play = models.ForeignKey(Play, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField(_("sequence number"))
    data = models.JSONField(_("move"))
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_at = models.DateTimeField(_("entered"), auto_now_add=True)
    undone_at = models.DateTimeField(_("undone"), null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Exactly once (issue 28): the page makes a key for each move and each undo it sends (the
    # Idempotency-Key header, or a form field), and a phone on a bad network may send the same
    # request again. The key of the request that entered this move, what that request asked
    # (a fingerprint), and the key of the undo that undid it: the same request again stores
    # nothing and is answered as the first was; the same key for another request is refused.
    # Kept as long as the move, so as long as the play. NULL, not "", for no key (a move
    # imported, or entered by a command): the unique constraints below let NULLs repeat.
    key = models.CharField(  # noqa: DJ001
        _("request key"), max_length=64, null=True, blank=True
    )
    asked = models.CharField(_("request fingerprint"), max_length=32, blank=True, default="")
    undo_key = models.CharField(  # noqa: DJ001
        _("undo request key"), max_length=64, null=True, blank=True
    )

    class Struck(models.TextChoices):
        """Why an entry left the log (issue 30): undone ("" — the last move taken back), replaced
        by a correction (its replacement is the next entry), or dropped by a correction that
        made it illegal and was applied all the same, from it on."""

        UNDONE = "", _("undone")
        REPLACED = "replaced", _("replaced")
        DROPPED = "dropped", _("dropped by a correction")

    #: with ``undone_at``/``undone_by`` (when and who): why the entry left the log
    struck = models.CharField(
        _("struck as"), max_length=10, choices=Struck.choices, blank=True, default=""
    )

    objects = MoveQuerySet.as_manager()

    class Meta:
        ordering = ["play", "seq"]
        # NULL keys (moves imported, or entered by a command) never clash, on either database.
        constraints = [
            models.UniqueConstraint(fields=["play", "seq"], name="unique_move_seq"),
            models.UniqueConstraint(fields=["play", "key"], name="unique_move_key"),
            models.UniqueConstraint(fields=["play", "undo_key"], name="unique_move_undo_key"),
        ]
        verbose_name = _("move")
        verbose_name_plural = _("moves")

    def __str__(self) -> str:
        return f"{self.play} move {self.seq}" + (" (undone)" if self.undone_at else "")

    @property
    def is_undone(self) -> bool:
        return self.undone_at is not None


# Ratings and running totals (issue 9) --------------------------------------------------------
# Derived, like Seat results: rebuilt by games.ratings whenever a play's result changes.

#: The scope of a rating row that spans every competitive game.
ALL_GAMES = "all"


class RowidField(models.BigAutoField):
    """An auto-incremented id that, on SQLite, is the table's rowid without AUTOINCREMENT:
    SQLite then keeps no sequence table up to date on every insert, which cost a third of the
    time of writing a full rebuild's millions of rows (docs/benchmarks.md). The difference is
    only that SQLite may give a deleted top id again, which rows rewritten wholesale by every
    rebuild never rely on. Elsewhere it is a BigAutoField."""

    def db_type_suffix(self, connection: Any) -> str | None:
        if connection.vendor == "sqlite":
            return None
        return super().db_type_suffix(connection)


class IndexNotOnSQLite(models.Index):
    """An index made on every database but SQLite: one that only another planner needs.

    PostgreSQL reads the rating chart's points by their play count (``plays IN (…)``) one seek
    each only with an index that starts with the count (rating_player_game_plays,
    rating_player_plays); on the time indexes its planner filters the player's rows on the
    table instead (2.2 s for the busiest player at 1,000,000 plays). SQLite reads the same
    points from the time indexes, checking the count in the index, and a full rebuild there
    sorts every index entry it makes (the two cost 4.6 s of its CPU at 1M, docs/benchmarks.md).

    Declared once in the model, so that migrations and ``makemigrations --check`` are the same
    on both databases; on SQLite its statements are a comment, which SQLite runs as nothing:
    Django's schema editor runs whatever create_sql() and remove_sql() return (it checks for
    nothing, an empty or None one included), when it adds the index, creates the table, or
    remakes it for a change of column (SQLite's way of altering a table)."""

    def create_sql(self, model: Any, schema_editor: Any, using: str = "", **kwargs: Any) -> Any:
        if schema_editor.connection.vendor == "sqlite":
            return self._not_on_sqlite()
        return super().create_sql(model, schema_editor, using=using, **kwargs)

    def remove_sql(self, model: Any, schema_editor: Any, **kwargs: Any) -> Any:
        if schema_editor.connection.vendor == "sqlite":
            return self._not_on_sqlite()
        return super().remove_sql(model, schema_editor, **kwargs)

    def _not_on_sqlite(self) -> str:
        return f"-- {self.name}: not on SQLite (games.models.IndexNotOnSQLite)"


class RatingChange(models.Model):
    """One seat of one finished play, seen from both its scopes: its game, and ``"all"`` games.

    Holds the seat's result as rated (rank, team), the player's openskill rating before and
    after the play in the game and across all games, and their running totals in each after it:
    plays, wins, points (sum, best, worst; the game's scope only), the current and the longest
    win streak. So the player's last row of a game is their whole record there (its ``plays`` is
    their n-th play of it), and their last row with ``all_plays`` is their record across games.
    Rows of a club are created in play-time order, so within a club and for one player a higher
    id is a later play. The cooperative 3-High has rows with the team's totals in its game but
    no rating (``mu``/``sigma`` null) and nothing across all games (every ``all_`` column null).

    One row a seat, not one per seat and scope: a full rebuild writes a row for every seat the
    club ever sat, and the database's cost is by the row and the value (docs/benchmarks.md).
    """

    id = RowidField(primary_key=True, serialize=False, verbose_name="ID")
    # Derived rows, rewritten in bulk by every rebuild (millions at once): the database does not
    # check these foreign keys row by row (Django still cascades deletions), and the composite
    # indexes below serve every lookup by club or by player.
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )
    play = models.ForeignKey(
        Play, on_delete=models.CASCADE, related_name="rating_changes", db_constraint=False
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        db_constraint=False,
        db_index=False,
    )
    #: the play's game (Play.game): the scope of the columns without a prefix
    game = models.CharField(_("game"), max_length=20)
    #: the play's time (Play.ended_at), denormalised for as-of queries
    played_at = models.DateTimeField(_("played"))
    is_winner = models.BooleanField(_("winner"), default=False)
    #: the seat's rank and team (Seat.rank, Seat.team) as they were rated
    rank = models.PositiveSmallIntegerField(null=True)
    team = models.PositiveSmallIntegerField(null=True)
    # In the game's scope.
    mu_before = models.FloatField(null=True)
    sigma_before = models.FloatField(null=True)
    mu_after = models.FloatField(null=True)
    sigma_after = models.FloatField(null=True)
    #: running totals of the player in this game, this play included
    plays = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    #: the sum, best and worst of the player's scores in this game
    points = models.IntegerField(null=True)
    best = models.IntegerField(null=True)
    worst = models.IntegerField(null=True)
    #: wins in a row up to this play, and the longest such run so far
    streak = models.PositiveIntegerField(default=0)
    longest = models.PositiveIntegerField(default=0)
    # Across all games (``"all"``): the same, without points; null for a cooperative game.
    all_mu_before = models.FloatField(null=True)
    all_sigma_before = models.FloatField(null=True)
    all_mu_after = models.FloatField(null=True)
    all_sigma_after = models.FloatField(null=True)
    all_plays = models.PositiveIntegerField(null=True)
    all_wins = models.PositiveIntegerField(null=True)
    all_streak = models.PositiveIntegerField(null=True)
    all_longest = models.PositiveIntegerField(null=True)

    class Meta:
        ordering = ["id"]
        indexes = [
            # A player's rows of a game in play order (``plays`` counts up with played_at, and
            # breaks ties): their last row (their record), their last before a time (as-at
            # leaderboards, a rebuild's starting point), one seek each, however far back.
            models.Index(
                fields=["player", "game", "played_at", "plays"], name="rating_player_game_time"
            ),
            # Their n-th rated row of a game (``plays`` = n): the rating chart's points, a seek
            # each on PostgreSQL (the chart asks ``mu_after IS NOT NULL``: a cooperative game's
            # rows, never rated nor charted, are not in it). Not on SQLite, which reads them
            # from the time index above (IndexNotOnSQLite).
            IndexNotOnSQLite(
                fields=["player", "game", "plays"],
                condition=Q(mu_after__isnull=False),
                name="rating_player_game_plays",
            ),
            # The same two across all games, of the rows counted there only (every query of
            # that scope asks ``all_plays IS NOT NULL``, scope_rows): a cooperative game's rows
            # are not in them, entries a full rebuild does not sort nor write.
            models.Index(
                fields=["player", "played_at", "all_plays"],
                condition=Q(all_plays__isnull=False),
                name="rating_player_time",
            ),
            IndexNotOnSQLite(
                fields=["player", "all_plays"],
                condition=Q(all_plays__isnull=False),
                name="rating_player_plays",
            ),
            models.Index(fields=["club", "played_at"], name="rating_club_time"),
        ]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")

    def __str__(self) -> str:
        return f"{self.player} in {self.game} after {self.play}"


#: RatingChange's columns that have an ``all_`` twin across all games (points do not).
IN_EITHER_SCOPE = (
    "mu_before", "sigma_before", "mu_after", "sigma_after", "plays", "wins", "streak", "longest",
)  # fmt: skip


def scope_column(scope: str, name: str) -> str:
    """RatingChange's column of ``name`` (``mu_after``, ``plays``…) in ``scope``: the game's
    own, or its ``all_`` twin across all games (a column of the seat, such as ``played_at``,
    is both scopes')."""
    return f"all_{name}" if scope == ALL_GAMES and name in IN_EITHER_SCOPE else name


def scope_rows(scope: str) -> Q:
    """RatingChange's rows that count in ``scope``: the game's, or every competitive one."""
    return Q(all_plays__isnull=False) if scope == ALL_GAMES else Q(game=scope)


class PartnerChange(models.Model):
    """One partner of a player in one finished team play, seen from one scope (its game, and
    ``"all"``): the pair's running totals as partners after that play. A pair's last row before
    a day is its partnership as at that day (the leaderboard "as at": one index seek per pair,
    however long the history). Derived, like RatingChange, and rewritten with it."""

    id = RowidField(primary_key=True, serialize=False, verbose_name="ID")
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )
    play = models.ForeignKey(Play, on_delete=models.CASCADE, related_name="+", db_constraint=False)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )
    partner = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )
    scope = models.CharField(_("scope"), max_length=20)
    #: the play's time (Play.ended_at), as on its rating rows
    played_at = models.DateTimeField(_("played"))
    #: plays together, and won together, up to this one included
    together = models.PositiveIntegerField(default=0)
    together_won = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(
                fields=["player", "scope", "partner", "played_at"], name="partner_pair_time"
            ),
            models.Index(fields=["club", "played_at"], name="partner_club_time"),
        ]
        verbose_name = _("partner change")
        verbose_name_plural = _("partner changes")

    def __str__(self) -> str:
        return f"{self.player} with {self.partner} in {self.scope} after {self.play}"


# Read-only links: a game night for people without an account ---------------------------------


def new_share_token() -> str:
    return secrets.token_urlsafe(24)  # 192 random bits: not to be guessed


class NightShareQuerySet(models.QuerySet):
    def active(self) -> NightShareQuerySet:
        return self.filter(revoked_at__isnull=True)


class NightShare(models.Model):
    """A read-only link an owner makes to one game night: whoever holds it sees that night's
    plays (live) and its summary, and nothing else of the club. It works until the owner
    withdraws it; a night has at most one working link (a new one is a new token)."""

    night = models.ForeignKey(GameNight, on_delete=models.CASCADE, related_name="shares")
    token = models.CharField(_("token"), max_length=64, unique=True, default=new_share_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    revoked_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)

    objects = NightShareQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["night"],
                condition=Q(revoked_at__isnull=True),
                name="one_working_share_per_night",
            )
        ]
        verbose_name = _("read-only link")
        verbose_name_plural = _("read-only links")

    def __str__(self) -> str:
        return f"{self.night} share #{self.pk}"


class HeadToHead(models.Model):
    """A player's record with one other player over the club's finished competitive plays: as
    opponents (in a play you beat everyone ranked below you) and as partners (team play: plays
    together, wins together). The ``"all"`` scope keeps the whole record (the player's page);
    a game's scope keeps only partnerships (that game's leaderboard names them).

    Derived, like RatingChange, and kept with it by games.ratings in the same transaction as the
    results it counts; each pair is stored both ways round (``won`` of one is ``lost`` of the
    other)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    # No index of its own: the unique constraint leads with the player.
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", db_index=False)
    opponent = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    #: a game, or "all"; in a game's scope only partnerships are kept (what its leaderboard names)
    scope = models.CharField(max_length=20)
    #: as opponents
    plays = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    #: as partners
    together = models.PositiveIntegerField(default=0)
    together_won = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "opponent", "scope"], name="one_head_to_head"
            ),
        ]
        indexes = [
            # A leaderboard's partners: the few records of pairs who played together.
            models.Index(
                fields=["club", "scope"], name="head_to_head_partners", condition=Q(together__gt=0)
            )
        ]
        verbose_name = _("head-to-head record")
        verbose_name_plural = _("head-to-head records")

    def __str__(self) -> str:
        return f"{self.player} against {self.opponent} ({self.scope})"


# Trust: club invites and the audit trail ----------------------------------------------------

INVITE_LIFETIME = datetime.timedelta(days=7)


def new_invite_token() -> str:
    return secrets.token_urlsafe(24)


def default_invite_expiry() -> datetime.datetime:
    return timezone.now() + INVITE_LIFETIME


class ClubInvite(models.Model):
    """A link an owner shares so that people can join the club as members.

    It works until it expires (7 days), is revoked, or has been used ``max_uses`` times (one by
    default: a single-use link; the owner may allow more, for a group chat). A use is one person
    joining; opening the link does not use it.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(_("token"), max_length=64, unique=True, default=new_invite_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"), default=default_invite_expiry)
    max_uses = models.PositiveSmallIntegerField(_("maximum uses"), default=1)
    uses = models.PositiveSmallIntegerField(_("uses"), default=0)
    revoked = models.BooleanField(_("revoked"), default=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("club invite")
        verbose_name_plural = _("club invites")

    def __str__(self) -> str:
        return f"{self.club} invite #{self.pk}"

    @property
    def is_expired(self) -> bool:
        return self.expires_at <= timezone.now()

    @property
    def is_used_up(self) -> bool:
        return self.uses >= self.max_uses

    @property
    def is_usable(self) -> bool:
        return not (self.revoked or self.is_expired or self.is_used_up)

    def refusal(self) -> str | None:
        """Why this link cannot be used to join, for the person who opened it; None if it can."""
        if self.revoked:
            return _("This invite link was withdrawn by the club's owner.")
        if self.is_expired:
            return _("This invite link has expired. Ask the club's owner for a new one.")
        if self.is_used_up:
            return _("This invite link has already been used. Ask the club's owner for a new one.")
        return None


class AuditEntryQuerySet(models.QuerySet):
    def for_club(self, club: Club) -> AuditEntryQuerySet:
        """A club's entries, newest first."""
        return self.filter(club=club).order_by("-at", "-id")


class AuditEntry(models.Model):
    """Who did what to a club's history, and when (UTC).

    No foreign key to the play, player or member it talks about, so an entry outlives them:
    ``object_kind`` and ``object_id`` name the object, ``summary`` describes it for people,
    ``data`` keeps the details (a deleted play's whole ``gamelog/1``, for instance).
    """

    class Action(models.TextChoices):
        PLAY_START = "play.start", _("started a play")
        MOVE_ENTER = "move.enter", _("entered a move")
        MOVE_UNDO = "move.undo", _("undid a move")
        MOVE_REPLACE = "move.replace", _("corrected a move")
        PLAY_IMPORT = "play.import", _("imported a play")
        RESULT_ENTER = "result.enter", _("entered a play's result")
        PLAY_DURATION = "play.duration", _("corrected a play's duration")
        GAME_ADD = "game.add", _("added a game to the catalogue")
        BGSTATS_IMPORT = "bgstats.import", _("imported plays from BG Stats")
        PLAY_ABANDON = "play.abandon", _("abandoned a play")
        PLAY_RESUME = "play.resume", _("resumed an abandoned play")
        PLAY_DELETE = "play.delete", _("deleted a play")
        PLAYER_DELETE = "player.delete", _("deleted a player")
        MEMBER_INVITE = "member.invite", _("made an invite link")
        INVITE_REVOKE = "invite.revoke", _("withdrew an invite link")
        MEMBER_JOIN = "member.join", _("joined the club")
        MEMBER_REMOVE = "member.remove", _("removed a member")
        NIGHT_EDIT = "night.edit", _("edited a game night")
        NIGHT_SHARE = "night.share", _("made a read-only link to a game night")
        SHARE_REVOKE = "share.revoke", _("withdrew a read-only link to a game night")
        CLUB_EDIT = "club.edit", _("changed the club's settings")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    #: the actor's username at the time, kept if the account is deleted ("" for the system)
    actor_name = models.CharField(_("actor"), max_length=150, blank=True)
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    object_kind = models.CharField(_("object kind"), max_length=20)
    object_id = models.BigIntegerField(_("object id"), null=True, blank=True)
    summary = models.CharField(_("summary"), max_length=300)
    data = models.JSONField(_("data"), default=dict, blank=True)
    at = models.DateTimeField(_("at"), default=timezone.now)

    objects = AuditEntryQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["club", "-at"], name="audit_club_at")]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.actor_name or '-'} {self.action} {self.summary}"
