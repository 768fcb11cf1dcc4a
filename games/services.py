"""The only code that writes. Every function is one transaction; the referee judges every change.

A move is stored only if the whole log, with it appended, is legal; the derived results (seat
scores, ranks, winners, the play's status and details) are rewritten in the same transaction.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from referee import GAMES, Judgement, judge, judge_next

from . import live, ratings, userjson, verdicts
from . import names as naming
from .gamelog import play_to_log
from .models import (
    CLUB_NAME_MAX,
    INVITE_LIFETIME,
    NOTES_MAX,
    PLACE_MAX,
    PLAYER_NAME_MAX,
    AuditEntry,
    Club,
    ClubInvite,
    GameNight,
    Membership,
    Move,
    NightShare,
    Play,
    Player,
    Seat,
    validate_time_zone,
)
from .selectors import LogEntry, judge_play, log_moves, seat_names
from .sqlrows import Columns, column, insert, instances, join, quoted


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


class StalePlayError(ServiceError):
    """Someone else changed the play (a move, an undo, abandoning it) since the form was made
    at its ``version``: nothing was changed."""


class PlayGoneError(ServiceError):
    """The play was deleted while the change was on its way: nothing was changed."""


# Clubs, players, nights ---------------------------------------------------------------------


def _limited(text: str, limit: int, message: str) -> str:
    if len(text) > limit:
        raise ServiceError(message % {"max": limit, "count": len(text)})
    return text


def _name(name: str, *, limit: int, missing: str, too_long: str) -> str:
    """A name in its one spelling (``games.names.normalise``), within ``limit``; or refused."""
    if len(name) > 4 * limit:  # not worth normalising: it cannot come down to the limit
        raise ServiceError(too_long % {"max": limit})
    if naming.has_lone_surrogate(name):
        raise ServiceError(_("This name has a broken character in it: type it again."))
    name = naming.normalise(name)
    if not name:
        raise ServiceError(missing)
    return _limited(name, limit, too_long)


@transaction.atomic
def create_club(*, name: str, owner: AbstractBaseUser) -> Club:
    """A new club, owned by ``owner``. Club names need not be unique: a refusal would tell
    anyone which clubs exist, and every club is found by its id."""
    name = _name(
        name,
        limit=CLUB_NAME_MAX,
        missing=_("A club needs a name."),
        too_long=_("A club's name is at most %(max)d characters."),
    )
    club = Club.objects.create(name=name)
    Membership.objects.create(club=club, user=owner, role=Membership.Role.OWNER)
    return club


def _name_taken(name: str) -> ServiceError:
    return ServiceError(_("There is already a player named “%(name)s”.") % {"name": name})


def _player_name(name: str) -> str:
    return _name(
        name,
        limit=PLAYER_NAME_MAX,
        missing=_("A player needs a name."),
        too_long=_("A player's name is at most %(max)d characters."),
    )


def _refuse_look_alike(name: str, others: Sequence[str]) -> None:
    other = naming.looks_like(name, others)
    if other is not None:
        raise ServiceError(
            _(
                "“%(name)s” would look just like “%(other)s”, who is already a player here: "
                "choose a name that reads differently."
            )
            % {"name": name, "other": other}
        )


@transaction.atomic
def update_club_settings(*, club: Club, time_zone: str, by: AbstractBaseUser | None) -> Club:
    """Change a club's settings (its time zone); the audit keeps what they were."""
    validate_time_zone(time_zone)
    club = Club.objects.select_for_update().get(pk=club.pk)
    before = {"time_zone": club.time_zone}
    club.time_zone = time_zone
    club.save(update_fields=["time_zone"])
    if before["time_zone"] != time_zone:
        record_audit(
            club_id=club.pk,
            action=AuditEntry.Action.CLUB_EDIT,
            by=by,
            object_kind="club",
            object_id=club.pk,
            summary=f"{before['time_zone']} → {time_zone}",
            data={"before": before, "after": {"time_zone": time_zone}},
        )
    return club


