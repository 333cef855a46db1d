"""Positions no game can reach are refused (Z-11, Z-9, Z-3.4): the stateless routes take
whole states from the caller, and these bounds also bound what listing the moves costs."""

import pytest

from gizmos.cards import DECK_SIZE, LEVELS
from gizmos.payment import tally
from gizmos.table import known_cards
from referee.errors import InvalidState

from gizmos_helpers import GAME, WORK_BOUND, position

L1 = list(range(101, 137))


def _built(state, seat, cards):
    """``state`` with ``seat``'s built gizmos replaced (the decks keep the rest)."""
    state["seats"][seat - 1]["built"] = sorted(cards)
    for lv in LEVELS:
        state["decks"][str(lv)]["unseen"] = DECK_SIZE[lv] - len(known_cards(state, lv))
    return state


def _refused(state, rule):
    with pytest.raises(InvalidState) as caught:
        GAME.check_state(state)
    assert caught.value.rule == rule, caught.value.detail
    return caught.value.detail


def test_Z_11_a_seat_starts_its_turn_with_at_most_15_gizmos_and_3_of_level_III():
    """The game ends after the round in which a seat reaches 16 gizmos or 4 of Level III,
    so no seat starts a turn past them: not the seat to move before its action, not a seat
    still to play this round."""
    state = position(players=3, seats=[{"built": L1[:14]}, {"built": L1[14:28]}])
    GAME.check_state(state)  # 15 gizmos each, the end not triggered: fine
    _built(state, 1, state["seats"][0]["built"] + [L1[30]])
    state["ending"] = True  # seat 1 has 16 and has not acted this turn
    assert "16 gizmos" in _refused(state, "Z-11")
    state = position(players=3, turn=2, phase="actions", seats=[{}, {"built": L1[:15]}],
                     turn_state={"ready": {}, "spent": []})
    GAME.check_state(state)  # seat 2 built its 16th this turn: the end is triggered
    _built(state, 3, [903, *L1[15:30]])  # seat 3 has not played since
    _refused(state, "Z-11")
    state = position(seats=[{"built": [301, 302, 303]}])
    _built(state, 1, state["seats"][0]["built"] + [304])
    state["ending"] = True
    assert "4 of Level III" in _refused(state, "Z-11")


def test_Z_11_a_turn_builds_one_gizmo_and_one_more_per_grant_used():
    """After its action the seat to move may hold one more gizmo (the Build), and one more
    for each gizmo granting a build or a Research (319, 320, 331, 332) it has used."""
    def acting(built, spent):
        return position(phase="actions", seats=[{"built": built}],
                        turn_state={"ready": {}, "spent": spent})

    state = acting(L1[:15], [])  # 16: the turn's Build
    _refused(_built(state, 1, [901, *L1[:16]]), "Z-11")  # 17 with no grant used
    state = acting([331, *L1[:15]], [331])  # 17: and the Research granted by 331
    _refused(_built(state, 1, [901, 331, *L1[:16]]), "Z-11")


def test_Z_11_a_forged_seat_with_16_converters_is_refused():
    """The issue's forged state: 16 Converters built (the listing took about 3 s)."""
    state = position()
    _built(state, 1, [901, *range(213, 225), 101, 102, 103, 104])
    state["ending"] = True
    _refused(state, "Z-11")


def test_Z_9_vp_tokens_come_only_from_vp_gizmos():
    state = position(seats=[{"built": [136, 102], "vp_tokens": 1}])
    GAME.check_state(state)  # 136 gave 1 when 102 (blue) was built
    state["seats"][0]["vp_tokens"] = 2
    _refused(state, "Z-9")
    state = position()
    state["seats"][1]["vp_tokens"] = 5
    _refused(state, "Z-9")


def test_Z_3_4_a_research_draws_at_most_the_research_amount():
    state = position(display=[101])
    state, _ = GAME.apply(state, {"type": "research", "seat": 1, "level": 1})
    assert len(state["chance"]) == 3
    state["chance"].append(dict(state["chance"][0]))
    _refused(state, "Z-3.4")


def test_Z_11_a_forged_state_costs_no_more_work_than_the_checks_allow():
    """Issue 11 item 8: the issue's forged state (16 Converters) is refused before any
    payment is searched; a forged state at the edge of what the checks accept (the end
    triggered, two grants used this turn, 14 Converters, 3 of them Level III, a Research
    of a Generic gizmo and two cost-6 cards) lists its moves within the fixed bound the
    costliest positions found keep to."""
    state = position()
    _built(state, 1, [901, *range(213, 225), 101, 102, 103, 104])
    state["ending"] = True
    with tally() as work, pytest.raises(InvalidState):
        GAME.legal_moves(state)
    assert work.nodes == 0
    converters = [101, 102, 105, 106, 213, 214, 215, 216, 217, 218, 219, 303, 305, 306]
    state = position(seats=[{"built": [331, 332, *converters],
                             "ring": {"black": 1, "blue": 1, "red": 1, "yellow": 2}}],
                     research=[336, 319, 320], turn_state={"ready": {}, "spent": [331, 332]})
    assert state["ending"] and len(state["seats"][0]["built"]) == 17
    with tally() as work:
        moves = GAME.legal_moves(state)
    assert len(moves) > 50 and 0 < work.nodes < WORK_BOUND  # Builds folded by spend


@pytest.mark.parametrize("forge, rule", [
    (lambda s: s["seats"][0]["ring"].update(black=8), "Z-4"),  # 11 over a Storage Limit of 10
    (lambda s: s["seats"][0]["ring"].update(red=9) or s["seats"][1]["ring"].update(red=5),
     "Z-1"),  # 9 + 5 + the row's 1: more than 13 red spheres
    (lambda s: s["display"].update({"1": [101, 102]}), "Z-1"),  # 101 is in the Archive
    (lambda s: s["decks"]["2"].update(unseen=s["decks"]["2"]["unseen"] - 1), "Z-2"),
    (lambda s: s["display"].update({"3": [302, 303, 333]}), "Z-2"),  # 3 Level III face up
    (lambda s: s.update(ending=True), "Z-11"),
    (lambda s: s["turn_state"]["ready"].update({"121": 1}), "Z-8"),  # 121 triggers nothing
])
def test_Z_11_forged_states_are_refused_with_the_rule_they_break(forge, rule):
    state = position(seats=[{"ring": {"red": 3}, "built": [121, 301], "archive": [101]},
                            {"ring": {"red": 3}}], display=[102, 333])
    forge(state)
    detail = _refused(state, rule)
    assert "[" not in detail.replace("turn_state.ready[", "") and "'" not in detail
