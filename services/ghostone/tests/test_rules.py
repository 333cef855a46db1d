"""Ghostone rules, one test (or more) per rule id of services/ghostone/RULES.md."""

from collections import Counter

import pytest

from ghostone.board import PLACEMENT_ORDER, PLATES
from ghostone.engine import Ghostone
from referee.errors import (
    GameOver, IllegalMove, InvalidOptions, InvalidPlayers, InvalidState, NotYourTurn,
)

GAME = Ghostone()


def position(pieces: dict, rocks=None, escapes=(), ghost=None, turn=1, mode="tabletop",
             passes=0, to_move=None):
    """A play-phase state: ``pieces`` {seat: [plates]}, ``escapes`` [(seat, plate, points)]."""
    players = len(pieces)
    recorded = [{"seat": s, "plate": p, "points": pts, "bonus": (3, 2, 1)[i] if i < 3 else 0}
                for i, (s, p, pts) in enumerate(escapes)]
    state = GAME.new(players, seed=5, mode=mode)
    board = {p: 1 for p in PLATES}
    board.update(rocks or {})
    for e in recorded:
        board[e["plate"]] = 0
    state.update(phase="play", placement_step=len(PLACEMENT_ORDER[players]), rocks=board,
                 flipped=sorted(e["plate"] for e in recorded),
                 pieces=[sorted(pieces[s]) for s in range(1, players + 1)],
                 escapes=recorded, ghost=ghost, turn=turn, passes=passes, end=None,
                 to_move=to_move or [turn])
    GAME.check_state(state)
    return state


# Three players own 3 pieces each: a quiet 3-player position with seat 1 to move.
QUIET = {1: ["b2", "a4", "d4"], 2: ["c3", "a3", "b4"], 3: ["d1", "d2", "c4"]}


def refused(state, move, rule):
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(state, move)
    assert caught.value.rule == rule, caught.value.problem()
    return caught.value


def place_all(players: int, mode="tabletop"):
    """Play the placement phase with the first listed placement each time."""
    state = GAME.new(players, seed=3, mode=mode)
    seen = []
    while state["phase"] == "placement":
        seen.append(state["to_move"][0])
        state, _ = GAME.apply(state, GAME.legal_moves(state)[0])
    return state, seen


# ---------------------------------------------------------------- G-1
def test_G_1_1_board_is_4x4_plates_a1_to_d4():
    assert PLATES == [f + r for r in "1234" for f in "abcd"] and len(PLATES) == 16
    state = GAME.new(3, mode="tabletop")
    refused(state, {"type": "place", "seat": 1, "plate": "e5", "rocks": ["a1", "a2", "b1"]},
            "G-1.1")


def test_G_1_2_flipped_plate_takes_no_piece_nor_rock():
    state = position({1: ["b2", "a4"], 2: ["d4", "a1", "b4"], 3: ["d1", "d2", "c4"]},
                     escapes=[(1, "b3", 1)])
    refused(state, {"type": "move", "seat": 1, "from": "b2", "to": "b3", "rock": "S"}, "G-1.2")
    # b2's rock may go anywhere but onto the flipped b3
    rocks = {m["rock"] for m in GAME.legal_moves(state, 1) if m["from"] == "b2"}
    assert rocks == {"E", "S", "W"}
    refused(state, {"type": "move", "seat": 1, "from": "b2", "to": "c2", "rock": "N"}, "G-4.2")


def test_G_1_3_three_or_four_players_with_3_or_2_pieces():
    for players in (2, 5):
        with pytest.raises(InvalidPlayers) as caught:
            GAME.new(players)
        assert caught.value.rule == "G-1.3"
    for players, each in ((3, 3), (4, 2)):
        state, _ = place_all(players)
        assert [len(p) for p in state["pieces"]] == [each] * players


def test_G_1_4_every_plate_starts_with_one_rock():
    assert GAME.new(4)["rocks"] == {p: 1 for p in PLATES}


GHOSTLY = {1: ["b2", "a4"], 2: ["a3", "b4"], 3: ["d1", "d2"]}  # one escape each


