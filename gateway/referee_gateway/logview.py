"""Log entries as a token may see them, redacted by the game service.

The log holds four kinds of entry, one per version: a move (``move`` and
``events``: the game service redacts them for the caller's seat), a correction
(``correction``: undo, redo, takeback), a seat change (``seats``: joined,
left, reissued, started) and a dispute (``dispute``: a companion entry refused as
contradicting another hand). Corrections, seat changes and disputes name versions,
codes and seat numbers only, never a token or a card, so they pass as they are. A
move that a correction took back stays in the log marked ``undone``.
"""

import time

#: what a game service's /v1/view-log accepts of an entry (it refuses anything else)
SERVICE_FIELDS = ("version", "move", "setup", "events", "by", "at")


def is_move(entry: dict) -> bool:
    """Whether the game service redacts the entry: a move, or the setup's events."""
    return "move" in entry or bool(entry.get("setup"))


def setup_entry(state: dict, events: list | None) -> dict | None:
    """The log's first entry: what the setup did (deals, layout), redacted per caller
    like a move's events; None when the setup did nothing to tell."""
    if not events:
        return None
    return {"version": state["version"], "setup": True, "events": events, "by": "referee",
            "at": round(time.time(), 3)}


def redact_entries(upstream, game: str, entries: list[dict], seat) -> list[dict]:
    """``entries`` as ``seat`` (None: the public) may see them, in order, moves with
    ``text`` in the request's language."""
    moves = [e for e in entries if is_move(e)]
    if not moves:
        return entries
    seen = upstream.call(game, "/v1/view-log", {
        "entries": [{k: e[k] for k in SERVICE_FIELDS if k in e} for e in moves],
        "seat": seat})["entries"]
    by_version = {e["version"]: e for e in seen}
    return [dict(e, **by_version[e["version"]]) if is_move(e) else e for e in entries]
