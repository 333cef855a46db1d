"""The engine protocol every game implements.

A game subclasses :class:`Engine` and writes only its rules, as a handful of
private hooks (``_setup``, ``_legal``, ``_chance_outcomes``, ``_play``,
``_why_illegal``, ``_score`` …). The public methods do what every game needs:
check the state that came over the wire, refuse moves when the game is over or
the seat is not to move, accept exactly the listed legal moves, play chance
for a digital game from the generator inside the state, and never mutate their
input — but :meth:`Engine.play_in_place`, the playout step on a state the referee holds
itself. State is plain JSON data: it round-trips exactly through ``json``.

No Flask, Redis or HTTP here: engines are pure Python.
"""

import difflib
import importlib
import json
import logging
import marshal
import re
import threading
from dataclasses import dataclass
from itertools import repeat
from operator import is_

from .errors import (
    BadRequest, EntryConflict, Forbidden, GameOver, IllegalMove, ImpossibleEntry, InvalidInput,
    InvalidOptions, InvalidPlayers, InvalidState, NotYourEntry, NotYourTurn, RefereeError,
)
from . import rng as generators
from .known import KnownValid, serialize
from .rng import Blake2bCounter, Generator, Pcg32

log = logging.getLogger(__name__)

MODES = ("digital", "tabletop", "companion")
#: the modes in which the physical components decide chance and someone enters it:
#: tabletop (the table token enters everything) and companion (each seat enters what
#: goes into its own hand, the table or any seat what everyone sees)
ENTERED = ("tabletop", "companion")
CHANCE = "chance"
#: companion mode: a public chance outcome is awaited from the table (its token or any seat)
TABLE = "table"
#: ``step``'s entrant when the caller holds the whole state (no token: nothing to check)
REFEREE = "referee"
MAX_SEED = (1 << 64) - 1
# A digital game resolves chance until a seat must act; no game needs more
# consecutive chance steps than this (a guard against an engine bug looping).
MAX_CHANCE_STEPS = 10_000


#: the languages of move text and catalogs; the first is the default
LANGUAGES = ("en", "ja")
#: fields the referee adds to a listed or logged move; a client may send them back
ANNOTATIONS = ("p", "text")


@dataclass(frozen=True)
class Option:
    """A game option: its default, what it means (shown in ``info``) and the JSON
    Schema of its value (the wire contract; ranges the engine also enforces)."""

    default: object
    description: str
    schema: dict | None = None


def canonical(value) -> str:
    """One spelling per JSON value: how moves are compared (``true`` is not ``1``)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def is_listed(move: dict, moves: list[dict]) -> bool:
    """Whether ``move`` is one of ``moves``, exactly as JSON (``true`` is not ``1``).

    Python's ``==`` runs first, in C, and the spelling is compared only for the equal
    candidates (which ``==`` may confuse: 1, 1.0, True): their exact bytes first (marshal
    tags each type, in C), the canonical JSON only when those differ (keys in another
    order).
    """
    exact = wanted = None
    for candidate in moves:
        if candidate == move:
            exact = exact or _exact(move)
            if serialize(candidate) == exact:
                return True
            wanted = wanted or canonical(move)
            if canonical(candidate) == wanted:
                return True
    return False


def _exact(value) -> bytes:
    """A client's value's exact bytes, or none that any listed move has (nested beyond
    what marshal writes)."""
    try:
        return serialize(value)
    except ValueError:
        return b""


def matches(move: dict, match: dict | None) -> bool:
    """Whether ``move`` has every field of ``match`` with the same JSON value."""
    return not match or all(
        key in move and canonical(move[key]) == canonical(value) for key, value in match.items())


def repr_json(value) -> str:
    """A value as a person reads it in an error: JSON, quoted strings (never a Python repr)."""
    return json.dumps(value, ensure_ascii=False)


def who_moves(to_move: list) -> str:
    """``to_move`` as a person reads it: "seats 1 and 3 are to move"."""
    if to_move == [CHANCE]:
        return "a chance outcome is to be entered"
    if not to_move:
        return "nobody is to move"
    names = [str(s) for s in to_move]
    if len(names) == 1:
        return f"seat {names[0]} is to move"
    return f"seats {', '.join(names[:-1])} and {names[-1]} are to move"


def _seat_of(move):
    """A move's seat, if it names one that may key a listing."""
    return move.get("seat") if isinstance(move, dict) else None


