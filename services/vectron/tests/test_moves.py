"""V-3 draw and place, V-4 moves and the wall kick, V-5 what a destination does."""

import pytest

from referee.engine import CHANCE
from referee.errors import InvalidOptions, NotYourTurn
from vectron.board import CELLS, cell, destinations as card_reach, fold, kick, xy
from vectron.engine import Vectron

ENGINE = Vectron()


def move(to, seat=1):
    return {"type": "move", "seat": seat, "to": to}


STOP = {"type": "stop", "seat": 1}


# ---------------------------------------------------------------- V-3
def test_V_3_1_draw_from_the_deck_then_place(table):
    state = table.dealt(2, hands=[["O1", "O2"], ["S", "S"]])
    assert ENGINE.legal_moves(state) == [{"type": "draw", "seat": 1, "source": "deck"}]
    state = table.play(state, {"type": "draw", "seat": 1, "source": "deck"})
    assert state["to_move"] == [CHANCE]
    state = table.play(state, table.card("D2"))
    assert state["hands"][0] == ["D2", "O1", "O2"]
    assert [m["card"] for m in ENGINE.legal_moves(state)] == ["D2", "O1", "O2"]
    state = table.play(state, {"type": "place", "seat": 1, "card": "O1"})
    assert state["hands"][0] == ["D2", "O2"] and state["columns"][0] == ["O1"]
    assert state["phase"] == "move"


def test_V_3_1_draw_from_the_top_of_any_column(table):
    state = table.arrange(table.dealt(2), columns=[["D1"], ["S", "O3"]],
                          hands=[["O1", "O2"], ["O1", "O2"]])
    sources = [m["source"] for m in ENGINE.legal_moves(state)]
    assert sources == ["deck", 1, 2]
    new, events = ENGINE.apply(state, {"type": "draw", "seat": 1, "source": 2})
    assert new["columns"] == [["D1"], ["S"]] and new["hands"][0] == ["O1", "O2", "O3"]
    assert events == [{"type": "card_drawn", "seat": 1, "source": 2, "card": "O3"}]
    own = table.play(state, {"type": "draw", "seat": 1, "source": 1})  # its own column too
    assert own["columns"][0] == [] and own["phase"] == "place"


def test_V_3_1_refusals(table):
    state = table.arrange(table.dealt(2), columns=[[], ["S"]])
    assert table.refused(state, {"type": "draw", "seat": 1, "source": 1}).rule == "V-3.1"
    assert table.refused(state, {"type": "draw", "seat": 1, "source": 7}).rule == "V-3.1"
    assert table.refused(state, {"type": "draw", "seat": 1, "source": None}).rule == "V-3.1"
    assert table.refused(state, {"type": "place", "seat": 1, "card": "O1"}).rule == "V-3.1"
    assert table.refused(state, move("a1")).rule == "V-3.1"
    placing = table.play(state, {"type": "draw", "seat": 1, "source": 2})
    assert table.refused(placing, {"type": "place", "seat": 1, "card": "D3"}).rule == "V-3.1"
    assert table.refused(placing, {"type": "draw", "seat": 1, "source": "deck"}).rule == "V-3.1"


def test_V_3_2_fallen_seat_draws_the_deck_top_onto_its_column(table):
    state = table.moving(2, {"b2": "seat1", "c3": "seat2"}, column=["D1"])
    state = table.play(state, move("c3"))  # knocks seat 2 down; seat 1's column is used up
    assert state["fallen"] == [False, True]
    assert state["turn"] == 2 and state["to_move"] == [CHANCE]
    hand = list(state["hands"][1])
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, {"type": "draw", "seat": 2, "source": "deck"})
    new, events = ENGINE.apply(state, table.card("O3"))
    assert new["columns"][1] == ["O3"] and new["hands"][1] == hand
    assert new["fallen"] == [False, False] and new["phase"] == "move"
    assert [e["type"] for e in events] == ["card_forced", "piece_stood_up"]
    # it then moves normally: the forced card is its mandatory first move
    assert table.destinations(new) == card_reach("b2", "O3")
    assert {"type": "stop", "seat": 2} not in ENGINE.legal_moves(new)


