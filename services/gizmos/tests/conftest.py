"""Lets the test modules import ``gizmos_helpers`` beside them.

The repository runs pytest with ``--import-mode=importlib``, which puts no test
directory on ``sys.path``; a ``tests`` package would clash with the other
services' ``tests`` packages, so the helpers get a unique module name instead.
"""

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
