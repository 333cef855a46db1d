"""make bench, operating's cost: session moves with metrics and access logs on, and off.

Both sides run in the same server processes (``bench/paired.py``): the Ghostone service and
the gateway, each one gunicorn worker, serve three apps on three ports: ``on`` as deployed
(a metrics port, ``LOG_LEVEL=info``: a JSON line per request, written to a file as a
container's stderr would be), ``off`` with both off (``METRICS_PORT=0``, access lines below
the level) and ``control``, off again. The same clients move on one side at a time, a
window of a second each, the three in every order in turn; each turn's windows give a
ratio. The control against off is the same measure where nothing differs: what this run's
noise alone shows. (Earlier the sides were separate stacks of processes: two processes of
the same app differed by up to ±5 % on the shared two-core machine this was built on, which
hid the cost. Sharing the processes, the sides share where their memory lies, which core
they run on and their collections.) A window's rate is the moves begun in it over the time
from its start to the last one's answer. Then the clients wait ``SETTLE`` seconds, so that
the window's batched log lines and metric writes (``referee.batches``: at most 0.1 s late)
are made before the next side moves; the servers' CPU time (every thread of both gunicorn
processes, from the scheduler's nanosecond counts) is counted over the window and its
settling. The servers are started afresh for each of a few ``sets``, the apps built in a
different order each time. Last, and steadiest, the same servers run as threads of this
process (real HTTP on loopback, real Redis), on and off taking turns move by move.
Request ids stay on in all: they cost a header.
"""

import itertools
import math
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Self

import requests
from paired import SIDES  # bench/paired.py: the apps of each side, in one server
from referee.embedded import EmbeddedRedis, free_port
from referee.stack import wait_ready

HERE = Path(__file__).resolve().parent
#: seconds the clients wait after a window: its batched work (at most 0.1 s late) is done
#: before the next, with room for a batch thread that waits for the GIL
SETTLE = 0.25
#: seconds a server keeps an idle connection: longer than a side waits between its windows
#: (up to four others'), as a client's next move would find it closed at the deployed 5 s
KEEPALIVE = 30
#: every order of the three sides, taken in turn: each goes first, second and last as often
ORDERS = list(itertools.permutations(SIDES))


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


def cpu_seconds(masters: set[int]) -> float:
    """CPU time used so far by every thread of the gunicorn ``masters`` and their workers,
    to the nanosecond: the scheduler's own count (``schedstat``), not the clock-tick
    samples of ``stat``, which charge a whole tick to whoever runs when it falls."""
    used = 0
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


class PairedServers:
    """The Ghostone service and the gateway under gunicorn, one worker each, serving the
    three sides' apps (``bench/paired.py``), built in the order of ``sides``."""

    def __init__(self, redis_url: str, threads: int, sides, tmp: str):
        self.urls, self.metrics_urls, self.processes = {}, {}, []
        self.redis_url, self.threads, self.sides, self.tmp = redis_url, threads, sides, tmp

    def __enter__(self) -> Self:
        try:
            service = self._start("service", "paired:service()", {})
            self._start("gateway", "paired:gateway()", {
                "REDIS_URL": self.redis_url, "GUNICORN_WORKER_CLASS": "gevent",
                "PAIRED_SERVICES": ",".join(f"{side}={url}" for side, url in service.items())})
        except BaseException:
            self.__exit__()
            raise
        return self

    def _start(self, name: str, app: str, env: dict) -> dict:
        ports, metrics_port = {side: free_port() for side in self.sides}, free_port()
        binds = [arg for port in [*ports.values(), metrics_port]
                 for arg in ("-b", f"127.0.0.1:{port}")]
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "python:referee.gunicorn_conf",
             "--pythonpath", str(HERE), *binds, app],
            env=dict(os.environ, **env, WEB_CONCURRENCY="1", GUNICORN_THREADS=str(self.threads),
                     LOG_LEVEL="info", RATE_LIMIT_PER_MINUTE="0", GUNICORN_KEEPALIVE=str(KEEPALIVE),
                     METRICS_PORT=str(metrics_port),
                     PROMETHEUS_MULTIPROC_DIR=os.path.join(self.tmp, name),
                     PAIRED_PORTS=",".join(f"{side}={port}" for side, port in ports.items())),
            start_new_session=True)
        self.processes.append(process)
        urls = {side: f"http://127.0.0.1:{port}" for side, port in ports.items()}
        wait_ready(urls["on"], process)
        self.urls, self.metrics_urls[name] = urls, f"http://127.0.0.1:{metrics_port}/metrics"
        return urls

    def cpu_seconds(self) -> float:
        return cpu_seconds({process.pid for process in self.processes})

    def __exit__(self, *exc) -> None:
        for process in reversed(self.processes):
            process.terminate()
        for process in self.processes:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()


