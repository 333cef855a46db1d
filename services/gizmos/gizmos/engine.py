"""Gizmos: build an engine of gizmos powered by coloured energy spheres.

Rules: ``services/gizmos/RULES.md`` (rule ids Z-…, referee decisions marked).
The state, beyond the envelope every game has::

    phase       "main" | "research" | "return" | "actions" | "over"
    turn        the seat whose turn it is (seat 1 holds the First Player Dashboard)
    round       1, 2, … (a round ends after the last seat's turn)
    seats       [{"ring": {colour: n}, "built": [ids], "archive": [ids], "vp_tokens": n}]
    row         {colour: n}: the Energy Row (≤ 6); the hopper is the rest of the 52
    display     {"1": [ids], "2": [...], "3": [...]}: face-up cards (4/3/2)
    decks       {"1": {"unseen": n, "bottom": [ids]}, …}: n unseen cards on top,
                then the cards Research put back, top first (hidden from every view)
    research    null | {"level": L, "cards": [ids]}: the cards the turn's Research drew
    turn_state  {"ready": {"id": uses left}, "spent": [ids]}: triggered gizmos not yet
                used, and gizmos (triggers and Converters) used up this turn (Z-8, Z-5)
    chance      [{"draw": "card", "level": L, "to": "display"|"research"} |
                 {"draw": "marble", "to": "row"|"ring"}]: random steps still to play
    ending      whether a seat has built its 4th Level III or 16th gizmo (Z-11)
    passes      consecutive passes (a full round of them ends the game)
"""

from referee.engine import CHANCE, Engine, Option
from referee.errors import InvalidInput, InvalidOptions

from . import moves, play, position, refusals, table
from .cards import (
    BY_LEVEL, CARDS, COLORS, DECK_SIZE, DISPLAY_SIZE, LEVELS, ROW_SIZE, STARTING, end_game_vp,
)
from .position import perturb_hidden  # noqa: F401  (the conformance suite looks it up here)


