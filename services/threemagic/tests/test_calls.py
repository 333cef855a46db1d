"""T-5 the call window: ron, pon, chi, pass; priority, costs, limits, skipped seats."""

from referee.errors import NotYourTurn
from threemagic import refusals

from threemagic_helpers import (
    ENGINE, EXAMPLE, RON_2, RON_3, all_pass, answer, chance, discard, draw, drop_drawn, legal,
    new_match, play, play_events, refused, with_draw_pile,
)

QUIET_2 = ["R0", "B0", "G3*", "R4*", "B1", "G4*", "B4", "R3"]
PON_3 = ["B2*", "R0", "G0", "G0", "B2*", "R2", "G3", "B1*"]


def b2_discarded(**kwargs):
    """Seat 1 drops a drawn B2*: seat 2 may chi it (B0 B1), seat 3 may pon it."""
    state = new_match({1: EXAMPLE, 2: QUIET_2, 3: PON_3}, **kwargs)
    return play(draw(state, "B2*"), drop_drawn(1))


def g2_discarded():
    """Seat 1 drops a drawn G2: seats 2 and 3 may both ron, seat 2 may also chi."""
    state = new_match({1: EXAMPLE, 2: RON_2, 3: RON_3})
    return play(draw(state, "G2"), drop_drawn(1))


def test_T_5_1_every_seat_with_a_call_answers_each_leaves_to_move():
    state = b2_discarded()
    assert state["phase"] == "calls" and state["to_move"] == [2, 3]
    assert legal(state, 2) == [answer(2), answer(2, "chi", cards=[1, 4])]
    assert legal(state, 3) == [answer(3), answer(3, "pon", cards=[0, 4])]
    state, events = play_events(state, answer(2, "chi", cards=[1, 4]))
    assert state["to_move"] == [3] and events == [{"type": "answered", "seat": 2}]
    assert ENGINE.view(state, 3)["window"]["answers"] == [{"seat": 2}]  # sealed until resolved
    assert ENGINE.view(state, 2)["window"]["answers"] == [answer(2, "chi", cards=[1, 4])]
    try:
        ENGINE.apply(state, answer(2))
        raise AssertionError("a seat answers once")
    except NotYourTurn:
        pass


def test_T_5_1_a_seat_with_nothing_but_pass_is_asked_when_the_table_cannot_tell():
    """Referee decision 6: who is asked follows from what the table sees, not the hands."""
    state = new_match({1: EXAMPLE, 2: QUIET_2, 3: PON_3})
    state = play(draw(state, "G4"), discard(1, 3, 0))  # R1*: only seat 2 could chi, cannot
    assert state["phase"] == "calls" and state["to_move"] == [2, 3]
    assert legal(state, 2) == [answer(2)] and legal(state, 3) == [answer(3)]
    assert refused(state, answer(2, "chi", cards=[0, 4])) == "T-5.3"
    state = all_pass(state)
    assert state["phase"] == "draw" and state["turn"] == 2


NO_RED = {1: ["B0", "B0", "B1", "B1*", "B2", "B2*", "B3", "B3*"],
          2: ["G0", "G0", "G1", "G1*", "G2", "G2*", "G3", "G3*"],
          3: ["B4", "B4*", "G4", "G4*", "B0", "G0", "B1*", "G1*"]}


def test_T_5_1_no_window_when_the_table_rules_out_every_call():
    """No hand holds a red card and every other red card lies face up: nobody can ron,
    pon or chi a red discard, as everyone can tell, so no window opens for it."""
    state = new_match(NO_RED, indicator="B2*")
    state = with_draw_pile(state, 2, keep=["R4", "B4*"])  # 19 red cards laid face up
    assert sum(card[0] == "R" for card in state["discards"][2]) == 19
    state = play(draw(state, "R4"), drop_drawn(1))
    assert (state["phase"], state["turn"]) == ("draw", 2)
    state = play(draw(state, "B4*"), drop_drawn(2))  # a blue card: the window opens
    assert state["phase"] == "calls" and state["to_move"] == [3, 1]


