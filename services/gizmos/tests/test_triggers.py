"""Triggers, chains and effect results (Z-8, Z-9, Z-12, Z-14)."""

from gizmos.service import create_app

from gizmos_helpers import apply, chance, legal, position, refused, ring, seat, settle


def test_Z_8_official_chain_reaction_example():
    """Heather: yellow → 2 yellow pays 208 from her Archive; 227 triggers a pick of yellow,
    which triggers 111 (pick yellow → draw); the new 208 does not trigger on its own Build."""
    state = position(seats=[{"ring": {"yellow": 2, "red": 1}, "built": [217, 227, 111],
                             "archive": [208]}])
    assert legal(state, type="build", card=208) == [
        {"type": "build", "seat": 1, "card": 208, "spend": ["yellow", "yellow"],
         "converters": [217]}]
    state, events = apply(state, {"type": "build", "card": 208, "spend": ["yellow", "yellow"],
                                  "converters": [217]})
    assert [e["gizmo"] for e in events if e["type"] == "triggered"] == [227]
    assert state["turn_state"]["ready"] == {"227": 1}
    state, events = apply(state, {"type": "pick", "color": "yellow", "via": 227})
    assert [e["gizmo"] for e in events if e["type"] == "triggered"] == [111]
    state, _ = settle(state)
    state, events = apply(state, {"type": "draw", "via": 111})
    state, events = chance(state, color="black")
    assert seat(state)["ring"] == ring(red=1, yellow=1, black=1)
    assert "208" not in state["turn_state"]["ready"]
    assert legal(state) == [{"type": "end_turn", "seat": 1}]


def test_Z_8_a_new_gizmo_can_trigger_later_in_the_chain():
    """208 built from the Archive; a later free Level I build from the Archive triggers it."""
    state = position(seats=[{"ring": {"blue": 3}, "built": [125, 320], "archive": [101, 206]}])
    state, events = apply(state, {"type": "build", "card": 206, "spend": ["blue"] * 3,
                                  "converters": []})
    assert state["turn_state"]["ready"] == {"320": 1}
    refused(state, {"type": "build", "card": 201, "spend": [], "converters": [], "via": 320},
            "Z-9")
    refused(state, {"type": "build", "card": 101, "spend": ["blue"], "converters": [],
                    "via": 320}, "Z-9")
    state, events = apply(state, {"type": "build", "card": 101, "spend": [], "converters": [],
                                  "via": 320})
    assert {"type": "triggered", "seat": 1, "gizmo": 206} in events  # from the Archive
    assert state["turn_state"]["ready"] == {"206": 2}


def test_Z_8_each_gizmo_once_per_turn_and_two_colour_triggers_fire_once():
    state = position(seats=[{"built": [209, 205]}],
                     row={"black": 0, "blue": 0, "red": 3, "yellow": 3}, display=[])
    state, events = apply(state, {"type": "pick", "color": "red"})
    state, _ = settle(state, "yellow")
    assert state["turn_state"]["ready"] == {"209": 1}
    state, _ = apply(state, {"type": "draw", "via": 209})
    state, _ = settle(state)
    assert state["turn_state"] == {"ready": {}, "spent": [209]}
    refused(state, {"type": "draw", "via": 209}, "Z-8")
    refused(state, {"type": "gain_vp", "via": 205}, "Z-8")


def test_Z_8_triggers_are_optional_and_reset_at_the_end_of_the_turn():
    state = position(seats=[{"built": [117]}], display=[101])
    state, _ = apply(state, {"type": "file", "card": 101})
    state, _ = settle(state)
    assert state["turn_state"]["ready"] == {"117": 1, "901": 1}
    state, _ = apply(state, {"type": "end_turn"})
    assert state["turn_state"] == {"ready": {}, "spent": []} and state["turn"] == 2


def test_Z_9_pick_2_is_two_picks_one_at_a_time_each_triggering():
    state = position(seats=[{"ring": {"black": 3}, "built": [313, 112], "archive": []}],
                     display=[209])
    state["seats"][0]["ring"] = ring(black=2)
    state, _ = apply(state, {"type": "build", "card": 209, "spend": ["black", "black"],
                             "converters": []})
    state, _ = settle(state)
    assert state["turn_state"]["ready"] == {"313": 2}
    state, events = apply(state, {"type": "pick", "color": "black", "via": 313})
    assert {"type": "triggered", "seat": 1, "gizmo": 112} in events
    state, _ = settle(state)
    assert state["turn_state"]["ready"] == {"313": 1, "112": 1}
    state, _ = apply(state, {"type": "pick", "color": "red", "via": 313})
    state, _ = settle(state)
    # the red pick triggers 209, built earlier this turn (Z-8)
    assert state["turn_state"]["ready"] == {"112": 1, "209": 1}
    assert 313 in state["turn_state"]["spent"]


def test_Z_9_draw_3_one_at_a_time_stops_when_the_ring_is_full():
    state = position(seats=[{"ring": {"red": 3}, "built": [311]}], display=[101])
    state, _ = apply(state, {"type": "file", "card": 101})
    state, _ = settle(state)
    for _ in range(2):
        state, _ = apply(state, {"type": "draw", "via": 311})
        state, _ = settle(state)
    assert seat(state)["ring"]["red"] == 5 and state["turn_state"]["ready"] == {
        "311": 1, "901": 1}
    assert legal(state) == [{"type": "end_turn", "seat": 1}]
    refused(state, {"type": "draw", "via": 311}, "Z-3.2")


