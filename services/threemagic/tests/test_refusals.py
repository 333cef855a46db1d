"""Refusals people can read (issue 16): every detail is an English sentence naming the
rule, with the caller's values written as JSON (``"R9"``, never Python's ``'R9'``), a
move's unknown or missing field named, and the chance event the table waits for said
in words."""

import re

import pytest

from referee.engine import CHANCE
from referee.errors import IllegalMove, InvalidState
from threemagic_helpers import ENGINE, EXAMPLE, RON_2, RON_3, draw, new_match, play, answer, \
    drop_drawn

PYTHON_REPR = re.compile(r"'[^']*'|\[\s*'|\(\s*'|\{'")


def refusal(state, move) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply(state, move)
    detail = caught.value.detail
    assert not PYTHON_REPR.search(detail), detail
    return caught.value


def turn():
    return draw(new_match({1: EXAMPLE, 2: RON_2, 3: RON_3}), "R3*")


@pytest.mark.parametrize("move, rule, words", [
    ({"type": "bogus", "seat": 1}, "T-4", 'unknown move type "bogus"'),
    ({"type": ["tsumo"], "seat": 1}, "T-4", 'unknown move type ["tsumo"]'),
    ({"type": "tsumo", "seat": 1, "insert": "x"}, "T-4.2", 'R3* inserted at "x" does not'),
    ({"type": "tsumo", "seat": 1, "insert": 2, "why": "won"}, "T-4", "a tsumo has no field why"),
    ({"type": "discard", "seat": 1, "insert": 0, "remove": 0}, "T-4",
     "a discard names its riichi"),
    ({"type": "answer", "seat": 1}, "T-5.1", "a seat answers a call window with ron, pon"),
])
def test_T_4_a_seats_refused_move_reads_as_a_sentence(move, rule, words):
    refused = refusal(turn(), move)
    assert refused.rule == rule and words in refused.detail


def test_T_5_1_a_refused_ron_quotes_its_insert_as_json():
    state = play(draw(new_match({1: EXAMPLE, 2: RON_2, 3: RON_3}), "G2"), drop_drawn(1))
    refused = refusal(state, answer(2, "ron", insert="7"))
    assert refused.rule == "T-5.1" and 'G2 inserted at "7" does not complete' in refused.detail


@pytest.mark.parametrize("move, rule, words", [
    ({"type": "draw", "to": 1, "card": "R9"}, "T-1.2", '"R9" is no card'),
    ({"type": "draw", "to": 1, "card": None}, "T-1.2", "null is no card"),
    ({"type": "draw", "to": 2, "card": "R0"}, "T-10.1",
     'the pending chance event is the card seat 1 draws (type "draw", to 1, and its card)'),
    ({"type": "deal", "to": 1, "card": "R0"}, "T-10.1", "the card seat 1 draws"),
    ({"type": "draw", "to": 1, "card": "R0", "face": "up"}, "T-10.1",
     "a draw has no field face"),
    ({"type": "draw", "to": 1, "card": "R3"}, "T-10.1",
     "no copy of R3 can still be unseen: its only copy is in sight"),
    ({"type": "draw", "to": 1, "card": "R3*"}, "T-10.1",
     "no copy of R3* can still be unseen: all 3 copies are in sight"),
])
def test_T_10_1_an_impossible_chance_entry_says_what_the_table_waits_for(move, rule, words):
    state = new_match({1: EXAMPLE, 2: RON_2, 3: ["R3", "R3*"] + RON_3[2:]})
    state = play(draw(state, "B4"), drop_drawn(1))
    state = play(play(state, answer(2)), answer(3)) if state["phase"] == "calls" else state
    state = play(draw(state, "R3*"), drop_drawn(2))  # R3* gone: 2 with seat 3, 1 discarded
    state = play(play(state, answer(3)), answer(1)) if state["phase"] == "calls" else state
    assert state["to_move"] == [CHANCE] and state["turn"] == 3
    state = play(draw(state, "B4*"), drop_drawn(3))
    state = play(play(state, answer(1)), answer(2)) if state["phase"] == "calls" else state
    assert state["phase"] == "draw" and state["turn"] == 1
    refused = refusal(state, dict(move, seat=CHANCE))
    assert refused.rule == rule and words in refused.detail


@pytest.mark.parametrize("change, words", [
    ({"hand": []}, "the state has no key hand"),
    ({"phase": "lunch"}, "phase must be deal, indicator, draw, turn, calls, call_discard or over"),
    ({"to_move": [2]}, "phase draw does not agree with to_move"),
])
def test_T_10_2_a_forged_state_is_refused_in_words(change, words):
    state = draw(new_match({1: EXAMPLE, 2: RON_2, 3: RON_3}), "R3*")
    state = dict(play(state, drop_drawn(1)))
    state = play(play(state, answer(2)), answer(3)) if state["phase"] == "calls" else state
    with pytest.raises(InvalidState) as caught:
        ENGINE.check_state(dict(state, **change))
    assert words in caught.value.detail and not PYTHON_REPR.search(caught.value.detail)
