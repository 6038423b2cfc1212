"""Plays as a BG Stats play file (`.bgsplay`): what BG Stats' own "open with" import reads. Pure.

BG Stats publishes no schema for the file. It is built the way public examples show it:

- ctuncan/bga_bgstats (`main.py`, which writes `output.bgsplay` from Board Game Arena), followed
  for the file's shape: top-level `games`, `plays`, `locations`, `players` and `userInfo`; a play's
  `uuid`, `playDate`, `durationMin`, `gameRefId`, `locationRefId`, `playerScores` (each with
  `playerRefId`, `score` as text, `winner`, `rank`, `seatOrder`, `startPlayer`, `newPlayer`) and
  its zeros (`rating`, `rounds`, `scoringSetting`, `playImages` "[]");
- a play file BG Stats itself wrote (pastebin.com/iDbHyBui): the `about` line, and each player's,
  location's and game's `uuid`, `id`, `name` and `modificationDate`;
- soul28561/bgstats-lichess-import (`LichessImport.java`): `bggName` beside `bggId`, and a play's
  `entryDate` and `modificationDate`.

Ids inside the file are small numbers, one per player, game and location, that `...RefId` fields
point at. The uuids are derived (uuid5) from our stable ids, so the same player, game and play
carry the same uuid in every file: importing a file again matches what the last one brought.
Dates are UTC ("YYYY-MM-DD HH:MM:SS"), as in the link (export.py).
"""
from __future__ import annotations

import uuid
from datetime import datetime
from typing import Iterable

from . import export
from .build import match_key

ABOUT = ("This is a Play file that can be read by Board Game Stats. If you see this text, try to use a share, "
         "export or open-in function to open it with Board Game Stats.")
NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://table-companion.invalid/bgsplay")
# The plays of a group share one place: the app they were kept in.
LOCATION_NAME = export.SOURCE_NAME


def _uuid(kind: str, key: str) -> str:
    """A stable uuid for one thing of one kind, upper case as BG Stats writes them."""
    return str(uuid.uuid5(NAMESPACE, f"{kind}:{key}")).upper()


def play_file(entries: Iterable[tuple[str, datetime, datetime, dict]], exported_at: datetime,
              _: export.Translate = export._same) -> dict:
    """A `.bgsplay` document for (play id, start, finish, play) entries, oldest first as given."""
    stamp = export.utc_stamp(exported_at)
    players: dict[str, dict] = {}
    games: dict[str, dict] = {}
    plays = []
    for pid, started, finished, play in entries:
        game = play["game"]
        if game not in games:
            bgg_id, bgg_name = export.BGG_IDS.get(game, (0, ""))
            games[game] = {"uuid": _uuid("game", game), "id": len(games) + 1, "name": export.GAME_NAMES[game],
                           "modificationDate": stamp, "cooperative": False,
                           "highestWins": export.HIGHEST_WINS[game], "noPoints": game == "others",
                           "usesTeams": game == "others", "bggId": bgg_id, "bggName": bgg_name, "bggYear": 0}
        scores = []
        for seat, p in enumerate(play["players"], start=1):
            key = match_key(p["name"])
            if key not in players:
                players[key] = {"uuid": _uuid("player", export.source_player_id(p["name"])), "id": len(players) + 1,
                                "name": p["name"], "isAnonymous": False, "modificationDate": stamp,
                                "bggUsername": ""}
            score = {"playerRefId": players[key]["id"],
                     "score": "" if play["no_points"] or p["score"] is None else str(p["score"]),
                     "winner": bool(p["winner"]), "rank": p["rank"], "seatOrder": seat,
                     "startPlayer": bool(p["start"]), "newPlayer": False}
            role = export.role_text(p, _)
            if role:
                score["role"] = role
            if p.get("team"):
                score["team"] = export.team_name(p, _)
            scores.append(score)
        date = export.utc_stamp(started)
        plays.append({
            "uuid": _uuid("play", pid), "playDate": date, "entryDate": date, "modificationDate": stamp,
            "durationMin": export.duration_min(started, finished), "gameRefId": games[game]["id"],
            "locationRefId": 1, "playerScores": scores, "comments": export.comments(play, _),
            "ignored": False, "rating": 0, "rounds": 0, "scoringSetting": 0, "playImages": "[]", "bggId": 0,
            "usesTeams": bool(play.get("no_points")),
            # 7 - The Sins (the Abyss turns the direction) and The Others (sides, no points): the
            # winners are the table's, not worked out from the scores by the game's one direction.
            "manualWinner": game in ("sins", "others"),
        })
    return {"about": ABOUT,
            "players": list(players.values()),
            "locations": [{"uuid": _uuid("location", LOCATION_NAME), "id": 1, "name": LOCATION_NAME,
                           "modificationDate": stamp}],
            "games": list(games.values()),
            "plays": plays,
            # No player of the file is marked as the phone's owner (0 is no player's id): the file
            # is a group's, not one person's.
            "userInfo": {"meRefId": 0}}
