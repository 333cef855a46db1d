"""Examples for the gateway's own routes in the OpenAPI document (issue 11.5): every route
has an example request and answer, and the session routes one per game.

Each game service documents its stateless routes with examples it computed by playing (a
real state, a legal move, the answer the engine gave): the session routes' examples are made
from those, so they show that game's real moves, views and scores. Tokens and ids are
placeholders of the right shape (a real one is shown once, to its holder).
"""

from referee.engine import CHANCE
from referee.errors import RefereeError

SID = "hZ3k9Qp1xY7aBc2D"
TOKEN = "seat-1-token-shown-once-0123456789abcdef"
TABLE = "table-token-shown-once-0123456789abcdef"
SPECTATOR = "spectator-token-0123456789abcdef0123"
TICKET = "single-use-stream-ticket-0123456789ab"


def _example(operation: dict, where: str = "answer", status: str = "200"):
    """An operation's example body (request, or the answer of ``status``), or None."""
    if where == "request":
        content = operation.get("requestBody", {}).get("content", {})
    else:
        content = operation.get("responses", {}).get(status, {}).get("content", {})
    return content.get("application/json", {}).get("example")


def _set(operation: dict, value, where: str = "answer", status: str = "200",
         game: str | None = None, media: str = "application/json") -> None:
    """Put an example on an operation; with ``game``, one named example per game."""
    if where == "request":
        content = operation.setdefault("requestBody", {"content": {}}).setdefault(
            "content", {}).setdefault(media, {})
    else:
        content = operation["responses"].setdefault(status, {"description": ""}).setdefault(
            "content", {}).setdefault(media, {})
    if game is None:
        content["example"] = value
    else:
        content.setdefault("examples", {})[game] = {"summary": game, "value": value}


def _stateless(document: dict, game: str, action: str) -> dict:
    return document["paths"].get(f"/v1/games/{game}/{action}", {}).get("post", {})


def session_examples(document: dict, infos: dict[str, dict], catalogs: dict[str, dict]) -> None:
    paths = document["paths"]
    op = lambda path, method: paths.get(path, {}).get(method)  # noqa: E731
    games = sorted(infos)
    if games:
        _set(op("/v1/games", "get"), {"games": [dict(infos[g], available=True) for g in games]})
        _set(op("/v1/games/{game}", "get"), infos[games[0]])
    for game, catalog in catalogs.items():
        components = op(f"/v1/games/{game}/components", "get")
        if components:
            _set(components, catalog)
    for game in games:
        new = _stateless(document, game, "new")
        created, asked = _example(new), _example(new, "request")
        if not created or not asked:
            continue
        state = created["state"]
        players = state["players"]
        view = _example(_stateless(document, game, "view")) or {}
        view = view.get("view", created.get("view", {}))
        seats_taken = [{"seat": s, "status": "taken"} for s in range(1, players + 1)]
        body = {k: v for k, v in asked.items() if k != "view_as"}
        _set(op("/v1/sessions", "post"), dict(body, game=game), "request", game=game)
        _set(op("/v1/sessions", "post"), {
            "session_id": SID, "game": game, "mode": state["mode"], "players": players,
            "version": state["version"], "to_move": state["to_move"], "started": True,
            "seats": [{"seat": s, "token": TOKEN.replace("1", str(s), 1)}
                      for s in range(1, players + 1)],
            "table_token": TABLE, "spectator_token": SPECTATOR, "view": view},
            status="201", game=game)
        shown = {"session_id": SID, "game": game, "mode": state["mode"],
                 "version": state["version"], "to_move": state["to_move"], "started": True,
                 "seats": seats_taken, "you": {"role": "seat", "seat": 1}, "view": view}
        _set(op("/v1/sessions/{sid}", "get"), shown, game=game)
        for kind in ("undo", "redo"):  # a table's correction, answered with its view
            if op(f"/v1/sessions/{{sid}}/{kind}", "post") is not None:
                _set(op(f"/v1/sessions/{{sid}}/{kind}", "post"), dict(
                    shown, version=14, you={"role": "table", "seat": None}, entry={
                        "version": 14, "correction": kind, "to_version": 12,
                        "from_version": 13, "versions": [13]}), game=game)
        listing = _example(_stateless(document, game, "legal-moves"))
        if listing:
            _set(op("/v1/sessions/{sid}/legal-moves", "get"),
                 dict(listing, game=game, version=state["version"]), game=game)
            first = next((m for m in listing["moves"] if m.get("seat") != CHANCE), None)
            if first:
                _set(op("/v1/sessions/{sid}/hint", "get"),
                     {"game": game, "move": first, "level": "greedy",
                      "version": state["version"]}, game=game)
        applied = _example(_stateless(document, game, "apply"))
        move = (_example(_stateless(document, game, "apply"), "request") or {}).get("move")
        if applied and move:
            _set(op("/v1/sessions/{sid}/moves", "post"),
                 {"move": {k: v for k, v in move.items() if k not in ("text", "p")}},
                 "request", game=game)
            after = applied["state"]
            _set(op("/v1/sessions/{sid}/moves", "post"), dict(
                shown, version=after["version"], to_move=after["to_move"],
                view=applied.get("view", view), move=applied.get("view_move", applied["move"]),
                events=applied.get("view_events", applied["events"])), game=game)
        # a preview asks for a move of the game's previewed kinds (a build, a placement)
        previewed = set(infos[game].get("previewed_moves") or ())
        asked = next((m for m in (listing or {}).get("moves", ())
                      if m.get("type") in previewed and m.get("seat") != CHANCE), move)
        if asked and op("/v1/sessions/{sid}/preview.svg", "post"):
            _set(op("/v1/sessions/{sid}/preview.svg", "post"),
                 {"move": {k: v for k, v in asked.items() if k not in ("text", "p", "describe")}},
                 "request", game=game)
        score = _example(_stateless(document, game, "score"))
        if score:
            _set(op("/v1/sessions/{sid}/score", "get"), dict(score, game=game), game=game)
        logged = _example(_stateless(document, game, "view-log"))
        if logged:
            _set(op("/v1/sessions/{sid}/log", "get"), dict(
                logged, game=game, version=state["version"], next=state["version"]),
                 game=game)
    _static_examples(op)


