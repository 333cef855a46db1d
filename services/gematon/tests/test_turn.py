"""GM-3: a turn — refill, push and operate in either order, penalty, blessing."""

import pytest

from gematon.board import digital_root, operation
from referee.errors import IllegalMove, NotYourTurn

# The rulebook's push-first example (GM-3.4): stack [8, 2], hand {4, 7}, refill 5.
EXAMPLE = dict(stacks={1: [8, 2]}, hands={1: [4, 7]},
               altars={"w1": [1, 4], "w2": [7, 7], "w3": [2, 8], "black": [4, 5]})


def example(table, **extra):
    return table.refill(table.setup(**dict(EXAMPLE, **extra)), 5)


def refused_rule(engine, state, move):
    with pytest.raises(IllegalMove) as refused:
        engine.apply(state, dict(move, seat=state["to_move"][0]))
    return refused.value.rule


def test_GM_3_1_refill_draws_one_chip_into_the_hand(table, engine):
    state = table.setup(**EXAMPLE)
    assert state["to_move"] == ["chance"]
    outcomes = engine.legal_moves(state)
    assert {(m["into"], m["holder"]) for m in outcomes} == {("hand", 1)}
    with pytest.raises(NotYourTurn):
        engine.apply(state, {"type": "push", "seat": 1, "chip": 4})
    with pytest.raises(IllegalMove) as refused:
        engine.apply(state, {"type": "draw", "seat": "chance", "chip": 5, "into": "hand",
                             "holder": 2})
    assert refused.value.rule == "GM-3.1"
    state, events = table.chance(state, chip=5)
    assert events == [{"type": "chip_drawn", "chip": 5, "into": "hand", "holder": 1}]
    assert state["seats"][0]["hand"] == [4, 5, 7]
    assert state["to_move"] == [1]


def test_GM_3_2_push_and_operate_in_either_order_both_mandatory(table, engine):
    state = example(table)
    kinds = {m["type"] for m in engine.legal_moves(state)}
    assert kinds == {"push", "operate"}
    # push first: only operate remains, the turn goes on
    pushed = table.move(state, type="push", chip=5)
    assert {m["type"] for m in engine.legal_moves(pushed)} == {"operate"}
    assert pushed["to_move"] == [1] and pushed["turn"]["pushed"]
    assert refused_rule(engine, pushed, {"type": "push", "chip": 4}) == "GM-3.2"
    # operate first: only push remains
    operated = table.move(state, type="operate", altar="w2", take=7, cell=0)
    assert {m["type"] for m in engine.legal_moves(operated)} == {"push"}
    assert refused_rule(engine, operated, {"type": "operate", "altar": "w2", "take": 7,
                                           "cell": 1}) == "GM-3.2"
    # the second of the two ends the turn
    done, events = table.play(operated, type="push", chip=5)
    assert [e["type"] for e in events] == ["chip_pushed", "turn_ended", "turn_started"]
    assert done["turn"]["seat"] == 2 and done["to_move"] == ["chance"]


def test_GM_3_3_push_moves_the_chosen_hand_chip_on_top(table, engine):
    state = example(table)
    assert [m["chip"] for m in engine.legal_moves(state) if m["type"] == "push"] == [4, 5, 7]
    state, events = table.play(state, type="push", chip=7)
    assert events == [{"type": "chip_pushed", "seat": 1, "chip": 7}]
    assert state["seats"][0]["stack"] == [8, 2, 7] and state["seats"][0]["hand"] == [4, 5]
    for chip in (1, 3, "5", None):
        assert refused_rule(engine, example(table), {"type": "push", "chip": chip}) == "GM-3.3"


def test_GM_3_4_operation_worked_examples_digital_root():
    assert operation(2, 8) == 7  # 16 → 7
    assert operation(8, 7) == 2  # 56 → 11 → 2
    assert digital_root(56) == 2 and digital_root(9) == 9 and digital_root(10) == 1
    results = {operation(a, b) for a in (1, 2, 4, 5, 7, 8) for b in (1, 2, 4, 5, 7, 8)}
    assert results == {1, 2, 4, 5, 7, 8}  # never 3, 6 or 9


