"""Each game's test helpers (services/<game>/tests/<game>_helpers.py) import by
their own unique name: pytest runs with --import-mode=importlib, which puts no
test directory on sys.path, and packages all named ``tests`` would collide."""

import sys
from pathlib import Path

#: files that take minutes each (`make test`'s --durations): handed out first, so that under
#: pytest-xdist (the Makefile's TEST_WORKERS) no process starts one of them near the end while
#: the others sit idle. Only the order changes; a file missing here just runs in its turn.
STARTED_FIRST = ("tests/test_page_companion.py", "tests/test_conformance.py",
                 "tests/test_page_phone.py", "tests/test_page_touches.py", "tests/test_wire.py",
                 "tests/test_secret_pairs.py", "tests/test_api_fuzz.py")

for folder in sorted(Path(__file__).parent.glob("services/*/tests")):
    sys.path.insert(0, str(folder))


def pytest_collection_modifyitems(config, items):
    """The files of ``STARTED_FIRST`` first, in that order (the rest as collected)."""
    rank = {name: i for i, name in enumerate(STARTED_FIRST)}
    root = Path(config.rootpath)
    items.sort(key=lambda item: rank.get(Path(item.path).relative_to(root).as_posix(),
                                         len(rank)))
