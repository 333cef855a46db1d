"""Every rule id a game's RULES.md lists is named by one of that game's tests.

RULES.md is the project's own statement of each game's rules (its "Rule index"
lists every id of the referee spec); the tests in ``services/<game>/tests``
name an id in a test function's name (``test_Z_8_…``, ``test_GM_3_6_…``) or in
its docstring (``Z-8``). A section id (``T-7``) counts as named when one of its
rules (``T-7.1``) is. Nothing outside the repository is read.
"""

import ast
import re
from pathlib import Path

import pytest

from referee.registry import engines

REPO = Path(__file__).resolve().parents[1]
GAMES = engines()


def prefix(engine) -> str:
    """The rule-id prefix of a game, as its RULES.md uses it (``Z``, ``GM``…)."""
    return engine.rule_prefix


def ids_in(text: str, pre: str) -> set[str]:
    return set(re.findall(rf"(?<![A-Za-z0-9-]){pre}-\d+(?:\.\d+)?(?![\d.]*\d)", text))


def named_by_tests(folder: Path, pre: str) -> set[str]:
    in_name = re.compile(rf"(?<![A-Za-z0-9]){pre}_(\d+)(?:_(\d+))?(?![0-9])")
    named = set()
    for path in folder.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                    and node.name.startswith("test_"):
                named |= ids_in(ast.get_docstring(node) or "", pre)
                named |= {f"{pre}-{a}.{b}" if b else f"{pre}-{a}"
                          for a, b in in_name.findall(node.name)}
    return named | {rule.split(".")[0] for rule in named}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_rule_id_in_RULES_md_is_named_by_a_test(game):
    engine = GAMES[game]
    doc = REPO / engine.rules_doc
    pre = prefix(engine)
    listed = ids_in(doc.read_text(encoding="utf-8"), pre)
    assert len(listed) >= 20, f"{doc} lists only {sorted(listed)}"
    named = named_by_tests(doc.parent / "tests", pre)
    missing = sorted(listed - named, key=lambda r: [int(x) for x in r[len(pre) + 1:].split(".")])
    assert missing == [], f"{game}: rule ids in RULES.md that no test names: {missing}"
