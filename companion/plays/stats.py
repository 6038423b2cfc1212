"""A group's statistics from its plays: pure functions, no Flask.

Players are matched across plays by `build.match_key` (case, accents and spacing ignored); a
group's merges map one spelling's key onto another name ("Bea" counts as "Béatrice"). A merge is
only a mapping applied here, so undoing it (deleting it) restores the separate players exactly.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Iterable, Mapping

from .build import match_key


@dataclass(frozen=True)
class PlayRecord:
    """A stored play as the stats see it."""

    id: int
    finished_at: datetime
    data: dict


@dataclass
class Line:
    """One player's numbers, overall or in one game."""

    key: str
    name: str
    colour: str | None = None
    plays: int = 0
    wins: int = 0
    scores: list[int] = field(default_factory=list)
    last_played: datetime | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.plays if self.plays else 0.0

    @property
    def average(self) -> float | None:
        if not self.scores:
            return None
        total = sum(self.scores)
        try:
            return total / len(self.scores)
        except OverflowError:  # a stored score beyond what a float holds: shown as ∞, never a 500
            return math.inf if total > 0 else -math.inf

    @property
    def highest(self) -> int | None:
        return max(self.scores) if self.scores else None

    @property
    def lowest(self) -> int | None:
        return min(self.scores) if self.scores else None


@dataclass
class GameStats:
    game: str
    plays: int
    # True: the highest score always won; False: the lowest always won; None: it depends on the play
    # (7 - The Sins) or the game has no points. Best and worst are named only for a fixed direction.
    highest_wins: bool | None
    has_scores: bool
    lines: list[Line]

    def best(self, line: Line) -> int | None:
        if self.highest_wins is None:
            return None
        return line.highest if self.highest_wins else line.lowest

    def worst(self, line: Line) -> int | None:
        if self.highest_wins is None:
            return None
        return line.lowest if self.highest_wins else line.highest


@dataclass
class HeadToHead:
    a: str
    b: str
    plays: int = 0
    a_ahead: int = 0
    b_ahead: int = 0
    level: int = 0


@dataclass
class Stats:
    plays: int
    players: list[Line]  # overall, most wins first
    games: list[GameStats]  # most played first
    names: dict[str, str]  # key -> the name shown

    def game(self, key: str) -> GameStats | None:
        return next((g for g in self.games if g.game == key), None)


def resolver(merges: Mapping[str, str]):
    """key(name) for this group: a merged spelling resolves to its target's key (chains followed,
    cycles cut)."""
    table = {match_key(a): match_key(b) for a, b in merges.items()}

    def key(name: str) -> str:
        k = match_key(name)
        seen = {k}
        while k in table and table[k] not in seen:
            k = table[k]
            seen.add(k)
        return k
    return key


def compute(plays: Iterable[PlayRecord], merges: Mapping[str, str] | None = None) -> Stats:
    """Per player and per game: plays, wins, win rate, average, best and worst score, last played."""
    key_of = resolver(merges or {})
    ordered = sorted(plays, key=lambda r: (r.finished_at, r.id))
    overall: dict[str, Line] = {}
    per_game: dict[str, dict[str, Line]] = {}
    directions: dict[str, set] = {}
    names: dict[str, str] = {}
    merged_into = {match_key(b): b for b in (merges or {}).values()}
    for rec in ordered:
        game = rec.data["game"]
        directions.setdefault(game, set()).add(rec.data.get("highest_wins"))
        lines = per_game.setdefault(game, {})
        for p in rec.data["players"]:
            k = key_of(p["name"])
            # The name shown: a merge's target as typed, else the latest spelling played.
            names[k] = merged_into.get(k, p["name"])
            for line in (overall.setdefault(k, Line(k, p["name"])), lines.setdefault(k, Line(k, p["name"]))):
                line.plays += 1
                line.wins += 1 if p["winner"] else 0
                if p.get("score") is not None:
                    line.scores.append(p["score"])
                line.last_played = rec.finished_at
                line.colour = p.get("colour") or line.colour
    for line in list(overall.values()) + [ln for g in per_game.values() for ln in g.values()]:
        line.name = names[line.key]
    order = lambda ln: (-ln.wins, -ln.win_rate, ln.name.casefold())  # noqa: E731
    games = []
    for game, lines in per_game.items():
        dirs = directions[game]
        fixed = next(iter(dirs)) if len(dirs) == 1 else None
        games.append(GameStats(game, sum(1 for r in ordered if r.data["game"] == game), fixed,
                               any(ln.scores for ln in lines.values()), sorted(lines.values(), key=order)))
    games.sort(key=lambda g: (-g.plays, g.game))
    return Stats(len(ordered), sorted(overall.values(), key=order), games, names)


