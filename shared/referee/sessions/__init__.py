"""Server-held sessions in Redis: key names (:mod:`.keys`), the store with its
compare-and-set writes (:mod:`.store`) and the Lua scripts beside them."""
