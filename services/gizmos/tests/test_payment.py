"""Paying for Builds: Converters, Discounts, Generic gizmos, Negators (Z-5, Z-6)."""

from gizmos.payment import payments

from gizmos_helpers import apply, chance, legal, position, refused, ring, seat, settle


def _builds(state, card):
    return [(m["spend"], m["converters"]) for m in legal(state, type="build", card=card)]


def test_Z_5_example_1_doubling_makes_no_spare_energy():
    """2 black and black → 2 black make at most 3 black: not enough for a cost of 4."""
    assert payments("black", 4, 4, ring(black=2), [220]) == []
    assert payments("black", 3, 3, ring(black=2), [220]) == [
        (("black", "black"), (220,))]
    state = position(seats=[{"ring": {"black": 2}, "built": [220]}], display=[301])
    assert _builds(state, 301) == []


def test_Z_5_example_2_one_any_converter_converts_one_sphere():
    """2 yellow pay 2 blue only with two conversions."""
    state = position(seats=[{"ring": {"yellow": 2}, "built": [106]}], display=[210])
    assert _builds(state, 210) == []
    state = position(seats=[{"ring": {"yellow": 2}, "built": [106, 215]}], display=[210])
    assert _builds(state, 210) == [(["yellow", "yellow"], [215])]
    state = position(seats=[{"ring": {"yellow": 1, "blue": 1}, "built": [106]}],
                     display=[210])
    assert _builds(state, 210) == [(["blue", "yellow"], [106])]


def test_Z_5_example_3_chained_converters_pay_2_blue_with_1_yellow():
    """yellow → any (red), red → 2 red, red → any twice (2 blue): 1 yellow pays 2 blue."""
    state = position(seats=[{"ring": {"yellow": 1}, "built": [101, 218, 216]}],
                     display=[210])
    assert _builds(state, 210) == [(["yellow"], [101, 216, 218])]
    state, events = apply(state, {"type": "build", "card": 210, "spend": ["yellow"],
                                  "converters": [101, 216, 218]})
    assert seat(state)["ring"] == ring() and 210 in seat(state)["built"]
    assert state["turn_state"]["spent"] == [101, 216, 218]


def test_Z_5_each_converter_once_per_turn_not_once_per_build():
    state = position(seats=[{"ring": {"yellow": 2}, "built": [106, 325]}],
                     display=[104, 110])
    # 106 turns yellow into blue for 110; 104 is yellow; then File via 325 is offered
    state, _ = apply(state, {"type": "build", "card": 110, "spend": ["yellow"],
                             "converters": [106]})
    assert state["turn_state"]["spent"] == [106]
    state, _ = settle(state)
    assert legal(state, type="file", via=325)
    refused(state, {"type": "build", "card": 104, "spend": ["yellow"], "converters": [106],
                    "via": 325}, "Z-9")


def test_Z_5_a_spent_or_foreign_converter_is_refused():
    # 110 (blue) paid with yellow through 106 triggers 332 (build blue → Research)
    state = position(seats=[{"ring": {"yellow": 2}, "built": [106, 332]}], display=[110])
    state, _ = apply(state, {"type": "build", "card": 110, "spend": ["yellow"],
                             "converters": [106]})
    state, _ = settle(state)
    state, _ = apply(state, {"type": "research", "level": 1, "via": 332})
    for card in (102, 103, 104):
        state, _ = chance(state, card=card)
    assert _builds(state, 104) == [(["yellow"], [])] and _builds(state, 102) == []
    refused(state, {"type": "build", "card": 102, "spend": ["yellow"], "converters": [106]},
            "Z-5")
    state = position(seats=[{"ring": {"yellow": 1}}], display=[110])
    refused(state, {"type": "build", "card": 110, "spend": ["yellow"], "converters": [106]},
            "Z-5")


def test_Z_5_two_slot_and_two_colour_converters():
    # 305: blue → 2 blue and yellow → 2 yellow, both in one Build of a Generic
    state = position(seats=[{"ring": {"blue": 1, "yellow": 1, "red": 3}, "built": [305]}],
                     display=[333])
    assert (["blue", "red", "red", "red", "yellow"], [305]) in _builds(state, 333)
    # 213 converts one or two blue
    state = position(seats=[{"ring": {"blue": 1, "red": 1}, "built": [213]}], display=[203])
    assert _builds(state, 203) == []
    state = position(seats=[{"ring": {"blue": 2, "red": 1}, "built": [213]}], display=[203])
    assert _builds(state, 203) == [(["blue", "blue", "red"], [213])]


