"""Three Magic: three mages build three spells from a fixed-order hand of mana.

Rules: ``services/threemagic/RULES.md`` (rule ids T-…, referee decisions marked).
The engine holds the game's metadata; each hook delegates to the module that
owns it (the package doc lists them; ``rules`` describes the state).
"""

from referee.engine import Engine, Option

from . import components, hidden, position, refusals, rules, scoring, text, wire
from .hidden import perturb_hidden  # noqa: F401  (the conformance suite looks for it here)


class ThreeMagic(Engine):
    id = "threemagic"
    title = "Three Magic"
    min_players = max_players = 3
    has_secrets = True
    players_rule, end_rule, moves_rule = "T-1.1", "T-9.1", "T-4"
    rules_doc = "services/threemagic/RULES.md"
    rule_prefix = "T"
    options = {
        "attributes": Option(["fire", "water", "wood"],
                             "attribute of seats 1, 2, 3: a permutation of fire, water, wood "
                             "(T-1.1); the fire seat is the first manager",
                             wire.OPTIONS["attributes"]),
        "starting_od": Option(270, "od each seat starts with, 0–100000 (T-1.3)",
                              wire.OPTIONS["starting_od"]),
        "unused_cards": Option(6, "cards set aside as the unused pile, 1–30; its top card is "
                                  "the 1st indicator (T-3.3)", wire.OPTIONS["unused_cards"]),
        "rotations": Option(1, "the game ends when the manager role would pass back to the "
                               "first manager for this many times, 1–20 (T-9.1)",
                            wire.OPTIONS["rotations"]),
        "attribute_points": Option([10, 30, 90], "attribute item for 1, 2, 3 spells (T-7.2)",
                                   wire.OPTIONS["attribute_points"]),
        "number_points": Option({"same": [60, 180], "sequence": [40, 120], "mixed": [20, 60]},
                                "numbers item for 2 and 3 spells with the same numbers: "
                                "same-number, one-direction, mixed-direction (T-7.2)",
                                wire.OPTIONS["number_points"]),
        "star_points": Option([10, 30, 90], "stars item for 1, 2, 3 all-starred spells (T-7.2)",
                              wire.OPTIONS["star_points"]),
    }
    wire = wire  # move types, schemas of moves, view, score, helper, catalog
    rule_words = {"ja": refusals.RULES_JA}  # a refusal's rule, in Japanese

    def _check_options(self, options, players):
        position.check_options(options)

    def _setup(self, state, events):
        rules.setup(state, events)

    def _check_position(self, state):
        position.check_position(state)

    def _chance_outcomes(self, state):
        return rules.chance_outcomes(state)

    def _sample_chance(self, state, rng):
        return rules.sample_chance(state, rng)

    def _legal(self, state, seat):
        return rules.legal(state, seat)

    def _normalize(self, move):
        return rules.normalize(move)

    def _play(self, state, move, events):
        rules.play(state, move, events)

    def _why_illegal(self, state, move):
        return refusals.why_illegal(state, move)

    def _score(self, state):
        return scoring.score(state)

    def calculate(self, data):
        """The score helper (overridden: the answer adds ``payment``, see RULES.md)."""
        with self._guard(scoring.InvalidInput):
            scores, payment = scoring.calculate(self, data)
        board = self._scoreboard(scores, final=True, state=None)
        board["payment"] = payment
        return board

    def _move_text(self, move, lang):
        return text.move_text(move, lang)

    def _listed_text(self, view, move, lang):
        return text.listed_text(view, move, lang)

    def _components(self):
        return components.catalog()

    def _redact(self, view, seat):
        hidden.redact(view, seat)

    def _redact_event(self, event, seat):
        return hidden.redact_event(event, seat)

    def _redact_move(self, move, seat):
        return hidden.redact_move(move, seat)

    def _odds_hidden(self, move):
        return hidden.odds_hidden(move)

    def _receiver(self, state):
        return hidden.receiver(state)

    def _entry_outcomes(self, state, entrant):
        return hidden.entry_outcomes(state, entrant)
