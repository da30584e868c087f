-- wrk script: spreads /probe requests over N consecutive target ports, so every
-- request is a fresh query (no cache, no coalescing can help), and counts the answers
-- that say "probe_success 1", so a prober that fails fast is not mistaken for a fast one.
--
--   wrk -t2 -c50 -d5s -s rotate.lua http://127.0.0.1:PORT -- BASEPORT COUNT MODULE [HOST]
--
-- Each wrk thread runs this script in its own Lua state; done() sums the threads'
-- counters and prints one line: "rotate: ok=N fail=M".

local base, count, module, host = 21000, 1000, "a2s", "127.0.0.1"
local counter = 0
local threads = {}
-- Globals, not locals: done() reads them from each thread with thread:get().
ok, fail = 0, 0

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  base = tonumber(args[1]) or base
  count = tonumber(args[2]) or count
  module = args[3] or module
  host = args[4] or host
  -- Threads start at different random ports so they do not march in step.
  math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)") or "0", 16) % 100000)
  counter = math.random(0, count - 1)
end

function request()
  counter = counter + 1
  return wrk.format("GET", "/probe?module=" .. module .. "&target=" .. host .. ":" .. (base + counter % count))
end

function response(status, headers, body)
  if status == 200 and string.find(body, "probe_success 1", 1, true) then
    ok = ok + 1
  else
    fail = fail + 1
  end
end

function done(summary, latency, requests)
  local tok, tfail = 0, 0
  for _, t in ipairs(threads) do
    tok = tok + (t:get("ok") or 0)
    tfail = tfail + (t:get("fail") or 0)
  end
  io.write(string.format("rotate: ok=%d fail=%d\n", tok, tfail))
end
