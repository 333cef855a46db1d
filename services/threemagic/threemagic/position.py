"""The state's shape: which options and which positions the rules can reach.

``check_options`` refuses option values the game cannot be set up or played to
its end with; ``check_position`` refuses a state the rules could not have
produced (keys, ranges, the 60 cards and the od accounted for, each phase's
hand sizes, turn and call window)."""

from referee.engine import CHANCE
from referee.errors import InvalidOptions, InvalidState

from .calls import asked_seats
from .cards import (
    ATTRIBUTES, DECK_SIZE, HAND_SIZE, LETTER, MAX_CALLS, call_cost, is_card, is_spell,
)
from .table import (
    MANAGER_STAKE, MAX_OD, MOST_FIELD, OD_RANGE, ROTATIONS, SEATS, UNUSED_CARDS, answer_order,
    dealt_to, full_draw_pile, seen_cards, unseen,
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


# ---------------------------------------------------------------- options
def check_options(options: dict) -> None:
    """Refuse option values the game cannot be set up or played to its end with.

    Every value in range both sets up and ends (RULES.md, "Options"): the deal
    needs an unused card for the 1st indicator and a draw pile to start from
    (``unused_cards`` 1–30 of the 36 left after the deal); the manager role
    must be able to return ``rotations`` ≥ 1 times; a seat may not start below
    0 od (the game would be over before it began); and the fire seat must
    exist to manage the first match.
    """
    def bad(why, rule):
        raise InvalidOptions(why, rule=rule)

    def whole(value, low, high):
        return type(value) is int and low <= value <= high

    def table(value, length):
        return isinstance(value, list) and len(value) == length and all(
            whole(v, 0, MAX_OD) for v in value)

    attributes = options["attributes"]
    if not isinstance(attributes, list) or sorted(map(str, attributes)) != sorted(ATTRIBUTES) \
            or not all(isinstance(a, str) for a in attributes):
        bad("attributes must list fire, water and wood once each (seats 1, 2, 3): the fire "
            "seat manages the first match", "T-1.1")
    if not whole(options["starting_od"], 0, MAX_OD):
        bad(f"starting_od must be an integer from 0 to {MAX_OD}: a seat below 0 od ends the "
            "game", "T-1.3")
    if not whole(options["unused_cards"], *UNUSED_CARDS):
        bad(f"unused_cards must be an integer from {UNUSED_CARDS[0]} to {UNUSED_CARDS[1]}: the "
            "unused pile turns the 1st indicator and the draw pile keeps the rest of the 36 "
            "cards not dealt", "T-3.3")
    if not whole(options["rotations"], *ROTATIONS):
        bad(f"rotations must be an integer from {ROTATIONS[0]} to {ROTATIONS[1]}: the game ends "
            "when the manager role has returned that many times", "T-9.1")
    for name in ("attribute_points", "star_points"):
        if not table(options[name], 3):
            bad(f"{name} must list 3 integers from 0 to {MAX_OD} (for 1, 2, 3 spells)", "T-7.2")
    numbers = options["number_points"]
    if not isinstance(numbers, dict) or set(numbers) != {"same", "sequence", "mixed"} or not all(
            table(v, 2) for v in numbers.values()):
        bad(f"number_points must have the keys same, sequence and mixed, each 2 integers from "
            f"0 to {MAX_OD} (for 2 and 3 spells)", "T-7.2")


# ---------------------------------------------------------- forged states
def check_position(state) -> None:
    def bad(why):
        raise InvalidState(why)

    def whole(value, low=0, high=OD_RANGE[1]):
        return type(value) is int and low <= value <= high

    def card_list(value):
        return isinstance(value, list) and all(is_card(c) for c in value)

    def per_seat(value, check):
        return isinstance(value, list) and len(value) == 3 and all(check(v) for v in value)

    if set(state) != STATE_KEYS:
        missing, extra = sorted(STATE_KEYS - set(state)), sorted(set(state) - STATE_KEYS)
        bad(f"the state lacks {', '.join(missing)}" if missing else
            f"the state has no key {', '.join(extra)}")
    options, phase = state["options"], state["phase"]
    if phase not in PHASES:
        bad(f"phase must be {', '.join(PHASES[:-1])} or {PHASES[-1]}")
    if not (whole(state["match"], 1) and whole(state["manager"], 1, 3)
            and whole(state["turn"], 1, 3) and whole(state["field"], 0, MOST_FIELD)
            and whole(state["pool"], 0, len(SEATS) * options["starting_od"] + MANAGER_STAKE)
            and whole(state["rotations_done"], 0, options["rotations"])
            and whole(state["unused"], 0, UNUSED_CARDS[1])
            and whole(state["draw_pile"], 0, DECK_SIZE)):
        bad("match, manager, turn, field, pool, rotations_done, unused and draw_pile "
            "must be integers in range (the pool holds at most the od the seats started with, "
            "and a last manager's stake)")
    if not per_seat(state["od"], lambda v: whole(v, *OD_RANGE)):
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
        bad(f"phase {phase} does not agree with to_move, turn and the piles")


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
            and to_move == [s for s in order if s in to_move]
            and sorted(answered + to_move) == sorted(asked_seats(state)))  # T-5.1