@transaction.atomic
def add_player(
    *, club: Club, name: str, user: AbstractBaseUser | None = None, guest: bool = False
) -> Player:
    """A new player of the club; ``guest`` for someone added at the table (start-a-play).

    Names are compared in their one spelling, and a name that would render like another
    player's (Cyrillic "Аna" beside "Ana") is refused."""
    name = _player_name(name)
    if Player.objects.filter(club=club, name=name).exists():
        raise _name_taken(name)
    existing = list(Player.objects.filter(club=club).values_list("name", flat=True))
    # A name stored before names were normalised ("Ana" + a zero-width space) is "Ana" too.
    if any(other != name and naming.normalise(other) == name for other in existing):
        raise _name_taken(name)
    _refuse_look_alike(name, existing)
    try:
        # Two people adding the same name at once both pass the check above: the unique
        # constraint decides, and the loser is told, as if the name had been taken earlier.
        with transaction.atomic():
            return Player.objects.create(club=club, name=name, user=user, is_guest=guest)
    except IntegrityError:
        raise _name_taken(name)


def _night_text(place: str, notes: str) -> tuple[str, str]:
    """A game night's place (one line) and notes, cleaned and within their limits."""
    place = " ".join(naming.clean_text(place).split())
    notes = naming.clean_text(notes)
    _limited(place, PLACE_MAX, _("The place is at most %(max)d characters."))
    _limited(notes, NOTES_MAX, _("The notes are at most %(max)d characters (these are %(count)d)."))
    return place, notes


@transaction.atomic
def update_game_night(
    *,
    night: GameNight,
    date: datetime.date,
    place: str = "",
    notes: str = "",
    by: AbstractBaseUser | None = None,
) -> GameNight:
    """Change a game night's date, place or notes; the audit keeps what it was."""
    place, notes = _night_text(place, notes)
    night = GameNight.objects.select_for_update().get(pk=night.pk)
    before = {"date": night.date.isoformat(), "place": night.place, "notes": night.notes}
    night.date, night.place, night.notes = date, place, notes
    night.save(update_fields=["date", "place", "notes"])
    after = {"date": night.date.isoformat(), "place": night.place, "notes": night.notes}
    if after != before:
        record_audit(
            club_id=night.club_id,
            action=AuditEntry.Action.NIGHT_EDIT,
            by=by,
            object_kind="night",
            object_id=night.pk,
            summary=f"{night.date.isoformat()} {night.place}".strip(),
            data={"before": before, "after": after},
        )
    return night


@transaction.atomic
def create_game_night(
    *, club: Club, date: datetime.date, place: str = "", notes: str = ""
) -> GameNight:
    place, notes = _night_text(place, notes)
    return GameNight.objects.create(club=club, date=date, place=place, notes=notes)


# Plays and moves ----------------------------------------------------------------------------


def _storable(value: Any) -> None:
    """Refuse a move, setup or log that nests too deeply or holds what no database stores
    (NaN, ``\\u0000``, a lone surrogate…), whoever built it (games.userjson)."""
    try:
        userjson.check(value)
    except userjson.UserJSONError as exc:
        raise ServiceError(exc.message)


def _seats(play: Play) -> list[Seat]:
    return list(play.seats.select_related("player").order_by("position"))


