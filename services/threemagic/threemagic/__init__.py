"""Three Magic: the engine (:mod:`threemagic.engine`, pure Python) and its service
(:mod:`threemagic.service`, run as ``gunicorn 'threemagic.service:create_app()'``)."""
