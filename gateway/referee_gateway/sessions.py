"""Session routes: server-held games with a secret token per seat.

Who may do what is decided here, from the token alone: a seat token sees and
moves for its own seat; the table token administers the session and, in a
tabletop session, enters moves for any seat and chance outcomes; a spectator
token sees the public view. In a companion session each seat also enters the chance
outcomes that go into its own hand, and the table token (or any seat) the public ones;
the table token sees what the spectator sees (the game service checks who enters what,
``Engine.entries``). Every move is a compare-and-set on the version.
"""

import hashlib
import json
import re

from flask import Response, current_app, request

from referee import schemas
from referee.engine import CHANCE, canonical
from referee.errors import (
    BadRequest, EntryConflict, Forbidden, NotStarted, Unprocessable, UpstreamProblem,
)
from referee.web import json_response

from .access import (
    IDEMPOTENCY_KEY, IF_MATCH, Change, bumped, load, matches as _matches, spoken, summary,
    version_header as _version_header, view_seat, write,
)
from .lobby import new_join_code
from .seatbots import NO_COMPANION_BOTS, bot_seats
from .logview import redact_entries, setup_entry
from .redacted import for_watchers, pushed_events

#: where a created session leads: every session route takes its id from the answer
SESSION_LINKS = {name: {"operationId": op, "parameters": {"sid": "$response.body#/session_id"},
                        "description": f"{name} of the session just created"}
                 for name, op in (("view", "getSession"), ("legalMoves", "listSessionMoves"),
                                  ("move", "playMove"), ("score", "getSessionScore"),
                                  ("log", "getSessionLog"), ("end", "deleteSession"),
                                  ("events", "streamSessionEvents"), ("undo", "undoSession"),
                                  ("redo", "redoSession"), ("start", "startSession"),
                                  ("reissue", "reissueSeatToken"), ("leave", "leaveSeat"),
                                  ("seatBot", "seatBot"), ("unseatBot", "unseatBot"),
                                  ("hint", "getHint"))}
__all__ = ["register", "_matches", "_version_header"]

MOVE_TYPE = re.compile(r"[a-z_]{1,40}")
SPEND = re.compile(r"[a-z_]{1,40}(,[a-z_]{1,40}){0,39}")  # the query's own rule, documented
#: the query parameters that narrow a legal-moves listing (the match of /v1/legal-moves)
MOVE_FILTERS = [
    {"name": "type", "in": "query", "required": False, "description": "only moves of this type",
     "schema": {"type": "string", "minLength": 1, "maxLength": 40, "pattern": "^[a-z_]+$"},
     "example": "build"},
    {"name": "card", "in": "query", "required": False,
     "description": "only the moves of this card (its id)",
     "schema": {"type": "integer", "minimum": 0, "maximum": 10**9 - 1}, "example": 213},
    {"name": "spend", "in": "query", "required": False,
     "description": "only the moves spending these spheres, colours separated by commas, in "
                    "any order (Gizmos: with card, every Converter set of that spend; the "
                    "listing holds one per spend)",
     "schema": {"type": "string", "maxLength": 1639, "pattern": f"^{SPEND.pattern}$"},
     "example": "black,red"},
]


def move_filter(args) -> dict:
    """The match a legal-moves listing is narrowed by: ``?type=build&card=213``,
    ``&spend=black,red``."""
    match = {}
    kind, card, spend = args.get("type"), args.get("card"), args.get("spend")
    if kind is not None:
        if not MOVE_TYPE.fullmatch(kind):
            raise BadRequest("type must be a move type such as build")
        match["type"] = kind
    if card is not None:
        if not (card.isascii() and card.isdigit()) or len(card) > 9:
            raise BadRequest("card must be a card id, a whole number")
        match["card"] = int(card)
    if spend is not None:
        if not SPEND.fullmatch(spend):
            raise BadRequest("spend must be colours separated by commas, such as black,red")
        match["spend"] = spend.split(",")
    return match


