"""Open tables: seats handed out by a join code, a public lobby, starting, leaving
and re-issuing a seat's token.

A session created with ``"seats": "open"`` has no seat token yet: its creator
reads the join code aloud and each player joins a seat (``POST
/v1/sessions/join``), receiving that seat's token once. The game starts when
the last seat is taken, or when the table token starts it with the seats it has
(the game service refuses a player count the game does not allow). Every seat
change is a new version with a log entry (``seats``), so streams announce it.
"""

import copy
import json
import secrets
import time

from flask import request
from marshmallow import Schema, fields, validate
from referee import schemas
from referee.errors import (
    AlreadyStarted,
    BadRequest,
    Forbidden,
    NobodySeated,
    NoSuchSeat,
    RateLimited,
    SeatTaken,
    TableFull,
    UnknownJoinCode,
    UnknownSession,
    Unprocessable,
    VersionConflict,
)
from referee.rng import is_seeded
from referee.sessions.store import digest, new_token
from referee.web import json_response

from .access import IF_MATCH, MAX_ATTEMPTS, Change, bumped, seats_of, stamped, write
from .limits import address_digest
from .typed import ref

#: join codes are read aloud: no 0/O, 1/I/L, U; 8 characters (30^8 ≈ 6.6e11 codes)
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 8
FAILURE_WINDOW = 60  # seconds


def new_join_code(store) -> str:
    """A fresh code, reserved in Redis (bind it to the session once it exists)."""
    for _ in range(5):
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if store.register_code(code, ""):
            return code
    raise RuntimeError("could not draw a free join code")


def normalized(text: str) -> str | None:
    """A code as typed (any case, spaces or dashes) → the stored form, or None."""
    code = "".join(c for c in text.upper() if c not in " -")
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


class JoinRequest(schemas.Base):
    code = fields.String(validate=validate.Length(min=1, max=40), metadata={
        "description": "the table's join code, as read aloud (case, spaces and dashes "
                       "do not matter)"})
    session_id = fields.String(validate=validate.Length(min=1, max=64), metadata={
        "description": "instead of a code: a table listed in the lobby"})
    seat = schemas.SeatOr("any", load_default="any")


class Joined(Schema):
    session_id = fields.String(required=True)
    game = fields.String(required=True)
    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={
        "description": "this seat's secret token, shown once"})
    version = fields.Integer(required=True)
    started = fields.Boolean(required=True)
    seats = fields.List(fields.Dict(), required=True)


class LeaveRequest(schemas.Base):
    seat = fields.Integer(strict=True, validate=validate.Range(min=1), metadata={
        "description": "table token only: the seat it marks absent"})


class SeatTokenAnswer(Schema):
    seat = fields.Integer(required=True)
    token = fields.String(required=True)
    version = fields.Integer(required=True)


class SessionChanged(Schema):
    session_id = fields.String(required=True)
    version = fields.Integer(required=True)
    started = fields.Boolean(required=True)
    players = fields.Integer(required=True)
    seats = fields.List(fields.Dict(), required=True)
    entry = fields.Dict(required=True, metadata={"description": "the log entry of the change"})


class LobbyTable(Schema):
    session_id = fields.String()
    game = fields.String()
    mode = fields.String()
    players = fields.Integer()
    open_seats = fields.List(fields.Integer())
    created = fields.Integer()
    seeded = fields.Boolean(metadata={
        "description": "created with a client's seed: whoever knows it knows every draw, "
                       "so every hidden card (see README: Generators)"})


class Lobby(Schema):
    tables = fields.List(fields.Nested(LobbyTable))


def document_choices(document: dict) -> bool:
    """What marshmallow cannot say in the documents: a join names a code or a session
    (one of them), and only a table with open seats may be public."""
    named = document["components"]["schemas"]
    if "JoinRequest" in named:
        join = named.pop("JoinRequest")
        join["properties"]["seat"] = dict(schemas.SeatOr("any").json_schema(), default="any")
        # two whole objects, not bare {"required": …} branches: generators type those
        # as unknown (issue 30)
        named["JoinRequest"] = {"description": join.get("description", "A join: by code, or "
                                                        "by a session listed in the lobby"),
                                "oneOf": [ref("JoinByCode"), ref("JoinListed")]}
        for name, by, other in (("JoinByCode", "code", "session_id"),
                                ("JoinListed", "session_id", "code")):
            named[name] = dict(copy.deepcopy(join), required=[by])
            del named[name]["properties"][other]
    for name, schema in named.items():
        if name.endswith("CreateSessionRequest") and "properties" in schema:
            schema["if"] = {"properties": {"public": {"const": True}}, "required": ["public"]}
            schema["then"] = {"properties": {"seats": {"enum": ["open"]}},
                              "required": ["seats"]}
    return True


