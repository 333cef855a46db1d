"""Typed errors: every problem+json answer of the referee as an exception that
carries its stable ``code``, the ``rule`` an illegal move breaks, and the rest."""


class RefereeError(Exception):
    """An answer of the referee that is not a success (or no answer at all)."""

    def __init__(self, status: int, problem: dict):
        self.status = status
        self.problem = problem
        self.code: str = problem.get("code", "unknown")
        self.rule: str | None = problem.get("rule")
        self.detail: str = problem.get("detail", "")
        self.retry_after: int | None = problem.get("retry_after")
        self.current_version: int | None = problem.get("current_version")
        rule = f" [{self.rule}]" if self.rule else ""
        super().__init__(f"{status} {self.code}{rule}: {self.detail}")


class BadRequest(RefereeError):
    """400: the request is malformed (its schema, its JSON)."""


class Unauthorized(RefereeError):
    """401: no token, or one that does not (or no longer) belong to the session."""


class Forbidden(RefereeError):
    """403: the token may not do this (another seat's move, a spectator…)."""


class NotFound(RefereeError):
    """404: unknown session, game or join code."""


class Conflict(RefereeError):
    """409: the session does not allow this now (seat taken, nothing to undo…)."""


class VersionConflict(RefereeError):
    """412: the session moved on since the version sent in If-Match."""


class IllegalMove(RefereeError):
    """422: against the rules; ``rule`` names the rule it breaks."""


class RateLimited(RefereeError):
    """429: slow down; ``retry_after`` seconds."""


class Unavailable(RefereeError):
    """503 (or no answer): a part of the referee is down; ``retry_after`` seconds."""


BY_STATUS = {400: BadRequest, 401: Unauthorized, 403: Forbidden, 404: NotFound, 409: Conflict,
             412: VersionConflict, 422: IllegalMove, 429: RateLimited, 503: Unavailable}


def error_for(status: int, problem: dict) -> RefereeError:
    return BY_STATUS.get(status, RefereeError)(status, problem)
