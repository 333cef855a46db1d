"""The one error hierarchy of the project, and its one problem+json form.

Engines raise these (they are plain exceptions, no HTTP imports); the web
layer turns any of them into an RFC 9457 body with :func:`problem`. Each class
fixes a stable ``code`` that clients may switch on.
"""


class RefereeError(Exception):
    status = 400
    code = "bad_request"
    title = "Bad request"

    def __init__(self, detail: str, rule: str | None = None, **extra):
        super().__init__(detail)
        self.detail, self.rule = detail, rule
        if rule:  # the rule id the refused request breaks, e.g. "G-4.1"
            extra["rule"] = rule
        self.extra = extra

    def problem(self) -> dict:
        body = {
            "type": f"https://tabletop-referee.dev/problems/{self.code}",
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
            "code": self.code,
        }
        body.update(self.extra)
        return body


class BadRequest(RefereeError):
    """The body fails its schema: wrong types, unknown fields, missing fields."""


class InvalidJson(BadRequest):
    code, title = "invalid_json", "Body is not JSON"


class UnknownField(BadRequest):
    """A body or move names a field its schema does not have (often a misspelling)."""

    code, title = "unknown_field", "Unknown field"


class PayloadTooLarge(RefereeError):
    status, code, title = 413, "payload_too_large", "Payload too large"


class UnsupportedMediaType(RefereeError):
    """A body that is not ``application/json``: it is never guessed to be JSON."""

    status, code, title = 415, "unsupported_media_type", "Body is not application/json"


class Unauthorized(RefereeError):
    status, code, title = 401, "unauthorized", "Missing or unknown token"


class Forbidden(RefereeError):
    status, code, title = 403, "forbidden", "Not allowed with this token"


class NotYourTurn(Forbidden):
    code, title = "not_your_turn", "Not this seat's turn"


class NotYourEntry(Forbidden):
    """Companion mode: a private chance outcome is entered by the seat that receives it."""

    code, title = "not_your_entry", "Another seat enters this outcome"


class NotFound(RefereeError):
    status, code, title = 404, "not_found", "Not found"


class UnknownGame(NotFound):
    code, title = "unknown_game", "Unknown game"


class UnknownSession(NotFound):
    code, title = "unknown_session", "Unknown or expired session"


class MethodNotAllowed(RefereeError):
    status, code, title = 405, "method_not_allowed", "Method not allowed"


class IdempotencyConflict(RefereeError):
    status, code, title = 409, "idempotency_conflict", "Idempotency-Key reused with another body"


class VersionConflict(RefereeError):
    status, code, title = 412, "version_conflict", "The session has moved on"


class Unprocessable(RefereeError):
    status, code, title = 422, "unprocessable", "Against the rules"


class IllegalMove(Unprocessable):
    """A well-formed move the rules forbid; ``rule`` names the rule it breaks."""

    code, title = "illegal_move", "Illegal move"


class ImpossibleEntry(IllegalMove):
    """Companion mode: an entry that cannot be true by what the entering token knows (the
    public components and, for a seat, its own hand): the message counts nothing else."""

    code, title = "impossible_entry", "Impossible entry"


class EntryConflict(IllegalMove):
    """Companion mode: an entry possible by what its seat knows that contradicts another
    seat's private entry (one of the two is wrong); the message names no card and no seat."""

    code, title = "entry_conflict", "Entry contradicts another entry"


class GameOver(IllegalMove):
    code, title = "game_over", "The game is over"


class InvalidState(Unprocessable):
    code, title = "invalid_state", "Inconsistent game state"


class InvalidOptions(Unprocessable):
    code, title = "invalid_options", "Invalid game options"


class InvalidPlayers(Unprocessable):
    code, title = "invalid_players", "Unsupported number of players"


class NoSuchSeat(Unprocessable):
    """A seat number the documents allow (1 to the game's most players) that this
    table lacks: a seat 3 at a two-player table."""

    code, title = "no_such_seat", "No such seat at this table"


class InvalidInput(Unprocessable):
    """Well-formed score-helper input that cannot happen in the game."""

    code, title = "invalid_input", "Impossible input"


class SessionConflict(RefereeError):
    """The session is not in a state that allows this request (409); the subclasses
    name why, each with a stable code (lobby: seats and start; corrections)."""

    status, code, title = 409, "session_conflict", "Not possible in this session now"


class NotStarted(SessionConflict):
    code, title = "not_started", "The game has not started"


class AlreadyStarted(SessionConflict):
    code, title = "already_started", "The game has already started"


class NobodySeated(SessionConflict):
    code, title = "nobody_seated", "No seat is taken yet"


class SeatTaken(SessionConflict):
    code, title = "seat_taken", "The seat is taken"


class TableFull(SessionConflict):
    code, title = "table_full", "No seat is open"


class NoBot(SessionConflict):
    code, title = "no_bot", "No bot plays this seat"


class UnknownJoinCode(NotFound):
    code, title = "unknown_join_code", "Unknown or expired join code"


class NothingToUndo(SessionConflict):
    code, title = "nothing_to_undo", "Nothing to undo"


class NothingToRedo(SessionConflict):
    code, title = "nothing_to_redo", "Nothing to redo"


class UndoTargetInvalid(SessionConflict):
    code, title = "undo_target_invalid", "Not a version the game can go back to"


class TakeBackNotLastMove(SessionConflict):
    code, title = "takeback_not_last_move", "Only the last move, by its own seat"


class TakeBackAfterChance(SessionConflict):
    code, title = "takeback_after_chance", "A chance outcome has been revealed since"


class TakeBackHiddenInformation(SessionConflict):
    code, title = "takeback_hidden_information", "The move revealed hidden information"


