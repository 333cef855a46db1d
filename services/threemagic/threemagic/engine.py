"""Three Magic: three mages build three spells from a fixed-order hand of mana.

Rules: ``services/threemagic/RULES.md`` (rule ids T-…, referee decisions marked).
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

No deck order is stored: every card not in sight (the draw pile and the
face-down unused cards, or the undealt ones) is equally likely to come next,
so each chance event draws among the unseen copies.
"""

from itertools import combinations

from referee.engine import CHANCE, Engine, Option

from . import calculator, position
from .cards import (
    DECK_SIZE, HAND_SIZE, MAX_CALLS, WEAK_TO, chi_spell, is_tenpai, pon_spell, winning_insertions,
)
from .position import after, answer_order, seat_call_cost
from .position import perturb_hidden  # noqa: F401  (the conformance suite looks for it here)
from .scoring import catalyst_of, measure, settle

RIICHI_STAKE = 10  # T-6.2
MANAGER_STAKE = 10  # T-8.1, T-8.3
ANSWERS = ("ron", "pon", "chi", "pass")


def seat_attribute(state, seat: int) -> str:
    return state["options"]["attributes"][seat - 1]


class ThreeMagic(Engine):
    id = "threemagic"
    title = "Three Magic"
    min_players = max_players = 3
    has_secrets = True
    players_rule, end_rule, moves_rule = "T-1.1", "T-9.1", "T-4"
    rules_doc = "services/threemagic/RULES.md"
    options = {
        "attributes": Option(["fire", "water", "wood"],
                             "attribute of seats 1, 2, 3: a permutation of fire, water, wood "
                             "(T-1.1); the fire seat is the first manager"),
        "starting_od": Option(270, "od each seat starts with, 0–100000 (T-1.3)"),
        "unused_cards": Option(6, "cards set aside as the unused pile, 1–30; its top card is "
                                  "the 1st indicator (T-3.3)"),
        "rotations": Option(1, "the game ends when the manager role would pass back to the "
                               "first manager for this many times, 1–20 (T-9.1)"),
        "attribute_points": Option([10, 30, 90], "attribute item for 1, 2, 3 spells (T-7.2)"),
        "number_points": Option({"same": [60, 180], "sequence": [40, 120], "mixed": [20, 60]},
                                "numbers item for 2 and 3 spells with the same numbers: "
                                "same-number, one-direction, mixed-direction (T-7.2)"),
        "star_points": Option([10, 30, 90], "stars item for 1, 2, 3 all-starred spells (T-7.2)"),
    }
    move_types = {
        "tsumo": "declare a win with the drawn card inserted at `insert` (T-4.2)",
        "discard": "insert the drawn card at `insert` (null after a call), then discard the "
                   "card at `remove` of the hand so formed; `riichi` true declares riichi "
                   "(T-4.3, T-6)",
        "ron": "call window: win with the discard inserted at `insert` (T-5.1)",
        "pon": "call window: same-number spell with the hand cards at `cards` (T-5.1)",
        "chi": "call window, the discarder's next seat only: sequence spell (T-5.1)",
        "pass": "call window: take nothing",
        "deal": "chance: the card dealt to seat `to` (T-3.3)",
        "indicator": "chance: the card turned face up as a catalyst indicator (T-3.3, T-6.2)",
        "draw": "chance: the card seat `to` draws (T-4.1)",
    }

    # ------------------------------------------------------------ options
    def _check_options(self, options, players):
        position.check_options(options)

    # -------------------------------------------------------------- setup
    def _setup(self, state, events):
        first = self._first_manager(state)
        state.update(match=1, manager=first, rotations_done=0,
                     od=[state["options"]["starting_od"]] * 3, field=0, pool=0,
                     last_match=None)
        self._start_match(state, events)

    @staticmethod
    def _first_manager(state) -> int:
        return state["options"]["attributes"].index("fire") + 1

    def _start_match(self, state, events):
        """T-3.3: empty hands; the deal and the 1st indicator are chance events."""
        unused = state["options"]["unused_cards"]
        state.update(phase="deal", hands=[[], [], []], called=[[], [], []],
                     riichi=[False] * 3, discards=[[], [], []], indicators=[],
                     unused=unused, draw_pile=DECK_SIZE - 3 * HAND_SIZE - unused,
                     turn=state["manager"], drawn=None, window=None, to_move=[CHANCE])
        events.append({"type": "match_started", "match": state["match"],
                       "manager": state["manager"]})

    # ------------------------------------------------------------- chance
    def _chance_outcomes(self, state):
        phase = state["phase"]
        if phase == "deal":
            base = {"type": "deal", "seat": CHANCE, "to": position.deal_recipient(state)}
        elif phase == "draw":
            base = {"type": "draw", "seat": CHANCE, "to": state["turn"]}
        else:
            base = {"type": "indicator", "seat": CHANCE}
        unseen = position.unseen(state)
        return [(dict(base, card=card), n) for card, n in unseen.items() if n > 0]

    # -------------------------------------------------------------- moves
    def _legal(self, state, seat):
        phase = state["phase"]
        if phase == "turn":
            return self._turn_moves(state, seat)
        if phase == "calls":
            return [{"type": "pass", "seat": seat}] + self._call_options(
                state, seat, state["window"]["card"])
        hand = state["hands"][seat - 1]  # call_discard: T-5.6
        return [{"type": "discard", "seat": seat, "insert": None, "remove": j, "riichi": False}
                for j in range(len(hand))]

    def _turn_moves(self, state, seat):
        hand, drawn = state["hands"][seat - 1], state["drawn"]
        moves = [{"type": "tsumo", "seat": seat, "insert": p}
                 for p in winning_insertions(hand, drawn)]
        locked = state["riichi"][seat - 1]  # T-6.3: discard the drawn card only
        can_riichi = self._may_riichi(state, seat)
        tenpai: dict[tuple, bool] = {}
        for i in range(len(hand) + 1):
            full = hand[:i] + [drawn] + hand[i:]
            for j in range(len(full)):
                if locked and j != i:
                    continue
                moves.append({"type": "discard", "seat": seat, "insert": i, "remove": j,
                              "riichi": False})
                if can_riichi:
                    kept = tuple(full[:j] + full[j + 1:])
                    if kept not in tenpai:
                        tenpai[kept] = is_tenpai(list(kept))
                    if tenpai[kept]:
                        moves.append({"type": "discard", "seat": seat, "insert": i,
                                      "remove": j, "riichi": True})
        return moves

    @staticmethod
    def _may_riichi(state, seat) -> bool:
        """T-6.1 apart from tenpai (checked per discard)."""
        return (not state["riichi"][seat - 1] and not state["called"][seat - 1]
                and state["od"][seat - 1] >= RIICHI_STAKE and state["draw_pile"] > 0
                and state["unused"] > 0)

    def _call_options(self, state, seat, card):
        """T-5.1: ron, pon and chi of ``seat`` on ``card`` (pass aside)."""
        hand = state["hands"][seat - 1]
        moves = [{"type": "ron", "seat": seat, "insert": p}
                 for p in winning_insertions(hand, card)]
        if (state["riichi"][seat - 1] or len(state["called"][seat - 1]) >= MAX_CALLS
                or state["draw_pile"] == 0
                or state["od"][seat - 1] < seat_call_cost(state, seat, card)):
            return moves  # T-6.3, T-5.4, T-5.7
        same_attribute = [i for i, c in enumerate(hand) if c[0] == card[0]]
        pairs = list(combinations(same_attribute, 2))
        moves += [{"type": "pon", "seat": seat, "cards": [i, j]} for i, j in pairs
                  if pon_spell(hand[i], hand[j], card)]
        if seat == after(state["turn"]):
            moves += [{"type": "chi", "seat": seat, "cards": [i, j]} for i, j in pairs
                      if chi_spell(hand[i], hand[j], card)]
        return moves

    def _normalize(self, move):
        cards = move.get("cards")
        if move.get("type") in ("pon", "chi") and isinstance(cards, list) and all(
                type(c) is int for c in cards):
            move["cards"] = sorted(cards)
        return move

    # --------------------------------------------------------------- play
    def _play(self, state, move, events):
        kind = move["type"]
        if kind == "deal":
            self._deal(state, move, events)
        elif kind == "indicator":
            self._turn_indicator(state, move["card"], events)
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
            self._win(state, move["seat"], "tsumo", None, events)
        elif kind == "discard":
            self._discard(state, move, events)
        else:
            self._answer(state, move, events)

    def _deal(self, state, move, events):
        state["hands"][move["to"] - 1].append(move["card"])
        events.append({"type": "card_dealt", "seat": move["to"], "card": move["card"]})
        if sum(map(len, state["hands"])) == 3 * HAND_SIZE:
            state["phase"] = "indicator"

    def _turn_indicator(self, state, card, events):
        state["indicators"].append(card)
        state["unused"] -= 1
        events.append({"type": "indicator_turned", "card": card, "catalyst": catalyst_of(card),
                       "number": len(state["indicators"])})
        if len(state["indicators"]) == 1:  # the match begins with the manager's draw
            state.update(phase="draw", turn=state["manager"], to_move=[CHANCE])
        else:  # T-6.2: the riichi discard's call window follows
            self._open_window(state, events)

    def _discard(self, state, move, events):
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
            self._open_window(state, events)

    def _open_window(self, state, events):
        """T-4.5, T-5.1: ask every other seat that has more than pass."""
        card = state["discards"][state["turn"] - 1][-1]
        asked = [s for s in answer_order(state["turn"]) if self._call_options(state, s, card)]
        if not asked:
            self._next_turn(state, events)
            return
        state.update(phase="calls", window={"card": card, "answers": []}, to_move=asked)
        events.append({"type": "call_window_opened", "discarder": state["turn"], "card": card,
                       "seats": asked})

    def _answer(self, state, move, events):
        state["window"]["answers"].append(move)
        state["to_move"].remove(move["seat"])
        events.append({"type": "answered", "seat": move["seat"]})
        if not state["to_move"]:
            self._resolve_window(state, events)

    def _resolve_window(self, state, events):
        """T-5.2: ron > pon > chi; between two rons the first seat after the discarder."""
        discarder, card = state["turn"], state["window"]["card"]
        answers = {}
        for answer in state["window"]["answers"]:  # a forged answer counts as a pass
            if answer in self._call_options(state, answer["seat"], card):
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
                        self._win(state, seat, "ron", discarder, events)
                    else:
                        self._call(state, answer, card, discarder, events)
                    return
        state["window"] = None
        self._next_turn(state, events)

    def _call(self, state, answer, card, discarder, events):
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

    def _next_turn(self, state, events):
        if state["draw_pile"] == 0:
            self._exhaustive_draw(state, events)
        else:
            state.update(phase="draw", turn=after(state["turn"]), to_move=[CHANCE])

    # ------------------------------------------------------- end of match
    def _win(self, state, winner, win, discarder, events):
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
            self._manager_stakes(state, result, events)
            self._finish_match(state, result, True, events)
            return
        settlement = settle(score["total"], win, winner, discarder, (1, 2, 3), riichi,
                            bool(state["called"][winner - 1]), state["field"], state["pool"])
        for change in settlement["changes"]:
            state["od"][change["seat"] - 1] += change["change"]
        state.update(pool=settlement["pool_after"], field=0)
        result["settlement"] = settlement
        events.append(dict(settlement, type="od_paid", seat=winner))
        self._finish_match(state, result, winner == state["manager"], events)  # T-8.2

    def _exhaustive_draw(self, state, events):
        """T-8.1: the manager stays when tenpai, adding 10 to the pool."""
        manager = state["manager"]
        tenpai = is_tenpai(state["hands"][manager - 1])
        result = {"match": state["match"], "end": "exhaustive_draw", "manager_tenpai": tenpai}
        events.append({"type": "exhaustive_draw", "manager": manager, "manager_tenpai": tenpai})
        if tenpai:
            self._manager_stakes(state, result, events)
        else:
            self._field_to_pool(state, result, events)
        self._finish_match(state, result, tenpai, events)

    @staticmethod
    def _field_to_pool(state, result, events):
        result["field_to_pool"] = state["field"]
        events.append({"type": "field_to_pool", "od": state["field"]})
        state.update(pool=state["pool"] + state["field"], field=0)

    def _manager_stakes(self, state, result, events):
        self._field_to_pool(state, result, events)
        state["od"][state["manager"] - 1] -= MANAGER_STAKE
        state["pool"] += MANAGER_STAKE
        result["manager_stake"] = MANAGER_STAKE
        events.append({"type": "manager_stake", "seat": state["manager"], "od": MANAGER_STAKE})

    def _finish_match(self, state, result, manager_stays, events):
        """T-8.1, T-8.2, T-9.1: the next manager, or the end of the game."""
        state["last_match"] = result
        over = None
        if any(od < 0 for od in state["od"]):
            over = "bust"
        elif not manager_stays:
            state["manager"] = after(state["manager"])
            if state["manager"] == self._first_manager(state):
                state["rotations_done"] += 1
                if state["rotations_done"] == state["options"]["rotations"]:
                    over = "rotations"
        events.append({"type": "match_ended", "match": state["match"], "end": result["end"],
                       "next_manager": state["manager"]})
        if over:
            self._start_match(state, [])
            state.update(phase="over", to_move=[])
            events.append({"type": "game_over", "reason": over, "od": list(state["od"])})
        else:
            state["match"] += 1
            self._start_match(state, events)

    # ------------------------------------------------------------- refusal
    def _why_illegal(self, state, move):
        return position.why_illegal(self, state, move)

    # --------------------------------------------------------------- score
    def _score(self, state):
        return [{"seat": seat, "total": od, "breakdown": {
            "od": od, "starting_od": state["options"]["starting_od"],
            "change": od - state["options"]["starting_od"],
            "attribute": seat_attribute(state, seat), "manager": seat == state["manager"],
            "riichi": state["riichi"][seat - 1], "calls": len(state["called"][seat - 1])}}
            for seat, od in enumerate(state["od"], start=1)]

    def calculate(self, data):
        """The score helper (overridden: the answer adds ``payment``, see RULES.md)."""
        with self._guard(calculator.InvalidInput):
            scores, payment = calculator.calculate(self, data)
        board = self._scoreboard(scores, final=True, state=None)
        board["payment"] = payment
        return board

    # ------------------------------------------------------ forged states
    def _check_position(self, state):
        position.check_position(state)

    # ----------------------------------------------------------- secrecy
    def _redact(self, view, seat):
        """T-10.2: own hand only; counts of the other hands; answers stay sealed."""
        for other in (1, 2, 3):
            if other != seat:
                view["hands"][other - 1] = {"count": len(view["hands"][other - 1])}
        if view["drawn"] is not None and view["turn"] != seat:
            view["drawn"] = "hidden"
        if view["window"]:
            view["window"]["answers"] = [a if a["seat"] == seat else {"seat": a["seat"]}
                                         for a in view["window"]["answers"]]

    def _redact_event(self, event, seat):
        if event.get("type") in ("card_dealt", "card_drawn") and event.get("seat") != seat:
            event["card"] = "hidden"
        return event

    def _redact_move(self, move, seat):
        if move.get("type") in ("deal", "draw") and move.get("to") != seat:
            move["card"] = "hidden"
        elif move.get("type") in ANSWERS and move.get("seat") != seat:
            move = {"type": "answer", "seat": move.get("seat")}
        return move

