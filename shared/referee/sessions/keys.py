"""Every Redis key name the project uses, in one place.

All keys of one session share the hash tag ``{<session id>}``, so in a Redis
Cluster they live on one slot and every multi-key script stays legal. Keys that
belong to no session (a join code, the lobby, counters) carry a hash tag of
their own and are only ever touched one at a time. Every key has an expiry.
"""

PREFIX = "referee"
#: the pub/sub channel every session change is announced on ("<session id> <version>");
#: a doorbell only: streams read what changed from the log, so a lost message loses nothing
CHANNEL = f"{PREFIX}:changes"
#: the bot worker's channel: the changes of sessions with a bot seat ("<session id>
#: <version>") and a session given its first bot (its id alone); a doorbell too (the worker
#: also sweeps)
BOT_CHANNEL = f"{PREFIX}:bot-changes"


def _session(sid: str) -> str:
    return f"{PREFIX}:{{{sid}}}"


def meta(sid: str) -> str:
    """Hash: game, mode, players, version, created, token hashes, seats (open tables)."""
    return f"{_session(sid)}:meta"


def state(sid: str) -> str:
    """String: the whole game state as JSON (with the generator: never shown)."""
    return f"{_session(sid)}:state"


def log(sid: str) -> str:
    """List: one JSON entry per version (moves, corrections, seat changes), append-only."""
    return f"{_session(sid)}:log"


def snapshots(sid: str) -> str:
    """Hash: version → the state at that version (zlib + base64 JSON): what an
    event's view and an undo are made from."""
    return f"{_session(sid)}:snapshots"


def watchers(sid: str) -> str:
    """Hash: "<seat>:<language>" ("-" for the public) → the Unix time until which a stream
    of that seat, in that language, is open somewhere (each stream renews it every
    heartbeat): whom a move's one call to the game service redacts for."""
    return f"{_session(sid)}:watchers"


def pushed(sid: str, version: int) -> str:
    """Hash: "<seat>:<language>" → the stream event of ``version`` as that seat sees it,
    built from the move's own call to the game service; kept a minute (a stream that
    finds none asks the service)."""
    return f"{_session(sid)}:pushed:{version}"


def idempotency(sid: str, digest: str) -> str:
    """String: the first answer to a request sent with an Idempotency-Key."""
    return f"{_session(sid)}:idem:{digest}"


def stream_ticket(sid: str, ticket_digest: str) -> str:
    """String: the token digest a stream ticket opens this session's events for (single
    use, short-lived; the key holds the ticket's digest, never the ticket)."""
    return f"{_session(sid)}:ticket:{ticket_digest}"


def all_of(sid: str) -> list[str]:
    """The fixed keys of a session (idempotency records, stream tickets and pushed
    events expire on their own)."""
    return [meta(sid), state(sid), log(sid), snapshots(sid), watchers(sid)]


def join_code(code: str) -> str:
    """String: the session an open table's join code leads to (until the game starts)."""
    return f"{PREFIX}:{{join:{code}}}"


def lobby() -> str:
    """Sorted set: the public tables with open seats, scored by when they expire."""
    return f"{PREFIX}:{{lobby}}:tables"


def join_failures(caller_digest: str, window: int) -> str:
    """Counter: join attempts with an unknown code from one address in one window."""
    return f"{PREFIX}:{{joinfail:{caller_digest}}}:{window}"


def bot_tables() -> str:
    """Sorted set: the sessions with a bot seat, scored by when the bot worker looks next."""
    return f"{PREFIX}:{{bots}}:tables"


def bot_lock(sid: str) -> str:
    """String: the bot worker replica thinking for a session now (expires on its own)."""
    return f"{PREFIX}:{{bots}}:lock:{sid}"


def rate(caller_digest: str, window: int) -> str:
    """Counter: requests of one caller (a known token's session and seat, else the
    address; hashed) in one time window."""
    return f"{PREFIX}:rate:{caller_digest}:{window}"
