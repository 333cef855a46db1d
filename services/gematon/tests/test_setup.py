"""GM-1 components and GM-2 setup."""

import pytest

from gematon.board import ALTARS, FANO_LINES, VALUES
from referee.errors import IllegalMove, InvalidOptions, InvalidPlayers


def test_GM_1_1_two_to_four_players_seat_1_starts(engine):
    for players in (1, 5):
        with pytest.raises(InvalidPlayers) as refused:
            engine.new(players)
        assert refused.value.extra["rule"] == "GM-1.1"
    for players in (2, 3, 4):
        state = engine.new(players, seed=7)
        assert len(state["seats"]) == players
        assert state["turn"] == {"seat": 1, "round": 1, "refilled": True, "pushed": False,
                                 "operated": False, "sets": 0}
        assert state["to_move"] == [1]


def test_GM_1_2_fifty_four_chips_nine_of_each_value(engine, table):
    state = engine.new(4, seed=3)
    counts = {v: state["bag"][str(v)] for v in VALUES}
    for mine in state["seats"]:
        for chip in mine["stack"] + mine["hand"]:
            counts[chip] += 1
    for chips in state["altars"].values():
        for chip in chips:
            counts[chip] += 1
    assert counts == {1: 9, 2: 9, 4: 9, 5: 9, 7: 9, 8: 9}
    assert sum(counts.values()) == 54
    # no 3, 6 or 9 can be drawn
    tabletop = engine.new(2, mode="tabletop")
    tabletop, _ = table.chance(tabletop, witch=1)
    tabletop, _ = table.chance(tabletop, witch=2)
    with pytest.raises(IllegalMove) as refused:
        engine.apply(tabletop, {"type": "draw", "seat": "chance", "chip": 3, "into": "stack",
                                "holder": 1})
    assert refused.value.rule == "GM-1.2"


def test_GM_1_3_three_white_altars_and_a_black_one_hold_two_chips(engine, table):
    state = engine.new(3, seed=11)
    assert sorted(state["altars"]) == sorted(ALTARS) == ["black", "w1", "w2", "w3"]
    assert all(len(chips) == 2 for chips in state["altars"].values())
    state = table.refill(table.setup(stacks={1: [2, 2]}), 1)
    with pytest.raises(IllegalMove) as refused:
        table.move(state, type="operate", altar="w4", take=4, cell=0)
    assert refused.value.rule == "GM-1.3"


def test_GM_1_4_each_seat_has_stack_hand_gauge_pentacle(table):
    state = table.setup(players=3, stacks={2: [5, 7]}, hands={2: [1, 8]})
    second = state["seats"][1]
    assert second["stack"] == [5, 7]  # bottom → top: 7 is popped first
    assert second["hand"] == [1, 8]
    assert second["gauge"] == 0
    assert second["pentacle"] == [None] * 7


def test_GM_1_5_pentacle_lines_default_fano_plane(engine):
    assert engine.new(2, seed=1)["options"]["pentacle_lines"] == FANO_LINES == [
        [0, 1, 3], [1, 2, 4], [2, 3, 5], [3, 4, 6], [0, 4, 5], [1, 5, 6], [0, 2, 6]]
    # every two cells share exactly one line (the Fano plane)
    for a in range(7):
        for b in range(a + 1, 7):
            assert sum(a in line and b in line for line in FANO_LINES) == 1


FANO_BUT_LAST = [[0, 1, 3], [1, 2, 4], [2, 3, 5], [3, 4, 6], [0, 4, 5], [1, 5, 6]]


