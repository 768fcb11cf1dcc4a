# Running totals on the rating rows and pair records (issue 19): a player's page and finishing
# a play cost the same however long the club's history.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import games.models


def rebuild_every_club(apps, schema_editor):
    """Fill the new running totals and pair records: left to 0022, which rebuilds every club's
    history in the shape today's rebuild writes (the rebuild is today's code, and this
    migration's rows are not in that shape)."""


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_night_share"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="HeadToHead",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("scope", models.CharField(max_length=20)),
                ("plays", models.PositiveIntegerField(default=0)),
                ("won", models.PositiveIntegerField(default=0)),
                ("lost", models.PositiveIntegerField(default=0)),
                ("together", models.PositiveIntegerField(default=0)),
                ("together_won", models.PositiveIntegerField(default=0)),
            ],
            options={
                "verbose_name": "head-to-head record",
                "verbose_name_plural": "head-to-head records",
            },
        ),
        migrations.RemoveIndex(
            model_name="ratingchange",
            name="rating_player_scope",
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="best",
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="longest",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="points",
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="rank",
            field=models.PositiveSmallIntegerField(null=True),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="streak",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="team",
            field=models.PositiveSmallIntegerField(null=True),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="worst",
            field=models.IntegerField(null=True),
        ),
        migrations.AlterField(
            model_name="ratingchange",
            name="id",
            field=games.models.RowidField(primary_key=True, serialize=False, verbose_name="ID"),
        ),
        migrations.AddIndex(
            model_name="play",
            index=models.Index(
                fields=["club", "status", "ended_at"], name="play_club_status_ended"
            ),
        ),
        migrations.AddIndex(
            model_name="ratingchange",
            index=models.Index(
                fields=["player", "scope", "plays"], name="rating_player_scope_plays"
            ),
        ),
        migrations.AddField(
            model_name="headtohead",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="games.club"
            ),
        ),
        migrations.AddField(
            model_name="headtohead",
            name="opponent",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="games.player"
            ),
        ),
        migrations.AddField(
            model_name="headtohead",
            name="player",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="games.player",
            ),
        ),
        migrations.AddIndex(
            model_name="headtohead",
            index=models.Index(
                condition=models.Q(("together__gt", 0)),
                fields=["club", "scope"],
                name="head_to_head_partners",
            ),
        ),
        migrations.AddConstraint(
            model_name="headtohead",
            constraint=models.UniqueConstraint(
                fields=("player", "opponent", "scope"), name="one_head_to_head"
            ),
        ),
        migrations.RunPython(rebuild_every_club, migrations.RunPython.noop),
    ]
