"""Setup, the turn and the four actions (Z-2, Z-3, Z-3.1 … Z-3.4, Z-4, Z-10, Z-12)."""

import pytest

from referee import conformance
from referee.errors import InvalidOptions, InvalidPlayers, InvalidState

from gizmos_helpers import (
    GAME, apply, chance, holding, legal, position, refused, ring, seat, settle,
)


# ------------------------------------------------------------------ Z-2
@pytest.mark.parametrize("players", [2, 3, 4])
def test_Z_2_setup_display_row_starting_gizmos_and_limits(players):
    state = GAME.new(players, seed=players)
    assert [len(state["display"][lv]) for lv in "123"] == [4, 3, 2]
    assert sum(state["row"].values()) == 6
    # Z-2.4: 16 Level III cards in play, 2 of them face up: 14 left in the deck
    assert {lv: d["unseen"] for lv, d in state["decks"].items()} == {"1": 32, "2": 33, "3": 14}
    for n, p in enumerate(state["seats"]):
        assert p["built"] == [901 + n] and p["archive"] == [] and p["vp_tokens"] == 0
        assert sum(p["ring"].values()) == 0
    assert state["turn"] == 1 and state["to_move"] == [1] and state["phase"] == "main"


@pytest.mark.parametrize("players", [1, 5])
def test_Z_2_two_to_four_players(players):
    with pytest.raises(InvalidPlayers) as caught:
        GAME.new(players)
    assert caught.value.rule == "Z-2"


def test_Z_2_tabletop_setup_enters_each_card_and_sphere_and_the_removed_need_not_be():
    state = GAME.new(2, mode="tabletop")
    assert state["to_move"] == ["chance"]
    outcomes = GAME.legal_moves(state)
    assert len(outcomes) == 36 and all(m["type"] == "deal" for m in outcomes)
    entered = 0
    while state["to_move"] == ["chance"]:
        head = state["chance"][0]
        if head.get("level") == 3:  # every unseen Level III card may turn up (Z-2.4)
            assert len(GAME.legal_moves(state)) == 36 - len(state["display"]["3"])
        state, _ = apply(state, {k: v for k, v in GAME.legal_moves(state)[0].items()
                                 if k != "p"})
        entered += 1
    assert entered == 4 + 3 + 2 + 6
    refused(GAME.new(2, mode="tabletop"), {"type": "deal", "seat": "chance", "to": "display",
                                           "card": 201}, "Z-2")


# ------------------------------------------------------------------ Z-3
def test_Z_3_exactly_one_action_then_gizmos_then_end_turn():
    state = position(display=[101])
    state, _ = apply(state, {"type": "pick", "color": "red"})
    state, _ = settle(state)
    assert state["phase"] == "actions"
    assert legal(state) == [{"type": "end_turn", "seat": 1}]
    refused(state, {"type": "pick", "color": "black"}, "Z-8")
    refused(position(), {"type": "end_turn"}, "Z-3")
    state, events = apply(state, {"type": "end_turn"})
    assert state["turn"] == 2 and state["phase"] == "main" and events[-1]["type"] == "turn_ended"


def test_Z_3_pass_only_when_no_action_is_possible():
    # ring full, Archive full, no card payable, Research forbidden by a Negator
    busy = position(seats=[{"ring": {"black": 5}, "built": [321], "archive": [102]}],
                    display=[110])
    assert legal(busy) == [{"type": "pass", "seat": 1}]
    state, events = apply(busy, {"type": "pass"})
    assert state["turn"] == 2 and events[0]["type"] == "passed"
    refused(position(), {"type": "pass"}, "Z-3")


def test_Z_3_pass_is_refused_when_only_a_build_is_possible():
    """Accepting a move that is not a Build does not list the payments, but still asks
    whether some Build could be paid: then passing is refused."""
    only_build = position(seats=[{"ring": {"black": 5}, "built": [321], "archive": [102]}],
                          display=[105, 110])
    assert {m["type"] for m in legal(only_build)} == {"build"}
    refused(only_build, {"type": "pass"}, "Z-3")
    state, _ = apply(only_build, {"type": "build", "card": 105, "spend": ["black"],
                                  "converters": []})
    assert 105 in seat(state)["built"]
    nothing = position(seats=[{"ring": {"black": 5}, "built": [321], "archive": [102]}],
                       display=[110])
    state, _ = apply(nothing, {"type": "pass"})
    assert state["turn"] == 2


