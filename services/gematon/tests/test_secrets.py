"""GM-6: chance (digital and tabletop) and hidden information."""

import random

import pytest

from gematon.hidden import perturb_hidden
from referee.errors import BadRequest, IllegalMove

EXAMPLE = dict(stacks={1: [8, 2]}, hands={1: [4, 7]},
               altars={"w1": [1, 4], "w2": [7, 7], "w3": [2, 8], "black": [4, 5]})


def test_GM_6_1_draw_weights_are_the_chips_left_in_the_bag(table, engine):
    state = table.setup(**EXAMPLE)
    outcomes = engine.legal_moves(state)
    left = sum(state["bag"].values())
    for move in outcomes:
        assert move["p"] == pytest.approx(state["bag"][str(move["chip"])] / left)
    assert {m["chip"] for m in outcomes} == {v for v in (1, 2, 4, 5, 7, 8)
                                             if state["bag"][str(v)]}


def test_GM_6_1_tabletop_refuses_a_value_with_no_chip_left(table, engine):
    state = table.setup(stacks={1: [1, 1], 2: [1, 1]}, hands={1: [1, 1], 2: [1, 1]},
                        altars={"w1": [1, 2]})
    assert state["bag"]["1"] == 0
    assert 1 not in {m["chip"] for m in engine.legal_moves(state)}
    with pytest.raises(IllegalMove) as refused:
        engine.apply(state, {"type": "draw", "seat": "chance", "chip": 1, "into": "hand",
                             "holder": 1})
    assert refused.value.rule == "GM-6.1"
    assert "no chip 1" in refused.value.detail


def test_GM_6_1_digital_mode_plays_every_draw_itself(engine):
    state, events = engine.start(2, seed=42)
    assert state["to_move"] == [1] and state["rng"] is not None
    draws = [e for e in events if e["type"] == "chip_drawn"]
    assert len(draws) == 2 * 4 + 8 + 1  # the setup and seat 1's refill
    assert engine.start(2, seed=42) == (state, events)


def test_GM_6_2_views_hide_other_hands_and_the_bag(table, engine):
    state = table.refill(table.setup(players=3, **EXAMPLE), 5)
    view = engine.view(state, 1)
    assert view["seats"][0]["hand"] == [4, 5, 7]
    assert view["seats"][1]["hand"] == {"count": 2}
    assert view["seats"][2]["hand"] == {"count": 2}
    assert view["bag"] == {"count": sum(state["bag"].values())}
    # stacks, altars, pentacles, gauges, track and witches are public
    for key in ("altars", "witches", "turn"):
        assert view[key] == state[key]
    assert [s["stack"] for s in view["seats"]] == [s["stack"] for s in state["seats"]]
    public = engine.view(state)
    assert all(s["hand"] == {"count": len(t["hand"])}
               for s, t in zip(public["seats"], state["seats"]))


def test_GM_6_2_refill_chip_is_shown_to_its_drawer_only(table, engine):
    state = table.setup(players=2, **EXAMPLE)
    move = {"type": "draw", "seat": "chance", "chip": 5, "into": "hand", "holder": 1}
    _, events = engine.apply(state, move)
    assert engine.view_events(events, 1) == events
    hidden = [{"type": "chip_drawn", "into": "hand", "holder": 1}]
    assert engine.view_events(events, 2) == hidden
    assert engine.view_events(events, None) == hidden
    assert engine.view_move(move, 1) == move
    assert engine.view_move(move, 2) == {"type": "draw", "seat": "chance", "into": "hand",
                                         "holder": 1}
    altar = {"type": "draw", "seat": "chance", "chip": 5, "into": "altar", "holder": "w1"}
    assert engine.view_move(altar, 2) == altar  # altar and stack draws are public
    bare = {"type": "draw", "seat": "chance", "chip": 5}  # says not where it went
    assert engine.view_move(bare, 1) == {"type": "draw", "seat": "chance"}


def test_GM_6_1_a_draw_must_say_where_it_goes(table, engine):
    state = table.setup(players=2, **EXAMPLE)
    with pytest.raises(IllegalMove) as refused:
        engine.apply(state, {"type": "draw", "seat": "chance", "chip": 5})
    assert refused.value.rule == "GM-3.1"
    assert '"into": "hand", "holder": 1' in refused.value.detail


