"""A BG Stats file read: a full export (``BGStatsExport.json``), a play file (``.bgsplay``: the
same tables, holding the plays shared) or a zip holding one of them; read within a size cap and
as plain JSON (games.userjson), and checked field by field into plain records. No database.

What is read of each table (docs/bgstats.md has every field and the choices made):

- ``players``: ``id``, ``uuid``, ``name``;
- ``games``: ``id``, ``uuid``, ``name``, ``bggId``, ``cooperative``, ``highestWins``,
  ``noPoints``, ``usesTeams``;
- ``locations``: ``id``, ``name``;
- ``plays``: ``uuid``, ``playDate``, ``durationMin``, ``ignored``, ``gameRefId``,
  ``locationRefId``, ``comments``, ``usesTeams``, ``playerScores`` (``playerRefId``,
  ``score``, ``winner``, ``rank``, ``team``, ``startPlayer``, ``seatOrder``).

Anything else is ignored. Ids are looked up, never taken as positions (exports skip ids).
"""

from __future__ import annotations

import datetime
import io
import uuid as uuidlib
import zipfile
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.translation import gettext as _

from .. import results, userjson

#: The most a BG Stats file may hold once unzipped (a 5,000-play export is about 3 MB).
MAX_BYTES = 8 * 1024 * 1024
#: A zip holding more entries than this is not a BG Stats export.
MAX_ZIP_ENTRIES = 16
#: What the names and texts kept from a file may hold (longer ones are cut).
TEXT_MAX = 2000
#: The namespace of uuids made for plays that come without one (old exports).
NAMESPACE = uuidlib.UUID("6f2b7c1e-3b7e-5d0f-9a43-6e1b2c0d9a51")


class BGStatsError(ValueError):
    """The file cannot be read as BG Stats data: ``message`` says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class BGPlayer:
    id: int
    uuid: str  # lower-case ("" when the file has none)
    name: str


@dataclass(frozen=True)
class BGGame:
    id: int
    uuid: str
    name: str
    bgg_id: int | None
    cooperative: bool
    highest_wins: bool
    no_points: bool
    uses_teams: bool


@dataclass(frozen=True)
class BGScore:
    player: int  # playerRefId
    score: Decimal | None
    winner: bool
    rank: int | None  # 0 in the file: none
    team: str
    start_player: bool
    seat_order: int


@dataclass(frozen=True)
class BGPlay:
    uuid: str
    date: datetime.datetime  # naive: the club's time
    duration: int | None  # minutes; 0 in the file: unknown
    ignored: bool
    game: int  # gameRefId
    location: int | None
    comments: str
    uses_teams: bool
    scores: tuple[BGScore, ...]


@dataclass
class BGExport:
    players: dict[int, BGPlayer] = field(default_factory=dict)
    games: dict[int, BGGame] = field(default_factory=dict)
    locations: dict[int, str] = field(default_factory=dict)
    plays: list[BGPlay] = field(default_factory=list)


def read_bytes(data: bytes) -> BGExport:
    """A BG Stats file's bytes (JSON, or a zip holding one JSON file) read, or BGStatsError."""
    if data[:4] == b"PK\x03\x04":
        data = _unzipped(data)
    if len(data) > MAX_BYTES:
        raise BGStatsError(_too_big())
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BGStatsError(_("That file is not a BG Stats export (it is not text).")) from None
    try:
        document = userjson.parse(text, max_chars=MAX_BYTES)
    except userjson.UserJSONError as exc:
        raise BGStatsError(exc.message) from None
    return read_document(document)


def _too_big() -> str:
    return _("That BG Stats file is too big (at most %(mb)d MB unzipped).") % {
        "mb": MAX_BYTES // (1024 * 1024)
    }


def _unzipped(data: bytes) -> bytes:
    """The one JSON file of a zip, read no further than MAX_BYTES whatever its header claims
    (a zip bomb stops there)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        entries = [
            info
            for info in archive.infolist()
            if not info.is_dir() and info.filename.lower().endswith((".json", ".bgsplay"))
        ]
        if len(archive.infolist()) > MAX_ZIP_ENTRIES or len(entries) != 1:
            raise BGStatsError(_("A zip must hold exactly one BG Stats export (a .json file)."))
        (entry,) = entries
        if entry.file_size > MAX_BYTES:
            raise BGStatsError(_too_big())
        with archive.open(entry) as member:
            content = member.read(MAX_BYTES + 1)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, OSError, EOFError):
        raise BGStatsError(_("That zip cannot be read.")) from None
    if len(content) > MAX_BYTES:
        raise BGStatsError(_too_big())
    return content


def _table(document: dict, name: str) -> list[dict]:
    rows = document.get(name, [])
    if rows is None:
        return []
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        raise BGStatsError(_("“%(table)s” is not a list of records.") % {"table": name})
    return rows


def _int(row: dict, key: str, where: str, *, default: int | None = None) -> int | None:
    value = row.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            return int(value.strip())
        raise BGStatsError(
            _("%(where)s: “%(field)s” is not a whole number.") % {"where": where, "field": key}
        )
    return value


def _flag(row: dict, key: str) -> bool:
    value = row.get(key, False)
    return value is True or value == 1 or value == "1" or value == "true"


def _text(row: dict, key: str) -> str:
    value = row.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        value = str(value)
    return value[:TEXT_MAX]


def _uuid(row: dict) -> str:
    """A uuid as given, lower-cased (iOS writes them upper-case, Android lower-case)."""
    return _text(row, "uuid").strip().lower()[:36]


def score_of(value: Any, where: str) -> Decimal | None:
    """A score as BG Stats keeps it: a string that may be a sum ("6+10-3"), a number, "" or
    null (no score)."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise BGStatsError(_("%(where)s: a score is not true or false.") % {"where": where})
    if isinstance(value, int | float):
        try:
            return results.checked_score(Decimal(repr(value)))
        except (InvalidOperation, results.ResultError) as exc:
            raise BGStatsError(f"{where}: {getattr(exc, 'message', exc)}") from None
    if isinstance(value, str):
        try:
            return results.parse_score(value)
        except results.ResultError as exc:
            raise BGStatsError(f"{where}: {exc.message}") from None
    raise BGStatsError(_("%(where)s: a score is a number or a text.") % {"where": where})


