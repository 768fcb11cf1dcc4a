"""A BG Stats file brought into a club, in one transaction: its players matched or added, its
games matched to the referee's or the catalogue's or added, each of its plays stored as a result
play (a BG Stats play has no move log: the referee never sees it), checked as any result is
(games.results, with the file's winners and ranks as recorded); then the club's ratings rebuilt
once from the earliest play added. Plays already in the club (by their BG Stats uuid) are not
added again; the whole file is refused if one play cannot stand."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from .. import names as naming
from .. import ratings, results
from ..bgstats.matching import NEW, GameMatch, PlayerMatch, catalogue_fields, match
from ..bgstats.reader import BGExport, BGPlay
from ..models import (
    PLACE_MAX,
    PLAYER_NAME_MAX,
    AuditEntry,
    CatalogueGame,
    Club,
    GameNight,
    Play,
    Player,
    RatingChange,
    Seat,
)
from .audit import record_audit
from .errors import ServiceError
from .results import add_catalogue_game, rule_of

#: How many rows a statement writes at a time.
BATCH = 500


@dataclass
class ImportSummary:
    """What an import did, for the page and the command."""

    added: int = 0
    already: int = 0  # plays the club had already (same BG Stats uuid)
    without_players: int = 0  # plays with nobody seated: nothing to count, left out
    ignored: int = 0  # added, but left out of statistics as the file says
    players_added: list[str] = field(default_factory=list)
    games_added: list[str] = field(default_factory=list)
    nights_added: int = 0
    players: list[PlayerMatch] = field(default_factory=list)
    games: list[GameMatch] = field(default_factory=list)


def _new_player_name(name: str, taken: dict[str, Player], bg_id: int) -> str:
    """A name for a player the file brings: its own, in our one spelling and within the limit;
    "Player 12" for a file's nameless one."""
    name = naming.normalise(naming.clean_text(name))[:PLAYER_NAME_MAX].strip()
    return name or _("Player %(number)d") % {"number": bg_id}


