"""Ghostone: escape your pieces across a 4×4 board of plates, pushing rocks.

Rules: ``services/ghostone/RULES.md`` (rule ids G-…, referee decisions marked).
The engine holds the game's metadata; each hook delegates to the module that
owns it (the package doc lists them).
"""

from referee.engine import Engine

from . import components, position, refusals, rules, scoring, text, wire


class Ghostone(Engine):
    id = "ghostone"
    title = "Ghostone"
    min_players, max_players = 3, 4
    players_rule, end_rule, moves_rule = "G-1.3", "G-7.1", "G-9"
    rules_doc = "services/ghostone/RULES.md"
    rule_prefix = "G"
    wire = wire  # move types, schemas of moves, view, score, helper, catalog
    rule_words = {"ja": refusals.RULES_JA}  # a refusal's rule, in Japanese

    def _setup(self, state, events):
        rules.setup(state, events)

    def _check_position(self, state):
        position.check_position(state)

    def _legal(self, state, seat):
        return rules.legal(state, seat)

    def _normalize(self, move):
        return rules.normalize(move)

    def _chance_outcomes(self, state):
        return rules.chance_outcomes(state)

    def _play(self, state, move, events):
        rules.play(state, move, events)

    def _why_illegal(self, state, move):
        return refusals.why_illegal(state, move)

    def _score(self, state):
        return scoring.score(state)

    def _calculate(self, data):
        return scoring.calculate(data)

    def _move_text(self, move, lang):
        return text.move_text(move, lang)

    def _components(self):
        return components.catalog()