def register(app, api):
    store = app.extensions["sessions"]
    upstream = app.extensions["upstream"]
    route = api.route

    def load_session(sid):
        return load(store, sid)

    @route(app, "/v1/sessions", "POST",
           summary="Create a session: one token per seat, shown once",
           body=schemas.CreateSessionRequest, answer=schemas.SessionCreated, status=201,
           errors=(400, 404, 422, 503), tag="sessions", operation_id="createSession",
           links=SESSION_LINKS)
    def create(body):
        game, open_seats, public = body.pop("game"), body.pop("seats") == "open", \
            body.pop("public")
        if public and not open_seats:
            raise BadRequest('only a table with open seats ("seats": "open") is public')
        bots = bot_seats(body.pop("bots"), body["players"])
        if bots and body["mode"] == "companion":
            raise Unprocessable(NO_COMPANION_BOTS)
        answer = upstream.call(game, "/v1/new", dict(body, view_as=None))
        state = answer["state"]
        open_seats = open_seats and len(bots) < state["players"]  # all bots: no lobby
        # the request: a start with fewer seats deals anew from it; origin: where undo stops
        extra = {"request": json.dumps(body), "origin": state["version"]}
        code = None
        if open_seats:
            code = new_join_code(store)
            extra.update(join_code=code, public=int(public))
        sid, tokens = store.create(game, state, open_seats=open_seats, extra=extra,
                                   setup=setup_entry(state, answer.get("events")), bots=bots)
        if bots:  # the bot worker plays them from now on (at once if one is to move)
            store.watch_bots(sid)
        if open_seats:
            store.bind_code(code, sid)
            if public:
                store.list_table(sid)
        created = {
            "session_id": sid, "game": game, "mode": state["mode"],
            "players": state["players"], "version": state["version"],
            "to_move": state["to_move"], "started": not open_seats,
            "seats": [{"seat": s, "status": "bot", "bot": bots[s]} if s in bots else
                      {"seat": s, "token": tokens[f"seat:{s}"]} if not open_seats else
                      {"seat": s, "status": "open"} for s in range(1, state["players"] + 1)],
            "table_token": tokens["table"], "spectator_token": tokens["spectator"],
            "view": answer["view"],
        }
        if open_seats:
            created.update(join_code=spoken(code), public=public)
        return json_response(created, 201, {"Location": f"/v1/sessions/{sid}",
                                            "ETag": f'"{state["version"]}"',
                                            "Cache-Control": "no-store"})

    @route(app, "/v1/sessions/<session_id:sid>", "GET",
           summary="The caller's view of the session",
           answer=schemas.SessionView, errors=(304, 401, 404, 503), security=True,
           description="ETag is the version; If-None-Match with it answers 304.",
           tag="sessions", operation_id="getSession")
    def show(sid):
        session, caller = load_session(sid)
        etag = f'"{session.version}"'
        if _matches(request.headers.get("If-None-Match"), session.version):
            return Response(status=304, headers={"ETag": etag})
        view = upstream.call(session.game, "/v1/view",
                             {"state": session.state, "seat": view_seat(caller)})["view"]
        return json_response(summary(session, caller, session.state, view), 200,
                             {"ETag": etag})

    @route(app, "/v1/sessions/<session_id:sid>/legal-moves", "GET",
           summary="The caller's legal moves now",
           answer=schemas.SessionLegalMoves, errors=(400, 401, 403, 404, 409, 503),
           security=True, tag="sessions", operation_id="listSessionMoves",
           params=MOVE_FILTERS,
           description="`?card=213` lists one card's moves only (a Gizmos page shows a card, "
                       "then its ways to pay), `?type=build` one kind of move. Gizmos lists "
                       "one Build per card and spend, with one of its Converter sets "
                       "(`other_converters: true` when it has more): `?card=213&spend=black,red` "
                       "lists every set of that spend.")
    def legal_moves(sid):
        match = move_filter(request.args)
        session, caller = load_session(sid)
        if caller.role == "spectator":
            raise Forbidden("a spectator has no moves")
        if not session.started:
            raise NotStarted("the game has not started: no seat has moves yet")
        if caller.role == "table" and session.meta["mode"] == "digital":
            raise Forbidden("in a digital session each seat asks with its own token")
        listing = upstream.call_object(session.game, "/v1/legal-moves",
                                       {"state": session.state, "seat": view_seat(caller),
                                        "view_as": view_seat(caller), "match": match})
        # {"game": g, "version": v, …the service's answer}: spliced, not decoded (it can be
        # megabytes); the game is a registered name, no character of it needs escaping
        head = b'{"game":"%s","version":%d,' % (session.game.encode(), session.version)
        return Response(head + listing[1:], 200,
                        {"ETag": f'"{session.version}"'}, mimetype="application/json")

    @route(app, "/v1/sessions/<session_id:sid>/moves", "POST",
           summary="Play a move",
           body=schemas.MoveRequest, answer=schemas.SessionMoved,
           errors=(400, 401, 403, 404, 409, 412, 422, 503), tag="sessions",
           operation_id="playMove", security=True, params=[IF_MATCH, IDEMPOTENCY_KEY],
           description="The move's seat may be left out: the token's seat is used. Without "
                       "If-Match a move that lost a race is re-validated on the new position. "
                       "Before the game has started (open seats) a move is 409 not_started.")
    def move(sid, body):
        def precheck(session, caller):
            own_move(session, caller, body["move"])

        def plan(session, caller):
            played = own_move(session, caller, body["move"])
            result = upstream.call(session.game, "/v1/apply", for_watchers(store, sid, {
                "state": session.state, "move": played, "view_as": view_seat(caller),
                "entrant": view_seat(caller)}))  # companion: who enters (Engine.entries)
            state = result["state"]
            logged = {k: v for k, v in result["move"].items() if k != "text"}  # read-time text
            entry = {"version": state["version"], "move": logged, "events": result["events"]}
            answer = dict(summary(session, caller, state, result["view"]),
                          move=result["view_move"], events=result["view_events"])
            return Change(state, entry, answer, pushed=lambda logged_entry: pushed_events(
                logged_entry, result.get("redacted", []), state["to_move"]))

        try:
            return write(store, sid, plan, body=body, precheck=precheck)
        except UpstreamProblem as refused:
            if refused.code == EntryConflict.code:
                disputed(sid, body["move"])
            raise

    def disputed(sid, move):
        """An entry refused as contradicting another hand is recorded in the public log:
        the refusal tells its entrant that the remaining copies are held elsewhere, which
        a referee cannot avoid (one card in two places), so the whole table hears of it,
        as at a real table; an entrant probing the others' hands does it in plain sight.
        Neither the card nor the other seat is named. A retry of the same entry on the
        same version is recorded once."""
        def plan(session, caller):
            mark = hashlib.sha256(f"{caller.name}\n{canonical(move)}".encode()).hexdigest()
            if session.meta.get("dispute") == f"{mark}:{session.version}":
                raise _Recorded
            state = bumped(session.state)
            entry = {"version": state["version"],
                     "dispute": {"code": EntryConflict.code, "at_version": session.version}}
            return Change(state, entry, {}, meta_set={"dispute": f"{mark}:{state['version']}"})

        try:
            write(store, sid, plan, remember=False, pinned=False)
        except _Recorded:
            pass

    @route(app, "/v1/sessions/<session_id:sid>/score", "GET",
           summary="Scores, breakdown and ranking",
           answer=schemas.SessionScore, errors=(401, 404, 503), security=True, tag="sessions",
           operation_id="getSessionScore")
    def score(sid):
        session, _ = load_session(sid)
        return json_response(dict(upstream.call(session.game, "/v1/score",
                                                {"state": session.state}), game=session.game))

    @route(app, "/v1/sessions/<session_id:sid>/log", "GET",
           summary="Moves and events since a version",
           answer=schemas.SessionLog, errors=(400, 401, 404, 503), tag="sessions",
           operation_id="getSessionLog", security=True,
           params=[{"name": "since", "in": "query", "required": False,
                          "description": "only entries after this version (default 0)",
                          "schema": {"type": "integer", "minimum": 0, "maximum": 10**12 - 1}}])
    def session_log(sid):
        session, caller = load_session(sid)
        since = request.args.get("since", "0")
        if not (since.isascii() and since.isdigit()) or len(since) > 12:
            raise BadRequest("since must be a non-negative integer version")
        etag = f'"{session.version}"'
        if _matches(request.headers.get("If-None-Match"), session.version):
            return Response(status=304, headers={"ETag": etag})
        entries = redact_entries(upstream, session.game, store.log(sid, int(since)),
                                 view_seat(caller))
        # next: the cursor to send as ?since= to read only what comes after these
        return json_response({"game": session.game, "version": session.version,
                              "next": session.version, "entries": entries}, 200,
                             {"ETag": etag})

    @route(app, "/v1/sessions/<session_id:sid>", "DELETE",
           summary="End and remove the session (table token)",
           errors=(401, 403, 404, 503), security=True, status=204, tag="sessions",
           operation_id="deleteSession")
    def delete(sid):
        session, caller = load_session(sid)
        if caller.role != "table":
            raise Forbidden("only the table token ends a session")
        store.delete(sid)
        store.unlist_table(sid)
        store.unwatch_bots(sid)
        if session.meta.get("join_code"):
            store.drop_code(session.meta["join_code"])
        current_app.logger.info("session %s deleted", sid)
        return Response(status=204)


class _Recorded(Exception):
    """This dispute is in the log already (a retry)."""


def own_move(session, caller, move: dict) -> dict:
    """The move as this token may send it (a seat's own seat filled in), or 403."""
    move = dict(move)
    if not session.started:
        raise NotStarted("the game starts when every seat is taken, or when the table "
                         "token starts it")
    if caller.role == "spectator":
        raise Forbidden("a spectator token cannot move")
    mode = session.meta["mode"]
    if caller.role == "table":
        if mode == "digital":
            raise Forbidden("in a digital session each seat moves with its own token; "
                            "the table token moves only in tabletop and companion sessions")
        if "seat" not in move:
            raise BadRequest('with the table token a move names its seat (or "chance")')
        if mode == "companion" and move["seat"] != CHANCE:
            raise Forbidden("in a companion session each seat moves with its own token; the "
                            "table token enters public chance outcomes only")
        return move
    if mode == "companion" and move.get("seat") == CHANCE:
        return move  # an entry: the game service checks that it is this seat's to make
    move.setdefault("seat", caller.seat)
    if not (type(move["seat"]) is int and move["seat"] == caller.seat):
        raise Forbidden(f"this token moves for seat {caller.seat} only")
    return move
