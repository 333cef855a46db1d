"""Moves people can read (threemagic/text.py): every move type as a short sentence in
English and Japanese, the actor first, a pure function of the move that never says
more than the move as the reader received it (T-10.2)."""

import pytest

from referee.engine import CHANCE
from threemagic_helpers import ENGINE, EXAMPLE, RON_2, RON_3, draw, legal, new_match, play

TEXTS = [
    ({"type": "deal", "seat": CHANCE, "to": 2, "card": "R3*", "p": 0.05},
     "Chance: R3* is dealt to seat 2", "偶然：プレイヤー2に火3★を配る"),
    ({"type": "deal", "seat": CHANCE, "to": 2, "card": "hidden"},
     "Chance: a card is dealt to seat 2", "偶然：プレイヤー2にマナを1枚配る"),
    ({"type": "draw", "seat": CHANCE, "to": 1, "card": "B0"},
     "Chance: seat 1 draws B0", "偶然：プレイヤー1が水0を引く"),
    ({"type": "draw", "seat": CHANCE, "to": 3, "card": "hidden"},
     "Chance: seat 3 draws a card", "偶然：プレイヤー3がマナを1枚引く"),
    ({"type": "indicator", "seat": CHANCE, "card": "G4*"},
     "Chance: G4* is turned up as a catalyst indicator (catalyst G0)",
     "偶然：触媒表示に木4★をめくる（触媒は木0）"),
    ({"type": "tsumo", "seat": 1, "insert": 2},
     "Seat 1: tsumo, the drawn card completes the hand as its 3rd card",
     "プレイヤー1：ツモ（引いたマナを左から3枚目に差して上がり）"),
    ({"type": "discard", "seat": 1, "insert": 0, "remove": 0, "riichi": False},
     "Seat 1: discard the drawn card", "プレイヤー1：引いたマナをそのまま捨てる"),
    ({"type": "discard", "seat": 2, "insert": 4, "remove": 3, "riichi": True},
     "Seat 2: riichi (discard the 4th card, the drawn card taking its place)",
     "プレイヤー2：リーチ（左から4枚目を捨て、その場所に引いたマナを差す）"),
    ({"type": "discard", "seat": 3, "insert": 2, "remove": 6, "riichi": False},
     "Seat 3: insert the drawn card as the 3rd card, discard the 7th",
     "プレイヤー3：引いたマナを左から3枚目に差し、左から7枚目を捨てる"),
    ({"type": "discard", "seat": 3, "insert": None, "remove": 5, "riichi": False},
     "Seat 3: discard the 6th card (after the call)", "プレイヤー3：誓約の後、左から6枚目を捨てる"),
    ({"type": "ron", "seat": 2, "insert": 7},
     "Seat 2: ron, the discard completes the hand as its 8th card",
     "プレイヤー2：ロン（捨てられたマナを左から8枚目に差して上がり）"),
    ({"type": "pon", "seat": 3, "cards": [0, 4]},
     "Seat 3: pon with the 1st and 5th cards", "プレイヤー3：ポン（手札の左から1枚目と5枚目で）"),
    ({"type": "chi", "seat": 2, "cards": [1, 2]},
     "Seat 2: chi with the 2nd and 3rd cards", "プレイヤー2：チー（手札の左から2枚目と3枚目で）"),
    ({"type": "pass", "seat": 2}, "Seat 2: pass", "プレイヤー2：パス"),
    ({"type": "answer", "seat": 3},
     "Seat 3: answers the discard (sealed)", "プレイヤー3：捨て札に応答（内容は非公開）"),
]


@pytest.mark.parametrize("move,en,ja", TEXTS, ids=[t[1][:36] for t in TEXTS])
def test_T_10_2_each_move_reads_as_a_sentence_in_english_and_japanese(move, en, ja):
    assert ENGINE.move_text(move, "en") == en
    assert ENGINE.move_text(move, "ja") == ja
    assert ENGINE.move_text(dict(move, text="stale"), "en") == en  # annotations do not count


def test_T_10_2_a_card_dealt_or_drawn_to_another_seat_reads_hidden_whatever_it_was():
    """What a seat receives of another seat's card reads the same for every card."""
    for kind in ("deal", "draw"):
        readings = set()
        for card in ("R0", "B3*", "G4"):
            seen = ENGINE.view_move({"type": kind, "seat": CHANCE, "to": 1, "card": card,
                                     "p": 0.1}, 2)
            readings.add((ENGINE.move_text(seen, "en"), ENGINE.move_text(seen, "ja")))
            assert "R0" not in str(readings) and "火0" not in str(readings)
        assert len(readings) == 1
        receiver = ENGINE.view_move({"type": kind, "seat": CHANCE, "to": 1, "card": "G4"}, 1)
        assert "G4" in ENGINE.move_text(receiver, "en")
    missing = {"type": "draw", "seat": CHANCE, "to": 1}  # a card left out reads as hidden too
    assert ENGINE.move_text(missing, "en") == "Chance: seat 1 draws a card"


def test_T_5_1_another_seats_answer_reads_sealed_whatever_it_was():
    readings = {ENGINE.move_text(ENGINE.view_move(answer, 1), lang)
                for answer in ({"type": "pass", "seat": 2}, {"type": "ron", "seat": 2,
                                                               "insert": 4},
                               {"type": "pon", "seat": 2, "cards": [0, 1]})
                for lang in ("en",)}
    assert readings == {"Seat 2: answers the discard (sealed)"}


def test_T_4_3_every_discard_of_a_turn_reads_differently():
    """The 65 discards of an 8-card hand (and its tsumo) are 65 different sentences."""
    state = draw(new_match({1: EXAMPLE, 2: RON_2, 3: RON_3}), "R3*")
    moves = legal(state)
    assert len([m for m in moves if m["type"] == "discard"]) >= 65
    for lang in ("en", "ja"):
        texts = [ENGINE.move_text(m, lang) for m in moves]
        assert len(set(texts)) == len(moves)
        assert all(t.startswith(("Seat 1: ", "プレイヤー1：")) for t in texts)
    play(state, moves[0])  # the position is a real one


def test_T_4_odd_moves_read_as_json_and_never_crash():
    assert ENGINE.move_text({"type": "jump", "seat": 1}, "ja") == '{"seat":1,"type":"jump"}'
    odd = {"type": "pon", "seat": [1], "cards": "x"}
    assert ENGINE.move_text(odd, "en") == 'Seat [1]: pon with "x"'
    assert ENGINE.move_text({"type": "draw", "seat": CHANCE, "to": None, "card": "R9"},
                            "en") == 'Chance: seat null draws "R9"'
    assert ENGINE.move_text({"type": "discard", "seat": 1, "insert": "0", "remove": True},
                            "en") == 'Seat 1: insert the drawn card as the "0" card, ' \
                                     'discard the true'
    assert ENGINE.move_text({"type": "pass", "seat": 1}, "fr") == "Seat 1: pass"
