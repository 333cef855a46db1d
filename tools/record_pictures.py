"""Record the golden pictures that tests/test_pictures.py compares byte for byte.

    python tools/record_pictures.py                   # every game
    python tools/record_pictures.py gizmos            # one game
    python tools/record_pictures.py --png /tmp/pics   # also each SVG as a PNG, to review
    python tools/record_pictures.py --docs            # also docs/pictures/<game>.png

For each game, a seeded digital game (seed 7, the most players) is played to its end
with a seeded choice of moves; its start, middle and end are each drawn for one seat
(the seat to move, else seat 1) and for the public, and the middle once more for that
seat in Japanese. ``tests/golden/pictures/<game>.json`` keeps each picture's state,
seat and language, and ``<game>-<n>.svg`` the picture. Re-record when a picture is
meant to change, and look at the PNGs before committing: they are what players see.
PNGs need ``rsvg-convert`` (Debian: ``apt-get install librsvg2-bin``).
"""

import argparse
import json
import random
import shutil
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "pictures"
DOCS = ROOT / "docs" / "pictures"
SEED = 7
README_PICTURE = 3  # the middle, as the seat to move sees it: docs/pictures/<game>.png


def installed_games() -> dict:
    return {ep.name: ep for ep in sorted(entry_points(group="referee.games"),
                                         key=lambda e: e.name)}


def playthrough(engine) -> list[dict]:
    """Every state of one seeded game, from the start to the end."""
    rnd = random.Random(SEED)
    state = engine.new(engine.max_players, seed=SEED)
    states = [state]
    while state["to_move"]:
        moves = engine.legal_moves(state)
        move = {k: v for k, v in moves[rnd.randrange(len(moves))].items() if k != "p"}
        state, _ = engine.apply(state, move)
        states.append(state)
    return states


def positions(engine) -> list[dict]:
    """The recorded pictures: start, middle and end, for a seat and for the public,
    then the middle for the seat in Japanese."""
    states = playthrough(engine)
    recorded = []
    for state in (states[0], states[len(states) // 2], states[-1]):
        acting = [s for s in state["to_move"] if isinstance(s, int)]
        seat = acting[0] if acting else 1
        recorded += [{"seat": seat, "lang": "en", "state": state},
                     {"seat": None, "lang": "en", "state": state}]
    recorded.append(dict(recorded[2], lang="ja"))
    return [dict(entry, n=n) for n, entry in enumerate(recorded, start=1)]


def record(game: str, engine) -> list[Path]:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    recorded = positions(engine)
    (GOLDEN / f"{game}.json").write_text(json.dumps(
        {"game": game, "pictures": recorded}, separators=(",", ":")) + "\n")
    written = []
    for entry in recorded:
        path = GOLDEN / f"{game}-{entry['n']}.svg"
        path.write_text(engine.picture(entry["state"], entry["seat"], entry["lang"]),
                        encoding="utf-8")
        written.append(path)
    return written


def to_png(svg: Path, png: Path) -> None:
    """Twice the picture's width: what a phone's screen shows of it."""
    subprocess.run(["rsvg-convert", "--zoom", "2", "--output", str(png), str(svg)],
                   check=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help="the games to re-record (default: every installed game)")
    parser.add_argument("--png", metavar="DIR", type=Path,
                        help="also render every recorded SVG as a PNG into DIR")
    parser.add_argument("--docs", action="store_true",
                        help=f"also write docs/pictures/<game>.png (picture {README_PICTURE})")
    args = parser.parse_args(argv)
    games = installed_games()
    unknown = sorted(set(args.games) - set(games))
    if unknown:
        parser.error(f"no game {', '.join(unknown)}; games: {', '.join(games)}")
    if (args.png or args.docs) and shutil.which("rsvg-convert") is None:
        parser.error("PNGs need rsvg-convert (Debian: apt-get install librsvg2-bin)")
    for game in args.games or list(games):
        engine = games[game].load()()  # only the games asked for: another's import may fail
        written = record(game, engine)
        print(f"{game}: {len(written)} pictures", file=sys.stderr)
        if args.png:
            args.png.mkdir(parents=True, exist_ok=True)
            for svg in written:
                to_png(svg, args.png / svg.with_suffix(".png").name)
        if args.docs:
            DOCS.mkdir(parents=True, exist_ok=True)
            to_png(GOLDEN / f"{game}-{README_PICTURE}.svg", DOCS / f"{game}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
