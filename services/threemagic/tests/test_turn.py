"""T-1 setup and options, T-3 the match and its deal, T-4 a turn, T-6 riichi, T-10.1 chance."""

import pytest

from referee.engine import CHANCE
from referee.errors import InvalidOptions, InvalidPlayers

from threemagic_helpers import (
    ENGINE, EXAMPLE, RON_2, all_pass, answer, chance, discard, draw, drop_drawn, legal, new_match,
    play, play_events, refused, with_draw_pile,
)

QUIET_2 = ["R0", "B0", "G3*", "R4*", "B1", "G4*", "B4", "R3"]
QUIET_3 = ["B0", "R0", "G0", "G0", "B2*", "R2", "G3", "B1*"]


def example_match(**kwargs):
    return new_match({1: EXAMPLE, 2: QUIET_2, 3: QUIET_3}, **kwargs)


def test_T_1_1_exactly_three_players_with_an_attribute_each():
    for players in (2, 4):
        with pytest.raises(InvalidPlayers) as caught:
            ENGINE.new(players)
        assert caught.value.extra["rule"] == "T-1.1"
    assert ENGINE.new(3)["options"]["attributes"] == ["fire", "water", "wood"]
    for bad in (["fire", "fire", "wood"], ["fire", "water"], "fire", ["fire", "water", "air"]):
        with pytest.raises(InvalidOptions):
            ENGINE.new(3, options={"attributes": bad})


def test_T_1_3_each_seat_starts_with_270_od_an_option():
    assert ENGINE.new(3)["od"] == [270, 270, 270]
    assert ENGINE.new(3, options={"starting_od": 100})["od"] == [100] * 3
    for bad in (-1, "270", 1.5, True):
        with pytest.raises(InvalidOptions):
            ENGINE.new(3, options={"starting_od": bad})


def test_T_3_1_the_fire_seat_manages_the_first_match():
    assert ENGINE.new(3)["manager"] == 1
    state = ENGINE.new(3, mode="tabletop", options={"attributes": ["water", "fire", "wood"]})
    assert state["manager"] == 2
    assert {m["to"] for m in ENGINE.legal_moves(state)} == {2}  # the deal starts there


def test_T_3_3_deal_eight_in_a_fixed_order_unused_pile_and_indicator():
    state = ENGINE.new(3, mode="tabletop")
    assert state["to_move"] == [CHANCE] and state["phase"] == "deal"
    recipients = []
    for _ in range(6):
        moves = ENGINE.legal_moves(state)
        recipients.append(moves[0]["to"])
        state = chance(state, {"type": "deal", "to": moves[0]["to"], "card": "R0"
                               if recipients.count(moves[0]["to"]) == 1 else "B0"})
    assert recipients == [1, 2, 3, 1, 2, 3]  # round from the manager
    assert state["hands"][0] == ["R0", "B0"]  # dealt order is hand order
    state = example_match()
    assert state["hands"][0] == EXAMPLE and state["indicators"] == ["G1"]
    assert (state["draw_pile"], state["unused"], state["phase"]) == (30, 5, "draw")
    state = example_match(options={"unused_cards": 9})
    assert (state["draw_pile"], state["unused"]) == (27, 8)
    with pytest.raises(InvalidOptions):
        ENGINE.new(3, options={"unused_cards": 0})


def test_T_10_1_chance_outcomes_are_unseen_kinds_weighted_by_copies_left():
    state = example_match()
    moves = ENGINE.legal_moves(state)
    assert all(m["type"] == "draw" and m["to"] == 1 for m in moves)
    p = {m["card"]: m["p"] for m in moves}
    assert "B3" not in p  # its only copy is in seat 1's hand
    assert p["B3*"] == pytest.approx(1 / 35) and p["R1*"] == pytest.approx(2 / 35)
    assert sum(p.values()) == pytest.approx(1)
    assert refused(state, {"type": "draw", "seat": CHANCE, "to": 1, "card": "B3"}) == "T-10.1"
    assert refused(state, {"type": "draw", "seat": CHANCE, "to": 1, "card": "B5"}) == "T-1.2"


