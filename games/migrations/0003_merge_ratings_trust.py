# Joins the two branches made in parallel (ratings and trust), so that `migrate` runs.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_ratings"),
        ("games", "0002_trust"),
    ]

    operations = []