def test_T_5_1_chi_only_from_the_left_player():
    state = b2_discarded()
    assert not any(m["type"] == "chi" for m in legal(state, 3))  # seat 3 has B1* and B2*…
    assert refused(state, answer(3, "chi", cards=[0, 7])) == "T-5.1"


def test_T_5_2_pon_beats_chi_and_T_5_3_T_5_4_the_spell_is_laid_and_paid():
    state = play(play(b2_discarded(), answer(2, "chi", cards=[1, 4])),
                 answer(3, "pon", cards=[0, 4]))
    assert state["called"][2] == [["B2*", "B2*", "B2*"]]
    assert state["hands"][2] == ["R0", "G0", "G0", "R2", "G3", "B1*"]
    assert state["discards"][0] == []  # the caller took the discard
    assert state["od"][2] == 240 and state["field"] == 30  # 1st call, not wood: 30
    assert (state["phase"], state["to_move"]) == ("call_discard", [3])


def test_T_5_3_chi_reads_in_hand_order_own_attribute_costs_10():
    state = play(play(b2_discarded(), answer(2, "chi", cards=[1, 4])), answer(3))
    assert state["called"][1] == [["B0", "B1", "B2*"]]
    assert state["od"][1] == 260 and state["field"] == 10  # water seat, water spell


def test_T_5_6_the_caller_discards_then_the_seat_after_it_plays():
    state = play(play(b2_discarded(), answer(2)), answer(3, "pon", cards=[0, 4]))
    assert legal(state) == [discard(3, None, j) for j in range(6)]
    assert refused(state, discard(3, 0, 0)) == "T-5.6"
    assert refused(state, discard(3, None, 0, riichi=True)) == "T-5.5"
    state = all_pass(play(state, discard(3, None, 5)))  # B1*: nobody can take it
    assert (state["phase"], state["turn"]) == ("draw", 1)  # seat 2 is skipped


def test_T_5_4_a_seat_that_cannot_pay_may_not_call():
    state = b2_discarded(options={"starting_od": 20})
    assert state["to_move"] == [2, 3] and legal(state, 3) == [answer(3)]  # a pon costs 30
    assert refused(state, answer(3, "pon", cards=[0, 4])) == "T-5.4"


def second_pon():
    """Seat 3 pons B2* (30), then G0 as its 2nd call (wood: 30), keeping R0 R2."""
    state = play(play(b2_discarded(), answer(2)), answer(3, "pon", cards=[0, 4]))
    state = all_pass(play(state, discard(3, None, 5)))
    state = play(draw(state, "G0"), drop_drawn(1))
    assert state["to_move"] == [2, 3]  # seat 2 may chi G3* G4* + G0 (340)
    state = play(play(state, answer(2)), answer(3, "pon", cards=[1, 2]))
    return play(state, discard(3, None, 2))  # G3; seat 1 may chi it, and passes


def test_T_5_4_second_call_costs_and_the_limit_of_two():
    state = second_pon()
    assert state["called"][2] == [["B2*", "B2*", "B2*"], ["G0", "G0", "G0"]]
    assert state["od"][2] == 270 - 30 - 30 and state["field"] == 60
    assert state["to_move"] == [1, 2] and legal(state, 1)[1]["type"] == "chi"
    state = all_pass(state)
    state = all_pass(play(draw(state, "B4*"), drop_drawn(1)))
    state = play(draw(state, "R1"), drop_drawn(2))  # seat 3 would chi R0 R2 + R1: at its limit
    assert state["to_move"] == [3, 1]
    assert legal(state, 3) == [answer(3), answer(3, "ron", insert=1)]
    assert refused(state, answer(3, "chi", cards=[0, 1])) == "T-5.4"


def test_T_5_5_a_caller_wins_without_the_pool_and_T_7_4_field_to_pool():
    state = second_pon()
    state = dict(state, od=[230] + state["od"][1:], pool=40)  # a pool left by earlier matches
    ENGINE.check_state(state)
    state = all_pass(state)
    state = all_pass(play(draw(state, "B4*"), drop_drawn(1)))
    state = play(play(draw(state, "R1"), drop_drawn(2)), answer(1))
    state = play(state, answer(3, "ron", insert=1))
    last = state["last_match"]
    assert last["end"] == "ron" and last["score"]["total"] == 20  # wood 10 + B2*×3 stars 10
    assert last["settlement"]["pool_taken"] == 0 and last["settlement"]["field_to_pool"] == 60
    assert state["pool"] == 100 and state["field"] == 0
    assert state["od"] == [230, 250, 230] and state["manager"] == 2


