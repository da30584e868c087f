package hostile

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"net"
	"net/netip"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/registry"
)

const (
	success    = ""
	timeout    = "timeout"
	refused    = "refused"
	malformed  = "malformed"
	truncated  = "truncated"
	mismatch   = "mismatch"
	tooLarge   = "too_large"
	challenge  = "challenge"
	anyOutcome = "*" // any reason but "other", or success: the case checks bounds only
)

// garbage is what random bytes may legitimately be reported as.
var garbage = []string{timeout, malformed, truncated, mismatch, tooLarge}

// hostileCase is one misbehaviour. want returns, for a protocol, the accepted
// outcomes (reasons, success, anyOutcome) and whether the case applies to it; start
// runs the fake server and returns the address to query.
type hostileCase struct {
	name  string
	want  func(p protocols.Protocol) ([]string, bool)
	start func(t *testing.T, p protocols.Protocol) (netip.AddrPort, server)
	// replies, for a case without start, is what a server of p's transport
	// answers to each request (TCP: the first).
	replies replier
	// fast: the probe must end before its deadline (a refusal, a reply that
	// decodes or fails to, a bound hit), not wait for it.
	fast bool
	// module, when set, is the YAML of the module probing (named after the
	// protocol, overriding the built-in one); failedPhases must then report failure.
	module       string
	failedPhases []string
}

// knownBugs are (case/protocol) subtests that fail because of a bug outside this
// package; they are skipped unless HOSTILE_BUGS=1.
var knownBugs = map[string]string{}

func udp(p protocols.Protocol) bool { return p.Transport != "tcp" }
func tcp(p protocols.Protocol) bool { return p.Transport == "tcp" }

func hasDialect(p protocols.Protocol) bool { _, ok := dialects[p.Name]; return ok }

// echoes: p's replies echo a challenge, id or cookie of the request.
func echoes(p protocols.Protocol) bool { return dialects[p.Name].echo != nil }

// every applies to every protocol that passes the filters.
func every(want []string, filters ...func(protocols.Protocol) bool) func(protocols.Protocol) ([]string, bool) {
	return func(p protocols.Protocol) ([]string, bool) {
		for _, f := range filters {
			if !f(p) {
				return nil, false
			}
		}
		return want, true
	}
}

// per applies to the protocols listed, each with its own accepted outcomes.
func per(m map[string][]string) func(protocols.Protocol) ([]string, bool) {
	return func(p protocols.Protocol) ([]string, bool) {
		w, ok := m[p.Name]
		return w, ok
	}
}

// seeded returns a deterministic random source for a (case, protocol).
func seeded(name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(h.Sum64(), 0x5eed))
}

func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// answerUDP starts a UDP server sending replies(req) for every request.
func answerUDP(t *testing.T, replies func(req []byte) [][]byte) (netip.AddrPort, server) {
	return startUDP(t, func(s *udpServer, req []byte, from netip.AddrPort) { s.send(from, replies(req)...) }).at()
}

// readRequest sends p's greeting, if its server speaks first, and reads the
// client's request (one read: requests are small).
func readRequest(c net.Conn, p protocols.Protocol) []byte {
	if g := dialects[p.Name].greeting; g != nil {
		if _, err := c.Write(g); err != nil {
			return nil
		}
	}
	buf := make([]byte, 512)
	n, _ := c.Read(buf)
	return buf[:n]
}

// speaksFirst: p's server talks before the client (a greeting).
func speaksFirst(p protocols.Protocol) bool { return dialects[p.Name].greeting != nil }

// answer starts a server of p's transport answering each request with replies.
// Over TCP it sends p's greeting (if its server speaks first), reads the request,
// writes the first reply, then half-closes and reads what the client still sends
// (TeamSpeak 3 sends commands the reply already answered): a full close with
// unread bytes would reset the connection and might discard the reply before the
// client reads it. replies runs under a lock: connections have their own
// goroutines, and replies may share a random source.
func answer(t *testing.T, p protocols.Protocol, replies func(req []byte) [][]byte) (netip.AddrPort, server) {
	if udp(p) {
		return answerUDP(t, replies)
	}
	var mu sync.Mutex
	return startTCP(t, func(s *tcpServer, c net.Conn) {
		req := readRequest(c, p)
		mu.Lock()
		r := replies(req)
		mu.Unlock()
		if len(r) > 0 {
			c.Write(r[0])
		}
		if tc, ok := c.(*net.TCPConn); ok {
			tc.CloseWrite()
		}
		drain(c)
	}).at()
}