def test_T_4_1_the_draw_and_T_4_2_tsumo_worked_example():
    state = draw(example_match(), "R3*")
    assert state["drawn"] == "R3*" and state["draw_pile"] == 29 and state["to_move"] == [1]
    assert {"type": "tsumo", "seat": 1, "insert": 2} in legal(state)
    assert refused(state, {"type": "tsumo", "seat": 1, "insert": 3}) == "T-4.2"
    state, events = play_events(state, {"type": "tsumo", "seat": 1, "insert": 2})
    measured = next(e for e in events if e["type"] == "magic_measured")
    assert measured["score"]["total"] == 30 and measured["score"]["spells"][0] == [
        "R1*", "R2*", "R3*"]
    assert state["od"] == [300, 255, 255]
    assert state["last_match"]["settlement"]["payments"] == [
        {"seat": 2, "pays": 15}, {"seat": 3, "pays": 15}]
    assert (state["manager"], state["match"], state["phase"]) == (1, 2, "deal")  # T-8.2


def test_T_4_2_declining_tsumo_is_allowed():
    state = draw(example_match(), "R3*")
    assert drop_drawn(1) in legal(state)
    assert play(state, drop_drawn(1))["discards"][0] == ["R3*"]


def test_T_4_3_insert_anywhere_then_remove_any_card_order_kept():
    state = draw(example_match(), "G4")
    state, events = play_events(state, discard(1, 3, 0))
    assert state["hands"][0] == ["R2*", "B3", "G4", "B3*", "B3*", "G0", "G1*", "G2*"]
    assert events[0] == {"type": "card_discarded", "seat": 1, "card": "R1*", "insert": 3,
                         "remove": 0}
    state = draw(example_match(), "G4")
    assert refused(state, discard(1, 9, 0)) == "T-4.3"
    assert refused(state, discard(1, 0, "x")) == "T-4.3"
    assert refused(state, {"type": "pon", "seat": 1, "cards": [2, 3]}) == "T-5.1"


def outcome(hand, drawn, insert, remove):
    """What a discard leaves: the hand kept and the card discarded."""
    full = hand[:insert] + [drawn] + hand[insert:]
    return tuple(full[:remove] + full[remove + 1:]), full[remove]


def test_T_4_3_each_distinct_discard_is_listed_once():
    """Issue 16: the 81 spellings of 9 insert places × 9 removals make 65 discards — the drawn
    card dropped (any insert = remove), or one of the 8 hand cards out and the drawn card in
    one of 8 places. Each is listed once; another spelling of it is refused under T-4.3."""
    hand = QUIET_2  # 8 different cards, and R1 is none of them: outcomes are told by content
    state = draw(new_match({1: hand, 2: EXAMPLE, 3: QUIET_3}), "R1")
    listed = [(m["insert"], m["remove"]) for m in legal(state) if m["type"] == "discard"]
    assert len(listed) == 65 == 1 + 8 * 8
    assert len({outcome(hand, "R1", i, j) for i, j in listed}) == 65  # no outcome twice
    every = {(i, j) for i in range(9) for j in range(9)}
    assert {outcome(hand, "R1", i, j) for i, j in every} == {
        outcome(hand, "R1", i, j) for i, j in listed}  # and none missing
    assert (0, 0) in listed and (4, 3) in listed and (3, 4) not in listed
    for i, j in sorted(every - set(listed)):
        assert refused(state, discard(1, i, j)) == "T-4.3"
        assert refused(state, discard(1, i, j, riichi=True)) == "T-4.3"
    detail = ENGINE._explain(state, discard(1, 3, 4))[1]
    assert "insert 4, remove 3" in detail


