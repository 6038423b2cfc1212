"""A finished table as a play: pure functions on the table's document, no Flask.

A play is what a play log keeps of one game (and what BG Stats takes):

    {"game": "sins", "table": "Friday",
     "highest_wins": False,          # does the highest score win? (None: the game has no points)
     "no_points": False,             # The Others: a team result, no scores
     "measure": "points",            # what the score counts: points, penalty, renown (None: no points)
     "outcome": {...},               # the game's own words for how it ended (see each builder)
     "note": "",                     # the players' note on the play (state.play.note)
     "players": [{"id": 3, "name": "Ana", "colour": "red", "score": -8, "winner": True, "rank": 1,
                  "start": True, "team": None, "role": None}, ...]}      # seat order

`role` is what the player played, where the game has such a thing: City of Five Sails'
{"faction", "leader"}; The Others' {"sin"} for the Sins player or {"heroes": [...]} for a hero
player (its side is `team`). The table sets them once finished (state.play.roles); The Others
fills in what its own state already knows (the Sin, the heroes each player controlled).

Only the document's `result`, `state.play` and a few settled fields of the game's state are read, so
games can change their state freely; each game's builder says what it reads.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Callable

PlayDict = dict
Builder = Callable[[dict], dict]


def competition_ranks(players: list[dict], highest_wins: bool | None, teams: bool = False) -> None:
    """Rank 1 for every winner; the others after them by score in the game's direction, equal
    scores sharing a rank ("1, 2, 2, 4"). Without scores every non-winner shares the next rank.
    A two-sided result (`teams`) has two places: the winning side 1, the other side 2."""
    winners = [p for p in players if p["winner"]]
    rest = [p for p in players if not p["winner"]]
    for p in winners:
        p["rank"] = 1
    start = (2 if teams else len(winners) + 1) if winners else 1
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
                    "team": team_of(p) if team_of else None, "role": None})
    return out


def _said(doc: dict) -> dict:
    """What the players said about the play (state.play), or an empty one."""
    said = doc["state"].get("play")
    return said if isinstance(said, dict) else {}


def _text(value) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def _set_roles(doc: dict, players: list[dict], keys: tuple[str, ...], known: Callable[[dict], dict] | None = None):
    """Each player's role: the table's own words (state.play.roles) over what the game knows."""
    roles = _said(doc).get("roles") or {}
    for p in players:
        own = roles.get(str(p["id"])) if isinstance(roles.get(str(p["id"])), dict) else {}
        role = dict(known(p)) if known else {}
        for key in keys:
            if key == "heroes":
                if own.get("heroes"):
                    role["heroes"] = [_text(h) for h in own["heroes"] if _text(h)]
            elif _text(own.get(key)):
                role[key] = _text(own[key])
        p["role"] = {k: v for k, v in role.items() if v} or None


def _sins(doc: dict) -> dict:
    """7 - The Sins: points; the Abyss of Souls decides whether the most or the fewest win (reads the
    score's direction and the Abyss's points; the first player is `game.first`)."""
    from ..games.sins import table as sins_table

    gs = doc["state"]["game"]
    ts = sins_table.table_score(doc["state"])
    most = ts.most_points_wins
    outcome = {"most_wins": bool(most), "abyss": ts.abyss_points}
    decision = ts.decision
    if decision is not None and decision.by != "points":
        # A tie on points: the share text says which tie-break decided, with its counts.
        outcome["tie"] = {"by": decision.by, "cards": decision.cards, "types": decision.types,
                          "other": decision.other}
    return {"highest_wins": bool(most), "no_points": False, "measure": "points",
            "outcome": outcome, "players": _players(doc, start=gs.get("first"))}


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
    players = _players(doc)
    _set_roles(doc, players, ("faction", "leader"))
    return {"highest_wins": True, "no_points": False, "measure": "renown",
            "outcome": {"victory": result.get("victory"), "decided_by": result.get("decided_by")},
            "players": players}


def _others(doc: dict) -> dict:
    """The Others: 7 Sins: the Sins player against the heroes, a team result without points. The
    Sins player played the table's Sin; each hero player, the named heroes they controlled (the
    dead ones included: a replacement is another hero the same player took on)."""
    gs = doc["state"]["game"]
    sins = gs.get("sins_player")
    winner = gs.get("winner")
    players = _players(doc, team_of=lambda p: "sins" if p["id"] == sins else "heroes")
    known = known_roles("others", doc)
    _set_roles(doc, players, ("sin", "heroes"), lambda p: known.get(p["id"], {}))
    return {"highest_wins": None, "no_points": True, "measure": None, "teams": True,
            "outcome": {"team": winner if winner in ("sins", "heroes") else None}, "players": players}


def known_roles(game: str, doc: dict) -> dict[int, dict]:
    """What the game's own state says each player played, by player id (empty values left out):
    The Others knows the Sin and the named heroes each hero player controlled."""
    if game != "others":
        return {}
    gs = doc["state"]["game"]
    sins = gs.get("sins_player")
    out = {}
    for p in doc["state"]["players"]:
        if p["id"] == sins:
            role = {"sin": _text(gs.get("sin"))}
        else:
            role = {"heroes": [_text(h.get("name")) for h in gs.get("heroes") or []
                               if isinstance(h, dict) and h.get("controller") == p["id"] and _text(h.get("name"))]}
        out[p["id"]] = {k: v for k, v in role.items() if v}
    return out


BUILDERS: dict[str, Builder] = {"sins": _sins, "gibbon": _gibbon, "fivesails": _fivesails, "others": _others}


def build_play(game: str, doc: dict) -> PlayDict | None:
    """The play a finished table makes, or None while it is not finished (or has no result)."""
    if doc.get("status") != "finished" or not doc.get("result") or game not in BUILDERS:
        return None
    play = BUILDERS[game](doc)
    competition_ranks(play["players"], play["highest_wins"], teams=play.pop("teams", False))
    return {"game": game, "table": doc.get("name", ""), "note": _text(_said(doc).get("note"))[:500], **play}


@lru_cache(maxsize=4096)
def match_key(name: str) -> str:
    """How players are matched across plays: case, accents and spacing ignored ("Béa" is "bea")."""
    decomposed = unicodedata.normalize("NFKD", name or "")
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())
