-- wrk script for scripts/bench: POSTs a registration body with a new push token on every request.
-- Each wrk thread gets 56 pseudo-random hex digits (seeded by WRK_SEED, so a later run with the
-- same seed, for example against /wakeup/unregister, names the same tokens) and a counter.
-- Environment: WRK_PATH (default /wakeup), WRK_SEED (default 1), WRK_COUNT_STATUSES=1 to count
-- the answers by kind: 200, 503 with Retry-After, 503 without, any other status.
local path = os.getenv("WRK_PATH") or "/wakeup"
local seed = tonumber(os.getenv("WRK_SEED") or "1")
local threadIndex = 0
local counter = 0
-- `prefix` is a global: setup() sets it in each thread's own Lua state (a local would shadow it).
prefix = nil
-- Per-thread answer counts (globals of each thread's state), read back in done().
ok, retry503, bare503, other = 0, 0, 0, 0
local threads = {}

function setup(thread)
  table.insert(threads, thread)
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

-- Defined only when counting: wrk parses response headers for Lua only when `response` exists.
if os.getenv("WRK_COUNT_STATUSES") == "1" then
  function response(status, headers, body)
    if status == 200 then
      ok = ok + 1
    elseif status == 503 and (headers["Retry-After"] or headers["retry-after"]) then
      retry503 = retry503 + 1
    elseif status == 503 then
      bare503 = bare503 + 1
    else
      other = other + 1
    end
  end
end

-- One machine-readable line; errors.status counts answers >= 400, the others socket errors.
function done(summary, latency, requests)
  local e = summary.errors
  local counts = ""
  if response then
    local sums = { ok = 0, retry503 = 0, bare503 = 0, other = 0 }
    for _, thread in ipairs(threads) do
      for name, _ in pairs(sums) do sums[name] = sums[name] + thread:get(name) end
    end
    counts = string.format(" ok=%d retry503=%d bare503=%d other=%d", sums.ok, sums.retry503, sums.bare503, sums.other)
  end
  io.write(string.format(
    "RESULT requests=%d rps=%.1f p50_us=%d p99_us=%d max_us=%d non2xx=%d socket_errors=%d%s\n",
    summary.requests, summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(99), latency.max, e.status, e.connect + e.read + e.write + e.timeout,
    counts))
end
