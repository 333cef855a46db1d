"""Every known series of a server at 0 from its start (issue 31).

A Prometheus counter that appears only at its first increment is never seen at 0, so
``rate()`` and ``increase()`` miss that first burst (a series' first sample has nothing
before it), and a ratio over a series that does not exist yet is empty, not 0. So when an
app is built (:func:`start_at_zero`, from :func:`referee.observability.prime`) the label
sets it will use are created at 0 (prometheus_client: ``.labels(...)`` creates the child;
in multiprocess mode it writes the 0 to this worker's file, which the scrape adds up).

Which label sets are known, bounded by the app and its games (nothing a caller chooses):

* answers (``referee_http_requests_total``, ``…_duration_seconds``): each route and method
  of the app, for each game the route can carry, at each status its OpenAPI document
  names (its success and its errors; 200 for a route it does not document). A status no
  document names appears at its first answer: the dashboard's ratios read ``or vector(0)``;
* refusals: each problem code (:data:`referee.errors.CODES`, and ``other``) for each game
  and none;
* the gateway: moves by game and mode, rate-limit hits by route (``unmatched`` too), the
  calls to each game service (time, and failures by reason), open event streams by game;
* a game service: moves applied by mode (``other``: a stateless caller's state), bot
  decisions.

Redis commands and Redis errors are not listed here: their labels are whatever redis-py
sends or raises; the dashboard reads their errors ``or vector(0)``.
"""

from collections.abc import Iterable

from . import metrics
from .errors import CODES

#: ``reason`` of referee_upstream_failures_total: the gateway upstream client's names
#: (referee_gateway.upstream.REASONS) and ``bad_answer`` (a 5xx or a body not JSON)
UPSTREAM_REASONS = ("ConnectionError", "ConnectTimeout", "ReadTimeout", "bad_answer")


def start_at_zero(service: str, routes: Iterable[tuple[str, str, list[str], list[str]]],
                  games: Iterable[str], *, gateway: bool) -> int:
    """Create every known series of ``service`` at 0; how many label sets were made.

    ``routes``: ``(method, route label, statuses, games it carries)`` each;
    ``games``: the games this server's labels may carry (its own, or the gateway's).
    """
    games = sorted(games)
    made = 0
    for method, route, statuses, carried in routes:
        for game in carried:
            for status in statuses:
                metrics.requests_of(service, method, route, game, status)
            metrics.latency_of(service, method, route, game)
            made += len(statuses) + 1
        if gateway:
            metrics.RATE_LIMIT_HITS.labels(route)
            made += 1
    if gateway:  # a flood of made-up paths is refused before any route matches
        metrics.RATE_LIMIT_HITS.labels("unmatched")
        made += 1
    for game in ["", *games]:
        for code in sorted(CODES | {"other"}):
            metrics.REFUSALS.labels(service, game, code)
            made += 1
    modes = (*metrics.MODES, "other")
    for game in games:
        if gateway:
            for mode in metrics.MODES:
                metrics.session_moves_of(game, mode)
            for reason in UPSTREAM_REASONS:
                metrics.UPSTREAM_FAILURES.labels(game, reason)
            metrics.upstream_latency_of(game)
            metrics.STREAMS_OPEN.labels(game)
            made += len(metrics.MODES) + len(UPSTREAM_REASONS) + 2
        else:
            for mode in modes:
                metrics.moves_applied_of(game, mode)
            metrics.BOT_DECISIONS.labels(game)
            made += len(modes) + 1
    return made
