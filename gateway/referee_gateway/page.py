"""The table in a browser: ``GET /`` serves a small web app (plain ES modules, no build
step, no CDN, no library) from ``static/``, which Flask serves at ``/static/…``.

The app is a client of the public API like any other: it holds no secret of its own. A
seat's token, and a table's, travel in the page's URL fragment (``#play=<id>&token=…``,
never sent to a server by the browser), so the link reopens them in any tab; every call
sends the token as ``Authorization: Bearer``, so the page shows exactly what the API shows
that token. ``POST /page/qr.svg`` draws a table's link as a QR code (the segno library) for
handing the table to another device.

The page's headers keep it that way: a Content-Security-Policy that lets only the
project's own scripts and styles run and only this origin be called (an SVG drawn by a
game service is inserted inline, so no script or inline handler in it could run), no
referrer (the fragment is never sent anyway), no framing.
"""

import io
from importlib.resources import files

import segno
from flask import Response
from referee.errors import BadRequest
from referee.web import read_object

INDEX = files(__package__) / "static" / "index.html"

#: what the page may load and call: its own origin only; data: for the empty favicon
POLICY = "; ".join([
    "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
    "connect-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
])
HEADERS = {
    "Content-Security-Policy": POLICY,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}
#: a table's link is ~120 characters; a QR code of version 40 holds about 2300
QR_TEXT_MAX = 1000


def register(app, api=None):
    def index():
        return Response(INDEX.read_bytes(), mimetype="text/html", headers=HEADERS)

    def qr_code():
        """``{"text": …}`` → that text as a QR code (SVG, sized by its viewBox): the page's
        "hand this table to another device". The text is a table's link, whose token this
        page already sends as Authorization; it is neither logged nor kept nor cached."""
        text = read_object().get("text")
        if not isinstance(text, str) or not 0 < len(text) <= QR_TEXT_MAX:
            raise BadRequest(f"text must be a string of 1 to {QR_TEXT_MAX} characters")
        svg = io.BytesIO()
        segno.make(text, error="m", micro=False).save(
            svg, kind="svg", xmldecl=False, omitsize=True, dark="#000", light="#fff", border=4)
        return Response(svg.getvalue(), mimetype="image/svg+xml",
                        headers={**HEADERS, "Cache-Control": "no-store"})

    app.add_url_rule("/", "page_index", index, methods=["GET"])
    app.add_url_rule("/page/qr.svg", "page_qr", qr_code, methods=["POST"])