@pytest.mark.parametrize("lines, message", [
    ([[0, 1, 2]] * 6, "7 lines"),
    ("fano", "7 lines"),
    (FANO_BUT_LAST + [[0, 2, 7]], "pentacle_lines[6]"),
    (FANO_BUT_LAST + [[0, 2, 2]], "3 distinct"),
    (FANO_BUT_LAST + [[0, 2]], "3 distinct"),
    (FANO_BUT_LAST + [[True, 2, 6]], "cells"),
    (FANO_BUT_LAST + [[3, 1, 0]], "different"),
])
def test_GM_1_5_pentacle_lines_option_validated(engine, lines, message):
    with pytest.raises(InvalidOptions) as refused:
        engine.new(2, options={"pentacle_lines": lines})
    assert message in refused.value.detail and "GM-1.5" in refused.value.detail


def test_GM_1_5_pentacle_lines_option_changes_the_sets(table):
    ring = [[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 6], [5, 6, 0], [6, 0, 1]]
    state = table.setup(options={"pentacle_lines": ring})
    assert state["options"]["pentacle_lines"] == ring
    score = table.engine.score(state)["scores"][0]["breakdown"]
    assert [line["cells"] for line in score["lines"]] == ring


@pytest.mark.parametrize("values, message", [
    ([0, 1, 2, 3, 4, 5], "7 integers from 0 to 1000"),
    ([0, 1, 2, 3, 4, 5, -6], "7 integers from 0 to 1000"),
    ([0, 1, 2, 3, 4, 5, 6.0], "7 integers from 0 to 1000"),
    ([0, 1, 2, 3, 4, 5, False], "7 integers from 0 to 1000"),
    ([0, 1, 2, 3, 4, 5, 1001], "7 integers from 0 to 1000"),
    ([0, 1, 2, 5, 4, 5, 6], "must not decrease"),
])
def test_GM_1_6_blessing_values_option_validated(engine, values, message):
    with pytest.raises(InvalidOptions) as refused:
        engine.new(2, options={"blessing_values": values})
    assert message in refused.value.detail and "GM-1.6" in refused.value.detail


def test_GM_1_6_gauge_cell_k_is_worth_k_by_default(engine):
    assert engine.new(2, seed=1)["options"]["blessing_values"] == [0, 1, 2, 3, 4, 5, 6]
    assert engine.info()["options"]["blessing_values"]["default"] == [0, 1, 2, 3, 4, 5, 6]
    custom = engine.new(2, seed=1, options={"blessing_values": [0, 2, 2, 4, 6, 9, 9]})
    assert custom["options"]["blessing_values"] == [0, 2, 2, 4, 6, 9, 9]


def test_GM_2_1_draft_option_must_be_boolean(engine):
    with pytest.raises(InvalidOptions, match="draft"):
        engine.new(2, options={"draft": "yes"})
    with pytest.raises(InvalidOptions, match="witches"):
        engine.new(2, options={"witches": 3})


def test_GM_1_7_pawns_start_on_the_lowest_squares_in_seat_order(engine):
    state = engine.new(4, seed=2)
    assert [s["position"] for s in state["seats"]] == [0, 1, 2, 3]


def test_GM_2_1_each_seat_is_dealt_a_random_witch(engine, table):
    state = engine.new(3, mode="tabletop")
    outcomes = engine.legal_moves(state)
    assert [m["witch"] for m in outcomes] == [1, 2, 3, 4, 5, 6]
    assert all(m["type"] == "deal_witch" and m["holder"] == 1 for m in outcomes)
    assert all(m["p"] == pytest.approx(1 / 6) for m in outcomes)
    state, events = table.chance(state, witch=4)
    assert events == [{"type": "witch_dealt", "seat": 1, "witch": 4}]
    outcomes = engine.legal_moves(state)
    assert [m["witch"] for m in outcomes] == [1, 2, 3, 5, 6] and outcomes[0]["holder"] == 2
    with pytest.raises(IllegalMove) as refused:
        engine.apply(state, {"type": "deal_witch", "seat": "chance", "witch": 4, "holder": 2})
    assert refused.value.rule == "GM-2.1"
    digital = engine.new(4, seed=9)
    assert sorted(digital["witches"]) == sorted(set(digital["witches"]))
    assert all(w in range(1, 7) for w in digital["witches"])


