from django.apps import AppConfig
from django.core.management import call_command
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def create_cache_table(using: str = "default", **kwargs) -> None:
    """`migrate` also creates the database cache's table (the throttles' counts), so that a
    deployment needs no separate `createcachetable` step. Harmless when it exists."""
    call_command("createcachetable", database=using, verbosity=0)


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Game nights")

    def ready(self) -> None:
        from . import ui

        # Every game of the referee's registry has its UI, or the site does not start.
        ui.load()
        post_migrate.connect(create_cache_table, sender=self, dispatch_uid="games-cache-table")
