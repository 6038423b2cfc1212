"""The setup picture's layout (companion/tables/picture.py), pure: seats go round the table the
game's way, and whatever the labels and player count, everything stays inside the picture."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.tables.picture import CHAR, KINDS, WIDTH, Piece, Picture, Seat, draw, seat_rows, wrap


def around(n: int, clockwise: bool) -> list[int]:
    """The seats in the order a walk round the table meets them, from the bottom left."""
    top, bottom = seat_rows(n, clockwise)
    if clockwise:  # up the left side, along the top left to right, back along the bottom right to left
        return bottom[:1] + top + bottom[1:][::-1]
    return bottom + top[::-1]  # along the bottom left to right, back along the top right to left


def test_seat_rows_table():
    assert seat_rows(2, True) == ([1], [0])
    assert seat_rows(4, True) == ([1, 2], [0, 3])
    assert seat_rows(4, False) == ([3, 2], [0, 1])
    assert seat_rows(7, True) == ([1, 2, 3], [0, 6, 5, 4])
    assert seat_rows(5, False) == ([4, 3], [0, 1, 2])


@given(st.integers(1, 12), st.booleans())
def test_seats_go_round_in_turn_order(n, clockwise):
    top, bottom = seat_rows(n, clockwise)
    assert sorted(top + bottom) == list(range(n))
    assert bottom[0] == 0  # seat 1 at the bottom left
    assert around(n, clockwise) == list(range(n))


@given(st.text(min_size=0, max_size=80), st.floats(40, 350), st.integers(1, 5))
def test_wrap_fits_its_width(text, width, max_lines):
    lines = wrap(text, width, max_lines)
    chars = max(4, int(width // CHAR))
    assert 1 <= len(lines) <= max_lines
    for line in lines:
        assert len(line) <= chars + 3  # a word a little longer than the line is kept whole


label = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=60)
pieces = st.builds(Piece, step=st.sampled_from(["a", "b", "c"]), label=label,
                   count=st.none() | st.integers(0, 999), kind=st.sampled_from(KINDS), name=st.just(True))


@given(st.lists(st.lists(pieces, min_size=1, max_size=6), max_size=4),
       st.lists(st.builds(Seat, name=label, colour=st.none(), pieces=st.lists(pieces, max_size=5).map(tuple)),
                min_size=1, max_size=7),
       st.booleans(), st.frozensets(st.sampled_from(["a", "b", "c"])))
def test_everything_inside_the_picture(shared, seats, clockwise, done):
    pic = Picture(shared=tuple(map(tuple, shared)), seats=tuple(seats), clockwise=clockwise, done=done,
                  item_id="step-{}-item")
    d = draw(pic, lambda msg, **kw: msg % kw if kw else msg)
    boxes = [(p.x, p.y, p.w, p.h) for p in d.pieces] + [(s.x, s.y, s.w, s.h) for s in d.seats]
    for x, y, w, h in boxes:
        assert 0 <= x and x + w <= WIDTH + 0.01 and 0 <= y and y + h <= d.height + 0.01
    for p in d.pieces + [q for s in d.seats for q in s.pieces]:
        assert p.done == (p.piece.step in done)
        assert p.item == f"step-{p.piece.step}-item"
    # Seats never overlap each other or the table.
    tx, ty, tw, th = d.table
    for s in d.seats:
        assert s.y + s.h <= ty or s.y >= ty + th