def test_G_1_5_the_die_has_eight_uniform_faces():
    state = position(GHOSTLY,
                     escapes=[(1, "c3", 1), (2, "c1", 1), (3, "a2", 1)],
                     ghost="b3", turn=1, to_move=["chance"])
    outcomes = GAME.legal_moves(state)
    assert sorted(m["dir"] for m in outcomes) == sorted(["N", "NE", "E", "SE", "S", "SW", "W",
                                                         "NW"])
    assert all(m["p"] == 1 / 8 and m["seat"] == "chance" for m in outcomes)


# ---------------------------------------------------------------- G-2
def test_G_2_1_seats_are_numbered_from_1():
    state = GAME.new(4)
    assert state["to_move"] == [1] and len(state["pieces"]) == 4


@pytest.mark.parametrize("players,order", [(4, [1, 2, 3, 4, 4, 3, 2, 1]),
                                           (3, [1, 2, 3, 2, 3, 1, 3, 1, 2])])
def test_G_2_2_placement_order(players, order):
    _, seen = place_all(players)
    assert seen == order
    state = GAME.new(players, mode="tabletop")
    with pytest.raises(NotYourTurn):
        GAME.apply(state, {"type": "place", "seat": 2, "plate": "a1",
                           "rocks": ["a2", "b1", "b2"]})
    refused(state, {"type": "pass", "seat": 1}, "G-2.2")


def test_G_2_3_placement_adds_a_rock_to_three_neighbours():
    state = GAME.new(3, mode="tabletop")
    choices = Counter(m["plate"] for m in GAME.legal_moves(state))
    assert choices["a1"] == 1  # a corner has 3 neighbours: forced
    assert choices["b1"] == 10  # an edge has 5: choose 3
    assert choices["b2"] == 56  # inside, 8: choose 3
    after, events = GAME.apply(state, {"type": "place", "seat": 1, "plate": "b2",
                                       "rocks": ["c3", "a1", "a3"]})  # unsorted: normalised
    assert after["pieces"][0] == ["b2"]
    assert [after["rocks"][p] for p in ("a1", "a3", "c3", "b2")] == [2, 2, 2, 1]
    assert events == [{"type": "piece_placed", "seat": 1, "plate": "b2",
                       "rocks": ["a1", "a3", "c3"]}]
    # a chosen neighbour may hold a piece; the plate itself may not
    after, _ = GAME.apply(after, {"type": "place", "seat": 2, "plate": "c2",
                                  "rocks": ["b1", "b2", "b3"]})
    for rocks, why in ((["b1", "b2"], "exactly 3"), (["b1", "b1", "b2"], "distinct"),
                       (["a1", "b1", "d4"], "not neighbours")):
        error = refused(after, {"type": "place", "seat": 3, "plate": "a2", "rocks": rocks},
                        "G-2.3")
        assert why.split()[0] in error.detail
    refused(after, {"type": "place", "seat": 3, "plate": "b2",
                    "rocks": ["a1", "a2", "a3"]}, "G-2.3")


@pytest.mark.parametrize("players,total", [(4, 40), (3, 43)])
def test_G_2_4_rocks_after_placement(players, total):
    state, _ = place_all(players)
    assert sum(state["rocks"].values()) == total


# ---------------------------------------------------------------- G-3
def test_G_3_1_play_starts_with_the_last_seat_then_ascends():
    for players in (3, 4):
        state, _ = place_all(players)
        assert state["phase"] == "play" and state["to_move"] == [players]
        order = []
        for _ in range(players + 1):
            order.append(state["to_move"][0])
            state, _ = GAME.apply(state, GAME.legal_moves(state)[0])
        assert order == [players, *range(1, players + 1)]


def test_G_3_2_a_seat_without_pieces_is_skipped():
    state = position({1: ["b2", "a4"], 2: [], 3: ["d1", "d2", "c4"]},
                     escapes=[(2, "c3", 2), (2, "a2", 1), (1, "d3", 1), (2, "b1", 1)],
                     ghost="a1", turn=1)
    # seat 2 has escaped all its pieces: after seat 1 comes seat 3
    move = next(m for m in GAME.legal_moves(state, 1) if "ghost" not in m)
    after, _ = GAME.apply(state, move)
    assert after["to_move"] == [3]


