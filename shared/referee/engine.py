"""The engine protocol every game implements.

A game subclasses :class:`Engine` and writes only its rules, as a handful of
private hooks (``_setup``, ``_legal``, ``_chance_outcomes``, ``_play``,
``_why_illegal``, ``_score`` …). The public methods do what every game needs:
check the state that came over the wire, refuse moves when the game is over or
the seat is not to move, accept exactly the listed legal moves, play chance
for a digital game from the generator inside the state, and never mutate their
input. State is plain JSON data: it round-trips exactly through ``json``.

No Flask, Redis or HTTP here: engines are pure Python.
"""

import contextlib
import json
import logging
import secrets
from dataclasses import dataclass

from .errors import (
    BadRequest, Forbidden, GameOver, IllegalMove, InvalidInput, InvalidOptions,
    InvalidPlayers, InvalidState, NotYourTurn, RefereeError,
)
from .rng import Pcg32

log = logging.getLogger(__name__)

MODES = ("digital", "tabletop")
CHANCE = "chance"
MAX_SEED = (1 << 64) - 1
# A digital game resolves chance until a seat must act; no game needs more
# consecutive chance steps than this (a guard against an engine bug looping).
MAX_CHANCE_STEPS = 10_000


@dataclass(frozen=True)
class Option:
    """A game option: its default and what it means (shown in ``info``)."""

    default: object
    description: str


