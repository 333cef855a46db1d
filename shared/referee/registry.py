"""Which games exist: every installed game package registers its engine under
the ``referee.games`` entry-point group (see each service's pyproject.toml)."""

from functools import cache
from importlib.metadata import entry_points

from .engine import Engine


@cache
def engines() -> dict[str, Engine]:
    found = {}
    for ep in entry_points(group="referee.games"):
        engine = ep.load()()
        found[engine.id] = engine
    return dict(sorted(found.items()))
