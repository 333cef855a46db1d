"""The yardstick for session moves: a minimal two-hop echo under the same gunicorn.

``gateway_app`` is gateway-shaped (a JSON POST forwarded with a per-thread
requests.Session and explicit timeouts); ``service_app`` echoes the body.
"""

import os
import threading

import requests
from flask import Flask, Response, request

_local = threading.local()


def service_app():
    app = Flask("echo-service")

    @app.post("/v1/echo")
    def echo():
        return Response(request.get_data(), mimetype="application/json")

    @app.get("/readyz")
    def ready():
        return {"status": "ready"}

    return app


def gateway_app():
    app = Flask("echo-gateway")
    upstream = os.environ["ECHO_SERVICE_URL"]

    @app.post("/v1/sessions/<sid>/moves")
    def move(sid):
        session = getattr(_local, "session", None) or requests.Session()
        _local.session = session
        answer = session.post(f"{upstream}/v1/echo", data=request.get_data(), timeout=(1, 10),
                              headers={"Content-Type": "application/json"})
        return Response(answer.content, answer.status_code, mimetype="application/json")

    @app.get("/readyz")
    def ready():
        return {"status": "ready"}

    return app
