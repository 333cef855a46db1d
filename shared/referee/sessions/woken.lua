-- What a woken event stream reads, in one round trip. KEYS: meta, log, the pushed events of
-- the version rung. ARGV: 1 the log index to read from.
return {redis.call('HGETALL', KEYS[1]), redis.call('LRANGE', KEYS[2], ARGV[1], -1),
        redis.call('HGETALL', KEYS[3])}
