"""T-7.3 and T-8 the end of a match, T-9 the end of the game, T-10 what a seat sees."""

import random

import pytest

from referee import conformance
from referee.engine import CHANCE
from referee.errors import GameOver, InvalidState
from threemagic.engine import perturb_hidden

from threemagic_helpers import (
    ENGINE, EXAMPLE, RON_2, RON_3, all_pass, all_pass_events, answer, discard, draw, drop_drawn,
    new_match, play, play_events, with_draw_pile,
)

QUIET_2 = ["R0", "B0", "G3*", "R4*", "B1", "G4*", "B4", "R3"]
QUIET_3 = ["B0", "R0", "G0", "G0", "B2*", "R2", "G3", "B1*"]


def test_T_7_3_T_8_3_a_zero_point_win_is_a_special_draw():
    state = new_match({1: EXAMPLE, 2: ["R0", "R1", "R2", "G2", "G3", "G4", "R3", "R4"],
                       3: ["B0", "B0", "G0", "G1*", "B2*", "G3*", "B1*", "B4"]})
    state = play(draw(state, "R0"), drop_drawn(1))  # seat 1 could tsumo; it declines
    assert answer(2, "ron", insert=8) in ENGINE.legal_moves(state, 2)
    state, events = play_events(play(state, answer(3)), answer(2, "ron", insert=8))
    assert state["last_match"]["end"] == "special_draw"
    assert state["last_match"]["score"]["base"] == 0
    assert state["od"] == [260, 270, 270] and state["pool"] == 10  # manager adds 10
    assert (state["manager"], state["match"]) == (1, 2)
    assert not any(e["type"] == "od_paid" for e in events)


def last_card_dropped(discard_move, hands=None, manager=None):
    hands = hands or {1: EXAMPLE, 2: QUIET_2, 3: QUIET_3}
    state = with_draw_pile(new_match(hands, manager=manager), 1, keep=["G4"])
    return all_pass_events(*play_events(draw(state, "G4"), discard_move))


def test_T_8_1_exhaustive_draw_tenpai_manager_stays_and_adds_10():
    state, events = last_card_dropped(drop_drawn(1))
    assert {"type": "exhaustive_draw", "manager": 1, "manager_tenpai": True} in events
    assert state["od"] == [260, 270, 270] and state["pool"] == 10
    assert (state["manager"], state["match"], state["phase"]) == (1, 2, "deal")


def test_T_8_1_exhaustive_draw_without_tenpai_the_next_seat_manages():
    state, _ = last_card_dropped(discard(1, 0, 3))  # G4 in front, B3 out: not tenpai
    assert state["last_match"] == {"match": 1, "end": "exhaustive_draw",
                                   "manager_tenpai": False, "field_to_pool": 0}
    assert state["od"] == [270, 270, 270] and state["manager"] == 2


def test_T_8_2_the_manager_rotates_when_another_seat_wins():
    state = new_match({1: EXAMPLE, 2: RON_2, 3: RON_3})
    state = play(draw(state, "G2"), drop_drawn(1))
    state = play(play(state, answer(2)), answer(3, "ron", insert=6))
    assert state["manager"] == 2 and state["turn"] == 2 and state["to_move"] == [CHANCE]


def test_T_9_1_the_game_ends_when_the_manager_returns_to_the_first():
    state, events = last_card_dropped(drop_drawn(3), manager=3)
    assert state["phase"] == "over" and state["to_move"] == []
    assert events[-1] == {"type": "game_over", "reason": "rotations", "od": [270, 270, 270]}
    with pytest.raises(GameOver) as caught:
        ENGINE.apply(state, {"type": "pass", "seat": 1})
    assert caught.value.rule == "T-9.1"
    state = with_draw_pile(new_match({1: EXAMPLE, 2: QUIET_2, 3: QUIET_3}, manager=3,
                                     options={"rotations": 2}), 1, keep=["G4"])
    state = all_pass(play(draw(state, "G4"), drop_drawn(3)))
    assert (state["phase"], state["manager"], state["rotations_done"]) == ("deal", 1, 1)