def test_GM_3_4_push_first_worked_example(table, engine):
    state = table.move(example(table), type="push", chip=5)
    assert state["seats"][0]["stack"] == [8, 2, 5]
    operations = [m for m in engine.legal_moves(state) if m["type"] == "operate"]
    assert {(m["altar"], m["take"]) for m in operations} == {("w1", 1)}  # only w1 holds 1
    assert [m["cell"] for m in operations] == list(range(7))
    state, events = table.play(state, type="operate", altar="w1", take=1, cell=3)
    assert events[:5] == [
        {"type": "operated", "seat": 1, "popped": [5, 2], "result": 1},
        {"type": "chip_taken", "seat": 1, "altar": "w1", "chip": 1},
        {"type": "chip_placed", "seat": 1, "cell": 3, "chip": 4},
        {"type": "gauge_advanced", "seat": 1, "gauge": 1},
        {"type": "altar_refilled", "altar": "w1", "chips": [2, 5]},
    ]
    mine = state["seats"][0]
    assert mine["stack"] == [8, 1]
    assert mine["pentacle"] == [None, None, None, 4, None, None, None]
    assert state["altars"]["w1"] == [2, 5]
    assert mine["hand"] == [4, 7]


def test_GM_3_4_operate_first_multiplies_the_other_chips(table, engine):
    state = example(table)
    operations = [m for m in engine.legal_moves(state) if m["type"] == "operate"]
    assert {(m["altar"], m["take"]) for m in operations} == {("w2", 7)}  # 2 × 8 = 16 → 7
    state, events = table.play(state, type="operate", altar="w2", take=7, cell=0)
    assert events[0] == {"type": "operated", "seat": 1, "popped": [2, 8], "result": 7}
    assert state["seats"][0]["stack"] == [7]
    assert state["seats"][0]["pentacle"][0] == 7
    assert state["altars"]["w2"] == [2, 8]
    state = table.move(state, type="push", chip=5)
    assert state["seats"][0]["stack"] == [7, 5]


def test_GM_3_4_seat_chooses_among_white_altars_holding_the_result(table, engine):
    state = table.refill(table.setup(stacks={1: [8, 8]}, altars={
        "w1": [1, 2], "w2": [4, 5], "w3": [1, 8], "black": [1, 7]}), 2)
    takes = {(m["altar"], m["take"]) for m in engine.legal_moves(state)
             if m["type"] == "operate"}
    assert takes == {("w1", 1), ("w3", 1)}  # 8 × 8 = 64 → 1; not the black altar
    assert refused_rule(engine, state, {"type": "operate", "altar": "w2", "take": 4,
                                        "cell": 0}) == "GM-3.4"
    assert refused_rule(engine, state, {"type": "operate", "altar": "w3", "take": 8,
                                        "cell": 0}) == "GM-3.4"
    assert refused_rule(engine, state, {"type": "operate", "altar": "black", "take": 1,
                                        "cell": 0}) == "GM-3.4"
    state = table.move(state, type="operate", altar="w3", take=1, cell=6)
    assert state["seats"][0]["pentacle"][6] == 8 and state["altars"]["w3"] == [8, 8]


def test_GM_3_4_refusals_name_altars_and_chips_in_words(table, engine):
    """GM-3.4, GM-3.3, GM-1.3: details list values as a person writes them, never as Python."""
    state = table.refill(table.setup(stacks={1: [8, 8]}, hands={1: [4, 7]}, altars={
        "w1": [1, 2], "w2": [4, 5], "w3": [1, 8], "black": [1, 7]}), 2)
    expected = {
        ("black", 1): "the black altar is used only when no white altar holds the result; "
                      "w1 and w3 hold 1 (8 × 8 → 1)",
        ("w2", 4): "w2 holds 4 and 5, not the operation's result (8 × 8 → 1)",
        ("w9", 1): 'no altar "w9"; the altars are w1, w2, w3 and black',
    }
    for (altar, take), detail in expected.items():
        with pytest.raises(IllegalMove) as refused:
            engine.apply(state, {"type": "operate", "seat": 1, "altar": altar, "take": take,
                                 "cell": 0})
        assert refused.value.detail == detail
    with pytest.raises(IllegalMove) as refused:
        engine.apply(state, {"type": "push", "seat": 1, "chip": "8"})
    assert refused.value.detail == 'no chip "8" in the hand: it holds 2, 4 and 7'


def test_GM_3_4_black_altar_only_when_no_white_altar_holds_the_result(table, engine):
    state = table.refill(table.setup(stacks={1: [2, 2]}, altars={
        "w1": [1, 1], "w2": [2, 2], "w3": [5, 5], "black": [4, 8]}), 1)
    takes = {(m["altar"], m["take"]) for m in engine.legal_moves(state)
             if m["type"] == "operate"}
    assert takes == {("black", 4), ("black", 8)}  # 2 × 2 = 4: no white altar holds 4
    assert refused_rule(engine, state, {"type": "operate", "altar": "black", "take": 5,
                                        "cell": 0}) == "GM-3.4"
    state, events = table.play(state, type="operate", altar="black", take=8, cell=2)
    assert state["seats"][0]["stack"] == [8]
    assert state["seats"][0]["pentacle"][2] == 4
    assert state["altars"]["black"] == [2, 2]


