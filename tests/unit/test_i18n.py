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
        return {(m.id if isinstance(m.id, str) else m.id[0]): m.string for m in read_po(fh) if m.id}


ROOT = Path(__file__).resolve().parents[2] / "companion"
SHARED_DOMAIN = {  # every catalog is merged into one domain: the last one loaded wins a shared msgid
    "core": ROOT / "translations", "plays": ROOT / "plays" / "translations",
    **{g: ROOT / "games" / g / "translations" for g in ("fivesails", "gibbon", "others", "sins")},
}


# Five Sails means other words by these (a duel's "Passe", its victory's "Vainqueur"); its catalog is
# changed by its owner, who can give them their own msgids.
FIVE_SAILS_OWN = {"fivesails": {"Round %(n)d", "Winner: %(names)s"}}


def test_sins_and_gibbon_share_no_message_that_another_catalog_translates_otherwise():
    """Issue 28: Gibbon's "The last round" card read "Le dernier tour de table" in French, 7 Sins'
    words, because one msgid had two translations and the merged catalogs kept the last. A message
    7 Sins or Gibbon shares with another catalog must read the same there (typography aside)."""
    def norm(s):
        s = s if isinstance(s, str) else "|".join(s)
        return " ".join(s.replace("\u2019", "'").replace("\u00a0", " ").replace("\u202f", " ").split())

    cats = {name: _french(path / "fr" / "LC_MESSAGES" / "messages.po") for name, path in SHARED_DOMAIN.items()}
    clashes = []
    for mine in ("gibbon", "sins"):
        for other, cat in cats.items():
            if other == mine:
                continue
            # a message the core also has (a generic form message) follows the core's words
            shared = set(cats[mine]) & set(cat) - FIVE_SAILS_OWN.get(other, set())
            for msgid in shared if other == "core" else shared - set(cats["core"]):
                a, b = cats[mine][msgid], cat[msgid]
                if a and b and norm(a).split("|")[0] != norm(b).split("|")[0]:
                    clashes.append((mine, other, msgid, a, b))
    assert sorted(clashes) == []
