"""make bench, operating's cost: session moves with metrics and access logs on, and off.

Stacks share one Redis and the machine: one as deployed (a metrics port per server,
``LOG_LEVEL=info``: a JSON line per request per process, written to a file as a container's
stderr would be), one with both off (``METRICS_PORT=0``, ``LOG_LEVEL=warning``), and a second
one with both off, the control. The same clients move on each in turn, a window of a second
each, in every order in turn, so that a neighbour's burst on the shared cores falls on all
alike; each turn's windows give a ratio and the median ratio is the cost. The control
against the off stack is the same measure where nothing differs: what this run's noise
alone shows. (On the shared two-core machine this was built on, single windows of one stack
differ by ±15 %, and A/A runs of two minutes gave medians from -5 % to +5 %.)
Two stacks are two sets of processes, so the stacks are started afresh several times
(``generations``), each after a warming-up window, and the windows of every set count. Each
server has one worker (``--observability-workers``): with two, where the clients' kept-alive
connections fell across the workers was drawn once per stack. Only the Ghostone service is
started (the one the clients play). The servers' CPU time per move (every thread of every
gunicorn process of each stack, from the scheduler's nanosecond counts) is measured too,
and, steadiest, the same servers run in this one process (threads, real HTTP on loopback,
real Redis) where their CPU time per move is this process's less the client's, the two
taking turns move by move (the batches of log lines and metric writes are made on the on
side's clock). Request ids stay on in all: they cost a header.
"""

import itertools
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
    """CPU time used so far by every thread of every gunicorn process of ``stack`` (masters
    and workers), to the nanosecond: the scheduler's own count (``schedstat``), not the
    clock-tick samples of ``stat``, which charge a whole tick to whoever runs when it falls."""
    masters, used = {p.pid for p in stack.processes.values()}, 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            pid = int(stat.parent.name)
            if pid not in masters and int(stat.read_text().rsplit(")", 1)[1].split()[1]) \
                    not in masters:
                continue
            used += sum(int(task.read_text().split()[0])
                        for task in stat.parent.glob("task/[0-9]*/schedstat"))
        except (OSError, ValueError):
            continue  # gone meanwhile
    return used / 1e9


class Windows:
    """The same client threads moving on one stack at a time, in windows of a second or so.

    Each client holds a game on every stack and moves wherever it is told. The stacks take
    turns window by window, so a neighbour's burst on the shared cores or a slower stretch
    falls on both alike; short windows keep each pair close in time. A client is never
    started or stopped between windows (that would cost more than the window measures).
    """

    def __init__(self, urls: dict, player, clients: int):
        self.active, self.done = None, dict.fromkeys(urls, 0)
        self.errors = dict.fromkeys(urls, 0)
        self._lock, self._stop = threading.Lock(), threading.Event()
        self._ready = threading.Barrier(clients + 1)
        self._threads = [threading.Thread(target=self._client, args=(urls, player),
                                          daemon=True) for _ in range(clients)]
        for thread in self._threads:
            thread.start()
        self._ready.wait()

    def _client(self, urls, player):
        steps = {name: player(url) for name, url in urls.items()}
        self._ready.wait()
        while not self._stop.is_set():
            name = self.active
            if name is None:
                time.sleep(0.01)
                continue
            ok = steps[name]() is not None
            with self._lock:
                if ok:
                    self.done[name] += 1
                else:
                    self.errors[name] += 1

    def run(self, name: str, seconds: float) -> int:
        """The moves made on ``name`` while it was the one moved on for ``seconds``."""
        before = self.done[name]
        self.active = name
        time.sleep(seconds)
        self.active = None
        return self.done[name] - before

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(30)


#: the stacks a generation starts: "control" is a second stack with both off, so the run
#: shows its own noise (an A/A comparison measured alongside, window by window)
CONFIGS = {"on": ON, "off": OFF, "control": OFF}
#: every order of the three, taken in turn: each goes first, second and last as often
ORDERS = list(itertools.permutations(CONFIGS))


