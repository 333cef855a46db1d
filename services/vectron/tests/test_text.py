"""Moves people can read (vectron/text.py): every move type as a short sentence in
English and in Japanese, starting with who acts, a pure function of the move that never
shows a card its move has hidden."""

import pytest

from referee.engine import CHANCE
from vectron.board import CARD_NAMES, CARDS, CHIP_NAMES, CHIPS
from vectron.engine import Vectron

GAME = Vectron()

TEXTS = [
    ({"type": "draw", "seat": 1, "source": "deck"},
     "Seat 1: draw a card from the deck",
     "プレイヤー1：山札から1枚引く"),
    ({"type": "draw", "seat": 2, "source": 2},
     "Seat 2: take the top card of the own action column",
     "プレイヤー2：自分のアクション列の一番上のカードを取る"),
    ({"type": "draw", "seat": 1, "source": 3},
     "Seat 1: take the top card of seat 3's action column",
     "プレイヤー1：プレイヤー3のアクション列の一番上のカードを取る"),
    ({"type": "place", "seat": 2, "card": "D2"},
     "Seat 2: place D2 (diagonal 2) on top of the own action column",
     "プレイヤー2：D2（斜め2）を自分のアクション列の一番上に出す"),
    ({"type": "move", "seat": 3, "to": "c3"},
     "Seat 3: move the piece to c3",
     "プレイヤー3：駒をc3へ移動"),
    ({"type": "stop", "seat": 4},
     "Seat 4: end the turn (no more additional moves)",
     "プレイヤー4：追加移動をせず手番を終える"),
    ({"type": "card", "seat": CHANCE, "card": "O3", "p": 0.125},
     "Chance: O3 (orthogonal 3) comes off the deck",
     "山札：O3（縦横3）が出る"),
    ({"type": "card", "seat": CHANCE},
     "Chance: a card comes off the deck (hidden)",
     "山札：カードが1枚出る（伏せたまま）"),
    ({"type": "layout", "seat": CHANCE, "cells": {
        "a1": "seat2", "b1": "star1", "c1": "star1", "d1": "star1", "a2": "star1",
        "b2": "star2", "c2": "star2", "d2": "seat1", "a3": "star3", "b3": "star3",
        "c3": "star3", "d3": "star3", "a4": "gate", "b4": "gate", "c4": "swap", "d4": "swap"}},
     "Chance: the map is laid out: pieces: seat 1 on d2, seat 2 on a1; gate chips on a4, b4; "
     "swap chips on c4, d4; 3-star chips on a3, b3, c3, d3; 2-star chips on b2, c2; "
     "1-star chips on b1, c1, d1, a2",
     "マップ：チップと駒を配置（駒：プレイヤー1がd2、プレイヤー2がa1／ゲートチップ：a4・b4／"
     "スワップチップ：c4・d4／星3つのスターチップ：a3・b3・c3・d3／星2つのスターチップ：b2・c2／"
     "星1つのスターチップ：b1・c1・d1・a2）"),
]


@pytest.mark.parametrize("move,en,ja", TEXTS, ids=[t[0]["type"] for t in TEXTS])
def test_V_8_each_move_reads_as_a_sentence_in_english_and_japanese(move, en, ja):
    assert GAME.move_text(move, "en") == en
    assert GAME.move_text(move, "ja") == ja
    assert GAME.move_text(dict(move, text="stale"), "ja") == ja  # annotations do not count


def test_V_8_every_listed_move_reads_and_each_reading_names_its_move(table):
    """Different moves of one position read differently, each starting with its seat."""
    state = table.dealt(3, placed={"b2": "seat1"}, hands=[["O1", "S"], ["O3", "D1"],
                                                          ["D2", "D3"]])
    state = table.arrange(state, columns=[["O2"], [], ["D3"]])
    for phase_moves in (GAME.legal_moves(state),
                        GAME.legal_moves(table.play(state, {"type": "draw", "seat": 1,
                                                            "source": 3}))):
        for lang in ("en", "ja"):
            texts = [GAME.move_text(m, lang) for m in phase_moves]
            assert len(set(texts)) == len(phase_moves) > 1
            assert all(t.startswith(("Seat 1: ", "プレイヤー1：")) for t in texts)


def test_V_7_2_a_dealt_card_reads_the_same_for_every_seat_and_names_no_card(table):
    """The logged card move loses its card for every seat, so its text never shows it."""
    state = table.dealt(2)
    state, _, logged = GAME.step(table.play(state, {"type": "draw", "seat": 1,
                                                    "source": "deck"}),
                                 table.card("D3"))
    readings = {GAME.move_text(GAME.view_move(logged, seat), lang)
                for seat in (None, 1, 2) for lang in ("en", "ja")}
    assert readings == {"Chance: a card comes off the deck (hidden)",
                        "山札：カードが1枚出る（伏せたまま）"}
    every_card = {GAME.move_text(GAME.view_move(table.card(c), 1), "en") for c in CARDS}
    assert every_card == {"Chance: a card comes off the deck (hidden)"}


def test_V_1_names_cover_every_chip_and_card_in_both_languages():
    assert set(CHIP_NAMES) == set(CHIPS) and set(CARD_NAMES) == set(CARDS)
    for names in (*CHIP_NAMES.values(), *CARD_NAMES.values()):
        assert set(names) == {"en", "ja"} and names["en"] != names["ja"]


def test_V_8_odd_moves_read_as_their_json_and_never_crash():
    assert GAME.move_text({"type": "jump", "seat": 1}, "ja") == '{"seat":1,"type":"jump"}'
    assert GAME.move_text({"type": "move", "seat": [1], "to": None}, "en") == \
        "Seat [1]: move the piece to null"
    assert GAME.move_text({"type": "place", "seat": 1, "card": "Z9"}, "en") == \
        'Seat 1: place "Z9" on top of the own action column'
    odd = {"type": "layout", "seat": CHANCE, "cells": {"a1": "seat1", "zz": 5, "b1": "gate"}}
    assert GAME.move_text(odd, "en") == \
        'Chance: the map is laid out: pieces: seat 1 on a1; gate chips on b1; 5 on "zz"'
    assert GAME.move_text(dict(odd, cells=[1]), "ja") == "マップ：チップと駒を配置：[1]"
    assert GAME.move_text({"type": "stop", "seat": 2}, "fr") == \
        GAME.move_text({"type": "stop", "seat": 2}, "en")
