"""The position seen from outside the rules: turn order, call costs and the
unseen cards; checks on what comes over the wire (options, forged states,
refused moves); and the secrets a seat may not see (``perturb_hidden``)."""

import json

from referee.engine import CHANCE
from referee.errors import InvalidOptions, InvalidState

from .cards import (
    ATTRIBUTES, COPIES, DECK_SIZE, HAND_SIZE, LETTER, MAX_CALLS, call_cost, chi_spell, counts,
    is_card, is_spell, is_tenpai, pon_spell,
)

ENVELOPE = {"game", "version", "players", "mode", "options", "to_move", "rng"}
STATE_KEYS = ENVELOPE | {
    "phase", "match", "manager", "rotations_done", "od", "field", "pool", "hands", "called",
    "riichi", "discards", "indicators", "unused", "draw_pile", "turn", "drawn", "window",
    "last_match"}
PHASES = ("deal", "indicator", "draw", "turn", "calls", "call_discard", "over")
ENDS = ("ron", "tsumo", "special_draw", "exhaustive_draw")
ANSWER_FIELDS = {"pass": {"type", "seat"}, "ron": {"type", "seat", "insert"},
                 "pon": {"type", "seat", "cards"}, "chi": {"type", "seat", "cards"}}
MAX_OD = 100_000
SEATS = (1, 2, 3)


def after(seat: int) -> int:
    """The next seat in turn order (T-3.2)."""
    return seat % 3 + 1


def answer_order(discarder: int) -> list[int]:
    """The other seats in turn order after the discarder (T-5.2)."""
    return [after(discarder), after(after(discarder))]


def seat_call_cost(state, seat: int, card: str) -> int:
    own = card[0] == LETTER[state["options"]["attributes"][seat - 1]]
    return call_cost(len(state["called"][seat - 1]), own)


# ---------------------------------------------------------------- options
def check_options(options: dict) -> None:
    def bad(why):
        raise InvalidOptions(why)

    def whole(value, low, high):
        return type(value) is int and low <= value <= high

    def table(value, length):
        return isinstance(value, list) and len(value) == length and all(
            whole(v, 0, MAX_OD) for v in value)

    attributes = options["attributes"]
    if not isinstance(attributes, list) or sorted(map(str, attributes)) != sorted(ATTRIBUTES) \
            or not all(isinstance(a, str) for a in attributes):
        bad("attributes must list fire, water and wood once each (seats 1, 2, 3)")
    if not whole(options["starting_od"], 0, MAX_OD):
        bad(f"starting_od must be an integer from 0 to {MAX_OD}")
    if not whole(options["unused_cards"], 1, 30):
        bad("unused_cards must be an integer from 1 to 30")
    if not whole(options["rotations"], 1, 20):
        bad("rotations must be an integer from 1 to 20")
    for name in ("attribute_points", "star_points"):
        if not table(options[name], 3):
            bad(f"{name} must list 3 integers from 0 to {MAX_OD} (for 1, 2, 3 spells)")
    numbers = options["number_points"]
    if not isinstance(numbers, dict) or set(numbers) != {"same", "sequence", "mixed"} or not all(
            table(v, 2) for v in numbers.values()):
        bad("number_points must be {same, sequence, mixed}, each 2 integers (2, 3 spells)")


# ------------------------------------------------------------ the cards
def seen_cards(state) -> list[str]:
    cards = [c for hand in state["hands"] for c in hand]
    cards += [c for pile in state["discards"] for c in pile]
    cards += [c for spells in state["called"] for spell in spells for c in spell]
    cards += state["indicators"]
    if state["drawn"] is not None:
        cards.append(state["drawn"])
    return cards


def unseen(state) -> dict[str, int]:
    """Copies of each card kind nobody can see (draw pile, unused pile, undealt)."""
    seen = counts(seen_cards(state))
    return {card: n - seen.get(card, 0) for card, n in COPIES.items()}


def deal_recipient(state) -> int:
    """T-3.3 (referee decision): one card at a time, round from the manager."""
    dealt = sum(map(len, state["hands"]))
    return (state["manager"] - 1 + dealt) % 3 + 1


