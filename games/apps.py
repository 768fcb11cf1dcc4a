from django.apps import AppConfig
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.core.management import call_command
from django.db.backends.signals import connection_created
from django.db.models.signals import post_delete, post_migrate, post_save
from django.utils.translation import gettext_lazy as _


def end_session_streams(sender, request=None, user=None, **kwargs) -> None:
    """A logout ends the live streams of its session, in every process (games.live)."""
    from . import live

    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if session_key:
        live.session_ended(session_key)


def recheck_account_streams(sender, instance=None, **kwargs) -> None:
    """A password just set (``set_password``, then ``save``), or an account made inactive: the
    account's live streams check that their session still holds, and every other session's end
    (games.live)."""
    if instance is None or instance.pk is None:
        return
    if getattr(instance, "_password", None) is not None or not instance.is_active:
        from . import live

        live.user_changed(instance.pk)


def end_member_streams(sender, instance=None, **kwargs) -> None:
    """A membership gone (removed from the club, by the owners' page or the admin): the
    member's live streams read again what they may see, at once, in every process — a play
    page's stream pushes the play's parts without reading it each time (games.views.live)."""
    if instance is not None and instance.user_id is not None:
        from . import live

        live.member_removed(instance.user_id)


def create_cache_table(using: str = "default", **kwargs) -> None:
    """`migrate` also creates the database cache's table (the throttles' counts), so that a
    deployment needs no separate `createcachetable` step. Harmless when it exists."""
    call_command("createcachetable", database=using, verbosity=0)


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Game nights")

    def ready(self) -> None:
        from . import ui

        # Before any connection is opened: the C module registers its table-valued function
        # (a full rebuild's rows, games/ratings/_native.c) on every SQLite connection opened
        # after it is imported.
        from .ratings import bulk  # noqa: F401

        # Every game of the referee's registry has its UI, or the site does not start.
        ui.load()
        post_migrate.connect(create_cache_table, sender=self, dispatch_uid="games-cache-table")
        # SQLite's WAL checkpoints run in a thread of their own, not in a request's commit.
        from .checkpoints import start_checkpointer

        connection_created.connect(start_checkpointer, dispatch_uid="games-wal-checkpointer")
        # Live streams end with their session (issue 29).
        user_logged_out.connect(end_session_streams, dispatch_uid="games-live-logout")
        post_save.connect(
            recheck_account_streams,
            sender=get_user_model(),
            dispatch_uid="games-live-password",
        )
        from .models import Membership

        post_delete.connect(
            end_member_streams, sender=Membership, dispatch_uid="games-live-membership"
        )
