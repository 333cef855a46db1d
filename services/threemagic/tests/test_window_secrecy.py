"""T-5.1 and T-10.2: a call window shows nothing of the hands.

Who is asked (``to_move``), the views, the events and the logged answers as
other seats see them are the same whatever the asked seats hold — whether or
not one of them could ron, pon or chi (RULES.md, referee decision 6). Each test
plays one discard and its window in two worlds that differ only in what the
observers cannot see: a hand, and with it the wall (the unseen cards; no deck
order is stored).
"""

import random

import pytest

from referee.engine import CHANCE, canonical
from referee.errors import InvalidState
from threemagic.calls import call_options
from threemagic.engine import perturb_hidden
from threemagic.table import unseen

from threemagic_helpers import (
    ENGINE, EXAMPLE, RON_2, answer, chance, discard, draw, drop_drawn, legal, new_match, play,
    play_events,
)

QUIET_2 = ["R0", "B0", "G3*", "R4*", "B1", "G4*", "B4", "R3"]
PON_3 = ["B2*", "R0", "G0", "G0", "B2*", "R2", "G3", "B1*"]  # pons B2*
NO_PON_3 = ["R4", "R0", "G0", "G0", "B3*", "R2", "G3", "B1*"]  # the same, B2* pair swapped
WAIT_R2 = ["R0", "R0", "R0", "B1*", "B2*", "B3*", "R3*", "R4*"]  # tenpai, waits on R2 or R0


def seen_by(seat, state, events=(), move=None) -> str:
    """Everything ``seat`` receives: its view (to_move included), the events and the
    logged move as redacted for it, and its own legal moves."""
    return canonical([ENGINE.view(state, seat), ENGINE.view_events(list(events), seat),
                      move and ENGINE.view_move(move, seat),
                      ENGINE.legal_moves(state, seat) if seat else None])


def assert_same_for(observers, world_a, world_b):
    for seat in observers:
        assert seen_by(seat, *world_a) == seen_by(seat, *world_b), f"seat {seat} can tell"


def test_T_5_1_a_seat_that_could_pon_is_asked_exactly_like_one_that_could_not():
    """Seat 3 holds a B2* pair in one world, not in the other; seat 1 drops B2*."""
    worlds = []
    for hand_3 in (PON_3, NO_PON_3):
        state = draw(new_match({1: EXAMPLE, 2: QUIET_2, 3: hand_3}), "B2*")
        worlds.append(play_events(state, drop_drawn(1)) + (drop_drawn(1),))
    (a, _, _), (b, _, _) = worlds
    assert answer(3, "pon", cards=[0, 4]) in legal(a, 3) and legal(b, 3) == [answer(3)]
    assert a["to_move"] == b["to_move"] == [2, 3]
    assert_same_for((None, 1, 2), *worlds)
    # seat 3 pons in one world and passes in the other: the others see the same answer
    pon, passed = answer(3, "pon", cards=[0, 4]), answer(3)
    world_a = play_events(a, pon) + (pon,)
    world_b = play_events(b, passed) + (passed,)
    assert ENGINE.view_move(pon, 1) == ENGINE.view_move(passed, 1) == {"type": "answer", "seat": 3}
    assert_same_for((None, 1, 2), world_a, world_b)


def test_T_5_1_T_6_3_being_asked_does_not_show_that_a_riichi_seat_can_ron():
    """Seat 2 riichis on a hand waiting on G2 in one world, on R2 in the other (the same
    riichi discard); seat 1 then drops G2. Seat 2 is asked in both, and passes or rons."""
    worlds = []
    for hand_2 in (RON_2, WAIT_R2):
        state = new_match({1: EXAMPLE, 2: hand_2, 3: QUIET_2})
        state = play(draw(state, "B4*"), drop_drawn(1))
        state = play(play(state, answer(2)), answer(3)) if state["phase"] == "calls" else state
        state = play(draw(state, "G4"), discard(2, 0, 0, riichi=True))
        state = chance(state, {"type": "indicator", "card": "R4"})
        state = play(play(state, answer(3)), answer(1)) if state["phase"] == "calls" else state
        state = play(draw(state, "R1"), drop_drawn(3))
        state = play(play(state, answer(1)), answer(2)) if state["phase"] == "calls" else state
        worlds.append(play_events(draw(state, "G2"), drop_drawn(1)) + (drop_drawn(1),))
    (a, _, _), (b, _, _) = worlds
    assert answer(2, "ron", insert=7) in legal(a, 2) and legal(b, 2) == [answer(2)]
    assert a["to_move"] == b["to_move"] and 2 in a["to_move"]
    assert_same_for((None, 1, 3), *worlds)


