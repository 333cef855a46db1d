"""Every rule id of the referee spec (../shared/rules/threemagic.md) is named by a test."""

import ast
import re
from pathlib import Path

from threemagic_helpers import SPEC

RULE_ID = re.compile(r"\bT-\d+(?:\.\d+)?\b")
IN_A_NAME = re.compile(r"(?<![A-Za-z0-9])T_(\d+)(?:_(\d+))?")


def named_by_tests() -> set[str]:
    """Rule ids in test names (``test_T_7_2_…``) and test docstrings (``T-7.2``)."""
    named = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                named |= set(RULE_ID.findall(ast.get_docstring(node) or ""))
                named |= {f"T-{section}.{rule}" if rule else f"T-{section}"
                          for section, rule in IN_A_NAME.findall(node.name)}
    return named


def test_every_T_rule_id_appears_in_a_test_name_or_docstring():
    """A section id (T-7) counts as named when one of its rules (T-7.1…) is."""
    assert SPEC.is_file(), f"the referee spec is missing: {SPEC}"
    wanted = set(RULE_ID.findall(SPEC.read_text(encoding="utf-8")))
    assert len(wanted) > 30
    named = named_by_tests()
    named |= {rule.split(".")[0] for rule in named}
    assert sorted(wanted - named) == []
