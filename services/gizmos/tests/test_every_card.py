"""Z-9 and Z-15: each of the 112 cards does what it says, played through the engine."""

import pytest

from gizmos.cards import CARDS, COLORS, LEVELS, STARTING

from gizmos_helpers import GAME, apply, chance, legal, position, refused, ring, seat, settle

OTHER = {"black": "blue", "blue": "red", "red": "yellow", "yellow": "black"}


def _card(level, color, cost, exclude=()):
    """A card of that level, colour and cost, not among ``exclude``."""
    return next(i for i, c in sorted(CARDS.items()) if c["level"] == level
                and c["color"] == color and c["cost"] == cost and i not in exclude)


def _me(state):
    return seat(state, state["turn"])


def _build(state, card):
    moves = legal(state, type="build", card=card)
    assert moves, f"no way to build {card}"
    return moves


@pytest.mark.parametrize("card_id", sorted(c for c in CARDS if CARDS[c]["type"] == "converter"))
def test_Z_5_every_converter_slot_pays(card_id):
    for slot in CARDS[card_id]["effect"]["slots"]:
        source = "black" if slot["from"] == "any" else slot["from"]
        count = len([s for s in CARDS[card_id]["effect"]["slots"] if s == slot])
        if slot["out"] == 2:  # X → XX: 1 sphere pays 2 of X
            target, spend = _card(2, source, 2, (card_id,)), [source]
        elif count == 2:  # X → any, twice: 2 spheres pay 2 of another colour
            target, spend = _card(2, OTHER[source], 2, (card_id,)), [source] * 2
        else:
            target, spend = _card(1, OTHER[source], 1, (card_id,)), [source]
        state = position(seats=[{"ring": {source: len(spend)}, "built": [card_id]}],
                         display=[target])
        move = {"type": "build", "seat": 1, "card": target, "spend": spend,
                "converters": [card_id]}
        assert _build(state, target) == [move]
        state, _ = apply(state, move)
        assert target in seat(state)["built"] and seat(state)["ring"] == ring()


UPGRADES = sorted(c for c in CARDS if CARDS[c]["effect"]["kind"] == "upgrade")


@pytest.mark.parametrize("card_id", UPGRADES)
def test_Z_6_every_upgrade_works(card_id):
    fx = CARDS[card_id]["effect"]
    if "energy_limit" in fx:
        room = 5 + fx["energy_limit"]
        full = {"black": min(room, 11), "red": max(room - 11, 0)}
        assert not legal(position(seats=[{"built": [card_id], "ring": full}]), type="pick")
        less = dict(full, black=full["black"] - 1)
        assert legal(position(seats=[{"built": [card_id], "ring": less}]), type="pick")
        archive = [101, 102, 103][:fx["file_limit"]]
        state = position(seats=[{"built": [card_id], "archive": archive}], display=[104])
        assert legal(state, type="file")
        state, events = apply(state, {"type": "research", "level": 2})
        assert events[-1]["count"] == 3 + fx["research"]
    elif "forbid" in fx:
        state = position(seats=[{"built": [card_id]}], display=[104])
        assert not legal(state, type=fx["forbid"]) and legal(state, type="pick")
        other = "research" if fx["forbid"] == "file" else "file"
        assert legal(state, type=other)
    elif "discount" in fx:
        when = fx["discount"]["when"]
        where = {"building_level_2": {"display": [209]},
                 "building_from_archive": {"seats": [{"archive": [109]}]},
                 "building_from_research": {}}[when]
        seats = where.get("seats", [{}])
        seats[0] = dict(seats[0], built=[card_id], ring={"black": 1})
        state = position(seats=seats, display=where.get("display", []))
        if when == "building_from_research":
            state, _ = apply(state, {"type": "research", "level": 2})
            for card in (209, 210, 211):
                state, _ = chance(state, card=card)
        target = 109 if when == "building_from_archive" else 209
        cheapest = min(len(m["spend"]) for m in _build(state, target))
        assert cheapest == CARDS[target]["cost"] - 1
    else:  # Generic: scored from the ring or the VP tokens (Z-6.4)
        # 136 (build blue → 1 VP token) fired when the Generic gizmo was built
        state = position(seats=[{"built": [card_id, 136], "ring": {"red": 3}, "vp_tokens": 1}])
        score = GAME.score(state)["scores"][0]
        award = 3 if fx["end_game_vp"] == "energy_in_ring" else 1
        assert score["breakdown"]["generic"] == award
        assert score["total"] == award + 1 + 1


TRIGGERS = sorted(c for c in CARDS if CARDS[c]["effect"]["kind"].endswith("_trigger"))