class Windows:
    """The same client threads moving on one side at a time, in windows of a second or so.

    Each client holds a game on every side and moves wherever it is told. The sides take
    turns window by window, so a neighbour's burst on the shared cores or a slower stretch
    falls on all alike; short windows keep each turn's windows close in time. A client is
    never started or stopped between windows (that would cost more than the window measures).
    """

    def __init__(self, urls: dict, player, clients: int):
        self.active, self.done = None, dict.fromkeys(urls, 0)
        self.errors, self._moving = dict.fromkeys(urls, 0), 0
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
            with self._lock:
                self._moving += 1
            try:
                ok = steps[name]() is not None
            except requests.RequestException:  # counted, and the client moves on
                ok = False
            with self._lock:
                self._moving -= 1
                if ok:
                    self.done[name] += 1
                else:
                    self.errors[name] += 1

    def run(self, name: str, seconds: float) -> tuple[int, float]:
        """The moves begun on ``name`` while it was moved on for ``seconds``, and the time from
        the first begun to the last answered (a move begun at the end counts with the time it
        took). When this returns, the last was answered ``SETTLE`` s ago."""
        before, began = self.done[name], time.perf_counter()
        self.active = name
        time.sleep(seconds)
        self.active = None
        while self._moving:  # the moves begun in the window end before another side's begin
            time.sleep(0.0005)
        took = time.perf_counter() - began
        time.sleep(SETTLE)
        return self.done[name] - before, took

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(30)


