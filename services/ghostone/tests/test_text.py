"""Moves people can read (ghostone/text.py): every move type as a short sentence in
English and in Japanese, starting with who acts, a pure function of the move."""

import pytest

from ghostone.engine import Ghostone

GAME = Ghostone()

TEXTS = [
    ({"type": "place", "seat": 1, "plate": "b2", "rocks": ["a1", "a3", "c3"]},
     "Seat 1: a piece on b2, a rock each on a1, a3 and c3",
     "プレイヤー1：駒をb2に置き、a1・a3・c3に岩を1個ずつ追加"),
    ({"type": "move", "seat": 2, "from": "c2", "to": "c3", "rock": "E"},
     "Seat 2: piece c2 → c3, a rock of c2 pushed east",
     "プレイヤー2：駒をc2からc3へ移動、c2の岩を1個東へ"),
    ({"type": "move", "seat": 3, "from": "b2", "to": "b1", "rock": None},
     "Seat 3: piece b2 → b1, no rock to push",
     "プレイヤー3：駒をb2からb1へ移動、岩の移動なし"),
    ({"type": "move", "seat": 4, "from": "b2", "to": "b1", "rock": "N", "ghost": "a2"},
     "Seat 4: piece b2 → b1, a rock of b2 pushed north; the 3rd escape places the ghost on a2",
     "プレイヤー4：駒をb2からb1へ移動、b2の岩を1個北へ、3体目の脱出でオバケをa2に置く"),
    ({"type": "pass", "seat": 2},
     "Seat 2: pass (no piece can move)",
     "プレイヤー2：パス（動かせる駒がない）"),
    ({"type": "roll", "seat": "chance", "dir": "NE", "p": 0.125},
     "Chance: the die shows NE, the ghost heads north-east",
     "賽子：北東の目、オバケは北東へ向かう"),
]


@pytest.mark.parametrize("move,en,ja", TEXTS, ids=[t[1].split(":")[1][:20] for t in TEXTS])
def test_G_9_each_move_reads_as_a_sentence_in_english_and_japanese(move, en, ja):
    assert GAME.move_text(move, "en") == en
    assert GAME.move_text(move, "ja") == ja
    assert GAME.move_text(dict(move, text="stale"), "en") == en  # annotations do not count


def test_G_9_every_listed_move_reads_and_each_reading_names_its_move():
    """Different moves of one position read differently (the text says what happens)."""
    state = GAME.new(3, seed=4)
    while state["phase"] == "placement":
        state, _ = GAME.apply(state, GAME.legal_moves(state)[0])
    moves = GAME.legal_moves(state)
    for lang in ("en", "ja"):
        texts = [GAME.move_text(m, lang) for m in moves]
        assert len(set(texts)) == len(moves)
        assert all(t.startswith(("Seat ", "プレイヤー")) for t in texts)


def test_G_8_1_a_roll_reads_the_same_whoever_reads_it_and_never_says_where_the_ghost_lands():
    roll = {"type": "roll", "seat": "chance", "dir": "S"}
    for seat in (None, 1, 2, 3):
        assert GAME.move_text(GAME.view_move(dict(roll, p=0.125), seat), "en") == \
            "Chance: the die shows S, the ghost heads south"


def test_G_9_odd_moves_read_as_their_json_and_never_crash():
    assert GAME.move_text({"type": "jump", "seat": 1}, "ja") == '{"seat":1,"type":"jump"}'
    odd = {"type": "move", "seat": 1, "from": ["b2"], "to": None, "rock": "UP"}
    assert GAME.move_text(odd, "en") == 'Seat 1: piece ["b2"] → null, a rock of ["b2"] ' \
                                        'pushed "UP"'
    assert GAME.move_text({"type": "roll", "seat": "chance", "dir": "N"}, "fr") == \
        GAME.move_text({"type": "roll", "seat": "chance", "dir": "N"}, "en")
