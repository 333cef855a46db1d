"""The session store: atomic create, load and compare-and-set writes.

Tokens are kept only as SHA-256 hashes and compared in constant time; every
key carries the session's expiry, renewed by each write (sessions expire after
``ttl`` seconds without a move); writes are Lua scripts, so a change, its log
entry, its snapshot, its idempotency record and its announcement on
:data:`keys.CHANNEL` land together or not at all. Every change — a move, a
correction, a seat joining — is a new version with one log entry.
"""

import base64
import hashlib
import hmac
import json
import os
import secrets
import time
import zlib
from dataclasses import dataclass
from importlib.resources import files

import redis
from redis.backoff import ExponentialBackoff
from redis.retry import Retry

from .. import capacity
from ..errors import UnknownSession
from . import keys

ROLES = ("table", "spectator")
#: seconds a version's stream events built with its change are kept: the streams open then
#: read them within a moment; a stream that resumes later asks the game service
PUSHED_SECONDS = 60


#: TLS settings (a ``rediss://`` REDIS_URL) → redis-py's options: the CA that signed the
#: server's certificate, and this client's certificate and key when Redis asks for one
#: (``tls-auth-clients``, Redis's default)
TLS_SETTINGS = {"REDIS_TLS_CA": "ssl_ca_certs", "REDIS_TLS_CERT": "ssl_certfile",
                "REDIS_TLS_KEY": "ssl_keyfile"}


def security_options(url: str, env=os.environ) -> dict:
    """How to log in to Redis and check it, from the environment: never on a command line
    nor (in a deployment) in REDIS_URL. ``REDIS_PASSWORD`` or ``REDIS_PASSWORD_FILE`` (a
    mounted Secret's file; its last newline dropped), ``REDIS_USERNAME`` for an ACL user,
    and :data:`TLS_SETTINGS` (only with ``rediss://``: redis-py's plain connection would
    refuse them, and a CA given for a plain URL is a mistake said at once)."""
    options = {}
    password = env.get("REDIS_PASSWORD")
    if not password and env.get("REDIS_PASSWORD_FILE"):
        with open(env["REDIS_PASSWORD_FILE"], encoding="utf-8") as secret:
            password = secret.read().removesuffix("\n")
    if password:
        options["password"] = password
    if env.get("REDIS_USERNAME"):
        options["username"] = env["REDIS_USERNAME"]
    tls = {option: env[name] for name, option in TLS_SETTINGS.items() if env.get(name)}
    if tls and not url.startswith("rediss://"):
        raise ValueError(f"{', '.join(n for n in TLS_SETTINGS if env.get(n))} need a "
                         "rediss:// REDIS_URL (TLS)")
    return {**options, **tls}


def connect(url: str, cluster: bool = False, *, socket_timeout: float | None = None,
            max_connections: int | None = None, pool_timeout: float | None = None,
            retries: int = 1):
    """One client (connection pool) per process, with short timeouts.

    A command that gets no answer fails after ``socket_timeout`` and is not tried again
    (a hung Redis would make each try wait as long); a dropped connection is tried again
    ``retries`` times (Redis restarted: the pooled connections are stale). The pool blocks
    a caller up to ``pool_timeout`` for a free connection rather than failing at once
    (:mod:`referee.capacity` sizes it). The password and TLS files come from the
    environment (:func:`security_options`).

    A Cluster client that gets no answer asks every node it knows for the slots before it
    gives up (redis-py does, and it cannot be turned off): there, each wait is by default
    a third as long and a failed command is not tried again, so that a whole frozen cluster of three
    masters still answers within about the time a standalone Redis does."""
    if socket_timeout is None:
        socket_timeout = capacity.redis_socket_timeout() / (3 if cluster else 1)
    timeout, retries = socket_timeout, 0 if cluster else retries
    options = {
        "socket_timeout": timeout, "socket_connect_timeout": timeout, "decode_responses": True,
        "retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), retries,
                       supported_errors=(redis.ConnectionError,)),
        "connection_pool_class": WaitingPool,
        "max_connections": max_connections or capacity.redis_max_connections(),
        "timeout": capacity.redis_pool_timeout() if pool_timeout is None else pool_timeout,
        **security_options(url)}
    if cluster:
        from redis.cluster import RedisCluster
        client = RedisCluster.from_url(url, **options)
        _cluster_errors_are_redis_errors(client)
        return client
    pool_class = options.pop("connection_pool_class")
    return redis.Redis.from_pool(pool_class.from_url(url, health_check_interval=30, **options))


class PoolBusy(redis.ConnectionError):
    """Every pooled connection stayed in use for the pool's whole wait: the store is up,
    this process is busy (a reconnect storm). Told apart so that the answer says so."""


