-- wrk script: like rotate.lua, spreads /probe requests over N target ports, and
-- collects the latencies each answer reports (probe_duration_seconds and the info
-- phase of gameserver_query_duration_seconds), for bench/fidelity.sh.
--
--   wrk -t2 -c50 -d10s -s fidelity.lua http://127.0.0.1:PORT -- BASEPORT COUNT MODULE
--
-- done() prints one line per metric: "fidelity: NAME n=.. mean_ms=.. p50_ms=.. p99_ms=.. max_ms=..",
-- percentiles from 0.05 ms buckets up to 500 ms.

local base, count, module = 21000, 1000, "a2s"
local counter = 0
local threads = {}
local width, buckets = 0.05, 10000 -- ms per bucket, buckets
-- Globals, not locals: done() reads them from each thread with thread:get().
ok, fail = 0, 0
probe_hist, info_hist = {}, {}
probe_sum, info_sum, probe_n, info_n, probe_max, info_max = 0, 0, 0, 0, 0, 0

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  base = tonumber(args[1]) or base
  count = tonumber(args[2]) or count
  module = args[3] or module
  math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)") or "0", 16) % 100000)
  counter = math.random(0, count - 1)
end

function request()
  counter = counter + 1
  return wrk.format("GET", "/probe?module=" .. module .. "&target=127.0.0.1:" .. (base + counter % count))
end

local function bucket(hist, ms)
  local b = math.floor(ms / width)
  if b >= buckets then b = buckets - 1 end
  hist[b] = (hist[b] or 0) + 1
end

function response(status, headers, body)
  if status ~= 200 or not string.find(body, "probe_success 1", 1, true) then
    fail = fail + 1
    return
  end
  ok = ok + 1
  local p = tonumber(string.match(body, "\nprobe_duration_seconds ([%d%.eE%+%-]+)"))
  local i = tonumber(string.match(body, '\ngameserver_query_duration_seconds{phase="info"} ([%d%.eE%+%-]+)'))
  if p then
    p = p * 1000
    probe_n, probe_sum = probe_n + 1, probe_sum + p
    if p > probe_max then probe_max = p end
    bucket(probe_hist, p)
  end
  if i then
    i = i * 1000
    info_n, info_sum = info_n + 1, info_sum + i
    if i > info_max then info_max = i end
    bucket(info_hist, i)
  end
end

local function report(name, hist, n, sum, max)
  if n == 0 then
    print("fidelity: " .. name .. " n=0")
    return
  end
  local function pct(q)
    local want, seen = q * n, 0
    for b = 0, buckets - 1 do
      seen = seen + (hist[b] or 0)
      if seen >= want then return (b + 0.5) * width end
    end
    return max
  end
  print(string.format("fidelity: %s n=%d mean_ms=%.3f p50_ms=%.3f p99_ms=%.3f max_ms=%.3f", name, n, sum / n, pct(0.5), pct(0.99), max))
end

function done(summary, latency, requests)
  local tok, tfail = 0, 0
  local ph, ih = {}, {}
  local pn, ps, pm, inn, is, im = 0, 0, 0, 0, 0, 0
  for _, t in ipairs(threads) do
    tok, tfail = tok + t:get("ok"), tfail + t:get("fail")
    pn, ps, inn, is = pn + t:get("probe_n"), ps + t:get("probe_sum"), inn + t:get("info_n"), is + t:get("info_sum")
    pm, im = math.max(pm, t:get("probe_max")), math.max(im, t:get("info_max"))
    for b, c in pairs(t:get("probe_hist")) do ph[b] = (ph[b] or 0) + c end
    for b, c in pairs(t:get("info_hist")) do ih[b] = (ih[b] or 0) + c end
  end
  print(string.format("rotate: ok=%d fail=%d", tok, tfail))
  report("probe_duration_seconds", ph, pn, ps, pm)
  report("query_info", ih, inn, is, im)
end