def test_G_3_3_pass_only_when_no_piece_can_move():
    # seat 1's piece on a1 is walled in by a flipped a2 and seat 2's piece on b1
    state = position({1: ["a1"], 2: ["b1", "c4", "d4"], 3: ["d1", "d2", "a4"]},
                     escapes=[(1, "a2", 1), (1, "b3", 1)], turn=1)
    assert GAME.legal_moves(state, 1) == [{"type": "pass", "seat": 1}]
    after, events = GAME.apply(state, {"type": "pass", "seat": 1})
    assert events[0] == {"type": "passed", "seat": 1} and after["to_move"] == [2]
    refused(after, {"type": "pass", "seat": 2}, "G-3.3")


# ---------------------------------------------------------------- G-4
def test_G_4_1_a_piece_moves_one_plate_orthogonally_onto_a_free_face_up_plate():
    state = position(QUIET, ghost=None)
    dests = {m["to"] for m in GAME.legal_moves(state, 1) if m["from"] == "b2"}
    assert dests == {"b1", "a2", "c2", "b3"}
    refused(state, {"type": "move", "seat": 1, "from": "b2", "to": "c1", "rock": "N"}, "G-4.1")
    refused(state, {"type": "move", "seat": 1, "from": "c3", "to": "c2", "rock": "N"}, "G-4.1")
    blocked = position({1: ["b2", "a4", "d4"], 2: ["b3", "a3", "b4"], 3: ["d1", "d2", "c4"]})
    refused(blocked, {"type": "move", "seat": 1, "from": "b2", "to": "b3", "rock": "N"},
            "G-4.1")


def test_G_4_1_the_ghost_never_blocks():
    state = position(GHOSTLY,
                     escapes=[(1, "c3", 1), (2, "c1", 1), (3, "a2", 1)], ghost="b3", turn=1)
    assert any(m["to"] == "b3" for m in GAME.legal_moves(state, 1))


def test_G_4_2_rock_goes_any_direction_even_under_pieces_or_off_the_board():
    state = position(QUIET, rocks={"d4": 2})
    rocks = {m["rock"] for m in GAME.legal_moves(state, 1) if m["from"] == "d4"}
    assert rocks == {"N", "E", "S", "W"}  # N and E leave the board; W goes under c4's piece
    off, events = GAME.apply(state, {"type": "move", "seat": 1, "from": "d4", "to": "d3",
                                     "rock": "N"})
    assert off["rocks"]["d4"] == 1 and sum(off["rocks"].values()) == 17 - 1
    assert {"type": "rock_pushed", "from": "d4", "to": None, "dir": "N"} in events
    under, _ = GAME.apply(state, {"type": "move", "seat": 1, "from": "d4", "to": "d3",
                                  "rock": "W"})
    assert under["rocks"]["c4"] == 2 and under["pieces"][2] == ["c4", "d1", "d2"]
    refused(state, {"type": "move", "seat": 1, "from": "b2", "to": "b1", "rock": "NE"},
            "G-4.2")


def test_G_4_3_rock_move_is_mandatory_and_null_only_when_impossible():
    state = position(QUIET)
    refused(state, {"type": "move", "seat": 1, "from": "b2", "to": "b1", "rock": None}, "G-4.3")
    empty = position(QUIET, rocks={"b2": 0, "b1": 2})
    assert {m["rock"] for m in GAME.legal_moves(empty, 1) if m["from"] == "b2"} == {None}
    refused(empty, {"type": "move", "seat": 1, "from": "b2", "to": "b1", "rock": "N"}, "G-4.3")
    # every direction of the origin blocked: b2 rock-rich, neighbours flipped, b1 escape
    walled = position({1: ["b2", "d4"], 2: ["a4", "c4"], 3: ["d1", "d2"]},
                      rocks={"b2": 3, "b1": 0}, escapes=[(1, "a2", 1), (3, "c2", 1),
                                                         (2, "b3", 1)], ghost="a1")
    assert [m["rock"] for m in GAME.legal_moves(walled, 1) if m["to"] == "b1"] == [None]


