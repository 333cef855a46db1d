"""Vectron: jump across a wall-kicking 4×4 map, trade chips, fill your star gauge.

Rules: ``services/vectron/RULES.md`` (rule ids V-…, referee decisions marked).
The engine holds the game's metadata; each hook delegates to the module that
owns it (the package doc lists them). The state, beyond the envelope every game has::

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

from referee.engine import CHANCE, Engine, Option
from referee.errors import IllegalMove

from . import components, hidden, position, refusals, rules, scoring, text, wire
from .board import DEFAULT_ACTION_CARDS, DEFAULT_MAP_CHIPS, MAX_PLAYERS, MIN_PLAYERS
from .hidden import perturb_hidden  # noqa: F401  (the conformance suite finds it here)
from .options import JUST3_TEXT, check_options


class Vectron(Engine):
    id = "vectron"
    title = "Vectron"
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    has_secrets = True
    players_rule, end_rule, moves_rule = "V-1.1", "V-6.4", "V-8"
    rules_doc = "services/vectron/RULES.md"
    previewed_moves = ("place",)  # where the placed card's path takes the piece
    rule_prefix = "V"
    options = {
        "map_chips": Option(DEFAULT_MAP_CHIPS, "V-1.3: the 16 map chips by kind (star1, star2, "
                            "star3, gate, swap); exactly 2 swaps, at least one star2 per seat, "
                            "at least 1 gate", schema=wire.OPTIONS["map_chips"]),
        "action_cards": Option(DEFAULT_ACTION_CARDS, "V-1.4: the 24 action cards by kind "
                               "(O1…O3 orthogonal, D1…D3 diagonal, S swap); the O/D cards "
                               "must let a piece reach a gate whatever the layout (O1 alone "
                               "does; so does O3 with O2, D1 or D2)",
                               schema=wire.OPTIONS["action_cards"]),
        "just3_bonus": Option(False, JUST3_TEXT, schema=wire.OPTIONS["just3_bonus"]),
    }
    wire = wire  # move types, schemas of moves, view, score, helper, catalog
    rule_words = {"ja": refusals.RULES_JA}  # a refusal's rule, in Japanese

    def _check_options(self, options, players):
        check_options(options, players)

    def _setup(self, state, events):
        rules.setup(state, events)

    def _check_position(self, state):
        position.check(state)

    def _chance_outcomes(self, state):
        return rules.chance_outcomes(state)

    def _describe_chance(self, state):
        return rules.describe_layout(state)

    def _check_chance(self, state, move):
        if state["phase"] != "layout":
            return super()._check_chance(state, move)
        problem = refusals.layout_problem(state, move)
        if problem:
            raise IllegalMove(f"impossible chance outcome: {problem[1]}", rule=problem[0])
        return None

    def _sample_chance(self, state, rng):
        if state["phase"] != "layout":
            return super()._sample_chance(state, rng)
        return rules.sample_layout(state, rng)

    def _legal(self, state, seat):
        return rules.legal(state, seat)

    def _play(self, state, move, events):
        rules.play(state, move, events, self._just3_bonus)

    def _just3_bonus(self, state, seat, moment, events):
        """V-5.6: the hook for the Just 3 bonus, called after each move and at each end
        of turn (``moment`` "move" or "end_of_turn").

        The manual names the bonus but its text is lost, so it ships off: the option
        ``just3_bonus`` accepts only false and the hook changes nothing.
        """

    def _why_illegal(self, state, move):
        if move.get("seat") == CHANCE:
            return refusals.chance_problem(state, move)
        return refusals.move_problem(state, move)

    def _redact(self, view, seat):
        hidden.redact(view, seat)

    def _redact_event(self, event, seat):
        return hidden.redact_event(event, seat)

    def _redact_move(self, move, seat):
        return hidden.redact_move(move, seat)

    def _odds_hidden(self, move):
        return hidden.odds_hidden(move)

    def _receiver(self, state):
        return rules.card_receiver(state)

    def _entry_outcomes(self, state, entrant):
        return hidden.entry_outcomes(state, entrant)

    def _move_text(self, move, lang):
        return text.move_text(move, lang)

    def _components(self):
        return components.catalog()

    def _score(self, state):
        return scoring.score(state)

    def calculate(self, data):
        """The score helper: ``final`` says whether the settlement ends the game (V-6.4)."""
        return scoring.settlement_board(super().calculate(data))

    def _calculate(self, data):
        """One settlement at a table: ``{gauges: [...], scores?: [...]}`` by seat."""
        return scoring.settle(data)
