"""A Server-Sent Events reader (the WHATWG event-stream format) over lines."""

import json
from dataclasses import dataclass


@dataclass
class Event:
    """One event of a session's stream: ``id`` is the session version."""

    event: str
    data: dict
    id: int | None = None


def parse(lines):
    """Yield ``Event``s and ``("retry", ms)`` pairs from the stream's text lines."""
    name, data, event_id = "message", [], None
    for line in lines:
        if line == "":
            if data:
                payload = "\n".join(data)
                yield Event(name, json.loads(payload) if payload else {},
                            int(event_id) if event_id and event_id.isdigit() else None)
            name, data, event_id = "message", [], None
            continue
        if line.startswith(":"):  # a comment: the heartbeat of an idle stream
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
        elif field == "id":
            event_id = value
        elif field == "retry" and value.isdigit():
            yield ("retry", int(value))