def test_Z_3_a_full_round_of_passes_ends_the_game():
    stuck = {"ring": {"black": 5}, "built": [321], "archive": [102]}
    state = position(seats=[stuck, dict(stuck, archive=[103], built=[322])], display=[110])
    state, _ = apply(state, {"type": "pass"}, {"type": "pass"})
    assert state["phase"] == "over" and state["to_move"] == []


def test_Z_3_unknown_moves_are_refused():
    refused(position(), {"type": "steal"}, "Z-3")


@pytest.mark.parametrize("move, rule", [
    ({"type": "steal"}, "Z-3"),
    ({"type": "pick", "color": "pink"}, "Z-3.2"),
    ({"type": "file", "card": "x"}, "Z-3.1"),
    ({"type": "build", "card": [1], "spend": [], "converters": []}, "Z-3.3"),
    ({"type": "build", "card": 101, "spend": [], "converters": ["x"]}, "Z-5"),
])
def test_Z_3_refusals_are_sentences_that_quote_json_not_python(move, rule):
    detail = refused(position(display=[101]), move, rule).detail
    assert "'" not in detail and "None" not in detail and "True" not in detail, detail


# ---------------------------------------------------------------- Z-3.1
def test_Z_3_1_file_moves_a_display_card_to_the_archive_and_refills():
    state = position(display=[101, 201])
    state, events = apply(state, {"type": "file", "card": 101})
    assert seat(state)["archive"] == [101] and state["display"]["1"] == []
    assert state["to_move"] == ["chance"] and state["chance"][0] == {
        "draw": "card", "level": 1, "to": "display"}
    state, _ = chance(state, card=136)
    assert state["display"]["1"] == [136] and state["phase"] == "actions"


def test_Z_3_1_archive_at_its_limit_cannot_file():
    state = position(seats=[{"archive": [102]}], display=[101])
    assert not legal(state, type="file")
    refused(state, {"type": "file", "card": 101}, "Z-3.1")
    refused(position(display=[101]), {"type": "file", "card": 102}, "Z-3.1")


def test_Z_3_1_empty_deck_leaves_the_slot_empty():
    state = position(players=4, display=[201], seats=holding(range(202, 237)))
    state, _ = apply(state, {"type": "file", "card": 201})
    assert state["display"]["2"] == [] and state["to_move"] == [1]


# ---------------------------------------------------------------- Z-3.2
def test_Z_3_2_pick_takes_a_row_sphere_and_a_random_one_rolls_in():
    state = position(row={"black": 6, "blue": 0, "red": 0, "yellow": 0})
    state, events = apply(state, {"type": "pick", "color": "black"})
    assert seat(state)["ring"]["black"] == 1 and state["row"]["black"] == 5
    outcomes = GAME.legal_moves(state)
    # the hopper holds 52 - 6 = 46: 7 black, 13 of every other colour
    assert {m["color"]: m["p"] for m in outcomes} == pytest.approx(
        {"black": 7 / 46, "blue": 13 / 46, "red": 13 / 46, "yellow": 13 / 46})
    state, _ = chance(state, color="blue")
    assert state["row"] == {"black": 5, "blue": 1, "red": 0, "yellow": 0}


def test_Z_3_2_full_ring_cannot_pick_not_even_to_replace():
    state = position(seats=[{"ring": {"red": 5}}])
    assert not legal(state, type="pick")
    refused(state, {"type": "pick", "color": "black"}, "Z-3.2")
    refused(position(row={"black": 6, "blue": 0, "red": 0, "yellow": 0}),
            {"type": "pick", "color": "red"}, "Z-3.2")


def test_Z_3_2_a_draw_is_not_a_pick_and_triggers_no_pick_gizmo():
    # seat owns 109 (pick blue → draw) and files with its starting gizmo (file → draw)
    state = position(seats=[{"built": [109]}], display=[101])
    state, _ = apply(state, {"type": "file", "card": 101})
    state, _ = settle(state)
    state, _ = apply(state, {"type": "draw", "via": 901})
    state, events = chance(state, color="blue")
    assert seat(state)["ring"]["blue"] == 1 and state["row"] == {
        "black": 2, "blue": 2, "red": 1, "yellow": 1}
    assert not any(e["type"] == "triggered" for e in events)
    assert "109" not in state["turn_state"]["ready"]


