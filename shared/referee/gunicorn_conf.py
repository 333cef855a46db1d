"""gunicorn settings for every service and the gateway, from the environment.

    gunicorn -c python:referee.gunicorn_conf 'ghostone.service:create_app()'

Besides the public address (``BIND``) a server listens on ``METRICS_PORT``
(default 9100; 0: no metrics), where ``/metrics`` alone is served. Its metrics
go through prometheus_client's multiprocess mode so the workers add up: the
master empties ``PROMETHEUS_MULTIPROC_DIR`` (or makes a private one) before the
first worker forks. Every line the server writes is JSON (:mod:`referee.logs`).
Nothing happens at import but a check that the stream limit leaves connections free
(:mod:`referee.capacity`): this module is also imported by running workers.
"""

import os
import shutil
import tempfile

from referee import capacity

bind = [os.environ.get("BIND", "0.0.0.0:8000")]
METRICS_PORT = int(os.environ.get("METRICS_PORT", "9100"))
if METRICS_PORT:  # a second listener; the ingress and the Service route only the first
    bind.append(f"{bind[0].rpartition(':')[0] or '0.0.0.0'}:{METRICS_PORT}")
# The image's app (the one Dockerfile's APP build argument); a command-line app wins.
if os.environ.get("REFEREE_APP"):
    wsgi_app = os.environ["REFEREE_APP"]
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# Threads let a worker wait on a game service without idling the CPU; the gateway runs
# gevent (GUNICORN_WORKER_CLASS=gevent): its event streams are idle greenlets, not threads.
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gthread")
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
worker_connections = capacity.worker_connections()  # gevent; streams stay below it
capacity.stream_limit()  # a limit that leaves no connection free stops the server now
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "20"))
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))
accesslog = os.environ.get("ACCESS_LOG") or None  # "-" logs each request to stdout
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
logger_class = "referee.logs.GunicornLogger"  # gunicorn's own lines as JSON too
private_metrics_directory = None  # made by the master when none is given; removed on exit
# Several servers run side by side on one host (`make run`): no shared control socket.
control_socket_disable = True


def post_worker_init(worker):
    """Keep the worker at hand: long-lived streams end as soon as it begins to stop."""
    global running_worker
    running_worker = worker


def on_starting(server):
    """In the master, before any worker forks (they inherit both)."""
    from referee import logs
    logs.configure(loglevel)
    if METRICS_PORT:
        fresh_metrics_directory()


def fresh_metrics_directory() -> None:
    """PROMETHEUS_MULTIPROC_DIR emptied of a previous run's files, or a private one."""
    global private_metrics_directory
    path = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not path:
        path = private_metrics_directory = tempfile.mkdtemp(prefix="referee-metrics-",
                                                            dir=memory_directory())
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = path
    os.makedirs(path, exist_ok=True)
    for name in os.listdir(path):
        if name.endswith(".db"):  # prometheus_client's files, nothing else
            os.remove(os.path.join(path, name))


def memory_directory() -> str | None:
    """Where a metrics directory goes when none is given: a memory filesystem
    (``/dev/shm``), as the pods' ``emptyDir`` of medium Memory. Every count is a write to a
    memory-mapped file; on a disk each such page is written back, again and again."""
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK) else None


def child_exit(server, worker):
    """A worker's live gauges (open event streams) leave with it."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess
        multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    if private_metrics_directory:
        shutil.rmtree(private_metrics_directory, ignore_errors=True)
