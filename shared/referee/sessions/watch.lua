-- A stream of a seat and language is open on a session until a time. KEYS: watchers.
-- ARGV: 1 field ("<seat>:<language>"), 2 until (Unix seconds), 3 the key's expiry (seconds).
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return redis.call('EXPIRE', KEYS[1], ARGV[3])
