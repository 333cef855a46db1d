"""The rules proper: a match's setup, its chance events, the legal moves and
playing them, and the end of a match (T-3 to T-9).

The state, beyond the envelope every game has::

    phase           "deal" | "indicator" | "draw" | "turn" | "calls" | "call_discard" | "over"
    match           the number of the match being played (1, 2, …)
    manager         the match's manager (T-3.1); rotations_done: returns to the first (T-9.1)
    od              [od of seat 1, 2, 3]; field: this match's stakes and costs; pool: 霊脈
    hands           [[cards in their fixed order] per seat]
    called          [[called spells, as laid] per seat]      riichi: [bool per seat]
    discards        [[cards discarded this match] per seat]  indicators: [catalyst indicators]
    unused          face-down cards left in the unused pile; draw_pile: cards left to draw
    turn            the seat drawing, acting, discarding, or whose discard is being answered
    drawn           the card ``turn`` drew (phase "turn"), else null
    window          the call window (phase "calls"): {"card", "answers": [moves so far]}
    last_match      what ended the previous match (public), or null
"""

from referee.engine import CHANCE

from .calls import asked_seats, call_options
from .cards import (
    DECK_SIZE, HAND_SIZE, WEAK_TO, chi_spell, discard_spellings, faces_tenpai, is_tenpai,
    pon_spell, winning_insertions,
)
from .scoring import catalyst_of, measure, settle
from .table import (
    MANAGER_STAKE, RIICHI_STAKE, SEATS, after, answer_order, deal_recipient, first_manager,
    seat_attribute, seat_call_cost, unseen,
)


# ------------------------------------------------------------------ setup
def setup(state, events):
    state.update(match=1, manager=first_manager(state), rotations_done=0,
                 od=[state["options"]["starting_od"]] * 3, field=0, pool=0, last_match=None)
    _start_match(state, events)


def _start_match(state, events):
    """T-3.3: empty hands; the deal and the 1st indicator are chance events."""
    unused = state["options"]["unused_cards"]
    state.update(phase="deal", hands=[[], [], []], called=[[], [], []],
                 riichi=[False] * 3, discards=[[], [], []], indicators=[],
                 unused=unused, draw_pile=DECK_SIZE - 3 * HAND_SIZE - unused,
                 turn=state["manager"], drawn=None, window=None, to_move=[CHANCE])
    events.append({"type": "match_started", "match": state["match"],
                   "manager": state["manager"]})


# ----------------------------------------------------------------- chance
def pending_chance(state) -> dict:
    """The chance event the table waits for, all but its card."""
    phase = state["phase"]
    if phase == "deal":
        return {"type": "deal", "seat": CHANCE, "to": deal_recipient(state)}
    if phase == "draw":
        return {"type": "draw", "seat": CHANCE, "to": state["turn"]}
    return {"type": "indicator", "seat": CHANCE}


def chance_outcomes(state):
    base = pending_chance(state)
    return [(dict(base, card=card), n) for card, n in unseen(state).items() if n > 0]


def sample_chance(state, rng):
    """One outcome drawn as from :func:`chance_outcomes` (the same weights, the same
    draw of the generator), making only the move drawn."""
    cards = [(card, n) for card, n in unseen(state).items() if n > 0]
    return dict(pending_chance(state), card=cards[rng.weighted([n for _, n in cards])][0])


# ------------------------------------------------------------------ moves
def legal(state, seat):
    phase = state["phase"]
    if phase == "turn":
        return _turn_moves(state, seat)
    if phase == "calls":
        return [{"type": "pass", "seat": seat}] + call_options(
            state, seat, state["window"]["card"])
    hand = state["hands"][seat - 1]  # call_discard: T-5.6
    return [{"type": "discard", "seat": seat, "insert": None, "remove": j, "riichi": False}
            for j in range(len(hand))]


def _turn_moves(state, seat):
    hand, drawn = state["hands"][seat - 1], state["drawn"]
    moves = [{"type": "tsumo", "seat": seat, "insert": p}
             for p in winning_insertions(hand, drawn)]
    locked = state["riichi"][seat - 1]  # T-6.3: discard the drawn card only
    # T-4.3: one spelling per distinct discard; locked, only dropping the drawn card
    spellings = [(0, 0)] if locked else discard_spellings(len(hand))
    if not may_riichi(state, seat):
        return moves + [{"type": "discard", "seat": seat, "insert": i, "remove": j,
                         "riichi": False} for i, j in spellings]
    faces, new = [c[:2] for c in hand], drawn[:2]
    tenpai: dict[tuple, bool] = {}  # by the faces kept: equal cards keep equal hands
    for i, j in spellings:
        moves.append({"type": "discard", "seat": seat, "insert": i, "remove": j,
                      "riichi": False})
        full = faces[:i] + [new] + faces[i:]
        del full[j]
        kept = tuple(full)
        if kept not in tenpai:
            tenpai[kept] = faces_tenpai(kept)
        if tenpai[kept]:
            moves.append({"type": "discard", "seat": seat, "insert": i,
                          "remove": j, "riichi": True})
    return moves


