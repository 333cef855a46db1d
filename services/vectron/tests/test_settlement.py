"""V-6: end of turn, settlement, refresh, the game's end; the /v1/calculate score helper."""

import random
from itertools import product

import pytest

from referee.engine import CHANCE
from referee.errors import GameOver, InvalidInput
from referee.rng import Pcg32
from vectron.engine import Vectron
from vectron.scoring import dense_ranks, reachable_scores, settlement_points
from vectron.service import create_app

ENGINE = Vectron()
TO_GATE = {"type": "move", "seat": 1, "to": "c3"}  # D1 from b2 onto the gate on c3


def gate_turn(table, players=2, gauges=None, history=(), held_star="star2", column=("D1",)):
    """Seat 1 about to step onto a gate holding ``held_star``; ``history`` lists the
    gauges of earlier settlements (the scores are their sum)."""
    held = [held_star] + ["star2"] * (players - 1)
    settlements = [{"gauges": list(g), "points": settlement_points(list(g))} for g in history]
    scores = [sum(s["points"][i] for s in settlements) for i in range(players)]
    return table.moving(players, {"b2": "seat1", "c3": "gate"}, column=list(column), held=held,
                        gauges=gauges or [0] * players, scores=scores, settlements=settlements)


# --------------------------------------------------------------- V-6.2
def test_V_6_2_two_players_the_higher_gauge_scores_the_difference():
    assert settlement_points([7, 3]) == [4, 0]
    assert settlement_points([2, 9]) == [0, 7]
    assert settlement_points([5, 5]) == [0, 0]


def test_V_6_2_three_players_dense_ranks():
    assert settlement_points([7, 4, 1]) == [2, 1, 0]
    assert settlement_points([7, 7, 1]) == [2, 2, 1]
    assert settlement_points([7, 1, 1]) == [2, 1, 1]
    assert settlement_points([0, 0, 0]) == [2, 2, 2]


def test_V_6_2_four_players_manual_example():
    assert dense_ranks([7, 5, 5, 2]) == [1, 2, 2, 3]
    assert settlement_points([7, 5, 5, 2]) == [3, 2, 2, 1]
    assert settlement_points([8, 7, 6, 5]) == [3, 2, 1, 0]
    assert settlement_points([7, 7, 7, 7]) == [3, 3, 3, 3]


def test_V_6_2_settlement_in_play_four_players(table):
    state = gate_turn(table, 4, gauges=[5, 5, 5, 2])
    new, events = ENGINE.apply(state, TO_GATE)
    settled = next(e for e in events if e["type"] == "settled")
    assert settled["gauges"] == [7, 5, 5, 2] and settled["points"] == [3, 2, 2, 1]
    assert new["scores"] == [3, 2, 2, 1]


def test_V_6_2_settlement_in_play_two_and_three_players(table):
    assert table.play(gate_turn(table, 2, gauges=[5, 3]), TO_GATE)["scores"] == [4, 0]
    assert table.play(gate_turn(table, 3, gauges=[5, 6, 6]), TO_GATE)["scores"] == [2, 1, 1]


# --------------------------------------------------------------- V-6.1
def test_V_6_1_no_settlement_while_gauges_are_low_and_the_deck_lasts(table):
    state = gate_turn(table, 2, gauges=[0, 3])
    new = table.play(state, TO_GATE)
    assert new["gauges"] == [2, 3] and new["scores"] == [0, 0]
    assert new["to_move"] == [2] and new["settlements"] == []


def test_V_6_1_settle_then_refresh_then_pass_the_turn(table):
    state = gate_turn(table, 2, gauges=[5, 3])
    new, events = ENGINE.apply(state, TO_GATE)
    kinds = [e["type"] for e in events]
    assert kinds == ["piece_moved", "turn_ended", "settled", "refreshed"]
    assert new["phase"] == "deal" and new["turn"] == 2 and new["to_move"] == [CHANCE]
    for name in ("O1", "O2", "O3", "D1"):
        new = table.play(new, table.card(name))
    assert new["to_move"] == [2] and new["phase"] == "draw"


