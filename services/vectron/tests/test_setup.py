"""V-1 components and V-2 setup: options, the grid shuffle, the deal."""

from collections import Counter

import pytest

from referee.engine import CHANCE
from referee.errors import InvalidPlayers, InvalidState
from vectron.board import CELLS, DEFAULT_ACTION_CARDS, DEFAULT_MAP_CHIPS
from vectron.engine import Vectron

ENGINE = Vectron()


def layout(cells):
    return {"type": "layout", "seat": CHANCE, "cells": cells}


def test_V_1_1_two_to_four_players():
    for players in (2, 3, 4):
        assert ENGINE.new(players)["players"] == players
    for players in (1, 5):
        with pytest.raises(InvalidPlayers) as caught:
            ENGINE.new(players)
        assert caught.value.rule == "V-1.1"


def test_V_1_1_play_passes_to_the_left_cyclic(table):
    state = table.dealt(3, placed={"a1": "seat1", "b1": "seat2", "c1": "seat3"})
    order = []
    for _ in range(4):
        seat = state["to_move"][0]
        order.append(seat)
        state = table.play(state, {"type": "draw", "seat": seat, "source": "deck"}, table.card("S"),
                           {"type": "place", "seat": seat, "card": "S"})
        to = table.destinations(state)[0]
        state = table.play(state, {"type": "move", "seat": seat, "to": to})
    assert order == [1, 2, 3, 1]


def test_V_1_2_grid_cells_and_coordinates(table):
    """V-1.2: 16 cells a1…d4, each holding exactly one chip or piece."""
    state = table.dealt(2)
    assert sorted(state["grid"]) == sorted(CELLS) and len(CELLS) == 16
    assert CELLS[0] == "a1" and CELLS[3] == "d1" and CELLS[-1] == "d4"
    things = Counter(state["grid"].values())
    assert things["seat1"] == things["seat2"] == 1 and sum(things.values()) == 16


def test_V_1_3_default_map_chips():
    """V-1.3: the default mix, and a custom one kept in the state (refusals: test_options)."""
    assert ENGINE.info()["options"]["map_chips"]["default"] == {
        "star1": 4, "star2": 4, "star3": 4, "gate": 2, "swap": 2}
    custom = {"star1": 3, "star2": 4, "star3": 4, "gate": 3, "swap": 2}
    assert ENGINE.new(4, options={"map_chips": custom})["options"]["map_chips"] == custom
    ENGINE.new(2, options={"map_chips": dict(DEFAULT_MAP_CHIPS, star2=2, star1=6)})


def test_V_1_4_default_action_cards():
    """V-1.4: the default mix; a custom one makes the deck (refusals: test_options)."""
    assert ENGINE.info()["options"]["action_cards"]["default"] == {
        "O1": 3, "O2": 3, "O3": 3, "D1": 3, "D2": 3, "D3": 3, "S": 6}
    state = ENGINE.new(2, options={"action_cards": dict(DEFAULT_ACTION_CARDS, S=0, O1=9)})
    assert "S" not in state["deck"] + state["hands"][0] + state["hands"][1]


def test_V_1_4_card_names_in_a_tabletop_entry(table):
    state = ENGINE.new(2, mode="tabletop")
    state = table.play(state, layout(table.layout_cells(2, {})))
    assert table.refused(state, table.card("X9")).rule == "V-1.4"


def test_V_1_5_per_seat_equipment():
    state = ENGINE.new(4, seed=3)
    assert state["held"] == ["star2"] * 4
    assert state["gauges"] == state["scores"] == [0] * 4
    assert state["fallen"] == [False] * 4
    assert [len(h) for h in state["hands"]] == [2] * 4 and state["columns"] == [[]] * 4


def test_V_2_1_each_seat_holds_a_two_star_chip():
    state = ENGINE.new(3, mode="tabletop")
    assert state["held"] == ["star2"] * 3
    described = ENGINE.legal_moves(state)[0]
    assert described["chips"]["star2"] == 4 - 3
    assert sum(described["chips"].values()) == 16 - 3


def test_V_2_2_layout_places_the_pieces_on_placeholders(table):
    """V-2.2 (and V-7.1): the table enters the grid shuffle, placeholders marking the pieces."""
    state = ENGINE.new(2, mode="tabletop")
    assert state["to_move"] == [CHANCE] and state["phase"] == "layout"
    (described,) = ENGINE.legal_moves(state)
    assert described["type"] == "layout" and "describe" in described
    assert described["pieces"] == ["seat1", "seat2"]
    cells = table.layout_cells(2, {"c3": "seat1", "a1": "seat2"})
    state = table.play(state, layout(cells))
    assert state["grid"]["c3"] == "seat1" and state["grid"]["a1"] == "seat2"


def test_V_2_2_impossible_layouts_refused(table):
    state = ENGINE.new(2, mode="tabletop")
    good = table.layout_cells(2, {})
    too_many_gates = dict(good, a1="gate") if good["a1"] != "gate" else dict(good, a1="swap")
    missing_cell = {c: v for c, v in good.items() if c != "d4"}
    no_piece = dict(good, **{c: "star1" for c, v in good.items() if v == "seat2"})
    assert table.refused(state, layout(too_many_gates)).rule == "V-2.2"
    assert table.refused(state, layout(no_piece)).rule == "V-2.2"
    assert table.refused(state, layout(missing_cell)).rule == "V-1.2"
    assert table.refused(state, dict(layout(good), x=1)).rule == "V-8"
    assert table.refused(state, table.card("O1")).rule == "V-8"


def test_V_2_2_digital_shuffle_puts_pieces_on_random_cells():
    starts = {tuple(c for c, v in sorted(ENGINE.new(2, seed=seed)["grid"].items())
                    if v.startswith("seat")) for seed in range(12)}
    assert len(starts) > 6
    grid = ENGINE.new(4, seed=5)["grid"]
    assert Counter(grid.values()) == {"star1": 4, "star3": 4, "gate": 2, "swap": 2,
                                      "seat1": 1, "seat2": 1, "seat3": 1, "seat4": 1}


def test_V_2_3_deal_two_cards_each_from_a_shuffled_deck(table):
    """V-2.3: each deal is a chance draw, listed with weights = copies left (V-7.1)."""
    state = ENGINE.new(2, mode="tabletop")
    state = table.play(state, layout(table.layout_cells(2, {})))
    assert state["phase"] == "deal"
    listed = {m["card"]: m["p"] for m in ENGINE.legal_moves(state)}
    assert listed["S"] == pytest.approx(6 / 24) and listed["O1"] == pytest.approx(3 / 24)
    state = table.play(state, table.card("S"), table.card("D3"), table.card("S"))
    assert state["hands"] == [["S", "S"], ["D3"]] and state["to_move"] == [CHANCE]
    state = table.play(state, table.card("O2"))
    assert state["hands"] == [["S", "S"], ["D3", "O2"]]
    assert len(state["deck"]) == 20 and state["columns"] == [[], []]


def test_V_2_4_seat_one_starts():
    for players in (2, 3, 4):
        state = ENGINE.new(players, seed=players)
        assert state["to_move"] == [1] and state["phase"] == "draw"


def test_V_2_setup_state_is_checked(table):
    """V-2 setup as a whole: a forged setup (chips not conserved) is refused."""
    state = table.dealt(2)
    forged = dict(state, held=["star3", "star2"])
    with pytest.raises(InvalidState):
        ENGINE.check_state(forged)