def test_T_5_2_ron_first_and_between_two_rons_the_first_after_the_discarder():
    state = g2_discarded()
    assert state["to_move"] == [2, 3]
    assert answer(2, "ron", insert=7) in legal(state, 2)
    assert answer(3, "ron", insert=6) in legal(state, 3)
    state = play(play(state, answer(3, "ron", insert=6)), answer(2, "ron", insert=7))
    last = state["last_match"]
    assert last["winner"] == 2 and last["discarder"] == 1
    # fire discarded: water spells count (B1*B2*B3* → 10), 123 twice → 40, stars 10, G2 10
    assert last["score"]["total"] == 70
    assert state["od"] == [200, 340, 270] and state["manager"] == 2  # T-8.2


def test_T_5_2_ron_beats_an_earlier_seats_chi():
    state = play(play(g2_discarded(), answer(2, "chi", cards=[6, 7])),
                 answer(3, "ron", insert=6))
    assert state["last_match"]["winner"] == 3 and state["od"] == [240, 270, 300]


def test_T_5_7_no_pon_or_chi_on_the_discard_made_with_the_draw_pile_empty():
    state = new_match({1: EXAMPLE, 2: RON_2, 3: RON_3})
    state = play(draw(with_draw_pile(state, 1, keep=["G2"]), "G2"), drop_drawn(1))
    assert state["draw_pile"] == 0 and state["to_move"] == [2, 3]
    assert legal(state, 2) == [answer(2), answer(2, "ron", insert=7)]
    assert refused(state, answer(2, "chi", cards=[6, 7])) == "T-5.7"
    state = play(play(state, answer(2)), answer(3))
    assert state["last_match"]["end"] == "exhaustive_draw"


def test_T_5_8_a_call_on_the_riichi_discard_leaves_the_stake():
    state = new_match({1: EXAMPLE, 2: QUIET_2, 3: PON_3})
    state = play(draw(state, "B2*"), discard(1, 0, 0, riichi=True))
    state = chance(state, {"type": "indicator", "card": "R0"})
    assert state["to_move"] == [2, 3]
    state = play(play(state, answer(2)), answer(3, "pon", cards=[0, 4]))
    assert state["field"] == 40 and state["riichi"][0] and state["discards"][0] == []
    assert state["od"] == [260, 270, 240]


def test_T_6_3_a_riichi_seat_may_ron_but_not_call():
    state = new_match({1: ["R0", "G0", "G0", "B0", "B4*", "R1", "R4", "G3"], 2: EXAMPLE,
                       3: QUIET_2})
    state = all_pass(play(draw(state, "G4"), drop_drawn(1)))
    state = play(draw(state, "B4*"), discard(2, 0, 0, riichi=True))  # seat 2 keeps EXAMPLE
    state = all_pass(chance(state, {"type": "indicator", "card": "B1*"}))
    state = all_pass(play(draw(state, "B2"), drop_drawn(3)))
    state = play(draw(state, "B3*"), drop_drawn(1))  # seat 2 holds B3* B3*: no pon in riichi
    assert legal(state, 2) == [answer(2)]
    assert refused(state, answer(2, "pon", cards=[3, 4])) == "T-6.3"
    state = all_pass(state)
    assert (state["phase"], state["turn"]) == ("draw", 2)
    state = all_pass(play(draw(state, "G1*"), drop_drawn(2)))
    state = play(draw(state, "R3*"), drop_drawn(3))
    assert state["to_move"] == [1, 2]  # seat 1 may chi R0 R4 + R3 (043)
    assert legal(state, 2) == [answer(2), answer(2, "ron", insert=2)]
    assert refusals.why_illegal(state, answer(2, "pon", cards=[3, 4]))[0] == "T-6.3"
    state = play(play(state, answer(1)), answer(2, "ron", insert=2))
    last = state["last_match"]
    assert last["winner"] == 2 and last["score"]["total"] == 30  # fire 10, stars 10, G2 10
    assert [i["indicator"] for i in last["score"]["catalyst"]["indicators"]] == ["G1", "B1*"]
    assert state["od"] == [270, 300, 240] and state["pool"] == 0