def test_T_4_3_T_6_1_each_riichi_discard_is_listed_once():
    """EXAMPLE draws G4: riichi is listed only with the one spelling of each tenpai discard."""
    state = draw(example_match(), "G4")
    riichi = [(m["insert"], m["remove"]) for m in legal(state) if m["riichi"]]
    assert len(riichi) == len(set(riichi)) and (0, 0) in riichi
    assert all(discard(1, i, j) in legal(state) for i, j in riichi)
    assert not [(i, j) for i, j in riichi if i == j and i or j == i + 1]


def test_T_4_5_and_T_3_2_without_a_call_the_next_seat_draws():
    state = play(draw(example_match(), "G4"), discard(1, 3, 0))  # R1*: nobody can take it
    assert state["to_move"] == [2, 3]  # but the table cannot rule a call out: both asked
    assert legal(state, 2) == [answer(2)] and legal(state, 3) == [answer(3)]
    state = all_pass(state)
    assert (state["phase"], state["turn"], state["to_move"]) == ("draw", 2, [CHANCE])
    state = all_pass(play(draw(state, "R4"), drop_drawn(2)))
    state = all_pass(play(draw(state, "B4*"), drop_drawn(3)))
    assert state["turn"] == 1 and state["phase"] == "draw"  # 3 → 1


def riichi_declared():
    """Seat 1 keeps the tenpai EXAMPLE, drops G4 with riichi; G1* is turned."""
    state = play(draw(example_match(), "G4"), discard(1, 0, 0, riichi=True))
    return all_pass(chance(state, {"type": "indicator", "card": "G1*"}))


def test_T_4_4_T_6_1_T_6_2_riichi_with_the_discard_stake_and_new_indicator():
    state = draw(example_match(), "G4")
    riichi = discard(1, 0, 0, riichi=True)
    assert riichi in legal(state)  # EXAMPLE is tenpai: keep it, drop G4
    assert discard(1, 0, 2, riichi=True) not in legal(state)  # dropping B3 breaks tenpai
    assert refused(state, discard(1, 0, 2, riichi=True)) == "T-6.1"
    assert refused(state, discard(1, 0, 0, riichi="yes")) == "T-4.4"
    state, events = play_events(state, riichi)
    assert state["od"][0] == 260 and state["field"] == 10 and state["riichi"][0]
    assert events[-1] == {"type": "riichi_declared", "seat": 1, "stake": 10}
    assert state["to_move"] == [CHANCE] and state["phase"] == "indicator"
    state = chance(state, {"type": "indicator", "card": "G1*"})
    assert state["indicators"] == ["G1", "G1*"] and state["unused"] == 4
    assert state["phase"] == "calls"  # T-4.5: the riichi discard's window follows
    state = all_pass(state)
    assert state["turn"] == 2 and state["phase"] == "draw"


def test_T_6_3_a_riichi_hand_is_locked():
    state = riichi_declared()
    state = all_pass(play(draw(state, "R4"), drop_drawn(2)))
    state = all_pass(play(draw(state, "B4*"), drop_drawn(3)))
    state = draw(state, "B0")
    moves = legal(state)
    assert moves == [drop_drawn(1)]  # T-4.3: dropping the drawn card is listed once
    assert refused(state, discard(1, 2, 0)) == "T-6.3"
    assert refused(state, discard(1, 4, 4)) == "T-4.3"  # the same drop, spelled otherwise
    assert refused(state, discard(1, 0, 0, riichi=True)) == "T-6.3"


def test_T_6_2_riichi_winner_uses_every_indicator_and_takes_the_field():
    state = riichi_declared()
    state = all_pass(play(draw(state, "R4"), drop_drawn(2)))
    state = all_pass(play(draw(state, "B4*"), drop_drawn(3)))
    state = play(draw(state, "R3*"), {"type": "tsumo", "seat": 1, "insert": 2})
    score = state["last_match"]["score"]
    assert score["catalyst"]["points"] == 20 and score["total"] == 40  # G1 and G1* → G2
    assert state["last_match"]["settlement"]["field_taken"] == 10
    assert state["od"] == [270 - 10 + 40 + 10, 250, 250] and state["field"] == 0


