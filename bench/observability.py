"""make bench, operating's cost: session moves with metrics and access logs on, and off.

Two stacks share one Redis and the machine: one as deployed (a metrics port per server,
``LOG_LEVEL=info``: a JSON line per request per process, written to a file as a container's
stderr would be), one with both off (``METRICS_PORT=0``, ``LOG_LEVEL=warning``). The same
session-move load runs against each in alternating rounds (on, off, off, on, …) so that a
neighbour's burst on the shared cores falls on both alike; each round's pair gives a ratio
and the median ratio is the cost.
Throughput on a machine shared with other work is noisy, so the servers' own CPU time per
move (every gunicorn process of each stack, from /proc) is measured too, and, steadiest,
the same servers run in this one process (threads, real HTTP on loopback, real Redis) where
their CPU time per move is this process's less the client's, the two taking turns move by
move (the batches of log lines and metric writes are made on the on side's clock). Request
ids stay on in both: they cost a header.
"""

import os
import statistics
import tempfile
import threading
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path

import requests
from referee.embedded import EmbeddedRedis, free_port
from referee.stack import Stack

ON = {"LOG_LEVEL": "info"}
OFF = {"LOG_LEVEL": "warning", "METRICS_PORT": "0"}


def taking_turns(pairs: int) -> list[str]:
    """``on, off, off, on, on, off, …``: each goes first as often, ``pairs`` times each."""
    return [name for n in range(pairs) for name in
            (("on", "off") if n % 2 == 0 else ("off", "on"))]


@contextmanager
def stderr_to(path):
    """Servers started meanwhile write their log to ``path`` (they inherit fd 2)."""
    saved = os.dup(2)
    with open(path, "ab") as log:
        os.dup2(log.fileno(), 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def cpu_seconds(stack) -> float:
    """CPU time used so far by every gunicorn process of ``stack`` (masters and workers)."""
    masters, used = {p.pid for p in stack.processes.values()}, 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            pid = int(stat.parent.name)
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, ValueError):
            continue  # gone meanwhile
        if pid in masters or int(fields[1]) in masters:
            used += int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks
    return used / os.sysconf("SC_CLK_TCK")


def measure(load, player, workers: int, threads: int, rounds: int, say) -> dict:
    """``{"on": [rates], "off": [rates], "lines": access lines written, …}``."""
    rates = {"on": [], "off": [], "on_cpu": [], "off_cpu": []}
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis() as redis_server, \
            ExitStack() as running:
        log_path = os.path.join(tmp, "servers.log")
        say("observability: starting the stack twice (metrics and logs on, and off)…")
        stacks = {}
        with stderr_to(log_path):  # the servers' log, not this terminal
            for name, env in (("on", ON), ("off", OFF)):
                stacks[name] = running.enter_context(Stack(
                    port=free_port(), workers=workers, threads=threads,
                    redis_url=redis_server.url, log=lambda line: None,
                    env=dict(env, RATE_LIMIT_PER_MINUTE="0")))
        for name in taking_turns(rounds):
            say(f"observability: {name}, {load.clients} clients, {load.seconds:g} s…")
            used = cpu_seconds(stacks[name])
            result = load.run(lambda i, url=stacks[name].url: player(url))
            moves = result["rate"] * load.seconds
            rates[f"{name}_cpu"].append((cpu_seconds(stacks[name]) - used) / moves * 1000)
            rates[name].append(result["rate"])
            rates[f"{name}_errors"] = rates.get(f"{name}_errors", 0) + result["errors"]
        scraped = requests.get(stacks["on"].metrics_urls["gateway"], timeout=10).text
        rates["metrics_off"] = not stacks["off"].metrics_urls
        running.close()  # stopped: every line is written
        with open(log_path, encoding="utf-8", errors="replace") as log:
            rates["lines"] = sum('"referee.access"' in line for line in log)
    rates["in_process"] = measure_in_process(player, rounds, 150, say)
    rates["moves_counted"] = sum(float(line.rsplit(" ", 1)[1]) for line in scraped.splitlines()
                                 if line.startswith("referee_session_moves_total{"))
    return rates


