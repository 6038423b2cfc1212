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
