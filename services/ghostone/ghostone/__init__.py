"""Ghostone, a game engine (pure Python) and its service.

The package, module by module:

- ``engine``      the ``Engine`` subclass: metadata, and the hooks, each delegating below
- ``board``       the components and geometry: plates, directions, counts, what they bound
- ``rules``       the setup, the legal moves and playing them
- ``position``    the state's shape and which positions the rules can reach
- ``refusals``    why a move is illegal: the rule id and a sentence
- ``scoring``     the score and the score helper (``/v1/calculate``)
- ``wire``        the JSON Schemas of moves, view, score breakdown, score-helper input, catalog
- ``text``        each move as a sentence in English and Japanese
- ``components``  the component catalog (``/v1/components``)
- ``service``     ``create_app()``, run as ``gunicorn 'ghostone.service:create_app()'``
"""
