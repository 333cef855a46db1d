"""gunicorn settings for every service and the gateway, from the environment.

    gunicorn -c python:referee.gunicorn_conf 'ghostone.service:create_app()'
"""

import os

bind = os.environ.get("BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# Threads let a gateway worker wait on a game service without idling the CPU.
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "20"))
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))
accesslog = os.environ.get("ACCESS_LOG") or None  # "-" logs each request to stdout
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
# Several servers run side by side on one host (`make run`): no shared control socket.
control_socket_disable = True
