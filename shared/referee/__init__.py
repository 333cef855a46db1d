"""tabletop-referee's common code.

Pure parts (no Flask, Redis or HTTP): :mod:`referee.engine`, :mod:`referee.rng`,
:mod:`referee.errors`, :mod:`referee.conformance`. Web and storage parts:
:mod:`referee.service` (the game-service factory), :mod:`referee.web`,
:mod:`referee.sessions`.
"""
