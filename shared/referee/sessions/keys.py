"""Every Redis key name the project uses, in one place.

All keys of one session share the hash tag ``{<session id>}``, so in a Redis
Cluster they live on one slot and every multi-key script stays legal.
"""

PREFIX = "referee"


def _session(sid: str) -> str:
    return f"{PREFIX}:{{{sid}}}"


def meta(sid: str) -> str:
    """Hash: game, mode, players, version, created, token hashes."""
    return f"{_session(sid)}:meta"


def state(sid: str) -> str:
    """String: the whole game state as JSON (with the generator: never shown)."""
    return f"{_session(sid)}:state"


def log(sid: str) -> str:
    """List: one JSON entry per accepted move, append-only."""
    return f"{_session(sid)}:log"


def idempotency(sid: str, digest: str) -> str:
    """String: the first answer to a move sent with an Idempotency-Key."""
    return f"{_session(sid)}:idem:{digest}"


def all_of(sid: str) -> list[str]:
    """The fixed keys of a session (idempotency records expire on their own)."""
    return [meta(sid), state(sid), log(sid)]


def rate(caller_digest: str, window: int) -> str:
    """Counter: requests of one caller (token digest or address) in one time window."""
    return f"{PREFIX}:rate:{caller_digest}:{window}"
