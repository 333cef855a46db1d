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


#: every ``code`` a problem answer can carry (the Problem schema's enum, the README's list);
#: ``internal_error`` is the answer to a bug, which the tests keep from ever happening
CODES = frozenset(_codes(RefereeError) - {"bad_gateway"} | {"internal_error"})
