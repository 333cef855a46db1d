"""Gizmos: the engine (:mod:`gizmos.engine`, pure Python, split into cards, payment,
moves, play and position modules) and its service (:mod:`gizmos.service`, run as
``gunicorn 'gizmos.service:create_app()'``). The contract: :mod:`gizmos.wire` (the JSON
Schemas of moves, view, score breakdown, score helper, option and catalog),
:mod:`gizmos.text` (moves as sentences in English and Japanese) and
:mod:`gizmos.components` (the component catalog)."""
