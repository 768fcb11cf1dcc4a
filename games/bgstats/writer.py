"""A club's plays written as a BG Stats file, refereed and result plays alike (read only), and
BG Stats' "add this play" link for one finished play.

The file has BG Stats' four tables (``players``, ``games``, ``locations``, ``plays``) with ids
1..n, and a stable uuid for every player, game and play: the one it came with from BG Stats, else
a uuid5 of our ids (the same every time, so that BG Stats recognises a play exported twice).
docs/bgstats.md describes every field.
"""

from __future__ import annotations

import datetime
import json
import uuid as uuidlib
from collections.abc import Iterable
from decimal import Decimal
from typing import Any
from urllib.parse import quote

from referee import GAMES

from .. import results
from ..models import CatalogueGame, Club, GameNight, Play, Seat

#: The namespace of the uuids made for what did not come from BG Stats.
NAMESPACE = uuidlib.UUID("0c8f6c1e-8a53-5b7e-b1d2-5b1f3c2e7a90")
#: BG Stats' documented link to add one play (support page "Push plays to BG Stats").
PUSH_URL = "https://app.bgstatsapp.com/createPlay.html?data="
#: The sending app's name in the push link: BG Stats remembers its user's matches of games and
#: players per sending app, so it stays the same.
SOURCE_NAME = "Game night referee"
#: What the file says made it.
ABOUT = "Game night referee: a club's plays (refereed and entered as results)"


def made_uuid(kind: str, club_id: int, pk: int | str) -> str:
    return str(uuidlib.uuid5(NAMESPACE, f"{kind}:{club_id}:{pk}"))


def _date(moment: datetime.datetime, club: Club) -> str:
    return moment.astimezone(club.zone).strftime("%Y-%m-%d %H:%M:%S")


def _score_text(seat: Seat, play: Play) -> str:
    if seat.entered_score is not None:
        return results.score_text(seat.entered_score)
    if play.kind == Play.Kind.RESULT:
        return ""
    return str(seat.score)


def game_flags(play: Play) -> dict[str, Any]:
    """What BG Stats says of a play's game: cooperative, highestWins, noPoints, usesTeams."""
    catalogue = play.catalogue_game
    if catalogue is not None:
        return {
            "cooperative": catalogue.cooperative,
            "highestWins": catalogue.result != CatalogueGame.Result.LOWEST,
            "noPoints": not catalogue.has_scores,
            "usesTeams": catalogue.teams,
        }
    engine = GAMES.get(play.game)
    cooperative = bool(engine and engine.cooperative)
    return {
        "cooperative": cooperative,
        "highestWins": True,
        "noPoints": cooperative,
        # A refereed game with partners (Punto for four) says so play by play (usesTeams).
        "usesTeams": False,
    }


def manual_winner(play: Play, seats: list[Seat]) -> bool:
    """Whether something else than the top score decided the winners (a refereed game's
    tie-break, or a recorded result): BG Stats then keeps the winners as they are."""
    if not seats or play.details.get("won") is not None:
        return False
    winners = {seat.pk for seat in seats if seat.is_winner}
    if not winners:
        return False
    lowest = play.catalogue_game is not None and (
        play.catalogue_game.result == CatalogueGame.Result.LOWEST
    )
    if play.catalogue_game is not None and not play.catalogue_game.has_scores:
        return False
    values = [
        seat.entered_score if seat.entered_score is not None else seat.score for seat in seats
    ]
    if any(value is None for value in values):
        return True
    best = min(values) if lowest else max(values)
    return winners != {seat.pk for seat, value in zip(seats, values, strict=True) if value == best}


