"""make bench, bots (issues 14 and 33): the strong bot's win rate against random and
greedy bots, its decision time and its search iterations per second, for every game.

Each pairing plays ``--games`` seeded games at the game's fewest players: one
seat strong, every other seat the opponent's level, the strong seat rotating
through the seats game by game. A shared win counts half. Decision times are
the strong bot's, for moves where it had a choice (a single legal move is
answered at once), under a wall-clock budget of ``--budget-ms`` per move (repeat
it, ``--budget-ms 1000 --budget-ms 250``, to compare budgets on the same seeds in
one run) — or ``--iterations`` per move, which makes the games independent of the
machine's load. ``--cpu-clock`` counts the budget in the bot process's CPU time
instead: on a machine other work shares, a wall-clock second is a fraction of a
core's second, and the figures would measure the neighbours (decision times and
iterations per second are then CPU time too). Iterations per second are the
search's iterations over the time of the decisions that searched. Long:
about games × the strong seat's decisions × the budget, per pairing (it prints
its progress and an estimate).
"""

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from contextlib import nullcontext
from importlib.metadata import entry_points

from referee.bots import Budget, choose_for

#: decisions after which a game is scored as it stands (a bound on every game's time)
MOST_DECISIONS = 2000
#: the clocks of the decisions this process made (``CountedBudget``): each knows its
#: search's iterations
CLOCKS: list = []


class CountedBudget(Budget):
    """A budget whose clocks the bench keeps, to read the iterations each search ran."""

    def clock(self):
        clock = super().clock()
        CLOCKS.append(clock)
        return clock


def say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def installed(names) -> dict:
    found = {}
    for ep in entry_points(group="referee.games"):
        if not names or ep.name in names:
            engine = ep.load()()
            found[engine.id] = engine
    return dict(sorted(found.items()))


def play(engine, players: int, seed: int, levels: dict, budget: Budget, times: list,
         iterations: list, most: int = MOST_DECISIONS) -> tuple[dict, bool]:
    """One seeded game between bots: (its score, whether it ended). The strong seat's
    decision times go to ``times``, its searches' iterations to ``iterations``. A game
    still going after ``most`` decisions is scored as it stands (no rule bounds a
    Ghostone game's length: bots can move rocks about for ever)."""
    state = engine.new(players, seed=seed)
    decision = 0
    while state["to_move"] and decision < most:
        seat = state["to_move"][0]
        choices = len(engine.legal_moves(state, seat, trusted=True))
        now = time.process_time if budget.cpu else time.perf_counter  # the budget's clock
        began, clocks = now(), len(CLOCKS)
        move = choose_for(engine, state, seat, levels[seat], seed * 1000 + decision, budget)
        if levels[seat] == "strong" and choices > 1:
            times.append(now() - began)
            iterations.append(CLOCKS[clocks].done)
        del CLOCKS[clocks:]
        state = engine.apply(state, move, trusted=True)[0]
        decision += 1
    return engine.score(state, trusted=True), not state["to_move"]


def one_game(job: tuple) -> tuple[float, list, list, bool]:
    """One game of a match (a worker process's unit): the strong seat's share of the
    win, its decision times, its searches' iterations and whether the game was cut."""
    game, opponent, players, seed, budget, strong, most = job
    engine = installed([game])[game]
    levels = {seat: opponent for seat in range(1, players + 1)}
    levels[strong] = "strong"
    times: list = []
    iterations: list = []
    score, ended = play(engine, players, seed, levels, budget, times, iterations, most)
    # (a game cut short has no winners yet: the leaders as it stands, ranked first)
    winners = score["winners"] if ended else [r["seat"] for r in score["ranking"]
                                              if r["rank"] == 1]
    return (strong in winners) / len(winners), times, iterations, not ended


def match(engine, opponent: str, games: int, players: int, budget: Budget, first_seed: int,
          jobs: int = 1, most: int = MOST_DECISIONS):
    """``games`` games of strong against ``opponent``: (wins, times, iterations, games
    cut at ``most`` decisions)."""
    wins, times, iterations, cut, began = 0.0, [], [], 0, time.perf_counter()
    work = [(engine.id, opponent, players, first_seed + game, budget, game % players + 1, most)
            for game in range(games)]
    with multiprocessing.Pool(jobs) if jobs > 1 else nullcontext() as pool:
        results = pool.imap(one_game, work) if pool else map(one_game, work)
        for done, (won, decided, searched, stopped) in enumerate(results, 1):
            wins += won
            cut += stopped
            times += decided
            iterations += searched
            elapsed = time.perf_counter() - began
            say(f"  {engine.id} strong vs {opponent}: game {done}/{games}, {wins:g} won, "
                f"{elapsed / 60:.1f} min so far, about "
                f"{elapsed / done * (games - done) / 60:.0f} min to go")
    return wins, times, iterations, cut