def refresh_results(
    play: Play, judgement: Judgement, seats: list[Seat] | None = None, *, advance: bool = False
) -> None:
    """Rewrite the derived results of a play from the referee's judgement of its log.

    ``seats`` (with their players), when the caller already has them, saves a query. Only the
    rows whose values change are written. ``advance``: the play's version moves on in the same
    UPDATE (see _advance; the caller holds the play's row lock).
    """
    finished = judgement.status == "finished"
    winners = set(judgement.winners)
    scores = judgement.scores
    # Partners (the setup's teams, numbered from 1 in its order) share a team number.
    teams = {name: number for number, team in enumerate(judgement.teams, 1) for name in team}
    if seats is None:
        seats = _seats(play)
    before = {seat.pk: (seat.score, seat.rank, seat.is_winner, seat.team) for seat in seats}
    for seat in seats:
        seat.score = int(scores.get(seat.player.name, 0))
        seat.is_winner = finished and seat.player.name in winners
        # The referee ranks a finished game (ties share a rank); no rank before the end.
        seat.rank = judgement.ranks.get(seat.player.name)
        seat.team = teams.get(seat.player.name)
    changed = [s for s in seats if before[s.pk] != (s.score, s.rank, s.is_winner, s.team)]
    if changed:
        Seat.objects.bulk_update(changed, ["score", "rank", "is_winner", "team"])
    was_finished = play.status == Play.Status.FINISHED
    if play.status != Play.Status.ABANDONED:
        play.status = Play.Status.FINISHED if finished else Play.Status.IN_PROGRESS
        if finished and play.ended_at is None:
            play.ended_at = timezone.now()
        elif not finished:
            play.ended_at = None
    play.details = judgement.details
    if advance:
        _advance(play, results=True)
    else:
        play.save(update_fields=["status", "ended_at", "details"])
    if was_finished or play.status == Play.Status.FINISHED:
        # Ratings and running totals follow the results, from this play's time onward (only
        # finished plays are rated, so a play that neither was nor is finished changes none).
        ratings.refresh_for_play(play)


@transaction.atomic
def start_play(
    *,
    night: GameNight,
    game: str,
    players: Sequence[Player],
    setup: Any,
    by: AbstractBaseUser | None = None,
    started_at: datetime.datetime | None = None,
) -> Play:
    """Start a play with its seats in order; the referee checks the setup first."""
    if game not in GAMES:
        raise ServiceError(_("Unknown game “%(game)s”.") % {"game": game})
    if any(player.club_id != night.club_id for player in players):
        raise ServiceError(_("Every player must belong to the club."))
    if len({player.pk for player in players}) != len(players):
        raise ServiceError(_("A player can take only one seat."))
    _storable(setup)
    names = [player.name for player in players]
    verdict = judge(
        {"format": "gamelog/1", "game": game, "players": names, "setup": setup, "moves": []}
    )
    if not verdict.legal:
        raise ServiceError(verdicts.explain(verdict, where=False))
    play = Play.objects.create(
        club=night.club,
        night=night,
        game=game,
        # What the referee understood (known keys, canonical names), never the raw input.
        setup=verdict.setup,
        started_at=started_at or timezone.now(),
        created_by=by,
    )
    Seat.objects.bulk_create(
        Seat(play=play, position=index, player=player) for index, player in enumerate(players)
    )
    refresh_results(play, verdict)
    _audit_play(play, AuditEntry.Action.PLAY_START, by=by, setup=play.setup)
    live.notify(night.pk, play.pk)  # the night's page shows it
    return play


def stale_error() -> StalePlayError:
    return StalePlayError(_("Someone else changed this play — here is where it stands now."))


def _lock(play: Play, version: int | None = None) -> Play:
    """Lock the play's row, so that changes to one play are made one after the other; refuse
    the change if the play moved on from ``version`` (the one its form was made at) or is gone.

    ``version`` None skips the check: for callers that act on the play as it is now (the
    commands, the tests); every form of the site carries its version.
    """
    try:
        locked = Play.objects.select_for_update().get(pk=play.pk)
    except Play.DoesNotExist:
        raise PlayGoneError(_("This play has been deleted: nothing was changed."))
    if version is not None and locked.version != version:
        raise stale_error()
    return locked


def _advance(play: Play, *, results: bool = False) -> None:
    """The play changed: forms made at its version until now are stale. In the change's
    transaction, on the locked row; an increment in the database, so that no stale instance
    saved elsewhere can ever take the version back. Every page watching the play is told once
    the change commits (games.live). ``results``: the play's status, end and details are
    written by the same statement (one UPDATE per move entry)."""
    fields = ("status", "ended_at", "details") if results else ()
    sets, params = [], []
    for name in fields:
        field = Play._meta.get_field(name)
        sets.append(f"{quoted(field.column)} = %s")
        params.append(field.get_db_prep_save(getattr(play, name), connection))
    # Written by hand (games.sqlrows): the ORM took longer to build it than the database to
    # run it. On PostgreSQL the same statement also sends the play's NOTIFY (games.live).
    with connection.cursor() as cursor:
        cursor.execute(live.advance_version_sql(Play._meta.db_table, sets), [*params, play.pk])
        play.version = cursor.fetchone()[0]
    if not live.is_postgresql():
        live.changed_on_commit(play.night_id, play.pk)