@transaction.atomic
def import_bgstats(
    *,
    club: Club,
    export: BGExport,
    choices: Mapping[int, int | None] | None = None,
    by: AbstractBaseUser | None = None,
) -> ImportSummary:
    """Bring the file's plays into the club (see the module). ``choices``: the owner's say on
    the preview, a file's player id → a club player's id (None: a new player)."""
    # One import into a club at a time: two at once would both add the same plays.
    Club.objects.select_for_update().filter(pk=club.pk).first()
    players, games = match(club, export)
    summary = ImportSummary(players=players, games=games)
    club_players = {player.pk: player for player in Player.objects.filter(club=club)}
    for found in players:
        if choices is not None and found.bg_id in choices:
            chosen = choices[found.bg_id]
            if chosen is not None and chosen not in club_players:
                raise ServiceError(_("Choose the players among the club's."))
            found.player = club_players.get(chosen) if chosen is not None else None
            found.how = "chosen" if chosen is not None else NEW
    by_name = {player.name: player for player in club_players.values()}
    seated: dict[int, Player] = {}
    for found in players:
        player = found.player
        if player is None:
            name = _new_player_name(found.name, by_name, found.bg_id)
            player = by_name.get(name)
            if player is None:
                player = Player.objects.create(club=club, name=name, bgstats_uuid=found.uuid)
                by_name[name] = player
                summary.players_added.append(name)
        if found.uuid and not player.bgstats_uuid:
            # Found again by it next time, whatever the name.
            player.bgstats_uuid = found.uuid
            Player.objects.filter(pk=player.pk).update(bgstats_uuid=found.uuid)
        seated[found.bg_id] = player
    game_keys: dict[int, tuple[str, CatalogueGame | None]] = {}
    for found in games:
        if found.how == NEW:
            added = add_catalogue_game(
                club=club, **catalogue_fields(export.games[found.bg_id]), by=by
            )
            summary.games_added.append(added.name)
            game_keys[found.bg_id] = (added.key, added)
        else:
            game_keys[found.bg_id] = (found.key, found.catalogue)
    known = _known_uuids(club, [play.uuid for play in export.plays])
    nights = {night.date: night for night in club.nights.order_by("-id")}
    # The nights the new plays need, made in a few statements (a history spans years of them).
    missing: dict[datetime.date, str] = {}
    for play in export.plays:
        day = play.date.date()
        if day not in nights and day not in missing and play.scores and play.uuid not in known:
            place = export.locations.get(play.location or 0, "")
            missing[day] = " ".join(place.split())[:PLACE_MAX]
    made = GameNight.objects.bulk_create(
        [GameNight(club=club, date=day, place=place) for day, place in missing.items()],
        batch_size=BATCH,
    )
    nights.update({night.date: night for night in made})
    summary.nights_added = len(made)
    zone = club.zone
    plays: list[Play] = []
    seats: list[list[Seat]] = []
    added_uuids: set[str] = set()
    for play in export.plays:
        if play.uuid in known or play.uuid in added_uuids:
            summary.already += 1
            continue
        if not play.scores:
            summary.without_players += 1
            continue
        key, catalogue = game_keys[play.game]
        if len({seated[score.player].pk for score in play.scores}) != len(play.scores):
            raise ServiceError(
                _("The play of %(game)s on %(date)s would seat one of the club's players twice.")
                % {"game": export.games[play.game].name, "date": f"{play.date:%Y-%m-%d %H:%M}"}
            )
        outcomes = _judged(play, export, key, catalogue)
        cooperative = rule_of(key, catalogue).result == results.COOPERATIVE
        night = nights[play.date.date()]
        started = play.date.replace(tzinfo=zone)
        stored = Play(
            club=club,
            night=night,
            game=key,
            kind=Play.Kind.RESULT,
            catalogue_game=catalogue,
            status=Play.Status.IGNORED if play.ignored else Play.Status.FINISHED,
            started_at=started,
            ended_at=started + datetime.timedelta(minutes=play.duration or 0),
            duration_minutes=play.duration,
            notes=naming.clean_text(play.comments)[:2000],
            bgstats_uuid=play.uuid,
            created_by=by,
            details={"won": outcomes[0].winner} if cooperative else {},
        )
        plays.append(stored)
        added_uuids.add(play.uuid)
        summary.ignored += play.ignored
        seats.append(
            [
                Seat(
                    position=index,
                    player=seated[score.player],
                    score=results.whole(outcome.score),
                    entered_score=outcome.score,
                    rank=outcome.rank,
                    is_winner=outcome.winner,
                    team=outcome.team,
                )
                for index, (score, outcome) in enumerate(
                    zip(_in_seat_order(play), outcomes, strict=True)
                )
            ]
        )
    Play.objects.bulk_create(plays, batch_size=BATCH)
    for stored, its_seats in zip(plays, seats, strict=True):
        for seat in its_seats:
            seat.play = stored
    Seat.objects.bulk_create([seat for its in seats for seat in its], batch_size=BATCH)
    summary.added = len(plays)
    rated = [play.ended_at for play in plays if play.status == Play.Status.FINISHED]
    if rated:
        since = min(rated)
        # A history brought into a club with nothing rated before it is rated whole, the way
        # a full rebuild does (no player's standing to look up before it, one at a time).
        earlier = RatingChange.objects.filter(club_id=club.pk, played_at__lt=since).exists()
        ratings.rebuild_club(club.pk, since=since if earlier else None)
    if plays or summary.players_added or summary.games_added:
        record_audit(
            club_id=club.pk,
            action=AuditEntry.Action.BGSTATS_IMPORT,
            by=by,
            object_kind="club",
            object_id=club.pk,
            summary=_("%(count)d plays from BG Stats") % {"count": summary.added},
            data={
                "added": summary.added,
                "already": summary.already,
                "players_added": summary.players_added,
                "games_added": summary.games_added,
            },
        )
    return summary


def _known_uuids(club: Club, uuids: list[str]) -> set[str]:
    known: set[str] = set()
    for start in range(0, len(uuids), BATCH):
        chunk = uuids[start : start + BATCH]
        known.update(
            Play.objects.filter(club=club, bgstats_uuid__in=chunk).values_list(
                "bgstats_uuid", flat=True
            )
        )
    return known


def _in_seat_order(play: BGPlay) -> list:
    """The play's scores in seat order (BG Stats' ``seatOrder``, else as listed)."""
    orders = [score.seat_order for score in play.scores]
    if len(set(orders)) == len(orders):
        return sorted(play.scores, key=lambda score: score.seat_order)
    return list(play.scores)


def _judged(
    play: BGPlay, export: BGExport, key: str, catalogue: CatalogueGame | None
) -> list[results.Outcome]:
    """The play's seats' outcomes, with the file's winners and ranks as recorded; the whole
    file refused, naming the play, if they cannot stand."""
    scores = _in_seat_order(play)
    teams: dict[str, int] = {}
    entries = []
    for score in scores:
        team = None
        if play.uses_teams and score.team:
            team = teams.setdefault(score.team.casefold(), len(teams) + 1)
        entries.append(results.Entry(score.score, score.rank, team))
    try:
        return results.judge_result(
            rule_of(key, catalogue), entries, winners=[score.winner for score in scores]
        )
    except results.ResultError as exc:
        raise ServiceError(
            _("The play of %(game)s on %(date)s cannot be brought in: %(reason)s")
            % {
                "game": export.games[play.game].name,
                "date": play.date.strftime("%Y-%m-%d %H:%M"),
                "reason": exc.message,
            }
        ) from None
