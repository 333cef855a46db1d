"""Gematon: the engine (:mod:`gematon.engine`, pure Python) and its service
(:mod:`gematon.service`, run as ``gunicorn 'gematon.service:create_app()'``)."""