def test_GM_2_1_expert_draft_removes_to_n_then_seats_pick_counter_clockwise(engine, table):
    state = engine.new(3, mode="tabletop", options={"draft": True})
    assert state["witches"] == [None, None, None]
    while engine.legal_moves(state)[0]["type"] == "draw":  # the draft comes after the chips
        state, _ = table.chance(state, chip=table.plentiful(state))
    for removed in (2, 5, 6):
        state, events = table.chance(state, type="remove_witch", witch=removed)
        assert events == [{"type": "witch_removed", "witch": removed}]
    assert state["removed_witches"] == [2, 5, 6]
    assert state["to_move"] == [3]
    assert engine.legal_moves(state) == [
        {"type": "pick_witch", "seat": 3, "witch": w} for w in (1, 3, 4)]
    for wrong, rule in (({"type": "pick_witch", "witch": 5}, "GM-2.1"),
                        ({"type": "push", "chip": 1}, "GM-2.1")):
        with pytest.raises(IllegalMove) as refused:
            engine.apply(state, dict(wrong, seat=3))
        assert refused.value.rule == rule
    state = table.move(state, type="pick_witch", witch=3)
    assert state["to_move"] == [2]
    state, events = table.play(state, type="pick_witch", witch=1)
    assert events[:2] == [{"type": "witch_picked", "seat": 2, "witch": 1},
                          {"type": "witch_picked", "seat": 1, "witch": 4}]  # the last one
    assert state["witches"] == [4, 1, 3]
    assert state["phase"] == "play" and state["to_move"] == ["chance"]
    with pytest.raises(IllegalMove) as refused:
        table.move(table.refill(state, 1), type="pick_witch", witch=2)
    assert refused.value.rule == "GM-2.1"


def test_GM_2_1_draft_with_four_players_removes_two_witches(engine):
    state = engine.new(4, seed=12, options={"draft": True})
    assert len(state["removed_witches"]) == 2 and state["to_move"] == [4]
    assert len(engine.legal_moves(state)) == 4


def test_GM_2_2_setup_draws_in_order(engine, table):
    state = engine.new(2, mode="tabletop")
    state, _ = table.chance(state, witch=1)
    state, _ = table.chance(state, witch=2)
    seen = []
    for chip in (8, 2, 4, 7, 1, 1, 5, 5, 1, 4, 7, 7, 2, 8, 4, 5):
        first = engine.legal_moves(state)[0]
        seen.append((first["into"], first["holder"]))
        state, events = table.chance(state, chip=chip)
        assert events[0] == {"type": "chip_drawn", "chip": chip, "into": first["into"],
                             "holder": first["holder"]}
    assert seen == [("stack", 1), ("stack", 1), ("hand", 1), ("hand", 1),
                    ("stack", 2), ("stack", 2), ("hand", 2), ("hand", 2),
                    ("altar", "w1"), ("altar", "w1"), ("altar", "w2"), ("altar", "w2"),
                    ("altar", "w3"), ("altar", "w3"), ("altar", "black"), ("altar", "black")]
    assert state["seats"][0]["stack"] == [8, 2]  # the first chip at the bottom
    assert state["seats"][0]["hand"] == [4, 7]
    assert state["seats"][1]["stack"] == [1, 1] and state["seats"][1]["hand"] == [5, 5]
    assert state["altars"] == {"w1": [1, 4], "w2": [7, 7], "w3": [2, 8], "black": [4, 5]}
    # wrong destination for a setup draw
    fresh = table.chance(table.chance(engine.new(2, mode="tabletop"), witch=1)[0], witch=2)[0]
    with pytest.raises(IllegalMove) as refused:
        engine.apply(fresh, {"type": "draw", "seat": "chance", "chip": 1, "into": "hand",
                             "holder": 1})
    assert refused.value.rule == "GM-2.2"