class WaitingPool(redis.BlockingConnectionPool):
    """redis-py's blocking pool, whose wait running out is a :class:`PoolBusy`."""

    def get_connection(self, *args, **kwargs):
        try:
            return super().get_connection(*args, **kwargs)
        except redis.ConnectionError as error:
            # redis-py says it only in this message (and raises it before connecting)
            if str(error) == "No connection available.":
                raise PoolBusy("every connection to the session store is in use") from error
            raise


class ClusterUnreachable(redis.ConnectionError):
    """A Cluster client found no node to answer: redis-py raises RedisClusterException,
    which is no ``redis.RedisError``; turned into one, every caller that handles a Redis
    outage (the gateway's 503, a stream's end, the bot worker) handles this one too."""


def _cluster_errors_are_redis_errors(client) -> None:
    from redis.exceptions import RedisClusterException
    execute = client.execute_command

    def execute_command(*args, **options):
        try:
            return execute(*args, **options)
        except RedisClusterException as exc:
            raise ClusterUnreachable(str(exc)) from exc

    client.execute_command = execute_command


def new_token() -> str:
    return secrets.token_urlsafe(24)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def pack(state: dict) -> str:
    """A snapshot as stored: states repeat themselves, zlib keeps a long game small."""
    return base64.b64encode(zlib.compress(json.dumps(state).encode(), 6)).decode()


def unpack(packed: str) -> dict:
    return json.loads(zlib.decompress(base64.b64decode(packed)))


@dataclass
class Caller:
    role: str  # "seat", "table" or "spectator"
    seat: int | None = None

    @property
    def name(self) -> str:
        return f"seat:{self.seat}" if self.role == "seat" else self.role


@dataclass
class Session:
    sid: str
    meta: dict
    state: dict

    @property
    def game(self) -> str:
        return self.meta["game"]

    @property
    def version(self) -> int:
        return self.state["version"]

    def seat_status(self, seat: int) -> str:
        """"taken", "open" (a lobby seat nobody holds), "absent" (left after the start) or
        "bot" (a bot plays it: :meth:`bot_level`)."""
        return self.meta.get(f"seat:{seat}", "taken")

    def bot_level(self, seat) -> str | None:
        """The level of the bot playing ``seat`` (None: no bot plays it)."""
        if self.seat_status(seat) != "bot":
            return None
        return self.meta.get(f"bot:{seat}")

    @property
    def started(self) -> bool:
        return self.meta.get("phase", "play") == "play"

    def identify(self, token: str) -> Caller | None:
        """Who holds ``token``: every stored hash is compared, in constant time each."""
        return self.identify_digest(digest(token))

    def identify_digest(self, presented: str) -> Caller | None:
        """Who holds the token of digest ``presented`` (what a stream ticket keeps)."""
        found = None
        for field, stored in self.meta.items():
            if field.startswith("token:") and hmac.compare_digest(presented, stored):
                found = field
        if found is None:
            return None
        role = found.split(":")[1]
        return Caller("seat", int(found.split(":")[2])) if role == "seat" else Caller(role)


def _script(client, name: str):
    return client.register_script(files(__package__).joinpath(name).read_text())


