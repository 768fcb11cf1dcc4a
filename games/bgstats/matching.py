"""Who and what a BG Stats file's players and games are in the club (read only): players by
their BG Stats uuid (case-insensitively), then by exact name, else new; games to the referee's
five by BGG id or by name (English or French), else to the club's catalogue by BGG id or name,
else new (with the file's flags)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import translation
from django.utils.translation import gettext as _

from referee import GAMES

from ..models import RESULT_MAX_PLAYERS, CatalogueGame, Club, Player
from .reader import BGExport, BGGame

#: How a player or game was matched, said on the preview and by the command.
BY_UUID, BY_BGG, BY_NAME, NEW, CHOSEN = "uuid", "bgg", "name", "new", "chosen"


@dataclass
class PlayerMatch:
    bg_id: int
    name: str  # in the file
    uuid: str
    player: Player | None  # None: a new player of that name
    how: str
    plays: int = 0  # in the file


@dataclass
class GameMatch:
    bg_id: int
    name: str
    key: str | None  # a referee game's name, or an existing catalogue game's key
    catalogue: CatalogueGame | None
    how: str
    plays: int = 0


def _titles() -> dict[str, str]:
    """Each refereed game's title in English and in French, folded → its name."""
    found = {}
    for name, engine in GAMES.items():
        found[name.casefold()] = name
        found[engine.title.casefold()] = name
        for language in ("en", "fr"):
            with translation.override(language):
                found[_(engine.title).casefold()] = name
    return found


def refereed_game(game: BGGame) -> str | None:
    """The referee's game a BG Stats game is, by BGG id (an engine's ``bgg_id``, if it says
    one) or by its title in English or French."""
    if game.bgg_id is not None:
        for name, engine in GAMES.items():
            if getattr(engine, "bgg_id", None) == game.bgg_id:
                return name
    return _titles().get(game.name.casefold())


def match(club: Club, export: BGExport) -> tuple[list[PlayerMatch], list[GameMatch]]:
    """The file's players and games (those its plays use), each with what it is in the club."""
    used_players: dict[int, int] = {}
    used_games: dict[int, int] = {}
    for play in export.plays:
        used_games[play.game] = used_games.get(play.game, 0) + 1
        for score in play.scores:
            used_players[score.player] = used_players.get(score.player, 0) + 1
    club_players = list(Player.objects.filter(club=club))
    by_uuid = {p.bgstats_uuid.lower(): p for p in club_players if p.bgstats_uuid}
    by_name = {p.name: p for p in club_players}
    players = []
    for bg_id in sorted(used_players, key=lambda i: export.players[i].name.casefold()):
        bg = export.players[bg_id]
        if bg.uuid and bg.uuid in by_uuid:
            found, how = by_uuid[bg.uuid], BY_UUID
        elif bg.name in by_name:
            found, how = by_name[bg.name], BY_NAME
        else:
            found, how = None, NEW
        players.append(PlayerMatch(bg_id, bg.name, bg.uuid, found, how, used_players[bg_id]))
    catalogue = list(CatalogueGame.objects.filter(club=club))
    by_bgg = {g.bgg_id: g for g in catalogue if g.bgg_id}
    by_game_name = {g.name.casefold(): g for g in catalogue}
    games = []
    for bg_id in sorted(used_games, key=lambda i: export.games[i].name.casefold()):
        bg = export.games[bg_id]
        refereed = refereed_game(bg)
        if refereed is not None:
            key, found, how = refereed, None, BY_BGG if bg.bgg_id else BY_NAME
        elif bg.bgg_id is not None and bg.bgg_id in by_bgg:
            found = by_bgg[bg.bgg_id]
            key, how = found.key, BY_BGG
        elif bg.name.casefold() in by_game_name:
            found = by_game_name[bg.name.casefold()]
            key, how = found.key, BY_NAME
        else:
            key, found, how = None, None, NEW
        games.append(GameMatch(bg_id, bg.name, key, found, how, used_games[bg_id]))
    return players, games


def catalogue_fields(game: BGGame) -> dict:
    """A new catalogue game's description, from the file's flags."""
    if game.cooperative:
        result = CatalogueGame.Result.COOPERATIVE
    elif game.no_points:
        result = CatalogueGame.Result.RANKS
    elif game.highest_wins:
        result = CatalogueGame.Result.HIGHEST
    else:
        result = CatalogueGame.Result.LOWEST
    return {
        "name": game.name,
        "result": result,
        "scored": not game.no_points,
        "teams": game.uses_teams,
        "min_players": 1,
        "max_players": RESULT_MAX_PLAYERS,
        "bgg_id": game.bgg_id,
        "bgstats_uuid": game.uuid,
    }


def plays_already_in(club: Club, export: BGExport) -> int:
    """How many of the file's plays the club has already (by their BG Stats uuid)."""
    from ..models import Play

    uuids = [play.uuid for play in export.plays]
    found = 0
    for start in range(0, len(uuids), 500):
        found += Play.objects.filter(club=club, bgstats_uuid__in=uuids[start : start + 500]).count()
    return found
