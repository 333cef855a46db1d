"""The Grafana dashboard (k8s/monitoring/referee-dashboard.json), written by
tools/render_deploy.py from the table below: every panel's PromQL, its unit and what it tells.
tests/test_alerts.py checks it names only exported metrics and shows each of them;
tests/test_prometheus.py runs every query against a real Prometheus."""

import json

GATEWAY = 'service="gateway"'
#: rows of (title, unit, [(PromQL, legend)], description): the dashboard, top to bottom
DASHBOARD = {
    "Traffic (the gateway: what players get)": [
        ("Answers per second by status", "reqps",
         [(f"sum by (status) (rate(referee_http_requests_total{{{GATEWAY}}}[5m]))",
           "{{status}}")], "Every answer of the gateway, by HTTP status."),
        ("5xx ratio", "percentunit",
         # a 5xx no route documents appears at its first answer: 0 until then, not empty
         [((f'(sum(rate(referee_http_requests_total{{{GATEWAY},status=~"5.."}}[5m])) '
            f"or vector(0)) / sum(rate(referee_http_requests_total{{{GATEWAY}}}[5m]))"),
           "5xx")],
         "Alert RefereeHighErrorRatio past 5 % for 5 minutes."),
        ("p99 latency by route", "s",
         [(("histogram_quantile(0.99, sum by (le, route) (rate("
            f"referee_http_request_duration_seconds_bucket{{{GATEWAY}}}[5m])))"), "{{route}}")],
         "Alert RefereeSlowAnswers past 1 s for 10 minutes (event streams: time to open)."),
        ("Session moves per second by game and mode", "ops",
         [("sum by (game, mode) (rate(referee_session_moves_total[5m]))",
           "{{game}} {{mode}}")], "Moves that landed in a session."),
        ("Refusals per second by code", "reqps",
         [(f"sum by (code) (rate(referee_refusals_total{{{GATEWAY}}}[5m]))", "{{code}}")],
         "problem+json answers (4xx) by their code: illegal_move, not_your_turn…"),
        ("Live sessions and open event streams", "short",
         [("max(referee_sessions_live)", "live sessions"),
          ("sum(referee_event_streams_open)", "open event streams")],
         "Sessions written within their TTL; Server-Sent Events streams open now."),
    ],
    "Dependencies": [
        ("Redis up (every gateway)", "short",
         [("min(referee_redis_up)", "lowest"), ("max(referee_redis_up)", "highest")],
         ("1 when a gateway's background probe reaches Redis (a scrape never waits on it). "
          "Alert RefereeRedisDown at 0 everywhere, RefereeRedisProbeErrors on one gateway.")),
        ("Redis command p99 by command", "s",
         [(("histogram_quantile(0.99, sum by (le, command) (rate("
            "referee_redis_command_duration_seconds_bucket[5m])))"), "{{command}}")],
         "Scripts run as EVALSHA; retries are included."),
        ("Redis errors per second", "ops",
         # a Redis error's labels are known at the error only: none yet is 0, not empty
         [("sum by (command, error) (rate(referee_redis_errors_total[5m])) or vector(0)",
           "{{command}} {{error}}"),
          ("sum by (instance) (rate(referee_redis_probe_failures_total[5m]))",
           "probe {{instance}}")],
         ("Failed commands by error class (StoreDown: refused at once while the probe "
          "fails); unanswered probes by gateway pod.")),
        ("Game service calls p99 by game", "s",
         [(("histogram_quantile(0.99, sum by (le, game) (rate("
            "referee_upstream_request_duration_seconds_bucket[5m])))"), "{{game}}")],
         "The gateway's calls to each game service."),
        ("Upstream failures per second", "ops",
         [("sum by (game, reason) (rate(referee_upstream_failures_total[5m]))",
           "{{game}} {{reason}}")], "Alert RefereeUpstreamFailures past 0.1/s for 5 minutes."),
        ("Rate-limit hits per second", "reqps",
         [("sum by (route) (rate(referee_rate_limit_hits_total[5m]))", "{{route}}")],
         "429 answers. Alert RefereeRateLimitStorm past 5/s for 10 minutes."),
    ],
    "Game services and bots": [
        ("Game service answers per second", "reqps",
         [(('sum by (service, status) (rate(referee_http_requests_total{service!="gateway"}'
            "[5m]))"), "{{service}} {{status}}")], "Every answer of every game service."),
        ("Moves applied by the game services", "ops",
         [("sum by (game, mode) (rate(referee_moves_applied_total[5m]))",
           "{{game}} {{mode}}")], "Session moves and stateless /apply calls."),
        ("Bot decisions per second", "ops",
         [("sum by (game) (rate(referee_bot_decisions_total[5m]))", "{{game}}")],
         "Moves chosen by bots (counted by the game services that thought them)."),
        ("Bot lag p90 by lane", "s",
         [(("histogram_quantile(0.9, sum by (le, lane) (rate("
            "referee_botworker_lag_seconds_bucket[5m])))"), "{{lane}}")],
         ("From a bot's turn to its move landing, thinking included (BOT_BUDGET_MS). The "
          "bot worker scales on it; alert RefereeBotsLate past 10 s for 5 minutes.")),
        ("Bot worker moves and errors per second", "ops",
         [("sum by (game) (rate(referee_botworker_moves_total[5m]))", "{{game}}"),
          ("sum by (reason) (rate(referee_botworker_errors_total[5m]))", "error {{reason}}")],
         "Bot moves the worker made land; moves it could not make, by reason."),
    ],
}


def dashboard() -> str:
    """The Grafana dashboard (JSON model) of :data:`DASHBOARD`: two panels a row."""
    panels, y = [], 0
    for row, charts in DASHBOARD.items():
        panels.append({"type": "row", "title": row, "collapsed": False, "panels": [],
                       "gridPos": {"h": 1, "w": 24, "x": 0, "y": y}})
        y += 1
        for index, (title, unit, queries, description) in enumerate(charts):
            panels.append({
                "type": "timeseries", "title": title, "description": description,
                "datasource": {"type": "prometheus", "uid": "${datasource}"},
                "fieldConfig": {"defaults": {"unit": unit}, "overrides": []},
                "gridPos": {"h": 8, "w": 12, "x": 12 * (index % 2), "y": y + 8 * (index // 2)},
                "targets": [{"refId": chr(ord("A") + i), "expr": expr, "legendFormat": legend,
                             "datasource": {"type": "prometheus", "uid": "${datasource}"}}
                            for i, (expr, legend) in enumerate(queries)]})
        y += 8 * ((len(charts) + 1) // 2)
    for number, panel in enumerate(panels, 1):
        panel["id"] = number
    model = {
        "title": "tabletop-referee", "uid": "tabletop-referee", "schemaVersion": 39,
        "tags": ["tabletop-referee"], "timezone": "utc", "refresh": "30s",
        "time": {"from": "now-6h", "to": "now"}, "editable": True,
        "templating": {"list": [{"name": "datasource", "label": "Prometheus",
                                 "type": "datasource", "query": "prometheus"}]},
        "panels": panels}
    return json.dumps(model, indent=2, ensure_ascii=False) + "\n"
