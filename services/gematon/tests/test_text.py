"""Moves read as short sentences in English and Japanese; a hidden draw reads as hidden."""

import pytest

from gematon.board import VALUES
from gematon.service import create_app

EXAMPLE = {"stacks": {1: [8, 2]}, "hands": {1: [4, 7]},
           "altars": {"w1": [1, 4], "w2": [7, 7], "w3": [2, 8], "black": [4, 5]}}


@pytest.mark.parametrize("move, en, ja", [
    ({"type": "push", "seat": 2, "chip": 5},
     "Seat 2: push 5 from the hand onto the stack",
     "プレイヤー2：プッシュ（ハンドの5をスタックに積む）"),
    ({"type": "operate", "seat": 1, "altar": "w2", "take": 7, "cell": 3},
     "Seat 1: operate, take 7 from white altar 2 onto the stack and place the other chip "
     "on cell 3",
     "プレイヤー1：オペレート（白の祭壇2の7をスタックに積み、残りのチップをペンタクルのマス3に"
     "置く）"),
    ({"type": "pick_witch", "seat": 3, "witch": 4},
     "Seat 3: pick witch 4", "プレイヤー3：魔女ボード4を選ぶ"),
    ({"type": "deal_witch", "seat": "chance", "witch": 6, "holder": 2},
     "Chance: deal witch 6 to seat 2", "偶然：プレイヤー2に魔女ボード6が配られる"),
    ({"type": "remove_witch", "seat": "chance", "witch": 5},
     "Chance: put witch 5 back in the box", "偶然：魔女ボード5を箱に戻す"),
])
def test_GM_3_8_moves_read_in_english_and_japanese(engine, move, en, ja):
    """GM-3.3, GM-3.4, GM-2.1: each move type, exactly, in both languages."""
    assert engine.move_text(move, "en") == en
    assert engine.move_text(move, "ja") == ja
    assert engine.move_text(move, "fr") == en  # an unknown language: the default


def test_GM_3_5_an_operation_on_the_black_altar_reads_with_its_penalty(engine):
    move = {"type": "operate", "seat": 1, "altar": "black", "take": 4, "cell": 0}
    assert engine.move_text(move, "en") == (
        "Seat 1: operate, take 4 from the black altar onto the stack and place the other "
        "chip on cell 0, then the penalty")
    assert engine.move_text(move, "ja") == (
        "プレイヤー1：オペレート（黒の祭壇の4をスタックに積み、残りのチップをペンタクルのマス0に"
        "置く。その後ペナルティ処理）")


@pytest.mark.parametrize("into, holder, en, ja", [
    ("stack", 1, "Chance: draw 8 onto seat 1's stack",
     "偶然：袋から8を引き、プレイヤー1のスタックに積む"),
    ("altar", "w3", "Chance: draw 8 onto white altar 3", "偶然：袋から8を引き、白の祭壇3に置く"),
    ("altar", "black", "Chance: draw 8 onto the black altar",
     "偶然：袋から8を引き、黒の祭壇に置く"),
])
def test_GM_2_2_public_draws_name_their_chip(engine, into, holder, en, ja):
    move = {"type": "draw", "seat": "chance", "chip": 8, "into": into, "holder": holder}
    assert [engine.move_text(engine.view_move(move, seat), "en") for seat in (None, 1, 2)] \
        == [en] * 3
    assert engine.move_text(move, "ja") == ja


def test_GM_6_2_a_hand_draw_reads_as_hidden_to_every_other_seat(engine):
    """GM-6.2: the drawer reads its chip; every other seat reads the same text whatever it was."""
    seen = {}
    for chip in VALUES:
        move = {"type": "draw", "seat": "chance", "chip": chip, "into": "hand", "holder": 2,
                "p": 0.25}
        assert engine.move_text(engine.view_move(move, 2), "en") == \
            f"Chance: draw {chip} into seat 2's hand"
        for seat in (None, 1, 3):
            for lang in ("en", "ja"):
                seen.setdefault((seat, lang), set()).add(
                    engine.move_text(engine.view_move(move, seat), lang))
    assert seen[None, "en"] == seen[1, "en"] == {"Chance: draw a chip into seat 2's hand"}
    assert seen[3, "ja"] == {"偶然：袋からチップを1枚引き、プレイヤー2のハンドに置く"}


@pytest.mark.parametrize("move", [
    {"type": "teleport", "seat": 1},
    {"type": "draw", "seat": "chance", "chip": [5], "into": None, "holder": {"a": 1}},
    {"type": "operate", "seat": "x"},
    {},
])
def test_GM_3_8_odd_moves_read_without_crashing(engine, move, caplog):
    """A forged log entry still reads as a sentence naming its actor (not the base's JSON)."""
    for lang, actors in (("en", ("Seat ", "Chance: ")), ("ja", ("プレイヤー", "偶然："))):
        assert engine.move_text(move, lang).startswith(actors)
        assert engine.move_text(move, lang) == engine.move_text(dict(move), lang)
    assert "no text" not in caplog.text


def test_GM_3_8_listed_moves_carry_text_in_the_asked_language(table):
    client = create_app({"TESTING": True}).test_client()
    state = table.refill(table.setup(**EXAMPLE), 5)
    answer = client.post("/v1/legal-moves", json={"state": state},
                         headers={"Accept-Language": "ja"}).get_json()
    texts = {m["text"] for m in answer["moves"]}
    assert "プレイヤー1：プッシュ（ハンドの5をスタックに積む）" in texts
    assert ("プレイヤー1：オペレート（白の祭壇2の7をスタックに積み、残りのチップをペンタクルの"
            "マス0に置く）") in texts