def _static_examples(op) -> None:
    """The routes that look the same whatever the game."""
    seats = [{"seat": 1, "status": "taken"}, {"seat": 2, "status": "open"}]
    changed = lambda change: {"session_id": SID, "version": 3, "started": False,  # noqa: E731
                              "players": 2, "seats": seats, "entry": {
                                  "version": 3, "seats": change, "by": "table", "at": 1.7e9}}
    for path, method, where, status, value in [
        ("/v1/sessions/join", "post", "request", None, {"code": "K4TM-9XQR", "seat": "any"}),
        ("/v1/sessions/join", "post", "answer", "201", {
            "session_id": SID, "game": "gematon", "seat": 2, "token": TOKEN,
            "version": 2, "started": True, "seats": [{"seat": 1, "status": "taken"},
                                                     {"seat": 2, "status": "taken"}]}),
        ("/v1/sessions/{sid}/start", "post", "answer", "200",
         changed({"change": "started", "players": 1})),
        ("/v1/sessions/{sid}/leave", "post", "request", None, {"seat": 2}),
        ("/v1/sessions/{sid}/leave", "post", "answer", "200", changed({
            "change": "absent", "seat": 2, "status": "absent"})),
        ("/v1/sessions/{sid}/seats/{seat}/token", "post", "answer", "200", {
            "seat": 2, "token": TOKEN, "version": 4}),
        ("/v1/sessions/{sid}/seats/{seat}/bot", "put", "request", None, {"level": "strong"}),
        ("/v1/sessions/{sid}/seats/{seat}/bot", "put", "answer", "200", changed({
            "change": "bot", "level": "strong", "seat": 2})),
        ("/v1/sessions/{sid}/seats/{seat}/bot", "delete", "answer", "200", changed({
            "change": "bot_removed", "seat": 2})),
        ("/v1/sessions/{sid}/events/ticket", "post", "answer", "200", {
            "ticket": TICKET, "expires_in": 60,
            "events_url": f"/v1/sessions/{SID}/events?ticket={TICKET}"}),
        ("/v1/sessions/{sid}/undo", "post", "request", None, {"to_version": 12}),
        ("/v1/sessions/{sid}/redo", "post", "request", None, {}),
        ("/v1/lobby", "get", "answer", "200", {"tables": [{
            "session_id": SID, "game": "gematon", "mode": "digital", "players": 2,
            "open_seats": [2], "created": 1795000000}]}),
    ]:
        operation = op(path, method)
        if operation is not None and (where == "request" or status in operation["responses"]):
            _set(operation, value, where, status or "200")
    events = op("/v1/sessions/{sid}/events", "get")
    if events:
        _set(events, 'retry: 2000\n\nid: 7\nevent: move\ndata: {"version": 7, "kind": "move", '
                     '"entry": {…}, "view": {…}, "to_move": [2]}\n\n',
             media="text/event-stream")
    for path, method, title in (("/v1/sessions/{sid}/picture.svg", "get", "seat 1 to move"),
                                ("/v1/sessions/{sid}/preview.svg", "post",
                                 "seat 1's operation, previewed")):
        if op(path, method):
            _set(op(path, method), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 390 '
                                   f'600"><title>Gematon, {title}</title>…</svg>',
                 media="image/svg+xml")


def register(app, api) -> None:
    """Complete the served document with the examples (after every game's paths are in)."""
    upstream = app.extensions["upstream"]

    def document_examples(document: dict) -> bool:
        infos, catalogs = {}, {}
        for game in sorted(upstream.services):
            try:
                infos[game] = upstream.call(game, "/v1/info")
                catalogs[game] = upstream.call(game, "/v1/components")
            except RefereeError:  # that game's examples next time the document is built
                return False
        session_examples(document, infos, catalogs)
        return True

    api.extenders.append(document_examples)
