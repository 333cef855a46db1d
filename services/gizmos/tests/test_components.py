"""The Gizmos component catalog (issue 11 item 4): every card, its effect as data and as
text in both languages, valid against the catalog's own schema."""

from jsonschema import Draft202012Validator

from gizmos import wire
from gizmos.cards import CARDS
from gizmos_helpers import GAME
from referee import wire as referee_wire


def test_Z_15_the_catalog_lists_every_card_with_its_data_and_text_in_both_languages():
    """Z-15: the 112 cards, each as the engine plays it."""
    catalog = GAME.components()
    cards = {c["id"]: c for c in catalog["cards"]}
    assert sorted(cards) == sorted(CARDS) and len(cards) == 112
    for card_id, card in cards.items():
        assert card["effect"] == CARDS[card_id]["effect"]
        assert card["cost"] == CARDS[card_id]["cost"]
        assert card["text"]["en"] == CARDS[card_id]["effect_text"]
    assert cards[217]["text"]["ja"] == (
        "変換：設置の際、黄のエネルギー1個を黄のエネルギー2個として扱える（1手番に1回）")
    assert cards[311]["text"]["ja"] == (
        "ファイリングアクションを行ったとき：生成器からエネルギー球を最大3個まで1個ずつランダム"
        "に引いてよい（取り出しではない）（1手番に1回まで）")
    assert cards[205]["name"] == {"en": "Level II black Build gizmo 205",
                                  "ja": "レベル2・黒の組み立て装置 205"}


def test_the_catalog_matches_its_schema_and_a_caller_cannot_change_the_cards():
    catalog = GAME.components()
    schema = referee_wire.portable(wire.COMPONENTS)
    errors = list(Draft202012Validator(schema).iter_errors(catalog))
    assert not errors, errors[0].message
    catalog["cards"][0]["effect"]["kind"] = "forged"
    assert GAME.components()["cards"][0]["effect"]["kind"] == "converter"