// pick returns the datagrams at the given indexes, in that order.
func pick(ds [][]byte, order ...int) [][]byte {
	out := make([][]byte, len(order))
	for i, n := range order {
		out[i] = ds[n]
	}
	return out
}

// streamUDP starts a UDP server answering every request with datagrams next(i),
// i = 0, 1, ... up to n of them (or until the server closes), one per interval
// (0: as fast as it can).
func streamUDP(t *testing.T, n int, every time.Duration, next func(i int) []byte) (netip.AddrPort, server) {
	return startUDP(t, func(s *udpServer, req []byte, from netip.AddrPort) {
		s.stream(every, func(i int) bool {
			s.send(from, next(i))
			return i+1 < n
		})
	}).at()
}

func TestHostile(t *testing.T) { runCases(t, cases) }

// runCases runs every case against every protocol it applies to.
func runCases(t *testing.T, cases []hostileCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, p := range registry.All() {
				want, ok := c.want(p)
				if !ok || p.OffTarget || !inShard(c.name+"/"+p.Name) { // OffTarget: its probe asks a third party (eos), never the fake
					continue
				}
				t.Run(p.Name, func(t *testing.T) { runCase(t, c, p, want) })
			}
		})
	}
}

// runCase probes p's built-in module against c's fake server through the full
// /probe handler and checks the outcome, the deadline, the heap, the datagrams
// read and the goroutines left.
func runCase(t *testing.T, c hostileCase, p protocols.Protocol, want []string) {
	if msg, ok := knownBugs[c.name+"/"+p.Name]; ok && os.Getenv("HOSTILE_BUGS") == "" {
		t.Skip("BUG: " + msg + " (HOSTILE_BUGS=1 runs it)")
	}
	base := liveGoroutines()
	start := c.start
	if start == nil {
		start = func(t *testing.T, p protocols.Protocol) (netip.AddrPort, server) {
			return answer(t, p, c.replies(t, p))
		}
	}
	addr, srv := start(t, p)
	yaml, targetOf := moduleFor(p, addr)
	if c.module != "" {
		yaml = c.module
	}
	h := newHandler(t, yaml, 0, 0)
	target := targetOf(t, h)

	heap0 := prototest.HeapAfterGC()
	alloc0 := totalAlloc()
	late, starved := canary(probeTimeout), starvation()
	out := probe(h, p.Name, target, scrapeTimeout)
	timerLate, runQueue := late(), starved()
	alloc1 := totalAlloc()
	heap1 := prototest.HeapAfterGC()
	// withheld is how much of the probe's time the host demonstrably did not give
	// this process: deadlines are judged against what it could schedule.
	withheld := max(timerLate, runQueue)
	host := fmt.Sprintf("a timer armed with it fired %s late, the process's threads waited %s for a CPU", timerLate.Round(time.Millisecond), runQueue.Round(time.Millisecond))

	if out.status != 200 {
		t.Fatalf("HTTP %d, want 200: %s", out.status, out.Body)
	}
	if out.parse != nil {
		t.Errorf("the exposition does not parse: %v", out.parse)
	}
	if out.elapsed > probeTimeout+slack {
		if out.elapsed > probeTimeout+slack+withheld {
			t.Errorf("the probe took %s, over its %s timeout + %s (%s)", out.elapsed, probeTimeout, slack, host)
		} else {
			t.Logf("the probe took %s, over its %s timeout + %s, excused: %s", out.elapsed, probeTimeout, slack, host)
		}
	}
	// A probe pushed past its deadline by the host alone may report the timeout
	// instead of what it would have found.
	starvedOut := out.success() == 0 && out.reason() == timeout && !slices.Contains(want, timeout) &&
		out.elapsed >= probeTimeout && out.elapsed-withheld < probeTimeout
	reason := out.reason()
	switch {
	case reason == "other":
		t.Errorf("reason \"other\": the error wraps no sentinel\n%s", lastProbeDebug(t, h))
	case slices.Contains(want, anyOutcome):
	case starvedOut:
		t.Logf("reason %q, want one of %v, excused: the probe reached its deadline only because the host withheld %s (%s)", reason, want, withheld, host)
	case out.success() == 1 && !slices.Contains(want, success):
		t.Errorf("probe_success 1, want a failure with reason %v\n%s", want, out.Body)
	case out.success() == 0 && !slices.Contains(want, reason):
		t.Errorf("reason %q, want one of %v\n%s", reason, want, lastProbeDebug(t, h))
	case out.success() == 1 && dialects[p.Name].name != "":
		if name, want := out.Labels("gameserver_info")["name"], dialects[p.Name].name; name != want {
			t.Errorf("gameserver_info name %q, want %q\n%s", name, want, out.Body)
		}
	}
	for _, phase := range c.failedPhases {
		if v := out.phase(phase); v != 0 && !starvedOut {
			t.Errorf("phase %q success %v, want 0\n%s", phase, v, lastProbeDebug(t, h))
		}
	}
	if c.fast && out.elapsed >= probeTimeout {
		if out.elapsed-withheld >= probeTimeout {
			t.Errorf("the probe waited for its deadline (%s): this case must end before it (%s)", out.elapsed, host)
		} else {
			t.Logf("the probe reached its deadline (%s), excused: %s", out.elapsed, host)
		}
	}
	if grown := int64(heap1) - int64(heap0); grown > heapBound {
		t.Errorf("the heap grew by %d MiB over the probe (bound %d MiB)", grown>>20, heapBound>>20)
	}
	if a := alloc1 - alloc0; a > allocBound {
		t.Errorf("the probe allocated %d MiB (bound %d MiB)", a>>20, allocBound>>20)
	}
	if os.Getenv("HOSTILE_DEBUG") != "" {
		t.Log(lastProbeDebug(t, h))
	}
	// The count includes the packets the trace did not keep.
	n, overflow := received(lastProbeDebug(t, h))
	if bound := receivedBound(p); n > bound {
		t.Errorf("the probe read %d packets (overflowed the trace: %v), bound %d", n, overflow, bound)
	}
	t.Logf("reason=%q in %s, %d packets read, heap %+d KiB, allocated %d KiB; host: %s", reason, out.elapsed.Round(time.Millisecond), n, (int64(heap1)-int64(heap0))>>10, (alloc1-alloc0)>>10, host)

	waitNoProjectGoroutines(t)
	srv.Close()
	waitGoroutines(t, base)
}