def test_GM_6_2_perturbing_hidden_chips_keeps_the_view(table, engine):
    state = table.refill(table.setup(players=4, **EXAMPLE), 5)
    rnd = random.Random(3)
    for seat in (None, 1, 2, 3, 4):
        changed = perturb_hidden(state, seat, rnd)
        engine.check_state(changed)
        assert engine.view(changed, seat) == engine.view(state, seat)
        if seat:
            assert engine.legal_moves(changed, seat) == engine.legal_moves(state, seat)
            assert changed["seats"][seat - 1]["hand"] == state["seats"][seat - 1]["hand"]


@pytest.mark.parametrize("stage, move, rule", [
    ("deal", {"type": "draw", "chip": 1, "into": "stack", "holder": 1}, "GM-2.1"),
    ("deal", {"type": "deal_witch", "witch": 1, "holder": 2}, "GM-2.1"),
    ("deal", {"type": "deal_witch", "witch": 7, "holder": 1}, "GM-2.1"),
    ("deal", {"type": "remove_witch", "witch": 1}, "GM-2.1"),
    ("draw", {"type": "deal_witch", "witch": 3, "holder": 1}, "GM-2.2"),
    ("draw", {"type": "draw", "chip": 1, "into": "stack", "holder": 2}, "GM-2.2"),
    ("draw", {"type": "draw", "chip": "1", "into": "stack", "holder": 1}, "GM-1.2"),
    ("refill", {"type": "roll", "chip": 1}, "GM-3.1"),
    ("refill", {"type": "draw", "chip": 1, "into": "stack", "holder": 1}, "GM-3.1"),
    ("refill", {"type": "draw", "chip": 9, "into": "hand", "holder": 1}, "GM-1.2"),
])
def test_GM_6_1_impossible_chance_entries_are_refused(table, engine, stage, move, rule):
    state = engine.new(2, mode="tabletop")
    if stage != "deal":
        state, _ = table.chance(state, witch=1)
        state, _ = table.chance(state, witch=2)
    if stage == "refill":
        state = table.setup(**EXAMPLE)
    with pytest.raises(IllegalMove) as refused:
        engine.apply(state, dict(move, seat="chance"))
    assert refused.value.rule == rule


def test_GM_6_2_setup_hand_draws_are_hidden_from_other_seats(engine):
    state, events = engine.start(3, seed=21)
    for seat in (1, 2, 3):
        seen = engine.view_events(events, seat)
        for event, shown in zip(events, seen):
            if event["type"] != "chip_drawn":
                assert shown == event
            elif event["into"] == "hand" and event["holder"] != seat:
                assert "chip" not in shown
            else:
                assert shown == event
    assert sum("chip" not in e for e in engine.view_events(events, 2)
               if e["type"] == "chip_drawn") == 2 * 2 + 1  # seats 1 and 3, and the refill


def test_GM_6_2_a_draws_p_counts_the_bag_and_is_shown_to_nobody(table, engine):
    """The bag holds what the hidden hands lack: the p of seat 1's refill differs between
    two tables that differ only in seat 2's hand, so no reader is shown it, the drawer
    included (issue 27); a witch's p counts the free witches, which everyone sees."""
    laid = dict(stacks={1: [8, 2], 2: [8, 2]}, altars=EXAMPLE["altars"])
    tables = [table.setup(players=2, hands={1: [1, 2], 2: hand}, **laid)
              for hand in ([4, 4], [5, 7])]
    refill = {"type": "draw", "seat": "chance", "chip": 5, "into": "hand", "holder": 1}
    records = [engine.step(state, refill)[2] for state in tables]
    assert records[0]["p"] != records[1]["p"]  # the referee's own record keeps the truth
    assert engine.view_move(records[0], 1) == engine.view_move(records[1], 1) == refill
    for reader in (None, 2):
        assert engine.view_move(records[0], reader) == engine.view_move(records[1], reader)
    listed = engine.legal_moves(tables[0])
    assert listed and all("p" in m for m in listed)  # for the holder of the whole state
    assert all("p" not in m for m in engine.view_listing(tables[0], listed, None))
    witch = {"type": "deal_witch", "seat": "chance", "witch": 3, "holder": 1, "p": 0.2}
    assert engine.view_move(witch, 2) == witch
    assert engine.view_listing(tables[0], [witch], None) == [witch]
    with pytest.raises(BadRequest):  # a seat the table lacks
        engine.view_listing(tables[0], listed, 3)