#: What a move entry's ``compose`` returns while the move is not complete (nothing is stored).
NOT_COMPLETE = object()


@dataclass
class PlayState:
    """A play as its page shows it, read once under the play's row lock by a move entry, so
    that the page is rendered from memory: the seats (players joined), the whole move log
    (undone entries included), the referee's judgement of its active moves, and, once a move
    is stored, that entry and the judgement before it."""

    play: Play
    seats: list[Seat]
    log: list[LogEntry]
    judgement: Judgement
    entered: LogEntry | None = None
    before: Judgement | None = None

    @property
    def names(self) -> list[str]:
        return [seat.player.name for seat in self.seats]


def enter_move(
    *,
    play: Play,
    by: AbstractBaseUser | None,
    version: int | None,
    compose: Callable[[Judgement, list[str]], Any],
) -> PlayState:
    """One entry at the table: under the play's row lock, read its seats and its move log
    once, judge the log, let ``compose`` make the move from that judgement and the players'
    names (what was tapped; it returns NOT_COMPLETE while the move is not complete, and then
    nothing is stored), judge the move from that judgement (judge_next: the log is judged
    once), and store the move, the results and the new version; or refuse (IllegalMoveError,
    ServiceError, with ``state``).

    ``version`` is the play's version the entry form was made at: if the play changed since
    (another entry, an undo, abandoning it), the entry is refused (StalePlayError) rather than
    applied to a position its author did not see. On success ``play`` itself carries the new
    status, details and version.
    """
    try:
        state = _enter_move(play_id=play.pk, by=by, version=version, compose=compose)
    except IntegrityError:
        # The unique (play, seq) constraint, last line of defence behind the row lock: the
        # whole transaction is rolled back and nothing is stored.
        raise stale_error()
    stored = state.play
    play.status, play.ended_at, play.details = stored.status, stored.ended_at, stored.details
    play.version = stored.version
    return state


def record_move(
    *,
    play: Play,
    move: Any,
    by: AbstractBaseUser | None = None,
    version: int | None = None,
) -> Judgement:
    """Judge the whole log with ``move`` appended; store the move and the results, or refuse
    (enter_move, for a move already composed)."""
    return enter_move(play=play, by=by, version=version, compose=lambda *_: move).judgement


@functools.cache
def _seated_sql(vendor: str) -> tuple[str, Columns, Columns, Columns]:
    """_lock_seated's one statement (sqlrows: the ORM took ten times longer to build it than
    the database to run it), with the columns of its seats, players and play."""
    seat, player, play = Columns.of(Seat), Columns.of(Player), Columns.of(Play)
    seats = Seat._meta.db_table
    lock = ""
    if connection.features.has_select_for_update_of:
        lock = f" FOR UPDATE OF {quoted(Play._meta.db_table)}"
    sql = (
        f"SELECT {seat.sql}, {player.sql}, {play.sql} FROM {quoted(seats)}"
        + join(Player, column(seats, "player_id"))
        + join(Play, column(seats, "play_id"))
        + f" WHERE {column(seats, 'play_id')} = %s ORDER BY {column(seats, 'position')}{lock}"
    )
    return sql, seat, player, play


def _lock_seated(play_id: int, version: int | None) -> tuple[Play, list[Seat]]:
    """_lock, reading the play's seats (and their players) in the same query. On SQLite the
    transaction itself holds the lock (it begins IMMEDIATE: config/settings.py)."""
    sql, seat_columns, player_columns, play_columns = _seated_sql(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [play_id])
        rows = cursor.fetchall()
    if not rows:  # a play always has its seats: none means it is gone
        raise PlayGoneError(_("This play has been deleted: nothing was changed."))
    (play,) = instances(Play, play_columns, rows[:1], start=len(seat_columns) + len(player_columns))
    if version is not None and play.version != version:
        raise stale_error()
    seats = instances(Seat, seat_columns, rows)
    players = instances(Player, player_columns, rows, start=len(seat_columns))
    for seat, player in zip(seats, players, strict=True):
        seat.play, seat.player = play, player
    return play, seats


