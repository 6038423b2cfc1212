"""English and French: every message of every catalog is extracted and translated."""
import subprocess
import sys
from pathlib import Path

from companion.i18n import render_message

ROOT = Path(__file__).resolve().parents[2]


def test_every_catalog_is_complete_in_french():
    done = subprocess.run([sys.executable, "scripts/i18n.py", "check"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout[-3000:]


def test_a_stored_message_renders_with_nested_messages_and_terms(app):
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        text = render_message("Undo: %(what)s", {"what": {"msg": "%(player)s left the table", "args": {"player": "Bo"}}})
        assert text == "Annuler : Bo a quitté la table"
        assert render_message("The table is now %(status)s", {"status": {"term": "finished"}}) == \
            "La table est maintenant : terminée"


def test_a_broken_translation_placeholder_falls_back_to_english(app):
    with app.test_request_context():
        assert render_message("%(player)s left the table", {"wrong": 1}) == "%(player)s left the table"


def _french(catalog: Path) -> dict[str, object]:
    from babel.messages.pofile import read_po

    with catalog.open("rb") as fh:
        return {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m.string for m in read_po(fh) if m.id}


PACKAGE = ROOT / "companion"
SHARED_DOMAIN = {  # every catalog is merged into one domain: the last one loaded wins a shared msgid
    "core": PACKAGE / "translations", "plays": PACKAGE / "plays" / "translations",
    **{g: PACKAGE / "games" / g / "translations" for g in ("fivesails", "gibbon", "others", "sins")},
}


def test_no_message_two_catalogs_share_reads_two_ways():
    """Issue 28: Gibbon's "The last round" card read "Le dernier tour de table" in French, 7 Sins'
    words, because one msgid had two translations and the merged catalogs kept the last. A message
    two catalogs share must read the same in both (typography aside); where the words must differ
    (a Five Sails duel's round is a "Passe", a colour's "none" is feminine), the message has a
    context (pgettext) of its own."""
    def norm(s):
        s = s if isinstance(s, str) else "|".join(s)
        return " ".join(s.replace("\u2019", "'").replace("\u00a0", " ").replace("\u202f", " ").split())

    cats = {name: _french(path / "fr" / "LC_MESSAGES" / "messages.po") for name, path in SHARED_DOMAIN.items()}
    names = sorted(cats)
    clashes = []
    for i, mine in enumerate(names):
        for other in names[i + 1:]:
            for key in set(cats[mine]) & set(cats[other]):
                a, b = cats[mine][key], cats[other][key]
                if a and b and isinstance(a, str) == isinstance(b, str) and norm(a) != norm(b):
                    clashes.append((mine, other, key, a, b))
    assert sorted(clashes) == []
