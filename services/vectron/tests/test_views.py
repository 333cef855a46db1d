"""V-7 chance and hidden information, V-8 the move JSON; forged states."""

import random

import pytest

from referee.engine import CHANCE
from referee.errors import InvalidState
from vectron.engine import Vectron, perturb_hidden
from vectron.scoring import settlement_points

ENGINE = Vectron()


# ---------------------------------------------------------------- V-7
def test_V_7_1_card_draws_weighted_by_copies_left(table):
    state = table.play(table.dealt(2, hands=[["S", "S"], ["S", "S"]]),
                       {"type": "draw", "seat": 1, "source": "deck"})
    listed = ENGINE.legal_moves(state)
    assert {m["card"]: m["p"] for m in listed} == pytest.approx(
        {"O1": 3 / 20, "O2": 3 / 20, "O3": 3 / 20, "D1": 3 / 20, "D2": 3 / 20, "D3": 3 / 20,
         "S": 2 / 20})
    assert all(m["type"] == "card" and m["seat"] == CHANCE for m in listed)


def test_V_7_1_a_card_with_no_copy_left_is_refused(table):
    state = table.dealt(2, hands=[["S", "S"], ["S", "S"]])
    state = table.arrange(state, columns=[["S", "S"], []], hands=[["S", "S"], ["S", "S"]])
    state = table.play(state, {"type": "draw", "seat": 1, "source": "deck"})
    assert "S" not in state["deck"]
    assert table.refused(state, table.card("S")).rule == "V-7.1"
    assert table.refused(state, {"type": "layout", "seat": CHANCE, "cells": {}}).rule == "V-8"


def test_V_7_1_digital_mode_plays_chance_itself(table):
    """V-7 chance: a digital game never waits for the layout or a card."""
    state = ENGINE.new(3, seed=11)
    assert state["to_move"] == [1] and state["grid"] is not None
    state = table.play(state, {"type": "draw", "seat": 1, "source": "deck"})
    assert state["to_move"] == [1] and len(state["hands"][0]) == 3
    assert ENGINE.new(3, seed=11) == ENGINE.new(3, seed=11)


def test_V_7_2_views_hide_hands_and_deck_order(table):
    state = table.arrange(table.dealt(3), columns=[["S"], [], ["D3"]],
                          hands=[["O1", "O2"], ["D1", "O3"], ["D2", "S"]])
    view = ENGINE.view(state, 2)
    assert view["hands"] == [{"count": 2}, ["D1", "O3"], {"count": 2}]
    assert view["deck"] == {"count": len(state["deck"])} and "rng" not in view
    assert view["columns"] == [["S"], [], ["D3"]]
    for key in ("grid", "held", "gauges", "scores", "fallen"):
        assert view[key] == state[key]
    public = ENGINE.view(state)
    assert public["hands"] == [{"count": 2}] * 3


def test_V_7_2_events_and_moves_show_drawn_cards_only_to_their_owner(table):
    state = table.play(table.dealt(2), {"type": "draw", "seat": 1, "source": "deck"})
    move = table.card("D3")
    events = ENGINE.apply(state, move)[1]
    assert ENGINE.view_events(events, 1) == [
        {"type": "card_drawn", "seat": 1, "source": "deck", "card": "D3"}]
    assert ENGINE.view_events(events, 2) == [{"type": "card_drawn", "seat": 1, "source": "deck"}]
    assert "card" not in ENGINE.view_move(move, 2) and "card" not in ENGINE.view_move(move)
    taken = [{"type": "card_drawn", "seat": 1, "source": 2, "card": "O3"}]
    assert ENGINE.view_events(taken, 2) == taken  # a column's top is public


def test_V_7_2_perturbing_hidden_cards_changes_no_view(table):
    state = table.arrange(table.dealt(3), columns=[["S"], [], []])
    rnd = random.Random(4)
    for seat in (None, 1, 2, 3):
        variant = perturb_hidden(state, seat, rnd)
        ENGINE.check_state(variant)
        assert ENGINE.view(variant, seat) == ENGINE.view(state, seat)
        if seat:
            assert variant["hands"][seat - 1] == state["hands"][seat - 1]


# ---------------------------------------------------------------- V-8
def test_V_8_move_json_shapes(table):
    """V-8: the moves a client sends are exactly the ones legal-moves lists."""
    state = table.arrange(table.dealt(2), columns=[[], ["S"]])
    assert ENGINE.legal_moves(state) == [{"type": "draw", "seat": 1, "source": "deck"},
                                         {"type": "draw", "seat": 1, "source": 2}]
    assert ENGINE.legal_moves(state, 2) == []
    assert table.refused(state, {"type": "jump", "seat": 1}).rule == "V-8"
    assert table.refused(state, {"type": "draw", "seat": 1, "source": "deck", "x": 1}).rule == "V-8"
    moving_state = table.moving(2, {"b2": "seat1"}, column=["O1", "D1"])
    moving_state = table.play(moving_state, {"type": "move", "seat": 1, "to": "a1"})
    assert ENGINE.legal_moves(moving_state)[-1] == {"type": "stop", "seat": 1}
    assert table.refused(moving_state, {"type": "stop", "seat": 1, "now": True}).rule == "V-8"


