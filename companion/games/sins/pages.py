"""7 - The Sins: what the setup, play and score pages show, worked out once from the table state.

Pure (no Flask): the templates only lay it out and translate it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import rules, table


@dataclass(frozen=True)
class StoneOption:
    """One type a player could put a stone on, and what that stone would do."""

    sin: str
    cards: int
    points: int  # without a stone
    with_stone: int  # with one
    placed: bool

    @property
    def gain(self) -> int:
        return self.with_stone - self.points


@dataclass
class PlayerRow:
    id: int
    name: str
    colour: str | None
    stones: int
    reserve: dict | None  # entered reserve (detailed path)
    quick: dict | None  # entered totals (quick path)
    score: rules.PlayerScore | None  # with its rank once everyone is in
    options: list[StoneOption] = field(default_factory=list)
    stone_choice: bool = False  # the player chose their own placement


@dataclass
class SinsView:
    players: list[dict]
    n: int
    counts: rules.SetupCounts | None
    needed: int | None
    sins: tuple[str, ...]
    penitenziagite: bool
    done: frozenset[str]
    first: dict | None
    order: list[dict]
    last: dict | None
    current: dict | None
    previous: dict | None  # the player before the one the tracker shows
    judgments: int
    third_on: dict | None
    ending: rules.Ending | None
    still_to_play: list[dict]
    supply: int
    supply_total: int
    score: table.TableScore
    mode: str
    abyss: dict | None
    abyss_total: int | None
    most_wins_choice: bool | None
    rows: list[PlayerRow]
    start_blockers: list
    steps: tuple[str, ...]
    warnings: list  # domain.Problem: impossible counts, shown but never refused

    def warnings_for(self, field: str) -> list:
        return [w for w in self.warnings if w.field == field]

    @property
    def ask_third(self) -> bool:
        """Penitenziagite with two cards out: the third must be tied to the turn it came out on."""
        return self.penitenziagite and self.judgments == rules.LAST_JUDGMENTS - 1 and self.current is not None

    @property
    def missing_names(self) -> list[str]:
        return [r.name for r in self.rows if r.id in self.score.missing]

    @property
    def ranked_rows(self) -> list[PlayerRow]:
        if self.score.game is not None:
            return sorted(self.rows, key=lambda r: r.score.rank)
        if self.score.quick is not None:
            rank_of = dict(zip([p.name for p in self.score.quick.players], self.score.quick.ranks))
            return sorted(self.rows, key=lambda r: rank_of[r.name])
        return self.rows

    def quick_rank(self, row: PlayerRow) -> int | None:
        if self.score.quick is None:
            return None
        return dict(zip([p.name for p in self.score.quick.players], self.score.quick.ranks))[row.name]


def build(slug: str, tbl, state: dict) -> SinsView:
    gs = table.ensure(state)
    players = state["players"]
    by_id = {p["id"]: p for p in players}
    n = len(players)
    counts = rules.setup_counts(n, bool(gs["penitenziagite"])) if n in rules.SIN_TYPES_FOR else None
    order = [by_id[i] for i in table.order(state)]
    end = table.ending_of(state)
    score = table.score_state(gs)
    ts = table.table_score(state)
    most = ts.most_points_wins

    ranked = {}
    if ts.game is not None:
        ranked = {p.name: p for p in ts.game.players}
    rows = []
    for p in players:
        key = str(p["id"])
        reserve = score["reserves"].get(key)
        stones = table.stones_of(state, p["id"])
        player_score = ranked.get(p["name"])
        if player_score is None and reserve is not None and most is not None:
            player_score = table.player_score(state, p["id"], most)
        options = []
        if reserve is not None:
            placed = set(player_score.stones_on) if player_score else set(score["stones_on"].get(key) or ())
            for sin in rules.held(reserve):
                c = reserve[sin]
                options.append(StoneOption(sin, c, rules.points_for(c), rules.points_for(c + 1), sin in placed))
        rows.append(PlayerRow(p["id"], p["name"], p.get("colour"), stones, reserve, score["quick"].get(key),
                              player_score, options, key in score["stones_on"]))

    steps = rules.SETUP_STEPS + (rules.PENITENZIAGITE_STEPS if gs["penitenziagite"] else ())
    return SinsView(
        players=players, n=n, counts=counts, needed=rules.SIN_TYPES_FOR.get(n), sins=tuple(gs["sins"]),
        penitenziagite=bool(gs["penitenziagite"]), done=frozenset(gs["done"]), first=by_id.get(gs["first"]),
        order=order, last=order[-1] if order else None, current=by_id.get(gs["turn"]),
        previous=by_id.get(table.previous_player(state)),
        judgments=gs["judgments"], third_on=by_id.get(gs["third_on"]), ending=end,
        still_to_play=[by_id[i] for i in end.still_to_play] if end else [],
        supply=table.supply(state), supply_total=rules.STONES_FOR.get(n, 0),
        score=ts, mode=score["mode"], abyss=score["abyss"], abyss_total=score["abyss_total"],
        most_wins_choice=score.get("most_wins"), rows=rows, start_blockers=table.start_problems(state), steps=steps,
        warnings=table.warnings(state),
    )