def test_G_4_4_the_escaping_piece_moves_first_so_no_rock_lands_on_its_plate():
    state = position(QUIET, rocks={"b1": 0})
    rocks = {m["rock"] for m in GAME.legal_moves(state, 1) if m["to"] == "b1"}
    assert rocks == {"N", "E", "W"}
    refused(state, {"type": "move", "seat": 1, "from": "b2", "to": "b1", "rock": "S"}, "G-4.4")


# ---------------------------------------------------------------- G-5
def test_G_5_1_a_piece_on_a_rockless_plate_escapes_and_the_plate_flips():
    state = position(QUIET, rocks={"b1": 0})
    after, events = GAME.apply(state, {"type": "move", "seat": 1, "from": "b2", "to": "b1",
                                       "rock": "N"})
    assert "b1" not in after["pieces"][0] and "b2" not in after["pieces"][0]
    assert after["flipped"] == ["b1"]
    assert {"type": "piece_escaped", "seat": 1, "plate": "b1", "points": 1,
            "bonus": 3} in events


def test_G_5_2_worked_example_points_are_the_origin_rocks_before_the_push():
    state = position({1: ["c2", "a4", "d4"], 2: ["a3", "a1", "b4"], 3: ["d1", "a2", "b1"]},
                     rocks={"c2": 4, "c3": 0})
    after, _ = GAME.apply(state, {"type": "move", "seat": 1, "from": "c2", "to": "c3",
                                  "rock": "E"})
    assert after["escapes"] == [{"seat": 1, "plate": "c3", "points": 4, "bonus": 3}]
    assert after["flipped"] == ["c3"]
    assert after["rocks"]["c2"] == 3 and after["rocks"]["d2"] == 2
    assert GAME.score(after)["scores"][0]["total"] == 7


def test_G_5_3_escape_bonuses_3_2_1_then_none():
    state = position({1: ["b2"], 2: ["a4", "c4"], 3: ["d1", "d2", "a1"]},
                     escapes=[(1, "c3", 2), (1, "a3", 1), (2, "c1", 1)], ghost="d3", turn=1)
    assert [e["bonus"] for e in state["escapes"]] == [3, 2, 1]
    state = position({1: ["b2"], 2: ["a4", "c4"], 3: ["d1", "d2", "a1"]},
                     rocks={"b1": 0}, escapes=[(1, "c3", 2), (1, "a3", 1), (2, "c1", 1)],
                     ghost="d3", turn=1)
    after, events = GAME.apply(state, {"type": "move", "seat": 1, "from": "b2", "to": "b1",
                                       "rock": "N"})
    assert after["escapes"][3]["bonus"] == 0


# ---------------------------------------------------------------- G-6
def test_G_6_1_the_third_escape_places_the_ghost_on_a_face_up_plate():
    state = position({1: ["b2", "a4"], 2: ["a3", "b4"], 3: ["d1", "d2", "c4"]},
                     rocks={"b1": 0}, escapes=[(1, "c3", 1), (2, "d4", 1)])
    ghosts = {m.get("ghost") for m in GAME.legal_moves(state, 1) if m["to"] == "b1"}
    assert ghosts == set(PLATES) - {"c3", "d4", "b1"}
    refused(state, {"type": "move", "seat": 1, "from": "b2", "to": "b1", "rock": "N"}, "G-6.1")
    refused(state, {"type": "move", "seat": 1, "from": "b2", "to": "b1", "rock": "N",
                    "ghost": "c3"}, "G-6.1")
    refused(state, {"type": "move", "seat": 1, "from": "b2", "to": "a2", "rock": "N",
                    "ghost": "a1"}, "G-6.1")
    after, events = GAME.apply(state, {"type": "move", "seat": 1, "from": "b2", "to": "b1",
                                       "rock": "N", "ghost": "a2"})
    assert after["ghost"] == "a2"
    assert events[-1] == {"type": "ghost_placed", "seat": 1, "plate": "a2"}


