"""Vectron: jump across a wall-kicking 4×4 map, trade chips, fill your star gauge.

Rules: ``services/vectron/RULES.md`` (rule ids V-…, referee decisions marked).
The state, beyond the envelope every game has::

    phase        "layout" | "deal" | "draw" | "deck_draw" | "place" | "forced_draw"
                 | "move" | "over"   (layout, deal, deck_draw, forced_draw: chance)
    turn         the seat whose turn it is (during a deal: whose turn follows it)
    grid         {"a1": "star2" | "star1" | "star3" | "gate" | "swap" | "seat2", …};
                 null until the layout is entered
    held         each seat's held chip ("star1"…"star3" or "gate")
    fallen       each seat's piece is knocked down (V-5.4)
    gauges       each seat's star gauge
    scores       each seat's score
    hands        each seat's hand, sorted (private, V-7.2)
    columns      each seat's action column, bottom first (public)
    deck         the deck as a sorted multiset: its order is chance, drawn card by card
    cursor       phase "move": index in the turn seat's column of the card the next move uses
    settlements  [{"gauges": [...], "points": [...]}] every settlement so far
"""

import random

from referee.engine import CHANCE, Engine, Option, clone
from referee.errors import IllegalMove, InvalidInput, InvalidOptions

from . import position, refusals
from .board import (
    CARD_COUNT, CARDS, CELLS, CHIPS, DEFAULT_ACTION_CARDS, DEFAULT_MAP_CHIPS, GATE, HAND_SIZE,
    MAP_CHIP_COUNT, START_CHIP, SWAP, SWAP_CHIP_COUNT, piece,
)
from .rules import (
    GAUGE_LIMIT, WINNING_SCORE, card_destinations, dense_ranks, is_first_move, land,
    settlement_points,
)

JUST3_TEXT = ("V-5.6 Just 3 bonus: named in the manual but its text is lost. The engine calls "
              "its hook after every move and at every end of turn, and ships it off: only "
              "false is accepted until the rule is known.")
LAYOUT_TEXT = ("Enter the shuffled grid as {\"type\":\"layout\",\"seat\":\"chance\",\"cells\":"
               "{\"a1\":…,…,\"d4\":…}}: each of the 16 cells a1…d4 names exactly one of the "
               "listed chips (star1, star2, star3, gate, swap) or a seat's placeholder "
               "(seat1…), using up exactly the multiset below (V-2.2).")


def _expand(counts: dict) -> list[str]:
    return [name for name, count in counts.items() for _ in range(count)]


def _check_mix(name: str, mix, names, total: int) -> None:
    if not isinstance(mix, dict) or set(mix) != set(names):
        raise InvalidOptions(f"{name} must give a count for each of {list(names)}")
    if not all(type(n) is int and n >= 0 for n in mix.values()):
        raise InvalidOptions(f"{name}: counts must be non-negative integers")
    if sum(mix.values()) != total:
        raise InvalidOptions(f"{name} must add up to {total}, not {sum(mix.values())}")


