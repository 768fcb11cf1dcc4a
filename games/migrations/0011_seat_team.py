# Seats' teams: Punto's team play (issue 18). Partners share a team number. (The ratings are
# rebuilt with them by 0015, with the rating rows' later columns.)

from django.db import migrations, models


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
    ]