def measure(load, player, workers: int, threads: int, rounds: int, say,
            generations: int = 6) -> dict:
    """``{"on": [rates], "off": […], "control": […], "lines": access lines written, …}``:
    ``rounds`` windows of ``load.seconds`` on each stack, taking turns, on ``generations``
    sets of stacks started one after the other (as many windows on each)."""
    rates = {key: [] for name in CONFIGS for key in (name, f"{name}_cpu")}
    rates.update({f"{name}_errors": 0 for name in CONFIGS}, generations=[], moves_counted=0)
    each = max(1, rounds // generations)
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis() as redis_server:
        log_path = os.path.join(tmp, "servers.log")
        say(f"observability: {generations} sets of three stacks (metrics and logs on, both "
            f"off, both off again), {load.clients} clients, {each} windows of "
            f"{load.seconds:g} s on each stack of each set…")
        for generation in range(generations):
            with ExitStack() as running:
                stacks = {}
                with stderr_to(log_path):  # the servers' log, not this terminal
                    # which starts first (and so which ports and pids it gets) turns too
                    for name in ORDERS[generation % len(ORDERS)]:
                        stacks[name] = running.enter_context(Stack(
                            port=free_port(), workers=workers, threads=threads,
                            redis_url=redis_server.url, log=lambda line: None,
                            games=["ghostone"],
                            env=dict(CONFIGS[name], RATE_LIMIT_PER_MINUTE="0")))
                windows = Windows({name: stack.url for name, stack in stacks.items()},
                                  player, load.clients)
                own = {name: [] for name in CONFIGS}
                try:
                    for name in CONFIGS:  # warming up: new connections, first calls
                        windows.run(name, load.seconds)
                    for turn in range(each):
                        for name in ORDERS[(generation * each + turn) % len(ORDERS)]:
                            used = cpu_seconds(stacks[name])
                            moves = windows.run(name, load.seconds)
                            rates[f"{name}_cpu"].append(
                                (cpu_seconds(stacks[name]) - used) / moves * 1000)
                            rates[name].append(moves / load.seconds)
                            own[name].append(rates[name][-1])
                finally:
                    windows.stop()
                for name in CONFIGS:
                    rates[f"{name}_errors"] += windows.errors[name]
                median = {name: statistics.median(own[name]) for name in CONFIGS}
                rates["generations"].append((1 - median["on"] / median["off"],
                                             1 - median["control"] / median["off"]))
                say(f"observability: set {generation + 1} of {generations}: throughput cost "
                    f"{rates['generations'][-1][0]:+.1%} (both off again: "
                    f"{rates['generations'][-1][1]:+.1%})")
                time.sleep(0.5)  # the last metric writes (in batches, 0.1 s late at most)
                scraped = requests.get(stacks["on"].metrics_urls["gateway"], timeout=10).text
                rates["moves_counted"] += sum(
                    float(line.rsplit(" ", 1)[1]) for line in scraped.splitlines()
                    if line.startswith("referee_session_moves_total{"))
                rates["metrics_off"] = not stacks["off"].metrics_urls
            # stopped: every line is written
        with open(log_path, encoding="utf-8", errors="replace") as log:
            rates["lines"] = sum('"referee.access"' in line for line in log)
    rates["in_process"] = measure_in_process(player, 16, 150, say)
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
    # each turn's windows: throughput lost, and CPU per move added, against the off stack
    def lost(name):
        return [1 - a / b for a, b in zip(rates[name], rates["off"], strict=True)]

    def added(name):
        return [a / b - 1 for a, b in zip(rates[f"{name}_cpu"], rates["off_cpu"], strict=True)]

    def listed(values, form="{:,.0f}"):
        return ", ".join(form.format(v) for v in values)

    def middle_half(values, form="{:+.1f}", scale=100) -> str:
        ordered, quarter = sorted(values), len(values) // 4
        return f"{form.format(ordered[quarter] * scale)} to " \
               f"{form.format(ordered[-quarter - 1] * scale)}"

    print(f"\nOperating's cost: session moves, {load.clients} clients, "
          f"{len(rates['on'])} windows of {load.seconds:g} s on each stack, taking turns, on "
          f"{len(rates['generations'])} sets of stacks started one after the other")
    for label, name in (("metrics + JSON access logs on", "on"), ("both off", "off"),
                        ("both off again (control)", "control")):
        print(f"  {label:<32}{statistics.median(rates[name]):>8,.0f} moves/s (median; middle "
              f"half of the windows {middle_half(rates[name], '{:,.0f}', 1)}; errors "
              f"{rates[name + '_errors']})")
    print(f"  {'throughput cost':<32}{statistics.median(lost('on')) * 100:>7.1f} %  (median of "
          f"the turns' 1 - on/off; budget 5 %; middle half {middle_half(lost('on'), '{:.1f}')} %)")
    print(f"  {'the same, control against off':<32}{statistics.median(lost('control')) * 100:>7.1f}"
          f" %  (what this run's noise alone shows; middle half "
          f"{middle_half(lost('control'), '{:.1f}')} %)")
    print(f"  {'each set (on; control)':<32}"
          + ", ".join(f"{on:+.1%}; {control:+.1%}" for on, control in rates["generations"]))
    print(f"  {'servers CPU per move':<32}{statistics.median(added('on')) * 100:>+7.1f} %  "
          f"(median of the turns' on/off - 1; control {statistics.median(added('control')):+.1%}"
          f"; median ms on {statistics.median(rates['on_cpu']):.2f}, off "
          f"{statistics.median(rates['off_cpu']):.2f})")
    if "in_process" in rates:
        steady = rates["in_process"]
        steady_added = [a / b - 1 for a, b in zip(steady["on"], steady["off"], strict=True)]
        print(f"  {'in one process (steadiest)':<32}{statistics.median(steady_added) * 100:>+7.1f}"
              f" %  (servers' CPU per move, on and off taking turns; middle half of the rounds "
              f"{middle_half(steady_added)} %; ms on: {listed(steady['on'], '{:.2f}')}; off: "
              f"{listed(steady['off'], '{:.2f}')})")
    print(f"  the on stack wrote {rates['lines']:,} access lines and counted "
          f"{rates['moves_counted']:,.0f} session moves; the off stack served no metrics: "
          f"{rates['metrics_off']}")
