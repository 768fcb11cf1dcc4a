"""The services' refusals: a change refused with a message for the user, nothing stored."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from referee import Judgement

from .. import verdicts

if TYPE_CHECKING:
    from .moves import PlayState


class ServiceError(Exception):
    """A write refused with a message for the user; nothing was stored. ``state`` is the play
    as it stood when a move entry was refused (enter_move), for the page that says why."""

    state: PlayState | None = None

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class IllegalMoveError(ServiceError):
    """The referee refused the move (or the log): the message says why, in the reader's
    language; ``judgement`` is the referee's own verdict."""

    def __init__(self, judgement: Judgement):
        super().__init__(verdicts.explain(judgement))
        self.judgement = judgement


class LaterMoveRefusedError(ServiceError):
    """A correction of a past move (services.replace_move) that would make a later move illegal:
    nothing was changed. ``index`` is that later move's place among the active moves (from 0),
    ``where`` its name as the players count ("Turn 8"), ``judgement`` the referee's verdict on
    the corrected log."""

    def __init__(self, judgement: Judgement, where: str):
        super().__init__(_("Not corrected: %(refusal)s") % {"refusal": verdicts.explain(judgement)})
        self.judgement = judgement
        self.index: int = judgement.error["move"] if judgement.error else 0
        self.where = where


class StalePlayError(ServiceError):
    """Someone else changed the play (a move, an undo, abandoning it) since the form was made
    at its ``version``: nothing was changed."""


class PlayGoneError(ServiceError):
    """The play was deleted while the change was on its way: nothing was changed."""


class KeyReusedError(ServiceError):
    """A request carried the key of an earlier request of the play that asked something else
    (issue 28: a key is made once per move): nothing was changed."""


def stale_error() -> StalePlayError:
    return StalePlayError(_("Someone else changed this play — here is where it stands now."))


def gone_error() -> PlayGoneError:
    return PlayGoneError(_("This play has been deleted: nothing was changed."))


def key_reused_error() -> KeyReusedError:
    return KeyReusedError(
        _(
            "This request's key was already used for another change of this play: nothing"
            " was changed. Reload the page."
        )
    )