# ---------------------------------------------------------------- V-4
def test_V_4_1_first_move_uses_the_placed_card_and_is_mandatory(table):
    state = table.dealt(2, placed={"b2": "seat1"}, hands=[["D2", "O1"], ["S", "S"]])
    state = table.play(state, {"type": "draw", "seat": 1, "source": "deck"}, table.card("O3"),
                       {"type": "place", "seat": 1, "card": "D2"})
    assert state["columns"][0] == ["D2"]
    assert table.destinations(state) == ["b2", "b4", "d2", "d4"]
    assert STOP not in ENGINE.legal_moves(state)
    assert table.refused(state, STOP).rule == "V-4.1"


def test_V_4_1_draw_or_place_before_the_first_move_is_refused_as_mandatory(table):
    """V-4.1: before the first move nothing but that move is legal; the refusal says so
    (not V-4.5's "move on, or stop": stopping is refused too)."""
    standing = table.moving(2, {"b2": "seat1"}, column=["O1", "D2"])
    state = table.moving(2, {"b2": "seat1", "c3": "seat2"}, column=["D1"])
    fallen = table.play(table.play(state, move("c3")), table.card("O3"))  # seat 2's forced card
    for state, seat in ((standing, 1), (fallen, 2)):
        for attempt in ({"type": "draw", "seat": seat, "source": "deck"},
                        {"type": "place", "seat": seat, "card": state["hands"][seat - 1][0]}):
            refused = table.refused(state, attempt)
            assert refused.rule == "V-4.1", attempt
            assert "mandatory" in refused.detail and "stop" not in refused.detail


def test_V_4_2_four_directions_and_jumps(table):
    """V-4.2: O/D cards pick one of 4 directions; jumps ignore what lies between."""
    assert card_reach("b2", "O1") == ["a2", "b1", "b3", "c2"]
    assert card_reach("b2", "D1") == ["a1", "a3", "c1", "c3"]
    state = table.moving(2, {"a1": "seat1", "a2": "seat2", "b2": "star3"}, column=["O2"])
    assert table.destinations(state) == ["a3", "c1"]  # over seat 2's piece on a2
    state = table.moving(2, {"b2": "seat1"}, column=["O1"])
    assert table.refused(state, move("d4")).rule == "V-4.3"


def test_V_4_3_fold_formula():
    assert [fold(p) for p in range(-6, 10)] == [0, 1, 2, 3, 2, 1, 0, 1, 2, 3, 2, 1, 0, 1, 2, 3]


def test_V_4_3_manual_figure_diagonal_two_from_an_inner_cell(table):
    """The manual's figure: D2 from s = (1,1): A (3,3) without a kick, B (1,3), C (3,1),
    D (1,1) back on the starting cell — four destinations."""
    assert xy("b2") == (1, 1)
    assert {kick("b2", 1, 1, 2), kick("b2", -1, 1, 2), kick("b2", 1, -1, 2),
            kick("b2", -1, -1, 2)} == {"d4", "b4", "d2", "b2"}
    state = table.moving(2, {"b2": "seat1"}, column=["D2"])
    assert table.destinations(state) == ["b2", "b4", "d2", "d4"]
    assert "b2" in table.destinations(state)  # one of them the starting cell


def test_V_4_3_orthogonal_three_kicks_at_once_from_the_wall():
    assert kick(cell(0, 2), -1, 0, 3) == cell(3, 2) == "d3"


def test_V_4_3_distance_three_mirrors():
    """D3 from (x, y) always lands on (3−x, 3−y); O3 mirrors one coordinate."""
    for start in CELLS:
        x, y = xy(start)
        assert card_reach(start, "D3") == [cell(3 - x, 3 - y)]
        assert set(card_reach(start, "O3")) == {cell(3 - x, y), cell(x, 3 - y)}


def test_V_4_3_corner_diagonal_two():
    """From a corner D2 goes 2 cells toward the centre in any direction: (0,0) → (2,2)."""
    assert card_reach("a1", "D2") == [cell(2, 2)]
    assert card_reach("d4", "D2") == ["b2"]
    assert card_reach("a4", "D2") == ["c2"] and card_reach("d1", "D2") == ["b3"]


