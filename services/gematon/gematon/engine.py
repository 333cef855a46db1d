"""Gematon: multiply chips off your stack, collect the altars' chips, fill a pentacle.

Rules: ``services/gematon/RULES.md`` (rule ids GM-…, referee decisions marked).
The state, beyond the envelope every game has::

    phase            "setup" | "play" | "over"
    setup_step       index into setup.setup_steps(players, draft) (GM-2)
    witches          [witch number 1..6 of each seat, or null before it has one]
    removed_witches  sorted witches put back in the box by the draft (GM-2.1)
    awakened         whether the game's first set has been formed (GM-4.1)
    bag              {"1": 9, "2": 9, …} chips left per value (GM-1.2)
    altars           {"w1": [a, b], "w2": …, "w3": …, "black": …} sorted chips (GM-1.3)
    seats            per seat {"position", "gauge", "stack" (bottom→top), "hand" (sorted),
                     "pentacle" (7 cells, value or null)} (GM-1.4, GM-1.7)
    turn             null, or {"seat", "round", "refilled", "pushed", "operated", "sets"}
                     (sets: new sets formed this turn, for the blessing GM-3.6)

The pop area (GM-1.4) is empty whenever the game rests: an Operate fills and
empties it at once, so the state does not keep it; the events show it.
"""

import random

from referee.engine import CHANCE, Engine, Option, clone

from . import witches
from .calculate import calculate
from .choices import operate_choices
from .position import check_position
from .refusals import why_illegal
from .rules import (
    ALTARS, BLACK_ALTAR, CELLS, CHIPS_PER_VALUE, FANO_LINES, GAUGE_VALUES, VALUES,
    check_options, complete_lines, seat_score,
)
from .setup import free_witches, setup_steps


