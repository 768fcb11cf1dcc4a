"""Django's makemessages, also finding the messages of a table drawn in Python (games.ui._drawing:
``said``, ``said_with`` and ``said_in_context`` look their text up as ``{% translate %}`` does)."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=said",
        "--keyword=said_with",
        "--keyword=said_in_context:1c,2",
    ]