def test_T_7_4_a_winner_who_made_no_call_takes_the_pool():
    state = new_match({1: EXAMPLE, 2: RON_2, 3: RON_3})
    state = dict(state, od=[270, 270, 230], pool=40)  # a pool left by earlier matches
    ENGINE.check_state(state)
    state = play(draw(state, "G2"), drop_drawn(1))
    state = play(play(state, answer(2, "ron", insert=7)), answer(3))
    assert state["last_match"]["settlement"]["pool_taken"] == 40
    assert state["od"] == [200, 380, 230] and state["pool"] == 0


def test_T_5_2_ron_beats_an_earlier_seats_pon():
    """Seat 2 may pon the G2 seat 1 drops, seat 3 may ron it: the ron wins either way round."""
    pon_2 = ["G2*", "R0", "B0", "G2*", "R4*", "B1", "G4*", "B4"]
    start = play(draw(new_match({1: EXAMPLE, 2: pon_2, 3: RON_3}), "G2"), drop_drawn(1))
    assert start["to_move"] == [2, 3]
    assert answer(2, "pon", cards=[0, 3]) in legal(start, 2)
    for first, second in ((answer(2, "pon", cards=[0, 3]), answer(3, "ron", insert=6)),
                          (answer(3, "ron", insert=6), answer(2, "pon", cards=[0, 3]))):
        state = play(play(start, first), second)
        assert state["last_match"]["end"] == "ron" and state["last_match"]["winner"] == 3
        assert state["called"] == [[], [], []] and state["od"][1] == 270


def test_T_5_4_a_second_call_of_another_attribute_costs_90():
    """Seat 3 (wood) pons B2* for 30, then chis R1 from seat 2 (fire) for 90."""
    state = play(play(b2_discarded(), answer(2)), answer(3, "pon", cards=[0, 4]))
    state = all_pass(play(state, discard(3, None, 5)))
    state = all_pass(play(draw(state, "B4*"), drop_drawn(1)))
    state = play(draw(state, "R1"), drop_drawn(2))
    assert legal(state, 3) == [answer(3), answer(3, "chi", cards=[0, 3])]
    state, events = play_events(play(state, answer(1)), answer(3, "chi", cards=[0, 3]))
    assert events[-1]["cost"] == 90 and state["called"][2][1] == ["R0", "R1", "R2"]
    assert state["od"][2] == 270 - 30 - 90 and state["field"] == 120
    low = b2_discarded(options={"starting_od": 100})
    low = play(play(play(low, answer(2)), answer(3, "pon", cards=[0, 4])), discard(3, None, 5))
    low = all_pass(play(draw(all_pass(low), "B4*"), drop_drawn(1)))
    low = play(draw(low, "R1"), drop_drawn(2))
    assert low["od"][2] == 70 and legal(low, 3) == [answer(3)]  # 90 > 70
    assert refused(low, answer(3, "chi", cards=[0, 3])) == "T-5.4"


def test_T_7_2_ron_counts_the_spells_of_the_attribute_the_discarder_is_weak_to():
    """The wood seat rons the fire seat: its two water spells count (30), not its wood one."""
    hand_3 = ["B0", "B0", "B0", "B1*", "B2*", "B3*", "G3*", "G4*"]
    state = play(draw(new_match({1: EXAMPLE, 2: QUIET_2, 3: hand_3}), "G2"), drop_drawn(1))
    state = play(play(state, answer(2)), answer(3, "ron", insert=6))
    score = state["last_match"]["score"]
    assert score["attribute"] == {"attribute": "water", "spells": 2, "points": 30}
    # water 30, B1* B2* B3* starred 10, catalyst G2 (indicator G1) 10
    assert score["total"] == 50 and state["od"] == [220, 270, 320]
