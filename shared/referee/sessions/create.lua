-- Create a session atomically. KEYS: meta, state. ARGV: ttl, state_json, then
-- field/value pairs of the meta hash. Returns 0 if the id is taken.
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local fields = {}
for i = 3, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('EXPIRE', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[1])
return 1
