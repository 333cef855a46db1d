"""The component catalog (ghostone/components.py): the board, plates, pieces, rocks, ghost,
die and directions a client draws, from the engine's own constants, named in English and
Japanese, matching its schema (wire.COMPONENTS)."""

import json

from ghostone import wire
from ghostone.board import DIE, NEIGHBOURS, ROCKS_AFTER_SETUP, step, wrap_step
from ghostone.engine import Ghostone
from jsonschema import Draft202012Validator
from referee.conformance import bilingual_names as names
from referee.conformance import is_japanese as japanese

GAME = Ghostone()


def test_G_1_1_the_catalog_matches_its_schema_and_is_plain_data():
    catalog = GAME.components()
    Draft202012Validator(wire.COMPONENTS).validate(catalog)
    assert json.loads(json.dumps(catalog)) == catalog == GAME.components()
    assert GAME.components_schema is wire.COMPONENTS


def test_G_1_1_plates_and_their_steps_are_the_engines():
    plates = GAME.components()["plates"]
    assert [p["id"] for p in plates] == [f + r for r in "1234" for f in "abcd"]
    for plate in plates:
        assert plate["id"] == "abcd"[plate["x"]] + "1234"[plate["y"]]
        assert plate["neighbours"] == NEIGHBOURS[plate["id"]]
        assert plate["steps"] == {d: step(plate["id"], d) for d in "NESW"}
        assert plate["ghost_steps"] == {d: wrap_step(plate["id"], d) for d in DIE}
    corner = next(p for p in plates if p["id"] == "a1")
    assert corner["steps"] == {"N": "a2", "E": "b1", "S": None, "W": None}
    assert corner["ghost_steps"]["SW"] == "d4"  # G-6.3: the ghost's board wraps


def test_G_1_5_the_die_and_the_directions():
    catalog = GAME.components()
    assert catalog["die"]["faces"] == ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    north_east = next(d for d in catalog["directions"] if d["id"] == "NE")
    assert north_east == {"id": "NE", "dx": 1, "dy": 1, "orthogonal": False,
                          "name": {"en": "north-east", "ja": "北東"}}
    assert [d["id"] for d in catalog["directions"] if d["orthogonal"]] == ["N", "E", "S", "W"]


def test_G_2_2_setups_pieces_and_rocks_per_player_count():
    catalog = GAME.components()
    assert catalog["setups"] == [
        {"players": 3, "placement_order": [1, 2, 3, 2, 3, 1, 3, 1, 2], "first_to_play": 3},
        {"players": 4, "placement_order": [1, 2, 3, 4, 4, 3, 2, 1], "first_to_play": 4}]
    assert catalog["pieces"]["per_seat"] == [{"players": 3, "pieces": 3},
                                             {"players": 4, "pieces": 2}]
    assert catalog["rocks"]["after_setup"] == [{"players": n, "rocks": r}
                                               for n, r in ROCKS_AFTER_SETUP.items()]
    assert catalog["escape_bonuses"] == [3, 2, 1] and catalog["ghost"]["appears_with_escape"] == 3


def test_G_1_1_every_name_and_explanation_is_in_english_and_japanese():
    pairs = list(names(GAME.components()))
    assert len(pairs) >= 20
    for pair in pairs:
        assert pair["en"] and pair["ja"] and pair["en"] != pair["ja"]
        assert not japanese(pair["en"]) and japanese(pair["ja"]), pair
