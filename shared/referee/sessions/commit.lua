-- Compare-and-set one change onto a session: a move, a correction or a seat change.
-- KEYS: meta, state, log, idempotency, snapshots, pushed events of the new version.
-- ARGV: 1 expected version, 2 new version, 3 state json, 4 log entry json, 5 ttl,
-- 6 idempotency record json ('' for none), 7 snapshot of the new state, 8 channel,
-- 9 session id, 10 the bot worker's channel ('' when no bot plays a seat after the change),
-- then four counted lists: log entries to rewrite (index, json) — an
-- undone move is marked, never removed —, meta fields to set (field, value), meta
-- fields to delete (field), the new version's stream events built with the change
-- (field, event), followed by the seconds they are kept.
-- Returns 1 when written, 0 when the version moved on, -1 when the session is gone.
local current = redis.call('HGET', KEYS[1], 'version')
if not current then return -1 end
if current ~= ARGV[1] then return 0 end
local i = 11
local count = tonumber(ARGV[i]); i = i + 1
for _ = 1, count do redis.call('LSET', KEYS[3], ARGV[i], ARGV[i + 1]); i = i + 2 end
count = tonumber(ARGV[i]); i = i + 1
for _ = 1, count do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]); i = i + 2 end
count = tonumber(ARGV[i]); i = i + 1
for _ = 1, count do redis.call('HDEL', KEYS[1], ARGV[i]); i = i + 1 end
count = tonumber(ARGV[i]); i = i + 1
for _ = 1, count do redis.call('HSET', KEYS[6], ARGV[i], ARGV[i + 1]); i = i + 2 end
if count > 0 then redis.call('EXPIRE', KEYS[6], ARGV[i]) end
redis.call('HSET', KEYS[1], 'version', ARGV[2])
redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[5])
redis.call('RPUSH', KEYS[3], ARGV[4])
redis.call('HSET', KEYS[5], ARGV[2], ARGV[7])
for _, key in ipairs({KEYS[1], KEYS[3], KEYS[5]}) do redis.call('EXPIRE', key, ARGV[5]) end
if ARGV[6] ~= '' then redis.call('SET', KEYS[4], ARGV[6], 'EX', ARGV[5]) end
redis.call('PUBLISH', ARGV[8], ARGV[9] .. ' ' .. ARGV[2])
if ARGV[10] ~= '' then redis.call('PUBLISH', ARGV[10], ARGV[9] .. ' ' .. ARGV[2]) end
return 1
