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
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// What one idle keep-alive connection of the fast path and one probe of a silent
// server waiting for its deadline hold, in bytes of live heap and goroutine stack
// after a forced collection: the exporter's own accounting, not RSS, so a busy
// machine does not move it (issue 38; BENCHMARKS.md itemises the figures). Today's
// figures plus a margin: a change that grows one by more fails here. The heap
// margins include ~0.5 KiB a connection that is not theirs: the shared UDP
// sockets keep up to four 512 KiB recvmmsg batches for their readers, and a
// reading may find one more or fewer kept than the one before.
const (
	// An idle connection: its goroutine's stack (4 KiB), fastConn and rawIO, its
	// entry in the listener's map (~370 B of heap today: it holds no request
	// buffer while it waits; with the pooled 4 KiB reader it held until issue
	// 38, 4.1 KiB).
	maxIdleConnHeap, maxIdleConnStack = 1 << 10, 5 << 10
	// A connection with a probe of a silent server waiting on it: the same
	// goroutine (its stack stays 4 KiB) and, on the heap (~2.9 KiB today), the
	// request, trace, outcome, probe context, flight call and key, the a2s
	// exchange and UDP connection, the shared socket's entry and its timer.
	maxWaitingProbeHeap, maxWaitingProbeStack = 4 << 10, 5 << 10
	// A connection whose probe waits for another's query of the same target: the
	// goroutine and, on the heap, the connection's share, the request, the probe
	// context and its wait in the flight (~1.3 KiB; ~1.8 KiB when each waiter
	// armed a context, channel and timer of its own for its deadline, before
	// issue 38: TestWaiterArmsNoTimer holds that one exactly).
	maxSharingProbeHeap = 2 << 10
)

// footprintN connections (and probes) are measured at once: enough that a few
// hundred bytes of whatever else the process does between two readings is noise.
const footprintN = 1000

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

	// The client's share, and the bare socket's: n connections to a listener that
	// holds what it accepts and nothing more.
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

	// Every target probed once first, so that its status row and the history
	// exist before the measurements: those are per target, not per connection.
	short := func(c net.Conn, i int) error { return probeOn(c, targets[i], "0.6") }
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
	// Then a second connection per target, whose probe joins the running one
	// (single-flight: issue 38's ten scrapes of each server).
	var waiting, sharing held
	var joined []net.Conn
	defer func() { closeAll(joined) }()
	measured := false
	for _, timeout := range []string{"3.5", "10.5", "30.5"} {
		waiting = perConn(t, func() func() {
			for i, c := range conns {
				if _, err := io.WriteString(c, probeRequestFor(targets[i], timeout)); err != nil {
					t.Fatal(err)
				}
			}
			for deadline := time.Now().Add(time.Minute); inFlight(h) < footprintN; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("%.0f of %d probes in flight after a minute", inFlight(h), footprintN)
				}
			}
			return func() {}
		})
		sharing = perConn(t, func() func() {
			joined = dialN(t, addr)
			for i, c := range joined {
				if _, err := io.WriteString(c, probeRequestFor(targets[i], timeout)); err != nil {
					t.Fatal(err)
				}
			}
			waitJoined(t, footprintN)
			return func() {}
		})
		if measured = inFlight(h) == footprintN; measured {
			break // every probe was still waiting when measured
		}
		// A machine too busy to measure before the first deadlines: the probes end,
		// the connections go idle again, and a longer timeout is tried.
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
	// The probes answer at their deadline: none outlives the test (later tests
	// count goroutines).
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

// perConn returns what setup's footprintN connections hold, each, in live heap and
// goroutine stacks after a collection; the function setup returns releases them.
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

// heldBytes is the live heap and the goroutine stacks, after collections: two,
// so that sync.Pool's victims go and stacks that a collection found oversized
// shrink, the second's sweep done (runtime.GC returns swept).
func heldBytes() held {
	runtime.GC()
	runtime.GC()
	metrics.Read(heldSamples)
	return held{int64(heldSamples[0].Value.Uint64()), int64(heldSamples[1].Value.Uint64())}
}

// waitJoined waits until n goroutines wait for another probe's query.
func waitJoined(t *testing.T, n int) {
	t.Helper()
	buf := make([]byte, 16<<20)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if strings.Count(string(buf[:runtime.Stack(buf, true)]), "(*flight).join(") >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("fewer than %d probes joined another's query after a minute", n)
		}
	}
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
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := fn(c, i); err != nil {
				once.Do(func() { first = fmt.Errorf("connection %d: %w", i, err) })
			}
		}()
	}
	wg.Wait()
	if first != nil {
		t.Fatal(first)
	}
}

func probeRequestFor(target, scrapeTimeout string) string {
	return "GET /probe?module=a2s&target=" + target + " HTTP/1.1\r\nHost: x\r\nX-Prometheus-Scrape-Timeout-Seconds: " + scrapeTimeout + "\r\n\r\n"
}

// probeOn probes target on c and reads the answer (a failed probe, the server
// being silent), leaving c open.
func probeOn(c net.Conn, target, scrapeTimeout string) error {
	c.SetDeadline(time.Now().Add(time.Minute))
	defer c.SetDeadline(time.Time{})
	if _, err := io.WriteString(c, probeRequestFor(target, scrapeTimeout)); err != nil {
		return err
	}
	return readAnswer(c)
}

// readAnswer reads a probe's answer on c: a failed probe (the server is silent),
// the connection kept.
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