def choices_per_seat(engine, games: int = 3) -> float:
    """How many moves with a choice one seat makes in a game, in a few random games."""
    rnd, choices = random.Random(0), 0
    for seed in range(games):
        state = engine.new(engine.min_players, seed=seed)
        while state["to_move"]:
            moves = engine.legal_moves(state, trusted=True)
            choices += len(moves) > 1
            state = engine.apply(state, rnd.choice(moves), trusted=True)[0]
    return choices / games / engine.min_players


def percentile(values: list, share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="bench/bots.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="per game and opponent")
    parser.add_argument("--budget-ms", type=int, action="append", default=[],
                        help="strong's time per move (repeatable: one row per budget, the "
                             "same seeds; default 1000)")
    parser.add_argument("--cpu-clock", action="store_true",
                        help="count the budget in the bot process's CPU time (a shared "
                             "machine), not the wall clock's")
    parser.add_argument("--iterations", type=int, default=None,
                        help="strong's search iterations per move instead of a time budget")
    parser.add_argument("--game", action="append", default=[],
                        help="only this game (repeatable; default every installed game)")
    parser.add_argument("--opponent", action="append", choices=("random", "greedy"),
                        default=[], help="only this opponent (default both)")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--jobs", type=int, default=1,
                        help="games played at once, in worker processes (each bot's time "
                             "budget is wall-clock: jobs beyond the idle cores cost strength)")
    parser.add_argument("--most-decisions", type=int, default=MOST_DECISIONS,
                        help="a game still going after this many decisions is scored as it "
                             f"stands and counted as cut (default {MOST_DECISIONS})")
    args = parser.parse_args(argv)
    budgets = [CountedBudget(iterations=args.iterations, seconds=None)] if args.iterations \
        else [CountedBudget(seconds=ms / 1000, cpu=args.cpu_clock)
              for ms in args.budget_ms or [1000]]
    run(installed(args.game), args.opponent or ["random", "greedy"], args.games, budgets,
        args.seed, args.jobs, args.most_decisions)
    return 0


def spent(budget: Budget) -> str:
    if budget.iterations:
        return f"{budget.iterations} it"
    return f"{budget.seconds * 1000:g} ms" + (" CPU" if budget.cpu else "")


def run(games: dict, opponents: list, count: int, budgets: list, seed: int,
        jobs: int = 1, most: int = MOST_DECISIONS) -> None:
    names = ", ".join(spent(budget) for budget in budgets)
    say(f"bots: {count} games per game, opponent and budget; strong's budget {names} "
        f"per move…")
    seconds = sum(budget.seconds or 0 for budget in budgets)
    if seconds:
        hours = sum(choices_per_seat(engine) for engine in games.values()) * seconds \
            * count * len(opponents) / jobs / 3600
        say(f"bots: at least {hours:.1f} hours (each strong decision takes its budget)")
    print(f"\nBots: strong against each level, {count} games each, seats rotated, "
          f"budget {names} per move (a row as each pairing ends; it/s: the search's "
          f"iterations per second of deciding)", flush=True)
    print(f"  {'game':<12}{'players':>8}  {'opponent':<9}{'budget':>12}{'won':>7}"
          f"{'p50 ms':>9}{'p99 ms':>9}{'it/s':>8}{'decisions':>11}{'minutes':>9}{'cut':>5}",
          flush=True)
    for game, engine in games.items():
        for opponent in opponents:
            for budget in budgets:
                began = time.perf_counter()
                wins, times, iterations, cut = match(
                    engine, opponent, count, engine.min_players, budget, seed, jobs, most)
                p50 = statistics.median(times) * 1000 if times else 0
                p99 = percentile(times, 0.99) * 1000 if times else 0
                rate = sum(iterations) / sum(times) if times else 0
                print(f"  {game:<12}{engine.min_players:>8}  {opponent:<9}"
                      f"{spent(budget):>12}{wins / count:>7.0%}{p50:>9.0f}{p99:>9.0f}"
                      f"{rate:>8.0f}{len(times):>11}"
                      f"{(time.perf_counter() - began) / 60:>9.1f}{cut:>5}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