def test_V_8_refusals_read_as_sentences(table):
    """V-8: a refusal's detail is English, never a Python list or string repr."""
    drawing = table.arrange(table.dealt(2), columns=[[], ["S"]])
    moving = table.moving(2, {"b2": "seat1", "a1": "swap"}, column=["S", "D1"])
    swapping = table.play(moving, {"type": "move", "seat": 1, "to": "a1"})
    layout = ENGINE.new(2, mode="tabletop")
    refusals = [
        (drawing, {"type": "jump", "seat": 1}, "unknown move type \"jump\": a move is a draw, "
                                               "move, place or stop"),
        (drawing, {"type": "draw", "seat": 1, "source": "deck", "x": 1},
         "a draw move has exactly the fields seat, source and type, not x"),
        (moving, {"type": "move", "seat": 1, "to": "d4"},
         "D1 from b2 reaches a1, a3, c1 or c3 (walls kick back), not d4"),
        (swapping, {"type": "move", "seat": 1, "to": "d4"}, "an S card goes to a swap chip's cell"),
        (layout, {"type": "layout", "seat": CHANCE, "cells": dict.fromkeys(
            ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2", "a3", "b3", "c3", "d3", "a4", "b4",
             "c4", "d4"], "gate")}, "missing seat1, seat2, star1"),
    ]
    for state, move, words in refusals:
        detail = table.refused(state, move).detail
        assert words in detail and "['" not in detail and " '" not in detail
    with pytest.raises(InvalidState) as caught:
        ENGINE.check_state(dict(drawing, phase="dance"))
    assert caught.value.detail == ("phase must be one of layout, deal, deck_draw, forced_draw, "
                                   "draw, place, move or over")


# ---------------------------------------------------------- forged states
def forged_variants(state):
    yield dict(state, phase="dance")
    yield dict(state, held=["swap", "star2"])
    yield dict(state, hands=[["O1"], state["hands"][1]])
    yield dict(state, gauges=[7, 0])
    yield dict(state, scores=[1, 0])
    yield dict(state, cursor=9)
    yield dict(state, to_move=[2])
    yield dict(state, deck=list(reversed(state["deck"])))
    yield dict(state, grid=dict(state["grid"], a1="seat1", b2="seat1"))
    yield dict(state, fallen=[True, False])
    yield dict(state, settlements=[{"gauges": [7, 0], "points": [6, 0]}], scores=[6, 0])
    yield {k: v for k, v in state.items() if k != "cursor"}


def test_V_1_forged_states_are_refused(table):
    """V-1 components are conserved: every forgery of a position is an InvalidState."""
    state = table.moving(2, {"b2": "seat1"}, column=["O1", "D1"])
    ENGINE.check_state(state)
    for forged in forged_variants(state):
        with pytest.raises(InvalidState):
            ENGINE.legal_moves(forged)


def test_V_6_forged_settlement_history_is_refused(table):
    """V-6 settlement history: scores must be the sum of settlements that follow V-6.2."""
    state = table.moving(2, {"b2": "seat1"}, column=["D1"])
    good = [{"gauges": [7, 2], "points": [5, 0]}]
    ENGINE.check_state(dict(state, settlements=good, scores=[5, 0]))
    with pytest.raises(InvalidState):
        ENGINE.check_state(dict(state, settlements=[{"gauges": [7, 2], "points": [4, 0]}],
                                scores=[4, 0]))


def test_V_4_6_forged_gauges_no_turn_can_reach_are_refused(table):
    """V-4.6: a settled gauge is at most 9 and only one is 7 or more; a finished game
    keeps the gauges of the settlement that ended it (decision 10)."""
    state = table.moving(2, {"b2": "seat1"}, column=["D1"])
    for gauges in ([10, 8], [12, 0], [7, 7]):
        forged = [{"gauges": gauges, "points": settlement_points(gauges)}]
        with pytest.raises(InvalidState):
            ENGINE.check_state(dict(state, settlements=forged, scores=forged[0]["points"]))
    ended = [{"gauges": [9, 2], "points": [7, 0]}]
    over = dict(state, phase="over", to_move=[], cursor=None, settlements=ended, scores=[7, 0])
    ENGINE.check_state(dict(over, gauges=[9, 2]))
    for gauges in ([50, 1], [0, 0], [9, 3]):
        with pytest.raises(InvalidState):
            ENGINE.check_state(dict(over, gauges=gauges))


def test_V_3_and_V_4_a_whole_turn_through_the_api(table):
    """V-3 draw and place, then V-4 moves down the column until the seat stops."""
    state = table.dealt(2, placed={"b2": "seat1"}, hands=[["O1", "D2"], ["S", "S"]])
    state = table.arrange(state, columns=[["O1", "O3"], []])
    state = table.play(state, {"type": "draw", "seat": 1, "source": 1},
                       {"type": "place", "seat": 1, "card": "D2"},
                       {"type": "move", "seat": 1, "to": "b2"},
                       {"type": "stop", "seat": 1})
    assert state["columns"][0] == ["O1", "D2"] and state["hands"][0] == ["O1", "O3"]
    assert state["to_move"] == [2]


def test_V_7_2_a_cards_p_is_shown_to_nobody(table):
    """A card's p is its share of the deck, which the hidden hands' cards are not (issue
    27): no reader's log and not the table's listing shows it."""
    state = table.play(table.dealt(2, hands=[["S", "S"], ["S", "S"]]),
                       {"type": "draw", "seat": 1, "source": "deck"})
    move = ENGINE.legal_moves(state)[0]
    bare = {k: v for k, v in move.items() if k != "p"}
    record = ENGINE.step(state, bare)[2]
    assert record["p"] == move["p"]
    assert all("p" not in ENGINE.view_move(record, reader) for reader in (None, 1, 2))
    assert ENGINE.view_listing(state, [move], None) == [bare]
