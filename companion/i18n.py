"""English and French: locale choice, catalogs from the core and from each game, message helpers."""
from __future__ import annotations

import pathlib

from flask import current_app, g, request
from flask_babel import get_translations, gettext

from .text import isolate

HERE = pathlib.Path(__file__).resolve().parent


def compile_catalogs(force: bool = False) -> list[pathlib.Path]:
    """Write each catalog's .mo next to its .po when missing or older (the .mo files are not in git)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(HERE.glob("**/translations/*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if not force and mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as fh:
            catalog = read_po(fh)
        try:
            with mo.open("wb") as fh:
                write_mo(fh, catalog, use_fuzzy=False)
        except OSError:  # a read-only install: it must have been compiled at build time
            continue
        written.append(mo)
    return written


def translation_directories() -> list[str]:
    """The core catalog plus one per game (companion/games/<game>/translations), merged by flask-babel.

    Each game owns its own catalog so the games' work never collides in one .po file.
    """
    dirs = [HERE / "translations", HERE / "rules" / "translations", HERE / "plays" / "translations"]
    dirs += sorted(p for p in (HERE / "games").glob("*/translations") if p.is_dir())
    return [str(d) for d in dirs if d.is_dir()]


def select_locale() -> str:
    langs = current_app.config["LANGUAGES"]
    chosen = request.cookies.get("lang")
    if chosen in langs:
        return chosen
    return request.accept_languages.best_match(langs) or current_app.config["BABEL_DEFAULT_LOCALE"]


def render_message(msg, args: dict | None = None) -> str:
    """Translate a stored message id and fill in its values.

    A value may itself be a stored message ({"msg": ..., "args": ...}) or a marked term
    ({"term": msgid}); both are translated too, so a log line reads in the viewer's language.
    """
    if isinstance(msg, dict) and "msg" in msg:
        return render_message(msg["msg"], msg.get("args"))
    if isinstance(msg, dict) and "term" in msg:
        term = msg["term"]
        return gettext(term)
    values = {}
    for key, value in (args or {}).items():
        # A typed name inside a sentence: isolated when right-to-left, so it cannot reorder the line.
        values[key] = render_message(value) if isinstance(value, dict) else isolate(value) if isinstance(value, str) else value
    text = gettext(msg)
    if not values:
        return text
    # A translation (or an old log line) with a wrong placeholder must not break the page.
    for candidate in (text, msg):
        try:
            return candidate % values
        except (KeyError, TypeError, ValueError):
            continue
    return msg


def _translations():
    """This request's catalog, looked up once (flask-babel looks it up again on every message)."""
    try:
        return g._companion_translations
    except AttributeError:
        g._companion_translations = found = get_translations()
        return found


def install_fast_gettext(app) -> None:
    """Template gettext that finds the request's catalog once, not once per string."""
    app.jinja_env.install_gettext_callables(
        gettext=lambda s: _translations().ugettext(s),
        ngettext=lambda s, p, n: _translations().ungettext(s, p, n),
        pgettext=lambda c, s: _translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: _translations().unpgettext(c, s, p, n),
        newstyle=True,
    )
