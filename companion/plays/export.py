"""Plays leaving the app: BG Stats JSON and link, CSV, and a short text for the group chat. Pure.

BG Stats takes a play through its documented link
`https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>`. `sourcePlayId` is derived from
the table (a hash of its link), so every export of the same play carries the same id and BG Stats
updates the play instead of adding a second one. No `bggId` is sent: we could not check the games'
BoardGameGeek ids from here, and BG Stats matches a game by name when the id is absent.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
from datetime import datetime
from typing import Callable, Iterable
from urllib.parse import quote

from ..domain import N_
from .build import match_key

SOURCE_NAME = "Table Companion"
BGSTATS_CREATE = "https://app.bgstatsapp.com/createPlay.html"
GAME_NAMES = {"sins": "7 - The Sins", "gibbon": "Sinful Gibbon", "fivesails": "7th Sea: City of Five Sails",
              "others": "The Others: 7 Sins"}
MINUS = "\u2212"


def source_play_id(table_token: str) -> str:
    """The play's id outside the app: stable for a table, and revealing nothing of its link."""
    return "tc-" + hashlib.sha256(b"companion-play:" + table_token.encode()).hexdigest()[:24]


def source_player_id(name: str) -> str:
    """The same id for the same player on every play (matched like the stats: case and accents
    ignored), so BG Stats recognises them from one import to the next."""
    return "tc-p-" + hashlib.sha256(match_key(name).encode()).hexdigest()[:16]


def duration_min(started_at: datetime, finished_at: datetime) -> int:
    return max(0, round((finished_at - started_at).total_seconds() / 60))


def bgstats(play: dict, play_id: str, started_at: datetime, finished_at: datetime) -> dict:
    """The play in BG Stats' createPlay form. `started_at`/`finished_at` are already local times.

    Every player carries `startPlayer` (False where the game or the table names no start player);
    `score` is null for a game without points (The Others: the team result is in `winner`).
    """
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play_id,
        "playDate": started_at.strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": duration_min(started_at, finished_at),
        "game": {"name": GAME_NAMES[play["game"]], "sourceGameId": f"tc-{play['game']}",
                 "highestWins": bool(play["highest_wins"]), "noPoints": bool(play["no_points"])},
        "players": [{"name": p["name"], "score": None if play["no_points"] else p["score"],
                     "winner": bool(p["winner"]), "rank": p["rank"], "startPlayer": bool(p["start"]),
                     "sourcePlayerId": source_player_id(p["name"]),
                     **({"role": p["team"]} if p.get("team") else {})}
                    for p in play["players"]],
    }


def bgstats_link(data: dict) -> str:
    return BGSTATS_CREATE + "?data=" + quote(json.dumps(data, ensure_ascii=False, separators=(",", ":")), safe="")


CSV_COLUMNS = ("play_id", "date", "game", "table", "duration_min", "seat", "player", "score", "winner", "rank",
               "start_player", "team")


def _cell(value) -> str:
    """Spreadsheets run a cell starting with = + - @ as a formula: a typed name must stay text."""
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def plays_csv(rows: Iterable[tuple[str, datetime, datetime, dict]]) -> str:
    """One line per player per play: (play id, local start, local finish, play) for each play."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for play_id, started, finished, play in rows:
        for seat, p in enumerate(play["players"], start=1):
            writer.writerow([play_id, started.strftime("%Y-%m-%d %H:%M"), GAME_NAMES[play["game"]],
                             _cell(play["table"]), duration_min(started, finished), seat, _cell(p["name"]),
                             "" if p["score"] is None else p["score"], "yes" if p["winner"] else "no", p["rank"],
                             "yes" if p["start"] else "no", p.get("team") or ""])
    return out.getvalue()


def signed(n: int) -> str:
    """A score as players write it: a true minus sign for negatives."""
    return f"{MINUS}{-n}" if n < 0 else str(n)


def share_text(play: dict, game_title: str, date: str, _: Callable[[str], str],
               terms: Callable[[str, str | None], str | None] | None = None) -> str:
    """"7 - The Sins, Fri 23 Nov: Chiara wins with −8 (fewest points win: the Abyss scored −1).
    Margherita 0, Alberto 1, Luca 8." `_` translates a message id with %-args; `terms(game, key)`
    names a game's own outcome (e.g. a Five Sails victory type) or None."""
    players = play["players"]
    winners = [p for p in players if p["winner"]]
    rest = sorted((p for p in players if not p["winner"]), key=lambda p: (p["rank"], players.index(p)))
    outcome = play.get("outcome") or {}
    if play["no_points"]:
        team = outcome.get("team")
        if team == "sins":
            head = _(N_("the Sins player, %(name)s, wins")) % {"name": ", ".join(p["name"] for p in winners)}
        elif team == "heroes":
            head = _(N_("the heroes win (%(names)s)")) % {"names": ", ".join(p["name"] for p in winners)}
        else:
            head = _(N_("no winner recorded"))
        return f"{game_title}, {date}: {head}."
    names = ", ".join(p["name"] for p in winners)
    scores = {p["score"] for p in winners}
    if not winners:
        head = _(N_("no winner recorded"))
    elif len(scores) == 1 and None not in scores:
        msg = N_("%(names)s wins with %(score)s") if len(winners) == 1 else N_("%(names)s win with %(score)s")
        head = _(msg) % {"names": names, "score": signed(next(iter(scores)))}
    else:
        head = _(N_("%(names)s wins") if len(winners) == 1 else N_("%(names)s win")) % {"names": names}
    detail = None
    if play["game"] == "sins":
        abyss = outcome.get("abyss")
        if abyss is not None:
            msg = N_("most points win: the Abyss scored %(abyss)s") if outcome.get("most_wins") else \
                N_("fewest points win: the Abyss scored %(abyss)s")
            detail = _(msg) % {"abyss": signed(abyss)}
        else:
            detail = _(N_("most points win") if outcome.get("most_wins") else N_("fewest points win"))
    elif play["game"] == "gibbon":
        detail = _(N_("lowest penalty wins"))
    elif play["game"] == "fivesails" and terms is not None:
        detail = terms("fivesails", outcome.get("victory"))
    text = f"{game_title}, {date}: {head}" + (f" ({detail})" if detail else "") + "."
    tail = ", ".join(f"{p['name']} {signed(p['score'])}" if p["score"] is not None else p["name"] for p in rest)
    return text + (f" {tail}." if tail else "")
