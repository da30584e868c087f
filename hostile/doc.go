// Package hostile is the exporter's hostile-server suite. It holds tests only: fake
// game servers on 127.0.0.1 that misbehave on purpose, each run against every
// protocol it applies to through the full /probe handler (collector.ProbeHandler
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
//     length bytes, GameSpy v1 packet numbers, Hytale counts, Minecraft frames;
//   - split_255_of_3 / split_60_of_3: A2S split replies announcing more fragments
//     than they send (too_large at once, or timeout at the deadline: never a hang);
//   - shuffled: duplicated and out-of-order fragments (A2S, GameSpy v1, ASE) still
//     decode;
//   - bzip2_bomb: an A2S compressed fragment that inflates to 2 GiB, made at test time
//     with the bzip2 command (skipped when it is missing) (too_large);
//   - challenge_forever: every A2S request answered with a fresh S2C_CHALLENGE
//     (challenge);
//   - endless: a reply that never ends (GameSpy v1 without \final\, ASE fragments,
//     A2S duplicate fragments, a Hytale line without newline, a Minecraft frame
//     that keeps coming) (bounded);
//   - baseline: the same fake servers answering properly, which proves the hostile
//     variants differ from a working server only by their misbehaviour.
//
// The cases run against every registered protocol they apply to (registry.All), so
// a protocol added later is covered by the generic ones at once; the cases that need
// a well-formed reply use the per-protocol "dialects" of dialects_test.go.
//
// For every (case, protocol) the probe must answer HTTP 200 with a parseable
// exposition, probe_success 0 and the expected probe_failure_info reason (never
// "other"), within the probe timeout + 100 ms measured around ServeHTTP (a timer
// armed alongside measures how late the scheduler runs; when other jobs starve the
// host, that lateness is excused and logged), and before the deadline for the
// cases that must not wait for it. It must keep the heap bounded (growth after GC
// under 32 MiB with the History still holding the probe; under 64 MiB allocated,
// garbage included), read a bounded number of datagrams (the trace never
// overflows its 256 packets), and leave no goroutine of the project behind
// (checked from runtime.Stack once the probe returned, then by goroutine count once
// the fake server is closed).
//
// Subtests that fail because of a known bug outside this package are skipped with
// a "BUG:" message; HOSTILE_BUGS=1 runs them (and TestRetainedPerProbe).
// HOSTILE_DEBUG=1 logs each probe's debug page.
//
// TestLoad fires 2000 concurrent probes at 50 silent UDP servers, each request its
// own (module, target) so single-flight merges none, with MaxConcurrent 500: a
// first wave of 500 probes with a 3 s timeout takes every slot, then 1500 with a
// 1 s timeout (started over 150 ms) can only wait and fail as overloaded. Every
// request must answer by its deadline + 1 s (scaled by the host's load average when
// other jobs oversubscribe it) with the expected reason, the in-flight gauge must
// never pass the cap, and goroutines must return to the baseline. It logs the peak
// in flight and the peak RSS (VmHWM, process-wide: run it alone for BENCHMARKS.md).
// -short shrinks it to 400 probes with a cap of 100.
//
// TestRetainedPerProbe measures the heap a finished probe keeps through the
// History when a server floods it with big datagrams.
//
// Probes use X-Prometheus-Scrape-Timeout-Seconds 1.0 with a 0.5 s offset (0.5 s
// probe timeout), so the whole suite stays under a minute with -race on two cores.
package hostile
