"""Playing an accepted move: actions, triggers, chance and the end of turns (Z-3…Z-11).

Every random step (a sphere rolling into the row or drawn into a ring, a card
turned up from a deck) is queued in ``state["chance"]`` and played as a chance
move; :func:`settle` resolves what needs no chance (a deck whose unseen top is
used up yields its known bottom cards in order) and says who acts next.
"""

from .cards import END_GIZMOS, END_LEVEL3, colors_of, effect, level, limits, uses
from . import table


def play(state: dict, move: dict, events: list) -> None:
    kind = move["type"]
    if kind == "deal":
        _deal(state, move["card"], events)
    elif kind == "marble":
        _marble(state, move["color"], events)
    else:
        seat = move["seat"]
        if "via" in move:
            _use(state, move["via"])
        ACTIONS[kind](state, seat, move, events)
    settle(state, events)


# ---------------------------------------------------------------- actions
def _file(state, seat, move, events):
    card = move["card"]
    me = table.player(state, seat)
    source = _take_card(state, card)
    me["archive"] = sorted(me["archive"] + [card])
    events.append({"type": "filed", "seat": seat, "card": card, "from": source})
    _trigger(state, seat, "file", {}, events)
    _after_action(state, source)


def _pick(state, seat, move, events):
    color = move["color"]
    state["row"][color] -= 1
    table.player(state, seat)["ring"][color] += 1
    events.append({"type": "picked", "seat": seat, "color": color})
    state["chance"].append({"draw": "marble", "to": "row"})  # Z-3.2: one rolls in
    _trigger(state, seat, "pick", {"colors": [color]}, events)
    state["phase"] = "actions"


def _build(state, seat, move, events):
    card = move["card"]
    me = table.player(state, seat)
    source = _take_card(state, card)
    for color in move["spend"]:  # Z-3.3: spent spheres go back into the dispenser
        me["ring"][color] -= 1
    state["turn_state"]["spent"] = sorted(state["turn_state"]["spent"] + move["converters"])
    events.append({"type": "built", "seat": seat, "card": card, "from": source,
                   "spend": move["spend"], "converters": move["converters"],
                   "free": "via" in move})
    # Z-8: the check runs before the card joins the seat, so it cannot trigger itself
    _trigger(state, seat, "build",
             {"colors": list(colors_of(card)), "source": source, "level": level(card)}, events)
    me["built"] = sorted(me["built"] + [card])
    built3 = sum(level(c) == 3 for c in me["built"])
    if not state["ending"] and (built3 >= END_LEVEL3 or len(me["built"]) >= END_GIZMOS):
        state["ending"] = True
        events.append({"type": "end_triggered", "seat": seat,
                       "level3": built3, "gizmos": len(me["built"])})
    _after_action(state, source)


def _research(state, seat, move, events):
    lv = move["level"]
    amount = min(limits(table.player(state, seat)["built"])["research"],
                 table.deck_count(state, lv))
    state["research"] = {"level": lv, "cards": []}
    state["chance"] += [{"draw": "card", "level": lv, "to": "research"} for _ in range(amount)]
    state["phase"] = "research"
    events.append({"type": "research_started", "seat": seat, "level": lv, "count": amount})


def _decline(state, seat, move, events):
    events.append({"type": "research_declined", "seat": seat})
    _after_action(state, "research")


def _bottom(state, seat, move, events):
    _return_card(state, seat, move["card"], events)
    _after_action(state, "research")


def _draw(state, seat, move, events):
    state["chance"].append({"draw": "marble", "to": "ring"})


def _gain_vp(state, seat, move, events):
    count = effect(move["via"])["result"]["count"]
    table.player(state, seat)["vp_tokens"] += count
    events.append({"type": "vp_gained", "seat": seat, "count": count, "via": move["via"]})


def _end_turn(state, seat, move, events):
    events.append({"type": "turn_ended", "seat": seat})
    state["passes"] = 0
    _next_turn(state, events)


def _pass(state, seat, move, events):
    """Z-3 [IMPL]: no action is possible; a full round of passes ends the game."""
    events.append({"type": "passed", "seat": seat})
    state["passes"] += 1
    if state["passes"] >= state["players"]:
        _game_over(state, "no seat can act", events)
    else:
        _next_turn(state, events)


ACTIONS = {"file": _file, "pick": _pick, "build": _build, "research": _research,
           "decline": _decline, "bottom": _bottom, "draw": _draw, "gain_vp": _gain_vp,
           "end_turn": _end_turn, "pass": _pass}


