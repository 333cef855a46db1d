"""A session's picture: ``GET /v1/sessions/{sid}/picture.svg`` draws the position as the
caller's token may see it (a seat its own view, the table and spectators the public one),
by the game service's stateless ``/v1/picture``: a game draws from a view alone.

ETag is the version and the language (a picture changes with the position or with the
words of its text), ``If-None-Match`` answers 304, ``Cache-Control: no-cache`` asks a
client to check each time, and ``Vary`` keeps one token's or language's picture from
answering another's.
"""

import json

from flask import Response, request

from referee.service import language

from .access import load, view_seat

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

    api.extenders.append(document_svg)


def matches(header: str | None, etag: str) -> bool:
    """Whether If-None-Match names ``etag`` (weak or strong) or is ``*``."""
    tags = [t.strip().removeprefix("W/") for t in (header or "").split(",")]
    return etag in tags or "*" in tags


def document_svg(document: dict) -> bool:
    """The answer is SVG, not JSON: say so in the OpenAPI document."""
    answer = document["paths"]["/v1/sessions/{sid}/picture.svg"]["get"]["responses"]["200"]
    answer["content"] = {SVG: {"schema": {"type": "string", "description": "an SVG document"}}}
    return True
