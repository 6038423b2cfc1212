"""The rules reference as data: one Markdown file per section, with YAML front matter.

    companion/rules/content/<game>/<slug>.md        English (every game)
    companion/rules/content/<game>/fr/<slug>.md     French (7 - The Sins), same slugs

Front matter:
    title:    the section's title (required)
    source:   the rulebook page or heading it summarizes (required), e.g. "Rulebook p. 7, Scoring"
    summary:  one sentence in our own words (required): popovers and search snippets use it
    group:    where it sits in the game's table of contents, e.g. "Setup" (required)
    order:    sort key inside the game (required, a number)
    terms:    term names this section explains, e.g. ["Lethal"] (optional): `term()` popovers
    keywords: what players call it, slang and synonyms, e.g. ["gems"] (optional): search
    related:  slugs of sections worth reading next (optional)

Every sentence is ours; facts, numbers and term names come from ../shared/rulebooks.
Pure: no Flask import. Loaded once and cached.
"""
from __future__ import annotations

import pathlib
import re
from dataclasses import dataclass, field
from functools import lru_cache

import yaml
from markdown_it import MarkdownIt

CONTENT = pathlib.Path(__file__).resolve().parent / "content"
GAME_KEYS = ("sins", "gibbon", "fivesails", "others")
SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
REQUIRED = ("title", "source", "summary", "group", "order")

# html=False: any HTML in the content is shown as text, never interpreted.
_md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")


@dataclass(frozen=True)
class Section:
    game: str
    slug: str
    lang: str
    title: str
    source: str
    summary: str
    group: str
    order: float
    body: str  # Markdown
    terms: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    related: tuple[str, ...] = ()
    html: str = field(default="", compare=False)

    @property
    def text(self) -> str:
        """The body as plain words, for the search index."""
        return re.sub(r"[#*_`>|\[\]()-]+", " ", self.body)


class ContentError(ValueError):
    pass


def parse(path: pathlib.Path, game: str, lang: str) -> Section:
    raw = path.read_text(encoding="utf-8")
    match = re.match(r"^---\n(.*?)\n---\n(.*)$", raw, flags=re.S)
    if not match:
        raise ContentError(f"{path}: no front matter")
    meta = yaml.safe_load(match.group(1)) or {}
    missing = [k for k in REQUIRED if k not in meta]
    if missing:
        raise ContentError(f"{path}: front matter lacks {', '.join(missing)}")
    slug = path.stem
    if not SLUG_RE.match(slug):
        raise ContentError(f"{path}: file name must be a lowercase-hyphenated slug")
    body = match.group(2).strip()
    return Section(
        game=game, slug=slug, lang=lang, title=str(meta["title"]), source=str(meta["source"]),
        summary=str(meta["summary"]), group=str(meta["group"]), order=float(meta["order"]), body=body,
        terms=tuple(meta.get("terms") or ()), keywords=tuple(str(k) for k in meta.get("keywords") or ()),
        related=tuple(meta.get("related") or ()), html=_md.render(body),
    )


@lru_cache(maxsize=1)
def load(root: pathlib.Path = CONTENT) -> dict[tuple[str, str], dict[str, Section]]:
    """{(game, lang): {slug: Section}} in reading order."""
    out: dict[tuple[str, str], dict[str, Section]] = {}
    for game in GAME_KEYS:
        for lang, folder in (("en", root / game), ("fr", root / game / "fr")):
            if not folder.is_dir():
                continue
            sections = [parse(p, game, lang) for p in folder.glob("*.md")]
            sections.sort(key=lambda s: (s.order, s.slug))
            if sections:
                out[(game, lang)] = {s.slug: s for s in sections}
    return out


def sections(game: str, lang: str = "en") -> dict[str, Section]:
    """A game's sections in `lang`, falling back to English where no translation exists."""
    data = load()
    english = data.get((game, "en"), {})
    if lang == "en":
        return english
    local = data.get((game, lang), {})
    return {slug: local.get(slug, sec) for slug, sec in english.items()}


def section(game: str, slug: str, lang: str = "en") -> Section | None:
    return sections(game, lang).get(slug)


def find_term(game: str, term: str, lang: str = "en") -> Section | None:
    """The section that explains a term (matched case-insensitively against `terms`)."""
    wanted = term.casefold()
    for sec in sections(game, lang).values():
        if any(t.casefold() == wanted for t in sec.terms):
            return sec
    english = sections(game, "en")
    for sec in english.values():
        if any(t.casefold() == wanted for t in sec.terms):
            return sections(game, lang).get(sec.slug, sec)
    return None
