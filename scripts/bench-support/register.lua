-- wrk script for scripts/bench: POSTs a registration body with a new push token on every request.
-- Each wrk thread gets 56 pseudo-random hex digits (seeded by WRK_SEED, so a later run with the
-- same seed, for example against /wakeup/unregister, names the same tokens) and a counter.
-- Environment: WRK_PATH (default /wakeup), WRK_SEED (default 1).
local path = os.getenv("WRK_PATH") or "/wakeup"
local seed = tonumber(os.getenv("WRK_SEED") or "1")
local threadIndex = 0
local counter = 0
-- `prefix` is a global: setup() sets it in each thread's own Lua state (a local would shadow it).
prefix = nil

function setup(thread)
  threadIndex = threadIndex + 1
  math.randomseed(seed * 1000 + threadIndex)
  local parts = {}
  for i = 1, 7 do parts[i] = string.format("%08x", math.random(0, 0x7fffffff)) end
  thread:set("prefix", table.concat(parts))
end

function request()
  counter = counter + 1
  local body = '{"pushToken":"' .. prefix .. string.format("%08x", counter)
    .. '","activityType":"charging","environment":"sandbox"}'
  return wrk.format("POST", path, { ["Content-Type"] = "application/json" }, body)
end

-- One machine-readable line; errors.status counts answers >= 400, the others socket errors.
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d rps=%.1f p50_us=%d p99_us=%d non2xx=%d socket_errors=%d\n",
    summary.requests, summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(99), e.status, e.connect + e.read + e.write + e.timeout))
end
