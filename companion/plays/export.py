"""Plays leaving the app: BG Stats JSON and link, CSV, and a short text for the group chat. Pure.

BG Stats takes a play through its documented link
`https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>` (its "push plays to BG Stats"
support page). What we send, and why:

- `sourcePlayId` is the play's own id (`play_id`): given once, kept in the table's document when
  the players describe the play, carried by a backup, so every export of the same play carries the
  same id and BG Stats updates the play instead of adding a second one. Replacing the edit link
  does not change it (it is derived from the view-only link, which stays).
- `playDate` is when play started, in UTC, as "YYYY-MM-DD HH:MM:SS": the format of BG Stats'
  documented example, read as UTC by BG Stats (and written so by its integrators), which shows
  it in the phone's own time. A local time would be shifted a second time.
- `bggId` only for the games whose BoardGameGeek id we could check against a named public source
  (BGG_IDS); BG Stats matches the others by name.
- Players without points (The Others: a team result) carry no `score` key; `role` says the side and
  what was played; `rank` is the side's place (1 or 2).
- 7 - The Sins: BG Stats keeps one "highest wins" per game, but the Abyss decides it each play. We
  declare the game the way an empty Abyss plays it (fewest points win), and send every player's
  `winner` and `rank` as the table decided them, with a `comments` line saying which way this play
  went. The winners, ranks and win rates stay right; a per-game "best score" cannot be.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
from datetime import datetime, timezone
from typing import Callable, Iterable
from urllib.parse import quote

from ..domain import N_
from .build import match_key

SOURCE_NAME = "Table Companion"
BGSTATS_CREATE = "https://app.bgstatsapp.com/createPlay.html"
GAME_NAMES = {"sins": "7 - The Sins", "gibbon": "Sinful Gibbon", "fivesails": "7th Sea: City of Five Sails",
              "others": "The Others: 7 Sins"}
# BoardGameGeek's id and name, only where a named public source shows them (docs/api.md, "BG Stats"):
# City of Five Sails: bugladen/bga7s5s, gameinfos.inc.php ('bgg_id' => 367584);
# The Others: beefsack/bgg-ranking-historicals, 2019-07-08.csv ("172047,The Others,2016,...").
# 7 - The Sins and Sinful Gibbon: no source found, so no id (BG Stats matches them by name).
BGG_IDS = {"fivesails": (367584, "7th Sea: City of Five Sails"), "others": (172047, "The Others")}
# Whether BG Stats should count the highest score as the winner, per game (see the docstring).
HIGHEST_WINS = {"sins": False, "gibbon": False, "fivesails": True, "others": False}
MINUS = "\u2212"
PLAY_NOTE_MAX = 500

Translate = Callable[[str], str]


def _same(msg: str) -> str:
    return msg


# -- ids and times ---------------------------------------------------------------------------------

def derived_play_id(view_token: str) -> str:
    """A play's id before it is written down: from the table's view-only link, which never changes
    (replacing the edit link keeps it), and revealing nothing of it."""
    return "tc-" + hashlib.sha256(b"companion-play:" + view_token.encode()).hexdigest()[:24]


def play_id(state: dict, view_token: str) -> str:
    """The play's id outside the app: the one its document keeps (state.play.id: set when the
    players first describe the play, carried by a backup and an import), else the derived one."""
    said = state.get("play") if isinstance(state, dict) else None
    kept = said.get("id") if isinstance(said, dict) else None
    return kept if isinstance(kept, str) and kept.startswith("tc-") else derived_play_id(view_token)


def source_player_id(name: str) -> str:
    """The same id for the same player on every play (matched like the stats: case and accents
    ignored), so BG Stats recognises them from one import to the next."""
    return "tc-p-" + hashlib.sha256(match_key(name).encode()).hexdigest()[:16]


def utc_stamp(dt: datetime) -> str:
    """BG Stats' date format, in UTC ("2026-11-23 19:05:09"); a naive time is taken as UTC."""
    aware = dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)
    return aware.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def iso_utc(dt: datetime) -> str:
    """A moment as a backup keeps it (state.play.started): "2026-11-23T19:05:09+00:00"."""
    aware = dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)
    return aware.astimezone(timezone.utc).replace(microsecond=0).isoformat()


def from_iso(text) -> datetime | None:
    """The moment a backup kept, or None when there is none (or it is not one)."""
    if not isinstance(text, str):
        return None
    try:
        found = datetime.fromisoformat(text)
    except ValueError:
        return None
    return found if found.tzinfo else found.replace(tzinfo=timezone.utc)


def duration_min(started_at: datetime, finished_at: datetime) -> int:
    return max(0, round((finished_at - started_at).total_seconds() / 60))