def play_date(text: str, where: str) -> datetime.datetime:
    """``playDate`` ("2020-10-23 19:16:58", no time zone: the club's), or a date alone."""
    text = text.strip()
    try:
        if len(text) == 10:
            return datetime.datetime.combine(datetime.date.fromisoformat(text), datetime.time())
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise BGStatsError(
            _("%(where)s: “%(date)s” is not a date and time.") % {"where": where, "date": text}
        ) from None
    return moment.replace(tzinfo=None)


def read_document(document: Any) -> BGExport:
    """The tables of a BG Stats document, checked; BGStatsError naming the record at fault."""
    if not isinstance(document, dict):
        raise BGStatsError(_("That file is not a BG Stats export."))
    if "plays" not in document:
        raise BGStatsError(_("That file is not a BG Stats export: it has no plays."))
    export = BGExport()
    for row in _table(document, "players"):
        where = _("Player %(name)s") % {"name": _text(row, "name") or "?"}
        number = _int(row, "id", where)
        if number is not None:
            export.players[number] = BGPlayer(number, _uuid(row), _text(row, "name").strip())
    for row in _table(document, "games"):
        where = _("Game %(name)s") % {"name": _text(row, "name") or "?"}
        number = _int(row, "id", where)
        if number is None:
            continue
        bgg = _int(row, "bggId", where, default=0)
        export.games[number] = BGGame(
            number,
            _uuid(row),
            _text(row, "name").strip(),
            bgg if bgg and 0 < bgg < 2**31 else None,
            _flag(row, "cooperative"),
            row.get("highestWins", True) is not False,
            _flag(row, "noPoints"),
            _flag(row, "usesTeams"),
        )
    for row in _table(document, "locations"):
        number = _int(row, "id", _("Location"))
        if number is not None:
            export.locations[number] = _text(row, "name").strip()
    for index, row in enumerate(_table(document, "plays"), 1):
        export.plays.append(_play(row, index, export))
    return export


def _play(row: dict, index: int, export: BGExport) -> BGPlay:
    where = _("Play %(number)d (%(date)s)") % {"number": index, "date": _text(row, "playDate")}
    game = _int(row, "gameRefId", where)
    if game is None or game not in export.games:
        raise BGStatsError(_("%(where)s: its game is not in the file.") % {"where": where})
    date = play_date(_text(row, "playDate"), where)
    duration = _int(row, "durationMin", where, default=0)
    if duration is not None and not 0 <= duration <= 7 * 24 * 60:
        raise BGStatsError(_("%(where)s: its duration is out of range.") % {"where": where})
    location = _int(row, "locationRefId", where, default=0)
    raw_scores = row.get("playerScores") or []
    if not isinstance(raw_scores, list) or not all(isinstance(s, dict) for s in raw_scores):
        raise BGStatsError(_("%(where)s: “playerScores” is not a list.") % {"where": where})
    scores = []
    seen: set[int] = set()
    for position, score in enumerate(raw_scores):
        player = _int(score, "playerRefId", where)
        if player is None or player not in export.players:
            raise BGStatsError(_("%(where)s: a player is not in the file.") % {"where": where})
        if player in seen:
            raise BGStatsError(
                _("%(where)s: %(name)s is seated twice.")
                % {"where": where, "name": export.players[player].name}
            )
        seen.add(player)
        rank = _int(score, "rank", where, default=0) or None
        if rank is not None and not 0 < rank <= 1000:
            raise BGStatsError(_("%(where)s: a rank is out of range.") % {"where": where})
        scores.append(
            BGScore(
                player=player,
                score=score_of(score.get("score"), where),
                winner=_flag(score, "winner"),
                rank=rank,
                team=_text(score, "team").strip()[:60],
                start_player=_flag(score, "startPlayer"),
                seat_order=_int(score, "seatOrder", where, default=0) or position,
            )
        )
    uuid = _uuid(row)
    if not uuid:
        # An old export without play uuids: one made from what the play is, so that the same
        # file imported twice still adds it once.
        key = f"{date.isoformat()}|{game}|{sorted(s.player for s in scores)}"
        uuid = str(uuidlib.uuid5(NAMESPACE, key))
    return BGPlay(
        uuid=uuid,
        date=date,
        duration=duration or None,
        ignored=_flag(row, "ignored"),
        game=game,
        location=location or None,
        comments=_text(row, "comments"),
        uses_teams=_flag(row, "usesTeams"),
        scores=tuple(scores),
    )
