"""A session's picture: ``GET /v1/sessions/{sid}/picture.svg`` draws the position as the
caller's token may see it (a seat its own view, the table and spectators the public one),
by the game service's stateless ``/v1/picture``: a game draws from a view alone. And
``POST /v1/sessions/{sid}/preview.svg``: the position a move of the caller's would lead to,
before any chance after it (the service's ``/v1/preview``), for a page to show before the
move is confirmed.

ETag is the version and the language (a picture changes with the position or with the
words of its text), ``If-None-Match`` answers 304, ``Cache-Control: no-cache`` asks a
client to check each time, and ``Vary`` keeps one token's or language's picture from
answering another's.
"""

import json

from flask import Response, request
from referee import schemas
from referee.service import language

from .access import load, view_seat
from .sessions import own_move

SVG = "image/svg+xml"


def register(app, api):
    store = app.extensions["sessions"]
    upstream = app.extensions["upstream"]

    @api.route(app, "/v1/sessions/<session_id:sid>/picture.svg", "GET",
               summary="The caller's view of the session, drawn as SVG",
               errors=(304, 401, 404, 503), security=True, tag="sessions",
               operation_id="getSessionPicture",
               description="The board, pieces, cards with their costs and points, the scores "
                           "and whose turn it is, as the token may see them (`image/svg+xml`, "
                           "its `<desc>` in the language of Accept-Language: en, ja). ETag is "
                           "the version and the language; If-None-Match with it answers 304.")
    def picture(sid):
        session, caller = load(store, sid)
        lang = language()
        headers = {"ETag": f'"{session.version}-{lang}"', "Cache-Control": "no-cache",
                   "Vary": "Authorization, Accept-Language"}
        if matches(request.headers.get("If-None-Match"), headers["ETag"]):
            return Response(status=304, headers=headers)
        status, content_type, content = upstream.raw(
            session.game, "POST", "/v1/picture",
            json.dumps({"state": session.state, "seat": view_seat(caller)}).encode())
        if status != 200:  # the service's problem, as it answered it
            return Response(content, status, content_type=content_type)
        return Response(content, 200, dict(headers, **{"Content-Language": lang}),
                        mimetype=SVG)

    @api.route(app, "/v1/sessions/<session_id:sid>/preview.svg", "POST",
               summary="The position a move of the caller's would lead to, drawn as SVG",
               body=schemas.MoveRequest, errors=(400, 401, 403, 404, 409, 422, 503),
               security=True, tag="sessions", operation_id="previewSessionMove",
               description="For a move of the game's `previewed_moves` (GET /v1/games/{game}) "
                           "that the token may play now: the position it leads to, before any "
                           "chance that follows (never what chance will bring), as the token "
                           "sees it. Nothing is played. Another move type, or one whose result "
                           "draws on chance, is 400; a move the rules forbid, 422.")
    def preview(sid, body):
        session, caller = load(store, sid)
        move = own_move(session, caller, body["move"])  # the checks of playing it
        status, content_type, content = upstream.raw(
            session.game, "POST", "/v1/preview",
            json.dumps({"state": session.state, "move": move,
                        "view_as": view_seat(caller)}).encode())
        if status != 200:  # the service's problem, as it answered it
            return Response(content, status, content_type=content_type)
        return Response(content, 200, {"Content-Language": language(), "Cache-Control": "no-store",
                                       "Vary": "Authorization, Accept-Language"}, mimetype=SVG)

    api.extenders.append(document_svg)


def matches(header: str | None, etag: str) -> bool:
    """Whether If-None-Match names ``etag`` (weak or strong) or is ``*``."""
    tags = [t.strip().removeprefix("W/") for t in (header or "").split(",")]
    return etag in tags or "*" in tags


def document_svg(document: dict) -> bool:
    """The answer is SVG, not JSON: say so in the OpenAPI document."""
    for path, method in (("/v1/sessions/{sid}/picture.svg", "get"),
                         ("/v1/sessions/{sid}/preview.svg", "post")):
        answer = document["paths"][path][method]["responses"]["200"]
        answer["content"] = {SVG: {"schema": {"type": "string", "description": "an SVG document"}}}
    return True
