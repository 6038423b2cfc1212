"""A finished table as a play: pure functions on the table's document, no Flask.

A play is what a play log keeps of one game (and what BG Stats takes):

    {"game": "sins", "table": "Friday",
     "highest_wins": False,          # does the highest score win? (None: the game has no points)
     "no_points": False,             # The Others: a team result, no scores
     "measure": "points",            # what the score counts: points, penalty, renown (None: no points)
     "outcome": {...},               # the game's own words for how it ended (see each builder)
     "players": [{"id": 3, "name": "Ana", "colour": "red", "score": -8, "winner": True, "rank": 1,
                  "start": True, "team": None}, ...]}      # seat order

Only the document's `result` and a few settled fields of the game's state are read, so games can
change their state freely; each game's builder says what it reads.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Callable

PlayDict = dict
Builder = Callable[[dict], dict]


def competition_ranks(players: list[dict], highest_wins: bool | None) -> None:
    """Rank 1 for every winner; the others after them by score in the game's direction, equal
    scores sharing a rank ("1, 2, 2, 4"). Without scores every non-winner shares the next rank."""
    winners = [p for p in players if p["winner"]]
    rest = [p for p in players if not p["winner"]]
    for p in winners:
        p["rank"] = 1
    start = len(winners) + 1 if winners else 1
    if highest_wins is None or any(p["score"] is None for p in rest):
        for p in rest:
            p["rank"] = start
        return
    ordered = sorted(rest, key=lambda p: -p["score"] if highest_wins else p["score"])
    for i, p in enumerate(ordered):
        if i and p["score"] == ordered[i - 1]["score"]:
            p["rank"] = ordered[i - 1]["rank"]
        else:
            p["rank"] = start + i


def _players(doc: dict, start: int | None = None, team_of: Callable[[dict], str | None] | None = None) -> list[dict]:
    result = doc.get("result") or {}
    winners = set(result.get("winners") or [])
    points = {s.get("name"): s.get("points") for s in result.get("scores") or [] if isinstance(s, dict)}
    out = []
    for p in doc["state"]["players"]:
        score = points.get(p["name"])
        out.append({"id": p["id"], "name": p["name"], "colour": p.get("colour"),
                    "score": score if isinstance(score, int) and not isinstance(score, bool) else None,
                    "winner": p["name"] in winners, "rank": 0, "start": start is not None and p["id"] == start,
                    "team": team_of(p) if team_of else None})
    return out


def _sins(doc: dict) -> dict:
    """7 - The Sins: points; the Abyss of Souls decides whether the most or the fewest win (reads the
    score's direction and the Abyss's points; the first player is `game.first`)."""
    from ..games.sins import table as sins_table

    gs = doc["state"]["game"]
    ts = sins_table.table_score(doc["state"])
    most = ts.most_points_wins
    return {"highest_wins": bool(most), "no_points": False, "measure": "points",
            "outcome": {"most_wins": bool(most), "abyss": ts.abyss_points},
            "players": _players(doc, start=gs.get("first"))}


def _gibbon(doc: dict) -> dict:
    """Sinful Gibbon: penalty points, the lowest total wins; the start player is who started the
    first round (left of the first dealer)."""
    rounds = doc["state"]["game"].get("rounds") or []
    start = rounds[0].get("starter") if rounds else None
    return {"highest_wins": False, "no_points": False, "measure": "penalty",
            "outcome": {"rounds": len(rounds)}, "players": _players(doc, start=start)}


def _fivesails(doc: dict) -> dict:
    """City of Five Sails: Renown, and the victory type that ended the game (the First Player changes
    every Day with Initiative, so the play names no start player)."""
    result = doc.get("result") or {}
    return {"highest_wins": True, "no_points": False, "measure": "renown",
            "outcome": {"victory": result.get("victory"), "decided_by": result.get("decided_by")},
            "players": _players(doc)}


def _others(doc: dict) -> dict:
    """The Others: 7 Sins: the Sins player against the heroes, a team result without points."""
    gs = doc["state"]["game"]
    sins = gs.get("sins_player")
    winner = gs.get("winner")
    players = _players(doc, team_of=lambda p: "sins" if p["id"] == sins else "heroes")
    return {"highest_wins": None, "no_points": True, "measure": None,
            "outcome": {"team": winner if winner in ("sins", "heroes") else None}, "players": players}


BUILDERS: dict[str, Builder] = {"sins": _sins, "gibbon": _gibbon, "fivesails": _fivesails, "others": _others}


def build_play(game: str, doc: dict) -> PlayDict | None:
    """The play a finished table makes, or None while it is not finished (or has no result)."""
    if doc.get("status") != "finished" or not doc.get("result") or game not in BUILDERS:
        return None
    play = BUILDERS[game](doc)
    competition_ranks(play["players"], play["highest_wins"])
    return {"game": game, "table": doc.get("name", ""), **play}


@lru_cache(maxsize=4096)
def match_key(name: str) -> str:
    """How players are matched across plays: case, accents and spacing ignored ("Béa" is "bea")."""
    decomposed = unicodedata.normalize("NFKD", name or "")
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())
