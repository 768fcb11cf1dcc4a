"""Clubs, their players and game nights, plays and their move logs.

The move log is the source of truth: every score stored here (``Seat.score``, ``Seat.rank``,
``Seat.is_winner``, ``Play.details``) is derived from it by the referee and rewritten, in the
same transaction, whenever the log changes (see ``games.services``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

GAME_CHOICES = [
    ("thricewise", "Thricewise"),
    ("forget-venice", "Forget Venice"),
    ("punto", "Punto"),
    ("buntherum", "Buntherum"),
    ("three-high", "3-High"),
]
GAME_TITLES = dict(GAME_CHOICES)


class Club(models.Model):
    name = models.CharField(_("name"), max_length=100, unique=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="clubs"
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


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
    """A person at the table. Linked to a user account, or a guest (no account)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=60)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
    )
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

    @property
    def is_guest(self) -> bool:
        return self.user_id is None


class GameNight(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="nights")
    date = models.DateField(_("date"))
    place = models.CharField(_("place"), max_length=120, blank=True)
    notes = models.TextField(_("notes"), blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]
        indexes = [models.Index(fields=["club", "date"])]
        verbose_name = _("game night")
        verbose_name_plural = _("game nights")

    def __str__(self) -> str:
        return f"{self.club} — {self.date}" + (f" ({self.place})" if self.place else "")


class Play(models.Model):
    """One game played during a game night. Its move log (``moves``) is the source of truth."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("in progress")
        FINISHED = "finished", _("finished")
        ABANDONED = "abandoned", _("abandoned")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="plays")
    night = models.ForeignKey(GameNight, on_delete=models.CASCADE, related_name="plays")
    game = models.CharField(_("game"), max_length=20, choices=GAME_CHOICES)
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

    class Meta:
        ordering = ["-started_at", "-id"]
        indexes = [
            models.Index(fields=["club", "status", "started_at"]),
            models.Index(fields=["club", "game", "status", "started_at"]),
        ]
        verbose_name = _("play")
        verbose_name_plural = _("plays")

    def __str__(self) -> str:
        return f"{self.get_game_display()} #{self.pk}"


class Seat(models.Model):
    """A player's seat in a play, with the derived result of that seat."""

    play = models.ForeignKey(Play, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("position"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    # Derived from the move log by the referee (games.services.refresh_results).
    score = models.IntegerField(_("score"), default=0)
    rank = models.PositiveSmallIntegerField(_("rank"), null=True, blank=True)
    is_winner = models.BooleanField(_("winner"), default=False)

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


class MoveQuerySet(models.QuerySet):
    def active(self) -> MoveQuerySet:
        """The moves of the log as it stands: not undone, in order."""
        return self.filter(undone_at__isnull=True).order_by("seq")


class Move(models.Model):
    """One entry of a play's move log. Never deleted nor edited in place: undo marks it undone."""

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

    objects = MoveQuerySet.as_manager()

    class Meta:
        ordering = ["play", "seq"]
        constraints = [models.UniqueConstraint(fields=["play", "seq"], name="unique_move_seq")]
        verbose_name = _("move")
        verbose_name_plural = _("moves")

    def __str__(self) -> str:
        return f"{self.play} move {self.seq}" + (" (undone)" if self.undone_at else "")

    @property
    def is_undone(self) -> bool:
        return self.undone_at is not None
