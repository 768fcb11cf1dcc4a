# Seats' teams: Punto's team play (issue 18). Partners share a team number.

from django.db import migrations, models


def rebuild_every_club(apps, schema_editor):
    """Rate every club's finished plays with today's rating code (0002 leaves it to here)."""
    from types import SimpleNamespace

    from games import ratings

    names = ("Club", "Play", "Seat", "RatingChange")
    models_now = SimpleNamespace(**{name: apps.get_model("games", name) for name in names})
    for club_id in models_now.Club.objects.values_list("pk", flat=True):
        ratings.rebuild_club(club_id, models=models_now)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_club_names_not_unique"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="team",
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="team"),
        ),
        migrations.RunPython(rebuild_every_club, migrations.RunPython.noop),
    ]