def canonical(value) -> str:
    """One spelling per JSON value: how moves are compared (``true`` is not ``1``)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def is_listed(move: dict, moves: list[dict]) -> bool:
    """Whether ``move`` is one of ``moves``, exactly as JSON (``true`` is not ``1``).

    Python's ``==`` runs first, in C, and the canonical spelling is compared
    only for the equal candidates (which ``==`` may confuse: 1, 1.0, True).
    """
    wanted = None
    for candidate in moves:
        if candidate == move:
            wanted = wanted or canonical(move)
            if canonical(candidate) == wanted:
                return True
    return False


def clone(state: dict) -> dict:
    return json.loads(json.dumps(state))


class Engine:
    """Base class of every game engine (see the module doc)."""

    id: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 2
    options: dict[str, Option] = {}
    move_types: dict[str, str] = {}
    #: whether views hide anything besides the generator (hands, deck order…)
    has_secrets: bool = False
    #: rule ids cited for refusals the base class makes
    players_rule: str | None = None
    end_rule: str | None = None
    moves_rule: str | None = None
    #: where the project's documentation of the rules lives (relative to the repo)
    rules_doc: str = ""

    # ------------------------------------------------------------------ info
    def info(self) -> dict:
        return {
            "game": self.id,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "modes": list(MODES),
            "options": {
                name: {"default": opt.default, "description": opt.description}
                for name, opt in self.options.items()
            },
            "move_types": dict(self.move_types),
            "hidden_information": self.has_secrets,
            "rules_doc": self.rules_doc,
        }

    # ------------------------------------------------------------- protocol
    def new(self, players, seed=None, mode="digital", options=None) -> dict:
        """A new game's state (digital chance already played)."""
        return self.start(players, seed, mode, options)[0]

    def start(self, players, seed=None, mode="digital", options=None) -> tuple[dict, list]:
        """Like :meth:`new`, also returning the setup's events."""
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise InvalidPlayers(
                f"{self.title} takes {self.min_players} to {self.max_players} players, "
                f"not {players!r}", rule=self.players_rule)
        if mode not in MODES:
            raise BadRequest(f"mode must be one of {list(MODES)}, not {mode!r}")
        if seed is None:
            seed = secrets.randbits(64)
        if type(seed) is not int or not 0 <= seed <= MAX_SEED:
            raise BadRequest(f"seed must be an integer from 0 to {MAX_SEED}")
        state = {
            "game": self.id,
            "version": 0,
            "players": players,
            "mode": mode,
            "options": self.resolve_options(options, players),
            "to_move": [],
            "rng": Pcg32.from_seed(seed).to_json() if mode == "digital" else None,
        }
        events: list = []
        with self._guard(InvalidOptions):
            self._setup(state, events)
            self._run_chance(state, events)
        return state, events

    def legal_moves(self, state: dict, seat=None) -> list[dict]:
        """The moves that may be played now: one seat's, or every acting seat's.

        At a chance point each outcome carries ``p``, its probability.
        """
        self.check_state(state)
        if seat is not None and seat != CHANCE:
            self._check_seat(state, seat)
        with self._guard():
            moves = []
            for actor in state["to_move"]:
                if seat is not None and actor != seat:
                    continue
                if actor == CHANCE:
                    moves.extend(self._chance_listing(state))
                else:
                    moves.extend(self._legal(state, actor))
            return moves

    def apply(self, state: dict, move) -> tuple[dict, list]:
        """Play ``move`` on a copy of ``state``: ``(new_state, events)``."""
        self.check_state(state)
        with self._guard():
            move = self._accept(state, move)
            new = clone(state)
            events: list = []
            self._play(new, move, events)
            new["version"] += 1
            self._run_chance(new, events)
            return new, events

    def score(self, state: dict) -> dict:
        self.check_state(state)
        with self._guard():
            return self._scoreboard(self._score(state), final=not state["to_move"],
                                    state=state)

    def view(self, state: dict, seat=None) -> dict:
        """The state as ``seat`` may see it (``None``: a spectator's public view)."""
        self.check_state(state)
        if seat is not None:
            self._check_seat(state, seat)
        with self._guard():
            view = clone(state)
            del view["rng"]
            self._redact(view, seat)
            return view

    def view_events(self, events: list, seat=None) -> list:
        """Events as ``seat`` may see them (a draw into another hand loses its card)."""
        return [self._redact_event(clone(e), seat) for e in events]

    def view_move(self, move: dict, seat=None) -> dict:
        return self._redact_move(clone(move), seat)

    def calculate(self, data: dict) -> dict:
        """The score helper: what a physical table reads off → the scoreboard."""
        with self._guard(InvalidInput):
            scores = self._calculate(data)
        return self._scoreboard(scores, final=True, state=None)

    # --------------------------------------------------------------- checks
    def resolve_options(self, options, players: int, copy: bool = True) -> dict:
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise InvalidOptions("options must be an object")
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            raise InvalidOptions(f"unknown option(s) {unknown}; {self.title} has "
                                 f"{sorted(self.options) or 'no options'}")
        resolved = {name: opt.default for name, opt in self.options.items()}
        resolved.update(options)
        if copy:  # a new state's options must never alias the engine's defaults
            resolved = clone(resolved)
        self._check_options(resolved, players)
        return resolved

    def check_state(self, state) -> None:
        """Refuse a state that this engine could not have produced."""
        with self._guard():
            self._check_envelope(state)
            self._check_position(state)

    def _check_envelope(self, state) -> None:
        """The keys every game's state has (game, version, players, mode, …)."""
        if not isinstance(state, dict):
            raise InvalidState("state must be an object")
        if state.get("game") != self.id:
            raise InvalidState(f"state is not a {self.title} state (game={state.get('game')!r})")
        version, players = state.get("version"), state.get("players")
        if type(version) is not int or version < 0:
            raise InvalidState("state.version must be a non-negative integer")
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise InvalidState("state.players is out of range")
        mode = state.get("mode")
        if mode not in MODES:
            raise InvalidState("state.mode must be 'digital' or 'tabletop'")
        try:
            options = state.get("options")
            if self.resolve_options(options, players, copy=False) != options:
                raise InvalidState("state.options are not resolved options")
        except InvalidOptions as exc:
            raise InvalidState(f"state.options: {exc.detail}") from None
        to_move = state.get("to_move")
        if not isinstance(to_move, list) or (
                to_move != [CHANCE] and not all(
                    type(s) is int and 1 <= s <= players for s in to_move)) or (
                len(set(map(str, to_move))) != len(to_move)):
            raise InvalidState("state.to_move must list distinct seats, or be ['chance']")
        if to_move == [CHANCE] and mode == "digital":
            raise InvalidState("a digital game never rests at a chance point")
        rng = state.get("rng")
        if mode == "digital":
            try:
                Pcg32.from_json(rng)
                if set(rng) != {"state", "inc"} or not all(
                        isinstance(v, str) and len(v) == 16 for v in rng.values()):
                    raise ValueError
            except (TypeError, ValueError, KeyError, AttributeError):
                raise InvalidState("state.rng is not a generator state") from None
        elif rng is not None:
            raise InvalidState("a tabletop game has no generator (state.rng must be null)")

    def _check_seat(self, state, seat) -> None:
        if type(seat) is not int or not 1 <= seat <= state["players"]:
            raise BadRequest(f"seat must be a seat number from 1 to {state['players']}")

    def _accept(self, state: dict, move) -> dict:
        """The move to play, or the refusal it earns (nothing is changed)."""
        if not isinstance(move, dict):
            raise BadRequest("move must be an object")
        move = {k: v for k, v in move.items() if k != "p"}
        to_move = state["to_move"]
        if not to_move:
            raise GameOver("the game is over", rule=self.end_rule)
        seat = move.get("seat")
        if seat == CHANCE:
            if to_move != [CHANCE]:
                raise NotYourTurn(f"no chance event is pending; to move: {to_move}")
            if state["mode"] == "digital":
                raise Forbidden("in a digital game the referee plays chance itself")
            self._check_chance(state, move)
            return move
        if type(seat) is not int:
            raise BadRequest("move.seat must be a seat number or 'chance'")
        if seat not in to_move:
            raise NotYourTurn(f"seat {seat} is not to move; to move: {to_move}")
        move = self._normalize(move)
        if not is_listed(move, self._legal(state, seat)):
            rule, detail = self._explain(state, move)
            raise IllegalMove(detail, rule=rule)
        return move

    def _explain(self, state, move) -> tuple[str | None, str]:
        try:
            found = self._why_illegal(state, move)
        except Exception:  # the move is surely illegal; only the reason is unknown
            found = None
        return found or (self.moves_rule, f"not a legal move: {canonical(move)}")

    # --------------------------------------------------------------- chance
    def _chance_listing(self, state) -> list[dict]:
        outcomes = self._chance_outcomes(state)
        if outcomes is None:
            return self._describe_chance(state)
        total = sum(w for _, w in outcomes)
        return [dict(move, p=w / total) for move, w in outcomes]

    def _check_chance(self, state, move) -> None:
        """Refuse a chance outcome that cannot happen (tabletop entry)."""
        outcomes = self._chance_outcomes(state)
        if not is_listed(move, [m for m, w in outcomes if w > 0]):
            rule, detail = self._explain(state, move)
            raise IllegalMove(f"impossible chance outcome: {detail}", rule=rule)

    def _sample_chance(self, state, rng: Pcg32) -> dict:
        outcomes = self._chance_outcomes(state)
        return outcomes[rng.weighted([w for _, w in outcomes])][0]

    def _run_chance(self, state, events) -> None:
        """Digital mode: play chance from the state's generator until a seat acts."""
        if state["mode"] != "digital":
            return
        for _ in range(MAX_CHANCE_STEPS):
            if state["to_move"] != [CHANCE]:
                return
            rng = Pcg32.from_json(state["rng"])
            move = self._sample_chance(state, rng)
            state["rng"] = rng.to_json()
            self._play(state, move, events)
            state["version"] += 1
        raise AssertionError(f"{self.id}: chance did not settle")

    # ---------------------------------------------------------------- score
    def _scoreboard(self, scores: list[dict], final: bool, state) -> dict:
        keyed = sorted(scores, key=lambda s: self._rank_key(state, s), reverse=True)
        ranking, previous, rank = [], None, 0
        for position, entry in enumerate(keyed, start=1):
            key = self._rank_key(state, entry)
            if key != previous:
                rank, previous = position, key
            ranking.append({"rank": rank, "seat": entry["seat"], "total": entry["total"]})
        return {
            "final": final,
            "scores": sorted(scores, key=lambda s: s["seat"]),
            "ranking": ranking,
            "winners": [r["seat"] for r in ranking if r["rank"] == 1] if final else [],
        }

    def _rank_key(self, state, entry: dict):
        """What ranks a seat (highest first); equal keys share a rank. Games add tie-breaks."""
        return (entry["total"],)

    # ---------------------------------------------------------------- guard
    @contextlib.contextmanager
    def _guard(self, error: type[RefereeError] = InvalidState):
        """Turn a crash on caller-supplied data into a 422 ``error``.

        The stateless routes trust their caller with the whole state; should a
        forged state (or odd options, or score-helper input) slip past the
        checks and trip a game's code, the caller gets a 422, never a 500.
        Tests run engines directly and see such an error as a failure, so
        engine bugs still surface there; the log keeps the traceback.
        """
        try:
            yield
        except RefereeError:
            raise
        except Exception as exc:  # any crash on caller-supplied data, AssertionError included
            log.warning("%s: input tripped the engine: %r", self.id, exc, exc_info=True)
            raise error(f"inconsistent input ({type(exc).__name__})") from None

    # ----------------------------------------------------------- game hooks
    def _check_options(self, options: dict, players: int) -> None:
        """Raise InvalidOptions for a value out of range."""

    def _setup(self, state: dict, events: list) -> None:
        """Fill in the position and ``to_move`` of a new game."""
        raise NotImplementedError

    def _check_position(self, state: dict) -> None:
        """Raise InvalidState unless the position is one the rules can reach."""
        raise NotImplementedError

    def _legal(self, state: dict, seat: int) -> list[dict]:
        """The legal moves of an acting seat."""
        raise NotImplementedError

    def _normalize(self, move: dict) -> dict:
        """The canonical spelling of a move a client wrote (e.g. sorted lists)."""
        return move

    def _chance_outcomes(self, state: dict) -> list[tuple[dict, int]] | None:
        """Each outcome of the pending chance event with its integer weight;
        ``None`` where there are too many to list (then override
        ``_describe_chance``, ``_check_chance`` and ``_sample_chance``)."""
        raise NotImplementedError

    def _describe_chance(self, state: dict) -> list[dict]:
        raise NotImplementedError

    def _play(self, state: dict, move: dict, events: list) -> None:
        """Apply an accepted move to ``state`` in place, appending events."""
        raise NotImplementedError

    def _why_illegal(self, state: dict, move: dict) -> tuple[str, str] | None:
        """``(rule id, explanation)`` for a move that is not legal.

        Also asked about an impossible tabletop chance entry (``seat`` is then
        ``"chance"``). The move may hold any JSON in any field.
        """
        return None

    def _score(self, state: dict) -> list[dict]:
        """``[{seat, total, breakdown}]`` — running totals until the game ends."""
        raise NotImplementedError

    def _redact(self, view: dict, seat) -> None:
        """Remove from ``view`` (a copy) what ``seat`` may not see."""

    def _redact_event(self, event: dict, seat) -> dict:
        return event

    def _redact_move(self, move: dict, seat) -> dict:
        """A logged move as ``seat`` may see it. There is no state here: a chance
        move that fills a hand names whose hand (e.g. ``"to": 2``) so it can be hidden."""
        return move

    def _calculate(self, data: dict) -> list[dict]:
        raise BadRequest(f"{self.title} has no score helper")