def test_V_4_3_destinations_are_distinct_cells(table):
    assert card_reach("a1", "O2") == ["a3", "c1"]
    state = table.moving(2, {"a1": "seat1"}, column=["O2"])
    assert [m for m in ENGINE.legal_moves(state)] == [move("a3"), move("c1")]


def test_V_4_4_swap_card_reaches_either_swap_chip(table):
    state = table.moving(2, {"b2": "seat1", "a4": "swap", "d1": "swap"}, column=["S"])
    assert table.destinations(state) == ["a4", "d1"]
    assert table.refused(state, move("c3")).rule == "V-4.4"


def test_V_4_5_additional_moves_go_down_the_column_in_order(table):
    placed = {"b2": "seat1", "d4": "seat2", "a1": "star1", "a3": "star1", "c1": "star1",
              "c3": "star1", "b3": "star3", "b4": "star3"}
    state = table.moving(2, placed, column=["O1", "D1", "D2"])
    assert table.destinations(state) == ["b2", "b4", "d2", "d4"]  # D2 from b2; d4 holds seat 2
    state = table.play(state, move("b4"))
    assert state["cursor"] == 1 and table.destinations(state) == card_reach("b4", "D1")
    assert STOP in ENGINE.legal_moves(state)
    assert table.refused(state, dict(move("a3"), card="O1")).rule == "V-4.5"
    assert table.refused(state, {"type": "draw", "seat": 1, "source": "deck"}).rule == "V-4.5"
    state = table.play(state, move("a3"))
    assert table.destinations(state) == card_reach("a3", "O1")
    state = table.play(state, move("a2"))  # the column's bottom card: the turn ends
    assert state["turn"] == 2 and state["cursor"] is None


def test_V_4_5_stop_ends_the_turn(table):
    state = table.moving(2, {"b2": "seat1"}, column=["O1", "D2"])
    state = table.play(state, move("b2"))
    new, events = ENGINE.apply(state, STOP)
    assert events[0] == {"type": "stopped", "seat": 1} and new["to_move"] == [2]
    assert new["columns"][0] == ["O1", "D2"]  # cards stay in the column


def test_V_4_6_turn_ends_at_once_when_a_gauge_reaches_seven(table):
    state = table.moving(2, {"b2": "seat1", "c3": "gate"}, column=["O1", "D1"],
                         held=["star3", "star2"], gauges=[4, 1])
    state, events = ENGINE.apply(state, move("c3"))
    assert [e["type"] for e in events][:3] == ["piece_moved", "turn_ended", "settled"]
    assert events[2]["gauges"] == [7, 1]


def test_V_4_6_another_seats_gauge_reaching_seven_ends_the_turn_too(table):
    """V-4.6 (referee decision 8): V-5.4 can raise the other seat's gauge; that ends the turn."""
    state = table.moving(2, {"b2": "seat1", "c3": "seat2"}, column=["O1", "D1"],
                         held=["gate", "star3"], gauges=[2, 4])
    new, events = ENGINE.apply(state, move("c3"))
    assert [e["type"] for e in events][:3] == ["piece_moved", "turn_ended", "settled"]
    assert events[2]["gauges"] == [2, 7] and new["scores"] == [0, 5]


# ---------------------------------------------------------------- V-5
def test_V_5_1_star_chip(table):
    state = table.moving(2, {"b2": "seat1", "c3": "star3"}, column=["D1"])
    new, events = ENGINE.apply(state, move("c3"))
    assert new["held"][0] == "star3" and new["grid"]["c3"] == "seat1"
    assert new["grid"]["b2"] == "star2" and new["gauges"] == [0, 0]
    assert events[0] == {"type": "piece_moved", "seat": 1, "from": "b2", "to": "c3",
                         "result": "star", "took": "star3", "left": "star2", "card": "D1"}


def test_V_5_2_gate_raises_the_gauge_by_the_surrendered_chip(table):
    state = table.moving(2, {"b2": "seat1", "c3": "gate"}, column=["D1"], held=["star3", "star2"])
    new = table.play(state, move("c3"))
    assert new["held"][0] == "gate" and new["grid"]["b2"] == "star3"
    assert new["gauges"] == [3, 0]


