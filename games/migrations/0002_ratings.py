# Ratings and running totals per seat of a finished play (issue 9).

import django.db.models.deletion
from django.db import migrations, models


def rate_existing_plays(apps, schema_editor):
    """The plays finished before this migration are rated by 0015, which rebuilds every club
    once seats have their team and the rating rows their running totals (rebuilding here, with
    today's rating code and this migration's older tables, could not work)."""


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="RatingChange",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("scope", models.CharField(max_length=20, verbose_name="scope")),
                ("played_at", models.DateTimeField(verbose_name="played")),
                ("is_winner", models.BooleanField(default=False, verbose_name="winner")),
                ("mu_before", models.FloatField(null=True)),
                ("sigma_before", models.FloatField(null=True)),
                ("mu_after", models.FloatField(null=True)),
                ("sigma_after", models.FloatField(null=True)),
                ("plays", models.PositiveIntegerField(default=0)),
                ("wins", models.PositiveIntegerField(default=0)),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="games.club",
                    ),
                ),
                (
                    "play",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rating_changes",
                        to="games.play",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rating_changes",
                        to="games.player",
                    ),
                ),
            ],
            options={
                "verbose_name": "rating change",
                "verbose_name_plural": "rating changes",
                "ordering": ["id"],
                "indexes": [
                    models.Index(
                        fields=["player", "scope", "played_at", "id"], name="rating_player_scope"
                    ),
                    models.Index(fields=["club", "played_at"], name="rating_club_time"),
                ],
            },
        ),
        migrations.RunPython(rate_existing_plays, migrations.RunPython.noop),
    ]
