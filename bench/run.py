"""make bench: the referee's speed measured side by side with yardsticks, in one run.

1. engines: random-playout steps per second (legal moves + apply) of every
   installed game against python-chess's (list legal moves + push) — a ratio;
2. sessions: moves per second and p50/p99 latency of session moves through the
   gateway with N concurrent clients, against a minimal two-hop Flask echo
   under the same gunicorn settings — a ratio;
3. streams (bench/streams.py): open event streams one gateway replica holds,
   move latency without and with them open, move-to-event latency.
4. bots (bench/bots.py, hours: --skip-bots, --bot-args): the strong bot's win
   rates against random and greedy bots, its decision time and its search's
   iterations per second, per game and budget (--bot-args "--budget-ms 1000
   --budget-ms 250 --cpu-clock": both budgets on the same seeds, in CPU time).
5. operating's cost (bench/observability.py): session moves with metrics and
   access logs on against both off, in the same server processes — throughput and
   the servers' CPU per move.
Only loopback addresses are used; every loop is bounded in time.
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import requests
from observability import measure, report  # bench/observability.py: operating's cost
from referee.embedded import EmbeddedRedis, free_port
from referee.registry import engines
from referee.rng import Pcg32
from referee.stack import Stack, wait_ready

HERE = Path(__file__).resolve().parent


def say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


# ------------------------------------------------------------------ engines
def engine_steps(engine, seconds: float, trusted: bool = True, seed: int = 0) -> tuple:
    """Random-playout steps in ``seconds``: ``(steps, elapsed)``. ``trusted``: the referee's
    own playouts (as a bot's): a state it made itself skips the whole-state check and is
    played in place (``play_in_place``, as python-chess's ``push``); ``False``: every step
    is a client's (``legal_moves`` then ``apply`` on the state it was answered), checked at
    the trust boundary and copied, as the stateless routes do."""
    rnd, steps = random.Random(seed), 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = engine.new(engine.min_players, seed=seed)
        seed += 1
        while state["to_move"] and time.perf_counter() < deadline:
            move = rnd.choice(engine.legal_moves(state, trusted=trusted))
            if trusted:  # a playout's step, in place as python-chess's push
                engine.play_in_place(state, move)
            else:
                state, _ = engine.apply(state, move)
            steps += 1
    return steps, time.perf_counter() - start


def chess_steps(seconds: float, seed: int = 0, clock=time.perf_counter) -> tuple:
    """python-chess's random-playout steps in ``seconds`` of ``clock``: ``(steps, elapsed)``
    (``time.process_time``: CPU seconds, the unit of a request's service CPU)."""
    import chess
    rnd, steps = random.Random(seed), 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        board = chess.Board()
        while not board.is_game_over() and clock() < deadline:
            board.push(rnd.choice(list(board.legal_moves)))
            steps += 1
    return steps, clock() - start


def engine_rates(seconds: float, slices: int = 6) -> tuple[float, dict]:
    """python-chess's steps/s and each game's (trusted, checked) steps/s, measured in
    ``slices`` rounds that take turns (chess, then every game both ways), so that a
    neighbour's load on a shared machine weighs on the yardstick as on the games."""
    games = engines()
    totals = {"chess": [0, 0.0]} | {(g, t): [0, 0.0] for g in games for t in (True, False)}
    part = seconds / slices
    for round_ in range(slices):
        for key in totals:
            if key == "chess":
                steps, elapsed = chess_steps(part, seed=round_)
            else:
                steps, elapsed = engine_steps(games[key[0]], part, key[1], seed=round_ * 1000)
            totals[key][0] += steps
            totals[key][1] += elapsed
    rate = {key: steps / elapsed for key, (steps, elapsed) in totals.items()}
    return rate["chess"], {g: (rate[g, True], rate[g, False]) for g in games}


# ----------------------------------------------------------------- sessions
class Load:
    """N client threads sending for a fixed time; latencies of the timed request."""

    def __init__(self, clients: int, seconds: float):
        self.clients, self.seconds = clients, seconds

    def run(self, make_client) -> dict:
        latencies, errors = [], []
        lock, start_line = threading.Lock(), threading.Barrier(self.clients + 1)

        def worker(index):
            step = make_client(index)
            start_line.wait()
            mine = []
            while time.perf_counter() < deadline:
                mine.append(step())
            with lock:
                latencies.extend(t for t in mine if t is not None)
                errors.extend(1 for t in mine if t is None)

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(self.clients)]
        for t in threads:
            t.start()
        deadline = time.perf_counter() + self.seconds
        start_line.wait()
        deadline = time.perf_counter() + self.seconds
        begun = time.perf_counter()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - begun
        ordered = sorted(latencies)
        return {"rate": len(ordered) / elapsed, "errors": len(errors),
                "p50": statistics.median(ordered) * 1000,
                "p99": ordered[int(len(ordered) * 0.99) - 1] * 1000}


def session_player(url: str, game: str = "ghostone"):
    """A hot-seat client: holds every seat's token, picks moves locally from its view."""
    engine = engines()[game]
    dummy_rng = Pcg32.from_seed(0).to_json()
    http = requests.Session()
    rnd = random.Random()
    current = {}

    def new_game():
        created = http.post(f"{url}/v1/sessions", json={"game": game,
                                                        "players": engine.min_players},
                            timeout=10).json()
        current.update(base=f"{url}/v1/sessions/{created['session_id']}",
                       tokens={s["seat"]: s["token"] for s in created["seats"]},
                       view=created["view"])

    def step():
        view = current["view"]
        if not view["to_move"]:
            new_game()
            view = current["view"]
        seat = view["to_move"][0]
        move = rnd.choice(engine.legal_moves(dict(view, rng=dummy_rng), seat))
        began = time.perf_counter()
        answer = http.post(f"{current['base']}/moves", json={"move": move}, timeout=10,
                           headers={"Authorization": f"Bearer {current['tokens'][seat]}"})
        took = time.perf_counter() - began
        if answer.status_code != 200:
            return None
        current["view"] = answer.json()["view"]
        return took

    new_game()
    return step


def echo_player(url: str):
    http = requests.Session()
    body = {"move": {"type": "move", "seat": 1, "from": "b2", "to": "b3", "rock": "E"}}

    def step():
        began = time.perf_counter()
        answer = http.post(f"{url}/v1/sessions/x/moves", json=body, timeout=10)
        return time.perf_counter() - began if answer.status_code == 200 else None

    return step


def start_echo(workers: int, threads: int):
    env = dict(os.environ, WEB_CONCURRENCY=str(workers), GUNICORN_THREADS=str(threads),
               LOG_LEVEL="warning")
    service_port, gateway_port = free_port(), free_port()
    processes = []
    for port, app, extra in ((service_port, "echo:service_app()", {}),
                             (gateway_port, "echo:gateway_app()",
                              {"ECHO_SERVICE_URL": f"http://127.0.0.1:{service_port}"})):
        processes.append(subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "python:referee.gunicorn_conf",
             "--pythonpath", str(HERE), "-b", f"127.0.0.1:{port}", app],
            env=dict(env, **extra), stderr=subprocess.DEVNULL))
        wait_ready(f"http://127.0.0.1:{port}", processes[-1])
    return f"http://127.0.0.1:{gateway_port}", processes


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="make bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10, help="per session measurement")
    parser.add_argument("--engine-seconds", type=float, default=3, help="per engine")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per server")
    parser.add_argument("--threads", type=int, default=4, help="gunicorn threads per worker")
    parser.add_argument("--skip-sessions", action="store_true")
    parser.add_argument("--skip-engines", action="store_true")
    parser.add_argument("--streams", type=int, default=1000,
                        help="event streams to open on one gateway replica")
    parser.add_argument("--stream-clients", type=int, default=4,
                        help="clients moving while the streams are open")
    parser.add_argument("--skip-streams", action="store_true")
    parser.add_argument("--skip-observability", action="store_true")
    parser.add_argument("--skip-bots", action="store_true", help="skip bench/bots.py (hours)")
    parser.add_argument("--bot-args", default="", help='for bench/bots.py, e.g. "--games 20"')
    parser.add_argument("--observability-turns", type=int, default=240,
                        help="turns of a window on each side (on, off, off again; default 240)")
    parser.add_argument("--observability-seconds", type=float, default=1, help="per window")
    parser.add_argument("--observability-sets", type=int, default=3,
                        help="servers started one after the other, the turns shared among "
                             "them (default 3)")
    args = parser.parse_args(argv)

    if not args.skip_engines:
        say(f"engines: random playouts, {args.engine_seconds:g} s each, in turns…")
        chess_rate, rates = engine_rates(args.engine_seconds)
        rows = [(game, *rates[game]) for game in rates]
        print("\nEngine random playouts (steps/s = legal moves + apply), same machine, same run;"
              "\n  trusted: the referee's own states (bots, playouts), played in place; "
              "checked: every state checked whole and copied (the stateless routes)")
        print(f"  {'python-chess':<12} {chess_rate:>10,.0f} steps/s   (yardstick)")
        for game, rate, checked in rows:
            print(f"  {game:<12} {rate:>10,.0f} steps/s   ratio to python-chess "
                  f"{rate / chess_rate:.2f}   (checked: {checked:,.0f}, "
                  f"{checked / chess_rate:.2f})")
        if "gizmos" in engines():  # its costliest legal-move listings (bench/gizmos_positions.py)
            import gizmos_positions
            gizmos_positions.report(chess_seconds=args.engine_seconds)

    if not args.skip_sessions:
        load = Load(args.clients, args.seconds)
        with EmbeddedRedis() as redis_server:
            say("sessions: starting the referee under gunicorn…")
            with Stack(port=free_port(), workers=args.workers, threads=args.threads,
                       redis_url=redis_server.url, log=say,
                       env={"LOG_LEVEL": "warning"}) as stack:
                say(f"sessions: {args.clients} clients moving for {args.seconds:g} s…")
                moves = load.run(lambda i: session_player(stack.url))
            say("echo: starting the two-hop echo under the same gunicorn settings…")
            url, processes = start_echo(args.workers, args.threads)
            try:
                say(f"echo: {args.clients} clients for {args.seconds:g} s…")
                echo = load.run(lambda i: echo_player(url))
            finally:
                for p in processes:
                    p.terminate()
                    p.wait(30)
        print(f"\nSession moves through the gateway, {args.clients} concurrent clients, "
              f"gunicorn gthread {args.workers} workers x {args.threads} threads, "
              f"{args.seconds:g} s each")
        print(f"  {'':<26}{'moves/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'errors':>8}")
        for name, r in (("session move (gateway)", moves), ("two-hop echo", echo)):
            print(f"  {name:<26}{r['rate']:>10,.0f}{r['p50']:>10.1f}{r['p99']:>10.1f}"
                  f"{r['errors']:>8}")
        print(f"  {'ratio move / echo':<26}{moves['rate'] / echo['rate']:>10.2f}"
              f"{moves['p50'] / echo['p50']:>10.2f}{moves['p99'] / echo['p99']:>10.2f}")
    if not args.skip_observability:
        load = Load(args.clients, args.observability_seconds)
        report(measure(load, session_player, args.threads, args.observability_turns, say,
                       args.observability_sets), load)
    if not args.skip_streams:
        import streams
        with EmbeddedRedis() as redis_server, Stack(
                port=free_port(), workers=args.workers, threads=args.threads,
                redis_url=redis_server.url, log=say,
                env={"LOG_LEVEL": "warning", "RATE_LIMIT_PER_MINUTE": "0"}) as stack:
            result = streams.run(stack.url, args.streams, args.seconds,
                                 args.stream_clients, say)
        streams.report(result, args.workers)
    if not args.skip_bots:
        import bots  # bench/bots.py: the bots' strength and decision time
        bots.main(args.bot_args.split())
    return 0


if __name__ == "__main__":
    sys.exit(main())
