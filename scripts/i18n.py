#!/usr/bin/env python3
"""Translation catalogs: one for the core, one for the rules reference, one per game.

    python scripts/i18n.py update    extract messages and merge them into every fr catalog
    python scripts/i18n.py compile   write the .mo files (the app also does this at start-up)
    python scripts/i18n.py check     exit 1 if a catalog lacks a message or a French translation

Each game owns companion/games/<game>/translations, so work on two games never edits one file.
"""
from __future__ import annotations

import io
import pathlib
import sys

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = pathlib.Path(__file__).resolve().parent.parent
PKG = ROOT / "companion"
LOCALES = ("fr",)
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None, "_l": None, "N_": None,
            "pgettext": ((1, "c"), 2)}
METHODS = [("**.py", "python"), ("**.html", "jinja2")]
OPTIONS = {"**.html": {"extensions": "jinja2.ext.i18n", "newstyle_gettext": "true"}}


def catalogs() -> list[tuple[str, pathlib.Path, list[pathlib.Path], list[str]]]:
    """(name, translations dir, source dirs, sub-folders to skip) for every catalog."""
    games = sorted(p.name for p in (PKG / "games").iterdir() if (p / "__init__.py").exists())
    out = [("core", PKG / "translations", [PKG, ROOT / "templates"], ["games", "rules", "plays", "groups"] + games),
           ("rules", PKG / "rules" / "translations", [PKG / "rules", ROOT / "templates" / "rules"], []),
           ("plays", PKG / "plays" / "translations", [PKG / "plays", ROOT / "templates" / "groups"], [])]
    for g in games:
        out.append((g, PKG / "games" / g / "translations", [PKG / "games" / g, ROOT / "templates" / g], []))
    return out


def extract(sources: list[pathlib.Path], skip: list[str]) -> Catalog:
    catalog = Catalog(project="companion", charset="utf-8")
    for src in sources:
        if not src.exists():
            continue

        def keep(dirname, src=src):
            rel = pathlib.Path(dirname).relative_to(src)
            return not (rel.parts and (rel.parts[0] in skip or rel.parts[0].startswith(".")
                                       or rel.parts[0] in ("translations", "__pycache__")))

        for filename, lineno, message, comments, context in extract_from_dir(
                str(src), METHODS, OPTIONS, KEYWORDS, callback=None, strip_comment_tags=True,
                directory_filter=keep):
            catalog.add(message, None, [(str((src / filename).relative_to(ROOT)), lineno)],
                        auto_comments=comments, context=context)
    return catalog


def po_path(tdir: pathlib.Path, locale: str) -> pathlib.Path:
    return tdir / locale / "LC_MESSAGES" / "messages.po"


def update() -> None:
    for name, tdir, sources, skip in catalogs():
        template = extract(sources, skip)
        for locale in LOCALES:
            path = po_path(tdir, locale)
            if path.exists():
                with path.open("rb") as fh:
                    cat = read_po(fh, locale=locale)
            else:
                cat = Catalog(locale=locale, project="companion", charset="utf-8")
            cat.update(template, update_header_comment=False, no_fuzzy_matching=True)
            path.parent.mkdir(parents=True, exist_ok=True)
            buf = io.BytesIO()
            write_po(buf, cat, width=100, omit_header=False, ignore_obsolete=True, include_previous=False)
            path.write_bytes(buf.getvalue())
            print(f"{name}: {path.relative_to(ROOT)}: {len(cat)} messages")


def check() -> int:
    bad = 0
    for name, tdir, sources, skip in catalogs():
        wanted = {m.id if not isinstance(m.id, tuple) else m.id[0] for m in extract(sources, skip) if m.id}
        for locale in LOCALES:
            path = po_path(tdir, locale)
            if not path.exists():
                if wanted:
                    print(f"{name}: no {locale} catalog at {path.relative_to(ROOT)} for {len(wanted)} messages")
                    bad += 1
                continue
            with path.open("rb") as fh:
                cat = read_po(fh, locale=locale)
            have = {m.id if not isinstance(m.id, tuple) else m.id[0]: m for m in cat if m.id}
            missing = sorted(wanted - set(have))
            untranslated = sorted(k for k, m in have.items()
                                  if k in wanted and (not m.string or (isinstance(m.string, tuple) and not all(m.string))
                                                      or m.fuzzy))
            for k in missing:
                print(f"{name}/{locale}: not in catalog (run scripts/i18n.py update): {k!r}")
            for k in untranslated:
                print(f"{name}/{locale}: no translation: {k!r}")
            bad += len(missing) + len(untranslated)
    return 1 if bad else 0


def compile_all() -> None:
    sys.path.insert(0, str(ROOT))
    from companion.i18n import compile_catalogs

    for path in compile_catalogs(force=True):
        print(f"compiled {path.relative_to(ROOT)}")


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "update":
        update()
    elif cmd == "compile":
        compile_all()
    elif cmd == "check":
        sys.exit(check())
    else:
        print(__doc__)
        sys.exit(2)
