"""A gateway worker's limits, derived from each other in one place.

gunicorn's gevent worker accepts at most ``GUNICORN_WORKER_CONNECTIONS`` connections at
once; past that it stops accepting, and every client waits in silence. So a worker holds
fewer event streams than that (``STREAM_MAX_PER_WORKER``, by default four fifths): the
rest of its connections answer moves, ``/readyz`` and the 503 of every further stream.

A stream holds a Redis connection only while it reads (a wake, a heartbeat), never while
it waits; the pool (``REDIS_MAX_CONNECTIONS`` per worker) makes a caller wait for a free
connection up to ``REDIS_POOL_TIMEOUT`` seconds instead of failing, so a few dozen
connections serve thousands of streams waking at once.

gunicorn's settings and the gateway's config both read them from here.
"""

import os
from collections.abc import Mapping

WORKER_CONNECTIONS = 2000  # gunicorn's own default
STREAM_SHARE = 0.8  # of a worker's connections that streams may hold
REDIS_MAX_CONNECTIONS = 64
REDIS_SOCKET_TIMEOUT = 1.0  # seconds a Redis command may take before it fails


def worker_connections(env: Mapping = os.environ) -> int:
    return int(env.get("GUNICORN_WORKER_CONNECTIONS", WORKER_CONNECTIONS))


def stream_limit(env: Mapping = os.environ) -> int:
    """Open streams per worker: ``STREAM_MAX_PER_WORKER``, else a share of the worker's
    connections. Refused when it leaves no connection for anything else."""
    connections = worker_connections(env)
    limit = int(env.get("STREAM_MAX_PER_WORKER") or int(connections * STREAM_SHARE))
    if limit >= connections:
        raise ValueError(f"STREAM_MAX_PER_WORKER ({limit}) must be below "
                         f"GUNICORN_WORKER_CONNECTIONS ({connections}): at the limit a "
                         "worker must still accept moves, /readyz and its 503s")
    return limit


def redis_max_connections(env: Mapping = os.environ) -> int:
    return int(env.get("REDIS_MAX_CONNECTIONS", REDIS_MAX_CONNECTIONS))


def redis_socket_timeout(env: Mapping = os.environ) -> float:
    return float(env.get("REDIS_SOCKET_TIMEOUT", REDIS_SOCKET_TIMEOUT))


def redis_pool_timeout(env: Mapping = os.environ) -> float:
    """Seconds a caller waits for a free pooled connection (then a ConnectionError)."""
    return float(env.get("REDIS_POOL_TIMEOUT", redis_socket_timeout(env)))