# ----------------------------------------------------------------- chance
def _deal(state, card, events):
    head = state["chance"].pop(0)
    state["decks"][str(head["level"])]["unseen"] -= 1
    _place_dealt(state, head, card, events)


def _place_dealt(state, head, card, events):
    lv = head["level"]
    if head["to"] == "display":
        state["display"][str(lv)] = sorted(state["display"][str(lv)] + [card])
        events.append({"type": "card_revealed", "level": lv, "card": card})
    else:
        state["research"]["cards"].append(card)
        drawn = {"type": "card_drawn", "seat": state["turn"], "level": lv, "card": card}
        if not state["options"]["research_draws_public"]:
            drawn["private"] = True
        events.append(drawn)


def _marble(state, color, events):
    head = state["chance"].pop(0)
    if head["to"] == "row":
        state["row"][color] += 1
        events.append({"type": "row_refilled", "color": color})
    else:
        table.player(state, state["turn"])["ring"][color] += 1
        events.append({"type": "energy_drawn", "seat": state["turn"], "color": color})


def settle(state: dict, events: list) -> None:
    """Resolve chance that is no chance, then set ``to_move``."""
    queue = state["chance"]
    while queue:
        head = queue[0]
        if head["draw"] == "card":
            deck = state["decks"][str(head["level"])]
            if deck["unseen"]:
                break
            queue.pop(0)
            if deck["bottom"]:  # Z-3.4: cards returned by Research come up again in order
                _place_dealt(state, head, deck["bottom"].pop(0), events)
        else:  # a sphere: the hopper always has some (Z-10, RULES.md)
            break
    if state["phase"] == "over":
        state["to_move"] = []
    elif queue:
        state["to_move"] = ["chance"]
    else:
        if state["phase"] == "return" and len(state["research"]["cards"]) <= 1:
            _finish_research(state, events)
        state["to_move"] = [state["turn"]]


# ---------------------------------------------------------------- helpers
def _take_card(state, card) -> str:
    """Remove ``card`` from where it lies; a display slot is refilled (Z-3.1, Z-3.3)."""
    lv = level(card)
    if card in state["display"].get(str(lv), []):
        state["display"][str(lv)].remove(card)
        state["chance"].append({"draw": "card", "level": lv, "to": "display"})
        return "display"
    research = state["research"]
    if research and card in research["cards"]:
        research["cards"].remove(card)
        return "research"
    table.player(state, state["turn"])["archive"].remove(card)
    return "archive"


def _after_action(state, source):
    """Back to using gizmos, or on with the Research that this action was part of."""
    if source == "research":
        state["phase"] = "return"
    else:
        state["phase"] = "actions"


def _finish_research(state, events):
    for card in list(state["research"]["cards"]):
        _return_card(state, state["turn"], card, events)
    state["research"] = None
    state["phase"] = "actions"


def _return_card(state, seat, card, events):
    research = state["research"]
    research["cards"].remove(card)
    state["decks"][str(research["level"])]["bottom"].append(card)
    events.append({"type": "card_returned", "seat": seat, "level": research["level"],
                   "card": card})


def _trigger(state, seat, action, detail, events):
    """Z-8: mark the seat's gizmos this action triggers (each once per turn)."""
    turn_state = state["turn_state"]
    ready = turn_state["ready"]
    for gizmo in table.player(state, seat)["built"]:
        key = str(gizmo)
        if key in ready or gizmo in turn_state["spent"]:
            continue
        if table.trigger_matches(gizmo, action, detail):
            ready[key] = uses(gizmo)
            events.append({"type": "triggered", "seat": seat, "gizmo": gizmo})


def _use(state, gizmo):
    """One use of a triggered gizmo; the last use makes it spent for the turn."""
    turn_state = state["turn_state"]
    key = str(gizmo)
    turn_state["ready"][key] -= 1
    if not turn_state["ready"][key]:
        del turn_state["ready"][key]
        turn_state["spent"] = sorted(turn_state["spent"] + [gizmo])


def _next_turn(state, events):
    state["turn_state"] = {"ready": {}, "spent": []}
    seat = state["turn"]
    if state["ending"] and seat == state["players"]:  # Z-11: the round is complete
        _game_over(state, "the round after the end trigger is complete", events)
        return
    state["turn"] = seat % state["players"] + 1
    if state["turn"] == 1:
        state["round"] += 1
    state["phase"] = "main"


def _game_over(state, why, events):
    state["phase"] = "over"
    state["turn_state"] = {"ready": {}, "spent": []}
    events.append({"type": "game_over", "reason": why})