def may_riichi(state, seat) -> bool:
    """T-6.1 apart from tenpai (checked per discard)."""
    return (not state["riichi"][seat - 1] and not state["called"][seat - 1]
            and state["od"][seat - 1] >= RIICHI_STAKE and state["draw_pile"] > 0
            and state["unused"] > 0)


def normalize(move):
    cards = move.get("cards")
    if move.get("type") in ("pon", "chi") and isinstance(cards, list) and all(
            type(c) is int for c in cards):
        move["cards"] = sorted(cards)
    return move


# ------------------------------------------------------------------- play
def play(state, move, events):
    kind = move["type"]
    if kind == "deal":
        _deal(state, move, events)
    elif kind == "indicator":
        _turn_indicator(state, move["card"], events)
    elif kind == "draw":
        state.update(drawn=move["card"], draw_pile=state["draw_pile"] - 1, phase="turn",
                     to_move=[state["turn"]])
        events.append({"type": "card_drawn", "seat": state["turn"], "card": move["card"],
                       "draw_pile": state["draw_pile"]})
    elif kind == "tsumo":
        hand = state["hands"][move["seat"] - 1]
        hand.insert(move["insert"], state["drawn"])
        events.append({"type": "tsumo_declared", "seat": move["seat"],
                       "card": state["drawn"], "insert": move["insert"]})
        state["drawn"] = None
        _win(state, move["seat"], "tsumo", None, events)
    elif kind == "discard":
        _discard(state, move, events)
    else:
        _answer(state, move, events)


def _deal(state, move, events):
    state["hands"][move["to"] - 1].append(move["card"])
    events.append({"type": "card_dealt", "seat": move["to"], "card": move["card"]})
    if sum(map(len, state["hands"])) == 3 * HAND_SIZE:
        state["phase"] = "indicator"


def _turn_indicator(state, card, events):
    state["indicators"].append(card)
    state["unused"] -= 1
    events.append({"type": "indicator_turned", "card": card, "catalyst": catalyst_of(card),
                   "number": len(state["indicators"])})
    if len(state["indicators"]) == 1:  # the match begins with the manager's draw
        state.update(phase="draw", turn=state["manager"], to_move=[CHANCE])
    else:  # T-6.2: the riichi discard's call window follows
        _open_window(state, events)


def _discard(state, move, events):
    seat = move["seat"]
    hand = state["hands"][seat - 1]
    if move["insert"] is not None:
        hand.insert(move["insert"], state["drawn"])
        state["drawn"] = None
    card = hand.pop(move["remove"])
    state["discards"][seat - 1].append(card)
    events.append({"type": "card_discarded", "seat": seat, "card": card,
                   "insert": move["insert"], "remove": move["remove"]})
    if move["riichi"]:  # T-6.2
        state["riichi"][seat - 1] = True
        state["od"][seat - 1] -= RIICHI_STAKE
        state["field"] += RIICHI_STAKE
        events.append({"type": "riichi_declared", "seat": seat, "stake": RIICHI_STAKE})
        state.update(phase="indicator", to_move=[CHANCE])
    else:
        _open_window(state, events)


# ------------------------------------------------------------ call window
def _open_window(state, events):
    """T-4.5, T-5.1: ask every other seat that the table cannot rule out as a caller
    (decided from what everyone sees, so being asked reveals nothing: RULES.md, 6)."""
    card = state["discards"][state["turn"] - 1][-1]
    asked = asked_seats(state)
    if not asked:
        _next_turn(state, events)
        return
    state.update(phase="calls", window={"card": card, "answers": []}, to_move=asked)
    events.append({"type": "call_window_opened", "discarder": state["turn"], "card": card,
                   "seats": asked})


def _answer(state, move, events):
    state["window"]["answers"].append(move)
    state["to_move"].remove(move["seat"])
    events.append({"type": "answered", "seat": move["seat"]})
    if not state["to_move"]:
        _resolve_window(state, events)


def _resolve_window(state, events):
    """T-5.2: ron > pon > chi; between two rons the first seat after the discarder."""
    discarder, card = state["turn"], state["window"]["card"]
    answers = {}
    for answer in state["window"]["answers"]:  # a forged answer counts as a pass
        if answer["type"] != "pass" and answer in call_options(state, answer["seat"], card):
            answers[answer["seat"]] = answer
    for kind in ("ron", "pon", "chi"):
        for seat in answer_order(discarder):
            answer = answers.get(seat)
            if answer and answer["type"] == kind:
                state["window"] = None
                state["discards"][discarder - 1].pop()
                if kind == "ron":
                    state["hands"][seat - 1].insert(answer["insert"], card)
                    events.append({"type": "ron_declared", "seat": seat,
                                   "discarder": discarder, "card": card})
                    _win(state, seat, "ron", discarder, events)
                else:
                    _call(state, answer, card, discarder, events)
                return
    state["window"] = None
    _next_turn(state, events)


