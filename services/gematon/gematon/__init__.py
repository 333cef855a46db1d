"""Gematon: the engine (pure Python) and its service (run as
``gunicorn 'gematon.service:create_app()'``). Rules and their ids: ``../RULES.md``.

The package, the same skeleton as every game's:

- ``engine``     the ``Engine`` subclass: metadata and hooks, each handed to a module below
- ``rules``      the setup, the legal moves and chance outcomes, playing a move
- ``position``   the state's shape and ``check_position`` (forged states refused)
- ``refusals``   ``why_illegal``: the rule and a sentence for each illegal move
- ``scoring``    the score, the tie rule and the score helper (``calculate``)
- ``wire``       the one wire description: JSON Schemas of the moves, the view, the score
                 breakdown, the score helper's input, the options and the catalog
- ``text``       ``move_text``: each move as a sentence in English and Japanese
- ``components`` ``catalog()``: the component catalog (pure data, from ``board``)
- ``service``    ``create_app()``: the engine plus a few lines

and the game's own modules beside them:

- ``board``      the components as numbers (chips, altars, cells, lines, gauge values),
                 their arithmetic, and the check of the options that configure them
- ``setup``      the setup's fixed sequence of steps (GM-2)
- ``witches``    the witch boards and the hooks where an awakened ability acts (GM-4)
- ``hidden``     what each seat may see: views, events and log entries redacted (GM-6.2)
"""