def test_Z_9_file_research_vp_and_free_build_results():
    state = position(seats=[{"ring": {"blue": 5}, "built": [136, 325]}],
                     display=[102, 130, 101])
    state, events = apply(state, {"type": "build", "card": 102, "spend": ["blue"],
                                  "converters": []})
    state, _ = settle(state)
    assert state["turn_state"]["ready"] == {"136": 1, "325": 1}
    state, events = apply(state, {"type": "gain_vp", "via": 136})
    assert seat(state)["vp_tokens"] == 1
    state, events = apply(state, {"type": "file", "card": 130, "via": 325})
    assert seat(state)["archive"] == [130]
    assert {"type": "triggered", "seat": 1, "gizmo": 901} in events  # a real File
    state, _ = settle(state)
    refused(state, {"type": "research", "level": 1, "via": 901}, "Z-9")


def test_Z_12_pick_2_with_one_free_place_takes_one():
    state = position(seats=[{"ring": {"blue": 5}, "built": [205], "archive": [102]}])
    state, _ = apply(state, {"type": "build", "card": 102, "spend": ["blue"], "converters": []})
    assert state["turn_state"]["ready"] == {"205": 2}
    state, _ = apply(state, {"type": "pick", "color": "red", "via": 205})
    state, _ = settle(state)
    assert not legal(state, via=205) and state["turn_state"]["ready"] == {"205": 1}


def test_Z_14_trigger_flags_live_in_turn_state_and_the_check_runs_before_placement():
    state = position(seats=[{"ring": {"blue": 1}, "built": []}], display=[136])
    state["seats"][0]["ring"] = ring(yellow=1)
    state, events = apply(state, {"type": "build", "card": 136, "spend": ["yellow"],
                                  "converters": []})
    assert state["turn_state"] == {"ready": {}, "spent": []}  # 136 did not see itself
    assert 136 in seat(state)["built"]


def test_Z_8_two_colour_pick_trigger_fires_once_when_both_colours_are_picked():
    """209 (pick yellow/red → draw): picking red, then yellow in the same turn (pick 2 of
    205) fires it once, whether or not it was used in between."""
    for use_between in (True, False):
        state = position(seats=[{"ring": {"blue": 1}, "built": [205, 209], "archive": [102]}],
                         row={"black": 0, "blue": 0, "red": 3, "yellow": 3})
        state, _ = apply(state, {"type": "build", "card": 102, "spend": ["blue"],
                                 "converters": []})
        state, events = apply(state, {"type": "pick", "color": "red", "via": 205})
        assert [e["gizmo"] for e in events if e["type"] == "triggered"] == [209]
        state, _ = settle(state, "red")
        if use_between:
            state, _ = apply(state, {"type": "draw", "via": 209})
            state, _ = settle(state, "red")
        state, events = apply(state, {"type": "pick", "color": "yellow", "via": 205})
        assert not [e for e in events if e["type"] == "triggered"]
        state, _ = settle(state, "red")
        assert state["turn_state"]["ready"] == ({} if use_between else {"209": 1})
        assert len(legal(state, type="draw", via=209)) == (0 if use_between else 1)


def test_Z_8_a_plus_2_vp_gizmo_is_used_once_per_turn_through_the_stateless_routes():
    """Z-8: each gizmo triggers or activates at most once per turn. 318 (build yellow/black
    → +2 VP) is one use worth 2 VP tokens, not two uses (the count is how much, not how
    often). Played through /v1/new, /v1/apply, /v1/legal-moves and /v1/score."""
    client = create_app({"TESTING": True}).test_client()

    def post(route, **body):
        answer = client.post(route, json=body)
        assert answer.status_code == 200, answer.json
        return answer.json

    def moves(state):
        return [{k: v for k, v in m.items() if k not in ("text", "p")}
                for m in post("/v1/legal-moves", state=state)["moves"]]

    def apply(state, move):
        return post("/v1/apply", state=state, move=move)

    state = post("/v1/new", players=2, mode="tabletop", seed=1)["state"]
    for card in (101, 102, 103, 104, 201, 202, 203, 301, 302):
        state = apply(state, {"type": "deal", "seat": "chance", "to": "display",
                              "card": card})["state"]
    for color in ("red", "red", "blue", "blue", "black", "yellow"):
        state = apply(state, {"type": "marble", "seat": "chance", "color": color})["state"]
    state["seats"][0].update(built=[318, 901], ring=ring(yellow=1))
    state["decks"]["3"]["unseen"] = 13
    state = apply(state, {"type": "build", "seat": 1, "card": 104, "spend": ["yellow"],
                          "converters": []})["state"]
    state = apply(state, {"type": "deal", "seat": "chance", "to": "display",
                          "card": 105})["state"]
    assert state["turn_state"]["ready"] == {"318": 1}
    assert moves(state) == [{"type": "gain_vp", "seat": 1, "via": 318},
                            {"type": "end_turn", "seat": 1}]
    answer = apply(state, {"type": "gain_vp", "seat": 1, "via": 318})
    assert [e for e in answer["events"] if e["type"] == "vp_gained"] == [
        {"type": "vp_gained", "seat": 1, "count": 2, "via": 318}]
    state = answer["state"]
    assert moves(state) == [{"type": "end_turn", "seat": 1}]
    assert post("/v1/score", state=state)["scores"][0]["total"] == 5 + 1 + 2
