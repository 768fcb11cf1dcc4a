"""Django's makemessages, also finding the messages of a table drawn in Python (games.ui._drawing:
``said`` and ``said_with`` look their text up as ``{% translate %}`` does; a text in a context is
said with Django's own ``pgettext``)."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=said",
        "--keyword=said_with",
    ]
