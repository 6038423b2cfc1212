"""Issue 28, "readings stated as fact": each is now the rulebook's rule or a labelled reading, in the
same words in the English page, the French page and the app.

- Five Sails, a challenge accepted with no threat (Accepting a challenge; Duel rounds, p. 24-25): the
  duel still starts and the acceptor plays the first round with a card; the app's story says so.
- Five Sails, Fifth-Day Influence (p. 2, Ties): our reading, named as one, with its alternative, on the
  Renown & Leaders page in the rules page's words (readings.py; word-for-word checks in
  test_fivesails_rules.py and test_rules_parity.py).
- The Others, the first wound on slot 1 (p. 37 "should"): advice, not a rule; any free slot is taken."""
from __future__ import annotations

import pathlib

from companion.games.fivesails import duel as d
from companion.games.fivesails import readings
from companion.games.fivesails.duel_story import opening_story
from companion.games.others import rules as orules

CONTENT = pathlib.Path(__file__).resolve().parents[2] / "companion" / "rules" / "content"
TEMPLATES = pathlib.Path(__file__).resolve().parents[2] / "templates"


def test_a_zero_threat_challenge_is_told_as_starting_the_duel():
    duel = d.start(d.Setup(d.Participant("Kaspar", 0, 6), d.Participant("Soline", 2, 5)))
    said = " ".join(line.msg % line.args for line in opening_story(duel))
    assert "over at once" not in said
    assert "Soline plays the first round with a card" in said
    assert not duel.ended and duel.must_play_card()


def test_fifth_day_influence_is_a_labelled_reading_shown_on_the_renown_page():
    slug, text = readings.READINGS["fifth-day-influence"]
    assert slug == "victory-fifth-day" and text.startswith("Our reading:") and "Leader alone" in text
    page = (TEMPLATES / "fivesails" / "players.html").read_text(encoding="utf-8")
    assert 'R.reading("fifth-day-influence")' in page
    assert "the total Influence of the characters each player has in play" not in page  # no longer a fact


def test_the_first_wound_on_slot_1_is_advice_in_both_languages_and_the_app_takes_any_slot():
    en = (CONTENT / "others" / "wounds.md").read_text(encoding="utf-8")
    fr = (CONTENT / "others" / "fr" / "wounds.md").read_text(encoding="utf-8")
    assert "advice, not a rule" in en and "conseil, pas une règle" in fr
    assert "must go on slot 1" not in en and "doit aller sur la case 1" not in fr
    assert orules.place_wound([], 4).wound_slots == (4,)