def _trigger(card_id):
    """A position where the seat owns ``card_id`` and its action has just triggered it."""
    fx = CARDS[card_id]["effect"]
    condition = fx["condition"]
    targets = [105, 126]  # black/blue L1 cards left in the display for results to use
    owned = [card_id, 127] if fx["result"]["action"] == "file" else [card_id]
    if card_id in STARTING:  # seat n's own starting gizmo, seat n to move
        turn = STARTING.index(card_id) + 1
        state = position(players=4, turn=turn, display=[101, *targets])
        state, _ = apply(state, {"type": "file", "card": 101})
    elif fx["kind"] == "file_trigger":
        state = position(seats=[{"built": owned}], display=[101, *targets])
        state, _ = apply(state, {"type": "file", "card": 101})
    elif fx["kind"] == "pick_trigger":
        color = condition["colors"][0]
        state = position(seats=[{"built": owned}], display=targets,
                         row={"black": 1, "blue": 1, "red": 1, "yellow": 1, color: 3})
        state, _ = apply(state, {"type": "pick", "color": color})
    else:
        color = condition.get("colors", ["red"])[0]
        lv = 2 if condition.get("level") == 2 else 1
        target = _card(lv, color, lv, (card_id, *targets))
        archive = [target] if condition.get("from_archive") else []
        state = position(seats=[{"built": owned, "archive": archive, "ring": {color: lv}}],
                         display=[*targets] + ([] if archive else [target]))
        state, _ = apply(state, _build(state, target)[0])
    state, _ = settle(state)
    assert str(card_id) in state["turn_state"]["ready"], state["turn_state"]
    return state


@pytest.mark.parametrize("card_id", TRIGGERS)
def test_Z_9_every_trigger_fires_and_its_result_happens(card_id):
    state = _trigger(card_id)
    result = CARDS[card_id]["effect"]["result"]
    me = _me(state)
    energy, tokens = sum(me["ring"].values()), me["vp_tokens"]
    action = result["action"]
    if action == "draw_random":
        state, _ = apply(state, {"type": "draw", "via": card_id})
        state, _ = settle(state)
        assert sum(_me(state)["ring"].values()) == energy + 1
    elif action == "pick":
        color = next(c for c in COLORS if state["row"][c])
        state, events = apply(state, {"type": "pick", "color": color, "via": card_id})
        assert sum(_me(state)["ring"].values()) == energy + 1
    elif action == "gain_vp_tokens":
        state, _ = apply(state, {"type": "gain_vp", "via": card_id})
        assert _me(state)["vp_tokens"] == tokens + result["count"]
    elif action == "file":
        state, _ = apply(state, {"type": "file", "card": 105, "via": card_id})
        assert 105 in _me(state)["archive"]
    elif action == "research":
        state, _ = apply(state, {"type": "research", "level": 3, "via": card_id})
        assert state["phase"] == "research" and state["research"]["level"] == 3
    else:
        state, events = apply(state, {"type": "build", "card": 105, "spend": [],
                                      "converters": [], "via": card_id})
        assert 105 in _me(state)["built"] and _me(state)["ring"] == me["ring"]
    # Z-8: one activation per turn; only a result done "one at a time" (pick 2, draw 3)
    # takes more than one move, so only such a gizmo is still ready after one use
    assert (str(card_id) in state["turn_state"]["ready"]) == bool(result.get("one_at_a_time"))
    if action == "gain_vp_tokens":
        refused(state, {"type": "gain_vp", "via": card_id}, "Z-8")


def test_Z_15_every_card_is_exercised_above():
    exercised = set(UPGRADES) | set(TRIGGERS) | {
        c for c in CARDS if CARDS[c]["type"] == "converter"}
    assert exercised == set(CARDS) and LEVELS == (1, 2, 3)


COLOUR_TRIGGERS = sorted(c for c in TRIGGERS if "colors" in CARDS[c]["effect"]["condition"])


@pytest.mark.parametrize("card_id", COLOUR_TRIGGERS)
def test_Z_8_every_colour_trigger_fires_on_exactly_its_colours(card_id):
    """Each listed colour (not only the first) fires it; the other colours do not."""
    fx = CARDS[card_id]["effect"]
    for color in COLORS:
        if fx["kind"] == "pick_trigger":
            state = position(seats=[{"built": [card_id]}],
                             row={"black": 1, "blue": 1, "red": 2, "yellow": 2})
            state, events = apply(state, {"type": "pick", "color": color})
        else:
            target = _card(1, color, 1, (card_id, 129))
            state = position(seats=[{"built": [card_id], "ring": {color: 1}}],
                             display=[target])
            state, events = apply(state, {"type": "build", "card": target, "spend": [color],
                                          "converters": []})
        fired = {"type": "triggered", "seat": 1, "gizmo": card_id} in events
        assert fired == (color in fx["condition"]["colors"]), (card_id, color)


def test_Z_6_4_a_generic_gizmo_fires_every_colour_build_trigger_but_not_level_II():
    builds = sorted(c for c in COLOUR_TRIGGERS if CARDS[c]["type"] == "build")
    for first in range(0, len(builds), 2):  # two at a time: at most 3 Level III (Z-11)
        owned = builds[first:first + 2] + [313, 121, 122]  # storage 7
        state = position(seats=[{"built": owned, "ring": {"black": 3, "blue": 4}}],
                         display=[333])
        state, events = apply(state, {"type": "build", "card": 333,
                                      "spend": ["black"] * 3 + ["blue"] * 4, "converters": []})
        fired = sorted(e["gizmo"] for e in events if e["type"] == "triggered")
        assert fired == sorted(builds[first:first + 2])