# -- what each player played -----------------------------------------------------------------------

def role_text(p: dict, _: Translate = _same) -> str:
    """A player's role in words: "Eisen / Kaspar Dietrich" (BG Stats separates a role's parts with
    " / "), "Sins: Pride", "Heroes: Karl, Rose"; "" where the game has no roles."""
    role = p.get("role") or {}
    team = p.get("team")
    if team == "sins":
        return _(N_("Sins: %(sin)s")) % {"sin": role["sin"]} if role.get("sin") else _(N_("Sins"))
    if team == "heroes":
        heroes = ", ".join(role.get("heroes") or [])
        return _(N_("Heroes: %(heroes)s")) % {"heroes": heroes} if heroes else _(N_("Heroes"))
    return " / ".join(role[k] for k in ("faction", "leader") if role.get(k))


def team_name(p: dict, _: Translate = _same) -> str:
    return {"sins": _(N_("Sins")), "heroes": _(N_("Heroes"))}.get(p.get("team") or "", "")


def direction_line(play: dict, _: Translate = _same) -> str:
    """7 - The Sins: which way this play went, for a reader of a play log whose game has one way."""
    if play["game"] != "sins":
        return ""
    outcome = play.get("outcome") or {}
    abyss = outcome.get("abyss")
    if abyss is None:
        return _(N_("Most points won this play.") if outcome.get("most_wins") else N_("Fewest points won this play."))
    msg = N_("Most points won this play: the Abyss scored %(abyss)s.") if outcome.get("most_wins") else \
        N_("Fewest points won this play: the Abyss scored %(abyss)s.")
    return _(msg) % {"abyss": signed(abyss)}


def comments(play: dict, _: Translate = _same) -> str:
    """The play's note, then the 7 - The Sins direction line: BG Stats' `comments`."""
    return "\n".join(t for t in ((play.get("note") or "")[:PLAY_NOTE_MAX], direction_line(play, _)) if t)


# -- BG Stats' link --------------------------------------------------------------------------------

def game_entry(game: str) -> dict:
    entry = {"name": GAME_NAMES[game], "sourceGameId": f"tc-{game}", "highestWins": HIGHEST_WINS[game],
             "noPoints": game == "others"}
    if game in BGG_IDS:
        entry["bggId"] = BGG_IDS[game][0]
    return entry


def bgstats(play: dict, pid: str, started_at: datetime, finished_at: datetime, _: Translate = _same) -> dict:
    """The play in BG Stats' createPlay form. Times are any aware (or UTC naive) datetimes.

    Every player carries `winner` and `startPlayer` (BG Stats' Android app refuses a player
    without them); `score` only in a game with points; `role` where the game has roles."""
    players = []
    for p in play["players"]:
        entry = {"name": p["name"]}
        if not play["no_points"]:
            entry["score"] = p["score"]
        entry.update({"winner": bool(p["winner"]), "rank": p["rank"], "startPlayer": bool(p["start"]),
                      "sourcePlayerId": source_player_id(p["name"])})
        role = role_text(p, _)
        if role:
            entry["role"] = role
        players.append(entry)
    data = {"sourceName": SOURCE_NAME, "sourcePlayId": pid, "playDate": utc_stamp(started_at),
            "durationMin": duration_min(started_at, finished_at), "game": game_entry(play["game"]),
            "players": players}
    said = comments(play, _)
    if said:
        data["comments"] = said
    return data


def bgstats_link(data: dict) -> str:
    return BGSTATS_CREATE + "?data=" + quote(json.dumps(data, ensure_ascii=False, separators=(",", ":")), safe="")


# -- CSV -------------------------------------------------------------------------------------------

CSV_COLUMNS = ("play_id", "date", "game", "table", "duration_min", "seat", "player", "score", "winner", "rank",
               "start_player", "team", "role", "note")
BOM = "\ufeff"