def head_to_head(plays: Iterable[PlayRecord], a: str, b: str, merges: Mapping[str, str] | None = None,
                 game: str | None = None) -> HeadToHead:
    """Two players over the plays they both played (of one game, when `game` says which): who
    finished ahead (a better rank), and how often they finished level (same rank, e.g. both on the
    winning team)."""
    key_of = resolver(merges or {})
    ka, kb = key_of(a), key_of(b)
    out = HeadToHead(a, b)
    if ka == kb:
        return out
    for rec in plays:
        if game is not None and rec.data["game"] != game:
            continue
        ranks = {key_of(p["name"]): p["rank"] for p in rec.data["players"]}
        if ka in ranks and kb in ranks:
            out.plays += 1
            if ranks[ka] < ranks[kb]:
                out.a_ahead += 1
            elif ranks[kb] < ranks[ka]:
                out.b_ahead += 1
            else:
                out.level += 1
    return out


@dataclass
class RoleLine:
    """How one faction, Leader, Sin or hero did, whoever played it."""

    name: str
    plays: int = 0
    wins: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.plays if self.plays else 0.0


# What a game's roles are counted by, in the order a page lists them (build.py writes the roles).
ROLE_KINDS = {"fivesails": ("faction", "leader"), "others": ("sin", "heroes")}


def role_stats(plays: Iterable[PlayRecord], game: str) -> dict[str, list[RoleLine]]:
    """Per kind of role of one game (Five Sails: faction, Leader; The Others: Sin, hero), each
    role's plays and wins, most played first. Names match like players' (case and accents
    ignored); a hero played by a hero player counts once per play."""
    kinds = ROLE_KINDS.get(game, ())
    found: dict[str, dict[str, RoleLine]] = {k: {} for k in kinds}
    for rec in sorted(plays, key=lambda r: (r.finished_at, r.id)):
        if rec.data["game"] != game:
            continue
        for p in rec.data["players"]:
            role = p.get("role") or {}
            for kind in kinds:
                names = role.get(kind) if kind == "heroes" else [role.get(kind)]
                for name in dict.fromkeys(n for n in names or [] if isinstance(n, str) and n.strip()):
                    line = found[kind].setdefault(match_key(name), RoleLine(name))
                    line.name = name  # the latest spelling
                    line.plays += 1
                    line.wins += 1 if p["winner"] else 0
    return {kind: sorted(lines.values(), key=lambda ln: (-ln.plays, -ln.wins, ln.name.casefold()))
            for kind, lines in found.items() if lines}


def score_series(plays: Iterable[PlayRecord], game: str, merges: Mapping[str, str] | None = None,
                 last: int = 20) -> tuple[list[PlayRecord], dict[str, list[tuple[int, int]]]]:
    """Scores over time in one game: the last `last` plays with scores, and per player key the
    (play index, score) points, oldest first."""
    key_of = resolver(merges or {})
    chosen = [r for r in sorted(plays, key=lambda r: (r.finished_at, r.id))
              if r.data["game"] == game and not r.data.get("no_points")][-last:]
    series: dict[str, list[tuple[int, int]]] = {}
    for i, rec in enumerate(chosen):
        for p in rec.data["players"]:
            if p.get("score") is not None:
                series.setdefault(key_of(p["name"]), []).append((i, p["score"]))
    return chosen, series
