"""Gizmos positions whose legal moves cost the most (issue 10 item 2), for make bench.

Listing the legal moves of a Gizmos position means listing every way to pay
for every buildable card; with many Converters and Generic gizmos (7 energy
of any colours) that is thousands of payments. ``COSTLIEST`` holds the
costliest positions a search found among those the position checks accept
(services/gizmos/RULES.md, "Cost of the payment search": at most 14
Converters available, at most 3 of Level III, the ring within its Storage
Limit), and positions like those the issue measured. ``report`` prints, for
each, the legal-move count, the payment-search nodes and the best CPU time of
a few listings, and the whole service request (``POST /v1/legal-moves`` with every move's
text and the JSON answer, as the gateway relays it unparsed), a one-card request
(``match``: a page's card and its ways to pay, one Build per spend) and a one-spend request
(``match`` with the card and its spend of the most Converter sets: every set); the worst is
issue 11's "worst request found". ``python bench/gizmos_positions.py`` runs it alone. The Gizmos tests hold the same
positions under a fixed node bound.
"""

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "services" / "gizmos" / "tests"))

from gizmos import payment  # noqa: E402
from gizmos_helpers import GAME, position  # noqa: E402  (the tests' position builder)

DISPLAY = [105, 110, 120, 125, 209, 213, 225, 333, 334]  # two Generic gizmos face up

# name: the seat to move's built gizmos (its starting gizmo aside), ring, Archive, and
# for a Research the cards it drew (the display is DISPLAY)
COSTLIEST = {
    "issue-like: 8 Converters, 13 spheres": dict(
        built=[101, 106, 214, 217, 219, 222, 223, 224, 301, 302],
        ring={"black": 3, "blue": 3, "red": 3, "yellow": 4}, archive=[]),
    "issue-like: 10 Converters, 15 spheres": dict(
        built=[101, 104, 106, 214, 216, 217, 219, 220, 222, 224, 201, 301, 302],
        ring={"black": 4, "blue": 4, "red": 3, "yellow": 4}, archive=[335]),
    "3 Generic, 331, 332; 11 Converters, 12 spheres": dict(
        built=[214, 215, 216, 218, 220, 221, 222, 223, 224, 304, 305, 126, 204, 301],
        ring={"black": 3, "blue": 3, "red": 3, "yellow": 3}, archive=[331, 332, 335]),
    "3 Generic, 331; 13 Converters, 6 spheres": dict(
        built=[102, 103, 107, 215, 216, 217, 218, 220, 222, 224, 304, 305, 306, 128],
        ring={"black": 1, "blue": 2, "red": 2, "yellow": 1}, archive=[331, 335]),
    "Research of 336, 331, 332; 13 Converters": dict(
        built=[101, 103, 107, 214, 215, 216, 217, 219, 220, 221, 224, 303, 306, 302],
        ring={"black": 2, "blue": 2, "red": 2, "yellow": 3}, archive=[335],
        research=[336, 331, 332]),
    "Research of 336, 331, 332, 320; 13 Converters": dict(
        built=[101, 103, 104, 214, 215, 216, 221, 222, 223, 224, 304, 305, 306, 121],
        ring={"black": 2, "blue": 1, "red": 1, "yellow": 2}, archive=[335],
        research=[336, 331, 332, 320]),
}


def costly_position(spec: dict) -> dict:
    """The position of a ``COSTLIEST`` entry: seat 1 to move, tabletop."""
    return position(seats=[{"built": spec["built"], "ring": spec["ring"],
                            "archive": spec["archive"]}],
                    display=[c for c in DISPLAY if c not in spec.get("research", [])],
                    research=spec.get("research"))


def measure(state: dict, repeat: int = 3) -> tuple[int, int, float]:
    """(legal moves, payment-search nodes, best CPU seconds of ``repeat`` listings)."""
    best = float("inf")
    for _ in range(repeat):
        with payment.tally() as work:
            began = time.process_time()
            moves = GAME.legal_moves(state)
            best = min(best, time.process_time() - began)
    return len(moves), work.nodes, best