def discard_points(seed):
    """(state, the discard played) at each discard of a seeded random game."""
    rnd = random.Random(seed)
    state = ENGINE.new(3, seed=seed)
    while state["to_move"]:
        moves = ENGINE.legal_moves(state)
        move = rnd.choice(moves)
        if state["phase"] in ("turn", "call_discard"):
            discards = [m for m in moves if m["type"] == "discard"]
            move = rnd.choice(discards)
            yield state, move
        state = ENGINE.apply(state, move)[0]


def as_tabletop(state):
    """The same position with chance entered by the table: both worlds then get the
    same indicator card where a riichi turns one."""
    return dict(state, mode="tabletop", rng=None)


def play_window(world, move, calls: bool, hidden: int, seed: float):
    """Play ``move`` and its window: each asked seat answers — a random listed answer
    when ``calls``, else pass; the seats that are the same in both worlds answer the
    same. Yields (acting seat or None, state, events, move)."""
    same, own = random.Random(seed), random.Random(seed + 1)
    state, events = ENGINE.apply(world, move)
    yield move["seat"], state, events, move
    if state["phase"] == "indicator":
        card = sorted(unseen(state))[0]  # the same card in both worlds (see caller)
        indicator = {"type": "indicator", "seat": CHANCE, "card": card}
        state, events = ENGINE.apply(state, indicator)
        yield None, state, events, indicator
    while state["phase"] == "calls":
        seat = state["to_move"][0]
        reply = (own if seat == hidden else same).choice(legal(state, seat)) if calls \
            else answer(seat)
        state, events = ENGINE.apply(state, reply)
        yield seat, state, events, reply


def test_T_5_1_T_10_2_windows_of_random_games_show_nothing_of_the_hands():
    """At every discard of seeded random games, one answering seat's hand is dealt afresh
    (often with a pair of the discarded card's face, so that it could pon): the discard,
    the window and every answer reach the other seats and the table identically. When
    every answer is pass, the whole window up to the next draw is identical too."""
    rnd = random.Random(7)
    compared = changed = 0
    for seed in (1, 2):
        for state, move in discard_points(seed):
            discarder = move["seat"]
            hand = state["hands"][discarder - 1]
            full = hand if move["insert"] is None else (
                hand[:move["insert"]] + [state["drawn"]] + hand[move["insert"]:])
            card = full[move["remove"]]
            for hidden in (s for s in (1, 2, 3) if s != discarder):
                original = as_tabletop(state)
                other = perturb_hidden(original, discarder, rnd, seats=[hidden], card=card)
                ENGINE.check_state(other)
                if sorted(unseen(original))[0] != sorted(unseen(other))[0]:
                    continue  # no common indicator card to enter (never seen so far)
                ons = call_options
                changed += bool(ons(original, hidden, card)) != bool(ons(other, hidden, card))
                calls = rnd.random() < 0.5
                seed = rnd.random()
                steps_a = list(play_window(original, move, calls, hidden, seed))
                steps_b = list(play_window(other, move, calls, hidden, seed))
                if calls:  # a call changes what is public once the window resolves
                    steps_a, steps_b = steps_a[:-1], steps_b[:-1]
                elif state["draw_pile"] == 0:  # the exhaustive draw shows tenpai (T-8.1)
                    steps_a, steps_b = steps_a[:-1], steps_b[:-1]
                assert len(steps_a) == len(steps_b)
                for (_, *a), (_, *b) in zip(steps_a, steps_b):
                    observers = [s for s in (None, 1, 2, 3) if s != hidden]
                    assert_same_for(observers, a, b)
                    compared += 1
    assert changed > 40 and compared > 400  # many windows where callability really differed


def test_T_5_1_a_window_must_ask_the_seats_the_table_cannot_rule_out():
    """A state whose window leaves out a seat the public rule asks is refused."""
    state = play(draw(new_match({1: EXAMPLE, 2: QUIET_2, 3: NO_PON_3}), "B2*"), drop_drawn(1))
    assert state["to_move"] == [2, 3]
    ENGINE.check_state(state)
    for to_move in ([2], [3]):
        with pytest.raises(InvalidState):
            ENGINE.check_state(dict(state, to_move=to_move))