def _call(state, answer, card, discarder, events):
    """T-5.3–T-5.6: lay the spell, pay its cost, then the caller discards."""
    seat, (i, j) = answer["seat"], answer["cards"]
    hand = state["hands"][seat - 1]
    make = pon_spell if answer["type"] == "pon" else chi_spell
    spell = make(hand[i], hand[j], card)
    cost = seat_call_cost(state, seat, card)
    del hand[j], hand[i]
    state["called"][seat - 1].append(spell)
    state["od"][seat - 1] -= cost
    state["field"] += cost
    events.append({"type": "called", "seat": seat, "call": answer["type"],
                   "discarder": discarder, "card": card, "spell": spell, "cost": cost})
    state.update(phase="call_discard", turn=seat, to_move=[seat])


def _next_turn(state, events):
    if state["draw_pile"] == 0:
        _exhaustive_draw(state, events)
    else:
        state.update(phase="draw", turn=after(state["turn"]), to_move=[CHANCE])


# ------------------------------------------------------------ end of match
def _win(state, winner, win, discarder, events):
    """T-7: measure the hand, then pay (or the zero-point special draw)."""
    hand = state["hands"][winner - 1]
    spells = [hand[i:i + 3] for i in range(0, len(hand), 3)] + state["called"][winner - 1]
    riichi = state["riichi"][winner - 1]
    counted = seat_attribute(state, winner) if win == "tsumo" else WEAK_TO[
        seat_attribute(state, discarder)]
    indicators = state["indicators"] if riichi else state["indicators"][:1]
    score = measure(spells, counted, indicators, state["options"])
    result = {"match": state["match"], "end": win, "winner": winner,
              "discarder": discarder, "score": score}
    events.append({"type": "magic_measured", "seat": winner, "win": win,
                   "discarder": discarder, "score": score})
    if score["special_draw"]:  # T-7.3, T-8.3
        result["end"] = "special_draw"
        _manager_stakes(state, result, events)
        _finish_match(state, result, True, events)
        return
    settlement = settle(score["total"], win, winner, discarder, SEATS, riichi,
                        bool(state["called"][winner - 1]), state["field"], state["pool"])
    for change in settlement["changes"]:
        state["od"][change["seat"] - 1] += change["change"]
    state.update(pool=settlement["pool_after"], field=0)
    result["settlement"] = settlement
    events.append(dict(settlement, type="od_paid", seat=winner))
    _finish_match(state, result, winner == state["manager"], events)  # T-8.2


def _exhaustive_draw(state, events):
    """T-8.1: the manager stays when tenpai, adding 10 to the pool."""
    manager = state["manager"]
    tenpai = is_tenpai(state["hands"][manager - 1])
    result = {"match": state["match"], "end": "exhaustive_draw", "manager_tenpai": tenpai}
    events.append({"type": "exhaustive_draw", "manager": manager, "manager_tenpai": tenpai})
    if tenpai:
        _manager_stakes(state, result, events)
    else:
        _field_to_pool(state, result, events)
    _finish_match(state, result, tenpai, events)


def _field_to_pool(state, result, events):
    result["field_to_pool"] = state["field"]
    events.append({"type": "field_to_pool", "od": state["field"]})
    state.update(pool=state["pool"] + state["field"], field=0)


def _manager_stakes(state, result, events):
    _field_to_pool(state, result, events)
    state["od"][state["manager"] - 1] -= MANAGER_STAKE
    state["pool"] += MANAGER_STAKE
    result["manager_stake"] = MANAGER_STAKE
    events.append({"type": "manager_stake", "seat": state["manager"], "od": MANAGER_STAKE})


def _finish_match(state, result, manager_stays, events):
    """T-8.1, T-8.2, T-9.1: the next manager, or the end of the game."""
    state["last_match"] = result
    over = None
    if any(od < 0 for od in state["od"]):
        over = "bust"
    elif not manager_stays:
        state["manager"] = after(state["manager"])
        if state["manager"] == first_manager(state):
            state["rotations_done"] += 1
            if state["rotations_done"] == state["options"]["rotations"]:
                over = "rotations"
    events.append({"type": "match_ended", "match": state["match"], "end": result["end"],
                   "next_manager": state["manager"]})
    if over:
        _start_match(state, [])
        state.update(phase="over", to_move=[])
        events.append({"type": "game_over", "reason": over, "od": list(state["od"])})
    else:
        state["match"] += 1
        _start_match(state, events)
