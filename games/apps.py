from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Game nights")

    def ready(self) -> None:
        from . import ui

        # Every game of the referee's registry has its UI, or the site does not start.
        ui.load()
