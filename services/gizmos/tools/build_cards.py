"""Regenerate ``gizmos/cards.json`` from the shared card data.

    python services/gizmos/tools/build_cards.py [path/to/gizmos_cards.json]

The shared file (``../shared/data/gizmos_cards.json`` beside the repository)
carries provenance notes for every card; the engine needs only the facts, so
this keeps those and drops the rest. Run it by hand whenever the shared file
changes and commit the result: ``cards.json`` is the project's card data, and
no test reads the shared file (``tests/test_cards.py`` checks the committed
data's own invariants).
"""

import json
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "gizmos"
REPO = Path(__file__).resolve().parents[3]
SHARED = REPO.parent / "shared" / "data" / "gizmos_cards.json"
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
    source = Path(argv[1]) if len(argv) > 1 else SHARED
    target = PACKAGE / "cards.json"
    target.write_text(json.dumps(build(source), indent=1, ensure_ascii=False) + "\n",
                      encoding="utf-8")
    print(f"wrote {target} from {source}")


if __name__ == "__main__":
    main(sys.argv)
