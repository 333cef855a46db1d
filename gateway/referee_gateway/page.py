"""The table in a browser: ``GET /`` serves a small web app (plain ES modules, no build
step, no CDN, no library) from ``static/``, which Flask serves at ``/static/…``.

The app is a client of the public API like any other: it holds no secret of its own. A
seat's token travels in the page's URL fragment (``#play=<id>&token=…``, never sent to a
server) and the table token in the tab's sessionStorage; every call sends the token as
``Authorization: Bearer``, so the page shows exactly what the API shows that token.

The page's headers keep it that way: a Content-Security-Policy that lets only the
project's own scripts and styles run and only this origin be called (an SVG drawn by a
game service is inserted inline, so no script or inline handler in it could run), no
referrer (the fragment is never sent anyway), no framing.
"""

from importlib.resources import files

from flask import Response

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


def register(app, api=None):
    def index():
        return Response(INDEX.read_bytes(), mimetype="text/html", headers=HEADERS)

    app.add_url_rule("/", "page_index", index, methods=["GET"])