@transaction.atomic
def _enter_move(
    *,
    play_id: int,
    by: AbstractBaseUser | None,
    version: int | None,
    compose: Callable[[Judgement, list[str]], Any],
) -> PlayState:
    play, seats = _lock_seated(play_id, version)
    log = log_moves(play)
    names = [seat.player.name for seat in seats]
    active = [entry.data for entry in log if entry.undone_at is None]
    state = PlayState(play, seats, log, judge_play(play, names, active))
    move = compose(state.judgement, names)
    if move is NOT_COMPLETE:
        return state
    try:
        _storable(move)
        if play.status == Play.Status.ABANDONED:
            raise ServiceError(_("This play was abandoned: no more moves can be entered."))
        judgement = judge_next(state.judgement, move)
        if judgement.error is not None:
            if judgement.error["move"] == len(active):
                raise IllegalMoveError(judgement)
            # The stored log itself no longer judges legal (it should never happen): say so.
            raise ServiceError(verdicts.explain(judgement))
    except ServiceError as refusal:
        refusal.state = state
        raise
    # What the referee understood (known keys, canonical names), never the raw input.
    understood = judgement.plans[-1].canonical()
    seq = log[-1].seq + 1 if log else 0
    stored = Move(play=play, seq=seq, data=understood, entered_by=by)
    insert(stored)
    refresh_results(play, judgement, seats, advance=True)
    _audit_play(play, AuditEntry.Action.MOVE_ENTER, by=by, names=names, seq=seq, move=understood)
    entered = LogEntry(seq, understood, _entered_by(by), stored.entered_at, None, None)
    return PlayState(play, seats, [*log, entered], judgement, entered, state.judgement)


def _entered_by(by: AbstractBaseUser | None) -> str | None:
    return by.get_username() if by is not None and by.is_authenticated else None


@transaction.atomic
def undo_last_move(
    *, play: Play, by: AbstractBaseUser | None = None, version: int | None = None
) -> Move:
    """Mark the last active move undone (kept in the log, with who and when).

    ``version``: as for ``record_move`` — two undos sent from one page undo one move, not two.
    """
    play = _lock(play, version)
    if play.status == Play.Status.ABANDONED:
        raise ServiceError(_("This play was abandoned: its log cannot change."))
    last = play.moves.active().last()
    if last is None:
        raise ServiceError(_("There is no move to undo."))
    last.undone_at = timezone.now()
    last.undone_by = by
    last.save(update_fields=["undone_at", "undone_by"])
    _advance(play)
    rejudge(play)
    _audit_play(play, AuditEntry.Action.MOVE_UNDO, by=by, seq=last.seq, move=last.data)
    return last


def rejudge(play: Play) -> Judgement:
    """Judge the play's active log again and rewrite its derived results."""
    moves = [m.data for m in play.moves.active()]
    judgement = judge_play(play, seat_names(play), moves)
    refresh_results(play, judgement)
    return judgement


@transaction.atomic
def abandon_play(
    *, play: Play, by: AbstractBaseUser | None = None, version: int | None = None
) -> Play:
    play = _lock(play, version)
    # A finished play's results and ratings stand; an abandoned one keeps when it was abandoned.
    if play.status == Play.Status.FINISHED:
        raise ServiceError(_("A finished play cannot be abandoned."))
    if play.status == Play.Status.ABANDONED:
        raise ServiceError(_("This play was already abandoned."))
    play.status = Play.Status.ABANDONED
    play.ended_at = timezone.now()
    play.save(update_fields=["status", "ended_at"])
    _advance(play)
    _audit_play(play, AuditEntry.Action.PLAY_ABANDON, by=by)
    return play


