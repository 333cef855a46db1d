"""Schemathesis hooks for tests/test_api_fuzz.py (loaded by the schemathesis CLI
through ``SCHEMATHESIS_HOOKS=fuzz_hooks``, in the fuzzer's own process).

Session tokens. Every session route needs ``Authorization: Bearer <token>`` (the
document's ``token`` security scheme), and the token is a secret the server hands
out once, in the ``createSession`` answer. ``after_call`` keeps each created
session's answer; the auth provider ``SessionTokens`` then gives each request on
``/v1/sessions/{sid}/…`` a token of *that* session (the one the OpenAPI link
from ``createSession`` filled ``sid`` from), or, for an id the fuzzer made up,
a token of the last session created (the server answers 404 before it reads
the token). Which of the session's tokens: the table token where only the table
may act (end, start, re-issue a seat's token), else the token of the seat to
move (known from the last answer that said who is to move), else seat 1's.
Schemathesis still sends requests without a token or with a wrong one on its
own (the ``ignored_auth`` check): those must be 401.

Coverage. ``after_call`` also counts each operation's answers by status; when
``FUZZ_RECORD`` names a file, the counts are written there as JSON at exit, so
the test can prove every operation was reached and which answered 2xx.
"""

import atexit
import json
import os
import re
import threading
from collections import Counter, defaultdict

import schemathesis

SESSION_PATH = re.compile(r"^/v1/sessions/\{sid\}")
TABLE_ONLY = {"deleteSession", "startSession", "reissueSeatToken"}

_lock = threading.Lock()
_sessions: dict[str, dict] = {}  # session id → the createSession answer
_to_move: dict[str, list] = {}  # session id → who is to move, as last answered
_last: list[dict] = []  # the last createSession answer
_statuses: dict[str, Counter] = defaultdict(Counter)


@schemathesis.hook
def after_call(context, case, response):
    operation = case.operation
    answer = _json(response)
    with _lock:
        _statuses[operation.label][str(response.status_code)] += 1
        if operation.method.upper() == "POST" and operation.path == "/v1/sessions" \
                and response.status_code == 201 and isinstance(answer, dict):
            _sessions[answer["session_id"]] = answer
            _last[:] = [answer]
        sid = (case.path_parameters or {}).get("sid") or (answer or {}).get("session_id")
        if isinstance(answer, dict) and isinstance(answer.get("to_move"), list) and sid:
            _to_move[sid] = answer["to_move"]


def _json(response):
    try:
        return response.json() if response.status_code < 300 else None
    except ValueError:
        return None


@schemathesis.auth(refresh_interval=None).apply_to(path_regex=SESSION_PATH.pattern)
class SessionTokens:
    def get(self, case, context):
        sid = (case.path_parameters or {}).get("sid")
        with _lock:
            created = _sessions.get(sid) or (_last[0] if _last else None)
            to_move = _to_move.get(sid, [])
        if created is None:
            return None  # no session yet: the request goes without a token (401 or 404)
        seats = {s["seat"]: s["token"] for s in created.get("seats", []) if "token" in s}
        if case.operation.definition.raw.get("operationId") in TABLE_ONLY or not seats:
            return created["table_token"]
        acting = next((s for s in to_move if s in seats), 1)
        return seats.get(acting, created["table_token"])

    def set(self, case, token, context):
        case.headers = dict(case.headers or {}, Authorization=f"Bearer {token}")


def _write_record():
    path = os.environ.get("FUZZ_RECORD")
    if path:
        with open(path, "w", encoding="utf-8") as out:
            json.dump({"statuses": {op: dict(c) for op, c in _statuses.items()},
                       "sessions_created": len(_sessions)}, out, indent=1, sort_keys=True)


atexit.register(_write_record)