def dealt_to(state, seat: int, dealt: int) -> int:
    offset = (seat - state["manager"]) % 3
    return max(0, (dealt - offset + 2) // 3)


def full_draw_pile(options) -> int:
    return DECK_SIZE - 3 * HAND_SIZE - options["unused_cards"]


# ---------------------------------------------------------- forged states
def check_position(state) -> None:
    def bad(why):
        raise InvalidState(why)

    def whole(value, low=0, high=MAX_OD * 10):
        return type(value) is int and low <= value <= high

    def card_list(value):
        return isinstance(value, list) and all(is_card(c) for c in value)

    def per_seat(value, check):
        return isinstance(value, list) and len(value) == 3 and all(check(v) for v in value)

    if set(state) != STATE_KEYS:
        bad(f"state keys must be exactly {sorted(STATE_KEYS)}")
    options, phase = state["options"], state["phase"]
    if phase not in PHASES:
        bad(f"phase must be one of {PHASES}")
    if not (whole(state["match"], 1) and whole(state["manager"], 1, 3)
            and whole(state["turn"], 1, 3) and whole(state["field"]) and whole(state["pool"])
            and whole(state["rotations_done"], 0, options["rotations"])
            and whole(state["unused"], 0, 30) and whole(state["draw_pile"], 0, DECK_SIZE)):
        bad("match, manager, turn, field, pool, rotations_done, unused and draw_pile "
            "must be integers in range")
    if not per_seat(state["od"], lambda v: whole(v, -MAX_OD * 10)):
        bad("od must list 3 integers")
    if not per_seat(state["hands"], card_list) or not per_seat(state["discards"], card_list):
        bad("hands and discards must list each seat's cards (R0…G4*)")
    if not per_seat(state["called"], lambda spells: isinstance(spells, list)
                    and len(spells) <= MAX_CALLS
                    and all(card_list(s) and is_spell(s) for s in spells)):
        bad("called must list each seat's called spells (at most 2, each a spell)")
    if not per_seat(state["riichi"], lambda v: type(v) is bool):
        bad("riichi must list 3 booleans")
    if any(r and c for r, c in zip(state["riichi"], state["called"])):
        bad("a seat that called cannot have riichied (T-6.1)")
    if not card_list(state["indicators"]) or not (
            state["drawn"] is None or is_card(state["drawn"])):
        bad("indicators must be cards and drawn a card or null")
    _check_extras(state, bad)
    _check_conservation(state, bad)
    if phase in ("deal", "over"):
        _check_fresh_match(state, bad)
    else:
        _check_match(state, bad)


def _check_extras(state, bad):
    window, last = state["window"], state["last_match"]
    if window is not None and not (
            isinstance(window, dict) and set(window) == {"card", "answers"}
            and is_card(window["card"]) and isinstance(window["answers"], list)):
        bad("window must be null or {card, answers}")
    if last is not None and not (isinstance(last, dict) and last.get("end") in ENDS
                                 and type(last.get("match")) is int):
        bad("last_match must be null or a match result")


def _check_conservation(state, bad):
    options = state["options"]
    if any(n < 0 for n in unseen(state).values()):
        bad("more copies of a card in sight than the deck holds (T-1.2)")
    dealing = state["phase"] in ("deal", "over")
    undealt = 3 * HAND_SIZE - sum(map(len, state["hands"])) if dealing else 0
    if state["unused"] != options["unused_cards"] - len(state["indicators"]):
        bad("unused must be the unused pile less the indicators turned")
    if len(seen_cards(state)) + state["draw_pile"] + state["unused"] + undealt != DECK_SIZE:
        bad("the cards in sight, the draw pile and the unused pile must make 60")
    if sum(state["od"]) + state["field"] + state["pool"] != 3 * options["starting_od"]:
        bad("od, field and pool must add up to the starting od of all seats")
    costs = 0
    for seat, spells in enumerate(state["called"], start=1):
        own = LETTER[options["attributes"][seat - 1]]
        costs += sum(call_cost(k, s[0][0] == own) for k, s in enumerate(spells))
    if state["field"] != 10 * sum(state["riichi"]) + costs:
        bad("the field must hold the riichi stakes and the call costs of this match")


def _check_fresh_match(state, bad):
    options = state["options"]
    if (state["indicators"] or any(state["called"]) or any(state["riichi"])
            or any(state["discards"]) or state["drawn"] is not None or state["window"]
            or state["draw_pile"] != full_draw_pile(options) or state["turn"] != state["manager"]):
        bad("between matches nothing is in play but the dealt cards")
    if state["phase"] == "deal":
        dealt = sum(map(len, state["hands"]))
        if dealt >= 3 * HAND_SIZE or any(len(state["hands"][s - 1]) != dealt_to(state, s, dealt)
                                         for s in SEATS):
            bad("the deal goes one card at a time round from the manager")
        if state["to_move"] != [CHANCE] or state["rotations_done"] >= options["rotations"] or min(
                state["od"]) < 0:
            bad("the deal is a chance event of a game still on")
    elif any(state["hands"]) or state["to_move"] != [] or not (
            state["rotations_done"] == options["rotations"] or min(state["od"]) < 0):
        bad("a game is over after its last rotation or a seat below 0 od (T-9.1)")


def _check_match(state, bad):
    phase, turn = state["phase"], state["turn"]
    hands, called = state["hands"], state["called"]
    if state["rotations_done"] >= state["options"]["rotations"] or min(state["od"]) < 0:
        bad("a match is on only while the game is (T-9.1)")
    expected = [HAND_SIZE - 3 * len(spells) for spells in called]
    if phase == "call_discard":
        expected[turn - 1] += 1
    first_indicator = phase == "indicator" and not state["indicators"]
    riichis = sum(state["riichi"])
    turned = riichis if phase == "indicator" else riichis + 1
    if first_indicator:
        ok = (all(len(h) == HAND_SIZE for h in hands) and not any(state["discards"])
              and not any(called) and state["draw_pile"] == full_draw_pile(state["options"]))
    else:
        ok = (len(state["indicators"]) == turned and [len(h) for h in hands] == expected)
    if not ok:
        bad("hand sizes, calls and indicators do not agree (T-3.3, T-5.3, T-6.2)")
    if (state["drawn"] is not None) != (phase == "turn") or (
            state["window"] is not None) != (phase == "calls"):
        bad("a drawn card only in phase turn, a call window only in phase calls")
    if phase in ("indicator", "draw"):
        ok = state["to_move"] == [CHANCE] and (phase == "indicator" or state["draw_pile"] > 0)
        if phase == "indicator" and not first_indicator:
            ok = ok and state["riichi"][turn - 1] and bool(state["discards"][turn - 1])
    elif phase in ("turn", "call_discard"):
        ok = state["to_move"] == [turn] and (phase == "turn" or bool(called[turn - 1]))
    else:
        ok = _window_ok(state)
    if not ok:
        bad(f"phase {phase!r} does not agree with to_move, turn and the piles")


def _window_ok(state) -> bool:
    turn, window = state["turn"], state["window"]
    order = answer_order(turn)
    pile = state["discards"][turn - 1]
    answered = []
    for answer in window["answers"]:
        if not isinstance(answer, dict) or not isinstance(answer.get("type"), str) or (
                ANSWER_FIELDS.get(answer["type"]) != set(answer)) or (
                type(answer["seat"]) is not int):
            return False
        answered.append(answer["seat"])
        hand_size = len(state["hands"][answer["seat"] - 1]) if answer["seat"] in order else 0
        if answer["type"] == "ron" and not (
                type(answer["insert"]) is int and 0 <= answer["insert"] <= hand_size):
            return False
        cards = answer.get("cards", [0, 1])
        if not (isinstance(cards, list) and len(cards) == 2 and all(
                type(c) is int for c in cards) and 0 <= cards[0] < cards[1] < hand_size + 1):
            return False
    to_move = state["to_move"]
    return (bool(pile) and pile[-1] == window["card"] and bool(to_move)
            and all(s in order for s in answered + to_move)
            and len(set(answered + to_move)) == len(answered + to_move)
            and to_move == [s for s in order if s in to_move])


# ------------------------------------------------------------- secrecy
def perturb_hidden(state, seat, rnd):
    """A copy where what ``seat`` cannot see is dealt afresh: the other hands,
    their drawn card and the unseen cards are shuffled together (sizes kept)."""
    new = json.loads(json.dumps(state))
    hidden = [s for s in SEATS if s != seat]
    pool = [card for card, n in unseen(new).items() for _ in range(n)]
    pool += [c for s in hidden for c in new["hands"][s - 1]]
    hidden_drawn = new["drawn"] is not None and new["turn"] != seat
    if hidden_drawn:
        pool.append(new["drawn"])
    rnd.shuffle(pool)
    for s in hidden:
        size = len(new["hands"][s - 1])
        new["hands"][s - 1], pool = pool[:size], pool[size:]
    if hidden_drawn:
        new["drawn"] = pool.pop()
    return new


# ------------------------------------------------------------- refusals
def why_illegal(engine, state, move):
    kind, seat = move.get("type"), move.get("seat")
    if seat == CHANCE:
        card = move.get("card")
        if not is_card(card):
            return "T-1.2", f"{card!r} is no card: R/B/G, a number 0–4, then * if starred"
        return "T-10.1", (f"no copy of {card} can still be unseen, or it is not the pending "
                          f"chance event ({state['phase']})")
    if not isinstance(kind, str) or kind not in engine.move_types or kind in (
            "deal", "draw", "indicator"):
        return "T-4", f"unknown move type {kind!r}"
    phase = state["phase"]
    if phase == "turn":
        return _why_turn(state, move, seat)
    if phase == "calls":
        return _why_call(state, move, seat)
    hand = state["hands"][seat - 1]
    if kind == "discard" and move.get("riichi") is True:
        return "T-5.5", "a seat that called has lost the right to riichi"
    return "T-5.6", (f"after a call the caller discards one hand card: insert null, remove "
                     f"0…{len(hand) - 1}, riichi false")


def _why_turn(state, move, seat):
    kind, hand, drawn = move["type"], state["hands"][seat - 1], state["drawn"]
    if kind != "tsumo" and kind != "discard":
        return "T-5.1", "ron, pon, chi and pass answer another seat's discard; now tsumo or discard"
    insert = move.get("insert")
    if kind == "tsumo":
        return "T-4.2", f"{drawn} inserted at {insert!r} does not complete the hand (T-2.2)"
    remove, riichi = move.get("remove"), move.get("riichi")
    positions = range(len(hand) + 1)
    if type(insert) is not int or insert not in positions or type(
            remove) is not int or remove not in positions:
        return "T-4.3", f"insert and remove are positions 0…{len(hand)} of the hand with {drawn}"
    if type(riichi) is not bool:
        return "T-4.4", "riichi must be true or false"
    if state["riichi"][seat - 1]:
        return "T-6.3", "a riichi hand is locked: tsumo, or drop the drawn card (insert = remove)"
    if riichi:
        full = hand[:insert] + [drawn] + hand[insert:]
        if state["called"][seat - 1]:
            return "T-5.5", "a seat that called has lost the right to riichi"
        if state["od"][seat - 1] < 10 or state["draw_pile"] == 0 or state["unused"] == 0:
            return "T-6.1", "riichi needs 10 od, a draw pile and a face-down unused card"
        if not is_tenpai(full[:remove] + full[remove + 1:]):
            return "T-6.1", "riichi needs the 8 cards kept to be one card short of complete"
    return "T-4.3", "not a legal insert-and-discard"


def _why_call(state, move, seat):
    kind = move["type"]
    if kind in ("tsumo", "discard"):
        return "T-5.1", "a call window is open: ron, pon, chi or pass"
    card, hand = state["window"]["card"], state["hands"][seat - 1]
    if kind == "pass":
        return "T-5.1", 'a pass is {"type": "pass", "seat": …} and nothing more'
    if kind == "ron":
        return "T-5.1", f"{card} inserted at {move.get('insert')!r} does not complete the hand"
    if state["riichi"][seat - 1]:
        return "T-6.3", "a riichi hand may not call"
    if len(state["called"][seat - 1]) >= MAX_CALLS:
        return "T-5.4", "at most 2 calls per seat per match"
    if state["draw_pile"] == 0:
        return "T-5.7", "no pon or chi on the discard made with the draw pile empty"
    if state["od"][seat - 1] < seat_call_cost(state, seat, card):
        return "T-5.4", f"this call costs {seat_call_cost(state, seat, card)} od"
    if kind == "chi" and seat != after(state["turn"]):
        return "T-5.1", "chi only on the discard of the left player"
    cards = move.get("cards")
    if not (isinstance(cards, list) and len(cards) == 2 and all(
            type(c) is int and 0 <= c < len(hand) for c in cards) and cards[0] < cards[1]):
        return "T-5.1", f"cards must be two positions of the hand (0…{len(hand) - 1})"
    make = pon_spell if kind == "pon" else chi_spell
    if make(hand[cards[0]], hand[cards[1]], card) is None:
        return "T-5.3", f"{hand[cards[0]]}, {hand[cards[1]]} and {card} make no {kind} spell"
    return "T-5.1", "not a legal call"
