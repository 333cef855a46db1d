"""End of game, scoring, tie-breaks, the score helper, views and forged states
(Z-11, Z-12)."""

import json
import random

import pytest

from gizmos.engine import perturb_hidden
from gizmos.service import create_app
from referee.errors import GameOver, InvalidInput, InvalidState

from gizmos_helpers import GAME, apply, position, settle


def _turn(state, move):
    """Play ``move``, its chance, and end the turn."""
    state, events = apply(state, move)
    state, _ = settle(state)
    state, more = apply(state, {"type": "end_turn"})
    return state, events + more


def test_Z_11_fourth_level_III_triggers_the_end_and_the_round_finishes():
    state = position(players=3, seats=[{"built": [301, 302, 303], "ring": {"yellow": 4}}],
                     display=[304])
    state, events = _turn(state, {"type": "build", "card": 304, "spend": ["yellow"] * 4,
                                  "converters": []})
    assert {"type": "end_triggered", "seat": 1, "level3": 4, "gizmos": 5} in events
    state, _ = _turn(state, {"type": "pick", "color": "black"})
    assert state["turn"] == 3 and state["to_move"] == [3]
    state, events = _turn(state, {"type": "pick", "color": "black"})
    assert state["phase"] == "over" and state["to_move"] == []
    assert events[-1]["type"] == "game_over"
    with pytest.raises(GameOver) as caught:
        GAME.apply(state, {"type": "pass", "seat": 1})
    assert caught.value.rule == "Z-11"
    assert GAME.score(state)["final"]


def test_Z_11_the_last_seat_triggering_ends_at_once_and_16_gizmos_count_the_start():
    built = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114]
    state = position(players=2, turn=2, seats=[{}, {"built": built, "ring": {"yellow": 1}}],
                     display=[116 + 4])
    state, events = apply(state, {"type": "build", "card": 120, "spend": ["yellow"],
                                  "converters": []})
    assert any(e["type"] == "end_triggered" and e["gizmos"] == 16 for e in events)
    state, _ = settle(state)
    state, _ = apply(state, {"type": "end_turn"})
    assert state["phase"] == "over"


def test_Z_11_score_breakdown_and_tie_breaks():
    state = position(players=3, seats=[
        {"built": [136, 335], "vp_tokens": 1, "ring": {"red": 1}},  # 1 + 1 + 1 (335) = 3
        {"built": [133, 102], "vp_tokens": 1, "ring": {"red": 1}},  # 2 + 1 = 3
        {"built": [134, 103], "vp_tokens": 1, "ring": {"red": 2}},  # 2 + 1 = 3
    ])
    board = GAME.score(state)
    assert [s["total"] for s in board["scores"]] == [3, 3, 3]
    assert board["scores"][0]["breakdown"] == {
        "printed": 1, "vp_tokens": 1, "generic": 1, "gizmos_built": 3, "energy_left": 1,
        "turn_position": 1}
    # equal gizmos: seat 3 has more energy; seats 1 and 2: the later seat wins
    assert [r["seat"] for r in board["ranking"]] == [3, 2, 1]
    assert [r["rank"] for r in board["ranking"]] == [1, 2, 3] and not board["final"]


def test_Z_11_calculate_scores_a_table():
    body = {"seats": [
        {"seat": 1, "built": [901, 136, 333], "vp_tokens": 1, "energy": 4},
        {"seat": 2, "built": [134, 201], "vp_tokens": 1, "energy": 0},
    ], "turn_order": [2, 1]}
    answer = GAME.calculate(body)
    assert [s["total"] for s in answer["scores"]] == [1 + 1 + 4, 1 + 3 + 1]
    assert answer["winners"] == [1]
    tie = GAME.calculate({"seats": [
        {"seat": 1, "built": [101], "vp_tokens": 0, "energy": 0},
        {"seat": 2, "built": [102], "vp_tokens": 0, "energy": 0}], "turn_order": [2, 1]})
    assert tie["winners"] == [1]  # later in turn order
    for bad in ({"seats": [{"seat": 1, "built": [999], "vp_tokens": 0, "energy": 0},
                           {"seat": 2, "built": [], "vp_tokens": 0, "energy": 0}]},
                {"seats": [{"seat": 1, "built": [101], "vp_tokens": 0, "energy": 0},
                           {"seat": 2, "built": [101], "vp_tokens": 0, "energy": 0}]},
                {"seats": [{"seat": 1, "built": [], "vp_tokens": 0, "energy": 40},
                           {"seat": 2, "built": [], "vp_tokens": 0, "energy": 40}]},
                {"seats": [{"seat": 1, "built": [], "vp_tokens": 0, "energy": 0}]}):
        with pytest.raises(InvalidInput):
            GAME.calculate(bad)


