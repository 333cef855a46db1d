"""The rules proper: the legal moves of the seat whose turn it is, phase by phase, and
playing an accepted move (Z-3…Z-11).

Phases: ``main`` (one of the four actions, Z-3), ``research`` (build, file or keep none of
the drawn cards, Z-3.4), ``return`` (the rest to the bottom, one card at a time in the chosen
order) and ``actions`` (use triggered gizmos in any order, then ``end_turn``).

Every random step (a sphere rolling into the row or drawn into a ring, a card turned up from a
deck) is queued in ``state["chance"]`` and played as a chance move; :func:`settle` resolves
what needs no chance (a deck whose unseen top is used up yields its known bottom cards in
order) and says who acts next. What a payment may be is :mod:`gizmos.payment`.
"""

from .cards import (COLORS, END_GIZMOS, END_LEVEL3, LEVELS, colors_of, discount, effect, level,
                    limits, price, uses)
from .payment import Search
from . import table


# ================================================================ legal moves
def legal(state: dict, seat: int, builds=True, spend=None) -> list[dict]:
    """The legal moves. ``builds``: which Builds paying with spheres to list — all
    (``True``), none (``False``: what accepting any other move needs, only whether one
    exists matters for ``pass``) or those of the cards in a set (one card's payments).
    Builds are folded by spend (:func:`build_moves`) unless ``spend`` (sorted colours)
    asks for that spend's Builds, every Converter set each."""
    phase = state["phase"]
    if phase == "main":
        moves = main_actions(state, seat, builds, spend)
        if moves or builds is not True and can_build(state, seat):
            return moves
        return [{"type": "pass", "seat": seat}]
    if phase == "research":
        return research_choices(state, seat, builds, spend)
    if phase == "return":
        return [{"type": "bottom", "seat": seat, "card": c}
                for c in sorted(state["research"]["cards"])]
    return granted_actions(state, seat) + [{"type": "end_turn", "seat": seat}]


def _listed(builds, card: int) -> bool:
    return builds is True or bool(builds) and card in builds


def main_actions(state: dict, seat: int, builds=True, spend=None) -> list[dict]:
    moves = file_moves(state, seat) + pick_moves(state, seat)
    if builds:
        moves += build_moves(state, seat, [(card, source) for card, source in
                                           _buildable(state, seat) if _listed(builds, card)],
                             spend)
    return moves + research_moves(state, seat)


def _buildable(state, seat) -> list[tuple[int, str]]:
    """The cards the seat's action may build, display first, and where they are."""
    display = sorted(c for row in state["display"].values() for c in row)
    return [(c, "display") for c in display] + [
        (c, "archive") for c in table.player(state, seat)["archive"]]


def can_build(state, seat) -> bool:
    """Whether the seat's action could build something (the first payment found will do)."""
    search = payment_search(state, seat)
    return any(search.can_pay(*_price(state, seat, card, source))
               for card, source in _buildable(state, seat))


def file_moves(state, seat, via=None) -> list[dict]:
    if not table.can_file(state, seat):
        return []
    return [_with_via({"type": "file", "seat": seat, "card": c}, via)
            for c in sorted(c for row in state["display"].values() for c in row)]


def pick_moves(state, seat, via=None) -> list[dict]:
    if table.room(state, seat) <= 0:
        return []
    return [_with_via({"type": "pick", "seat": seat, "color": c}, via)
            for c, n in sorted(state["row"].items()) if n]


def research_moves(state, seat, via=None) -> list[dict]:
    if not table.can_research(state, seat):
        return []
    return [_with_via({"type": "research", "seat": seat, "level": lv}, via)
            for lv in LEVELS if table.deck_count(state, lv)]


def payment_search(state, seat, converters=None) -> Search:
    """The payments the seat's ring and its unused Converters (or only
    ``converters``) allow this turn, shared by every card of one listing."""
    if converters is None:
        converters = table.available_converters(state, seat)
    return Search(table.player(state, seat)["ring"], converters)


