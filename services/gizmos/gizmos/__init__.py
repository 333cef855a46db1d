"""Gizmos: the engine (:mod:`gizmos.engine`, pure Python, in the skeleton every game has:
rules, position, refusals, scoring, hidden, wire, text, components, picture, bots; with the
game's data in :mod:`gizmos.cards`, the payment search in :mod:`gizmos.payment` and the table's
accessors in :mod:`gizmos.table`) and its service (:mod:`gizmos.service`, run as
``gunicorn 'gizmos.service:create_app()'``)."""