def test_V_5_2_a_gate_for_a_gate_counts_zero(table):
    state = table.moving(2, {"b2": "seat1", "c3": "gate"}, column=["D1"], held=["gate", "star2"])
    new, events = ENGINE.apply(state, move("c3"))
    assert new["grid"]["b2"] == "gate" and new["gauges"] == [0, 0]
    assert events[0]["gains"] == {"1": 0}


def test_V_5_3_swap_chip_trades_cells(table):
    state = table.moving(2, {"b2": "seat1", "a4": "swap", "d1": "swap"}, column=["S"])
    new = table.play(state, move("d1"))
    assert new["grid"]["d1"] == "seat1" and new["grid"]["b2"] == "swap"
    assert new["held"] == state["held"] and new["gauges"] == [0, 0]


def test_V_5_4_landing_on_a_piece_trades_cells_and_chips_and_knocks_it_down(table):
    state = table.moving(2, {"b2": "seat1", "c3": "seat2"}, column=["D1"], held=["star2", "star3"])
    new, events = ENGINE.apply(state, move("c3"))
    assert new["grid"]["c3"] == "seat1" and new["grid"]["b2"] == "seat2"
    assert new["held"] == ["star3", "star2"] and new["fallen"] == [False, True]
    assert new["gauges"] == [0, 0] and events[0]["result"] == "piece"


def test_V_5_4_a_fallen_piece_is_stood_up(table):
    state = table.moving(2, {"b2": "seat1", "c3": "seat2"}, column=["D1"], fallen=[False, True])
    assert table.play(state, move("c3"))["fallen"] == [False, False]


def test_V_5_4_holding_a_gate_onto_a_star_holder_raises_the_other_gauge(table):
    state = table.moving(2, {"b2": "seat1", "c3": "seat2"}, column=["D1"], held=["gate", "star3"])
    new, events = ENGINE.apply(state, move("c3"))
    assert new["held"] == ["star3", "gate"] and new["gauges"] == [0, 3]
    assert events[0]["gains"] == {"2": 3}


def test_V_5_4_landing_on_a_gate_holder_raises_the_own_gauge(table):
    state = table.moving(2, {"b2": "seat1", "c3": "seat2"}, column=["D1"], held=["star2", "gate"])
    assert table.play(state, move("c3"))["gauges"] == [2, 0]
    both = table.moving(2, {"b2": "seat1", "c3": "seat2"}, column=["D1"], held=["gate", "gate"])
    assert table.play(both, move("c3"))["gauges"] == [0, 0]


def test_V_5_5_own_cell_does_nothing_but_uses_the_card(table):
    state = table.moving(2, {"b2": "seat1"}, column=["O1", "D2"])
    new, events = ENGINE.apply(state, move("b2"))
    assert new["grid"] == state["grid"] and new["held"] == state["held"]
    assert new["cursor"] == 0 and events[0]["result"] == "start"


def test_V_5_6_just3_bonus_hook_ships_off(table):
    info = ENGINE.info()["options"]["just3_bonus"]
    assert info["default"] is False and "lost" in info["description"]
    with pytest.raises(InvalidOptions):
        ENGINE.new(2, options={"just3_bonus": True})

    calls = []

    class Recording(Vectron):
        def _just3_bonus(self, state, seat, moment, events):
            calls.append((seat, moment))

    state = table.moving(2, {"b2": "seat1"}, column=["O1", "D2"])
    state, _ = Recording().apply(state, move("b2"))
    Recording().apply(state, move("b3"))
    assert calls == [(1, "move"), (1, "move"), (1, "end_of_turn")]
    assert table.play(state, move("b3"))["gauges"] == [0, 0]  # shipped off: no effect


def test_V_5_effects_apply_to_additional_moves_too(table):
    """V-5 applies on every move, first or additional."""
    placed = {"b2": "seat1", "c3": "star3", "d4": "gate"}
    state = table.moving(2, placed, column=["D1", "D1"])
    state = table.play(state, move("c3"), move("d4"))
    assert state["gauges"] == [3, 0] and state["held"][0] == "gate"
    alone = table.moving(2, placed, column=["D1"])
    assert table.events_of(alone, move("c3"))[1]["type"] == "turn_ended"
