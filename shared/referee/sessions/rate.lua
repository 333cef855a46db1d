-- Count a request in a fixed window. KEYS: the window's counter. ARGV: ttl.
-- Returns the count so far, the window's expiry set on its first request.
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return count
