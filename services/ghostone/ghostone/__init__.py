"""Ghostone: the engine (:mod:`ghostone.engine`, pure Python) and its service
(:mod:`ghostone.service`, run as ``gunicorn 'ghostone.service:create_app()'``)."""
