"""Vectron: the engine (:mod:`vectron.engine`, pure Python) and its service
(:mod:`vectron.service`, run as ``gunicorn 'vectron.service:create_app()'``)."""