def _cell(value) -> str:
    """Spreadsheets run a cell starting with = + - @ as a formula: a typed text must stay text."""
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def plays_csv(rows: Iterable[tuple[str, datetime, datetime, dict]], sep: str = ",", _: Translate = _same) -> str:
    """One line per player per play: (play id, local start, local finish, play) for each play.

    UTF-8 with a byte order mark, so Excel on Windows reads accents right; `sep=";"` for a
    spreadsheet set up in French, where the comma is the decimal separator."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";" if sep == ";" else ",", lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for pid, started, finished, play in rows:
        note = (play.get("note") or "")[:PLAY_NOTE_MAX]
        for seat, p in enumerate(play["players"], start=1):
            writer.writerow([pid, started.strftime("%Y-%m-%d %H:%M"), GAME_NAMES[play["game"]],
                             _cell(play["table"]), duration_min(started, finished), seat, _cell(p["name"]),
                             "" if p["score"] is None else p["score"], "yes" if p["winner"] else "no", p["rank"],
                             "yes" if p["start"] else "no", p.get("team") or "", _cell(role_text(p, _)),
                             _cell(note)])
    return BOM + out.getvalue()


# -- the group chat --------------------------------------------------------------------------------

def signed(n: int) -> str:
    """A score as players write it: a true minus sign for negatives."""
    return f"{MINUS}{-n}" if n < 0 else str(n)


def _headline(game_title: str, date: str, result: str, _: Callable[[str], str]) -> str:
    """"7 - The Sins, Fri 23 Nov: Chiara wins." in the reader's language (and its colon spacing)."""
    return _(N_("%(game)s, %(date)s: %(result)s.")) % {"game": game_title, "date": date, "result": result}


def _sins_tie(tie: dict, names: str, score: str, n_winners: int, _: Callable[[str], str]) -> str:
    """7 - The Sins after a tie on points: points first, then the tie-break that decided (rulebook,
    End of the game: the most cards, then the most different sin types, else a shared win)."""
    values = {"names": names, "score": score, "cards": tie.get("cards"), "types": tie.get("types"),
              "other": tie.get("other")}
    if tie.get("by") == "cards" and n_winners == 1:
        msg = N_("%(names)s wins: tied on points (%(score)s), the most cards decide (%(cards)d to %(other)d)")
    elif tie.get("by") == "types" and n_winners == 1:
        msg = N_("%(names)s wins: tied on points (%(score)s) and cards (%(cards)d), the most different sin "
                 "types decide (%(types)d to %(other)d)")
    else:
        msg = N_("%(names)s win: tied on points (%(score)s), cards (%(cards)d) and sin types (%(types)d), "
                 "they share the win")
    try:
        return _(msg) % values
    except (TypeError, ValueError):  # a play kept from an older file without the counts
        return _(N_("%(names)s wins with %(score)s") if n_winners == 1 else N_("%(names)s win with %(score)s")) % {
            "names": names, "score": score}


def share_text(play: dict, game_title: str, date: str, _: Callable[[str], str],
               terms: Callable[[str, str | None], str | None] | None = None) -> str:
    """"7 - The Sins, Fri 23 Nov: Chiara wins with −8 (fewest points win: the Abyss scored −1).
    Margherita 0, Alberto 1, Luca 8." `_` translates a message id with %-args; `terms(game, key)`
    names a game's own outcome (e.g. a Five Sails victory type) or None."""
    head, detail = result_words(play, _, terms)
    if play["no_points"]:
        return _headline(game_title, date, head, _)
    players = play["players"]
    rest = sorted((p for p in players if not p["winner"]), key=lambda p: (p["rank"], players.index(p)))
    text = _headline(game_title, date, head + (f" ({detail})" if detail else ""), _)
    tail = ", ".join(f"{p['name']} {signed(p['score'])}" if p["score"] is not None else p["name"] for p in rest)
    return text + (f" {tail}." if tail else "")


def result_words(play: dict, _: Callable[[str], str],
                 terms: Callable[[str, str | None], str | None] | None = None) -> tuple[str, str | None]:
    """Who won, in words ("Chiara wins with −8"), and how the game decides ("fewest points win: the
    Abyss scored −1") or None: the share text and the result image say it the same way."""
    players = play["players"]
    winners = [p for p in players if p["winner"]]
    outcome = play.get("outcome") or {}
    if play["no_points"]:
        team = outcome.get("team")
        if team == "sins":
            head = _(N_("the Sins player, %(name)s, wins")) % {"name": ", ".join(p["name"] for p in winners)}
        elif team == "heroes":
            head = _(N_("the heroes win (%(names)s)")) % {"names": ", ".join(p["name"] for p in winners)}
        else:
            head = _(N_("no winner recorded"))
        return head, None
    names = ", ".join(p["name"] for p in winners)
    scores = {p["score"] for p in winners}
    if not winners:
        head = _(N_("no winner recorded"))
    elif play["game"] == "fivesails" and outcome.get("victory") not in (None, "fifth-day"):
        # Dominance, Economic or Assassination won it, not the Renown score: the victory says it.
        head = _(N_("%(names)s wins") if len(winners) == 1 else N_("%(names)s win")) % {"names": names}
    elif play["game"] == "sins" and isinstance(outcome.get("tie"), dict) and len(scores) == 1 and None not in scores:
        head = _sins_tie(outcome["tie"], names, signed(next(iter(scores))), len(winners), _)
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
    return head, detail