class Gematon(Engine):
    id = "gematon"
    title = "Gematon"
    min_players, max_players = 2, 4
    players_rule, end_rule, moves_rule = "GM-1.1", "GM-5.1", "GM-3.8"
    has_secrets = True
    rules_doc = "services/gematon/RULES.md"
    options = {
        "draft": Option(False, "expert rule: witches are drafted (seats N…2 pick, seat 1 "
                               "gets the last) instead of dealt (GM-2.1)"),
        "pentacle_lines": Option(FANO_LINES, "the pentacle's 7 lines, 3 distinct cells 0..6 "
                                             "each; default the Fano plane (GM-1.5)"),
        "blessing_values": Option(GAUGE_VALUES, "the value of gauge cells 0..6, "
                                                "non-decreasing; default k (GM-1.6)"),
    }
    move_types = {
        "push": "a hand chip onto the stack: {chip} (GM-3.3)",
        "operate": "pop two, take the result from an altar onto the stack and place the "
                   "altar's other chip: {altar, take, cell} (GM-3.4)",
        "pick_witch": "draft only: take one of the witches left: {witch} (GM-2.1)",
        "draw": "chance: a bag chip {chip, into: stack|hand|altar, holder: seat or altar} "
                "(GM-2.2, GM-3.1)",
        "deal_witch": "chance: a witch {witch} dealt to {holder} (GM-2.1)",
        "remove_witch": "chance, draft only: a witch {witch} back to the box (GM-2.1)",
    }

    def info(self):
        return dict(super().info(), witches=witches.NO_EFFECT_NOTE)

    def _check_options(self, options, players):
        check_options(options)

    def _check_position(self, state):
        check_position(state)

    # ------------------------------------------------------------- setup
    def _setup(self, state, events):
        state.update(
            phase="setup", setup_step=0, witches=[None] * state["players"],
            removed_witches=[], awakened=False,
            bag={str(v): CHIPS_PER_VALUE for v in VALUES},
            altars={altar: [] for altar in ALTARS},
            seats=[{"position": k, "gauge": 0, "stack": [], "hand": [],
                    "pentacle": [None] * CELLS} for k in range(state["players"])],
            turn=None,
        )
        self._next_setup_step(state, events)

    def _setup_step(self, state):
        return setup_steps(state["players"], state["options"]["draft"])[state["setup_step"]]

    def _next_setup_step(self, state, events):
        steps = setup_steps(state["players"], state["options"]["draft"])
        if state["setup_step"] < len(steps):
            step = steps[state["setup_step"]]
            state["to_move"] = [step[1]] if step[0] == "pick" else [CHANCE]
            return
        if state["options"]["draft"]:  # GM-2.1: seat 1 gets the last witch
            last, = free_witches(state)
            state["witches"][0] = last
            events.append({"type": "witch_picked", "seat": 1, "witch": last})
        state["phase"] = "play"
        self._start_turn(state, 1, 1, events)

    # ------------------------------------------------------------- moves
    def _legal(self, state, seat):
        if state["phase"] == "setup":
            return [{"type": "pick_witch", "seat": seat, "witch": w}
                    for w in free_witches(state)]
        turn, moves = state["turn"], []
        if not turn["pushed"]:
            hand = state["seats"][seat - 1]["hand"]
            moves += [{"type": "push", "seat": seat, "chip": v} for v in sorted(set(hand))]
        if not turn["operated"]:
            moves += self._operations(state, seat)
        return moves

    def _operations(self, state, seat):
        """GM-3.4: every (altar, take, cell) the seat may choose."""
        choices = operate_choices(state, seat)
        cells = choices["cells"]
        return [{"type": "operate", "seat": seat, "altar": altar, "take": take, "cell": cell}
                for altar, take in choices["takes"] for cell in cells]

    def _chance_outcomes(self, state):
        if state["phase"] == "setup":
            step = self._setup_step(state)
            if step[0] == "deal":
                return [({"type": "deal_witch", "seat": CHANCE, "witch": w, "holder": step[1]}, 1)
                        for w in free_witches(state)]
            if step[0] == "remove":
                return [({"type": "remove_witch", "seat": CHANCE, "witch": w}, 1)
                        for w in free_witches(state)]
            into, holder = step[1], step[2]
        else:
            into, holder = "hand", state["turn"]["seat"]
        bag = state["bag"]
        return [({"type": "draw", "seat": CHANCE, "chip": v, "into": into, "holder": holder},
                 bag[str(v)]) for v in VALUES if bag[str(v)] > 0]

    # -------------------------------------------------------------- play
    def _play(self, state, move, events):
        kind = move["type"]
        if kind == "draw":
            self._draw(state, move, events)
        elif kind == "deal_witch":
            state["witches"][move["holder"] - 1] = move["witch"]
            events.append({"type": "witch_dealt", "seat": move["holder"], "witch": move["witch"]})
            self._end_setup_step(state, events)
        elif kind == "remove_witch":
            state["removed_witches"] = sorted(state["removed_witches"] + [move["witch"]])
            events.append({"type": "witch_removed", "witch": move["witch"]})
            self._end_setup_step(state, events)
        elif kind == "pick_witch":
            state["witches"][move["seat"] - 1] = move["witch"]
            events.append({"type": "witch_picked", "seat": move["seat"], "witch": move["witch"]})
            self._end_setup_step(state, events)
        elif kind == "push":
            self._push(state, move["seat"], move["chip"], events)
        else:
            self._operate(state, move, events)

    def _end_setup_step(self, state, events):
        state["setup_step"] += 1
        self._next_setup_step(state, events)

    def _draw(self, state, move, events):
        chip, into, holder = move["chip"], move["into"], move["holder"]
        state["bag"][str(chip)] -= 1
        events.append({"type": "chip_drawn", "chip": chip, "into": into, "holder": holder})
        if into == "altar":
            state["altars"][holder] = sorted(state["altars"][holder] + [chip])
        elif into == "stack":  # GM-2.2: the first chip drawn lies at the bottom
            state["seats"][holder - 1]["stack"].append(chip)
        else:
            hand = state["seats"][holder - 1]["hand"]
            hand[:] = sorted(hand + [chip])
        if state["phase"] == "setup":
            self._end_setup_step(state, events)
            return
        state["turn"]["refilled"] = True  # GM-3.1
        state["to_move"] = [holder]
        witches.witch_of(state, holder).after_refill(state, holder, events)

    def _push(self, state, seat, chip, events):
        """GM-3.3: a hand chip onto the stack."""
        witch = witches.witch_of(state, seat)
        witch.before_push(state, seat, chip, events)
        mine = state["seats"][seat - 1]
        mine["hand"].remove(chip)
        mine["stack"].append(chip)
        events.append({"type": "chip_pushed", "seat": seat, "chip": chip})
        witch.after_push(state, seat, chip, events)
        state["turn"]["pushed"] = True
        self._maybe_end_turn(state, seat, events)

    def _operate(self, state, move, events):
        seat, altar, take, cell = move["seat"], move["altar"], move["take"], move["cell"]
        mine = state["seats"][seat - 1]
        result = operate_choices(state, seat)["result"]
        popped = [mine["stack"].pop(), mine["stack"].pop()]
        events.append({"type": "operated", "seat": seat, "popped": popped, "result": result})
        chips = state["altars"][altar]
        chips.remove(take)
        placed = chips.pop()
        mine["stack"].append(take)
        events.append({"type": "chip_taken", "seat": seat, "altar": altar, "chip": take})
        self._place(state, seat, cell, placed, events)
        state["altars"][altar] = sorted(popped)
        events.append({"type": "altar_refilled", "altar": altar, "chips": sorted(popped)})
        state["turn"]["operated"] = True
        if altar == BLACK_ALTAR:
            self._penalty(state, seat, events)
        self._maybe_end_turn(state, seat, events)

    def _place(self, state, seat, cell, chip, events):
        """GM-3.4: the altar's other chip onto an empty cell; the gauge; new sets (GM-4.1)."""
        mine = state["seats"][seat - 1]
        pentacle = mine["pentacle"]
        new_value = chip not in pentacle
        pentacle[cell] = chip
        events.append({"type": "chip_placed", "seat": seat, "cell": cell, "chip": chip})
        if new_value:
            steps = witches.witch_of(state, seat).gauge_advance(state, seat, 1)
            mine["gauge"] = max(0, min(len(GAUGE_VALUES) - 1, mine["gauge"] + steps))
            events.append({"type": "gauge_advanced", "seat": seat, "gauge": mine["gauge"]})
        lines = state["options"]["pentacle_lines"]
        formed = [line for line in complete_lines(pentacle, lines) if cell in line]
        if not formed:
            return
        state["turn"]["sets"] += len(formed)
        events.append({"type": "sets_formed", "seat": seat, "lines": formed})
        if not state["awakened"]:
            state["awakened"] = True
            events.append({"type": "witches_awakened", "seat": seat,
                           "witches": list(state["witches"])})

    def _penalty(self, state, seat, events):
        """GM-3.5: swap places with the pawn just below, if any."""
        if not witches.witch_of(state, seat).penalty_applies(state, seat, True):
            return
        seats = state["seats"]
        mine = seats[seat - 1]["position"]
        below = [(s["position"], n) for n, s in enumerate(seats, 1) if s["position"] < mine]
        if not below:
            events.append({"type": "penalty", "seat": seat, "with": None})
            return
        position, other = max(below)
        seats[seat - 1]["position"], seats[other - 1]["position"] = position, mine
        events.append({"type": "penalty", "seat": seat, "with": other,
                       "positions": {str(seat): position, str(other): mine}})

    def _maybe_end_turn(self, state, seat, events):
        turn = state["turn"]
        if not (turn["pushed"] and turn["operated"]):
            return
        if turn["sets"]:
            self._bless(state, seat, events)
        events.append({"type": "turn_ended", "seat": seat, "round": turn["round"]})
        if all(None not in s["pentacle"] for s in state["seats"]):
            state.update(phase="over", turn=None, to_move=[])
            events.append({"type": "game_over", "rule": "GM-5.1"})
            return
        following = seat % state["players"] + 1
        self._start_turn(state, following, turn["round"] + (following == 1), events)

    def _bless(self, state, seat, events):
        """GM-3.6 once per turn, with the overshoot of GM-3.7."""
        mine = state["seats"][seat - 1]
        value = state["options"]["blessing_values"][mine["gauge"]]
        amount = witches.witch_of(state, seat).blessing_amount(state, seat, value)
        start = mine["position"]
        taken = {s["position"] for n, s in enumerate(state["seats"], 1) if n != seat}
        landing = start + amount
        while landing in taken:
            landing += 1
        mine["position"] = landing
        events.append({"type": "blessed", "seat": seat, "amount": amount, "from": start,
                       "to": landing, "overshoot": landing - start - amount})

    def _start_turn(self, state, seat, round_, events):
        state["turn"] = {"seat": seat, "round": round_, "refilled": False, "pushed": False,
                         "operated": False, "sets": 0}
        state["to_move"] = [CHANCE]
        events.append({"type": "turn_started", "seat": seat, "round": round_})

    # ------------------------------------------------------------ refusals
    def _why_illegal(self, state, move):
        return why_illegal(state, move)

    # --------------------------------------------------------------- score
    def _score(self, state):
        over = state["phase"] == "over"
        return [seat_score(n, s["position"], s["gauge"], s["pentacle"], state["options"], n,
                           witches.witch_of(state, n).end_bonus(state, n) if over else 0)
                for n, s in enumerate(state["seats"], 1)]

    def _rank_key(self, state, entry):
        """GM-5.3: on equal scores the seat later in turn order ranks higher."""
        return entry["total"], entry["breakdown"]["turn_order"]

    def _calculate(self, data):
        return calculate(self, data)

    # ------------------------------------------------------------- secrets
    def _redact(self, view, seat):
        """GM-6.2: other seats' hands and the bag show only their counts."""
        for n, mine in enumerate(view["seats"], 1):
            if n != seat:
                mine["hand"] = {"count": len(mine["hand"])}
        view["bag"] = {"count": sum(view["bag"].values())}

    def _redact_event(self, event, seat):
        if event.get("type") == "chip_drawn" and _hidden_draw(event, seat):
            del event["chip"]
        return event

    def _redact_move(self, move, seat):
        if move.get("type") == "draw" and _hidden_draw(move, seat):
            move.pop("chip", None)
        return move


def _hidden_draw(draw: dict, seat) -> bool:
    """A chip drawn into a hand is seen by its drawer only (GM-6.2); a draw that does
    not say where it went (a hand-written log entry) is hidden from everyone."""
    into = draw.get("into")
    if into in ("stack", "altar"):
        return False
    return not (into == "hand" and draw.get("holder") == seat)


def perturb_hidden(state: dict, seat, rnd: random.Random) -> dict:
    """A copy where what ``seat`` cannot see changes: the chips in the bag and in the
    other seats' hands are dealt anew (same hand sizes, same chips in all)."""
    new = clone(state)
    others = [s for n, s in enumerate(new["seats"], 1) if n != seat]
    pool = [int(v) for v, count in new["bag"].items() for _ in range(count)]
    pool += [chip for s in others for chip in s["hand"]]
    rnd.shuffle(pool)
    for s in others:
        size = len(s["hand"])
        s["hand"], pool = sorted(pool[:size]), pool[size:]
    new["bag"] = {str(v): pool.count(v) for v in VALUES}
    return new