def test_GM_3_4_placement_on_an_empty_cell_and_the_gauge(table, engine):
    state = table.refill(table.setup(**EXAMPLE), 5)
    state = table.at_round(state, 3, {1: [None, 4, 1, None, None, None, None],
                                      2: [1, 1, None, None, None, None, None]})
    assert state["seats"][0]["gauge"] == 2
    operations = [m for m in engine.legal_moves(state) if m["type"] == "operate"]
    assert sorted({m["cell"] for m in operations}) == [0, 3, 4, 5, 6]
    assert refused_rule(engine, state, {"type": "operate", "altar": "w2", "take": 7,
                                        "cell": 1}) == "GM-3.4"
    for cell in (7, -1, "0", None):
        assert refused_rule(engine, state, {"type": "operate", "altar": "w2", "take": 7,
                                            "cell": cell}) == "GM-1.5"
    # 7 is a new value: the gauge advances
    after, events = table.play(state, type="operate", altar="w2", take=7, cell=0)
    assert {"type": "gauge_advanced", "seat": 1, "gauge": 3} in events
    assert after["seats"][0]["gauge"] == 3
    # a value already on the pentacle does not move it
    again = table.at_round(table.refill(table.setup(**dict(EXAMPLE, altars={
        "w1": [1, 4], "w2": [4, 7], "w3": [2, 8], "black": [4, 5]})), 5), 2,
        {1: [None, 4, None, None, None, None, None], 2: [1, None, None, None, None, None, None]})
    after, events = table.play(again, type="operate", altar="w2", take=7, cell=0)
    assert after["seats"][0]["pentacle"][0] == 4
    assert after["seats"][0]["gauge"] == 1
    assert not any(e["type"] == "gauge_advanced" for e in events)


def black_altar_game(table, positions):
    state = table.refill(table.setup(players=3, stacks={1: [2, 2]}, altars={
        "w1": [1, 1], "w2": [2, 2], "w3": [5, 5], "black": [4, 8]}), 1)
    return table.at_round(state, 1, {}, positions)


def test_GM_3_5_black_altar_penalty_swaps_with_the_next_lower_pawn(table):
    state = black_altar_game(table, {1: 9, 2: 4, 3: 6})
    state, events = table.play(state, type="operate", altar="black", take=4, cell=0)
    assert {"type": "penalty", "seat": 1, "with": 3, "positions": {"1": 6, "3": 9}} in events
    assert [s["position"] for s in state["seats"]] == [6, 4, 9]


def test_GM_3_5_penalty_does_nothing_for_the_lowest_pawn(table):
    state = black_altar_game(table, {1: 2, 2: 4, 3: 6})
    state, events = table.play(state, type="operate", altar="black", take=4, cell=0)
    assert {"type": "penalty", "seat": 1, "with": None} in events
    assert [s["position"] for s in state["seats"]] == [2, 4, 6]


def test_GM_3_5_white_altar_has_no_penalty(table):
    state = example(table)
    state = table.at_round(state, 1, {}, {1: 5, 2: 1})
    state, events = table.play(state, type="operate", altar="w2", take=7, cell=0)
    assert not any(e["type"] == "penalty" for e in events)
    assert [s["position"] for s in state["seats"]] == [5, 1]


def two_sets_game(table, positions=None, **options):
    """Seat 1 at round 5 with cells 1, 3, 4, 5 filled: cell 0 closes {0,1,3} and {0,4,5}."""
    state = table.refill(table.setup(players=3, options=options or None, **EXAMPLE), 5)
    return table.at_round(state, 5, {
        1: [None, 1, None, 2, 4, 8, None],
        2: [None, 1, None, 2, 4, 5, None],
        3: [None, 2, None, 1, 4, 5, None]}, positions)


def test_GM_3_6_blessing_once_per_turn_however_many_sets(table):
    state = two_sets_game(table, {1: 3, 2: 0, 3: 1})
    state = table.move(state, type="push", chip=5)
    state, events = table.play(state, type="operate", altar="w1", take=1, cell=0)
    assert {"type": "sets_formed", "seat": 1, "lines": [[0, 1, 3], [0, 4, 5]]} in events
    gauge = state["seats"][0]["gauge"]
    assert gauge == 4  # 1, 2, 4, 8 (the placed 4 was already there)
    blessings = [e for e in events if e["type"] == "blessed"]
    assert blessings == [{"type": "blessed", "seat": 1, "amount": 4, "from": 3, "to": 7,
                          "overshoot": 0}]
    assert state["seats"][0]["position"] == 7


