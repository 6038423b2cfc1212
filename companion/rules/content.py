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

The body is CommonMark with tables. Headings inside it get stable ids (`#h-<heading>`), so a search
result can open the section scrolled to the part that matched; the body's top heading level is shown
as <h2> whatever level the file uses (the section title is the page's <h1>). Raw HTML is shown as text.

Every sentence is ours; facts, numbers and term names come from ../shared/rulebooks.
Pure: no Flask import. Loaded once per content folder and cached.
"""
from __future__ import annotations

import pathlib
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

import yaml
from markdown_it import MarkdownIt

from . import yamlfile

CONTENT = pathlib.Path(__file__).resolve().parent / "content"
GAME_KEYS = ("sins", "gibbon", "fivesails", "others")
LANGS = ("en", "fr")
SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
REQUIRED = ("title", "source", "summary", "group", "order")

# html=False: any HTML in the content is shown as text, never interpreted.
_md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")


@dataclass(frozen=True)
class Block:
    """A part of a section's body: the text under one heading (the first block has no heading)."""

    anchor: str | None  # the heading's id, None for the text before the first heading
    heading: str
    text: str  # plain words as shown, without Markdown syntax


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
    blocks: tuple[Block, ...] = field(default=(), compare=False)

    @property
    def text(self) -> str:
        """The body as plain words (headings included), for the search index."""
        return " ".join(filter(None, (f"{b.heading} {b.text}".strip() for b in self.blocks)))


class ContentError(ValueError):
    pass


def heading_id(text: str) -> str:
    """A heading's anchor: ASCII, lowercase, hyphenated, prefixed so it never clashes with the page's ids."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "h-" + (re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-") or "part")


def _inline_text(token) -> str:
    parts = []
    for child in token.children or ():
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(child.content)
    return "".join(parts)


def render(body: str) -> tuple[str, tuple[Block, ...]]:
    """The body's HTML (heading ids, levels from h2, wide tables scroll) and its plain-text blocks."""
    tokens = _md.parse(body)
    levels = [int(t.tag[1]) for t in tokens if t.type == "heading_open"]
    shift = 2 - min(levels) if levels else 0
    blocks: list[Block] = []
    anchor, heading, words, cells, rows = None, "", [], [], []
    seen: set[str] = set()

    def close_block():
        if heading or words:
            blocks.append(Block(anchor, heading, re.sub(r"\s+", " ", " ".join(words)).strip()))

    for i, tok in enumerate(tokens):
        if tok.type in ("heading_open", "heading_close"):
            tok.tag = f"h{min(6, int(tok.tag[1]) + shift)}"
        if tok.type == "heading_open":
            close_block()
            heading = _inline_text(tokens[i + 1]).strip()
            anchor, n = heading_id(heading), 2
            while anchor in seen:
                anchor, n = f"{heading_id(heading)}-{n}", n + 1
            seen.add(anchor)
            tok.attrSet("id", anchor)
            words = []
        elif tok.type == "inline" and tokens[i - 1].type != "heading_open":
            if tokens[i - 1].type in ("th_open", "td_open"):
                cells.append(_inline_text(tok).strip())
            else:
                words.append(_inline_text(tok))
        elif tok.type == "tr_close":
            rows.append(" – ".join(cells))
            cells = []
        elif tok.type == "table_close":
            words.append(" · ".join(rows) + " ·")
            rows = []
    close_block()
    html = _md.renderer.render(tokens, _md.options, {})
    # A wide table scrolls inside its own box (focusable, so it can be scrolled from the keyboard).
    html = html.replace("<table>", '<div class="table-scroll" tabindex="0"><table>').replace("</table>", "</table></div>")
    return html, tuple(blocks)


def parse(path: pathlib.Path, game: str, lang: str) -> Section:
    raw = path.read_text(encoding="utf-8")
    match = re.match(r"^---\n(.*?)\n---\n(.*)$", raw, flags=re.S)
    if not match:
        raise ContentError(f"{path}: no front matter")
    try:
        meta = yamlfile.load(match.group(1)) or {}
    except yaml.YAMLError as err:
        raise ContentError(f"{path}: front matter is not valid YAML: {err}") from err
    if not isinstance(meta, dict):
        raise ContentError(f"{path}: front matter must be a mapping")
    missing = [k for k in REQUIRED if k not in meta]
    if missing:
        raise ContentError(f"{path}: front matter lacks {', '.join(missing)}")
    slug = path.stem
    if not SLUG_RE.match(slug):
        raise ContentError(f"{path}: file name must be a lowercase-hyphenated slug")
    for key in ("terms", "keywords", "related"):
        if not isinstance(meta.get(key) or [], list):
            raise ContentError(f"{path}: {key} must be a list")
    body = match.group(2).strip()
    html, blocks = render(body)
    return Section(
        game=game, slug=slug, lang=lang, title=str(meta["title"]), source=str(meta["source"]),
        summary=str(meta["summary"]), group=str(meta["group"]), order=float(meta["order"]), body=body,
        terms=tuple(str(t) for t in meta.get("terms") or ()),
        keywords=tuple(str(k) for k in meta.get("keywords") or ()),
        related=tuple(str(r) for r in meta.get("related") or ()), html=html, blocks=blocks,
    )


class Library:
    """Every game's sections read from one content folder: {(game, lang): {slug: Section}}."""

    def __init__(self, data: dict[tuple[str, str], dict[str, Section]], root: pathlib.Path | None = None):
        self.data = data
        self.root = root

    @classmethod
    def read(cls, root: pathlib.Path) -> Library:
        data: dict[tuple[str, str], dict[str, Section]] = {}
        for game in GAME_KEYS:
            for lang, folder in (("en", root / game), ("fr", root / game / "fr")):
                if not folder.is_dir():
                    continue
                found = [parse(p, game, lang) for p in folder.glob("*.md")]
                found.sort(key=lambda s: (s.order, s.slug))
                if found:
                    data[(game, lang)] = {s.slug: s for s in found}
        return cls(data, root)

    def sections(self, game: str, lang: str = "en") -> dict[str, Section]:
        """A game's sections in `lang`, in reading order, falling back to English where no translation exists."""
        english = self.data.get((game, "en"), {})
        if lang == "en":
            return english
        local = self.data.get((game, lang), {})
        return {slug: local.get(slug, sec) for slug, sec in english.items()}

    def section(self, game: str, slug: str, lang: str = "en") -> Section | None:
        return self.sections(game, lang).get(slug)

    def languages(self, game: str) -> tuple[str, ...]:
        """The languages a game's reference is written in (English first)."""
        return tuple(lang for lang in LANGS if (game, lang) in self.data)

    def translated(self, game: str, slug: str, lang: str) -> bool:
        return slug in self.data.get((game, lang), {})

    def find_term(self, game: str, term: str, lang: str = "en") -> Section | None:
        """The section that explains a term (matched case-insensitively against `terms`, in any language)."""
        wanted = term.casefold()
        for sec in self.sections(game, lang).values():
            if any(t.casefold() == wanted for t in sec.terms):
                return sec
        for sec in self.sections(game, "en").values():
            if any(t.casefold() == wanted for t in sec.terms):
                return self.sections(game, lang).get(sec.slug, sec)
        return None

    def all_sections(self):
        """Every section in every language (the search index reads these)."""
        for secs in self.data.values():
            yield from secs.values()

    def problems(self) -> list[str]:
        """What is inconsistent in the content: links to missing sections, translations without an
        English original, a term explained twice. Empty when all is well."""
        out = []
        for (game, lang), secs in sorted(self.data.items()):
            english = self.data.get((game, "en"), {})
            for slug, sec in secs.items():
                where = f"{game}/{lang}/{slug}" if lang != "en" else f"{game}/{slug}"
                if slug not in english:
                    out.append(f"{where}: translated section has no English original")
                for rel in sec.related:
                    if rel not in english:
                        out.append(f"{where}: related section {rel!r} does not exist")
            explained: dict[str, str] = {}
            for slug, sec in secs.items():
                for t in sec.terms:
                    key = t.casefold()
                    if key in explained and explained[key] != slug:
                        out.append(f"{game}/{lang}: term {t!r} is explained by both {explained[key]} and {slug}")
                    explained.setdefault(key, slug)
        return out


GLOSSARY = pathlib.Path(__file__).resolve().parent / "glossary"


@dataclass(frozen=True)
class Glossary:
    """A game's French and English terms (glossary/<game>.yaml): the French screens and the French
    rules use these words. `french_rulebook` is true when the publisher printed French rules; for
    the other games the French reference is our own translation of the English rulebook."""

    game: str
    terms: tuple[tuple[str, str], ...] = ()  # (English, French), in the file's order
    names: tuple[str, ...] = ()  # what players call the game, both languages
    french_rulebook: bool = False
    # names that are also everyday phrases ("do the others still play?"): they weigh the game up but
    # never narrow a search to it
    everyday_names: tuple[str, ...] = ()

    def french(self, english: str) -> str | None:
        wanted = english.casefold()
        return next((fr for en, fr in self.terms if en.casefold() == wanted), None)


@lru_cache(maxsize=16)
def glossary(game: str, folder: pathlib.Path = GLOSSARY) -> Glossary:
    path = pathlib.Path(folder) / f"{game}.yaml"
    if not path.exists():
        return Glossary(game)
    data = yamlfile.load(path.read_text(encoding="utf-8")) or {}
    terms = tuple((str(en), str(fr)) for en, fr in (data.get("terms") or {}).items())
    names = tuple(str(n) for by_lang in (data.get("names") or {}).values() for n in by_lang)
    return Glossary(game, terms, names, bool(data.get("french_rulebook")),
                    tuple(str(n) for n in data.get("everyday_names") or ()))


@lru_cache(maxsize=8)
def library(root: pathlib.Path = CONTENT) -> Library:
    """The sections under `root` (the package's content by default), read once."""
    return Library.read(pathlib.Path(root))


def load(root: pathlib.Path = CONTENT) -> dict[tuple[str, str], dict[str, Section]]:
    """{(game, lang): {slug: Section}} in reading order."""
    return library(root).data


def sections(game: str, lang: str = "en") -> dict[str, Section]:
    """A game's sections in `lang`, falling back to English where no translation exists."""
    return library().sections(game, lang)


def section(game: str, slug: str, lang: str = "en") -> Section | None:
    return library().section(game, slug, lang)


def find_term(game: str, term: str, lang: str = "en") -> Section | None:
    """The section that explains a term (matched case-insensitively against `terms`)."""
    return library().find_term(game, term, lang)