def test_Z_11_calculate_over_http():
    client = create_app({"TESTING": True}).test_client()
    answer = client.post("/v1/calculate", json={"seats": [
        {"seat": 1, "built": [136, 102], "vp_tokens": 1, "energy": 2},
        {"seat": 2, "built": [], "vp_tokens": 0, "energy": 0}]})
    assert answer.status_code == 200 and answer.json["winners"] == [1]
    assert client.post("/v1/calculate", json={"seats": "x"}).status_code == 400
    info = client.get("/v1/info").json
    assert info["game"] == "gizmos" and info["hidden_information"]


def test_Z_12_hidden_information_decks_and_other_seats_research():
    state = position(bottom={1: [101, 102]})
    view = GAME.view(state, 2)
    assert view["decks"]["1"] == {"count": 36} and "rng" not in view
    rnd = random.Random(3)
    changed = perturb_hidden(state, 2, rnd)
    GAME.check_state(changed)
    assert GAME.view(changed, 2) == view
    assert public_parts(GAME.view(state, None)) == public_parts(view)


def public_parts(view):
    return {k: v for k, v in view.items() if k not in ("research",)}


@pytest.mark.parametrize("forge", [
    lambda s: s["seats"][0]["ring"].update(black=6),
    lambda s: s["seats"][0]["built"].remove(901),
    lambda s: s["display"]["1"].append(101),
    lambda s: s["decks"]["1"].update(unseen=3),
    lambda s: s.update(phase="research"),
    lambda s: s.update(to_move=[2]),
    lambda s: s["turn_state"]["ready"].update({"101": 1}),
    lambda s: s.update(ending=True),
    lambda s: s.update(chance=[{"draw": "card", "level": 1, "to": "research"}]),
    lambda s: s.update(extra=1),
])
def test_Z_12_forged_states_are_refused(forge):
    state = position(display=[101])
    forge(state)
    with pytest.raises(InvalidState):
        GAME.legal_moves(state)


def test_random_games_end_in_every_player_count():
    from referee import conformance
    for players in (2, 3, 4):
        result = conformance.play_random_game(GAME, players, seed=players, deep=False)
        assert result.final["phase"] == "over" and result.score["winners"]
        json.dumps(result.final)


def test_Z_11_tie_breaks_apply_in_order_gizmos_before_energy_before_seat():
    """Equal totals: more gizmos beats more energy; more energy beats a later seat."""
    state = position(players=3, seats=[
        {"built": [101, 102, 103], "ring": {"red": 1}},  # 3 VP, 4 gizmos, 1 energy
        {"built": [133, 107], "vp_tokens": 1, "ring": {"red": 4}},  # 3 VP, 3 gizmos, 4 energy
        {"built": [105, 106, 108]},  # 3 VP, 4 gizmos, 0 energy
    ])
    board = GAME.score(state)
    assert [s["total"] for s in board["scores"]] == [3, 3, 3]
    assert [r["seat"] for r in board["ranking"]] == [1, 3, 2]
    answer = GAME.calculate({"seats": [
        {"seat": 1, "built": [101, 102, 103], "vp_tokens": 0, "energy": 0},
        {"seat": 2, "built": [133, 107], "vp_tokens": 1, "energy": 5}], "turn_order": [1, 2]})
    assert answer["winners"] == [1]  # 4 gizmos beat 3, however much energy


def test_Z_12_who_is_asked_to_act_never_depends_on_a_secret():
    """Z-12: the secrets are the decks' order (and which cards the unseen tops and the
    cards put back are) and another seat's Research draw. Reshuffling them as a seat may
    not see changes neither who is to move nor whether the seat to move has a move, nor
    (but while it looks at its own Research draw) which kinds of move it has: those
    depend on counts everyone sees."""
    rnd = random.Random(12)
    from referee import conformance
    checked = 0
    for players in (2, 3, 4):
        state = GAME.new(players, seed=40 + players)
        for _ in range(200):
            if not state["to_move"]:
                break
            moves = GAME.legal_moves(state)
            for viewer in range(1, players + 1):
                if viewer == state["turn"]:
                    continue
                other = perturb_hidden(state, viewer, rnd)
                GAME.check_state(other)
                assert other["to_move"] == state["to_move"]
                seen = GAME.legal_moves(other)
                assert bool(seen) == bool(moves)
                if state["phase"] != "research":
                    assert {m["type"] for m in seen} == {m["type"] for m in moves}
                checked += 1
            state, _ = GAME.apply(state, conformance.choose_move(GAME, state, moves, rnd))
    assert checked > 400