def test_GM_3_6_blessing_at_the_end_of_the_turn_after_a_later_push(table):
    state = two_sets_game(table, {1: 3, 2: 0, 3: 1})
    state, events = table.play(state, type="operate", altar="w2", take=7, cell=0)
    assert not any(e["type"] == "blessed" for e in events)  # 2 × 8 → 7: w2, place 7
    assert state["turn"]["sets"] == 2 and state["seats"][0]["position"] == 3
    state, events = table.play(state, type="push", chip=5)
    assert [e["type"] for e in events][:2] == ["chip_pushed", "blessed"]
    assert state["seats"][0]["position"] == 3 + 5  # gauge 5: 1, 2, 4, 7, 8


def test_GM_3_6_no_blessing_without_a_new_set(table):
    state = table.at_round(example(table), 2, {1: [4, None, None, None, None, None, None],
                                              2: [1, None, None, None, None, None, None]})
    state, events = table.play(state, type="operate", altar="w2", take=7, cell=1)
    assert not any(e["type"] == "sets_formed" for e in events)
    state, events = table.play(state, type="push", chip=5)
    assert not any(e["type"] == "blessed" for e in events)


def test_GM_3_6_blessing_uses_the_blessing_values_option(table):
    state = two_sets_game(table, {1: 3, 2: 0, 3: 1},
                          blessing_values=[0, 1, 1, 2, 10, 10, 20])
    state = table.move(state, type="push", chip=5)
    state = table.move(state, type="operate", altar="w1", take=1, cell=0)
    assert state["seats"][0]["position"] == 13


def test_GM_3_7_overshoot_to_the_nearest_free_position_beyond(table):
    state = two_sets_game(table, {1: 3, 2: 7, 3: 8})
    state = table.move(state, type="push", chip=5)
    state, events = table.play(state, type="operate", altar="w1", take=1, cell=0)
    assert {"type": "blessed", "seat": 1, "amount": 4, "from": 3, "to": 9,
            "overshoot": 2} in events
    assert [s["position"] for s in state["seats"]] == [9, 7, 8]


def test_GM_3_8_moves_are_push_and_operate_with_their_fields(table, engine):
    state = example(table)
    for move in engine.legal_moves(state):
        assert set(move) == ({"type", "seat", "chip"} if move["type"] == "push"
                             else {"type", "seat", "altar", "take", "cell"})
    assert refused_rule(engine, state, {"type": "pass"}) == "GM-3.8"
    assert refused_rule(engine, state, {"type": "push", "chip": 5, "extra": 1}) == "GM-3.8"
    with pytest.raises(IllegalMove) as refused:
        engine.apply(state, {"type": "operate", "seat": 1, "altar": "w2", "cell": 0})
    assert refused.value.rule == "GM-3.4"  # take is missing


def test_GM_3_6_a_set_formed_in_an_earlier_turn_does_not_bless_again(table):
    # {0, 1, 3} is already a set; a chip on cell 2 closes no line ({1,2,4} {2,3,5} {0,2,6})
    state = table.at_round(example(table), 4, {1: [1, 2, None, 4, None, None, None],
                                              2: [1, None, 2, None, 4, None, None]},
                           {1: 3, 2: 0})
    state, events = table.play(state, type="operate", altar="w2", take=7, cell=2)
    assert not any(e["type"] == "sets_formed" for e in events)
    assert state["turn"]["sets"] == 0
    state, events = table.play(state, type="push", chip=5)
    assert not any(e["type"] == "blessed" for e in events)
    assert [s["position"] for s in state["seats"]] == [3, 0]


def test_GM_3_5_penalty_comes_before_the_blessing_of_the_same_turn(table):
    state = table.refill(table.setup(players=3, stacks={1: [2, 2]}, altars={
        "w1": [1, 1], "w2": [2, 2], "w3": [5, 5], "black": [4, 8]}), 1)
    state = table.at_round(state, 5, {
        1: [None, 1, None, 2, 4, 5, None],
        2: [None, 1, None, 2, 4, 5, None],
        3: [None, 2, None, 1, 4, 5, None]}, {1: 9, 2: 4, 3: 6})
    state, events = table.play(state, type="operate", altar="black", take=4, cell=0)
    assert {"type": "penalty", "seat": 1, "with": 3, "positions": {"1": 6, "3": 9}} in events
    assert state["seats"][0]["gauge"] == 5  # 1, 2, 4, 5, 8
    chip = state["seats"][0]["hand"][0]
    state, events = table.play(state, type="push", chip=chip)
    # swapped down to 6 right after the Operate, then blessed 5 at the end of the turn
    assert {"type": "blessed", "seat": 1, "amount": 5, "from": 6, "to": 11,
            "overshoot": 0} in events
    assert [s["position"] for s in state["seats"]] == [11, 4, 9]