class TakeBackGameOver(SessionConflict):
    code, title = "takeback_game_over", "The game is over"


class RateLimited(RefereeError):
    status, code, title = 429, "rate_limited", "Too many requests"


class ServiceUnavailable(RefereeError):
    status, code, title = 503, "service_unavailable", "A dependency is down"


class UpstreamProblem(RefereeError):
    """A problem+json answered by a game service, passed through unchanged."""

    def __init__(self, body: dict):
        super().__init__(str(body.get("detail", "")))
        self.body = body
        self.status = int(body.get("status", 502))
        self.code = str(body.get("code", "bad_gateway"))

    def problem(self) -> dict:
        return dict(self.body)


def _codes(cls) -> set[str]:
    found = {cls.code} if isinstance(cls.__dict__.get("code", cls.code), str) else set()
    for sub in cls.__subclasses__():
        found |= _codes(sub)
    return found


def _own_codes(cls) -> list[type]:
    """``cls`` and its subclasses that name a code of their own, depth first."""
    found = [cls] if "code" in cls.__dict__ else []
    for sub in cls.__subclasses__():
        found += _own_codes(sub)
    return found


#: an example answer of each code, as the referee words it (the OpenAPI examples show them)
EXAMPLES = {
    "bad_request": ("the request body does not match its schema",
                    {"errors": {"players": ["Not a valid integer."]}}),
    "invalid_json": ("the request body is not valid JSON: Expecting value: line 1 column 1", {}),
    "unknown_field": ('unknown field "sead" in the request body', {"errors": {
        "sead": ["Unknown field."]}}),
    "unauthorized": ("send the session's token as 'Authorization: Bearer <token>'", {}),
    "forbidden": ("a spectator has no moves", {}),
    "not_your_turn": ("seat 2 is not to move; seat 1 moves", {}),
    "not_your_entry": ("seat 2 enters this outcome itself: it goes into its hand", {}),
    "not_found": ("no route /v1/nowhere", {}),
    "unknown_game": ('there is no game "chess"; the games are gematon, ghostone, gizmos, '
                     "threemagic, vectron", {}),
    "unknown_session": ("there is no session with this id", {}),
    "unknown_join_code": ("no open table has this join code (it may have started or expired)", {}),
    "method_not_allowed": ("PUT is not allowed on /v1/sessions", {}),
    "idempotency_conflict": ("this Idempotency-Key came with another request", {}),
    "version_conflict": ("the session is at version 8, not 7", {"current_version": 8}),
    "payload_too_large": ("the body is over the limit of 1048576 bytes", {}),
    "unsupported_media_type": ("the request body was sent as text/plain; send it as "
                               "application/json", {}),
    "unprocessable": ("the request is against the rules", {}),
    "illegal_move": ("plate c3 is not next to the seat's piece", {"rule": "G-4.1"}),
    "impossible_entry": ('{"card":"m5","seat":"chance","to":2,"type":"draw"} cannot be entered '
                         "now: counting the components everyone sees and your hand, none is "
                         "left that can give it", {"rule": "T-10.1"}),
    "entry_conflict": ("this entry contradicts another seat's entry: a component cannot be in "
                       "two places; check the hands, then the wrong entry is undone",
                       {"rule": "T-10.1"}),
    "game_over": ("the game is over", {"rule": "G-7.1"}),
    "invalid_state": ("state.version must be a whole number from 0", {}),
    "invalid_options": ('Ghostone has no option "ghosts"', {}),
    "invalid_players": ("Ghostone takes 3 to 4 players, not 2", {}),
    "no_such_seat": ("seat 3 is not at this table of 2 players", {}),
    "invalid_input": ("the gauges add up to 17; a game has 16 cards", {"rule": "V-1.4"}),
    "session_conflict": ("not possible in this session now", {}),
    "not_started": ("the game has not started: no seat has moves yet", {}),
    "already_started": ("the game has already started", {}),
    "nobody_seated": ("nobody has joined yet: share the join code first", {}),
    "seat_taken": ("seat 2 is taken; open seats: 3", {}),
    "table_full": ("every seat of this table is taken", {}),
    "no_bot": ("no bot plays seat 2", {}),
    "nothing_to_undo": ("no move has been entered since the game started", {}),
    "nothing_to_redo": ("nothing to redo", {}),
    "undo_target_invalid": ("version 40 is not before the present version 12", {}),
    "takeback_not_last_move": ("only the last move can be taken back, by its own seat", {}),
    "takeback_after_chance": ("a chance outcome has been revealed since that move", {}),
    "takeback_hidden_information": ("that move showed hidden information to its seat", {}),
    "takeback_game_over": ("the game is over: nothing can be taken back", {}),
    "rate_limited": ("more than 600 requests in 60 s; slow down", {"retry_after": 3}),
    "service_unavailable": ("the session store is unavailable", {"retry_after": 1}),
}


def examples(status: int) -> dict:
    """One example problem+json body per code answered with ``status`` (the OpenAPI
    ``examples`` of a documented error answer: never a code of another status), by code."""
    found = {}
    for cls in _own_codes(RefereeError):
        if cls.status == status and cls.code not in found:
            detail, extra = EXAMPLES[cls.code]
            body = cls(detail).problem()
            body.update(extra, request_id="3f2a9c0d5e7b41a68c1d2e3f4a5b6c7d")
            found[cls.code] = {"summary": cls.title, "value": body}
    return found


#: every ``code`` a problem answer can carry (the Problem schema's enum, the README's list);
#: ``internal_error`` is the answer to a bug, which the tests keep from ever happening
CODES = frozenset(_codes(RefereeError) - {"bad_gateway"} | {"internal_error"})