def test_G_6_2_the_die_is_rolled_before_each_turn_of_seat_1_even_when_skipped():
    ghost = dict(escapes=[(1, "c3", 1), (2, "c1", 1), (1, "a2", 1)], ghost="b3")
    state = position({1: ["b2"], 2: ["a3", "b4"], 3: ["d1", "d2", "a1"]}, turn=3, **ghost)
    after, _ = GAME.apply(state, GAME.legal_moves(state, 3)[0])
    assert after["to_move"] == ["chance"]
    rolled, events = GAME.apply(after, {"type": "roll", "seat": "chance", "dir": "E"})
    assert rolled["ghost"] == "d3"  # c3 is flipped: jumped
    assert rolled["to_move"] == [1]
    assert {"type": "rock_removed", "plate": "b3"} in events and rolled["rocks"]["b3"] == 0
    # seat 1 without pieces: the roll still happens, then seat 2 plays
    gone = position({1: [], 2: ["a3", "b4"], 3: ["d1", "d2", "a1"]}, turn=3,
                    escapes=[(1, "c3", 1), (2, "c1", 1), (1, "a2", 1), (1, "b2", 0)],
                    ghost="b3")
    after, _ = GAME.apply(gone, GAME.legal_moves(gone, 3)[0])
    assert after["to_move"] == ["chance"]
    rolled, _ = GAME.apply(after, {"type": "roll", "seat": "chance", "dir": "N"})
    assert rolled["to_move"] == [2]


def test_G_6_3_the_ghost_jumps_flipped_plates_and_wraps_around():
    state = position({1: ["b2"], 2: ["a3", "b4"], 3: ["d1", "d2", "a1"]},
                     escapes=[(1, "c1", 1), (2, "c2", 1), (1, "a2", 1)],
                     ghost="c4", turn=1, to_move=["chance"])
    # north from c4 wraps to c1 (flipped) and c2 (flipped), landing on c3
    rolled, events = GAME.apply(state, {"type": "roll", "seat": "chance", "dir": "N"})
    assert rolled["ghost"] == "c3"
    assert events[0] == {"type": "ghost_moved", "dir": "N", "from": "c4", "to": "c3"}
    diag, _ = GAME.apply(state, {"type": "roll", "seat": "chance", "dir": "NE"})
    assert diag["ghost"] == "d1"  # c4 → d1 across the corner of the torus
    west, _ = GAME.apply(state, {"type": "roll", "seat": "chance", "dir": "W"})
    assert west["ghost"] == "b4"


def test_G_6_3_a_ghost_that_would_return_to_its_plate_stays_and_still_removes_a_rock():
    # every other plate of file c flipped: walking N from c1 comes back to c1
    state = position({1: ["b2"], 2: ["a3", "b4"], 3: ["d1", "d2", "a1"]},
                     rocks={"c1": 3},
                     escapes=[(1, "c2", 1), (2, "c3", 1), (1, "c4", 1)],
                     ghost="c1", turn=1, to_move=["chance"])
    rolled, events = GAME.apply(state, {"type": "roll", "seat": "chance", "dir": "S"})
    assert rolled["ghost"] == "c1" and rolled["rocks"]["c1"] == 2
    assert {"type": "rock_removed", "plate": "c1"} in events


def test_G_6_4_the_ghost_never_affects_pieces():
    state = position({1: ["b2"], 2: ["a3", "b4"], 3: ["d1", "d2", "a1"]},
                     escapes=[(1, "c1", 1), (2, "c2", 1), (1, "a2", 1)],
                     ghost="d1", turn=1, to_move=["chance"])  # the ghost sits on a piece
    rolled, _ = GAME.apply(state, {"type": "roll", "seat": "chance", "dir": "W"})
    assert rolled["pieces"] == state["pieces"] and rolled["ghost"] == "b1"


# ---------------------------------------------------------------- G-7
def test_G_7_1_the_game_ends_when_one_seat_owns_every_piece_left():
    state = position({1: ["b2"], 2: ["a4", "c4"], 3: []}, rocks={"b1": 0},
                     escapes=[(3, "c3", 1), (3, "d1", 1), (3, "a2", 1), (1, "d3", 1),
                              (2, "d2", 1), (1, "a3", 1)], ghost="a1", turn=1)
    after, events = GAME.apply(state, {"type": "move", "seat": 1, "from": "b2", "to": "b1",
                                       "rock": "N"})
    assert after["to_move"] == [] and after["end"] == "G-7.1"
    assert events[-1] == {"type": "game_over", "rule": "G-7.1"}
    with pytest.raises(GameOver):
        GAME.apply(after, {"type": "pass", "seat": 2})


