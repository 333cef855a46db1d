"""The Three Magic service: the engine plus a few lines (the score helper's schema is the
engine's, ``wire.CALCULATE``)."""

from referee import service

from .engine import ThreeMagic


def create_app(test_config=None):
    return service.create_app(ThreeMagic(), test_config=test_config)