@transaction.atomic
def resume_play(
    *, play: Play, by: AbstractBaseUser | None = None, version: int | None = None
) -> Judgement:
    """Take back abandoning a play (the owner's call: the view checks it): moves can be entered
    again. Its results are judged again from its log, so the status, and the ratings should the
    log be finished, follow the log rather than whatever the play said when it was abandoned."""
    play = _lock(play, version)
    if play.status != Play.Status.ABANDONED:
        raise ServiceError(_("Only an abandoned play can be resumed."))
    play.status = Play.Status.IN_PROGRESS  # rejudge then sets it, and ended_at, from the log
    _advance(play)
    judgement = rejudge(play)
    _audit_play(play, AuditEntry.Action.PLAY_RESUME, by=by)
    return judgement


# Game logs ----------------------------------------------------------------------------------


def _imported_play_time(night: GameNight) -> datetime.datetime:
    """When an imported play took place: now for tonight's night, else that night's evening."""
    now = timezone.now()
    if night.date >= timezone.localdate(now):
        return now
    evening = datetime.datetime.combine(night.date, datetime.time(20, 0))
    return timezone.make_aware(evening) + datetime.timedelta(seconds=night.plays.count())


@transaction.atomic
def import_log(
    *,
    club: Club,
    log: Any,
    night_date: datetime.date | None = None,
    night: GameNight | None = None,
    by: AbstractBaseUser | None = None,
) -> Play:
    """Create a play (and missing players) from a ``gamelog/1`` document, or refuse it whole.

    The referee judges the log first; an illegal log is refused with the referee's message.
    The play goes into ``night``, or the club's first night on ``night_date`` (default: today),
    created if there is none.
    """
    if night is not None and night.club_id != club.pk:
        raise ServiceError(_("That game night belongs to another club."))
    _storable(log)
    judgement = judge(log)
    if not judgement.legal:
        raise IllegalMoveError(judgement)
    log_names: list[str] = log["players"]
    existing = list(Player.objects.filter(club=club).values_list("name", flat=True))
    players = []
    for name in log_names:
        player = Player.objects.filter(club=club, name=name).first()
        if player is None:
            # The log's names are its seats' names: a new player takes the name exactly as
            # written, so it must already be in its one spelling.
            if (
                len(name) > PLAYER_NAME_MAX
                or naming.has_lone_surrogate(name)
                or name != naming.normalise(name)
            ):
                raise ServiceError(
                    _(
                        "“%(name)s” cannot be a player's name here (at most %(max)d characters, "
                        "no invisible characters, no leading, trailing or double spaces)."
                    )
                    % {"name": name, "max": PLAYER_NAME_MAX}
                )
            _refuse_look_alike(name, existing)
            try:
                with transaction.atomic():  # another import may be adding the same name
                    player = Player.objects.create(club=club, name=name)
            except IntegrityError:
                player = Player.objects.get(club=club, name=name)
            existing.append(name)
        players.append(player)
    if night is None:
        date = night_date or timezone.localdate()
        night = GameNight.objects.filter(club=club, date=date).order_by("id").first()
        if night is None:
            night = GameNight.objects.create(club=club, date=date)
    play = Play.objects.create(
        club=club,
        night=night,
        game=judgement.game,
        # What the referee understood (known keys, canonical names), never the raw input.
        setup=judgement.setup,
        started_at=_imported_play_time(night),
        created_by=by,
    )
    if judgement.status == "finished":
        # The log has no clock: a past night's play is dated that evening, not today.
        play.ended_at = play.started_at
    Seat.objects.bulk_create(
        Seat(play=play, position=index, player=player) for index, player in enumerate(players)
    )
    moves = judgement.moves
    Move.objects.bulk_create(
        Move(play=play, seq=index, data=move, entered_by=by) for index, move in enumerate(moves)
    )
    refresh_results(play, judgement)
    _audit_play(play, AuditEntry.Action.PLAY_IMPORT, by=by, moves=len(moves))
    return play


# Trust: audit trail, invites, membership, deletions -----------------------------------------
# Every entry of the audit is written here, in the transaction of the change it records.


def _actor_name(by: AbstractBaseUser | None) -> str:
    return by.get_username() if by is not None else ""


