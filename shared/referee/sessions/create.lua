-- Create a session atomically. KEYS: meta, state, snapshots, log. ARGV: ttl, state_json,
-- version, snapshot, the first log entry (the setup's; '' for none), then field/value
-- pairs of the meta hash. Returns 0 if the id is taken.
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local fields = {}
for i = 6, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('EXPIRE', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[1])
redis.call('HSET', KEYS[3], ARGV[3], ARGV[4])
redis.call('EXPIRE', KEYS[3], ARGV[1])
if ARGV[5] ~= '' then
  redis.call('RPUSH', KEYS[4], ARGV[5])
  redis.call('EXPIRE', KEYS[4], ARGV[1])
end
return 1
