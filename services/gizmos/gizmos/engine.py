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

from referee.engine import CHANCE, Engine, Option, is_listed, matches
from referee.errors import InvalidOptions

from . import components, hidden, position, refusals, rules, scoring, table, text, wire
from .cards import COLORS, DECK_SIZE, DISPLAY_SIZE, LEVELS, ROW_SIZE, STARTING
from .hidden import perturb_hidden  # noqa: F401  (the conformance suite looks it up here)


class Gizmos(Engine):
    id = "gizmos"
    title = "Gizmos"
    min_players, max_players = 2, 4
    has_secrets = True
    players_rule, end_rule, moves_rule = "Z-2", "Z-11", "Z-3"
    rules_doc = "services/gizmos/RULES.md"
    previewed_moves = ("build",)  # what a build pays, and with which converters, shows on the machine
    rule_prefix = "Z"
    options = {
        "research_draws_public": Option(
            False, "Z-3.4 item 7: the cards a Research draws are shown to every seat, as "
                   "BGA does; by default (false) only the researching seat sees them while "
                   "it decides (the official rules are silent; see RULES.md)",
            wire.OPTIONS["research_draws_public"]),
    }
    wire = wire  # move types, schemas of moves, view, score, helper, catalog
    rule_words = {"ja": refusals.RULES_JA}  # a refusal's rule, in Japanese

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
        rules.settle(state, events)

    # ------------------------------------------------------------- moves
    def _legal(self, state, seat):
        return rules.legal(state, seat) if seat == state["turn"] else []

    def _legal_matching(self, state, seat, match):
        """One card's moves search that card's payments only (a page shows a card, then
        its ways to pay); a spend (colours in any order) unfolds its Builds: every
        Converter set of it (RULES.md, "One card's ways to pay")."""
        if seat != state["turn"]:
            return []
        card, spend = match.get("card"), match.get("spend")
        builds = {card} if type(card) is int else match.get("type") in (None, "build")
        if isinstance(spend, list) and all(type(c) is str for c in spend):
            spend = sorted(spend)
            match = dict(match, spend=spend)
        else:
            spend = None
        return [move for move in rules.legal(state, seat, builds, spend)
                if matches(move, match)]

    def unfolding(self, move):
        """A Build paying with spheres stands for every Converter set of its spend."""
        if isinstance(move, dict) and move.get("type") == "build" and "via" not in move \
                and type(move.get("card")) is int and isinstance(move.get("spend"), list):
            return {"type": "build", "card": move["card"], "spend": move["spend"]}
        return None

    def _is_legal(self, state, seat, move):
        """Listing every payment of every card costs far more than the rest: a Build paying
        with spheres is checked directly (:func:`rules.is_legal_build`); any other move is
        found among every move but those Builds (it cannot be one of them)."""
        if seat != state["turn"]:
            return False
        if move.get("type") == "build" and "via" not in move:
            return rules.is_legal_build(state, seat, move)
        return is_listed(move, rules.legal(state, seat, builds=False))

    def _normalize(self, move):
        if move.get("type") == "build" and move.get("other_converters") is True:
            # what the listing says of the move, not part of it: sent back as listed
            move = {k: v for k, v in move.items() if k != "other_converters"}
        for key in ("spend", "converters"):
            value = move.get(key)
            if isinstance(value, list) and all(type(v) in (str, int) for v in value) and (
                    len({type(v) for v in value}) <= 1):
                move[key] = sorted(value)
        return move

    def _chance_outcomes(self, state):
        head = state["chance"][0]
        if head["draw"] == "card":
            deal = self._deal(state, head)
            return [(dict(deal, card=c), 1) for c in table.unseen_pool(state, head["level"])]
        return [({"type": "marble", "seat": CHANCE, "color": c}, n)
                for c, n in table.hopper(state).items() if n]

    def _sample_chance(self, state, rng):
        head = state["chance"][0]
        if head["draw"] == "card":  # as from the listing (equal weights), but one move made
            pool = table.unseen_pool(state, head["level"])
            return dict(self._deal(state, head), card=pool[rng.weighted([1] * len(pool))])
        return super()._sample_chance(state, rng)

    def _receiver(self, state):
        return hidden.receiver(state)

    def _entry_outcomes(self, state, entrant):
        head = state["chance"][0]
        if head["draw"] != "card":  # a sphere: the dispenser's content is public
            return super()._entry_outcomes(state, entrant)
        deal = self._deal(state, head)
        return [dict(deal, card=c) for c in hidden.unseen_by(state, head["level"], entrant)]

    @staticmethod
    def _deal(state, head) -> dict:
        """A card dealt from a deck, all but the card."""
        deal = {"type": "deal", "seat": CHANCE, "to": head["to"]}
        if head["to"] == "research":  # Z-3.4: public or the researcher's (the option)
            deal["researcher"] = state["turn"]
            if not state["options"]["research_draws_public"]:
                deal["private"] = True
        return deal

    def _play(self, state, move, events):
        rules.play(state, move, events)

    def _why_illegal(self, state, move):
        return refusals.why_illegal(state, move)

    def _check_position(self, state):
        position.check(state)

    # ------------------------------------------------------------- views
    def _redact(self, view, seat):
        hidden.redact(view, seat)

    def _check_options(self, options, players):
        # the only option says who sees a Research draw: no value of it can make the
        # game endless or impossible to set up, but it must be a boolean
        if type(options["research_draws_public"]) is not bool:
            raise InvalidOptions("the option research_draws_public must be true or false",
                                 rule="Z-3.4")

    def _redact_event(self, event, seat):
        return hidden.redact_event(event, seat)

    def _redact_move(self, move, seat):
        return hidden.redact_move(move, seat)

    def _move_text(self, move, lang):
        return text.move_text(move, lang)

    def _components(self):
        return components.catalog()

    # ------------------------------------------------------------- score
    def _score(self, state):
        return [scoring.seat_score(seat, p["built"], p["vp_tokens"],
                                   sum(p["ring"].values()), seat)
                for seat, p in enumerate(state["seats"], start=1)]

    def _rank_key(self, state, entry):
        """Z-11 tie-breaks: most gizmos, then most energy, then latest in turn order."""
        b = entry["breakdown"]
        return (entry["total"], b["gizmos_built"], b["energy_left"], b["turn_position"])

    def _calculate(self, data):
        """``{"seats": [{"seat", "built", "vp_tokens", "energy"}], "turn_order": [seats]}``."""
        return scoring.calculate(data)