def clone(state: dict) -> dict:
    """A deep copy of JSON data. marshal copies dicts, lists, strings, numbers, booleans and
    null exactly, in C, three to four times as fast as a JSON round trip (a step's copy of
    the state is much of its cost), and refuses anything else."""
    return marshal.loads(marshal.dumps(state))


#: The last listing made on a trusted state, per thread: accepting a move chosen from it
#: (a bot's or a playout's next step) need not list the same moves again.
_LISTED = threading.local()


class _Guard:
    """:meth:`Engine._guard`'s context manager, a class: every listing and step enters
    one, and a generator-based one costs several times as much."""

    __slots__ = ("game", "error")

    def __init__(self, game: str, error: type[RefereeError]):
        self.game, self.error = game, error

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, exc, traceback) -> bool:
        if exc is None or isinstance(exc, RefereeError) or not isinstance(exc, Exception):
            return False  # nothing, a refusal, or an interrupt: as it is
        # any crash on caller-supplied data, AssertionError included
        log.warning("%s: input tripped the engine: %r", self.game, exc,
                    exc_info=(kind, exc, traceback))
        raise self.error(f"inconsistent input ({kind.__name__})") from None


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
    #: the prefix of the game's rule ids (``Z`` for Z-8); RULES.md lists every id
    rule_prefix: str = ""
    #: the rule an unknown option is refused under (where the game's setup names its options)
    options_rule: str | None = None
    #: each rule id in words, per language besides English (the game's refusals.RULES_JA):
    #: what a refusal says of its rule in that language (``rule_text``)
    rule_words: dict[str, dict[str, str]] = {}
    #: The game's wire description (its ``wire.py``), JSON Schemas from which the
    #: API's per-game schemas are generated: the whole move object per move type
    #: (as listed, and as logged after redaction), a view, a score line's
    #: breakdown, the score helper's input (``None``: no helper).
    move_schemas: dict[str, dict] = {}
    view_schema: dict = {"type": "object"}
    breakdown_schema: dict = {"type": "object"}
    calculate_schema: dict | None = None
    components_schema: dict = {"type": "object"}
    #: each event type's schema (``referee.wire.event``): what a move or the setup did
    event_schemas: dict[str, dict] = {}
    #: A game names its wire module here (``wire = wire``): the schemas above, and the move
    #: types with their descriptions, are then read from its MOVES, VIEW, BREAKDOWN,
    #: CALCULATE, COMPONENTS and EVENTS.
    wire = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        described = cls.__dict__.get("wire")
        if described is not None:
            cls.move_schemas = described.MOVES
            cls.move_types = {kind: schema["description"]
                              for kind, schema in described.MOVES.items()}
            cls.view_schema = described.VIEW
            cls.breakdown_schema = described.BREAKDOWN
            cls.calculate_schema = getattr(described, "CALCULATE", None)
            cls.components_schema = described.COMPONENTS
            cls.event_schemas = described.EVENTS
        cls._known = KnownValid()  # the states this game checked or made, in this process

    #: the move types whose effect is not obvious from their sentence (a payment, a card's
    #: path): a page shows the position they lead to before the move is confirmed
    previewed_moves: tuple = ()

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
            "previewed_moves": list(self.previewed_moves),
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
                f"not {repr_json(players)}", rule=self.players_rule)
        if mode not in MODES:
            raise BadRequest(f"mode must be one of {', '.join(map(repr_json, MODES))}, "
                             f"not {repr_json(mode)}")
        if seed is not None and (type(seed) is not int or not 0 <= seed <= MAX_SEED):
            raise BadRequest(f"seed must be an integer from 0 to {MAX_SEED}")
        # a client's seed: the seeded generator, which whoever knows the seed can replay
        # (tests, replays); else a secret key nobody can predict draws from
        rng = Pcg32.from_seed(seed) if seed is not None else Blake2bCounter.fresh()
        state = {
            "game": self.id,
            "version": 0,
            "players": players,
            "mode": mode,
            "options": self.resolve_options(options, players),
            "to_move": [],
            "rng": rng.to_json() if mode == "digital" else None,
        }
        events: list = []
        with self._guard(InvalidOptions):
            self._setup(state, events)
            self._run_chance(state, events)
        return state, events

    def legal_moves(self, state: dict, seat=None, *, trusted: bool = False,
                    match: dict | None = None) -> list[dict]:
        """The moves that may be played now: one seat's, or every acting seat's.

        At a chance point each outcome carries ``p``, its probability.
        ``trusted``: the state is one this referee made itself (see :meth:`check`).
        ``match``: only the moves with these fields and values (``{"card": 213}``: one
        card's builds, filings…), which a game may list without listing the rest.
        """
        checked = self.check(state, trusted)
        if seat is not None and seat != CHANCE:
            self._check_seat(state, seat)
        with self._guard():
            moves, listed = [], {}
            for actor in state["to_move"]:
                if seat is not None and actor != seat:
                    continue
                if actor == CHANCE:
                    moves.extend(m for m in self._chance_listing(state) if matches(m, match))
                elif match:
                    moves.extend(self._legal_matching(state, actor, match))
                else:
                    listed[actor] = self._legal(state, actor)
                    moves.extend(listed[actor])
            if trusted and listed:  # the state itself is held: its id stays its own
                _LISTED.last = (state, state["version"], listed)
            elif checked and listed:  # a client's next step will likely play one of these
                self._known.keep_listing(checked[1], listed)
            return moves

    def apply(self, state: dict, move, *, trusted: bool = False,
              entrant=REFEREE) -> tuple[dict, list]:
        """Play ``move`` on a copy of ``state``: ``(new_state, events)``."""
        new, events, _ = self.step(state, move, trusted=trusted, entrant=entrant)
        return new, events

    def step(self, state: dict, move, *, trusted: bool = False,
             entrant=REFEREE) -> tuple[dict, list, dict]:
        """Like :meth:`apply`, also answering the move as the referee records it.

        The record is the accepted move; a chance outcome carries the
        probability the referee computed (``p``), never one the client sent.
        The move is always checked, even on a trusted state. ``entrant``: who
        sends a companion-mode chance entry (a seat, or None: the table token),
        checked against what it may enter and what it knows (:meth:`entries`);
        ``REFEREE``, the holder of the whole state, is not asked.
        """
        checked = self.check(state, trusted)
        if entrant is not None and entrant != REFEREE:
            self._check_seat(state, entrant)
        with self._guard():
            if entrant != REFEREE and state["mode"] == "companion" and isinstance(move, dict) \
                    and move.get("seat") == CHANCE and state["to_move"] == [CHANCE]:
                self._check_entry(state, {k: v for k, v in move.items()
                                          if k not in ANNOTATIONS}, entrant)
            if checked is None:
                move, p = self._accept(state, move, trusted)
                new = clone(state)
            else:
                listed = self._known.listing(checked[1], _seat_of(move))
                move, p = self._accept(state, move, listed=listed)
                new = marshal.loads(checked[0])
            events = self._advance(new, move)
            if checked is not None:  # made by a legal move from a valid state: valid
                self._known.remember(self._known.fingerprint(serialize(new)))
            return new, events, move if p is None else dict(move, p=p)

    def play_in_place(self, state: dict, move) -> list:
        """The playout step: play ``move`` on ``state`` itself, as python-chess's
        ``Board.push`` does, and answer the events.

        Only for a state the referee made and holds itself (a bot's playout, ``make
        bench``): ``state`` is trusted, and it is changed, so keep a :func:`clone` of
        any position still needed. The move is checked as :meth:`step` checks it (the
        very move object just listed for this state passes at once).
        """
        with self._guard():
            move, _ = self._accept(state, move, trusted=True)
            return self._advance(state, move)

    def _advance(self, state: dict, move: dict) -> list:
        """Play an accepted move on ``state`` in place, then digital chance: the events."""
        events: list = []
        self._play(state, move, events)
        state["version"] += 1
        self._run_chance(state, events)
        return events

    def score(self, state: dict, *, trusted: bool = False) -> dict:
        self.check(state, trusted)
        with self._guard():
            return self._scoreboard(self._score(state), final=not state["to_move"],
                                    state=state)

    def view(self, state: dict, seat=None, *, trusted: bool = False) -> dict:
        """The state as ``seat`` may see it (``None``: a spectator's public view)."""
        self.check(state, trusted)
        if seat is not None:
            self._check_seat(state, seat)
        with self._guard():
            view = clone(state)
            del view["rng"]
            self._redact(view, seat)
            view["seeded"] = generators.is_seeded(state["rng"])  # the one word said of it
            awaited = self.awaiting(state)
            if awaited is not None:
                view["awaiting"] = awaited
            return view

    # ------------------------------------------------------------ companion
    def awaiting(self, state: dict):
        """Companion mode: whose entry the pending chance outcome waits for — the seat
        it goes to privately, or ``"table"`` (public: the table token or any seat enters
        it); None when no entry is awaited. Who receives is public; what, never."""
        if state["mode"] != "companion" or state["to_move"] != [CHANCE]:
            return None
        with self._guard():
            receiver = self._receiver(state)
        return TABLE if receiver is None else receiver

    def entries(self, state: dict, entrant=None, *, trusted: bool = False) -> list[dict]:
        """Companion mode: the chance outcomes ``entrant`` (a seat, or None: the table token)
        may enter now, as it knows them — counted over the public components and its own
        hand only, so the list says nothing of the other hands — without ``p``. Empty
        when the awaited entry is not ``entrant``'s."""
        self.check(state, trusted)
        if entrant is not None:
            self._check_seat(state, entrant)
        awaited = self.awaiting(state)
        if awaited is None or awaited not in (TABLE, entrant):
            return []
        with self._guard():
            return self._entry_outcomes(state, entrant)

    def _check_entry(self, state: dict, move: dict, entrant) -> None:
        """Refuse a companion entry from the wrong token, or one that cannot be true.

        First by what the entrant knows: not among :meth:`entries`, it is impossible
        whatever the others hold, and the message counts only the public and its own
        hand. Possible as it knows but not among the outcomes of the whole state: another
        seat's private entry holds the component, so one of the two entries is wrong —
        refused naming neither the component nor the seat (see RULES.md and README).
        """
        awaited = self.awaiting(state)
        if awaited != TABLE and awaited != entrant:
            raise NotYourEntry(f"seat {awaited} enters this outcome itself: it goes into its "
                               "hand")
        listed = self.entries(state, entrant, trusted=True)
        if any("describe" in m for m in listed):  # too many to list (a layout): public,
            return  # so the whole state's check in _accept is the entrant's own
        possible = self._entry_possible(state, move)
        # the rule only: the game's own explanation may count what others hold
        rule = None if possible else self._explain(state, move)[0]
        if not is_listed(move, listed):
            known = "the components everyone sees" + (" and your hand" if entrant else "")
            raise ImpossibleEntry(f"{canonical(move)} cannot be entered now: counting {known}, "
                                  "none is left that can give it", rule=rule)
        if not possible:
            raise EntryConflict("this entry contradicts another seat's entry: a component "
                                 "cannot be in two places; check the hands, then the wrong "
                                 "entry is undone", rule=rule)

    def _entry_possible(self, state: dict, move: dict) -> bool:
        """Whether a chance entry is an outcome of the whole state (all hands counted)."""
        try:
            self._check_chance(state, move)
        except IllegalMove:
            return False
        return True

    def view_events(self, events: list, seat=None) -> list:
        """Events as ``seat`` may see them (a draw into another hand loses its card)."""
        return [self._redact_event(clone(e), seat) for e in events]

    def view_move(self, move: dict, seat=None) -> dict:
        """A logged move as ``seat`` may see it.

        ``p`` stays only where it is the same whatever ``seat`` cannot see: not where
        the redaction hides anything (``p`` is the outcome's share of the deck or bag,
        so it would name the hidden card as surely as the card itself), nor where
        the outcome's odds are counted over hidden components (:meth:`_odds_hidden`:
        a public draw's share of a bag also holds the chips of the hidden hands).
        """
        bare = {k: v for k, v in move.items() if k != "p"}
        seen = self._redact_move(clone(bare), seat)
        if "p" in move and seen == bare and not self._odds_hidden(bare):
            seen["p"] = move["p"]
        return seen

    def view_listing(self, state: dict, moves: list[dict], seat=None) -> list[dict]:
        """``moves``, listed for ``state``, as ``seat`` (None: the public, a tabletop
        session's table token) may read them: a chance outcome whose odds are counted
        over hidden components loses ``p`` (:meth:`view_move`'s rule). Its card stays:
        the table enters what was drawn, and a seat is never listed chance outcomes."""
        if seat is not None:
            self._check_seat(state, seat)
        if state["mode"] == "companion":  # entries as the reader knows them; the table
            if state["to_move"] == [CHANCE]:  # moves for no seat
                return self.entries(state, seat)
            return moves if seat is not None else []
        return [{k: v for k, v in m.items() if k != "p"}
                if "p" in m and self._odds_hidden(m) else m for m in moves]

    def move_text(self, move: dict, lang: str = "en") -> str:
        """A short human description of a move as listed or logged ("Build 213 …").

        Pure function of the move as given: a redacted move reads as redacted,
        so the text never says more than the move it describes.
        """
        lang = lang if lang in LANGUAGES else LANGUAGES[0]
        bare = move if "p" not in move and "text" not in move else {
            k: v for k, v in move.items() if k not in ANNOTATIONS}
        try:
            return self._move_text(bare, lang)
        except Exception:  # a forged log entry may hold anything: fall back, never crash
            log.warning("%s: no text for %s", self.id, canonical(bare)[:200], exc_info=True)
            return canonical(bare)

    def listing_texts(self, state: dict, reader, moves: list[dict], lang: str = "en") -> list[str]:
        """The sentences of ``moves`` as listed to ``reader`` (a seat, or None: the public),
        who may be told what its own view shows: a game whose moves name places rather than
        things (Three Magic's discards) names the things through :meth:`_listed_text`,
        given that view — never the state, so a sentence says no more than the reader sees.
        """
        lang = lang if lang in LANGUAGES else LANGUAGES[0]
        if type(self)._listed_text is Engine._listed_text:
            return [self.move_text(m, lang) for m in moves]
        view = self.view(state, reader)
        with self._guard():
            return [self._listed_text(view, {k: v for k, v in m.items() if k not in ANNOTATIONS},
                                      lang) for m in moves]

    def _listed_text(self, view: dict, move: dict, lang: str) -> str:
        """A listed move's sentence given its reader's view; the game may override."""
        return self.move_text(move, lang)

    def components(self) -> dict:
        """The catalog of the game's components: what a client needs to draw and
        explain the game without the source (pure data, the same for every call)."""
        return self._components()

    def picture(self, state: dict, seat=None, lang: str = "en") -> str:
        """An SVG drawing of what ``seat`` may see (``None``: the public view).

        Drawn from the view alone, never from the state, so a picture can never
        show what the seat's view hides: the game's ``picture.py`` has
        ``picture(view, *, seat, lang) -> str``, a pure function.
        """
        view = self.view(state, seat)
        lang = lang if lang in LANGUAGES else LANGUAGES[0]
        with self._guard():
            return self._picture_module().picture(view, seat=seat, lang=lang)

    def preview_picture(self, state: dict, move, seat=None, lang: str = "en") -> str:
        """The picture of the position a seat's ``move`` leads to, as ``seat`` would see it,
        before any chance that follows it: what a page shows before the move is confirmed.

        Only a move of :attr:`previewed_moves`, and only one whose result draws nothing
        from the generator: a preview must never show what chance will bring (the next
        card, the next chip) before the move is made, so a move that would is refused.
        """
        self.check(state, False)
        if not isinstance(move, dict) or move.get("type") not in self.previewed_moves \
                or move.get("seat") == CHANCE:
            raise BadRequest(f"{self.id} previews only a seat's "
                             f"{', '.join(self.previewed_moves) or 'no'} moves")
        with self._guard():
            move, _ = self._accept(state, move)
            new = clone(state)
            self._play(new, move, [])
            new["version"] += 1
            if new.get("rng") != state.get("rng"):
                raise BadRequest("this move's result depends on chance: it has no preview")
        # trusted: made here by a listed move; a digital game rests at a chance point only
        # in a preview (the chance that follows is what a preview must not play)
        view = self.view(new, seat, trusted=True)
        lang = lang if lang in LANGUAGES else LANGUAGES[0]
        with self._guard():
            return self._picture_module().picture(view, seat=seat, lang=lang)

    def _picture_module(self):
        package = type(self).__module__.rpartition(".")[0]
        return importlib.import_module(f"{package}.picture")

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
            known = ", ".join(sorted(self.options)) or "none"
            raise InvalidOptions(f"{self.title} has no option {', '.join(map(repr_json, unknown))}"
                                 f" (its options: {known})", rule=self.options_rule)
        resolved = {name: opt.default for name, opt in self.options.items()}
        resolved.update(options)
        if copy:  # a new state's options must never alias the engine's defaults
            resolved = clone(resolved)
        self._check_options(resolved, players)
        return resolved

    def check(self, state, trusted: bool) -> tuple[bytes, bytes] | None:
        """The trust boundary: a state from outside is checked whole before use.

        A state the referee made itself — a session's, read back from its own
        store; a bot's or a playout's, the result of its own ``apply`` — is
        ``trusted`` and skips the check (most of a step's cost). Never pass
        ``trusted`` for a state a caller sent: the stateless routes do not.

        A state from outside whose exact bytes this process already checked, or made
        from a checked state (:mod:`referee.known`), is that valid state: not checked
        again. Answers the bytes and fingerprint of a state it checked (``None`` when
        trusted).
        """
        if trusted:
            return None
        try:
            data = serialize(state)
        except ValueError:  # not JSON data at all: the whole check names what is wrong
            self.check_state(state)
            raise InvalidState("state must be JSON data") from None
        fingerprint = self._known.fingerprint(data)
        if not self._known.knows(fingerprint):
            self.check_state(state)
            self._known.remember(fingerprint)
        return data, fingerprint

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
            raise InvalidState(f"state is not a {self.title} state "
                               f"(its game is {repr_json(state.get('game'))})")
        version, players = state.get("version"), state.get("players")
        if type(version) is not int or version < 0:
            raise InvalidState("state.version must be a non-negative integer")
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise InvalidState("state.players is out of range")
        mode = state.get("mode")
        if mode not in MODES:
            raise InvalidState(f"state.mode must be one of {', '.join(map(repr_json, MODES))}")
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
            raise InvalidState('state.to_move must list distinct seats, or be ["chance"]')
        if to_move == [CHANCE] and mode == "digital":
            raise InvalidState("a digital game never rests at a chance point")
        rng = state.get("rng")
        if mode == "digital":
            try:
                generators.parse(rng)
            except ValueError:
                raise InvalidState("state.rng is not a generator state") from None
        elif rng is not None:
            raise InvalidState(f"a {mode} game has no generator (state.rng must be null)")

    def _check_seat(self, state, seat) -> None:
        if type(seat) is not int or not 1 <= seat <= state["players"]:
            raise BadRequest(f"seat must be a seat number from 1 to {state['players']}")

    def _accept(self, state: dict, move, trusted: bool = False,
                listed: list = ()) -> tuple[dict, float | None]:
        """The move to play and, for a chance outcome, its probability; or the
        refusal it earns (nothing is changed). A client's ``p`` is ignored.
        ``listed``: the seat's moves already listed for this very state (by content)."""
        if not isinstance(move, dict):
            raise BadRequest("move must be an object")
        if trusted and any(map(is_, self._last_listing(state, move.get("seat")), repeat(move))):
            return move, None  # the very object just listed for this state (a playout's pick)
        move = {k: v for k, v in move.items() if k not in ANNOTATIONS}
        to_move = state["to_move"]
        if not to_move:
            raise GameOver("the game is over", rule=self.end_rule)
        seat = move.get("seat")
        if seat == CHANCE:
            if to_move != [CHANCE]:
                raise NotYourTurn(f"no chance event is pending; {who_moves(to_move)}")
            if state["mode"] == "digital":
                raise Forbidden("in a digital game the referee plays chance itself")
            return move, self._check_chance(state, move)
        if type(seat) is not int:
            raise BadRequest("move.seat must be a seat number or 'chance'")
        if seat not in to_move:
            raise NotYourTurn(f"seat {seat} is not to move; {who_moves(to_move)}",
                              words={"seat": seat})
        move = self._normalize(move)
        if not (trusted and self._just_listed(state, seat, move) or is_listed(move, listed)
                or self._is_legal(state, seat, move)):
            rule, detail, words = self._explain(state, move)
            raise IllegalMove(detail, rule=rule, words=words)
        return move, None

    @staticmethod
    def _last_listing(state, seat) -> list | tuple:
        """The seat's moves in the last listing made on this very (trusted) state at its
        present version, or nothing."""
        last = getattr(_LISTED, "last", None)
        if last is None or last[0] is not state or last[1] != state["version"] or (
                type(seat) is not int):
            return ()
        return last[2].get(seat, ())

    def _just_listed(self, state, seat, move) -> bool:
        """Whether ``move`` is in the last listing made on this very (trusted) state. Only a
        hit counts: anything else is checked as usual."""
        return is_listed(move, self._last_listing(state, seat))

    def rule_text(self, rule: str, lang: str) -> str | None:
        """Rule ``rule`` in words, in ``lang`` (None: the game has none for it)."""
        return self.rule_words.get(lang, {}).get(rule)

    def _explain(self, state, move) -> tuple[str | None, str, dict]:
        """``(rule, detail, words)`` of a refused move: the game's reason, and first the
        field the move's type lacks, if one is sent (a misspelled ``sorce`` is named as
        such, not only by what is then missing); the rule stays the game's."""
        try:
            found = self._why_illegal(state, move)
        except Exception:  # the move is surely illegal; only the reason is unknown
            found = None
        rule, detail = found or (self.moves_rule, f"not a legal move: {canonical(move)}")
        unknown = self._unknown_field(move)
        if unknown is None:
            return rule, detail, {}
        field, meant = unknown
        if found and re.search(rf"(?<![\w-]){re.escape(field)}(?![\w-])", detail):
            return rule, detail, {"field": field}  # the game's sentence names it already
        hint = f' (did you mean "{meant}"?)' if meant else ""
        return rule, f'unknown field "{field}" in the move{hint}; {detail}', {"field": field}

    def _unknown_field(self, move) -> tuple[str, str | None] | None:
        """``(field, the known field it is closest to or None)`` of the first field the
        move's type does not have; None when every field is known (or the type is)."""
        kind = move.get("type")
        schema = self.move_schemas.get(kind) if isinstance(kind, str) else None
        if schema is None or schema.get("additionalProperties", False) is not False:
            return None
        known = list(dict.fromkeys(["type", *schema.get("properties", {})]))
        for field in move:
            if field not in known and field not in ANNOTATIONS:
                close = difflib.get_close_matches(str(field), known, n=1)
                return str(field)[:40], close[0] if close else None
        return None

    # --------------------------------------------------------------- chance
    def _chance_listing(self, state) -> list[dict]:
        outcomes = self._chance_outcomes(state)
        if outcomes is None:
            return self._describe_chance(state)
        total = sum(w for _, w in outcomes)
        return [dict(move, p=w / total) for move, w in outcomes]

    def _check_chance(self, state, move) -> float | None:
        """Refuse a chance outcome that cannot happen (tabletop entry); answer
        its probability (``None`` where the game does not list its outcomes)."""
        outcomes = self._chance_outcomes(state)
        possible = [(m, w) for m, w in outcomes if w > 0]
        for candidate, weight in possible:
            if is_listed(move, [candidate]):
                return weight / sum(w for _, w in possible)
        rule, detail, words = self._explain(state, move)
        raise IllegalMove(f"impossible chance outcome: {detail}", rule=rule, words=words)

    def _sample_chance(self, state, rng: Generator) -> dict:
        outcomes = self._chance_outcomes(state)
        return outcomes[rng.weighted([w for _, w in outcomes])][0]

    def _run_chance(self, state, events) -> None:
        """Digital mode: play chance from the state's generator until a seat acts."""
        if state["mode"] != "digital":
            return
        for _ in range(MAX_CHANCE_STEPS):
            if state["to_move"] != [CHANCE]:
                return
            rng = generators.load(state["rng"])
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
    def _guard(self, error: type[RefereeError] = InvalidState) -> "_Guard":
        """Turn a crash on caller-supplied data into a 422 ``error``.

        The stateless routes trust their caller with the whole state; should a
        forged state (or odd options, or score-helper input) slip past the
        checks and trip a game's code, the caller gets a 422, never a 500.
        Tests run engines directly and see such an error as a failure, so
        engine bugs still surface there; the log keeps the traceback.
        """
        return _Guard(self.id, error)

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

    def _legal_matching(self, state: dict, seat: int, match: dict) -> list[dict]:
        """The legal moves of an acting seat that :func:`matches` ``match``; a game whose
        full listing is costly lists only those."""
        return [move for move in self._legal(state, seat) if matches(move, match)]

    def unfolding(self, move) -> dict | None:
        """The ``match`` that lists every move a listed ``move`` stands for, where a
        listing folds alike moves into one (Gizmos lists one Build per spend, with one of
        its Converter sets: narrowed to its card and spend, every set); None where the
        move stands for itself alone. A legal move is one a listing holds, or one the
        narrowing of a listed move holds (the conformance suite checks it so)."""
        return None

    def _is_legal(self, state: dict, seat: int, move: dict) -> bool:
        """Whether the (normalised) move of an acting seat is one :meth:`_legal` lists; a
        game whose full listing is costly checks the move directly."""
        return is_listed(move, self._legal(state, seat))

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

    def _receiver(self, state: dict) -> int | None:
        """Companion mode: the seat the pending chance outcome goes to privately (a card
        into its hand), or None for a public outcome (a card turned up, a die)."""
        return None

    def _entry_outcomes(self, state: dict, entrant) -> list[dict]:
        """Companion mode: the pending outcomes as ``entrant`` (a seat, or None: the table)
        knows them, without ``p``. A game with hidden hands counts the other hands'
        components as unseen (they are, to the entrant); the default lists the outcomes of
        the whole state, right where no hand hides anything."""
        return [{k: v for k, v in m.items() if k != "p"} for m in self._chance_listing(state)
                if m.get("p", 1) > 0]

    def _redact_event(self, event: dict, seat) -> dict:
        return event

    def _odds_hidden(self, move: dict) -> bool:
        """Whether a chance outcome's probability is counted over components some seat
        may not see (a bag that also holds what hidden hands lack): such a ``p`` differs
        between hidden assignments, so no seat and not the public is shown it. Decided
        from the move alone, as the log's redaction is (there is no state there)."""
        return False

    def _redact_move(self, move: dict, seat) -> dict:
        """A logged move as ``seat`` may see it. There is no state here: a chance
        move that fills a hand names whose hand (e.g. ``"to": 2``) so it can be hidden."""
        return move

    def _calculate(self, data: dict) -> list[dict]:
        raise BadRequest(f"{self.title} has no score helper")

    def _move_text(self, move: dict, lang: str) -> str:
        """The text of a move (its ``text.py``), in ``lang`` (one of LANGUAGES)."""
        return canonical(move)

    def _components(self) -> dict:
        """The game's component catalog (its ``components.py``)."""
        return {}
