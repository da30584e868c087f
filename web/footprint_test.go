//go:build linux

// The bounds are the Linux fast path's (rawIO).

package web

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// What an idle keep-alive connection of the fast path and a probe of a silent
// server waiting for its deadline hold, in live heap and goroutine stack after a
// forced collection: the exporter's own accounting, not RSS, so a busy machine
// does not move it (issue 38; BENCHMARKS.md itemises the figures). Today's figures
// plus a margin; the heap margins include ~0.5 KiB a connection of the shared UDP
// sockets' recvmmsg batches, of which a reading may find one more or fewer kept.
const (
	// The goroutine's stack (4 KiB), fastConn, rawIO, its entry in the listener's
	// map (~370 B of heap: no request buffer while it waits; 4.1 KiB before issue 38).
	maxIdleConnHeap, maxIdleConnStack = 1 << 10, 5 << 10
	// The same stack and ~2.9 KiB of heap: request, trace, outcome, probe context,
	// flight call and key, a2s exchange, UDP connection, shared socket entry, timer.
	maxWaitingProbeHeap, maxWaitingProbeStack = 4 << 10, 5 << 10
	// A probe waiting for another's query of the same target: ~1.3 KiB (1.8 KiB when
	// each waiter armed a timer of its own: TestWaiterArmsNoTimer holds that one).
	maxSharingProbeHeap = 2 << 10
)

const footprintN = 1000 // measured at once: what else the process does is noise

func TestFootprint(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 5,000 sockets")
	}
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim) == nil && lim.Cur < 6*footprintN {
		t.Skipf("ulimit -n is %d: 5,000 sockets and their clients need %d", lim.Cur, 6*footprintN)
	}
	// Started before the first reading: what they hold is in every one.
	targets := make([]string, footprintN)
	for i := range targets {
		targets[i] = prototest.Silent(t).String()
	}
	h := newTestHandler(t, nil, nil)
	h.Runner.Config = builtins(t)
	h.History = NewHistory(100)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := NewFastListener(l, h)
	srv := NewServer(h)
	go srv.Serve(f)
	defer srv.Close()
	addr := l.Addr().String()

	// The client's share and the bare socket's: a listener that only holds what it accepts.
	control := perConn(t, func() func() {
		cl, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		var accepted []net.Conn
		done := make(chan struct{})
		go func() {
			defer close(done)
			for len(accepted) < footprintN {
				c, err := cl.Accept()
				if err != nil {
					return
				}
				accepted = append(accepted, c)
			}
		}()
		conns := dialN(t, cl.Addr().String())
		<-done
		return func() {
			cl.Close()
			for i := range conns {
				conns[i].Close()
				accepted[i].Close()
			}
		}
	})

	// Each target probed once first: its status row and history are per target.
	short := func(c net.Conn, i int) error { // answered as failed: the server is silent
		if _, err := io.WriteString(c, probeRequestFor(targets[i], "0.6")); err != nil {
			return err
		}
		return readAnswer(c)
	}
	{
		conns := dialN(t, addr)
		forEach(t, conns, short)
		closeAll(conns)
	}
	var conns []net.Conn
	idle := perConn(t, func() func() {
		conns = dialN(t, addr)
		forEach(t, conns, short) // answered: each waits idle for its next request
		return func() {}
	})
	defer closeAll(conns)
	// A second connection per target, whose probe joins the running one (issue 38).
	var waiting, sharing held
	var joined []net.Conn
	defer func() { closeAll(joined) }()
	measured := false
	for _, timeout := range []string{"3.5", "10.5", "30.5"} {
		// A wait gives up once the first probes may have ended (their timeout passed):
		// then the round is measured again with a longer timeout.
		start := time.Now()
		secs, _ := strconv.ParseFloat(timeout, 64)
		ended := func() bool { return time.Since(start).Seconds() > secs }
		waiting = perConn(t, func() func() {
			for i, c := range conns {
				if _, err := io.WriteString(c, probeRequestFor(targets[i], timeout)); err != nil {
					t.Fatal(err)
				}
			}
			testenv.WaitEvery(t, 10*time.Millisecond, time.Minute, "every probe in flight", func() (bool, string) {
				return inFlight(h) >= footprintN || ended(), fmt.Sprint(inFlight(h))
			})
			return func() {}
		})
		sharing = perConn(t, func() func() {
			joined = dialN(t, addr)
			for i, c := range joined {
				if _, err := io.WriteString(c, probeRequestFor(targets[i], timeout)); err != nil {
					t.Fatal(err)
				}
			}
			waitJoined(t, footprintN, ended)
			return func() {}
		})
		if measured = inFlight(h) == footprintN; measured {
			break // every probe was still waiting when measured
		}
		// Too busy to measure before the deadlines: again with a longer timeout.
		t.Logf("probes ended before they were measured at %s s: again with a longer timeout", timeout)
		for i, c := range conns {
			if err := readAnswer(c); err != nil {
				t.Fatalf("connection %d: %v", i, err)
			}
		}
		closeAll(joined)
	}
	if !measured {
		t.Fatal("the probes never all waited at once")
	}
	// None outlives the test (later tests count goroutines).
	for i, c := range append(conns, joined...) {
		if err := readAnswer(c); err != nil {
			t.Errorf("connection %d: the waiting probe's answer: %v", i, err)
		}
	}
	idleOwn, waitingOwn, sharingOwn := idle.minus(control), idle.plus(waiting).minus(control), sharing.minus(control)
	t.Logf("per connection, heap + stacks: control (client + a bare accepted socket) %v; over it, idle keep-alive %v, waiting probe %v, probe waiting for another's query %v",
		control, idleOwn, waitingOwn, sharingOwn)
	stackBound := int64(1)
	if testenv.Race {
		stackBound = 2 // its frames are larger, and the runtime doubles every stack
	}
	for _, c := range []struct {
		what      string
		got, most held
	}{
		{"an idle keep-alive connection", idleOwn, held{maxIdleConnHeap, stackBound * maxIdleConnStack}},
		{"a connection with a waiting probe", waitingOwn, held{maxWaitingProbeHeap, stackBound * maxWaitingProbeStack}},
		{"a connection whose probe waits for another's query", sharingOwn, held{maxSharingProbeHeap, stackBound * maxWaitingProbeStack}},
	} {
		if c.got.heap > c.most.heap || c.got.stack > c.most.stack {
			t.Errorf("%s holds %v over a bare socket, want at most %v", c.what, c.got, c.most)
		}
	}
}

