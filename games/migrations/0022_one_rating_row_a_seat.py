# One rating row a seat, holding both its scopes (the game's and all games'), instead of one row
# per seat and scope (issue 32): a full rebuild writes half the rows. The rows are derived: they
# are emptied before the table changes (cheap on SQLite, which copies the table to alter it) and
# every club's history is rebuilt after.

from django.db import migrations, models


def empty(apps, schema_editor):
    apps.get_model("games", "RatingChange").objects.all()._raw_delete(schema_editor.connection.alias)


def rebuild_every_club(apps, schema_editor):
    """Every club's rating rows, pair records and partner rows, rebuilt in the new shape."""
    from types import SimpleNamespace

    from games import ratings

    names = ("Club", "Play", "Seat", "RatingChange", "HeadToHead", "PartnerChange", "CatalogueGame")
    models_now = SimpleNamespace(**{name: apps.get_model("games", name) for name in names})
    for club_id in models_now.Club.objects.values_list("pk", flat=True):
        ratings.rebuild_club(club_id, models=models_now)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0021_partner_changes"),
    ]

    operations = [
        migrations.RunPython(empty, migrations.RunPython.noop),
        migrations.RemoveIndex(model_name="ratingchange", name="rating_player_scope_plays"),
        migrations.RemoveIndex(model_name="ratingchange", name="rating_player_scope_time"),
        migrations.RenameField(model_name="ratingchange", old_name="scope", new_name="game"),
        migrations.AlterField(
            model_name="ratingchange",
            name="game",
            field=models.CharField(max_length=20, verbose_name="game"),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="all_mu_before",
            field=models.FloatField(null=True),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="all_sigma_before",
            field=models.FloatField(null=True),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="all_mu_after",
            field=models.FloatField(null=True),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="all_sigma_after",
            field=models.FloatField(null=True),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="all_plays",
            field=models.PositiveIntegerField(null=True),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="all_wins",
            field=models.PositiveIntegerField(null=True),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="all_streak",
            field=models.PositiveIntegerField(null=True),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="all_longest",
            field=models.PositiveIntegerField(null=True),
        ),
        migrations.AddIndex(
            model_name="ratingchange",
            index=models.Index(
                fields=["player", "game", "played_at", "plays"], name="rating_player_game_time"
            ),
        ),
        migrations.AddIndex(
            model_name="ratingchange",
            index=models.Index(fields=["player", "game", "plays"], name="rating_player_game_plays"),
        ),
        migrations.AddIndex(
            model_name="ratingchange",
            index=models.Index(fields=["player", "played_at", "all_plays"], name="rating_player_time"),
        ),
        migrations.AddIndex(
            model_name="ratingchange",
            index=models.Index(fields=["player", "all_plays"], name="rating_player_plays"),
        ),
        migrations.RunPython(rebuild_every_club, migrations.RunPython.noop),
    ]
