"""Gizmos: the engine (:mod:`gizmos.engine`, pure Python, split into cards, payment,
moves, play and position modules) and its service (:mod:`gizmos.service`, run as
``gunicorn 'gizmos.service:create_app()'``)."""
