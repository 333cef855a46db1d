"""tabletop-referee's Python client: ``Referee(url)`` → tables, seats, moves with safe
retries, corrections, the event stream with resume; typed errors carrying ``code``
and ``rule``. See the repository's README ("Live tables")."""

from .client import Referee, Session, Table
from .errors import (
    BadRequest, Conflict, Forbidden, IllegalMove, NotFound, RateLimited, RefereeError,
    Unauthorized, Unavailable, VersionConflict,
)
from .sse import Event

__all__ = ["Referee", "Session", "Table", "Event", "RefereeError", "BadRequest",
           "Unauthorized", "Forbidden", "NotFound", "Conflict", "VersionConflict",
           "IllegalMove", "RateLimited", "Unavailable"]
