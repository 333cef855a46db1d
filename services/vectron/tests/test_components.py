"""The component catalog (vectron/components.py): the map, chips, action cards and what
each seat keeps, from the engine's own constants, named in English and Japanese, matching
its schema (wire.COMPONENTS)."""

import json

from jsonschema import Draft202012Validator
from referee.conformance import bilingual_names as names
from referee.conformance import is_japanese as japanese
from vectron import wire
from vectron.board import (
    CARDS,
    CELLS,
    CHIPS,
    DEFAULT_ACTION_CARDS,
    DEFAULT_MAP_CHIPS,
    destinations,
    kick,
)
from vectron.engine import Vectron

GAME = Vectron()


def test_V_1_the_catalog_matches_its_schema_and_is_plain_data():
    catalog = GAME.components()
    Draft202012Validator(wire.COMPONENTS).validate(catalog)
    assert json.loads(json.dumps(catalog)) == catalog == GAME.components()
    assert GAME.components_schema is wire.COMPONENTS


def test_V_1_2_the_map_and_its_cells():
    grid = GAME.components()["map"]
    assert [c["id"] for c in grid["cells"]] == CELLS
    assert all(c["id"] == grid["files"][c["x"]] + grid["ranks"][c["y"]] for c in grid["cells"])


def test_V_1_3_map_chips_are_the_engines():
    chips = GAME.components()["map_chips"]
    assert chips["count"] == 16 and [k["id"] for k in chips["kinds"]] == list(CHIPS)
    assert {k["id"]: k["default_count"] for k in chips["kinds"]} == DEFAULT_MAP_CHIPS
    assert {k["id"]: k["stars"] for k in chips["kinds"]} == {
        "star1": 1, "star2": 2, "star3": 3, "gate": 0, "swap": None}
    assert [k["id"] for k in chips["kinds"] if not k["holdable"]] == ["swap"]


def test_V_4_3_each_card_lists_the_cells_it_reaches_walls_kicking_back():
    cards = {k["id"]: k for k in GAME.components()["action_cards"]["kinds"]}
    assert list(cards) == list(CARDS)
    assert {c: k["default_count"] for c, k in cards.items()} == DEFAULT_ACTION_CARDS
    for card, kind in cards.items():
        if card == "S":
            assert kind["kind"] == "swap" and kind["reach"] is None
            continue
        assert kind["distance"] == int(card[1])
        for cell in CELLS:
            assert kind["reach"][cell] == destinations(cell, card)
            assert kind["reach"][cell] == sorted({kick(cell, dx, dy, kind["distance"])
                                                  for dx, dy in kind["directions"]})
    assert cards["D2"]["reach"]["b2"] == ["b2", "b4", "d2", "d4"]  # the manual's figure
    assert cards["O3"]["directions"] == [[0, 1], [1, 0], [0, -1], [-1, 0]]


def test_V_1_5_what_each_seat_keeps_and_the_limits():
    catalog = GAME.components()
    assert catalog["held_chip"]["start"] == "star2"
    assert catalog["star_gauge"]["ends_turn_at"] == 7 and catalog["star_gauge"]["most"] == 9
    assert catalog["score"]["wins_at"] == 6 and catalog["hand"]["size"] == 2
    assert catalog["pieces"]["placeholders"] == ["seat1", "seat2", "seat3", "seat4"]


def test_V_1_every_name_and_explanation_is_in_english_and_japanese():
    pairs = list(names(GAME.components()))
    assert len(pairs) >= 30
    for pair in pairs:
        assert pair["en"] and pair["ja"] and pair["en"] != pair["ja"]
        assert not japanese(pair["en"]) and japanese(pair["ja"]), pair
