"""The Gematon service: the engine, whose wire description (``wire.py``) gives every
schema, the score helper's included."""

from referee import service

from .engine import Gematon


def create_app(test_config=None):
    return service.create_app(Gematon(), test_config=test_config)