def test_Z_5_a_converter_that_changes_nothing_is_not_listed():
    state = position(seats=[{"ring": {"red": 1}, "built": [303]}], display=[102 + 1])
    assert _builds(state, 103) == [(["red"], [])]
    refused(state, {"type": "build", "card": 103, "spend": ["red"], "converters": [303]},
            "Z-5")


def test_Z_6_1_increasers_raise_limits_at_once():
    state = position(seats=[{"ring": {"black": 5}}], display=[121])
    assert not legal(state, type="pick")
    state, _ = apply(state, {"type": "build", "card": 121, "spend": ["black"],
                             "converters": []})
    state, _ = settle(state)
    assert seat(state)["ring"]["black"] == 4


def test_Z_6_2_negators_forbid_file_and_research_even_when_granted():
    state = position(seats=[{"built": [323]}], display=[101])
    assert not legal(state, type="file")
    refused(state, {"type": "file", "card": 101}, "Z-6.2")
    state = position(seats=[{"built": [321]}])
    assert not legal(state, type="research")
    refused(state, {"type": "research", "level": 1}, "Z-6.2")
    # a granted File (325) and a File from Research are blocked too
    state = position(seats=[{"built": [323, 325], "ring": {"blue": 1}}], display=[102, 104])
    state, _ = apply(state, {"type": "build", "card": 102, "spend": ["blue"],
                             "converters": []})
    state, _ = settle(state)
    assert "325" in state["turn_state"]["ready"] and not legal(state, type="file")
    # archived gizmos can still be built
    state = position(seats=[{"built": [324], "archive": [102], "ring": {"blue": 1}}])
    assert _builds(state, 102) == [(["blue"], [])]


def test_Z_6_3_discounts_stack_and_never_go_below_zero():
    # Level II from the Archive with 316 and 327: 2 less
    state = position(seats=[{"built": [316, 327], "archive": [201], "ring": {"black": 3}}])
    assert _builds(state, 201) == [(["black"], []), (["black", "black"], []),
                                   (["black"] * 3, [])]
    state = position(seats=[{"built": [315, 316, 327], "archive": [209]}])
    assert _builds(state, 209) == [([], [])]  # 2 - 3 → 0


def test_Z_6_3_research_discount_counts_for_builds_from_research():
    state = position(seats=[{"built": [329], "ring": {"black": 1}}], display=[209])
    assert _builds(state, 209) == []  # not from the display
    state, _ = apply(state, {"type": "research", "level": 2})
    for card in (201, 205, 213):
        state, _ = chance(state, card=card)
    assert _builds(state, 213) == [(["black"], [])]  # 213 costs 2 black
    assert _builds(state, 201) == []  # 201 costs 3


def test_Z_6_4_generic_gizmos_cost_7_of_any_colours_and_count_as_every_colour():
    state = position(seats=[{"ring": {"black": 2, "blue": 2, "red": 2, "yellow": 1},
                             "built": [121, 122, 129]}], display=[333, 101])
    assert _builds(state, 333) == [(["black", "black", "blue", "blue", "red", "red",
                                     "yellow"], [])]
    state, events = apply(state, {"type": "build", "card": 333,
                                  "spend": ["black", "black", "blue", "blue", "red", "red",
                                            "yellow"], "converters": []})
    assert {"type": "triggered", "seat": 1, "gizmo": 129} in events  # build blue → pick
    # doubling counts towards the 7
    state = position(seats=[{"ring": {"black": 6}, "built": [220, 121]}], display=[334])
    assert _builds(state, 334) == [(["black"] * 6, [220])]


def test_Z_6_3_a_listed_build_sent_back_with_its_text_is_accepted():
    """A move is posted back as listed, its p and text left in: a Build checked by its
    payment alone must strip them like every other move (it refused them under Z-6.3)."""
    from gizmos.engine import Gizmos
    engine = Gizmos()
    state = engine.new(2, seed=5)
    for _ in range(200):
        builds = [m for m in engine.legal_moves(state) if m.get("type") == "build"]
        if builds:
            listed = dict(builds[0], text=engine.move_text(builds[0]))
            engine.apply(state, listed)  # raises if refused
            return
        state = engine.apply(state, engine.legal_moves(state)[0])[0]
    raise AssertionError("no build was listed in 200 steps")