def test_G_7_2_a_whole_cycle_of_forced_passes_ends_the_game():
    # seat 1 walled in on a1, seat 2 walled in on d4: neither can ever move again
    state = position({1: ["a1"], 2: ["d4"], 3: []},
                     escapes=[(3, "a2", 1), (3, "b1", 1), (3, "c4", 1), (1, "d3", 1),
                              (2, "b2", 1), (1, "c2", 1), (2, "a4", 0)],
                     ghost="c3", turn=2)
    after, _ = GAME.apply(state, {"type": "pass", "seat": 2})
    assert after["to_move"] == ["chance"]  # seat 1's roll
    after, _ = GAME.apply(after, {"type": "roll", "seat": "chance", "dir": "N"})
    after, events = GAME.apply(after, {"type": "pass", "seat": 1})
    assert after["to_move"] == [] and after["end"] == "G-7.2"
    assert GAME.score(after)["final"] is True


def test_G_7_3_score_is_points_plus_bonuses_and_ties_share_the_win():
    state = position({1: ["a1"], 2: ["d4"], 3: []},
                     escapes=[(3, "a2", 1), (3, "b1", 1), (3, "c4", 1), (1, "d3", 1),
                              (2, "b2", 1), (1, "c2", 4), (2, "a4", 0)],
                     ghost="c3", turn=2, passes=1)
    after, _ = GAME.apply(state, {"type": "pass", "seat": 2})
    score = GAME.score(after)
    totals = {s["seat"]: s["total"] for s in score["scores"]}
    assert totals == {1: 1 + 4, 2: 1 + 0, 3: (1 + 1 + 1) + (3 + 2 + 1)}
    assert score["winners"] == [3]
    tie = GAME.calculate({"players": 3, "escapes": [{"seat": 1, "points": 2},
                                                    {"seat": 2, "points": 3}]})
    assert tie["winners"] == [1, 2]
    assert [r["rank"] for r in tie["ranking"]] == [1, 1, 3]


def test_G_7_4_the_score_is_available_any_time_and_final_only_at_the_end():
    state = position(QUIET, escapes=[])
    running = GAME.score(state)
    assert running["final"] is False and running["winners"] == []
    assert all(s["total"] == 0 for s in running["scores"])


# ---------------------------------------------------------------- G-8
def test_G_8_1_digital_rolls_from_the_generator_tabletop_enters_the_roll():
    state = position({1: ["b2"], 2: ["a3", "b4"], 3: ["d1", "d2", "a1"]}, turn=3,
                     escapes=[(1, "c3", 1), (2, "c1", 1), (1, "a2", 1)], ghost="b3",
                     mode="digital")
    after, events = GAME.apply(state, GAME.legal_moves(state, 3)[0])
    assert after["to_move"] == [1]  # the referee rolled
    assert after["rng"] != state["rng"]
    assert any(e["type"] == "ghost_moved" for e in events)
    again, _ = GAME.apply(state, GAME.legal_moves(state, 3)[0])
    assert again == after  # the generator lives in the state: replays are identical
    table = position({1: ["b2"], 2: ["a3", "b4"], 3: ["d1", "d2", "a1"]}, turn=1,
                     escapes=[(1, "c3", 1), (2, "c1", 1), (1, "a2", 1)], ghost="b3",
                     to_move=["chance"])
    with pytest.raises(IllegalMove):
        GAME.apply(table, {"type": "roll", "seat": "chance", "dir": "UP"})
    with pytest.raises(NotYourTurn):
        GAME.apply(table, {"type": "pass", "seat": 1})


def test_G_8_2_views_show_the_whole_position_but_the_generator():
    state = GAME.new(4, seed=9)
    for seat in (None, 1, 2, 3, 4):
        view = GAME.view(state, seat)
        assert view == dict({k: v for k, v in state.items() if k != "rng"}, seeded=True)