class Vectron(Engine):
    id = "vectron"
    title = "Vectron"
    min_players, max_players = 2, 4
    has_secrets = True
    players_rule, end_rule, moves_rule = "V-1.1", "V-6.4", "V-8"
    rules_doc = "services/vectron/RULES.md"
    options = {
        "map_chips": Option(DEFAULT_MAP_CHIPS, "V-1.3: the 16 map chips by kind (star1, star2, "
                            "star3, gate, swap); exactly 2 swaps, at least one star2 per seat, "
                            "at least 1 gate"),
        "action_cards": Option(DEFAULT_ACTION_CARDS, "V-1.4: the 24 action cards by kind "
                               "(O1…O3 orthogonal, D1…D3 diagonal, S swap)"),
        "just3_bonus": Option(False, JUST3_TEXT),
    }
    move_types = {
        "draw": "V-3.1: draw a card: source \"deck\" or a seat number (the top of its column)",
        "place": "V-3.1: play a hand card onto the own column: card O1…O3, D1…D3 or S",
        "move": "V-4: move the piece to cell `to` with the next card of the own column",
        "stop": "V-4.5: end the turn instead of the next additional move",
        "layout": "chance, at setup: the shuffled grid (cells a1…d4 → chip or seatN)",
        "card": "chance: the card drawn from the deck (deal, draw, or a fallen seat's draw)",
    }

    # ------------------------------------------------------------- setup
    def _check_options(self, options, players):
        _check_mix("map_chips", options["map_chips"], CHIPS, MAP_CHIP_COUNT)
        chips = options["map_chips"]
        if chips[SWAP] != SWAP_CHIP_COUNT:
            raise InvalidOptions(f"map_chips must hold exactly {SWAP_CHIP_COUNT} swap chips "
                                 f"(V-1.3), not {chips[SWAP]}")
        if chips[START_CHIP] < players:
            raise InvalidOptions(f"map_chips must hold at least {players} star2 chips, one "
                                 f"per seat (V-1.3, V-2.1), not {chips[START_CHIP]}")
        if chips[GATE] < 1:
            raise InvalidOptions("map_chips must hold at least 1 gate (V-1.3): without one "
                                 "no gauge can rise and a 2-player game could never end")
        _check_mix("action_cards", options["action_cards"], CARDS, CARD_COUNT)
        if options["just3_bonus"] is not False:
            raise InvalidOptions(JUST3_TEXT)
        # the defaults are shared dicts: a state gets its own copies
        options["map_chips"] = dict(options["map_chips"])
        options["action_cards"] = dict(options["action_cards"])

    def _setup(self, state, events):
        n = state["players"]
        state.update(
            phase="layout", turn=1, grid=None, held=[START_CHIP] * n, fallen=[False] * n,
            gauges=[0] * n, scores=[0] * n, hands=[[] for _ in range(n)],
            columns=[[] for _ in range(n)], deck=sorted(_expand(state["options"]["action_cards"])),
            cursor=None, settlements=[], to_move=[CHANCE],
        )
        events.append({"type": "start_chips", "chip": START_CHIP})

    def _check_position(self, state):
        position.check(state)

    # ------------------------------------------------------------ chance
    def _chance_outcomes(self, state):
        if state["phase"] == "layout":
            return None
        deck = state["deck"]
        return [({"type": "card", "seat": CHANCE, "card": card}, deck.count(card))
                for card in CARDS if card in deck]

    def _describe_chance(self, state):
        return [{"type": "layout", "seat": CHANCE, "describe": LAYOUT_TEXT,
                 "chips": position.layout_chips(state),
                 "pieces": [piece(s) for s in range(1, state["players"] + 1)]}]

    def _check_chance(self, state, move):
        if state["phase"] != "layout":
            return super()._check_chance(state, move)
        problem = refusals.layout_problem(state, move)
        if problem:
            raise IllegalMove(f"impossible chance outcome: {problem[1]}", rule=problem[0])

    def _sample_chance(self, state, rng):
        if state["phase"] != "layout":
            return super()._sample_chance(state, rng)
        things = _expand(position.layout_chips(state))
        things += [piece(s) for s in range(1, state["players"] + 1)]
        rng.shuffle(things)
        return {"type": "layout", "seat": CHANCE, "cells": dict(zip(CELLS, things))}

    # ------------------------------------------------------------- moves
    def _legal(self, state, seat):
        phase = state["phase"]
        if phase == "draw":
            sources = ["deck"] if state["deck"] else []
            sources += [s for s, col in enumerate(state["columns"], start=1) if col]
            return [{"type": "draw", "seat": seat, "source": s} for s in sources]
        if phase == "place":
            return [{"type": "place", "seat": seat, "card": card}
                    for card in sorted(set(state["hands"][seat - 1]))]
        moves = [{"type": "move", "seat": seat, "to": cell}
                 for cell in card_destinations(state, seat)]
        if not is_first_move(state, seat):
            moves.append({"type": "stop", "seat": seat})
        return moves

    # -------------------------------------------------------------- play
    def _play(self, state, move, events):
        kind, seat = move["type"], move["seat"]
        if kind == "layout":
            state["grid"] = {c: move["cells"][c] for c in CELLS}
            events.append({"type": "layout", "cells": dict(state["grid"])})
            state["phase"] = "deal"
        elif kind == "card":
            self._card_drawn(state, move["card"], events)
        elif kind == "draw":
            self._draw(state, seat, move["source"], events)
        elif kind == "place":
            state["hands"][seat - 1].remove(move["card"])
            state["columns"][seat - 1].append(move["card"])
            events.append({"type": "card_placed", "seat": seat, "card": move["card"]})
            self._start_moving(state, seat)
        elif kind == "move":
            self._move(state, seat, move["to"], events)
        else:
            events.append({"type": "stopped", "seat": seat})
            self._end_turn(state, events)

    def _card_drawn(self, state, card, events):
        state["deck"].remove(card)
        phase, seat = state["phase"], state["turn"]
        if phase == "deal":  # V-2.3, V-6.3: dealt to seat 1, 2, …, then round again
            hands = state["hands"]
            to = min(range(1, state["players"] + 1), key=lambda s: (len(hands[s - 1]), s))
            hands[to - 1] = sorted(hands[to - 1] + [card])
            events.append({"type": "card_dealt", "seat": to, "card": card})
            if all(len(h) == HAND_SIZE for h in hands):
                self._start_turn(state, seat)
        elif phase == "deck_draw":  # V-3.1
            state["hands"][seat - 1] = sorted(state["hands"][seat - 1] + [card])
            events.append({"type": "card_drawn", "seat": seat, "source": "deck", "card": card})
            state.update(phase="place", to_move=[seat])
        else:  # forced_draw, V-3.2: straight onto the column; the piece stands up
            state["columns"][seat - 1].append(card)
            state["fallen"][seat - 1] = False
            events.append({"type": "card_forced", "seat": seat, "card": card})
            events.append({"type": "piece_stood_up", "seat": seat})
            self._start_moving(state, seat)

    def _draw(self, state, seat, source, events):
        if source == "deck":
            events.append({"type": "deck_draw", "seat": seat})
            state.update(phase="deck_draw", to_move=[CHANCE])
            return
        card = state["columns"][source - 1].pop()
        state["hands"][seat - 1] = sorted(state["hands"][seat - 1] + [card])
        events.append({"type": "card_drawn", "seat": seat, "source": source, "card": card})
        state["phase"] = "place"

    def _start_moving(self, state, seat):
        """V-4.1: the first move uses the card now on top of the column."""
        state.update(phase="move", cursor=len(state["columns"][seat - 1]) - 1, to_move=[seat])

    def _move(self, state, seat, dest, events):
        card = state["columns"][seat - 1][state["cursor"]]
        event = land(state, seat, dest)
        event["card"] = card
        events.append(event)
        self._just3_bonus(state, seat, "move", events)
        state["cursor"] -= 1
        # V-4.6: a gauge at 7 ends the turn at once; V-4.5: so does the column's end
        if max(state["gauges"]) >= GAUGE_LIMIT or state["cursor"] < 0:
            self._end_turn(state, events)

    def _just3_bonus(self, state, seat, moment, events):
        """V-5.6: the hook for the Just 3 bonus, called after each move and at each end
        of turn (``moment`` "move" or "end_of_turn").

        The manual names the bonus but its text is lost, so it ships off: the option
        ``just3_bonus`` accepts only false and the hook changes nothing.
        """

    def _end_turn(self, state, events):
        seat = state["turn"]
        self._just3_bonus(state, seat, "end_of_turn", events)
        events.append({"type": "turn_ended", "seat": seat})
        state["cursor"] = None
        following = seat % state["players"] + 1  # V-1.1: play passes to the left
        if max(state["gauges"]) < GAUGE_LIMIT and state["deck"]:
            self._start_turn(state, following)
            return
        self._settle(state, events)  # V-6.1
        if max(state["scores"]) >= WINNING_SCORE:  # V-6.4
            state.update(phase="over", to_move=[])
            events.append({"type": "game_over", "scores": list(state["scores"])})
            return
        self._refresh(state, following, events)

    def _settle(self, state, events):
        gauges = list(state["gauges"])
        points = settlement_points(gauges)
        state["scores"] = [s + p for s, p in zip(state["scores"], points)]
        state["settlements"].append({"gauges": gauges, "points": points})
        events.append({"type": "settled", "gauges": list(gauges), "points": list(points),
                       "scores": list(state["scores"])})

    def _refresh(self, state, following, events):
        """V-6.3: stand up, gauges to 0, every card back into the deck, deal again."""
        n = state["players"]
        state.update(
            phase="deal", turn=following, fallen=[False] * n, gauges=[0] * n,
            hands=[[] for _ in range(n)], columns=[[] for _ in range(n)],
            deck=sorted(_expand(state["options"]["action_cards"])), to_move=[CHANCE],
        )
        events.append({"type": "refreshed"})

    def _start_turn(self, state, seat):
        """V-3.1, V-3.2: a standing seat draws; a fallen one gets the deck's top card."""
        state["turn"] = seat
        if state["fallen"][seat - 1]:
            state.update(phase="forced_draw", to_move=[CHANCE])
        else:
            state.update(phase="draw", to_move=[seat])

    # ------------------------------------------------------------ refusals
    def _why_illegal(self, state, move):
        if move.get("seat") == CHANCE:
            return refusals.chance_problem(state, move)
        return refusals.move_problem(state, move)

    # --------------------------------------------------------------- views
    def _redact(self, view, seat):
        view["hands"] = [hand if s == seat else {"count": len(hand)}
                         for s, hand in enumerate(view["hands"], start=1)]
        view["deck"] = {"count": len(view["deck"])}

    def _redact_event(self, event, seat):
        if event["type"] in ("card_dealt", "card_drawn") and event["seat"] != seat \
                and event.get("source", "deck") == "deck":
            del event["card"]
        return event

    def _redact_move(self, move, seat):
        # A card move does not say whose hand it fills; its events show the card
        # to those who may see it, so the move itself never does.
        if move.get("type") == "card" and move.get("seat") == CHANCE:
            move.pop("card", None)
        return move

    # --------------------------------------------------------------- score
    def _score(self, state):
        return [{"seat": s, "total": state["scores"][s - 1], "breakdown": {
            "settlements": [st["points"][s - 1] for st in state["settlements"]],
            "gauge": state["gauges"][s - 1]}}
            for s in range(1, state["players"] + 1)]

    def calculate(self, data):
        """The score helper; ``ended`` says whether this settlement ends the game (V-6.4).

        ``final`` and ``winners`` follow ``ended``: before the end nobody has won.
        """
        board = super().calculate(data)
        ended = any(s["breakdown"]["ended"] for s in board["scores"])
        board.update(final=ended, ended=ended)
        if not ended:
            board["winners"] = []
        return board

    def _calculate(self, data):
        """One settlement at a table: ``{gauges: [...], scores?: [...]}`` by seat."""
        gauges, scores = data.get("gauges"), data.get("scores")
        if not isinstance(gauges, list) or not 2 <= len(gauges) <= 4:
            raise InvalidInput("gauges must list 2 to 4 seats' gauges", rule="V-1.1")
        if not all(type(g) is int and g >= 0 for g in gauges):
            raise InvalidInput("gauges must be non-negative integers", rule="V-6.2")
        if scores is None:
            scores = [0] * len(gauges)
        if not isinstance(scores, list) or len(scores) != len(gauges) or not all(
                type(s) is int and s >= 0 for s in scores):
            raise InvalidInput("scores must give each seat's non-negative score, one per "
                               "gauge", rule="V-1.5")
        if max(scores) >= WINNING_SCORE:
            raise InvalidInput(f"a score of {WINNING_SCORE} or more has ended the game "
                               "already: no settlement follows", rule="V-6.4")
        gains, ranks = settlement_points(gauges), dense_ranks(gauges)
        totals = [s + g for s, g in zip(scores, gains)]
        ended = max(totals) >= WINNING_SCORE
        return [{"seat": seat, "total": totals[seat - 1], "breakdown": {
            "gauge": gauges[seat - 1], "rank": ranks[seat - 1], "gain": gains[seat - 1],
            "before": scores[seat - 1], "ended": ended}}
            for seat in range(1, len(gauges) + 1)]


def perturb_hidden(state: dict, seat, rnd: random.Random) -> dict:
    """A copy where what ``seat`` may not see changes: the other hands and the deck
    trade cards at random, each keeping its size (conformance hook)."""
    new = clone(state)
    hidden = [s for s in range(1, new["players"] + 1) if s != seat]
    pool = list(new["deck"]) + [c for s in hidden for c in new["hands"][s - 1]]
    rnd.shuffle(pool)
    for s in hidden:
        size = len(new["hands"][s - 1])
        new["hands"][s - 1], pool = sorted(pool[:size]), pool[size:]
    new["deck"] = sorted(pool)
    return new
