"""The only code that writes. Every function is one transaction; the referee judges every change.

A move is stored only if the whole log, with it appended, is legal — judged from the state kept
after the log's last move (Play.kept), which every change to the log rewrites; the derived
results (seat scores, ranks, winners, the play's status and details) are rewritten in the same
transaction.

One room per job; ``from games import services`` gives every service and refusal:

- errors: the refusals (ServiceError and its kinds);
- vetting: what people type and send, vetted before anything is written;
- audit: the audit trail, written in the transaction of the change it records;
- clubs: clubs, their players, invite links and members;
- plays: game nights and their read-only links; plays started, abandoned, resumed, deleted;
- playrow: a play's row changed one change at a time (lock, version, derived results);
- moves: a move entered at the table, or the last one undone;
- corrections: a past move replaced, the whole log judged again;
- imports: a play created whole from a game log;
- results: the club's catalogue of other games, and a play entered as its result.
"""

from .audit import record_audit
from .clubs import (
    add_player,
    create_club,
    create_invite,
    delete_player,
    join_club,
    remove_member,
    revoke_invite,
    update_club_settings,
)
from .corrections import Correction, replace_move
from .errors import (
    IllegalMoveError,
    KeyReusedError,
    LaterMoveRefusedError,
    PlayGoneError,
    ServiceError,
    StalePlayError,
    stale_error,
)
from .imports import import_log
from .moves import (
    KEY_LENGTH,
    NOT_COMPLETE,
    Keyed,
    PlayState,
    enter_move,
    record_move,
    undo_last_move,
)
from .playrow import refresh_results, rejudge
from .plays import (
    abandon_play,
    create_game_night,
    delete_play,
    resume_play,
    revoke_share,
    share_night,
    start_play,
    update_game_night,
)
from .results import SeatResult, add_catalogue_game, enter_result, set_duration

__all__ = [
    "KEY_LENGTH",
    "NOT_COMPLETE",
    "Correction",
    "IllegalMoveError",
    "KeyReusedError",
    "LaterMoveRefusedError",
    "Keyed",
    "PlayGoneError",
    "PlayState",
    "SeatResult",
    "ServiceError",
    "StalePlayError",
    "abandon_play",
    "add_catalogue_game",
    "add_player",
    "create_club",
    "create_game_night",
    "create_invite",
    "delete_play",
    "delete_player",
    "enter_move",
    "enter_result",
    "import_log",
    "join_club",
    "record_audit",
    "record_move",
    "refresh_results",
    "rejudge",
    "remove_member",
    "replace_move",
    "resume_play",
    "revoke_invite",
    "revoke_share",
    "set_duration",
    "share_night",
    "stale_error",
    "start_play",
    "undo_last_move",
    "update_club_settings",
    "update_game_night",
]
