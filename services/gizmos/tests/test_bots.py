"""Gizmos' bots (``gizmos.bots``, ``referee.bots``): worlds, legal play, fairness.

Of the decks a seat sees only their sizes, and another seat's Research draw
only with the option research_draws_public, never while the cards go back
(Z-12): a world deals those cards anew, and the bot's choice must not depend
on them.
"""

import random

import pytest
from gizmos import bots
from gizmos.cards import BY_LEVEL
from gizmos.engine import Gizmos
from referee.botcheck import check_fair, check_samples, play_bots, positions
from referee.bots import Budget, choose
from referee.errors import InvalidState

GAME = Gizmos()
QUICK = Budget(iterations=8, seconds=None)


def game_positions(players, seed, mode="digital", options=None):
    rnd = random.Random(seed)
    state = GAME.new(players, seed=seed, mode=mode, options=options)
    while state["to_move"]:
        yield state
        moves = GAME.legal_moves(state)
        move = rnd.choices(moves, [m.get("p", 1) for m in moves])[0]
        state = GAME.apply(state, {k: v for k, v in move.items() if k != "p"})[0]


@pytest.mark.parametrize("players,mode,public", [(2, "digital", False), (3, "tabletop", False),
                                                 (4, "digital", True)])
def test_Z_12_worlds_show_each_seat_its_view_and_deal_the_decks_anew(players, mode, public):
    rnd, resampled, research = random.Random(1), 0, 0
    for number, state in enumerate(game_positions(
            players, 3, mode, {"research_draws_public": public})):
        if number % 9 == 0 or state["research"] and number % 3 == 0:
            resampled += check_samples(GAME, state, rnd)
            research += state["research"] is not None
    assert resampled and research, "worlds resample the decks and Research draws"


def test_Z_12_a_hidden_research_draw_is_dealt_from_the_cards_nobody_can_place():
    state = next(s for s in positions(GAME, 3, seed=4) if s["research"])
    watcher = next(s for s in (1, 2, 3) if s != state["turn"])
    view = GAME.view(state, watcher)
    assert "count" in view["research"]
    level = state["research"]["level"]
    world = bots.sample_world(view, watcher, random.Random(2))
    drawn = world["research"]["cards"]
    assert len(drawn) == len(state["research"]["cards"]) and len(set(drawn)) == len(drawn)
    placed = set(view["display"][str(level)]) | {
        c for seat in view["seats"] for c in seat["built"] + seat["archive"]}
    assert set(drawn) <= set(BY_LEVEL[level]) - placed
    assert all(deck == {"unseen": view["decks"][lv]["count"], "bottom": []}
               for lv, deck in world["decks"].items())


def test_Z_1_a_view_placing_one_card_twice_is_refused():
    state = next(s for s in positions(GAME, 2, seed=7) if s["phase"] == "main")
    seat = state["to_move"][0]
    view = GAME.view(state, seat)
    card = view["display"]["1"][0]
    view["seats"][seat - 1]["archive"] = [card]  # on display and in the Archive at once
    with pytest.raises(InvalidState):
        choose(GAME, view, seat, "random", 1, QUICK)


@pytest.mark.parametrize("players,mode", [(2, "digital"), (3, "tabletop")])
def test_bots_play_only_legal_moves_to_the_end(players, mode):
    levels = dict(enumerate(("strong", "greedy", "random")[:players], 1))
    final, decisions = play_bots(GAME, players, 5, levels, QUICK, mode)
    assert final["phase"] == "over" and decisions > 0


def test_Z_12_the_choice_ignores_the_decks_and_another_seats_research():
    rnd, changed, research = random.Random(2), 0, 0
    for number, state in enumerate(positions(GAME, 3, seed=8)):
        seat = state["to_move"][0] if state["to_move"] else None
        if seat and (number % 6 == 1 or state["research"]) and \
                len(GAME.legal_moves(state, seat)) > 1:
            changed += check_fair(GAME, state, seat, rnd, QUICK, seed=number)
            research += state["research"] is not None
        if changed >= 8 and research >= 2:
            break
    assert changed >= 8 and research >= 2
