"""The Vectron service: the engine plus a few lines (the score helper's schema is the
engine's, ``wire.CALCULATE``)."""

from referee import service

from .engine import Vectron


def create_app(test_config=None):
    return service.create_app(Vectron(), test_config=test_config)
