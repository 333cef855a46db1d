-- Compare-and-set a move onto a session. KEYS: meta, state, log, idempotency.
-- ARGV: expected version, new version, state json, log entry json, ttl,
-- idempotency record json ('' for none).
-- Returns 1 when written, 0 when the version moved on, -1 when the session is gone.
local current = redis.call('HGET', KEYS[1], 'version')
if not current then return -1 end
if current ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[5])
redis.call('RPUSH', KEYS[3], ARGV[4])
redis.call('EXPIRE', KEYS[3], ARGV[5])
if ARGV[6] ~= '' then redis.call('SET', KEYS[4], ARGV[6], 'EX', ARGV[5]) end
return 1