def request_cpu(client, state: dict, repeat: int = 3, **extra) -> tuple[int, float]:
    """(answer KiB, best CPU seconds) of the Gizmos service answering a legal-moves request."""
    body = json.dumps({"state": state, "seat": state["turn"], **extra})
    best = float("inf")
    for _ in range(repeat):
        began = time.process_time()
        answer = client.post("/v1/legal-moves", data=body, content_type="application/json")
        best = min(best, time.process_time() - began)
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    return len(answer.data) // 1024, best


def most_sets(state: dict, card: int) -> dict:
    """The ``match`` of ``card``'s spend with the most Converter sets."""
    spends = [m["spend"] for m in GAME.legal_moves(state, match={"card": card})
              if m.get("other_converters")] or [[]]
    return max(({"card": card, "spend": spend} for spend in spends), key=lambda match: len(
        GAME.legal_moves(state, trusted=True, match=match)))


def chess_cpu_rate(seconds: float, slices: int = 2) -> float:
    """python-chess's random-playout steps per CPU second (issue 33's yardstick for a
    request's service CPU: CPU against CPU, so a neighbour's load, which slows a
    wall-clock rate but not a CPU time, cannot make a request look cheaper)."""
    from run import chess_steps
    steps = elapsed = 0.0
    for round_ in range(slices):
        done, spent = chess_steps(seconds / slices, seed=round_, clock=time.process_time)
        steps, elapsed = steps + done, elapsed + spent
    return steps / elapsed


def report(out=print, repeat: int = 3, chess_seconds: float | None = None) -> None:
    """The table; with ``chess_seconds``, the worst request also in python-chess playout
    steps, the yardstick measured (in CPU seconds) before and after the positions."""
    from gizmos.service import create_app
    client = create_app().test_client()
    rates = [chess_cpu_rate(chess_seconds / 2)] if chess_seconds else []
    out("\nGizmos: the costliest legal-move listings found (every spend of every card);"
        "\n  engine: the listing alone; request: the service's whole answer (text, JSON);"
        "\n  one card: the request for the first Generic gizmo's moves only; one spend: for"
        "\n  every Converter set of its spend with the most")
    out(f"  {'position':<50}{'moves':>8}{'nodes':>10}{'engine ms':>10}{'KiB':>6}"
        f"{'request ms':>11}{'one card ms':>12}{'spend ms':>10}")
    worst = (0, "")
    for name, spec in COSTLIEST.items():
        state = costly_position(spec)
        moves, nodes, seconds = measure(state, repeat)
        size, whole = request_cpu(client, state, repeat)
        card = next(c for c in (333, 334, 335, 336) if GAME.legal_moves(
            state, match={"card": c}))
        _, one = request_cpu(client, state, repeat, match={"card": card})
        _, spend = request_cpu(client, state, repeat, match=most_sets(state, card))
        worst = max(worst, (whole, name), (one, name + ", one card"),
                    (spend, name + ", one spend"))
        out(f"  {name:<50}{moves:>8,}{nodes:>10,}{seconds * 1000:>10.1f}{size:>6,}"
            f"{whole * 1000:>11.1f}{one * 1000:>12.1f}{spend * 1000:>10.1f}")
    out(f"  worst request found: {worst[0] * 1000:.0f} ms of service CPU ({worst[1]})")
    if rates:  # issue 33's unit: the playout steps python-chess takes in that CPU time
        rates.append(chess_cpu_rate(chess_seconds / 2))
        rate = sum(rates) / len(rates)
        out(f"    = {worst[0] * rate:,.0f} python-chess playout steps of this run "
            f"(python-chess {rate:,.0f} steps per CPU second; bound asked: 1,700)")


if __name__ == "__main__":
    report(repeat=int(sys.argv[1]) if len(sys.argv) > 1 else 3, chess_seconds=3)