def test_T_9_2_ties_share_the_win():
    state, _ = last_card_dropped(drop_drawn(3), manager=3)
    board = ENGINE.score(state)
    assert board["final"] and board["winners"] == [1, 2, 3]
    assert [r["rank"] for r in board["ranking"]] == [1, 1, 1]


def test_T_9_1_a_seat_below_0_ends_the_game_at_once():
    state = new_match({1: EXAMPLE, 2: RON_2, 3: RON_3}, options={"starting_od": 50})
    state = play(draw(state, "G2"), drop_drawn(1))
    state, events = play_events(play(state, answer(2, "ron", insert=7)), answer(3))
    assert state["od"] == [-20, 120, 50] and state["phase"] == "over"
    assert events[-1]["reason"] == "bust"
    board = ENGINE.score(state)
    assert board["winners"] == [2] and [r["seat"] for r in board["ranking"]] == [2, 3, 1]
    assert board["scores"][0]["breakdown"]["change"] == -70


def test_T_10_2_a_seat_sees_its_own_hand_and_counts_of_the_rest():
    state = draw(new_match({1: EXAMPLE, 2: QUIET_2, 3: QUIET_3}), "R3*")
    own, other, public = (ENGINE.view(state, s) for s in (1, 2, None))
    assert own["hands"][0] == EXAMPLE and own["drawn"] == "R3*"
    assert own["hands"][1] == {"count": 8} and own["hands"][2] == {"count": 8}
    assert other["hands"][0] == {"count": 8} and other["drawn"] == "hidden"
    assert other["hands"][1] == QUIET_2
    assert all(h == {"count": 8} for h in public["hands"])
    assert (other["draw_pile"], other["unused"], other["indicators"]) == (29, 5, ["G1"])
    assert "rng" not in public


def test_T_10_2_events_and_log_moves_hide_other_seats_cards():
    state = new_match({1: EXAMPLE, 2: QUIET_2, 3: QUIET_3})
    move = {"type": "draw", "seat": CHANCE, "to": 1, "card": "R3*"}
    _, events = ENGINE.apply(state, move)
    assert ENGINE.view_events(events, 2)[0]["card"] == "hidden"
    assert ENGINE.view_events(events, 1)[0]["card"] == "R3*"
    assert ENGINE.view_move(move, 3)["card"] == "hidden"
    assert ENGINE.view_move(answer(2, "pon", cards=[0, 1]), 3) == {"type": "answer", "seat": 2}
    assert ENGINE.view_move(answer(2, "pon", cards=[0, 1]), 2)["cards"] == [0, 1]


def test_T_10_2_perturbing_what_a_seat_cannot_see_changes_nothing_it_sees():
    state = draw(new_match({1: EXAMPLE, 2: QUIET_2, 3: QUIET_3}), "R3*")
    rnd = random.Random(3)
    for seat in (None, 1, 2, 3):
        other = perturb_hidden(state, seat, rnd)
        ENGINE.check_state(other)
        assert ENGINE.view(other, seat) == ENGINE.view(state, seat)
        if seat:
            assert ENGINE.legal_moves(other, seat) == ENGINE.legal_moves(state, seat)
    assert perturb_hidden(state, 1, rnd)["hands"][0] == EXAMPLE


def test_T_9_1_random_digital_games_end_in_a_bounded_number_of_steps():
    for seed in (1, 2):
        result = conformance.play_random_game(ENGINE, 3, seed, "digital", deep=False,
                                              max_steps=5000)
        assert result.final["phase"] == "over" and result.score["winners"]