class Gizmos(Engine):
    id = "gizmos"
    title = "Gizmos"
    min_players, max_players = 2, 4
    has_secrets = True
    players_rule, end_rule, moves_rule = "Z-2", "Z-11", "Z-3"
    rules_doc = "services/gizmos/RULES.md"
    options = {
        "research_draws_public": Option(
            False, "Z-3.4 item 7: the cards a Research draws are shown to every seat, as "
                   "BGA does; by default (false) only the researching seat sees them while "
                   "it decides (the official rules are silent; see RULES.md)"),
    }
    move_types = {
        "file": "File a display card (card), or a card drawn by Research; via: the gizmo "
                "granting it",
        "pick": "Pick a sphere of colour from the Energy Row; via: the gizmo granting it",
        "build": "Build card from the display, your Archive or a Research draw, paying "
                 "spend (sorted colours) with converters (sorted ids); via: a free Level I "
                 "build granted by a gizmo",
        "research": "Research the deck of level (1-3); via: the gizmo granting it",
        "decline": "Research: neither build nor file a drawn card",
        "bottom": "Research: put card at the bottom of its deck (the next one goes under it)",
        "draw": "draw a random sphere from the dispenser, via the triggered gizmo",
        "gain_vp": "take the VP tokens of the triggered gizmo via",
        "end_turn": "end the turn (triggered gizmos left unused are forfeited)",
        "pass": "only when no action is possible",
        "deal": "chance: the card turned up from a deck (card), to the display or to the "
                "Research draw of researcher",
        "marble": "chance: the colour of the sphere from the dispenser (color)",
    }

    # ------------------------------------------------------------- setup
    def _setup(self, state, events):
        n = state["players"]
        state.update(
            phase="main", turn=1, round=1,
            seats=[{"ring": dict.fromkeys(COLORS, 0), "built": [STARTING[s]], "archive": [],
                    "vp_tokens": 0} for s in range(n)],
            row=dict.fromkeys(COLORS, 0),
            display={str(lv): [] for lv in LEVELS},
            decks={str(lv): {"unseen": DECK_SIZE[lv], "bottom": []} for lv in LEVELS},
            research=None, turn_state={"ready": {}, "spent": []},
            chance=[{"draw": "card", "level": lv, "to": "display"}
                    for lv in LEVELS for _ in range(DISPLAY_SIZE[lv])]
            + [{"draw": "marble", "to": "row"}] * ROW_SIZE,
            ending=False, passes=0,
        )
        events.append({"type": "setup", "players": n, "first_player": 1})
        play.settle(state, events)

    # ------------------------------------------------------------- moves
    def _legal(self, state, seat):
        if seat != state["turn"]:
            return []
        return moves.legal(state, seat)

    def _normalize(self, move):
        for key in ("spend", "converters"):
            value = move.get(key)
            if isinstance(value, list) and all(type(v) in (str, int) for v in value) and (
                    len({type(v) for v in value}) <= 1):
                move[key] = sorted(value)
        return move

    def _chance_outcomes(self, state):
        head = state["chance"][0]
        if head["draw"] == "card":
            deal = {"type": "deal", "seat": CHANCE, "to": head["to"]}
            if head["to"] == "research":  # Z-3.4: public or the researcher's (the option)
                deal["researcher"] = state["turn"]
                if not state["options"]["research_draws_public"]:
                    deal["private"] = True
            return [(dict(deal, card=c), 1) for c in table.unseen_pool(state, head["level"])]
        return [({"type": "marble", "seat": CHANCE, "color": c}, n)
                for c, n in table.hopper(state).items() if n]

    def _play(self, state, move, events):
        play.play(state, move, events)

    def _why_illegal(self, state, move):
        return refusals.why_illegal(state, move)

    def _check_position(self, state):
        position.check(state)

    # ------------------------------------------------------------- views
    def _redact(self, view, seat):
        position.redact(view, seat)

    def _check_options(self, options, players):
        if type(options["research_draws_public"]) is not bool:
            raise InvalidOptions("research_draws_public must be true or false (Z-3.4)")

    def _redact_event(self, event, seat):
        kind = event.get("type")
        if event.get("seat") != seat and (
                kind == "card_returned" or kind == "card_drawn" and event.get("private")):
            event.pop("card", None)
        return event

    def _redact_move(self, move, seat):
        kind = move.get("type")
        if (kind == "bottom" and move.get("seat") != seat  # face down (Z-12)
                or kind == "deal" and move.get("private") and move.get("researcher") != seat):
            move.pop("card", None)
        return move

    # ------------------------------------------------------------- score
    def _score(self, state):
        return [_seat_score(seat, p["built"], p["vp_tokens"], sum(p["ring"].values()), seat)
                for seat, p in enumerate(state["seats"], start=1)]

    def _rank_key(self, state, entry):
        """Z-11 tie-breaks: most gizmos, then most energy, then latest in turn order."""
        b = entry["breakdown"]
        return (entry["total"], b["gizmos_built"], b["energy_left"], b["turn_position"])

    def _calculate(self, data):
        """``{"seats": [{"seat", "built", "vp_tokens", "energy"}], "turn_order": [seats]}``."""
        seats = data["seats"]
        numbers = [s["seat"] for s in seats]
        if not 2 <= len(seats) <= 4 or sorted(numbers) != list(range(1, len(seats) + 1)):
            raise InvalidInput("seats must list seats 1…n once each, 2 to 4 of them",
                               rule="Z-2")
        order = data.get("turn_order") or sorted(numbers)
        if sorted(order) != sorted(numbers):
            raise InvalidInput("turn_order must list every seat once, first player first",
                               rule="Z-2")
        owned = [c for s in seats for c in s["built"]]
        unknown = sorted({c for c in owned if c not in CARDS})
        if unknown:
            raise InvalidInput(f"no such card ids: {unknown}", rule="Z-15")
        if len(owned) != len(set(owned)):
            raise InvalidInput("a card is listed twice", rule="Z-1")
        if sum(c in BY_LEVEL[3] for c in owned) > DECK_SIZE[3]:
            raise InvalidInput("only 16 Level III cards are in the game", rule="Z-2")
        scores = []
        for s in sorted(seats, key=lambda s: s["seat"]):
            if sum(c in STARTING for c in s["built"]) > 1:
                raise InvalidInput(f"seat {s['seat']} lists two starting gizmos", rule="Z-2")
            built = [c for c in s["built"] if c not in STARTING] + [STARTING[s["seat"] - 1]]
            scores.append(_seat_score(s["seat"], built, s["vp_tokens"], s["energy"],
                                      order.index(s["seat"]) + 1))
        if sum(s["breakdown"]["energy_left"] for s in scores) > 4 * 13:
            raise InvalidInput("there are only 52 energy spheres", rule="Z-1")
        return scores


def _seat_score(seat, built, vp_tokens, energy, turn_position) -> dict:
    """Z-11: printed VP + VP tokens + Generic awards, with the tie-break facts."""
    printed = sum(CARDS[c]["points"] for c in built)
    generic = sum(end_game_vp(c, energy, vp_tokens) for c in built)
    return {"seat": seat, "total": printed + vp_tokens + generic, "breakdown": {
        "printed": printed, "vp_tokens": vp_tokens, "generic": generic,
        "gizmos_built": len(built), "energy_left": energy, "turn_position": turn_position}}
