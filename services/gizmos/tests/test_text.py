"""Gizmos moves read as sentences in English and Japanese (issue 11 item 3); a move
redacted for another seat reads as hidden, never naming the card it hides."""

import pytest

from gizmos_helpers import GAME

CASES = [
    ({"type": "build", "seat": 2, "card": 213, "spend": ["black", "red", "red"],
      "converters": [107]},
     "Seat 2: build 213 (black ×1, red ×2, converting with 107)",
     "プレイヤー2：213を設置（黒×1、赤×2、107で変換）"),
    ({"type": "build", "seat": 1, "card": 105, "spend": [], "converters": [], "via": 319},
     "Seat 1: build 105 for free (via 319)", "プレイヤー1：105を無償で設置（319の効果）"),
    ({"type": "pick", "seat": 3, "color": "yellow"},
     "Seat 3: pick a yellow sphere", "プレイヤー3：黄のエネルギー球を取り出し"),
    ({"type": "file", "seat": 1, "card": 124, "via": 325},
     "Seat 1: file 124 (via 325)", "プレイヤー1：124をファイリング（325の効果）"),
    ({"type": "research", "seat": 4, "level": 3},
     "Seat 4: research Level III", "プレイヤー4：レベル3の山を開発"),
    ({"type": "marble", "seat": "chance", "color": "blue"},
     "Chance: a blue sphere comes out of the dispenser",
     "偶然：生成器から青のエネルギー球が出る"),
    ({"type": "deal", "seat": "chance", "to": "display", "card": 301},
     "Chance: 301 is turned up on the display", "偶然：301が場に公開される"),
]


@pytest.mark.parametrize("move, en, ja", CASES)
def test_moves_read_as_sentences_in_english_and_japanese(move, en, ja):
    assert GAME.move_text(move, "en") == en
    assert GAME.move_text(move, "ja") == ja


def test_Z_12_a_card_put_back_face_down_reads_as_hidden_to_the_other_seats():
    """Z-12: another seat sees a card go under its deck, never which one."""
    move = {"type": "bottom", "seat": 1, "card": 214}
    assert GAME.move_text(GAME.view_move(move, 1), "en") == (
        "Seat 1: put 214 at the bottom of its deck")
    for lang in ("en", "ja"):
        hidden = GAME.move_text(GAME.view_move(move, 2), lang)
        assert "214" not in hidden
        assert hidden == GAME.move_text(GAME.view_move(dict(move, card=215), 2), lang)
    assert GAME.move_text(GAME.view_move(move, 2), "ja") == "プレイヤー1：カード1枚を山札の底に戻す"


def test_Z_3_4_a_private_research_draw_reads_as_hidden_to_the_other_seats():
    """Z-3.4: the researcher reads its card; the others only that one was drawn."""
    deal = {"type": "deal", "seat": "chance", "to": "research", "researcher": 2,
            "private": True, "card": 230}
    assert GAME.move_text(GAME.view_move(deal, 2), "en") == (
        "Chance: 230 is drawn for seat 2's Research")
    assert GAME.move_text(GAME.view_move(deal, 1), "en") == (
        "Chance: a card is drawn for seat 2's Research")
    assert GAME.move_text(GAME.view_move(deal, 1), "ja") == (
        "偶然：プレイヤー2の開発でカード1枚が引かれる")