def build_moves(state, seat, cards: list[tuple[int, str]], spend=None) -> list[dict]:
    """The Builds of each card from where it lies (``(card, source)`` pairs), one search
    serving them all (Z-3.3, Z-5, Z-6.3), folded by spend: one per spend that pays, with
    one of its minimal Converter sets and ``"other_converters": true`` when it has more
    (listing every set of every spend costs too much: RULES.md, "One card's ways to
    pay"). With ``spend`` (sorted colours): that spend's Builds, one per Converter set."""
    if not cards:
        return []
    search, moves = payment_search(state, seat), []
    if spend is not None:
        spent = {c: spend.count(c) for c in COLORS}
        for card, source in cards:
            moves += [_build_move(seat, card, colours, converters) for colours, converters
                      in search.spend_payments(*_price(state, seat, card, source), spent)]
        return moves
    for card, source in cards:
        moves += [_build_move(seat, card, colours, converters, others)
                  for colours, converters, others
                  in search.folded(*_price(state, seat, card, source))]
    return moves


def _build_move(seat, card, spend, converters, others=False) -> dict:
    move = {"type": "build", "seat": seat, "card": card, "spend": list(spend),
            "converters": list(converters)}
    if others:
        move["other_converters"] = True
    return move


def _price(state, seat, card, source) -> tuple[str, int, int]:
    """What building ``card`` asks: its colour ("any" for a Generic gizmo) and the
    least and most energy of it to pay (discounts are optional, Z-6.3)."""
    target, cost = price(card)
    return target, cost - discount(table.player(state, seat)["built"], card, source), cost


BUILD_KEYS = {"type", "seat", "card", "spend", "converters"}


def is_legal_build(state: dict, seat: int, move: dict) -> bool:
    """Whether ``move`` (a Build paying with spheres, no ``via``) is one that
    :func:`legal` lists, checked directly: listing every payment of every card
    costs far more than checking the one named."""
    if state["phase"] not in ("main", "research") or set(move) != BUILD_KEYS or (
            move["type"] != "build"):
        return False
    card, spend, converters = move["card"], move["spend"], move["converters"]
    if type(card) is not int or not isinstance(spend, list) or not isinstance(converters, list):
        return False
    if any(type(c) is not str or c not in COLORS for c in spend) or spend != sorted(spend):
        return False
    if any(type(c) is not int for c in converters) or converters != sorted(set(converters)):
        return False
    if not set(converters) <= set(table.available_converters(state, seat)):
        return False
    me = table.player(state, seat)
    if state["phase"] == "research":
        source = "research" if card in state["research"]["cards"] else None
    elif any(card in row for row in state["display"].values()):
        source = "display"
    else:
        source = "archive" if card in me["archive"] else None
    if source is None:
        return False
    target, low, high = _price(state, seat, card, source)
    spent = {c: spend.count(c) for c in COLORS}
    return payment_search(state, seat, converters).pays_exactly(target, low, high, spent)


def research_choices(state, seat, builds=True, spend=None) -> list[dict]:
    cards = sorted(state["research"]["cards"])
    moves = build_moves(state, seat, [(card, "research") for card in cards
                                      if _listed(builds, card)], spend)
    if table.can_file(state, seat):
        moves += [{"type": "file", "seat": seat, "card": c} for c in cards]
    return moves + [{"type": "decline", "seat": seat}]


def granted_actions(state, seat) -> list[dict]:
    """What the triggered, not yet used gizmos offer now (Z-8, Z-9)."""
    moves = []
    for gizmo, _ in sorted(table.ready_uses(state).items()):
        result = table.triggered_result(gizmo)
        action = result["action"]
        if action == "draw_random":
            if table.room(state, seat) > 0:
                moves.append({"type": "draw", "seat": seat, "via": gizmo})
        elif action == "pick":
            moves += pick_moves(state, seat, gizmo)
        elif action == "gain_vp_tokens":
            moves.append({"type": "gain_vp", "seat": seat, "via": gizmo})
        elif action == "file":
            moves += file_moves(state, seat, gizmo)
        elif action == "research":
            moves += research_moves(state, seat, gizmo)
        else:  # build_free: a Level I gizmo from the display or the Archive
            me = table.player(state, seat)
            candidates = state["display"]["1"] + [c for c in me["archive"] if level(c) == 1]
            moves += [{"type": "build", "seat": seat, "card": c, "spend": [],
                       "converters": [], "via": gizmo} for c in sorted(candidates)]
    return moves


def _with_via(move: dict, via) -> dict:
    if via is not None:
        move["via"] = via
    return move


# ================================================================ playing a move
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
