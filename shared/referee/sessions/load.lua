-- Read a session's meta hash and state in one atomic step. KEYS: meta, state.
return {redis.call('HGETALL', KEYS[1]), redis.call('GET', KEYS[2])}
