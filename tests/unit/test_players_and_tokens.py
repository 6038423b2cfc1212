import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.domain import Invalid, Problems, count
from companion.tables import players, tokens
from companion.tables.store import paths_overlap


def state_with(*names):
    return {"players": players.make_players(list(names)), "game": {}}


def test_tokens_carry_at_least_128_random_bits_and_are_url_safe():
    toks = {tokens.new_token() for _ in range(200)}
    assert len(toks) == 200
    for tok in toks:
        assert tokens.looks_like_token(tok)
        assert len(tok) * 6 >= 128


@pytest.mark.parametrize("pasted", [
    pytest.param("https://companion.example/t/{tok}", id="full-link"),
    pytest.param("http://192.168.1.4:8000/t/{tok}/score?x=1#top", id="link-with-page-query-anchor"),
    pytest.param("  {tok}  ", id="bare-token-with-spaces"),
    pytest.param("/t/{tok}", id="path"),
])
def test_a_token_is_found_in_whatever_was_pasted(pasted):
    tok = tokens.new_token()
    assert tokens.token_from_link(pasted.format(tok=tok)) == tok


@pytest.mark.parametrize("pasted", ["", "hello", "https://example.com/t/short", "x" * 300])
def test_no_token_in_junk(pasted):
    assert tokens.token_from_link(pasted) is None


def test_players_get_stable_ids_in_seat_order():
    ps = players.make_players(["Ana", "Bo", "Cy"], ["red", None, "blue"])
    assert [(p["id"], p["name"], p["colour"]) for p in ps] == [(1, "Ana", "red"), (2, "Bo", None), (3, "Cy", "blue")]


def test_names_are_trimmed_and_inner_spaces_collapsed():
    assert players.make_players(["  Ana   Maria "])[0]["name"] == "Ana Maria"


@pytest.mark.parametrize("names, field", [
    pytest.param(["Ana", "ana"], "players.1.name", id="duplicate-ignoring-case"),
    pytest.param(["x" * 31], "players.0.name", id="too-long"),
    pytest.param(["   "], "players.0.name", id="blank"),
])
def test_bad_player_names_are_refused_with_the_field(names, field):
    with pytest.raises(Invalid) as err:
        players.make_players(names)
    assert field in err.value.as_dict()


def test_an_unknown_colour_is_refused():
    with pytest.raises(Invalid):
        players.make_players(["Ana"], ["mauve"])


def test_rename_keeps_the_id_and_refuses_a_name_taken_by_another():
    state = state_with("Ana", "Bo")
    assert players.rename(state, 1, "Anna") == ("Ana", "Anna")
    assert state["players"][0] == {"id": 1, "name": "Anna", "colour": None}
    with pytest.raises(Invalid):
        players.rename(state, 1, "BO")
    players.rename(state, 2, "bo")  # changing only the case of one's own name is fine


def test_move_swaps_neighbours_and_stops_at_the_ends():
    state = state_with("Ana", "Bo", "Cy")
    players.move(state, 3, -1)
    assert [p["name"] for p in state["players"]] == ["Ana", "Cy", "Bo"]
    with pytest.raises(Invalid):
        players.move(state, 1, -1)
    with pytest.raises(Invalid):
        players.move(state, 2, 1)


def test_add_and_remove_respect_the_game_limits_and_never_reuse_an_id():
    state = state_with("Ana", "Bo")
    assert players.add(state, "Cy", max_players=3)["id"] == 3
    with pytest.raises(Invalid):
        players.add(state, "Di", max_players=3)
    players.remove(state, 3, min_players=2)
    with pytest.raises(Invalid):
        players.remove(state, 1, min_players=2)
    players.remove(state, 1, min_players=1)
    assert players.add(state, "Ed", max_players=5)["id"] == 3  # the highest id still present is 2


@given(st.lists(st.sampled_from([-1, 1]), max_size=30), st.data())
def test_seat_moves_only_permute_the_players(steps, data):
    state = state_with("Ana", "Bo", "Cy", "Di")
    before = sorted(p["id"] for p in state["players"])
    for step in steps:
        pid = data.draw(st.sampled_from(before))
        try:
            players.move(state, pid, step)
        except Invalid:
            pass
    assert sorted(p["id"] for p in state["players"]) == before


@pytest.mark.parametrize("a, b, expected", [
    pytest.param(["/state/players/1/name"], ["/state/players/1/name"], True, id="same"),
    pytest.param(["/state/players"], ["/state/players/1/name"], True, id="parent-contains-child"),
    pytest.param(["/state/players/1/name"], ["/state/players"], True, id="child-inside-parent"),
    pytest.param(["/state/players/1/name"], ["/state/players/10/name"], False, id="prefix-but-not-a-segment"),
    pytest.param(["/state/players/1/name"], ["/state/players/2/name"], False, id="siblings"),
    pytest.param([], ["/state/players"], False, id="nothing-written"),
])
def test_paths_overlap_on_whole_segments(a, b, expected):
    assert paths_overlap(a, b) is expected


@pytest.mark.parametrize("raw, expected, ok", [
    (3, 3, True), ("4", 4, True), (2.0, 2, True), (" 5 ", 5, True),
    (True, 0, False), (1.5, 0, False), ("abc", 0, False), (None, 0, False), (-1, 0, False), (10**9, 99, False),
])
def test_count_reads_whole_numbers_only(raw, expected, ok):
    problems = Problems()
    assert count(raw, "x", problems, maximum=99) == expected
    assert (not problems) is ok
