"""Three Magic's bots (``threemagic.bots``, ``referee.bots``): worlds, legal play, fairness.

A seat sees only the sizes of the other hands, not another seat's drawn card
nor its sealed answer in a call window (T-10.2): a world deals the unseen copies
anew and guesses the answers, and the bot's choice must not depend on any of it.
"""

import random

import pytest
from referee.botcheck import check_fair, check_samples, play_bots, positions
from referee.bots import Budget, choose, choose_for
from referee.engine import clone
from referee.errors import InvalidState
from threemagic import bots
from threemagic.calls import call_options
from threemagic.cards import COPIES
from threemagic.engine import ThreeMagic

GAME = ThreeMagic()
QUICK = Budget(iterations=12, seconds=None)


@pytest.mark.parametrize("mode", ["digital", "tabletop"])
def test_T_10_2_worlds_show_each_seat_its_view_and_deal_the_rest_anew(mode):
    rnd, resampled, windows = random.Random(1), 0, 0
    for number, state in enumerate(positions(GAME, 3, seed=3, mode=mode)):
        if number % 5 == 0 or state["window"] and state["window"]["answers"]:
            resampled += check_samples(GAME, state, rnd)
            windows += bool(state["window"] and state["window"]["answers"])
    assert resampled and windows, "worlds resample the hands and the sealed answers"


def test_T_10_2_a_world_deals_every_unseen_copy_and_the_hidden_drawn_card():
    state = next(s for s in positions(GAME, 3, seed=7) if s["phase"] == "turn")
    watcher = next(s for s in (1, 2, 3) if s != state["turn"])
    world = bots.sample_world(GAME.view(state, watcher), watcher, random.Random(4))
    assert world["drawn"] is not None and world["drawn"] != bots.HIDDEN
    assert world["hands"][watcher - 1] == state["hands"][watcher - 1]
    assert [len(h) for h in world["hands"]] == [len(h) for h in state["hands"]]
    unseen = bots.unseen_cards(GAME.view(state, watcher), watcher)
    seen = state["hands"][watcher - 1] + state["indicators"] + [
        c for pile in state["discards"] for c in pile] + [
        c for spells in state["called"] for spell in spells for c in spell]
    assert len(unseen) == sum(COPIES.values()) - len(seen)
    hidden = [world["drawn"]] + [c for k, hand in enumerate(world["hands"], 1) if k != watcher
                                 for c in hand]
    for card in set(hidden):
        assert hidden.count(card) <= unseen.count(card)

def test_T_5_1_a_sealed_answer_is_guessed_from_the_hand_dealt():
    """A dealt hand that wins on the discard answers ron; else pass or one of its calls."""
    state = next(s for s in positions(GAME, 3, seed=5) if s["phase"] == "calls")
    asked = state["to_move"][0]
    rnd = random.Random(3)
    for _ in range(20):
        guess = bots.guess_answer(state, asked, rnd)
        options = call_options(state, asked, state["window"]["card"])
        assert guess in [{"type": "pass", "seat": asked}, *options]
        if any(o["type"] == "ron" for o in options):
            assert guess["type"] == "ron"


def test_T_1_2_a_view_showing_more_copies_than_the_deck_holds_is_refused():
    state = next(s for s in positions(GAME, 3, seed=7) if s["phase"] == "turn")
    seat = state["turn"]
    view = GAME.view(state, seat)
    view["discards"] = [["R0"] * 3 for _ in view["discards"]]  # 9 copies of R0
    with pytest.raises(InvalidState):
        choose(GAME, view, seat, "random", 1, QUICK)


@pytest.mark.parametrize("mode,levels", [("digital", ("strong", "greedy", "random")),
                                         ("tabletop", ("random", "strong", "strong"))])
def test_bots_play_only_legal_moves_to_the_end(mode, levels):
    final, decisions = play_bots(GAME, 3, 5, dict(enumerate(levels, 1)), QUICK, mode)
    assert final["phase"] == "over" and decisions > 0


def test_T_10_2_the_choice_ignores_the_other_hands_and_the_unseen_cards():
    rnd, changed = random.Random(2), 0
    for number, state in enumerate(positions(GAME, 3, seed=8)):
        seat = state["to_move"][0] if state["to_move"] else None
        if seat and number % 4 == 1 and len(GAME.legal_moves(state, seat)) > 1:
            changed += check_fair(GAME, state, seat, rnd, QUICK, seed=number)
        if changed >= 8:
            break
    assert changed >= 8


def test_T_5_1_the_choice_ignores_what_another_seat_answered():
    """The seat still to answer a call window decides the same whatever the seat
    that answered first said (its answer is sealed, T-5.1)."""
    compared = 0
    for seed in range(40):
        for state in positions(GAME, 3, seed=seed):
            window = state["window"]
            if not window or not window["answers"] or not state["to_move"]:
                continue
            first = window["answers"][0]["seat"]
            seat = state["to_move"][0]
            for other in call_options(state, first, window["card"]):
                answered = clone(state)
                answered["window"]["answers"][0] = other
                assert GAME.view(answered, seat) == GAME.view(state, seat)
                assert choose_for(GAME, answered, seat, "strong", 4, QUICK) == \
                    choose_for(GAME, state, seat, "strong", 4, QUICK)
                compared += 1
        if compared >= 3:
            break
    assert compared >= 3
