"""Regenerate ``gizmos/cards.json`` from a card source file.

    python services/gizmos/tools/build_cards.py path/to/gizmos_cards.json

A card source (the reference card data, wherever you keep it) carries provenance notes
for every card; the engine needs only the facts, so this keeps those and drops the rest.
Run it by hand when the source changes and commit the result: ``cards.json`` is the
project's card data. Nothing here looks outside the repository unless you name the file,
and no test reads anything but the committed data (``tests/test_cards.py``).
"""

import json
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "gizmos"
KEPT = ("id", "level", "color", "cost", "cost_color", "points", "type", "effect",
        "effect_text")


def build(source: Path) -> list[dict]:
    cards = json.loads(source.read_text(encoding="utf-8"))
    built = []
    for card in sorted(cards, key=lambda c: c["id"]):
        kept = {key: card[key] for key in KEPT}
        kept["starting"] = bool(card.get("starting", False))
        built.append(kept)
    return built


def main(argv: list[str]) -> None:
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        sys.exit(__doc__)
    source = Path(argv[1])
    target = PACKAGE / "cards.json"
    target.write_text(json.dumps(build(source), indent=1, ensure_ascii=False) + "\n",
                      encoding="utf-8")
    print(f"wrote {target} from {source}")


if __name__ == "__main__":
    main(sys.argv)
