"""The Gizmos service: the engine plus a few lines (the score helper's schema is the
engine's, ``wire.CALCULATE``)."""

from referee import service

from .engine import Gizmos


def create_app(test_config=None):
    return service.create_app(Gizmos(), test_config=test_config)
