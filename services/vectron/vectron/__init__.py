"""Vectron, a game engine (pure Python) and its service.

The package, module by module:

- ``engine``      the ``Engine`` subclass: metadata, and the hooks, each delegating below
- ``board``       the components and geometry: cells, chips, cards, the wall kick, the limits
- ``options``     which component mixes make a game (V-1.3, V-1.4), checked with their rule
- ``rules``       the setup, chance, the legal moves and playing them
- ``position``    the state's shape and which positions the rules can reach
- ``refusals``    why a move is illegal: the rule id and a sentence
- ``hidden``      what each seat may see: views, events and logged moves redacted
- ``scoring``     settlement, the score and the score helper (``/v1/calculate``)
- ``wire``        the JSON Schemas of moves, view, score breakdown, helper input, options, catalog
- ``text``        each move as a sentence in English and Japanese
- ``components``  the component catalog (``/v1/components``)
- ``wording``     lists in error details written as English words
- ``service``     ``create_app()``, run as ``gunicorn 'vectron.service:create_app()'``
"""