def measure(load, player, threads: int, turns: int, say, sets: int = 3) -> dict:
    """``{"on": [moves/s], "off": […], "control": […], "on_cpu": [ms/move], …}``: ``turns``
    turns of a window of ``load.seconds`` on each side, on ``sets`` servers started one
    after the other (as many turns on each), and the checks that on counted and logged
    every move and the others none."""
    rates = {key: [] for side in SIDES for key in (side, f"{side}_cpu")}
    rates.update(errors=dict.fromkeys(SIDES, 0), moves=dict.fromkeys(SIDES, 0),
                 sets=[], moves_counted=0)
    each = max(1, turns // sets)
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis() as redis_server:
        log_path = os.path.join(tmp, "servers.log")
        say(f"observability: {sets} sets of servers serving three sides (metrics and logs "
            f"on, both off, both off again), {load.clients} clients, {each} windows of "
            f"{load.seconds:g} s on each side of each set…")
        for number in range(sets):
            with ExitStack() as running:
                with stderr_to(log_path):  # the servers' log, not this terminal
                    servers = running.enter_context(PairedServers(
                        redis_server.url, threads, ORDERS[number % len(ORDERS)], tmp))
                windows = Windows(servers.urls, player, load.clients)
                own = {side: [] for side in SIDES}
                try:
                    for side in SIDES:  # warming up: new connections, first calls
                        windows.run(side, load.seconds)
                    for turn in range(each):
                        for side in ORDERS[(number * each + turn) % len(ORDERS)]:
                            used = servers.cpu_seconds()
                            moves, took = windows.run(side, load.seconds)
                            rates[side].append(moves / took)
                            rates[f"{side}_cpu"].append(
                                (servers.cpu_seconds() - used) / moves * 1000)
                            own[side].append(rates[side][-1])
                finally:
                    windows.stop()
                for side in SIDES:
                    rates["errors"][side] += windows.errors[side]
                    rates["moves"][side] += windows.done[side]
                median = {side: statistics.median(own[side]) for side in SIDES}
                rates["sets"].append((1 - median["on"] / median["off"],
                                      1 - median["control"] / median["off"]))
                say(f"observability: set {number + 1} of {sets}: throughput cost "
                    f"{rates['sets'][-1][0]:+.1%} (both off again: {rates['sets'][-1][1]:+.1%})")
                scraped = requests.get(servers.metrics_urls["gateway"], timeout=10).text
                rates["moves_counted"] += sum(
                    float(line.rsplit(" ", 1)[1]) for line in scraped.splitlines()
                    if line.startswith("referee_session_moves_total{"))
            # stopped: every line is written
        with open(log_path, encoding="utf-8", errors="replace") as log:
            rates["move_lines"] = sum('"referee.access"' in line and '"service": "gateway"'
                                      in line and '/moves"' in line for line in log)
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
        handler.interval = metrics.WRITES.interval = logs.RECORDS.interval = 3600
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


def geometric(ratios: list[float]) -> tuple[float, float, float]:
    """The turns' mean ratio and its 95 % confidence interval, taken on their logarithms:
    the arithmetic mean of ratios of noisy rates leans high (by about the square of their
    spread, a point or so here), the mean of their logarithms does not."""
    logs = [math.log(ratio) for ratio in ratios]
    mean, half = statistics.fmean(logs), 1.96 * statistics.stdev(logs) / math.sqrt(len(logs))
    return math.exp(mean), math.exp(mean - half), math.exp(mean + half)


def report(rates: dict, load) -> None:
    # each turn's windows: the ratio of a side's throughput, and of its CPU per move, to off's
    def ratios(key, side):
        return [a / b for a, b in zip(rates[f"{side}{key}"], rates[f"off{key}"], strict=True)]

    def lost(side) -> tuple[float, float, float]:
        mean, low, high = geometric(ratios("", side))
        return 1 - mean, 1 - high, 1 - low

    def added(side) -> tuple[float, float, float]:
        return tuple(value - 1 for value in geometric(ratios("_cpu", side)))

    def listed(values, form="{:,.0f}"):
        return ", ".join(form.format(v) for v in values)

    def middle_half(values, form="{:+.1f}", scale=100) -> str:
        ordered, quarter = sorted(values), len(values) // 4
        return f"{form.format(ordered[quarter] * scale)} to " \
               f"{form.format(ordered[-quarter - 1] * scale)}"

    def estimate(mean_low_high) -> str:
        mean, low, high = mean_low_high
        return f"{mean * 100:>+7.1f} %  (95 % interval {low * 100:+.1f} to {high * 100:+.1f} %)"

    print(f"\nOperating's cost: session moves, {load.clients} clients, {len(rates['on'])} "
          f"turns of a {load.seconds:g} s window on each side, in the same server processes "
          f"(the Ghostone service and the gateway, one worker each; {len(rates['sets'])} sets "
          f"started one after the other); costs: the turns' ratios to off, averaged on "
          f"their logarithms, with a 95 % interval")
    for label, side in (("metrics + JSON access logs on", "on"), ("both off", "off"),
                        ("both off again (control)", "control")):
        print(f"  {label:<32}{statistics.median(rates[side]):>8,.0f} moves/s (median; middle "
              f"half of the windows {middle_half(rates[side], '{:,.0f}', 1)}; errors "
              f"{rates['errors'][side]})")
    print(f"  {'throughput cost (1 - on/off)':<32}{estimate(lost('on'))}")
    print(f"  {'control (1 - control/off)':<32}{estimate(lost('control'))}  "
          f"what noise alone shows")
    print(f"  {'servers CPU per move (on/off-1)':<32}{estimate(added('on'))}; ms on "
          f"{statistics.median(rates['on_cpu']):.2f}, "
          f"off {statistics.median(rates['off_cpu']):.2f}")
    print(f"  {'the same, control':<32}{estimate(added('control'))}")
    print(f"  {'each set (on; control)':<32}"
          + ", ".join(f"{on:+.1%}; {control:+.1%}" for on, control in rates["sets"]))
    if "in_process" in rates:
        steady = rates["in_process"]
        steady_added = [a / b - 1 for a, b in zip(steady["on"], steady["off"], strict=True)]
        print(f"  {'in one process (steadiest)':<32}{statistics.median(steady_added) * 100:>+7.1f}"
              f" %  (servers' CPU per move, on and off taking turns; middle half of the rounds "
              f"{middle_half(steady_added)} %; ms on: {listed(steady['on'], '{:.2f}')}; off: "
              f"{listed(steady['off'], '{:.2f}')})")
    _, _, high = lost("on")
    print(f"  budget 5 %: {'met' if high < 0.05 else 'not shown'} (the throughput cost's 95 % "
          f"interval ends at {high:.1%})")
    moves = rates["moves"]
    print(f"  on counted {rates['moves_counted']:,.0f} session moves and logged "
          f"{rates['move_lines']:,} of them, of the {moves['on']:,} made there; off and "
          f"control, {moves['off']:,} and {moves['control']:,} moves, counted and logged "
          f"none: {rates['moves_counted'] == rates['move_lines'] == moves['on']}")