def register(app, api):
    store = app.extensions["sessions"]
    upstream = app.extensions["upstream"]
    route = api.route
    api.extenders.append(document_choices)
    failures_allowed = app.config.get("JOIN_FAILURES_PER_MINUTE", 10)

    def guarded(find):
        """``find()`` → a session id; unknown ones count against the address."""
        window = int(time.time() // FAILURE_WINDOW)
        who = address_digest()  # the address the trusted proxies said (limits.py)
        limited = failures_allowed > 0  # 0: no limit (as RATE_LIMIT_PER_MINUTE)
        if limited and store.failed_joins(who, window) >= failures_allowed:
            raise RateLimited(too_many(failures_allowed), retry_after=retry_after(window))
        sid = find()
        if sid is None:
            if limited and store.count_failed_join(who, window, FAILURE_WINDOW) > \
                    failures_allowed:
                raise RateLimited(too_many(failures_allowed), retry_after=retry_after(window))
            raise UnknownJoinCode("no open table has this join code (it may have started "
                                  "or expired)")
        return sid

    def public_sid(sid):
        try:
            session = store.load(sid)
        except UnknownSession:
            return None
        return sid if session.meta.get("public") == "1" and not session.started else None

    @route(app, "/v1/sessions/join", "POST", summary="Join an open seat: its token, once",
           body=JoinRequest, answer=Joined, status=201, errors=(400, 404, 409, 429, 503),
           tag="lobby", operation_id="joinSession",
           description="With the table's join code (or a public table's session id) take "
                       "a seat, or \"any\" open seat. The answer holds the seat's token: it "
                       "is shown once. When the last seat is taken the game starts. Unknown "
                       "codes are counted per address: past the limit, 429 with Retry-After.")
    def join(body):
        if ("code" in body) == ("session_id" in body):
            raise BadRequest("send either code (the table's join code) or session_id "
                             "(a table of the lobby)")
        if "code" in body:
            code = normalized(body["code"])
            sid = guarded(lambda: code and store.resolve_code(code) or None)
        else:
            sid = guarded(lambda: public_sid(body["session_id"]))
        for _ in range(MAX_ATTEMPTS):
            session = store.load(sid)
            if session.started:
                raise AlreadyStarted("this table's game has already started")
            seat = pick_seat(session, body["seat"])
            token = new_token()
            fields_ = {f"token:seat:{seat}": digest(token), f"seat:{seat}": "taken"}
            seats_left = [s for s in open_seats(session) if s != seat]
            if not seats_left:
                fields_["phase"] = "play"
            state = bumped(session.state)
            entry = {"version": state["version"],
                     "seats": {"change": "joined", "seat": seat, "started": not seats_left},
                     "by": f"seat:{seat}", "at": round(time.time(), 3)}
            if store.commit(session, state, entry, meta_set=fields_):
                if not seats_left:
                    closed(session)
                after = store.load(sid)
                return json_response({
                    "session_id": sid, "game": session.game, "seat": seat, "token": token,
                    "version": state["version"], "started": after.started,
                    "seats": seats_of(after)}, 201, {"Cache-Control": "no-store",
                                                     "Location": f"/v1/sessions/{sid}"})
        raise VersionConflict("the table is too busy; try again",
                              current_version=store.load(sid).version)

    def closed(session):
        """The game started: its code and its lobby line go."""
        if session.meta.get("join_code"):
            store.drop_code(session.meta["join_code"])
        store.unlist_table(session.sid)

    def table_only(session, caller, what):
        if caller.role != "table":
            raise Forbidden(f"only the table token {what}")

    def changed(session, state, entry, meta_set=(), meta_del=()):
        """The answer to a seat change: the new seats as they will be."""
        after = dict(session.meta, **dict(meta_set))
        for name in meta_del:
            after.pop(name, None)
        shown = type(session)(session.sid, after, state)
        return {"session_id": session.sid, "version": state["version"],
                "started": shown.started, "players": int(after["players"]),
                "seats": seats_of(shown), "entry": entry}

    @route(app, "/v1/sessions/<session_id:sid>/start", "POST", summary="Start with the seats taken",
           answer=SessionChanged, errors=(400, 401, 403, 404, 409, 412, 422, 503), security=True,
           tag="lobby", operation_id="startSession", params=[IF_MATCH],
           description="Table token. The seats taken are numbered 1… in their order; with "
                       "fewer seats than created the game is dealt anew for that many "
                       "players (422 invalid_players where the game does not allow it).")
    def start(sid):
        def precheck(session, caller):
            table_only(session, caller, "starts the game")
            if session.started:
                raise AlreadyStarted("the game has already started")

        def plan(session, caller):
            taken = [s for s in range(1, int(session.meta["players"]) + 1)
                     if session.seat_status(s) in ("taken", "bot")]
            if not any(session.seat_status(s) == "taken" for s in taken):
                raise NobodySeated("nobody has joined yet: share the join code first")
            meta_set, meta_del = {"phase": "play", "origin": session.version + 1}, []
            entry = {"seats": {"change": "started", "players": len(taken)}}  # stamped below
            state = session.state
            if len(taken) < int(session.meta["players"]):
                created = json.loads(session.meta.get("request", "{}"))
                dealt = upstream.call(session.game, "/v1/new", dict(
                    created, players=len(taken), view_as=None))
                state = dealt["state"]
                if dealt.get("events"):  # dealt anew: the log tells the new setup
                    entry.update(setup=True, events=dealt["events"])
                renumbered = {old: new for new, old in enumerate(taken, start=1)}
                entry["seats"]["renumbered"] = {str(o): n for o, n in renumbered.items()
                                                if o != n}
                for old in range(1, int(session.meta["players"]) + 1):
                    meta_del += [f"token:seat:{old}", f"seat:{old}", f"bot:{old}"]
                for old, new in renumbered.items():
                    if session.bot_level(old):  # a bot keeps its level at its new number
                        meta_set.update({f"seat:{new}": "bot",
                                         f"bot:{new}": session.bot_level(old)})
                    else:
                        meta_set[f"token:seat:{new}"] = session.meta[f"token:seat:{old}"]
                meta_del = [f for f in meta_del if f not in meta_set]
                meta_set["players"] = len(taken)
            state = dict(state, version=session.version + 1)
            entry = stamped(dict(entry, version=state["version"]), caller)
            answer = changed(session, state, entry, meta_set, meta_del)
            return Change(state, entry, answer, meta_set=meta_set, meta_del=meta_del)

        answer = write(store, sid, plan, body={}, precheck=precheck)
        closed(store.load(sid))
        return answer

    @route(app, "/v1/sessions/<session_id:sid>/leave", "POST",
           summary="Leave a seat (or mark one absent)", body=LeaveRequest, answer=SessionChanged,
           errors=(400, 401, 403, 404, 409, 412, 422, 503), security=True, tag="lobby",
           operation_id="leaveSeat", params=[IF_MATCH],
           description="A seat token leaves its own seat; the table token names the seat it "
                       "marks absent. Before the start the seat opens again for a join; after "
                       "it the seat is absent (none of the games has a resign rule): its "
                       "token stops working and the game waits until the table re-issues "
                       "the seat's token to someone.")
    def leave(sid, body):
        def which(session, caller):
            if caller.role == "seat":
                if body.get("seat", caller.seat) != caller.seat:
                    raise Forbidden(f"this token leaves seat {caller.seat} only")
                return caller.seat
            table_only(session, caller, "marks another seat absent")
            if "seat" not in body:  # well-formed, but the table must say whom it means
                raise Unprocessable("with the table token, name the seat that is absent")
            seat = body["seat"]
            if seat > int(session.meta["players"]):
                raise NoSuchSeat(f"there is no seat {seat}")
            if session.seat_status(seat) != "taken":
                raise SeatTaken(f"seat {seat} is not taken")
            return seat

        def plan(session, caller):
            seat = which(session, caller)
            status = "absent" if session.started else "open"
            state = bumped(session.state)
            entry = stamped({"version": state["version"], "seats": {
                "change": "left" if caller.role == "seat" else "absent", "seat": seat,
                "status": status}}, caller)
            meta_set = {f"seat:{seat}": status}
            answer = changed(session, state, entry, meta_set, [f"token:seat:{seat}"])
            return Change(state, entry, answer, meta_set=meta_set,
                          meta_del=[f"token:seat:{seat}"])

        answer = write(store, sid, plan, body=body, precheck=which)
        session = store.load(sid)
        if not session.started and session.meta.get("public") == "1":
            store.list_table(sid)
        return answer

    @route(app, "/v1/sessions/<session_id:sid>/seats/<int:seat>/token", "POST",
           summary="Re-issue a seat's token (table token)", answer=SeatTokenAnswer,
           errors=(400, 401, 403, 404, 412, 503), security=True, tag="lobby",
           operation_id="reissueSeatToken", params=[IF_MATCH],
           description="A new token for the seat, shown once; the old one stops working at "
                       "once (open streams with it end). An open or absent seat is taken by "
                       "it: the table hands the token out itself. Not idempotent: the answer "
                       "is a secret that is never stored.")
    def reissue(sid, seat):
        token = new_token()

        def plan(session, caller):
            table_only(session, caller, "re-issues a seat's token")
            if not 1 <= seat <= int(session.meta["players"]):
                raise NoSuchSeat(f"there is no seat {seat}")
            meta_set = {f"token:seat:{seat}": digest(token), f"seat:{seat}": "taken"}
            filled = not session.started and not [
                s for s in open_seats(session) if s != seat]
            if filled:
                meta_set["phase"] = "play"
            state = bumped(session.state)
            entry = {"version": state["version"], "seats": {
                "change": "reissued", "seat": seat, "started": filled}}
            return Change(state, entry, {"seat": seat, "token": token,
                                         "version": state["version"]}, meta_set=meta_set)

        answer = write(store, sid, plan, remember=False)
        answer.headers["Cache-Control"] = "no-store"
        if store.load(sid).started:
            closed(store.load(sid))
        return answer

    @route(app, "/v1/lobby", "GET", summary="Public tables with open seats (no secrets)",
           answer=Lobby, errors=(400, 503), tag="lobby", operation_id="listLobby",
           params=[{"name": "game", "in": "query", "required": False,
                    "description": "only this game's tables", "schema": {"type": "string"}}])
    def lobby():
        game = request.args.get("game")
        tables = []
        for sid in store.listed_tables(200):
            try:
                session = store.load(sid)
            except UnknownSession:  # expired or ended since: drop it from the list
                store.unlist_table(sid)
                continue
            if session.started or (game and session.game != game):
                continue
            tables.append({"session_id": sid, "game": session.game,
                           "mode": session.meta["mode"],
                           "players": int(session.meta["players"]),
                           "open_seats": open_seats(session),
                           "created": int(session.meta["created"]),
                           "seeded": is_seeded(session.state["rng"])})
        return json_response({"tables": tables[:100]}, 200, {"Cache-Control": "no-store"})


def open_seats(session) -> list[int]:
    return [s for s in range(1, int(session.meta["players"]) + 1)
            if session.seat_status(s) == "open"]


def pick_seat(session, wanted) -> int:
    free = open_seats(session)
    if wanted == "any":
        if not free:
            raise TableFull("every seat of this table is taken")
        return free[0]
    if not 1 <= wanted <= int(session.meta["players"]):
        raise NoSuchSeat(f"this table has seats 1 to {session.meta['players']}")
    if wanted not in free:
        raise SeatTaken(f"seat {wanted} is taken; open seats: "
                        f"{', '.join(map(str, free)) or 'none'}")
    return wanted


def too_many(limit: int) -> str:
    return f"more than {limit} unknown join codes in {FAILURE_WINDOW} s from this address"


def retry_after(window: int) -> int:
    return max(1, int((window + 1) * FAILURE_WINDOW - time.time()))
