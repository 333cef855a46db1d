"""T-7.1–T-7.4: magic measurement, payments, field and ley-line pool."""

from threemagic.scoring import measure, settle, tsumo_share

from threemagic_helpers import ENGINE

TABLES = ENGINE.new(3)["options"]
WORKED = [["R1*", "R2*", "R3*"], ["B3", "B3*", "B3*"], ["G0", "G1*", "G2*"]]


def test_T_7_2_worked_example_30_points_15_each():
    score = measure(WORKED, "fire", ["G1"], TABLES)
    assert score["attribute"] == {"attribute": "fire", "spells": 1, "points": 10}
    assert score["numbers"]["points"] == 0
    assert score["stars"] == {"spells": 1, "points": 10}
    assert score["base"] == 20
    assert score["catalyst"]["indicators"] == [
        {"indicator": "G1", "catalyst": "G2", "cards": 1, "points": 10}]
    assert score["total"] == 30 and tsumo_share(30) == 15


def test_T_7_2_attribute_10_30_90():
    fire = [["R0", "R0", "R0"], ["R1", "R2", "R3"], ["B4*", "B3*", "B2*"]]
    assert measure(fire, "fire", ["G0"], TABLES)["attribute"]["points"] == 30
    assert measure(fire, "water", ["G0"], TABLES)["attribute"]["points"] == 10
    assert measure(fire[:2] + [["R4", "R4*", "R4*"]], "fire", ["G0"], TABLES)[
        "attribute"]["points"] == 90


def test_T_7_2_numbers_same_one_direction_mixed_only_the_best():
    def numbers(spells):
        return measure(spells, "wood", ["G0"], TABLES)["numbers"]

    assert numbers([["R4", "R4*", "R4*"], ["B4", "B4*", "B4*"], ["R0", "R1", "R2"]]) == {
        "kind": "same", "spells": 2, "points": 60}
    assert numbers([["R4", "R4*", "R4*"], ["B4", "B4*", "B4*"], ["G4*", "G4*", "G4"]])[
        "points"] == 180
    assert numbers([["R1", "R2", "R3"], ["B1", "B2", "B3"], ["R0", "R0", "R0"]])[
        "points"] == 40
    assert numbers([["R1", "R2", "R3"], ["B1", "B2", "B3"], ["G1", "G2", "G3"]])[
        "points"] == 120
    assert numbers([["R1", "R2", "R3"], ["B3", "B2", "B1"], ["R0", "R0", "R0"]]) == {
        "kind": "mixed", "spells": 2, "points": 20}
    # 123 123 321: three mixed (60) beats two in one direction (40)
    assert numbers([["R1", "R2", "R3"], ["B1", "B2", "B3"], ["G3", "G2", "G1"]])[
        "points"] == 60
    assert numbers([["R3", "R4", "R0"], ["B0", "B4", "B3"], ["G0", "G0", "G0"]])[
        "kind"] == "mixed"
    assert numbers([["R1", "R2", "R3"], ["B2", "B3", "B4"], ["G0", "G0", "G0"]])[
        "points"] == 0


def test_T_7_2_stars_all_three_starred():
    spells = [["R1*", "R2*", "R3*"], ["B3*", "B3*", "B3*"], ["G2*", "G3*", "G4*"]]
    assert measure(spells, "wood", ["R0"], TABLES)["stars"] == {"spells": 3, "points": 90}
    assert measure(spells[:2] + [["G0", "G1*", "G2*"]], "wood", ["R0"], TABLES)[
        "stars"]["points"] == 30


def test_T_7_2_catalysts_per_indicator_and_only_from_base_10():
    spells = [["R3", "R3*", "R3*"], ["B0", "B1", "B2"], ["G4", "G3", "G2"]]
    # three indicators R2 make each R3 worth 30; the base is the one fire spell
    score = measure(spells, "fire", ["R2", "R2", "R2"], TABLES)
    assert score["base"] == 10 and score["catalyst"]["points"] == 90
    assert score["total"] == 100
    # 4 wraps to 0
    assert measure(spells, "water", ["B4"], TABLES)["catalyst"]["points"] == 10
    # base 0: no catalyst, a special draw (T-7.3)
    nothing = measure(spells, "wood", ["R2"], TABLES)
    assert nothing["base"] == 10  # the wood spell
    zero = measure([["R3", "R3*", "R3*"], ["B0", "B1", "B2"], ["B4", "B3", "B2"]],
                   "wood", ["R2"], TABLES)
    assert zero["base"] == 0 and zero["catalyst"]["points"] == 0 and zero["special_draw"]


def test_T_7_2_tables_are_options():
    tables = dict(TABLES, star_points=[15, 30, 90], number_points={
        "same": [100, 200], "sequence": [40, 120], "mixed": [20, 60]})
    spells = [["R1*", "R2*", "R3*"], ["B4", "B4*", "B4*"], ["G4", "G4*", "G4*"]]
    score = measure(spells, "water", ["G0"], tables)
    assert (score["stars"]["points"], score["numbers"]["points"]) == (15, 100)


def test_T_7_1_ron_discarder_pays_all_tsumo_halves_rounded_up_to_5():
    ron = settle(70, "ron", 1, 3, (1, 2, 3), False, False, 0, 0)
    assert ron["payments"] == [{"seat": 3, "pays": 70}]
    assert ron["changes"] == [{"seat": 1, "change": 70}, {"seat": 2, "change": 0},
                              {"seat": 3, "change": -70}]
    tsumo = settle(50, "tsumo", 2, None, (1, 2, 3), False, False, 0, 0)
    assert tsumo["payments"] == [{"seat": 1, "pays": 25}, {"seat": 3, "pays": 25}]
    assert [tsumo_share(t) for t in (10, 20, 25, 30, 70, 130)] == [5, 10, 15, 15, 35, 65]


def test_T_7_4_field_and_pool_go_to_riichi_winner_no_caller_or_the_pool():
    riichi = settle(30, "ron", 1, 2, (1, 2, 3), True, False, field=40, pool=50)
    assert (riichi["field_taken"], riichi["pool_taken"], riichi["pool_after"]) == (40, 50, 0)
    assert riichi["changes"][0] == {"seat": 1, "change": 120}
    quiet = settle(30, "ron", 1, 2, (1, 2, 3), False, False, field=40, pool=50)
    assert (quiet["field_taken"], quiet["pool_taken"], quiet["pool_after"]) == (0, 50, 40)
    caller = settle(30, "ron", 1, 2, (1, 2, 3), False, True, field=40, pool=50)
    assert (caller["field_taken"], caller["pool_taken"], caller["pool_after"]) == (0, 0, 90)
    assert caller["field_to_pool"] == 40