@pytest.mark.parametrize("edit", [
    lambda s: s["od"].__setitem__(0, 271),  # od is conserved with field and pool
    lambda s: s["hands"][0].__setitem__(0, "R5"),
    lambda s: s["hands"][1].__setitem__(0, "B3"),  # a 2nd B3: the deck has one
    lambda s: s.__setitem__("field", 10),
    lambda s: s.__setitem__("to_move", [2]),
    lambda s: s.__setitem__("draw_pile", 28),
    lambda s: s["hands"][2].pop(),
    lambda s: s.__setitem__("phase", "calls"),
    lambda s: s["riichi"].__setitem__(0, 1),
])
def test_T_1_2_forged_states_are_refused(edit):
    state = draw(new_match({1: EXAMPLE, 2: QUIET_2, 3: QUIET_3}), "R3*")
    ENGINE.check_state(state)
    edit(state)
    with pytest.raises(InvalidState):
        ENGINE.check_state(state)


def test_T_9_1_T_3_1_the_rotation_ends_at_the_fire_seat_whatever_its_number():
    """Seat 2 is fire, so the first manager: the game ends when seat 1 hands it back."""
    options = {"attributes": ["water", "fire", "wood"]}
    hands = {1: QUIET_3, 2: QUIET_2, 3: EXAMPLE}
    state = with_draw_pile(new_match(hands, options=options, manager=1), 1, keep=["G4"])
    state, events = all_pass_events(*play_events(draw(state, "G4"), drop_drawn(1)))
    assert state["last_match"]["manager_tenpai"] is False
    assert state["phase"] == "over" and events[-1]["reason"] == "rotations"
    state = with_draw_pile(new_match(hands, options=dict(options, rotations=2), manager=1), 1,
                           keep=["G4"])
    state = all_pass(play(draw(state, "G4"), drop_drawn(1)))
    assert (state["phase"], state["manager"], state["rotations_done"]) == ("deal", 2, 1)


def test_T_8_1_the_field_goes_to_the_pool_beside_the_tenpai_managers_10():
    """Seat 1 riichis (10 on the field) and is still tenpai when the draw pile runs out."""
    hands = {1: EXAMPLE, 2: QUIET_2, 3: QUIET_3}
    state = with_draw_pile(new_match(hands), 4, keep=["G4", "R4", "B4*", "B0", "G1*"])
    state = play(draw(state, "G4"), discard(1, 0, 0, riichi=True))
    state = all_pass(ENGINE.apply(state, {"type": "indicator", "seat": CHANCE,
                                          "card": "G1*"})[0])
    state = all_pass(play(draw(state, "R4"), drop_drawn(2)))
    state = all_pass(play(draw(state, "B4*"), drop_drawn(3)))
    assert state["field"] == 10 and state["draw_pile"] == 1
    state, events = all_pass_events(*play_events(draw(state, "B0"), drop_drawn(1)))
    assert {"type": "field_to_pool", "od": 10} in events
    assert state["last_match"]["manager_tenpai"] and state["last_match"]["field_to_pool"] == 10
    assert state["od"] == [250, 270, 270] and state["pool"] == 20 and state["field"] == 0
    assert state["manager"] == 1


def test_T_10_2_the_deal_shows_each_card_only_to_its_seat():
    state = ENGINE.new(3, mode="tabletop")
    move = {"type": "deal", "seat": CHANCE, "to": 1, "card": "R3*"}
    _, events = ENGINE.apply(state, move)
    assert events == [{"type": "card_dealt", "seat": 1, "card": "R3*"}]
    for seat in (None, 2, 3):
        assert ENGINE.view_events(events, seat)[0]["card"] == "hidden"
        assert ENGINE.view_move(move, seat)["card"] == "hidden"
    assert ENGINE.view_events(events, 1)[0]["card"] == "R3*"
    assert ENGINE.view_move(move, 1)["card"] == "R3*"
    digital, events = ENGINE.start(3, seed=7)
    dealt = [e for e in ENGINE.view_events(events, 2) if e["type"] == "card_dealt"]
    assert len(dealt) == 24 and {e["card"] for e in dealt if e["seat"] != 2} == {"hidden"}
    assert [e["card"] for e in dealt if e["seat"] == 2] == digital["hands"][1]