# ---------------------------------------------------------------- Z-3.3
def test_Z_3_3_build_pays_exactly_returns_spheres_and_refills_the_display():
    state = position(seats=[{"ring": {"black": 2, "red": 1}}], display=[201, 102])
    assert legal(state, type="build") == []  # 201 costs 3 black, 102 costs 1 blue
    state["seats"][0]["ring"] = ring(black=3)
    GAME.check_state(state)
    builds = legal(state, type="build")
    assert builds == [{"type": "build", "seat": 1, "card": 201,
                       "spend": ["black", "black", "black"], "converters": []}]
    state, events = apply(state, builds[0])
    assert seat(state)["built"] == [201, 901] and seat(state)["ring"] == ring()
    assert state["chance"] == [{"draw": "card", "level": 2, "to": "display"}]
    refused(position(seats=[{"ring": {"black": 2}}], display=[201]),
            {"type": "build", "card": 201, "spend": ["black", "black"], "converters": []},
            "Z-5")
    refused(position(seats=[{"ring": {"black": 2}}], display=[201]),
            {"type": "build", "card": 201, "spend": ["black"] * 3, "converters": []}, "Z-3.3")
    refused(position(), {"type": "build", "card": 201, "spend": [], "converters": []},
            "Z-3.3")


def test_Z_3_3_build_from_the_archive_refills_nothing():
    state = position(seats=[{"ring": {"blue": 1}, "archive": [102]}])
    state, _ = apply(state, {"type": "build", "card": 102, "spend": ["blue"],
                             "converters": []})
    assert seat(state)["archive"] == [] and 102 in seat(state)["built"]
    assert state["to_move"] == [1] and state["phase"] == "actions"


def test_Z_3_3_upgrades_apply_at_once_later_in_the_same_turn():
    # the Archive is full; 126 (File Limit +1) is blue, so 325 (build blue → File) triggers
    state = position(seats=[{"ring": {"blue": 1}, "archive": [101], "built": [325]}],
                     display=[126, 104])
    assert not legal(state, type="file")
    state, _ = apply(state, {"type": "build", "card": 126, "spend": ["blue"],
                             "converters": []})
    state, _ = settle(state)
    assert {"type": "file", "seat": 1, "card": 104, "via": 325} in legal(state)


# ---------------------------------------------------------------- Z-3.4
def _research_level_2(**options):
    state = position(display=[101], options=options or None)
    state, events = apply(state, {"type": "research", "level": 2})
    assert events[-1] == {"type": "research_started", "seat": 1, "level": 2, "count": 3}
    assert state["phase"] == "research" and len(state["chance"]) == 3
    for card in (201, 205, 209):
        state, events = chance(state, card=card)
    assert state["research"] == {"level": 2, "cards": [201, 205, 209]}
    return state, [e for e in events if e["type"] == "card_drawn"][0]


def test_Z_3_4_research_draws_are_seen_only_by_the_researching_seat_by_default():
    """Z-3.4 / Z-12: while it decides, only the researching seat sees what it drew; the
    others see the level and how many (the referee default: the official rules are
    silent, and the issue's views rule says so)."""
    state, drawn = _research_level_2()
    assert GAME.view(state, 1)["research"] == {"level": 2, "cards": [201, 205, 209]}
    for viewer in (2, None):
        assert GAME.view(state, viewer)["research"] == {"level": 2, "count": 3}
        assert "card" not in GAME.view_events([drawn], viewer)[0]
    assert GAME.view_events([drawn], 1)[0]["card"] == 209
    deal = {"type": "deal", "seat": "chance", "to": "research", "researcher": 1,
            "private": True, "card": 209}
    assert "card" not in GAME.view_move(deal, 2) and GAME.view_move(deal, 1)["card"] == 209
    assert legal(state) == [{"type": "file", "seat": 1, "card": c} for c in (201, 205, 209)] \
        + [{"type": "decline", "seat": 1}]


