"""The card data (Z-0, Z-1, Z-7, Z-13, Z-15, Z-16) and its build script."""

import importlib.util
import json
import re
from collections import Counter

import pytest

from gizmos.cards import BY_LEVEL, CARDS, COLORS, STARTING, colors_of, limits

from gizmos_helpers import REPO, SPEC

TOOL = REPO / "services" / "gizmos" / "tools" / "build_cards.py"
SHARED = REPO.parent / "shared" / "data" / "gizmos_cards.json"


def _tool():
    spec = importlib.util.spec_from_file_location("build_cards", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_Z_0_packaged_cards_are_regenerated_from_the_shared_source_data():
    """Z-0: cards.json is exactly what tools/build_cards.py makes of the shared file."""
    assert SHARED.exists(), f"the shared card data is missing: {SHARED}"
    built = _tool().build(SHARED)
    packaged = json.loads((REPO / "services/gizmos/gizmos/cards.json").read_text())
    assert built == packaged
    assert [c["id"] for c in built] == sorted(CARDS)


def test_Z_1_components_112_cards_4_starting_and_52_spheres():
    assert len(CARDS) == 112
    assert BY_LEVEL[0] == list(STARTING) and all(CARDS[c]["starting"] for c in STARTING)
    assert [len(BY_LEVEL[lv]) for lv in (1, 2, 3)] == [36, 36, 36]


def test_Z_13_counts_per_level_colour_and_type():
    """Z-13: 9 per colour at Levels I and II; 8 per colour + 4 Generic at Level III."""
    by_colour = Counter((c["level"], c["color"]) for c in CARDS.values())
    for lv in (1, 2):
        assert all(by_colour[(lv, colour)] == 9 for colour in COLORS)
    assert all(by_colour[(3, colour)] == 8 for colour in COLORS)
    assert by_colour[(3, "multi")] == 4 and by_colour[(0, "none")] == 4
    by_type = Counter((c["level"], c["type"]) for c in CARDS.values())
    expected = {
        0: {"file": 4},
        1: {"upgrade": 8, "converter": 8, "file": 4, "pick": 8, "build": 8},
        2: {"upgrade": 4, "converter": 12, "pick": 4, "build": 16},
        3: {"upgrade": 16, "converter": 4, "file": 4, "build": 12},
    }
    for lv, types in expected.items():
        assert {t: n for (level, t), n in by_type.items() if level == lv} == types
    # the discrepancies Z-13 resolved from the card art
    assert CARDS[318]["effect"]["condition"]["colors"] == ["yellow", "black"]
    assert (CARDS[325]["cost"], CARDS[325]["points"]) == (5, 5)
    assert (CARDS[329]["color"], CARDS[330]["color"]) == ("black", "yellow")


def _spec_rows():
    section = SPEC.read_text(encoding="utf-8").split("## Z-15")[1].split("## Z-16")[0]
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and re.fullmatch(r"\d{3}", cells[0]):
            yield cells


def test_Z_15_card_tables_of_the_spec_match_the_data():
    rows = list(_spec_rows())
    assert len(rows) == 112
    for cells in rows:
        card = CARDS[int(cells[0])]
        assert cells[1] == card["color"], cells
        assert cells[2] == (f"{card['cost']} any" if card["color"] == "multi"
                            else str(card["cost"])), cells
        assert cells[3] == ("*" if card["color"] == "multi" else str(card["points"])), cells
        assert cells[4] == card["type"], cells


def test_Z_7_card_colour_is_its_cost_colour_and_type_names_its_column():
    for card in CARDS.values():
        if card["color"] not in ("multi", "none"):
            assert card["cost_color"] == card["color"]
        kind = card["effect"]["kind"]
        column = {"converter": "converter", "upgrade": "upgrade", "file_trigger": "file",
                  "pick_trigger": "pick", "build_trigger": "build"}[kind]
        assert card["type"] == column
    assert colors_of(333) == COLORS and colors_of(101) == ("black",)


@pytest.mark.parametrize("card_id", sorted(CARDS))
def test_Z_16_every_effect_has_a_known_form(card_id):
    fx = CARDS[card_id]["effect"]
    kind = fx["kind"]
    if kind == "converter":
        assert fx["activations_per_turn"] == 1 and 1 <= len(fx["slots"]) <= 2
        for slot in fx["slots"]:
            assert slot["from"] in (*COLORS, "any") and slot["in"] == 1
            assert (slot["to"], slot["out"]) in (("any", 1), ("same", 2))
    elif kind == "upgrade":
        forms = [{"energy_limit", "file_limit", "research"}, {"forbid"}, {"discount"},
                 {"end_game_vp", "generic", "cost_any_combination",
                  "counts_as_all_colors_for_build_triggers"}]
        assert set(fx) - {"kind"} in forms
    else:
        assert kind in ("file_trigger", "pick_trigger", "build_trigger")
        assert fx["optional"] and fx["once_per_turn"]
        assert fx["result"]["action"] in ("draw_random", "pick", "gain_vp_tokens", "file",
                                          "research", "build_free")
        assert set(fx["condition"]) <= {"colors", "from_archive", "level"}


def test_Z_4_limits_start_5_1_3_and_only_go_up():
    assert limits([901]) == {"energy": 5, "file": 1, "research": 3}
    assert limits([901, 121, 125, 201, 301]) == {"energy": 5 + 1 + 1 + 2 + 4,
                                                 "file": 1 + 1 + 1, "research": 3 + 1 + 2}
    for card in CARDS.values():
        fx = card["effect"]
        assert all(fx.get(k, 0) >= 0 for k in ("energy_limit", "file_limit", "research"))


def _effect_cell(card):
    """How the spec's Z-15 tables abbreviate a card's structured effect."""
    fx = card["effect"]
    kind = fx["kind"]
    if kind == "converter":
        return "Converter: " + " | ".join(
            f"1 {s['from']} → 2 {s['from']}" if s["out"] == 2 else f"1 {s['from']} → 1 any"
            for s in fx["slots"])
    if kind == "upgrade":
        if "forbid" in fx:
            return f"Upgrade: can't {fx['forbid'].capitalize()} for rest of game"
        if "discount" in fx:
            when = fx["discount"]["when"].removeprefix("building_").replace("_", " ")
            return f"Upgrade: −{fx['discount']['amount']} energy when building {when}"
        if "end_game_vp" in fx:
            return f"Generic upgrade: VP = {fx['end_game_vp'].replace('_', ' ')}"
        parts = [f"{name} +{fx[key]}" for key, name in (
            ("energy_limit", "storage"), ("file_limit", "file limit"), ("research", "research"))
            if fx[key]]
        return "Upgrade: " + ", ".join(parts)
    trigger = kind.removesuffix("_trigger").capitalize()
    condition, result = fx["condition"], fx["result"]
    if "colors" in condition:
        trigger += " " + "/".join(condition["colors"]) + (" gizmo" if trigger == "Build" else "")
    elif condition.get("from_archive"):
        trigger += " from Archive"
    elif "level" in condition:
        trigger += " Level II"
    count = result.get("count")
    outcome = {"draw_random": f"draw {count} random", "pick": f"pick {count}",
               "gain_vp_tokens": f"+{count} VP token", "file": "File",
               "research": "Research", "build_free": "build Level I free"}[result["action"]]
    return f"{trigger} → {outcome}"


def test_Z_15_effect_column_matches_the_structured_effects():
    """Z-15/Z-13: every card's trigger colours, condition, result and converter slots."""
    rows = list(_spec_rows())
    assert len(rows) == 112
    for cells in rows:
        effect_text = " | ".join(cells[5:])  # a two-slot Converter's cell holds a "|"
        assert effect_text == _effect_cell(CARDS[int(cells[0])]), cells