def record_audit(
    *,
    club_id: int,
    action: str,
    by: AbstractBaseUser | None,
    object_kind: str,
    object_id: int | None,
    summary: str,
    data: dict[str, Any] | None = None,
) -> AuditEntry:
    """Add one entry to a club's audit trail (the caller's transaction keeps it with the change)."""
    entry = AuditEntry(
        club_id=club_id,
        actor=by if by is not None and by.is_authenticated else None,
        actor_name=_actor_name(by),
        action=action,
        object_kind=object_kind,
        object_id=object_id,
        summary=summary[:300],
        data=data or {},
    )
    insert(entry)  # every move entry writes one: sqlrows
    return entry


def _play_summary(play: Play, names: Sequence[str] | None = None) -> str:
    names = ", ".join(seat_names(play) if names is None else names)
    return f"{play.game_title} #{play.pk} ({names})"


def _audit_play(
    play: Play,
    action: str,
    *,
    by: AbstractBaseUser | None,
    names: Sequence[str] | None = None,
    **data: Any,
) -> AuditEntry:
    """An audit entry about ``play`` (``names``: its players, when the caller has them)."""
    return record_audit(
        club_id=play.club_id,
        action=action,
        by=by,
        object_kind="play",
        object_id=play.pk,
        summary=_play_summary(play, names),
        data={"game": play.game, **data},
    )


@transaction.atomic
def create_invite(
    *,
    club: Club,
    by: AbstractBaseUser,
    max_uses: int = 1,
    lifetime: datetime.timedelta | None = None,
) -> ClubInvite:
    """A new invite link for ``club``: ``max_uses`` people may join with it until it expires."""
    if not 1 <= max_uses <= 100:
        raise ServiceError(_("An invite link is for 1 to 100 people."))
    now = timezone.now()
    invite = ClubInvite.objects.create(
        club=club,
        created_by=by,
        created_at=now,
        expires_at=now + (lifetime or INVITE_LIFETIME),
        max_uses=max_uses,
    )
    record_audit(
        club_id=club.pk,
        action=AuditEntry.Action.MEMBER_INVITE,
        by=by,
        object_kind="invite",
        object_id=invite.pk,
        summary=f"#{invite.pk} ({invite.max_uses}×, → {invite.expires_at:%Y-%m-%d %H:%M} UTC)",
        data={"max_uses": max_uses, "expires_at": invite.expires_at.isoformat()},
    )
    return invite


@transaction.atomic
def revoke_invite(*, invite: ClubInvite, by: AbstractBaseUser) -> ClubInvite:
    invite = ClubInvite.objects.select_for_update().get(pk=invite.pk)
    if not invite.revoked:
        invite.revoked = True
        invite.save(update_fields=["revoked"])
        record_audit(
            club_id=invite.club_id,
            action=AuditEntry.Action.INVITE_REVOKE,
            by=by,
            object_kind="invite",
            object_id=invite.pk,
            summary=f"#{invite.pk}",
            data={"uses": invite.uses, "max_uses": invite.max_uses},
        )
    return invite


def _audit_share(share: NightShare, action: str, *, by: AbstractBaseUser) -> AuditEntry:
    night = share.night
    return record_audit(
        club_id=night.club_id,
        action=action,
        by=by,
        object_kind="night",
        object_id=night.pk,
        summary=f"{night.date:%Y-%m-%d} (#{share.pk})",
        data={"share": share.pk},
    )


@transaction.atomic
def share_night(*, night: GameNight, by: AbstractBaseUser) -> NightShare:
    """The night's read-only link: the working one if there is one, else a new one."""
    # The night's row is locked so that two owners asking at once make one link, not two.
    GameNight.objects.select_for_update().filter(pk=night.pk).first()
    share = NightShare.objects.active().filter(night=night).first()
    if share is not None:
        return share
    share = NightShare.objects.create(night=night, created_by=by)
    _audit_share(share, AuditEntry.Action.NIGHT_SHARE, by=by)
    return share


@transaction.atomic
def revoke_share(*, share: NightShare, by: AbstractBaseUser) -> NightShare:
    """Withdraw a read-only link: its pages answer 404 and its open streams end at once."""
    share = NightShare.objects.select_for_update().select_related("night").get(pk=share.pk)
    if share.revoked_at is None:
        share.revoked_at = timezone.now()
        share.save(update_fields=["revoked_at"])
        _audit_share(share, AuditEntry.Action.SHARE_REVOKE, by=by)
        # Wakes the night's streams, which read again and find the link gone (games.access).
        live.notify(share.night_id, 0)
    return share


