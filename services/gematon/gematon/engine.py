"""Gematon: multiply chips off your stack, collect the altars' chips, fill a pentacle.

Rules: ``services/gematon/RULES.md`` (rule ids GM-…, referee decisions marked).
The engine is the game's metadata and its hooks, each handed to the module that
holds that part of the rules (the package's ``__init__`` lists them).
"""

from referee.engine import Engine, Option

from . import components, hidden, position, refusals, rules, scoring, text, wire, witches
from .board import FANO_LINES, GAUGE_VALUES, MAX_PLAYERS, MIN_PLAYERS, check_options

# the conformance suite looks for perturb_hidden beside the engine
from .hidden import perturb_hidden  # noqa: F401


class Gematon(Engine):
    id = "gematon"
    title = "Gematon"
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    players_rule, end_rule, moves_rule = "GM-1.1", "GM-5.1", "GM-3.8"
    has_secrets = True
    rules_doc = "services/gematon/RULES.md"
    previewed_moves = ("operate",)  # which chip lands on which cell, and what the sets then score
    rule_prefix = "GM"
    options = {name: Option(default, wire.OPTIONS[name]["description"], schema=wire.OPTIONS[name])
               for name, default in (("draft", False), ("pentacle_lines", FANO_LINES),
                                     ("blessing_values", GAUGE_VALUES))}
    wire = wire  # move types, schemas of moves, view, score, helper, catalog
    rule_words = {"ja": refusals.RULES_JA}  # a refusal's rule, in Japanese

    def info(self):
        return dict(super().info(), witches=witches.NO_EFFECT_NOTE)

    def _check_options(self, options, players):
        check_options(options)

    def _check_position(self, state):
        position.check_position(state)

    def _setup(self, state, events):
        rules.setup(state, events)

    def _legal(self, state, seat):
        return rules.legal(state, seat)

    def _chance_outcomes(self, state):
        return rules.chance_outcomes(state)

    def _play(self, state, move, events):
        rules.play(state, move, events)

    def _why_illegal(self, state, move):
        return refusals.why_illegal(state, move)

    def _score(self, state):
        return scoring.score(state)

    def _rank_key(self, state, entry):
        return scoring.rank_key(entry)

    def _calculate(self, data):
        return scoring.calculate(self, data)

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

    def _move_text(self, move, lang):
        return text.move_text(move, lang)

    def _components(self):
        return components.catalog()