// held is bytes of live heap and of goroutine stacks.
type held struct{ heap, stack int64 }

func (a held) minus(b held) held { return held{a.heap - b.heap, a.stack - b.stack} }
func (a held) plus(b held) held  { return held{a.heap + b.heap, a.stack + b.stack} }
func (a held) String() string    { return fmt.Sprintf("%d B heap + %d B stack", a.heap, a.stack) }

// perConn is what each of setup's footprintN connections holds; setup returns their release.
func perConn(t *testing.T, setup func() (release func())) held {
	t.Helper()
	before := heldBytes()
	release := setup()
	after := heldBytes()
	release()
	d := after.minus(before)
	return held{d.heap / footprintN, d.stack / footprintN}
}

var heldSamples = []metrics.Sample{
	{Name: "/memory/classes/heap/objects:bytes"},
	{Name: "/memory/classes/heap/stacks:bytes"},
}

// heldBytes is the live heap and stacks after two collections: sync.Pool's victims
// go and oversized stacks shrink.
func heldBytes() held {
	runtime.GC()
	runtime.GC()
	metrics.Read(heldSamples)
	return held{int64(heldSamples[0].Value.Uint64()), int64(heldSamples[1].Value.Uint64())}
}

// waitJoined waits until n goroutines wait for another probe's query, or until
// ended says the queries they join may have ended.
func waitJoined(t *testing.T, n int, ended func() bool) {
	t.Helper()
	buf := make([]byte, 16<<20)
	testenv.WaitEvery(t, 10*time.Millisecond, time.Minute, fmt.Sprint(n, " probes to join another's query"), func() (bool, string) {
		joined := strings.Count(string(buf[:runtime.Stack(buf, true)]), "(*flight).join(")
		return joined >= n || ended(), fmt.Sprint(joined)
	})
}

func inFlight(h *ProbeHandler) float64 { return testutil.ToFloat64(h.Runner.Metrics.InFlight) }

func dialN(t *testing.T, addr string) []net.Conn {
	t.Helper()
	conns := make([]net.Conn, footprintN)
	for i := range conns {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			closeAll(conns[:i])
			t.Fatal(err)
		}
		conns[i] = c
	}
	return conns
}

func closeAll(conns []net.Conn) {
	for _, c := range conns {
		c.Close()
	}
}

// forEach runs fn on every connection, 50 at a time (as the load harness keeps
// in flight), and fails the test on its first error.
func forEach(t *testing.T, conns []net.Conn, fn func(c net.Conn, i int) error) {
	t.Helper()
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	sem := make(chan struct{}, 50)
	for i, c := range conns {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			if err := fn(c, i); err != nil {
				once.Do(func() { first = fmt.Errorf("connection %d: %w", i, err) })
			}
		})
	}
	wg.Wait()
	if first != nil {
		t.Fatal(first)
	}
}

func probeRequestFor(target, scrapeTimeout string) string {
	return "GET /probe?module=a2s&target=" + target + " HTTP/1.1\r\nHost: x\r\nX-Prometheus-Scrape-Timeout-Seconds: " + scrapeTimeout + "\r\n\r\n"
}

// readAnswer reads a probe's answer on c (a failed probe), the connection kept.
func readAnswer(c net.Conn) error {
	c.SetReadDeadline(time.Now().Add(time.Minute))
	defer c.SetReadDeadline(time.Time{})
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK || resp.Close {
		return fmt.Errorf("status %d, close %v", resp.StatusCode, resp.Close)
	}
	return err
}