# ---------------------------------------------------------------- G-9
def test_G_9_move_shapes_and_unknown_types():
    state = position(QUIET)
    move = GAME.legal_moves(state, 1)[0]
    assert set(move) == {"type", "seat", "from", "to", "rock"}
    refused(state, {"type": "jump", "seat": 1}, "G-9")


# --------------------------------------------------------- forged states
@pytest.mark.parametrize("forge", [
    lambda s: s.update(rocks=dict(s["rocks"], a1=-1)),
    lambda s: s.update(pieces=[["b2"], ["b2"], ["d1"]]),
    lambda s: s.update(flipped=["b2"]),
    lambda s: s.update(ghost="c3"),
    lambda s: s.update(to_move=[2]),
    lambda s: s.update(extra=1),
    lambda s: s["escapes"].append({"seat": 1, "plate": "a1", "points": 1, "bonus": 3}),
    lambda s: s.update(version=-1),
    lambda s: s.update(game="chess"),
])
def test_forged_states_are_refused(forge):
    state = position(QUIET)
    forge(state)
    with pytest.raises(InvalidState):
        GAME.legal_moves(state)



def test_G_5_2_a_state_with_an_escape_score_the_rules_cannot_reach_is_refused():
    pieces = {1: ["b2", "a4"], 2: ["a3", "b4", "c4"], 3: ["d1", "d2", "a1"]}
    GAME.check_state(position(pieces, escapes=[(1, "c3", 35)]))  # 43 − 8 others
    for points in (0, 36):  # before the ghost a piece stands on a rock (G-6.2, G-5.1)
        with pytest.raises(InvalidState):
            position(pieces, escapes=[(1, "c3", points)])


def test_ghostone_has_no_options_to_misconfigure():
    assert GAME.info()["options"] == {}
    with pytest.raises(InvalidOptions) as refused:
        GAME.new(3, options={"ghosts": 0})
    assert "ghosts" in refused.value.detail


def ended_by_g_7_1():
    state = position({1: ["b2"], 2: ["a4", "c4"], 3: []}, rocks={"b1": 0},
                     escapes=[(3, "c3", 1), (3, "d1", 1), (3, "a2", 1), (1, "d3", 1),
                              (2, "d2", 1), (1, "a3", 1)], ghost="a1", turn=1)
    return GAME.apply(state, {"type": "move", "seat": 1, "from": "b2", "to": "b1",
                              "rock": "N"})[0]


def ended_by_g_7_2():
    state = position({1: ["a1"], 2: ["d4"], 3: []},
                     escapes=[(3, "a2", 1), (3, "b1", 1), (3, "c4", 1), (1, "d3", 1),
                              (2, "b2", 1), (1, "c2", 1), (2, "a4", 0)],
                     ghost="c3", turn=2, passes=1)
    return GAME.apply(state, {"type": "pass", "seat": 2})[0]


@pytest.mark.parametrize("ended,forge", [
    (ended_by_g_7_1, lambda s: s.update(passes=2)),  # the ending move reset the passes
    (ended_by_g_7_1, lambda s: s.update(turn=9)),
    (ended_by_g_7_1, lambda s: s.update(turn=None)),
    (ended_by_g_7_1, lambda s: s.update(  # the last piece escaped too: the game ended before
        pieces=[[], [], []], flipped=sorted(s["flipped"] + ["a4", "c4"]),
        rocks=dict(s["rocks"], a4=0, c4=0),
        escapes=s["escapes"] + [{"seat": 2, "plate": "a4", "points": 1, "bonus": 0},
                                {"seat": 2, "plate": "c4", "points": 1, "bonus": 0}])),
    (ended_by_g_7_2, lambda s: s.update(passes=99)),  # the cycle ended at its 2nd pass
    (ended_by_g_7_2, lambda s: s.update(passes=1)),
])
def test_G_7_1_G_7_2_a_finished_state_agrees_with_how_the_game_ended(ended, forge):
    state = ended()
    GAME.check_state(state)
    assert state["phase"] == "over"
    forge(state)
    with pytest.raises(InvalidState) as refused:
        GAME.check_state(state)
    assert "does not agree" in refused.value.detail
