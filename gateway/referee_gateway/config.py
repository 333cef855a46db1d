"""The gateway's settings, all from the environment (12-factor)."""

import os

from referee import capacity
from referee.catalog import default_service_urls


def parse_services(text: str) -> dict[str, str]:
    """``"ghostone=http://host:8101,gematon=http://…"`` → ``{game: base URL}``."""
    services = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        game, sep, url = item.partition("=")
        if not sep or not game or not url.startswith(("http://", "https://")):
            raise ValueError(f"GAME_SERVICES entry \"{item}\" is not game=http://host:port")
        services[game.strip()] = url.strip().rstrip("/")
    return services


def from_environment() -> dict:
    env = os.environ
    return {
        "REDIS_URL": env.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "REDIS_CLUSTER": env.get("REDIS_CLUSTER", "") in ("1", "true", "yes"),
        "GAME_SERVICES": parse_services(env["GAME_SERVICES"]) if env.get("GAME_SERVICES")
        else default_service_urls(),
        "SESSION_TTL_SECONDS": int(env.get("SESSION_TTL_SECONDS", 7 * 24 * 3600)),
        "UPSTREAM_CONNECT_TIMEOUT": float(env.get("UPSTREAM_CONNECT_TIMEOUT", 1.0)),
        "UPSTREAM_READ_TIMEOUT": float(env.get("UPSTREAM_READ_TIMEOUT", 10.0)),
        "MAX_CONTENT_LENGTH": int(env.get("MAX_BODY_BYTES", 1 << 20)),
        "RETRY_AFTER_SECONDS": int(env.get("RETRY_AFTER_SECONDS", 2)),
        # per known token's seat (else per address) and minute; 0 turns the limit off
        "RATE_LIMIT_PER_MINUTE": int(env.get("RATE_LIMIT_PER_MINUTE", 1200)),
        # the proxies in front that append to X-Forwarded-For (the Kubernetes Ingress: 1);
        # 0: the header is ignored, the address is the connection's
        "TRUSTED_PROXY_HOPS": int(env.get("TRUSTED_PROXY_HOPS", 0)),
        # origins a browser app may call from; "*" is safe: tokens travel in headers, never
        # cookies, so no credentials are ever allowed
        "CORS_ORIGINS": [o.strip() for o in env.get("CORS_ORIGINS", "*").split(",") if o.strip()],
        # event streams: a comment line this often on an idle stream; past this many open
        # streams a worker answers 503 with Retry-After (below its gunicorn connections)
        "STREAM_HEARTBEAT_SECONDS": float(env.get("STREAM_HEARTBEAT_SECONDS", 15)),
        "STREAM_MAX_PER_WORKER": capacity.stream_limit(env),
        "REDIS_MAX_CONNECTIONS": capacity.redis_max_connections(env),
        # a PING this often, with this timeout, on a connection of its own (probe.py)
        "REDIS_PROBE_SECONDS": float(env.get("REDIS_PROBE_SECONDS", 1.0)),
        "REDIS_PROBE_TIMEOUT": float(env.get("REDIS_PROBE_TIMEOUT", 0.5)),
        "STREAM_BUILDERS": int(env.get("STREAM_BUILDERS", 8)),
        # how long a stream ticket (POST …/events/ticket) may wait to open its stream
        "STREAM_TICKET_SECONDS": int(env.get("STREAM_TICKET_SECONDS", 60)),
        # join attempts with an unknown code per address and minute, then 429
        "JOIN_FAILURES_PER_MINUTE": int(env.get("JOIN_FAILURES_PER_MINUTE", 10)),
    }