def test_V_6_1_an_empty_deck_settles_too(table):
    state = table_with_empty_deck(table)
    new, events = ENGINE.apply(state, {"type": "stop", "seat": 1})
    settled = next(e for e in events if e["type"] == "settled")
    assert settled == {"type": "settled", "gauges": [1, 0], "points": [1, 0], "scores": [1, 0]}
    assert new["phase"] == "deal" and len(new["deck"]) == 24


def table_with_empty_deck(table):
    state = table.moving(2, {"b2": "seat1"}, column=["O1", "D2"], gauges=[1, 0])
    rest = list(state["deck"])
    return table.play(table.arrange(state, columns=[rest + ["O1", "D2"], []], cursor=len(rest) + 1),
                      {"type": "move", "seat": 1, "to": "b2"})


# --------------------------------------------------------------- V-6.3
def test_V_6_3_refresh_keeps_the_map_and_held_chips(table):
    state = gate_turn(table, 2, gauges=[5, 3])
    state = table.arrange(state, fallen=[False, True], columns=[["S", "D1"], ["O3"]],
                          hands=[["O1", "O2"], ["D2", "D2"]], cursor=1)
    new = table.play(state, TO_GATE)
    assert new["fallen"] == [False, False] and new["gauges"] == [0, 0]
    assert new["columns"] == [[], []] and new["hands"] == [[], []]
    assert len(new["deck"]) == 24
    assert new["grid"]["c3"] == "seat1" and new["held"] == ["gate", "star2"]
    new = table.play(new, table.card("S"), table.card("S"), table.card("O3"), table.card("D3"))
    assert new["hands"] == [["O3", "S"], ["D3", "S"]] and len(new["deck"]) == 20


# --------------------------------------------------------------- V-6.4
def test_V_6_4_the_game_ends_at_six(table):
    state = gate_turn(table, 2, gauges=[5, 3], history=[[4, 0], [0, 1]])
    assert state["scores"] == [4, 1]
    new, events = ENGINE.apply(state, TO_GATE)
    assert new["scores"] == [8, 1] and new["phase"] == "over" and new["to_move"] == []
    assert events[-1] == {"type": "game_over", "scores": [8, 1]}
    board = ENGINE.score(new)
    assert board["final"] and board["winners"] == [1]
    assert board["scores"][0]["breakdown"] == {"settlements": [4, 0, 4], "gauge": 7}
    with pytest.raises(GameOver) as caught:
        ENGINE.apply(new, {"type": "draw", "seat": 2, "source": "deck"})
    assert caught.value.rule == "V-6.4"


def test_V_6_4_below_six_the_game_goes_on(table):
    state = gate_turn(table, 2, gauges=[5, 3], history=[[0, 5]])
    new = table.play(state, TO_GATE)
    assert new["scores"] == [4, 5] and new["phase"] == "deal"
    board = ENGINE.score(new)
    assert board["final"] is False and board["winners"] == []
    assert [s["total"] for s in board["scores"]] == [4, 5]