def measure_in_process(player, rounds: int, moves: int, say) -> dict:
    """The gateway and the Ghostone service as threads of this process, once with metrics and
    access logs on and once off: ``{"on": [ms per move], "off": […]}`` of server CPU."""
    import logging
    from importlib import import_module

    from werkzeug.serving import WSGIRequestHandler, make_server

    class Quiet(WSGIRequestHandler):
        def log_request(self, *args, **kwargs):
            pass

    def serve(app):
        server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=Quiet)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server

    cpu = {"on": [], "off": []}
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis() as redis_server, \
            open(os.path.join(tmp, "lines.log"), "w") as lines:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tmp  # as under gunicorn, before the import
        from referee import batches, logs, metrics
        from referee_gateway import create_app
        service = import_module("ghostone.service").create_app
        # as a server process sets up its log (JSON lines, and no record looks up its
        # source line, thread or process): a bare handler would make each line cost more
        logs.configure("info", lines)
        root = logging.getLogger()
        handler = next(h for h in root.handlers if getattr(h, "_referee_json", False))
        # Lines and metric writes wait for a batch (referee.batches); here the batches are
        # made on the on side's clock, every tenth move, not by a thread whose time would
        # fall on whichever side happened to be moving
        handler.interval = metrics.WRITES.interval = 3600
        servers, players = [], {}
        for name, port in (("on", 9100), ("off", 0)):
            game = serve(service({"METRICS_PORT": port}))
            gateway = serve(create_app({"METRICS_PORT": port, "REDIS_URL": redis_server.url,
                                        "RATE_LIMIT_PER_MINUTE": 0, "GAME_SERVICES": {
                                            "ghostone": f"http://127.0.0.1:{game.port}"}}))
            servers += [game, gateway]
            players[name] = player(f"http://127.0.0.1:{gateway.port}", "ghostone")
        say(f"observability: in one process, {rounds} rounds of {moves} moves each way…")
        try:
            for _ in range(rounds):
                # on and off take turns move by move: a neighbour's burst, a slower core or
                # a collection falls on both alike, where rounds of their own drift apart
                used = {"on": 0.0, "off": 0.0}
                for n, name in enumerate(taking_turns(moves)):
                    root.setLevel(logging.INFO if name == "on" else logging.WARNING)
                    process, client = time.process_time(), time.thread_time()
                    players[name]()
                    if name == "on" and n % 20 >= 18:
                        batches.flush_all()
                    used[name] += time.process_time() - process - (time.thread_time() - client)
                for name, seconds in used.items():
                    cpu[name].append(seconds / moves * 1000)
        finally:
            for server in servers:
                server.shutdown()
            root.removeHandler(handler)
            os.environ.pop("PROMETHEUS_MULTIPROC_DIR")
    return cpu


def report(rates: dict, load) -> None:
    on, off = statistics.median(rates["on"]), statistics.median(rates["off"])
    cost = 1 - statistics.median(a / b for a, b in zip(rates["on"], rates["off"], strict=True))
    cpu = statistics.median(a / b for a, b in zip(rates["on_cpu"], rates["off_cpu"],
                                                  strict=True)) - 1

    def listed(values, form="{:,.0f}"):
        return ", ".join(form.format(v) for v in values)

    print(f"\nOperating's cost: session moves, {load.clients} clients, "
          f"{len(rates['on'])} alternating rounds of {load.seconds:g} s each way")
    print(f"  {'metrics + JSON access logs on':<32}{on:>8,.0f} moves/s (median; rounds "
          f"{listed(rates['on'])}; errors {rates['on_errors']})")
    print(f"  {'both off':<32}{off:>8,.0f} moves/s (median; rounds "
          f"{listed(rates['off'])}; errors {rates['off_errors']})")
    ratios = sorted(1 - a / b for a, b in zip(rates["on"], rates["off"], strict=True))
    print(f"  {'throughput cost':<32}{cost * 100:>7.1f} %  (median of the rounds' "
          f"1 - on/off; budget 5 %; middle half of the rounds {ratios[len(ratios) // 4] * 100:.1f}"
          f" to {ratios[(3 * len(ratios)) // 4 - 1] * 100:.1f} %)")
    print(f"  {'servers CPU per move':<32}{cpu * 100:>+7.1f} %  (median of the rounds' "
          f"on/off - 1; ms on: {listed(rates['on_cpu'], '{:.2f}')}; off: "
          f"{listed(rates['off_cpu'], '{:.2f}')})")
    if "in_process" in rates:
        steady = rates["in_process"]
        steady_ratios = sorted(a / b - 1 for a, b in zip(steady["on"], steady["off"],
                                                         strict=True))
        ratio, quarter = statistics.median(steady_ratios), len(steady_ratios) // 4
        print(f"  {'in one process (steadiest)':<32}{ratio * 100:>+7.1f} %  (servers' CPU per "
              f"move, on and off taking turns; middle half of the rounds "
              f"{steady_ratios[quarter] * 100:+.1f} to {steady_ratios[-quarter - 1] * 100:+.1f} %;"
              f" ms on: {listed(steady['on'], '{:.2f}')}; off: "
              f"{listed(steady['off'], '{:.2f}')})")
    print(f"  the on stack wrote {rates['lines']:,} access lines and counted "
          f"{rates['moves_counted']:,.0f} session moves; the off stack served no metrics: "
          f"{rates['metrics_off']}")
