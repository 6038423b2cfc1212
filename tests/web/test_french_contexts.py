"""Words that mean two things in French keep their own translation in the merged catalogs (issue 28):
a Five Sails duel's round is a "Passe" where the other games' rounds are a "Manche", its Day not
started is masculine, and a colour's "none" is feminine where The Others' wound slot says "rien"."""
from __future__ import annotations

from flask import render_template_string

from tests.conftest import text_of


def _french(client, path):
    resp = client.get(path, headers={"Accept-Language": "fr"})
    assert resp.status_code == 200, path
    return text_of(resp)


def test_a_duel_round_is_a_passe_and_a_gibbon_round_a_manche(app):
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        assert render_template_string('{{ pgettext("duel", "Round %(n)d", n=2) }}') == "Passe 2"
        assert render_template_string('{{ _("Round %(n)d", n=2) }}') == "Manche 2"


def test_the_five_sails_day_not_started_is_masculine(client, tables):
    token = tables.create("fivesails", names=("Ana", "Bo", "Cy"))
    assert "Pas encore commencé" in _french(client, f"/t/{token}/day")
    assert "Pas encore commencée" not in _french(client, f"/t/{token}/day")


def test_no_colour_is_aucune(client):
    assert "aucune" in _french(client, "/new/sins")