def export_club(club: Club, plays: Iterable[Play] | None = None) -> dict[str, Any]:
    """The club's finished (and ignored) plays, or ``plays``, as a BG Stats export."""
    if plays is None:
        plays = Play.objects.filter(
            club=club, status__in=[Play.Status.FINISHED, Play.Status.IGNORED]
        )
    plays = list(
        plays.with_durations()
        .select_related("catalogue_game", "night")
        .prefetch_related("seats__player")
        .order_by("started_at", "id")
    )
    players: dict[int, dict] = {}
    games: dict[str, dict] = {}
    locations: dict[str, dict] = {}
    rows = []
    for play in plays:
        game = games.get(play.game)
        if game is None:
            game = games[play.game] = _game_row(club, play, len(games) + 1)
        location = _location(locations, play.night)
        seats = sorted(play.seats.all(), key=lambda seat: seat.position)
        uses_teams = any(seat.team is not None for seat in seats)
        scores = []
        for seat in seats:
            player = players.get(seat.player_id)
            if player is None:
                player = players[seat.player_id] = {
                    "id": len(players) + 1,
                    "uuid": seat.player.bgstats_uuid
                    or made_uuid("player", club.pk, seat.player_id),
                    "name": seat.player.name,
                    "isAnonymous": False,
                }
            scores.append(
                {
                    "playerRefId": player["id"],
                    "score": _score_text(seat, play),
                    "winner": seat.is_winner,
                    "rank": seat.rank or 0,
                    "team": str(seat.team) if uses_teams and seat.team is not None else "",
                    "startPlayer": seat.position == 0,
                    "seatOrder": seat.position + 1,
                    "newPlayer": False,
                    "role": "",
                }
            )
        rows.append(
            {
                "uuid": play.bgstats_uuid or made_uuid("play", club.pk, play.pk),
                "playDate": _date(play.started_at, club),
                "durationMin": play.duration or 0,
                "ignored": play.status == Play.Status.IGNORED,
                "manualWinner": manual_winner(play, seats),
                "usesTeams": uses_teams,
                "gameRefId": game["id"],
                "locationRefId": location["id"] if location else 0,
                "comments": play.notes,
                "board": "",
                "rounds": 0,
                "playerScores": scores,
            }
        )
    return {
        "about": ABOUT,
        "players": list(players.values()),
        "games": list(games.values()),
        "locations": list(locations.values()),
        "plays": rows,
    }


def _game_row(club: Club, play: Play, number: int) -> dict:
    catalogue = play.catalogue_game
    if catalogue is not None:
        uuid = catalogue.bgstats_uuid or made_uuid("game", club.pk, catalogue.pk)
        bgg = catalogue.bgg_id or 0
    else:
        uuid = made_uuid("game", club.pk, play.game)
        bgg = getattr(GAMES.get(play.game), "bgg_id", None) or 0
    return {
        "id": number,
        "uuid": uuid,
        "name": play.game_title,
        "bggId": bgg,
        **game_flags(play),
    }


def _location(locations: dict[str, dict], night: GameNight) -> dict | None:
    if not night.place:
        return None
    found = locations.get(night.place)
    if found is None:
        found = locations[night.place] = {
            "id": len(locations) + 1,
            "uuid": made_uuid("location", night.club_id, night.place),
            "name": night.place,
        }
    return found


def _number(score: Decimal | int | None) -> int | float | None:
    if score is None:
        return None
    value = Decimal(score)
    return int(value) if value == value.to_integral_value() else float(value)


def push_link(play: Play, seats: list[Seat] | None = None) -> str:
    """BG Stats' "add this play" link for a finished play (its documented push format): the
    play as a JSON object, url-encoded after ``data=``. BG Stats, opening it, asks its user to
    match the game and the players to their own (and remembers them for ``sourceName``); the
    play's ``sourcePlayId`` is the uuid the club's export gives it."""
    club = play.club
    if seats is None:  # else the page's own, their players joined, in seat order
        seats = list(play.seats.select_related("player").order_by("position"))
    flags = game_flags(play)
    catalogue = play.catalogue_game
    data = {
        "board": "",
        "durationMin": play.duration or 0,
        "comments": play.notes,
        "game": {
            "bggId": (catalogue.bgg_id if catalogue else None) or 0,
            "highestWins": flags["highestWins"],
            "name": play.game_title,
            "noPoints": flags["noPoints"],
            "sourceGameId": play.game,
        },
        "location": play.night.place,
        "playDate": _date(play.started_at, club),
        "players": [
            {
                "startPlayer": seat.position == 0,
                "name": seat.player.name,
                "rank": seat.rank or 0,
                "role": "",
                **(
                    {"score": _number(seat.entered_score if play.is_result else seat.score)}
                    if not flags["noPoints"]
                    and (seat.entered_score is not None or not play.is_result)
                    else {}
                ),
                "sourcePlayerId": str(seat.player_id),
                "winner": seat.is_winner,
            }
            for seat in seats
        ],
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play.bgstats_uuid or made_uuid("play", club.pk, play.pk),
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return PUSH_URL + quote(text, safe="")