class SessionStore:
    def __init__(self, client, ttl: int):
        self.client, self.ttl = client, int(ttl)
        self._create = _script(client, "create.lua")
        self._load = _script(client, "load.lua")
        self._commit = _script(client, "commit.lua")
        self._woken = _script(client, "woken.lua")
        self._watch = _script(client, "watch.lua")

    def create(self, game: str, state: dict, open_seats: bool = False,
               extra: dict | None = None, setup: dict | None = None,
               bots: dict[int, str] | None = None) -> tuple[str, dict]:
        """A new session: its id and its tokens (shown once, stored as hashes).

        With ``open_seats`` no seat has a token yet: each is handed out by a join.
        ``setup``: the log's first entry (the setup's events), if the setup had any.
        ``bots``: seat → level of the seats a bot plays (no token: nobody moves for it).
        """
        bots = bots or {}
        seats = [s for s in range(1, state["players"] + 1) if s not in bots]
        tokens = {} if open_seats else {f"seat:{s}": new_token() for s in seats}
        tokens.update({role: new_token() for role in ROLES})
        meta = {"game": game, "mode": state["mode"], "players": state["players"],
                "version": state["version"], "created": int(time.time()), **(extra or {})}
        for seat, level in bots.items():
            meta.update({f"seat:{seat}": "bot", f"bot:{seat}": level})
        if open_seats and seats:
            meta.update({f"seat:{s}": "open" for s in seats}, phase="lobby")
        meta.update({f"token:{name}": digest(t) for name, t in tokens.items()})
        pairs = [str(x) for kv in meta.items() for x in kv]
        for _ in range(3):
            sid = secrets.token_urlsafe(12)
            if self._create(keys=[keys.meta(sid), keys.state(sid), keys.snapshots(sid),
                                  keys.log(sid)],
                            args=[self.ttl, json.dumps(state), state["version"], pack(state),
                                  json.dumps(setup) if setup else "", *pairs]):
                return sid, tokens
        raise RuntimeError("could not draw a free session id")

    def load(self, sid: str) -> Session:
        pairs, state = self._load(keys=[keys.meta(sid), keys.state(sid)])
        if not pairs or state is None:
            raise UnknownSession(f"there is no session {sid} (never created, deleted or expired)")
        meta = dict(zip(pairs[::2], pairs[1::2]))
        return Session(sid, meta, json.loads(state))

    def commit(self, session: Session, state: dict, entry: dict,
               idempotency: tuple[str, dict] | None = None, *, rewrite=(),
               meta_set: dict | None = None, meta_del=(), pushed: dict | None = None) -> bool:
        """Write ``state`` if nobody changed the session first; False when the
        version moved on. ``rewrite``: ``(log index, entry)`` pairs to replace (an
        undone move gets its mark); ``meta_set``/``meta_del``: seat fields; ``pushed``:
        the new version's stream events by ``"<seat>:<language>"``, kept
        ``PUSHED_SECONDS`` (written with the change, so a stream it wakes finds them)."""
        sid = session.sid
        idem_key, idem_value = (keys.idempotency(sid, idempotency[0]),
                                json.dumps(idempotency[1])) if idempotency else (
            keys.idempotency(sid, "-"), "")
        # the meta fields after the change, set then deleted as the script does
        after = (session.meta.keys() | (meta_set or {}).keys()).difference(meta_del)
        bots = any(field.startswith("bot:") for field in after)
        lists = [len(rewrite), *(x for i, e in rewrite for x in (i, json.dumps(e))),
                 len(meta_set or {}), *(x for kv in (meta_set or {}).items() for x in kv),
                 len(meta_del), *meta_del,
                 len(pushed or {}), *(x for kv in (pushed or {}).items() for x in kv),
                 PUSHED_SECONDS]
        written = self._commit(
            keys=[keys.meta(sid), keys.state(sid), keys.log(sid), idem_key,
                  keys.snapshots(sid), keys.pushed(sid, state["version"])],
            args=[session.version, state["version"], json.dumps(state),
                  json.dumps(entry), self.ttl, idem_value, pack(state), keys.CHANNEL, sid,
                  keys.BOT_CHANNEL if bots else "", *map(str, lists)])
        if written == -1:
            raise UnknownSession(f"session {sid} ended while the change was made")
        if written == 1 and bots:
            # Due for the bot worker now (its sweep finds it), not only announced: an
            # announcement reaches only a worker listening at that moment. (Another slot
            # than the session's keys on a cluster: not in the script.)
            self.client.zadd(keys.bot_tables(), {sid: time.time()}, lt=True)
        return written == 1

    def snapshot(self, sid: str, version: int) -> dict | None:
        """The state at ``version`` (None: never one, or from before snapshots were kept)."""
        packed = self.client.hget(keys.snapshots(sid), str(version))
        return unpack(packed) if packed else None

    def entries(self, sid: str) -> list[dict]:
        """The whole log, in order (its indexes are what ``commit`` rewrites)."""
        return [json.loads(e) for e in self.client.lrange(keys.log(sid), 0, -1)]

    def pushed(self, sid: str, version: int) -> dict[str, str]:
        """The stream events of ``version`` built with its change, by ``"<seat>:<language>"``
        (empty: none were, or they expired)."""
        return self.client.hgetall(keys.pushed(sid, version))

    def watch(self, sid: str, field: str, seconds: float) -> None:
        """Note that a stream of ``field`` (``"<seat>:<language>"``) is open for another
        ``seconds``: the next moves redact for it in their own call."""
        self._watch(keys=[keys.watchers(sid)],
                    args=[field, int(time.time() + seconds), int(seconds) + 1])

    def watchers(self, sid: str) -> list[str]:
        """The ``"<seat>:<language>"`` fields of the streams open on ``sid`` now."""
        now = time.time()
        return sorted(field for field, until in self.client.hgetall(keys.watchers(sid)).items()
                      if int(until) >= now)

    def meta(self, sid: str) -> dict | None:
        """The meta hash alone (version, seats, token hashes): what a stream re-reads
        on each wake, without the state."""
        return self.client.hgetall(keys.meta(sid)) or None

    def woken(self, sid: str, index: int, version: int) -> tuple[dict | None, list[dict],
                                                                dict[str, str]]:
        """What a stream woken by ``version`` reads, in one round trip: the meta hash (None:
        the session is gone), the log from ``index`` on, and the stream events built with
        ``version`` (see ``pushed``)."""
        meta, entries, pushed = self._woken(
            keys=[keys.meta(sid), keys.log(sid), keys.pushed(sid, version)], args=[index])
        pairs = lambda flat: dict(zip(flat[::2], flat[1::2]))  # noqa: E731 (a script's HGETALL)
        return (pairs(meta) or None, [json.loads(e) for e in entries], pairs(pushed))

    def entries_from(self, sid: str, index: int) -> list[dict]:
        """The log from position ``index`` on (one entry per version, in order)."""
        return [json.loads(e) for e in self.client.lrange(keys.log(sid), index, -1)]

    # ------------------------------------------------------ stream tickets
    def issue_ticket(self, sid: str, token_digest: str, seconds: int) -> str:
        """A new stream ticket for the token of ``token_digest``: unguessable, kept
        ``seconds`` as its digest (a Redis dump holds no usable ticket)."""
        ticket = secrets.token_urlsafe(24)
        self.client.set(keys.stream_ticket(sid, digest(ticket)), token_digest, ex=seconds)
        return ticket

    def spend_ticket(self, sid: str, ticket: str) -> str | None:
        """The token digest ``ticket`` was issued for, and the ticket gone (GETDEL: two
        streams racing for one ticket, one wins); None when unknown, spent or expired."""
        return self.client.getdel(keys.stream_ticket(sid, digest(ticket)))

    # ------------------------------------------------------ join codes, lobby
    def register_code(self, code: str, sid: str) -> bool:
        """Claim ``code`` (False: another table has it); ``""`` reserves it."""
        return bool(self.client.set(keys.join_code(code), sid, nx=True, ex=self.ttl))

    def bind_code(self, code: str, sid: str) -> None:
        self.client.set(keys.join_code(code), sid, xx=True, ex=self.ttl)

    def resolve_code(self, code: str) -> str | None:
        return self.client.get(keys.join_code(code))

    def drop_code(self, code: str) -> None:
        self.client.delete(keys.join_code(code))

    def list_table(self, sid: str) -> None:
        """Show a public table in the lobby until it starts or expires."""
        self.client.zadd(keys.lobby(), {sid: time.time() + self.ttl})
        self.client.expire(keys.lobby(), self.ttl)

    def unlist_table(self, sid: str) -> None:
        self.client.zrem(keys.lobby(), sid)

    def listed_tables(self, limit: int) -> list[str]:
        """The public tables, newest first (expired ones are dropped on the way)."""
        self.client.zremrangebyscore(keys.lobby(), "-inf", time.time())
        return self.client.zrevrange(keys.lobby(), 0, limit - 1)

    def failed_joins(self, caller_digest: str, window: int) -> int:
        return int(self.client.get(keys.join_failures(caller_digest, window)) or 0)

    def count_failed_join(self, caller_digest: str, window: int, seconds: int) -> int:
        key = keys.join_failures(caller_digest, window)
        count = self.client.incr(key)
        if count == 1:
            self.client.expire(key, seconds + 1)
        return count

    def idempotent_answer(self, sid: str, key_digest: str) -> dict | None:
        record = self.client.get(keys.idempotency(sid, key_digest))
        return json.loads(record) if record else None

    def log(self, sid: str, since: int) -> list[dict]:
        entries = [json.loads(e) for e in self.client.lrange(keys.log(sid), 0, -1)]
        # the setup's entry may sit at version 0: reading from the start shows it
        return [e for e in entries if e["version"] > since
                or (since == 0 and e.get("setup") and "seats" not in e)]

    def delete(self, sid: str) -> None:
        for key in keys.all_of(sid):  # one key per call: legal on a cluster too
            self.client.delete(key)

    def watch_bots(self, sid: str, at: float | None = None) -> None:
        """Have the bot worker look at the session: now (it is told at once), or at ``at``."""
        self.client.zadd(keys.bot_tables(), {sid: time.time() if at is None else at})
        if at is None:
            self.client.publish(keys.BOT_CHANNEL, sid)

    def unwatch_bots(self, sid: str) -> None:
        self.client.zrem(keys.bot_tables(), sid)

    def bot_due_at(self, sid: str) -> float | None:
        """When the session was marked due for the bot worker (its due mark), if it is."""
        return self.client.zscore(keys.bot_tables(), sid)

    def bot_tables_due(self, limit: int = 100) -> list[str]:
        return self.client.zrangebyscore(keys.bot_tables(), "-inf", time.time(), 0, limit)

    def lock_bot(self, sid: str, holder: str, seconds: float) -> bool:
        """One bot worker thinks for a session at a time (the lock expires on its own)."""
        return bool(self.client.set(keys.bot_lock(sid), holder, nx=True,
                                    px=int(seconds * 1000)))

    def unlock_bot(self, sid: str) -> None:
        self.client.delete(keys.bot_lock(sid))

    def ping(self) -> bool:
        return bool(self.client.ping())