@transaction.atomic
def join_club(*, invite: ClubInvite, user: AbstractBaseUser) -> Membership:
    """Make ``user`` a member of the invite's club, using the link once; or refuse."""
    # Locked, so that two people racing for the last use of a link cannot both get in.
    invite = ClubInvite.objects.select_for_update().select_related("club").get(pk=invite.pk)
    if Membership.objects.filter(club_id=invite.club_id, user=user).exists():
        raise ServiceError(_("You are already a member of this club."))
    refusal = invite.refusal()
    if refusal is not None:
        raise ServiceError(refusal)
    membership = Membership.objects.create(
        club_id=invite.club_id, user=user, role=Membership.Role.MEMBER
    )
    invite.uses += 1
    invite.save(update_fields=["uses"])
    record_audit(
        club_id=invite.club_id,
        action=AuditEntry.Action.MEMBER_JOIN,
        by=user,
        object_kind="membership",
        object_id=membership.pk,
        summary=user.get_username(),
        data={"invite": invite.pk, "user": user.pk},
    )
    return membership


@transaction.atomic
def remove_member(*, membership: Membership, by: AbstractBaseUser) -> None:
    """Take a member (or an owner) out of the club; a club always keeps at least one owner."""
    # Lock the club's owners, so that two owners removing each other cannot leave none.
    owners = list(
        Membership.objects.select_for_update()
        .filter(club_id=membership.club_id, role=Membership.Role.OWNER)
        .values_list("pk", flat=True)
    )
    membership = Membership.objects.select_related("user").get(pk=membership.pk)
    if membership.role == Membership.Role.OWNER and owners == [membership.pk]:
        raise ServiceError(_("The club's last owner cannot be removed."))
    record_audit(
        club_id=membership.club_id,
        action=AuditEntry.Action.MEMBER_REMOVE,
        by=by,
        object_kind="membership",
        object_id=membership.pk,
        summary=membership.user.get_username(),
        data={"user": membership.user_id, "role": membership.role},
    )
    membership.delete()


@transaction.atomic
def delete_play(*, play: Play, by: AbstractBaseUser, version: int | None = None) -> None:
    """Delete a play with its seats and moves; the audit keeps its whole log and results.

    ``version``: the one the confirmation was shown at — a play that changed since is not
    deleted unseen."""
    play = _lock(play, version)
    seats = play.seats.select_related("player").order_by("position")
    _audit_play(
        play,
        AuditEntry.Action.PLAY_DELETE,
        by=by,
        status=play.status,
        night=play.night.date.isoformat(),
        results=[
            {"player": seat.player.name, "score": seat.score, "rank": seat.rank} for seat in seats
        ],
        log=play_to_log(play),
    )
    live.notify(play.night_id, play.pk)  # its watchers find it gone and stop
    if play.status == Play.Status.FINISHED:
        # The plays rated after it were rated with it: rate them again without it (and take
        # what it counted out of the head-to-head records) before it goes.
        ratings.rebuild_club(play.club_id, since=play.ended_at, excluding=play.pk)
    play.delete()


@transaction.atomic
def delete_player(*, player: Player, by: AbstractBaseUser) -> None:
    """Delete a player who never took a seat; one with plays is kept (their results need them)."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    plays = player.seats.count()
    if plays:
        raise ServiceError(
            ngettext(
                "%(name)s has a seat in %(count)d play, so cannot be deleted: "
                "the play's results need them.",
                "%(name)s has seats in %(count)d plays, so cannot be deleted: "
                "those plays' results need them.",
                plays,
            )
            % {"name": player.name, "count": plays}
        )
    record_audit(
        club_id=player.club_id,
        action=AuditEntry.Action.PLAYER_DELETE,
        by=by,
        object_kind="player",
        object_id=player.pk,
        summary=player.name,
        data={"name": player.name, "user": player.user_id},
    )
    player.delete()