@pytest.mark.parametrize("mode", ["digital", "tabletop"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_V_6_4_random_games_reach_the_end(table, players, mode):
    """V-6.4: seeded random games end with a score of 6 or more and its winners."""
    rnd = random.Random(players)
    state = ENGINE.new(players, seed=players, mode=mode)
    while state["to_move"]:
        moves = ENGINE.legal_moves(state)
        if "describe" in moves[0]:
            move = ENGINE._sample_chance(state, Pcg32.from_seed(rnd.getrandbits(64)))
        else:
            move = rnd.choices(moves, weights=[m.get("p", 1) for m in moves])[0]
        state = table.play(state, move)
    assert max(state["scores"]) >= 6 and state["phase"] == "over"
    top = max(state["scores"])
    assert ENGINE.score(state)["winners"] == [
        s for s, score in enumerate(state["scores"], start=1) if score == top]


def test_V_6_4_tied_leaders_share_the_win(table):
    state = gate_turn(table, 3, gauges=[5, 6, 0], history=[[7, 6, 0], [6, 7, 0], [6, 7, 0]])
    assert state["scores"] == [4, 5, 0]
    new = table.play(state, TO_GATE)  # gauges 7, 6, 0: points 2, 1, 0
    assert new["scores"] == [6, 6, 0] and new["phase"] == "over"
    board = ENGINE.score(new)
    assert board["winners"] == [1, 2] and [r["rank"] for r in board["ranking"]] == [1, 1, 3]


def test_V_6_4_gauges_are_not_capped(table):
    state = gate_turn(table, 2, gauges=[6, 0], held_star="star3")
    settled = next(e for e in ENGINE.apply(state, TO_GATE)[1] if e["type"] == "settled")
    assert settled["gauges"] == [9, 0] and settled["points"] == [9, 0]


# ------------------------------------------------------------ calculate
def test_V_6_2_calculate_four_players():
    board = ENGINE.calculate({"gauges": [7, 5, 5, 2]})
    assert [s["breakdown"]["gain"] for s in board["scores"]] == [3, 2, 2, 1]
    assert [s["breakdown"]["rank"] for s in board["scores"]] == [1, 2, 2, 3]
    assert [s["total"] for s in board["scores"]] == [3, 2, 2, 1]
    assert board["final"] is False and board["winners"] == [] and "ended" not in board


def test_V_6_4_calculate_ends_the_game_with_shared_winners():
    board = ENGINE.calculate({"gauges": [6, 6, 0], "scores": [4, 4, 1]})  # the deck ran out
    assert [s["total"] for s in board["scores"]] == [6, 6, 2]
    assert board["final"] and board["winners"] == [1, 2]
    assert board["scores"][0]["breakdown"] == {"gauge": 6, "rank": 1, "gain": 2, "before": 4,
                                               "ended": True}


IMPOSSIBLE_TALLIES = [  # what no table can read off → the rule it breaks
    ({"gauges": [7]}, "V-1.1"),
    ({"gauges": [1, 2, 3, 4, 5]}, "V-1.1"),
    ({"gauges": "7, 1"}, "V-1.1"),
    ({"gauges": [7, -1]}, "V-6.2"),
    ({"gauges": [7, 1.5]}, "V-6.2"),
    ({"gauges": [7, True]}, "V-6.2"),
    # a turn ends as soon as one gauge reaches 7, and a move raises one gauge by 3 at most
    ({"gauges": [10, 0]}, "V-4.6"),
    ({"gauges": [0, 6, 12]}, "V-4.6"),
    ({"gauges": [7, 7]}, "V-4.6"),
    ({"gauges": [9, 2, 8, 0]}, "V-4.6"),
    ({"gauges": [7, 1], "scores": [1]}, "V-1.5"),
    ({"gauges": [7, 1], "scores": [1, -1]}, "V-1.5"),
    ({"gauges": [7, 1], "scores": "1, 0"}, "V-1.5"),
    ({"gauges": [7, 1], "scores": [6, 0]}, "V-6.4"),
    ({"gauges": [7, 1, 0], "scores": [0, 0, 9]}, "V-6.4"),
    # 3–4 players: every settlement gives players − 1 points to the highest gauge(s)
    ({"gauges": [7, 1, 0], "scores": [1, 0, 0]}, "V-6.2"),
    ({"gauges": [7, 1, 0], "scores": [1, 1, 1]}, "V-6.2"),
    ({"gauges": [7, 1, 0, 0], "scores": [2, 0, 0, 0]}, "V-6.2"),
    ({"gauges": [7, 1, 0, 0], "scores": [1, 1, 1, 1]}, "V-6.2"),
    ({"gauges": [7, 1, 0, 0], "scores": [5, 0, 0, 0]}, "V-6.2"),
]

POSSIBLE_TALLIES = [  # edge cases a table can read off: accepted
    {"gauges": [9, 6]},  # 6 + a star3 given up for a gate
    {"gauges": [0, 0]},  # the deck ran out with no gauge risen
    {"gauges": [6, 6, 6, 6]},  # the deck ran out: no gauge needs to reach 7
    {"gauges": [7, 6, 6, 6], "scores": [3, 3, 3, 3]},  # one all-tied settlement before
    {"gauges": [8, 0], "scores": [5, 5]},
    {"gauges": [0, 0, 0], "scores": [5, 5, 5]},  # 2, 2, 1 + 2, 1, 2 + 1, 2, 2
    {"gauges": [7, 0, 0, 0], "scores": [5, 5, 5, 5]},
    {"gauges": [7, 0, 0, 0], "scores": [3, 2, 1, 0]},
]


@pytest.mark.parametrize("data, rule", IMPOSSIBLE_TALLIES)
def test_V_6_2_calculate_refuses_impossible_tallies(data, rule):
    """V-6.2, V-4.6, V-6.4: the score helper refuses what the rules cannot produce."""
    with pytest.raises(InvalidInput) as caught:
        ENGINE.calculate(data)
    assert caught.value.code == "invalid_input" and caught.value.rule == rule
    assert "[" not in caught.value.detail


@pytest.mark.parametrize("data", POSSIBLE_TALLIES)
def test_V_6_2_calculate_accepts_possible_edge_cases(data):
    board = ENGINE.calculate(data)
    assert [s["breakdown"]["before"] for s in board["scores"]] == data.get(
        "scores", [0] * len(data["gauges"]))


def test_V_6_2_calculate_details_say_why():
    with pytest.raises(InvalidInput) as caught:
        ENGINE.calculate({"gauges": [7, 8, 0]})
    assert caught.value.detail.startswith("seats 1 and 2 each have a gauge of 7 or more")
    with pytest.raises(InvalidInput) as caught:
        ENGINE.calculate({"gauges": [7, 1, 0], "scores": [1, 0, 0]})
    assert caught.value.detail.startswith("scores 1, 0 and 0 are not a sum of earlier "
                                          "settlements: each 3-player settlement gives 2")
    for data in ([7, 1], {"gauges": [7, 1], "seat": 1}):
        with pytest.raises(InvalidInput) as caught:
            ENGINE.calculate(data)
        assert caught.value.detail == "the input is an object with gauges and, optionally, scores"


def test_V_6_2_reachable_score_lines():
    """V-6.2: with 2 players any scores below 6 can be reached; with 3–4 only sums of
    settlements, each giving players − 1 to the highest gauge."""
    assert reachable_scores(2) == set(product(range(6), repeat=2))
    assert (0, 0, 0) in reachable_scores(3) and (2, 1, 0) in reachable_scores(3)
    assert all(max(line) >= 2 for line in reachable_scores(3) if any(line))
    assert all(sum(line) >= 6 for line in reachable_scores(4) if any(line))


def test_V_6_2_calculate_over_http():
    """The body is checked against wire.CALCULATE (400, each error at its path); what a
    schema cannot say is refused by the engine with its rule (422)."""
    client = create_app({"TESTING": True}).test_client()
    answer = client.post("/v1/calculate", json={"gauges": [7, 3], "scores": [2, 5]})
    assert answer.status_code == 200
    body = answer.get_json()
    assert [s["total"] for s in body["scores"]] == [6, 5]
    assert body["final"] is True and body["winners"] == [1]
    malformed = client.post("/v1/calculate", json={"gauges": [7, "3", 10], "scores": [9, 0],
                                                   "seat": 1})
    assert malformed.status_code == 400 and malformed.get_json()["code"] == "bad_request"
    assert set(malformed.get_json()["errors"]) == {"body", "gauges.1", "gauges.2", "scores.0"}
    for body, rule in (({"gauges": [7, 7]}, "V-4.6"),
                       ({"gauges": [7, 1], "scores": [1, 0, 0]}, "V-1.5"),
                       ({"gauges": [7, 1, 0], "scores": [1, 0, 0]}, "V-6.2")):
        refused = client.post("/v1/calculate", json=body)
        assert refused.status_code == 422 and refused.get_json()["code"] == "invalid_input"
        assert refused.get_json()["rule"] == rule
