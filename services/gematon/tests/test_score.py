"""GM-5: the end, the score and its breakdown, the tie rule; the score helper."""

import pytest

from gematon.scoring import pattern
from referee.errors import GameOver, InvalidInput, InvalidOptions, InvalidPlayers

# GM-5.2's worked example: Pure on {0,1,3}, Cover on {1,2,4} and {1,5,6}, Nine on {2,3,5}
EXAMPLE_PENTACLE = [1, 1, 1, 1, 2, 7, 8]


def random_game(engine, players, seed, mode="digital"):
    state, events = engine.start(players, seed=seed, mode=mode)
    log = list(events)
    step = 0
    while state["to_move"]:
        moves = engine.legal_moves(state)
        move = moves[(seed * 7 + step * 13) % len(moves)]
        state, events = engine.apply(state, {k: v for k, v in move.items() if k != "p"})
        log += events
        step += 1
    return state, log


@pytest.mark.parametrize("players", [2, 3, 4])
def test_GM_5_1_game_ends_when_every_pentacle_is_full_after_7_rounds(engine, players):
    state, log = random_game(engine, players, seed=players)
    ended = [e for e in log if e["type"] == "turn_ended"]
    assert len(ended) == 7 * players
    assert [e["round"] for e in ended[::players]] == [1, 2, 3, 4, 5, 6, 7]
    assert log[-1] == {"type": "game_over", "rule": "GM-5.1"}
    assert all(None not in s["pentacle"] for s in state["seats"])
    assert state["phase"] == "over" and state["to_move"] == []
    assert engine.legal_moves(state) == []
    with pytest.raises(GameOver) as refused:
        engine.apply(state, {"type": "push", "seat": 1, "chip": 1})
    assert refused.value.rule == "GM-5.1"
    score = engine.score(state)
    assert score["final"] and len(score["winners"]) == 1


def test_GM_5_1_game_ends_in_tabletop_mode_too(engine):
    state, log = random_game(engine, 2, seed=5, mode="tabletop")
    assert sum(e["type"] == "turn_ended" for e in log) == 14


def test_GM_5_2_patterns_never_overlap():
    assert [pattern(v) for v in ([4, 4, 4], [8, 8, 8], [1, 1, 7], [4, 1, 4], [2, 5, 2])] == [
        "pure", "pure", "nine", "nine", "nine"]
    assert [pattern(v) for v in ([1, 1, 2], [2, 2, 4], [5, 1, 4], [2, 5, 7], [8, 7, 1],
                                 [4, 4, 8])] == ["cover"] * 6
    assert [pattern(v) for v in ([1, 2, 4], [7, 8, 8], [5, 5, 1])] == ["none"] * 3


def test_GM_5_2_rulebook_final_score_43(engine):
    answer = engine.calculate({"seats": [
        {"seat": 1, "track": 12, "pentacle": EXAMPLE_PENTACLE},
        {"seat": 2, "track": 3, "pentacle": [2, 2, 2, 2, 2, 2, 2]}]})
    first = answer["scores"][0]
    assert first["total"] == 43 == 12 + 4 + 12 + 9 + 3 * 2
    breakdown = first["breakdown"]
    assert breakdown["track"] == 12 and breakdown["gauge"] == 4
    assert breakdown["patterns"] == {"pure": 1, "nine": 1, "cover": 2}
    assert breakdown["line_points"] == 27
    assert [(line["cells"], line["pattern"], line["points"]) for line in breakdown["lines"]] == [
        ([0, 1, 3], "pure", 12), ([1, 2, 4], "cover", 3), ([2, 3, 5], "nine", 9),
        ([3, 4, 6], "none", 0), ([0, 4, 5], "none", 0), ([1, 5, 6], "cover", 3),
        ([0, 2, 6], "none", 0)]
    assert answer["scores"][1]["total"] == 3 + 1 + 7 * 12
    assert answer["final"] and answer["winners"] == [2]


def test_GM_5_2_score_of_a_finished_game_state(engine, table):
    state, _ = random_game(engine, 2, seed=1, mode="tabletop")
    state["seats"][0]["pentacle"] = list(EXAMPLE_PENTACLE)
    state["seats"][0]["position"] = 12
    state["seats"][1]["position"] = 30
    state = table.rebalance(state)
    first = engine.score(state)["scores"][0]
    assert first["total"] == 43 and first["breakdown"]["gauge_cell"] == 4


def test_GM_5_2_running_score_counts_complete_lines_only(engine):
    state = engine.new(2, seed=4)
    scores = engine.score(state)
    assert not scores["final"] and scores["winners"] == []
    first = scores["scores"][0]
    assert first["total"] == 0
    assert {line["pattern"] for line in first["breakdown"]["lines"]} == {"incomplete"}


def test_GM_5_3_tie_later_seat_in_turn_order_ranks_higher(engine):
    seats = [{"seat": 1, "track": 20, "pentacle": [1, 2, 4, 5, 7, 8, 1]},  # 20 + 6 + 3
             {"seat": 2, "track": 17, "pentacle": [1, 2, 4, 5, 7, 8, 2]}]  # 17 + 6 + 6
    answer = engine.calculate({"seats": seats})
    total = answer["scores"][0]["total"]
    assert answer["scores"][1]["total"] == total == 29
    assert answer["ranking"] == [{"rank": 1, "seat": 2, "total": total},
                                 {"rank": 2, "seat": 1, "total": total}]
    assert answer["winners"] == [2]
    reordered = engine.calculate({"seats": seats, "turn_order": [2, 1]})
    assert [r["seat"] for r in reordered["ranking"]] == [1, 2]
    assert reordered["scores"][0]["breakdown"]["turn_order"] == 2