def test_T_6_1_riichi_needs_10_od_a_draw_pile_and_an_unused_card():
    state = draw(example_match(options={"starting_od": 5}), "G4")
    assert not any(m.get("riichi") for m in legal(state))
    assert refused(state, discard(1, 0, 0, riichi=True)) == "T-6.1"
    state = draw(example_match(options={"unused_cards": 1}), "G4")
    assert state["unused"] == 0 and not any(m.get("riichi") for m in legal(state))


def test_T_6_1_no_riichi_with_the_discard_of_the_last_card():
    """Drawing the last card empties the draw pile: the tenpai discard cannot be riichi."""
    state = draw(with_draw_pile(example_match(), 1, keep=["G4"]), "G4")
    assert state["draw_pile"] == 0 and drop_drawn(1) in legal(state)
    assert not any(m.get("riichi") for m in legal(state))
    assert refused(state, discard(1, 0, 0, riichi=True)) == "T-6.1"


def test_T_6_1_T_5_5_a_seat_that_called_never_riichis_later_in_the_match():
    """Seat 3 pons B2* and keeps G0 G0 G0 R2 R3* (tenpai): on its next turn no riichi."""
    hands = {1: EXAMPLE, 2: QUIET_2, 3: ["B2*", "G0", "G0", "G0", "B2*", "R2", "R3*", "B1*"]}
    state = play(draw(new_match(hands), "B2*"), drop_drawn(1))
    state = play(play(state, answer(2)), answer(3, "pon", cards=[0, 4]))
    state = all_pass(play(state, discard(3, None, 5)))
    assert (state["phase"], state["turn"]) == ("draw", 1)
    state = all_pass(play(draw(state, "B4*"), drop_drawn(1)))
    state = all_pass(play(draw(state, "G4"), drop_drawn(2)))
    state = draw(state, "R0")
    assert state["turn"] == 3 and drop_drawn(3) in legal(state)
    assert not any(m.get("riichi") for m in legal(state))
    assert refused(state, discard(3, 0, 0, riichi=True)) == "T-5.5"


def test_T_7_2_a_winner_who_did_not_riichi_uses_only_the_1st_indicator():
    """Seat 1 riichis and turns G1* (catalyst G2, like the 1st indicator G1); seat 2 wins
    without riichi: its G2 counts once (G1 only), not twice."""
    state = new_match({1: EXAMPLE, 2: RON_2, 3: QUIET_3})
    state = play(draw(state, "G4"), discard(1, 0, 0, riichi=True))
    state = all_pass(chance(state, {"type": "indicator", "card": "G1*"}))
    assert state["indicators"] == ["G1", "G1*"] and state["turn"] == 2
    state = play(draw(state, "G2"), {"type": "tsumo", "seat": 2, "insert": 7})
    score = state["last_match"]["score"]
    # water 10, 123 twice one way 40, B1* B2* B3* starred 10; G2 once
    assert [i["indicator"] for i in score["catalyst"]["indicators"]] == ["G1"]
    assert score["catalyst"]["points"] == 10 and score["total"] == 70
    assert state["od"] == [270 - 10 - 35, 270 + 70, 270 - 35] and state["pool"] == 10


def test_T_10_2_a_chance_outcomes_p_is_shown_to_nobody():
    """A card's p is its share of the unseen cards, which the other hands' cards are not:
    it would tell what they hold, so no reader is shown it, the drawer included (issue 27);
    the referee's record and the listing for the holder of the whole state keep it."""
    state = example_match()
    move = ENGINE.legal_moves(state)[0]
    bare = {k: v for k, v in move.items() if k != "p"}
    record = ENGINE.step(state, bare)[2]
    assert record["p"] == move["p"]
    assert ENGINE.view_move(record, 1) == bare  # the drawer sees its card
    for reader in (None, 2, 3):
        assert ENGINE.view_move(record, reader) == dict(bare, card="hidden")
    assert ENGINE.view_listing(state, [move], None) == [bare]
