"""Operating's cost in the same server processes: one app per side, told apart by port.

    PAIRED_PORTS=on=8001,off=8002,control=8003 METRICS_PORT=9100 \\
    gunicorn -c python:referee.gunicorn_conf --pythonpath bench \\
        -b 127.0.0.1:8001 -b 127.0.0.1:8002 -b 127.0.0.1:8003 -b 127.0.0.1:9100 'paired:service()'

A gunicorn server runs three apps side by side: ``on`` as deployed (its metrics port,
``LOG_LEVEL=info``), ``off`` and ``control`` with both off (``METRICS_PORT=0`` and access
lines below the level). Which one answers is the port asked (the metrics port is the on
app's). So the sides share everything that differs from one server process to the next
(where its memory lies, which core it runs on, its connections' buffers): on the shared
two-core machine this was built on, two processes of the same app differed by up to ±5 %,
which hid the cost measured. The level is the process's (it is logging's): it is set
for each request's side, and the bench moves on one side at a time.

``PAIRED_SERVICES`` (the gateway's): ``on=http://…,off=…,control=…``, each side's game
service (a paired service's ports).
"""

import logging
import os

from referee.logs import LEVELS

SIDES = {"on": "info", "off": "warning", "control": "warning"}


def pairs(variable: str) -> dict[str, str]:
    """``on=a,off=b`` → ``{"on": "a", "off": "b"}``."""
    return dict(item.split("=", 1) for item in os.environ[variable].split(","))


def by_port(build) -> callable:
    """A WSGI app passing each request to its port's side's app, ``build(side, counting)``."""
    ports, root = pairs("PAIRED_PORTS"), logging.getLogger()
    sides = {port: (build(side, SIDES[side] == "info"), LEVELS[SIDES[side]])
             for side, port in ports.items()}
    on = sides[ports["on"]]

    def dispatch(environ, start_response):
        app, level = sides.get(environ.get("SERVER_PORT"), on)  # the metrics port: on's
        if root.level != level:
            root.setLevel(level)
        return app(environ, start_response)

    return dispatch


def metrics_port(counting: bool) -> int:
    return int(os.environ.get("METRICS_PORT", "9100")) if counting else 0  # as gunicorn_conf


def service(game: str = "ghostone"):
    from importlib import import_module
    create_app = import_module(f"{game}.service").create_app
    return by_port(lambda side, counting: create_app({"METRICS_PORT": metrics_port(counting)}))


def gateway(game: str = "ghostone"):
    from referee_gateway import create_app
    services = pairs("PAIRED_SERVICES")
    return by_port(lambda side, counting: create_app({
        "METRICS_PORT": metrics_port(counting), "GAME_SERVICES": {game: services[side]}}))
