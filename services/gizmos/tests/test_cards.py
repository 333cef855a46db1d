"""The committed card data (Z-0, Z-1, Z-7, Z-13, Z-15, Z-16) checked against its own
invariants: counts, ids, costs and VP, the families of effects of each level.

``gizmos/cards.json`` is the project's source of card data; nothing here reads
outside the repository.
"""

import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest

from gizmos.cards import BY_LEVEL, CARDS, COLORS, STARTING, colors_of, limits

PACKAGE = Path(__file__).resolve().parents[1]
TOOL = PACKAGE / "tools" / "build_cards.py"
PACKAGED = PACKAGE / "gizmos" / "cards.json"


def _tool():
    spec = importlib.util.spec_from_file_location("build_cards", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_Z_0_the_packaged_cards_are_in_the_form_the_build_tool_writes():
    """Z-0: cards.json holds what tools/build_cards.py keeps of a card source (run on
    cards.json itself, the tool changes nothing), one card per id, sorted."""
    packaged = json.loads(PACKAGED.read_text(encoding="utf-8"))
    assert _tool().build(PACKAGED) == packaged
    assert [c["id"] for c in packaged] == sorted(CARDS)
    assert all(set(c) == {*_tool().KEPT, "starting"} for c in packaged)


def test_Z_1_components_112_cards_4_starting_and_36_per_level():
    assert len(CARDS) == 112
    assert BY_LEVEL[0] == list(STARTING) and all(CARDS[c]["starting"] for c in STARTING)
    assert not any(CARDS[c]["starting"] for c in CARDS if c not in STARTING)
    for lv in (1, 2, 3):
        assert BY_LEVEL[lv] == list(range(lv * 100 + 1, lv * 100 + 37))
        assert all(CARDS[c]["level"] == lv for c in BY_LEVEL[lv])


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


def test_Z_15_costs_and_victory_points():
    """Z-15: Level I costs 1, Level II 2–3, Level III 4–7; VP equal the cost but for the
    Negators (8 and 7 VP for a cost of 4) and the Generic gizmos (VP "*": 0 printed)."""
    ranges = {0: (0, 0), 1: (1, 1), 2: (2, 3), 3: (4, 7)}
    for card_id, card in CARDS.items():
        low, high = ranges[card["level"]]
        assert low <= card["cost"] <= high, card_id
        fx = card["effect"]
        if "forbid" in fx:
            assert card["points"] == {"research": 8, "file": 7}[fx["forbid"]], card_id
        elif fx.get("generic"):
            assert (card["cost"], card["points"], card["cost_color"]) == (7, 0, "any")
        else:
            assert card["points"] == card["cost"], card_id


def _family(card) -> str:
    """A card's effect without its colours: what the Z-15 tables group cards by."""
    fx = card["effect"]
    kind = fx["kind"]
    if kind == "converter":
        return "convert " + " + ".join(
            ("X→XX" if s["out"] == 2 else "any→any" if s["from"] == "any" else "X→any")
            for s in fx["slots"])
    if kind == "upgrade":
        if "forbid" in fx:
            return f"no {fx['forbid']}"
        if "discount" in fx:
            return f"discount {fx['discount']['when']}"
        if fx.get("generic"):
            return f"generic {fx['end_game_vp']}"
        return f"limits +{fx['energy_limit']}/+{fx['file_limit']}/+{fx['research']}"
    condition, result = fx["condition"], fx["result"]
    when = (f"{len(condition['colors'])} colour(s)" if "colors" in condition
            else "from archive" if condition.get("from_archive")
            else f"level {condition['level']}" if "level" in condition else "any")
    return f"{kind} {when} → {result['action']} {result.get('count', '')}".rstrip()


FAMILIES = {  # (level, family): cards, from the Z-15 tables
    (0, "file_trigger any → draw_random 1"): 4,
    (1, "convert X→any"): 8,
    (1, "pick_trigger 1 colour(s) → draw_random 1"): 8,
    (1, "file_trigger any → pick 1"): 4,
    (1, "limits +1/+0/+1"): 4,
    (1, "limits +1/+1/+0"): 4,
    (1, "build_trigger 1 colour(s) → pick 1"): 4,
    (1, "build_trigger 1 colour(s) → gain_vp_tokens 1"): 4,
    (2, "limits +2/+1/+2"): 4,
    (2, "build_trigger from archive → pick 2"): 4,
    (2, "pick_trigger 2 colour(s) → draw_random 1"): 4,
    (2, "convert X→any + X→any"): 4,
    (2, "convert X→XX"): 8,
    (2, "build_trigger 2 colour(s) → pick 1"): 8,
    (2, "build_trigger 2 colour(s) → gain_vp_tokens 1"): 4,
    (3, "limits +4/+0/+0"): 2,
    (3, "convert any→any"): 2,
    (3, "convert X→XX + X→XX"): 2,
    (3, "build_trigger from archive → gain_vp_tokens 2"): 2,
    (3, "file_trigger any → gain_vp_tokens 1"): 2,
    (3, "file_trigger any → draw_random 3"): 2,
    (3, "build_trigger level 2 → pick 2"): 2,
    (3, "discount building_level_2"): 2,
    (3, "build_trigger 2 colour(s) → gain_vp_tokens 2"): 2,
    (3, "build_trigger 2 colour(s) → build_free"): 2,
    (3, "no research"): 2,
    (3, "no file"): 2,
    (3, "build_trigger 2 colour(s) → file"): 2,
    (3, "discount building_from_archive"): 2,
    (3, "discount building_from_research"): 2,
    (3, "build_trigger 2 colour(s) → research"): 2,
    (3, "generic energy_in_ring"): 2,
    (3, "generic vp_token_total"): 2,
}


def test_Z_15_effect_families_per_level():
    """Z-15: how many cards of each level have each effect (colours aside)."""
    assert Counter((c["level"], _family(c)) for c in CARDS.values()) == FAMILIES


def _sources(card) -> tuple:
    """The colours a card's effect reads: its Converter slots' inputs, its trigger's colours."""
    fx = card["effect"]
    return tuple(sorted([s["from"] for s in fx.get("slots", [])]
                        + fx.get("condition", {}).get("colors", [])))


def test_Z_15_colours_within_each_family():
    """Each Level I and II family is spread evenly over the four colours; a Converter
    never converts its own colour and a trigger never fires on its own colour; no two
    cards of a family have the same colour and read the same colours."""
    for (lv, family), size in FAMILIES.items():
        cards = [c for c in CARDS.values() if c["level"] == lv and _family(c) == family]
        if lv in (1, 2):
            assert Counter(c["color"] for c in cards) == {c: size // 4 for c in COLORS}
        for card in cards:
            assert card["color"] not in _sources(card), card["id"]
            colours = card["effect"].get("condition", {}).get("colors", [])
            assert len(set(colours)) == len(colours), card["id"]
            assert set(_sources(card)) <= {*COLORS, "any"}, card["id"]
        read = [(c["color"], _sources(c)) for c in cards if _sources(c)]
        assert len(set(read)) == len(read), family


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
        result = fx["result"]
        assert result["action"] in ("draw_random", "pick", "gain_vp_tokens", "file",
                                    "research", "build_free")
        # a count above 1 is "one at a time, up to" only for picks and draws (Z-9)
        one_at_a_time = result.get("count", 1) > 1 and result["action"] != "gain_vp_tokens"
        assert bool(result.get("one_at_a_time")) == one_at_a_time == bool(result.get("up_to"))
        assert set(fx["condition"]) <= {"colors", "from_archive", "level"}


def test_Z_4_limits_start_5_1_3_and_only_go_up():
    assert limits([901]) == {"energy": 5, "file": 1, "research": 3}
    assert limits([901, 121, 125, 201, 301]) == {"energy": 5 + 1 + 1 + 2 + 4,
                                                 "file": 1 + 1 + 1, "research": 3 + 1 + 2}
    for card in CARDS.values():
        fx = card["effect"]
        assert all(fx.get(k, 0) >= 0 for k in ("energy_limit", "file_limit", "research"))
