// Package hostile is the exporter's hostile-server suite. It holds tests only: fake
// game servers on 127.0.0.1 that misbehave on purpose, each run against every
// protocol it applies to through the full /probe handler (web.ProbeHandler
// with the built-in modules, fresh self-metrics, a History, no caching), the way a
// scrape reaches the exporter.
//
// The misbehaviours:
//
//   - silence: a UDP server that reads and never answers, a TCP server that accepts
//     and never writes (reason timeout);
//   - late_reply: a valid reply sent after the probe's deadline (timeout);
//   - drip: a TCP server writing its valid reply one byte a second (timeout);
//   - backlog_full: a TCP listener whose accept queue is full, so connecting hangs
//     (timeout; Linux only);
//   - closed_port: nothing listening, ICMP port unreachable or RST (refused);
//   - other_port: a second socket answers the request, which the connected socket
//     drops (timeout);
//   - wrong_echo: every reply echoes another challenge, request id or cookie than
//     the request's (mismatch);
//   - hangup: a TCP server that reads the request and closes (truncated);
//   - random / random_tail: seeded random datagrams, bare or behind a header that
//     passes the querier's accept check so they reach the decoders (any failure
//     reason but "other", never a crash);
//   - flood: a hundred junk datagrams per request (bounded, malformed or timeout);
//   - huge_length: length fields of 2^31 (or the field's maximum) where a protocol
//     has them: A2S compressed size, Sky Co-op strings, Satisfactory's name, ASE's
//     length bytes, GameSpy v1 packet numbers, Hytale counts, Minecraft frames,
//     Bedrock's server id string, Frostbite packet sizes, Cube 2's attribute
//     count, OpenTTD packet sizes, an HTTP Content-Length (Palworld, TShock);
//   - split_255_of_3 / split_60_of_3: A2S split replies announcing more fragments
//     than they send (too_large at once, or timeout at the deadline: never a hang);
//   - shuffled: duplicated and out-of-order fragments (A2S, GameSpy v1 and v3, ASE)
//     still decode;
//   - bzip2_bomb: an A2S compressed fragment that inflates to 2 GiB, made at test time
//     with the bzip2 command (skipped when it is missing) (too_large);
//   - challenge_forever: every A2S request answered with a fresh S2C_CHALLENGE
//     (challenge);
//   - endless: a reply that never ends (GameSpy v1 without \final\, ASE fragments,
//     A2S duplicate fragments, GameSpy v3 packets none flagged last, a Hytale line
//     or TeamSpeak 3 greeting without newline, a Minecraft frame that keeps coming,
//     an HTTP body without length or end) (bounded);
//   - phases_* (phases_test.go): an A2S server with a proper info reply that is
//     silent, announces 255 players and 65535 rules while sending two and one,
//     challenges forever, splits, bzip2-bombs or sends random bytes on A2S_PLAYER
//     and A2S_RULES, probed with players and rules on: the probe succeeds on its
//     info, the phases fail (or read what is there), within the deadline and bounds;
//   - baseline: the same fake servers answering properly, which proves the hostile
//     variants differ from a working server only by their misbehaviour.
//
// The cases run against every registered protocol they apply to (registry.All), so
// a protocol added later is covered by the generic ones at once; the cases that need
// a well-formed reply use the per-protocol "dialects" of dialects_test.go.
//
// Each case probes a module named after the protocol: the built-in one, or for a
// protocol whose module names the port it connects to (TeamSpeak 3's query_port)
// one set to the fake server's port, the target naming another port (the voice
// port) so that a querier ignoring the option would miss the server. TCP servers
// that speak first (TeamSpeak 3's greeting) greet before reading the request; the
// hangup and random cases then close, or send junk, where the greeting should be.
//
// For every (case, protocol) the probe must answer HTTP 200 with a parseable
// exposition, probe_success 0 and the expected probe_failure_info reason (never
// "other"), within the probe timeout + 100 ms measured around ServeHTTP, and
// before the deadline for the cases that must not wait for it. Deadlines are
// judged against what the host could schedule: a timer armed beside the probe
// measures how late wake-ups run, and the run-queue wait of the process's threads
// (/proc/self/task/*/schedstat) how long the kernel kept them off the CPUs while
// they were ready (a CPU-bound probe such as the bzip2 bomb is slowed by the
// latter, which the timer does not show). The larger of the two is excused and
// logged: a probe later than the slack plus that, or a fast case that reached its
// deadline even without it, fails; on an idle host both are about 0, so the
// bounds are the promised ones. A probe that ends as timeout only because the host
// withheld the time is logged, not failed. Each probe must also keep the heap
// bounded (growth after GC under 32 MiB with the History still holding the probe;
// under 64 MiB allocated, garbage included), read a bounded number of datagrams
// (256, the packets a trace keeps, per query: GoldSrc's probe may run four), and
// leave no goroutine of the project behind (checked from runtime.Stack once the
// probe returned, then by goroutine count once the fake server is closed).
//
// Subtests that fail because of a known bug outside this package are skipped with
// a "BUG:" message; HOSTILE_BUGS=1 runs them. HOSTILE_DEBUG=1 logs each probe's
// debug page.
//
// TestLoad is a load test: it skips unless GSE_LOAD_TESTS=1, and `make test` runs
// it apart, after every package's tests (so that no other test binary shares the
// CPUs with it, and it shares them with no other test's deadlines). It fires 2000
// probes at a handler with MaxConcurrent 500 and MaxWaiting 500, each request its
// own (module, target) so that single-flight merges none. The waiting semantics
// it pins down: a probe past the in-flight cap waits for a slot within its own
// deadline and fails as overloaded when none frees in time; a probe that finds
// MaxWaiting probes already waiting fails at once as overloaded; a slot that
// frees goes to a waiting probe. So, in waves: 500 A2S probes of "gate" servers
// (which answer only once the test opens them) take every slot; 500 probes with
// a 1 s timeout wait and fail as overloaded after their whole timeout, by the
// deadline + 1 s + the lateness of a ticker beside the test; 1000 more arrive
// while every slot is held: 500 wait, 500 are refused at once; the gates open,
// the holders end (reason challenge) and the 500 waiting probes get their slots
// and end the same way. The outcome is exact whatever the host's speed: 1000
// challenge, 1000 overloaded, the in-flight gauge at the cap and never past it,
// goroutines back to the baseline. It logs the peak RSS (VmHWM, process-wide:
// run it alone for BENCHMARKS.md). -short divides it by five.
//
// TestLoadStalledPages and TestLoadStalledSD (stalled_test.go) are load tests too
// (`make test` runs every TestLoad*): clients that send requests and never read
// their answers, through web.NewServer. Eight of them pipelining the status page
// leave /metrics and / answering within a second and are cut off at their write
// deadline; /sd readers stalled across refreshes keep at most a turn's worth of
// encoded answers alive, not a snapshot each.
//
// TestRetainedPerProbe measures the heap a finished probe keeps through the
// History when a server floods it with big datagrams.
//
// Probes use X-Prometheus-Scrape-Timeout-Seconds 1.0 with a 0.5 s offset (0.5 s
// probe timeout), so the whole suite takes about 75 s with -race on two cores
// (most cases wait for the deadline of each protocol in turn).
package hostile
