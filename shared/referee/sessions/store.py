"""The session store: atomic create, load and compare-and-set move writes.

Tokens are kept only as SHA-256 hashes and compared in constant time; every
key carries the session's expiry, renewed by each write (sessions expire after
``ttl`` seconds without a move); writes are Lua scripts, so a move, its log
entry and its idempotency record land together or not at all.
"""

import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass
from importlib.resources import files

import redis
from redis.backoff import ExponentialBackoff
from redis.retry import Retry

from ..errors import UnknownSession
from . import keys

ROLES = ("table", "spectator")


def connect(url: str, cluster: bool = False):
    """One client (connection pool) per process, with timeouts and a bounded retry."""
    options = dict(socket_timeout=2.0, socket_connect_timeout=2.0, decode_responses=True,
                   retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), 2))
    if cluster:
        from redis.cluster import RedisCluster
        return RedisCluster.from_url(url, **options)
    return redis.Redis.from_url(url, health_check_interval=30, **options)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


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

    def identify(self, token: str) -> Caller | None:
        """Who holds ``token``: every stored hash is compared, in constant time each."""
        presented, found = digest(token), None
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

    def create(self, game: str, state: dict) -> tuple[str, dict]:
        """A new session: its id and its tokens (shown once, stored as hashes)."""
        tokens = {f"seat:{s}": new_token() for s in range(1, state["players"] + 1)}
        tokens.update({role: new_token() for role in ROLES})
        meta = {"game": game, "mode": state["mode"], "players": state["players"],
                "version": state["version"], "created": int(time.time())}
        meta.update({f"token:{name}": digest(t) for name, t in tokens.items()})
        pairs = [str(x) for kv in meta.items() for x in kv]
        for _ in range(3):
            sid = secrets.token_urlsafe(12)
            if self._create(keys=[keys.meta(sid), keys.state(sid)],
                            args=[self.ttl, json.dumps(state), *pairs]):
                return sid, tokens
        raise RuntimeError("could not draw a free session id")

    def load(self, sid: str) -> Session:
        pairs, state = self._load(keys=[keys.meta(sid), keys.state(sid)])
        if not pairs or state is None:
            raise UnknownSession(f"no session {sid!r} (never created, deleted or expired)")
        meta = dict(zip(pairs[::2], pairs[1::2]))
        return Session(sid, meta, json.loads(state))

    def commit(self, session: Session, state: dict, entry: dict,
               idempotency: tuple[str, dict] | None = None) -> bool:
        """Write ``state`` if nobody moved first; False when the version moved on."""
        sid = session.sid
        idem_key, idem_value = (keys.idempotency(sid, idempotency[0]),
                                json.dumps(idempotency[1])) if idempotency else (
            keys.idempotency(sid, "-"), "")
        written = self._commit(
            keys=[keys.meta(sid), keys.state(sid), keys.log(sid), idem_key],
            args=[session.version, state["version"], json.dumps(state),
                  json.dumps(entry), self.ttl, idem_value])
        if written == -1:
            raise UnknownSession(f"session {sid!r} ended while the move was played")
        return written == 1

    def idempotent_answer(self, sid: str, key_digest: str) -> dict | None:
        record = self.client.get(keys.idempotency(sid, key_digest))
        return json.loads(record) if record else None

    def log(self, sid: str, since: int) -> list[dict]:
        entries = [json.loads(e) for e in self.client.lrange(keys.log(sid), 0, -1)]
        return [e for e in entries if e["version"] > since]

    def delete(self, sid: str) -> None:
        for key in keys.all_of(sid):  # one key per call: legal on a cluster too
            self.client.delete(key)

    def ping(self) -> bool:
        return bool(self.client.ping())