def test_Z_3_4_research_draws_shown_to_everyone_with_the_bga_option():
    """Z-3.4 item 7 [BGA] (option research_draws_public): the cards drawn are shown to
    everyone; only the order in which the rest go back face down (Z-12) stays hidden."""
    state, drawn = _research_level_2(research_draws_public=True)
    for viewer in (1, 2, None):
        assert GAME.view(state, viewer)["research"] == {"level": 2, "cards": [201, 205, 209]}
        assert GAME.view_events([drawn], viewer)[0]["card"] == 209
    deal = {"type": "deal", "seat": "chance", "to": "research", "researcher": 1, "card": 209}
    assert GAME.view_move(deal, 2)["card"] == 209 and GAME.view_move(deal, 1)["card"] == 209
    # putting the rest back: the other seats see how many are left, not which
    state, _ = apply(state, {"type": "file", "card": 205})
    assert GAME.view(state, 1)["research"] == {"level": 2, "cards": [201, 209]}
    assert GAME.view(state, 2)["research"] == {"level": 2, "count": 2}
    assert GAME.view(state, None)["research"] == {"level": 2, "count": 2}


@pytest.mark.parametrize("options", [
    {"research_draws_public": "yes"}, {"research_draws_public": 1},
    {"research_draws_public": None}, {"research_draws_public": [True]},
])
def test_Z_3_4_the_research_visibility_option_is_a_boolean(options):
    """The one option (who sees a Research draw, Z-3.4 item 7) cannot make the game endless
    or impossible to set up; a value that is not a boolean is refused, naming it."""
    with pytest.raises(InvalidOptions) as caught:
        GAME.new(2, options=options)
    assert caught.value.rule == "Z-3.4" and "research_draws_public" in caught.value.detail


@pytest.mark.parametrize("players", [2, 3, 4])
def test_Z_3_4_a_game_with_research_draws_public_plays_to_its_end(players):
    result = conformance.play_random_game(GAME, players, seed=players, deep=False,
                                          options={"research_draws_public": True})
    assert result.final["phase"] == "over" and result.score["winners"]
    assert result.final["options"] == {"research_draws_public": True}


def _researched(cards, level=1, **kw):
    state = position(**kw)
    state, _ = apply(state, {"type": "research", "level": level})
    for card in cards:
        state, _ = chance(state, card=card)
    return state


def test_Z_3_4_the_rest_go_to_the_bottom_in_the_chosen_order_and_come_back_in_it():
    state = _researched([101, 102, 103])
    state, _ = apply(state, {"type": "file", "card": 102})
    assert state["phase"] == "return" and seat(state)["archive"] == [102]
    assert legal(state) == [{"type": "bottom", "seat": 1, "card": 103},
                            {"type": "bottom", "seat": 1, "card": 101}][::-1]
    state, events = apply(state, {"type": "bottom", "card": 103})
    assert state["decks"]["1"]["bottom"] == [103, 101] and state["research"] is None
    assert GAME.view(state, 1)["decks"]["1"] == {"count": 35}
    assert GAME.view_move({"type": "bottom", "seat": 1, "card": 103}, 2) == {
        "type": "bottom", "seat": 1}


def test_Z_3_4_cards_put_back_come_up_again_in_their_order():
    # seat 2 built every other Level I card: the deck is only what Research put back
    others = [c for c in range(101, 137) if c not in (101, 103, 136)]
    state = position(players=4, bottom={1: [103, 101]}, display=[136], seats=holding(others))
    assert state["decks"]["1"] == {"unseen": 0, "bottom": [103, 101]}
    state, events = apply(state, {"type": "file", "card": 136})
    assert state["display"]["1"] == [103] and state["decks"]["1"]["bottom"] == [101]
    assert state["to_move"] == [1]  # no chance: the card was known


