"""Three Magic: the engine (pure Python) and its service (run as
``gunicorn 'threemagic.service:create_app()'``). Rules and their ids: ``../RULES.md``.

The package, the same skeleton as every game's:

- ``engine``     the ``Engine`` subclass: metadata and hooks, each handed to a module below
- ``rules``      the setup, the chance events, the legal moves, playing a move, the end of
                 a match (its doc describes the state)
- ``position``   the state's shape: ``check_options`` and ``check_position`` (forged states)
- ``refusals``   ``why_illegal``: the rule and a sentence for each illegal move
- ``scoring``    magic measurement, the payment of a win, the score and the score helper
- ``wire``       the one wire description: JSON Schemas of the moves, the view, the score
                 breakdown, the score helper's input and payment, the options and the catalog
- ``text``       ``move_text``: each move as a sentence in English and Japanese
- ``components`` ``catalog()``: the component catalog (pure data, from ``cards`` and ``table``)
- ``service``    ``create_app()``: the engine plus a few lines

and the game's own modules beside them:

- ``cards``      mana cards, spells and fixed-order hands: notation, the deck, patterns
- ``table``      seats and turn order, stakes and option bounds, where the cards are
- ``calls``      the call window: who is asked about a discard, and what each may answer
- ``hidden``     what each seat may see: views, events and logged moves redacted, and
                 ``perturb_hidden`` for the conformance suite
- ``picture``    the position drawn as SVG from a view alone
"""