// retainedBound is what one finished probe may keep alive: CONTRIBUTING.md says a
// probe never holds more than a few hundred KiB.
const retainedBound = 1 << 20

// TestRetainedPerProbe floods each UDP querier with 40 big datagrams it must
// reject (60 000 bytes each, paced so that the probe reads them all) and measures
// the heap a finished probe leaves behind, the History still holding it as /probe
// and the landing page do.
func TestRetainedPerProbe(t *testing.T) {
	if !inShard(t.Name()) {
		return
	}
	junk := append([]byte("JUNK"), make([]byte, 60000)...)
	for _, p := range registry.All() {
		if !udp(p) {
			continue
		}
		t.Run(p.Name, func(t *testing.T) {
			h := newHandler(t, "", 0, 0)
			s := startUDP(t, func(s *udpServer, _ []byte, from netip.AddrPort) {
				s.stream(time.Millisecond, func(i int) bool {
					s.send(from, junk)
					return i < 40
				})
			})
			heap0 := prototest.HeapAfterGC()
			out := probe(h, p.Name, targetFor(t, h, p.Name, s.addr), scrapeTimeout)
			s.Close()
			heap1 := prototest.HeapAfterGC()
			n, _ := received(lastProbeDebug(t, h))
			kept := int64(heap1) - int64(heap0)
			t.Logf("reason=%q in %s, %d datagrams read, %d KiB kept", out.reason(), out.elapsed.Round(time.Millisecond), n, kept>>10)
			if kept > retainedBound {
				t.Errorf("a finished probe keeps %d KiB alive (%d datagrams read), bound %d KiB", kept>>10, n, retainedBound>>10)
			}
		})
	}
}