def test_GM_5_3_tie_in_a_played_game(engine, table):
    state, _ = random_game(engine, 3, seed=3, mode="tabletop")
    bases = [s["total"] - s["breakdown"]["track"] for s in engine.score(state)["scores"]]
    assert bases[0] != bases[2]
    top = max(bases) + 10
    positions = [top - bases[0], top - bases[1] + 5, top - bases[2]]
    assert len(set(positions)) == 3
    for mine, position in zip(state["seats"], positions):
        mine["position"] = position
    score = engine.score(table.rebalance(state))
    assert [s["total"] for s in score["scores"]] == [top, top + 5, top]
    assert score["ranking"] == [{"rank": 1, "seat": 2, "total": top + 5},
                                {"rank": 2, "seat": 3, "total": top},
                                {"rank": 3, "seat": 1, "total": top}]


def test_GM_5_4_positions_past_20_are_plain_integers(table, engine):
    state = table.refill(table.setup(players=3, stacks={1: [8, 2]}, hands={1: [4, 7]},
                                     altars={"w1": [1, 4], "w2": [7, 7], "w3": [2, 8],
                                             "black": [4, 5]}), 5)
    state = table.at_round(state, 5, {
        1: [None, 1, None, 2, 4, 8, None],
        2: [None, 1, None, 2, 4, 5, None],
        3: [None, 2, None, 1, 4, 5, None]}, {1: 19, 2: 21, 3: 22})
    state = table.move(state, type="push", chip=5)
    state, events = table.play(state, type="operate", altar="w1", take=1, cell=0)
    assert {"type": "blessed", "seat": 1, "amount": 4, "from": 19, "to": 23,
            "overshoot": 0} in events
    assert engine.score(state)["scores"][0]["breakdown"]["track"] == 23
    answer = engine.calculate({"seats": [
        {"seat": 1, "track": 25, "pentacle": EXAMPLE_PENTACLE},
        {"seat": 2, "track": 20, "pentacle": [1, 2, 4, 5, 7, 8, 2]}]})
    assert [s["total"] for s in answer["scores"]] == [25 + 31, 20 + 6 + 6]


@pytest.mark.parametrize("body, error, rule", [
    ({"seats": [{"seat": 1, "track": 1, "pentacle": EXAMPLE_PENTACLE}]}, InvalidPlayers,
     "GM-1.1"),
    ({"seats": [{"seat": 1, "track": 1, "pentacle": EXAMPLE_PENTACLE},
                {"seat": 3, "track": 2, "pentacle": EXAMPLE_PENTACLE}]}, InvalidInput, "GM-1.1"),
    ({"seats": [{"seat": 1, "track": -1, "pentacle": EXAMPLE_PENTACLE},
                {"seat": 2, "track": 2, "pentacle": EXAMPLE_PENTACLE}]}, InvalidInput, "GM-1.7"),
    ({"seats": [{"seat": 1, "track": 2, "pentacle": EXAMPLE_PENTACLE},
                {"seat": 2, "track": 2, "pentacle": EXAMPLE_PENTACLE}]}, InvalidInput, "GM-3.7"),
    ({"seats": [{"seat": 1, "track": 1, "pentacle": [1, 2, 3, 4, 5, 7, 8]},
                {"seat": 2, "track": 2, "pentacle": EXAMPLE_PENTACLE}]}, InvalidInput, "GM-1.2"),
    ({"seats": [{"seat": 1, "track": 1, "pentacle": [1, 1, 1, 1, 1, 1, 1]},
                {"seat": 2, "track": 2, "pentacle": EXAMPLE_PENTACLE}]}, InvalidInput, "GM-1.2"),
    ({"seats": [{"seat": 1, "track": 1, "pentacle": [1, 2]},
                {"seat": 2, "track": 2, "pentacle": EXAMPLE_PENTACLE}]}, InvalidInput, "GM-5.1"),
    ({"seats": [{"seat": 1, "track": 1, "pentacle": EXAMPLE_PENTACLE, "gauge": 7},
                {"seat": 2, "track": 2, "pentacle": EXAMPLE_PENTACLE}]}, InvalidInput, "GM-1.6"),
    ({"seats": [{"seat": 1, "track": 1, "pentacle": EXAMPLE_PENTACLE},
                {"seat": 2, "track": 2, "pentacle": EXAMPLE_PENTACLE}],
      "turn_order": [1, 1]}, InvalidInput, "GM-5.3"),
])
def test_GM_5_2_score_helper_refuses_impossible_tables(engine, body, error, rule):
    with pytest.raises(error) as refused:
        engine.calculate(body)
    assert refused.value.extra["rule"] == rule


def test_GM_5_2_score_helper_takes_the_options(engine):
    ring = [[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 6], [5, 6, 0], [6, 0, 1]]
    answer = engine.calculate({"seats": [
        {"seat": 1, "track": 15, "pentacle": [1, 1, 1, 1, 1, 1, 1]},
        {"seat": 2, "track": 16, "pentacle": [2, 2, 4, 4, 8, 8, 2]}],
        "options": {"pentacle_lines": ring, "blessing_values": [0, 5, 5, 5, 5, 5, 5]}})
    assert answer["scores"][0]["total"] == 15 + 5 + 7 * 12
    assert [line["cells"] for line in answer["scores"][0]["breakdown"]["lines"]] == ring
    with pytest.raises(InvalidOptions, match="GM-1.6"):
        engine.calculate({"seats": [
            {"seat": 1, "track": 0, "pentacle": EXAMPLE_PENTACLE},
            {"seat": 2, "track": 1, "pentacle": EXAMPLE_PENTACLE}],
            "options": {"blessing_values": [3, 2, 1, 0, 0, 0, 0]}})
