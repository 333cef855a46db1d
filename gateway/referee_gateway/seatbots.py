"""Bots at a session's seats (issue 14), and a seat's hint.

A seat is given to a bot when the session is created (``"bots": {"2": "strong"}``) or later
by the table token (``PUT /v1/sessions/{id}/seats/{n}/bot``). A bot seat has no token: the
bot worker (:mod:`referee_gateway.botworker`, its own process) plays it as soon as it is to
move, from that seat's view alone, through the same compare-and-set as a person. No request
worker of the gateway ever waits for a bot: a request only marks the session for the worker.
``GET /v1/sessions/{id}/hint`` asks the same bots for a seat's suggested move.
"""

import json

from flask import request

from referee import schemas
from referee.bots import LEVELS, MAX_BUDGET_MS
from referee.errors import BadRequest, Forbidden, NoBot, NoSuchSeat, NotStarted, Unprocessable
from referee.web import json_response

from .access import IF_MATCH, Change, bumped, load, seats_of, stamped, view_seat, write
from .lobby import SessionChanged

#: how long a hint may think (ms; the request waits for it)
HINT_BUDGET_MS = 500


NO_COMPANION_BOTS = ("a companion table has no bots: every seat holds real cards and enters "
                     "them from its own phone")


def bot_seats(requested: dict, players: int) -> dict[int, str]:
    """``{"2": "strong"}`` of a create request → ``{2: "strong"}``, or 422 no_such_seat."""
    seats = {}
    for seat, level in requested.items():
        if not (seat.isascii() and seat.isdigit() and 1 <= int(seat) <= players):
            raise NoSuchSeat(f"there is no seat {json.dumps(seat)} for a bot: the seats are "
                             f"\"1\" to \"{players}\"")
        seats[int(seat)] = level
    return seats


def register(app, api):
    store = app.extensions["sessions"]
    upstream = app.extensions["upstream"]
    route = api.route

    def table_seat(session, caller, seat) -> None:
        if caller.role != "table":
            raise Forbidden("only the table token gives a seat to a bot or takes it back")
        if not 1 <= seat <= int(session.meta["players"]):
            raise NoSuchSeat(f"there is no seat {seat}")
        if session.meta["mode"] == "companion":
            raise Unprocessable(NO_COMPANION_BOTS)

    def seat_change(session, caller, seat, change, meta_set, meta_del=()):
        table_seat(session, caller, seat)
        state = bumped(session.state)
        started = session.started or not any(
            session.seat_status(s) == "open" and s != seat
            for s in range(1, int(session.meta["players"]) + 1))
        if not session.started and started:
            meta_set = dict(meta_set, phase="play")  # the last open seat is filled
        entry = stamped({"version": state["version"], "seats": dict(change, seat=seat)}, caller)
        after = dict(session.meta, **meta_set)
        for name in meta_del:
            after.pop(name, None)
        shown = type(session)(session.sid, after, state)
        answer = {"session_id": session.sid, "version": state["version"],
                  "started": shown.started, "players": int(after["players"]),
                  "seats": seats_of(shown), "entry": entry}
        return Change(state, entry, answer, meta_set=meta_set, meta_del=list(meta_del))

    @route(app, "/v1/sessions/<session_id:sid>/seats/<int:seat>/bot", "PUT",
           summary="Give a seat to a bot (table token)", body=schemas.BotRequest,
           answer=SessionChanged, errors=(400, 401, 403, 404, 412, 422, 503), security=True, tag="lobby",
           operation_id="seatBot", params=[IF_MATCH],
           description="The bot plays the seat from its own view as soon as it is to move; "
                       "the seat's token stops working (re-issue one to take the seat back "
                       "for a person). An open seat given to a bot is filled.")
    def give(sid, seat, body):
        level = body["level"]

        def plan(session, caller):
            return seat_change(session, caller, seat, {"change": "bot", "level": level},
                               {f"seat:{seat}": "bot", f"bot:{seat}": level},
                               [f"token:seat:{seat}"])

        answer = write(store, sid, plan, body=body)
        session = store.load(sid)
        if session.started and session.meta.get("join_code"):
            store.drop_code(session.meta["join_code"])
            store.unlist_table(sid)
        store.watch_bots(sid)  # the worker looks at once: the bot may be to move
        return answer

    @route(app, "/v1/sessions/<session_id:sid>/seats/<int:seat>/bot", "DELETE",
           summary="Take a seat back from its bot (table token)", answer=SessionChanged,
           errors=(400, 401, 403, 404, 409, 412, 422, 503), security=True, tag="lobby",
           operation_id="unseatBot", params=[IF_MATCH],
           description="The seat becomes absent: re-issue its token to hand it to a person.")
    def take_back(sid, seat):
        def plan(session, caller):
            table_seat(session, caller, seat)
            if session.bot_level(seat) is None:
                raise NoBot(f"no bot plays seat {seat}")
            return seat_change(session, caller, seat, {"change": "bot_removed"},
                               {f"seat:{seat}": "absent"}, [f"bot:{seat}"])

        return write(store, sid, plan, body={})

    @route(app, "/v1/sessions/<session_id:sid>/hint", "GET",
           summary="A suggested move for the caller's seat (its own token)",
           answer=schemas.HintAnswer, errors=(400, 401, 403, 404, 409, 422, 503), security=True, tag="sessions",
           operation_id="getHint",
           params=[{"name": "level", "in": "query", "required": False,
                    "description": "the bot that suggests (default greedy)",
                    "schema": {"enum": list(LEVELS)}},
                   {"name": "budget_ms", "in": "query", "required": False,
                    "description": f"how long it may think (default {HINT_BUDGET_MS})",
                    "schema": {"type": "integer", "minimum": 1, "maximum": MAX_BUDGET_MS}}],
           description="Chosen from the seat's own view, as a bot at that seat would: "
                       "`{\"move\", \"level\", \"version\"}`. 403 not_your_turn when the seat "
                       "is not to move.")
    def hint(sid):
        level = request.args.get("level", "greedy")
        budget = request.args.get("budget_ms", str(HINT_BUDGET_MS))
        if level not in LEVELS:
            raise BadRequest(f"level must be one of {', '.join(LEVELS)}")
        if not (budget.isascii() and budget.isdigit() and 1 <= int(budget) <= MAX_BUDGET_MS):
            raise BadRequest(f"budget_ms must be a whole number from 1 to {MAX_BUDGET_MS}")
        session, caller = load(store, sid)
        if caller.role != "seat":
            raise Forbidden("a hint is for a seat: ask with the seat's own token")
        if not session.started:
            raise NotStarted("the game has not started: no seat has moves yet")
        seat = view_seat(caller)
        view = upstream.call(session.game, "/v1/view",
                             {"state": session.state, "seat": seat})["view"]
        answer = upstream.call(session.game, "/v1/bot-move", {
            "view": view, "seat": seat, "level": level, "budget_ms": int(budget),
            "seed": session.version})
        return json_response(dict(answer, game=session.game, version=session.version))