def test_Z_3_4_decline_returns_everything_and_build_from_research_triggers():
    state = _researched([129, 130, 131], seats=[{"ring": {"red": 1}, "built": [132]}])
    builds = legal(state, type="build")
    assert builds == [{"type": "build", "seat": 1, "card": 131, "spend": ["red"],
                       "converters": []}]
    declined, _ = apply(state, {"type": "decline"})
    assert declined["phase"] == "return"
    declined, _ = apply(declined, {"type": "bottom", "card": 131},
                        {"type": "bottom", "card": 130})
    assert declined["decks"]["1"]["bottom"] == [131, 130, 129]
    assert declined["phase"] == "actions" and declined["research"] is None
    built, events = apply(state, builds[0])
    assert any(e == {"type": "triggered", "seat": 1, "gizmo": 132} for e in events)
    assert built["phase"] == "return"
    built, _ = apply(built, {"type": "bottom", "card": 129})
    assert built["decks"]["1"]["bottom"] == [129, 130] and built["phase"] == "actions"
    assert legal(built, via=132)


def test_Z_3_4_empty_deck_cannot_be_researched_and_a_short_deck_draws_what_is_left():
    others = [c for c in range(101, 137) if c not in (101, 102)]
    state = position(players=4, bottom={1: [101, 102]}, seats=holding(others))
    state, events = apply(state, {"type": "research", "level": 1})
    assert {"type": "research_started", "seat": 1, "level": 1, "count": 2} in events
    assert state["research"] == {"level": 1, "cards": [101, 102]}
    state, _ = apply(state, {"type": "decline"}, {"type": "bottom", "card": 102})
    assert state["decks"]["1"]["bottom"] == [102, 101]
    empty = position(players=4, seats=holding(range(101, 137)))
    assert not legal(empty, type="research", level=1) and legal(empty, type="research")
    refused(empty, {"type": "research", "level": 1}, "Z-3.4")
    refused(empty, {"type": "research", "level": 7}, "Z-3.4")


def test_Z_3_4_research_steps_are_enforced():
    state = _researched([101, 102, 103])
    refused(state, {"type": "pick", "color": "red"}, "Z-3.4")
    refused(state, {"type": "file", "card": 120}, "Z-3.4")
    state, _ = apply(state, {"type": "decline"})
    refused(state, {"type": "end_turn"}, "Z-3.4")
    refused(position(), {"type": "bottom", "card": 101}, "Z-3.4")


def test_Z_3_4_filing_from_research_needs_archive_room_and_refills_nothing():
    state = _researched([101, 102, 103], seats=[{"archive": [104]}])
    assert not legal(state, type="file")
    state = _researched([101, 102, 103])
    state, _ = apply(state, {"type": "file", "card": 101})
    assert state["to_move"] == [1] and not state["chance"]


# ------------------------------------------------------------------ Z-4
def test_Z_4_research_amount_and_storage_limit_follow_the_increasers():
    state = position(seats=[{"built": [121, 201], "ring": {"black": 7}}])
    assert legal(state, type="pick")  # storage 5 + 1 + 2 = 8
    state["seats"][0]["ring"] = ring(black=6, red=2)
    state["row"]["red"] = 0
    GAME.check_state(state)
    assert not legal(state, type="pick")
    state, events = apply(state, {"type": "research", "level": 1})
    assert events[-1]["count"] == 3 + 1 + 2


# ----------------------------------------------------------------- Z-10
def test_Z_10_spheres_are_conserved_and_the_hopper_is_the_rest():
    forged = position()
    forged["seats"][0]["ring"] = ring(black=12)  # 12 + 2 in the row > 13
    with pytest.raises(InvalidState):
        GAME.check_state(forged)
    # all 13 blue spheres are out of the hopper: a blue one can never roll in
    state = position(players=3, seats=[{"ring": {"blue": 4}}, {"ring": {"blue": 5}},
                                       {"ring": {"blue": 2}}])
    state, _ = apply(state, {"type": "pick", "color": "blue"})
    outcomes = GAME.legal_moves(state)
    assert sorted(m["color"] for m in outcomes) == ["black", "red", "yellow"]
    refused(state, {"type": "marble", "seat": "chance", "color": "blue"}, "Z-10")
    refused(state, {"type": "marble", "seat": "chance", "color": "pink"}, "Z-10")
    assert sum(m["p"] for m in outcomes) == pytest.approx(1)


def test_Z_10_the_hopper_never_runs_dry():
    """Every Increaser in four rings holds 4 × 5 + 24 = 44 spheres; with the row, 50 < 52."""
    from gizmos.cards import CARDS
    raised = sum(c["effect"].get("energy_limit", 0) for c in CARDS.values())
    assert 4 * 5 + raised + 6 < 52
