"""Each game's test helpers (services/<game>/tests/<game>_helpers.py) import by
their own unique name: pytest runs with --import-mode=importlib, which puts no
test directory on sys.path, and packages all named ``tests`` would collide."""

import sys
from pathlib import Path

for folder in sorted(Path(__file__).parent.glob("services/*/tests")):
    sys.path.insert(0, str(folder))
