"""python manage.py load_demo — a demo club to click through. Running it twice is harmless."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from games import services
from games.models import Club, Membership, Player
from referee import GAMES

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-game-night"
DEMO_CLUB = "Demo club"
DEMO_PLAYERS = ["Ana", "Ben", "Chloé", "Dev", "Eli"]
DEMO_LOGS = Path(__file__).resolve().parents[2] / "demo_logs"


def demo_logs(game: str) -> list[Path]:
    """A game's demo plays, found by its name: games/demo_logs/<game>-<what>.json."""
    return sorted(DEMO_LOGS.glob(f"{game}-*.json"))


class Command(BaseCommand):
    help = "Create the demo login, club, players, game nights and plays (idempotent)."

    @transaction.atomic
    def handle(self, *args, **options) -> None:
        User = get_user_model()
        user, created = User.objects.get_or_create(username=DEMO_USERNAME)
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        # The demo login's own club: club names are not unique, and a club someone else named
        # "Demo club" is theirs, not the demo's.
        club = (
            Club.objects.filter(
                name=DEMO_CLUB, memberships__user=user, memberships__role=Membership.Role.OWNER
            )
            .order_by("pk")
            .first()
        )
        if club is None:
            club = services.create_club(name=DEMO_CLUB, owner=user)
        for name in DEMO_PLAYERS:
            Player.objects.get_or_create(
                club=club, name=name, defaults={"user": user if name == "Ana" else None}
            )
        if not club.nights.exists():
            today = datetime.date.today()
            nights = [
                services.create_game_night(
                    club=club, date=today - datetime.timedelta(days=14), place="Ana's kitchen"
                ),
                services.create_game_night(
                    club=club, date=today - datetime.timedelta(days=7), place="Le Café des Jeux"
                ),
                services.create_game_night(club=club, date=today, place="Ben's place"),
            ]
            logs = [path for game in GAMES for path in demo_logs(game)]
            for index, path in enumerate(logs):
                night = nights[index % len(nights)]
                try:
                    services.import_log(
                        club=club, log=json.loads(path.read_text()), night_date=night.date
                    )
                except services.ServiceError as exc:
                    self.stderr.write(f"demo log {path.name} skipped: {exc.message}")
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data ready: club “{DEMO_CLUB}”, {club.players.count()} players, "
                f"{club.nights.count()} game nights, {club.plays.count()} plays.\n"
                f"Demo login: username “{DEMO_USERNAME}”, password “{DEMO_PASSWORD}”"
            )
        )
