package hostile

import (
	"fmt"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/registry"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

const (
	// holdScrape and holdTimeout are the probes that take every slot (and those
	// that wait for one): far longer than the test, since the test, not their
	// deadline, ends them (holdModule sets the module timeout to match).
	holdScrape  = "30.5"
	holdTimeout = 30 * time.Second
	holdModule  = "30s"
	// loadScrape gives the probes that can only wait 1 s (scrape timeout - the
	// 0.5 s offset).
	loadScrape  = "1.5"
	loadTimeout = time.Second
	// loadSlack is what a request may answer past its deadline when hundreds of
	// them end within a few tens of milliseconds under -race on two cores; the
	// scheduling lateness the test measures beside it is added (see TestLoad).
	loadSlack = time.Second
	// loadStep spreads the waiting wave's start (and so its deadlines), 10 requests
	// per millisecond, as scrapes spread over an interval, rather than waking them
	// all in the same instant.
	loadStep = 100 * time.Microsecond
	// loadBarrier bounds the waits for a wave to reach its state; a limiter that
	// works gets there in milliseconds.
	loadBarrier = 10 * time.Second
)

// gateServer is a fake A2S server that answers no one until the test opens it,
// then answers every request held and every later one with a fresh
// S2C_CHALLENGE, which ends an A2S probe at once with reason challenge. Probes
// of it hold their slot exactly as long as the test wants, whatever the host's
// speed: no race between a hold timeout and the other probes' deadlines.
type gateServer struct {
	*udpServer
	mu   sync.Mutex
	open bool
	held []netip.AddrPort
	n    uint32 // challenge numbers
}

func startGate(t testing.TB) *gateServer {
	g := &gateServer{}
	g.udpServer = startUDP(t, func(s *udpServer, _ []byte, from netip.AddrPort) {
		g.mu.Lock()
		defer g.mu.Unlock()
		if !g.open {
			g.held = append(g.held, from)
			return
		}
		g.n++
		s.send(from, a2sChallenge(g.n))
	})
	return g
}

// release opens the gate.
func (g *gateServer) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.open {
		return
	}
	g.open = true
	for _, from := range g.held {
		g.n++
		g.send(from, a2sChallenge(g.n))
	}
	g.held = nil
}

// lateness measures how late a ticker beside the test runs: the most a tick
// arrived after its period, from start until stop. It is the scheduling the host
// could not give (other jobs on the CPUs, or the test's own burst), added to the
// slack the requests' deadlines get.
type lateness struct {
	worst atomic.Int64
}

func (l *lateness) observe(prev, now time.Time, period time.Duration) {
	if d := int64(now.Sub(prev) - period); d > l.worst.Load() {
		l.worst.Store(d)
	}
}

func (l *lateness) get() time.Duration { return time.Duration(l.worst.Load()) }

// TestLoad pins the waiting semantics of a /probe handler capped at 500 in flight
// and 500 waiting, in the four waves the package doc describes (hold, wait,
// queue + refuse, the gates open): 1000 challenge, 1000 overloaded, exactly.
func TestLoad(t *testing.T) {
	testenv.LoadTest(t)
	limit, servers := 500, 50
	if testing.Short() {
		limit, servers = 100, 20
	}
	var protos []protocols.Protocol
	for _, p := range registry.All() {
		if udp(p) && !p.OffTarget { // an off-target probe (list) never asks the fake servers
			protos = append(protos, p)
		}
	}
	// One module per group of servers: each request has its own (module, target).
	gated := 3 * limit // hold, queue and refuse
	var yaml strings.Builder
	yaml.WriteString("modules:\n")
	// The same query of the same server is one query whichever module asks
	// (min-interval and single-flight go by what is sent): each hold module lists
	// a targets range of its own, which makes its query its own.
	for g := range (gated + servers - 1) / servers {
		fmt.Fprintf(&yaml, "  hold_%03d: {protocol: a2s, timeout: %s, targets: [127.0.0.0/8, 192.0.2.%d/32]}\n", g, holdModule, g)
	}
	for g := range (limit + servers - 1) / servers {
		fmt.Fprintf(&yaml, "  load_%03d: {protocol: %s}\n", g, protos[g%len(protos)].Name)
	}

	base := liveGoroutines()
	h := newHandler(t, yaml.String(), limit, limit)
	gates := make([]*gateServer, servers)
	silent := make([]*udpServer, servers)
	for i := range servers {
		gates[i], silent[i] = startGate(t), startUDP(t, nil)
	}
	openGates := func() {
		for _, g := range gates {
			g.release()
		}
	}
	t.Cleanup(openGates) // before the servers close: no probe waits out 30 s
	type job struct{ module, target string }
	gatedJobs := make([]job, gated)
	for i := range gatedJobs {
		m := fmt.Sprintf("hold_%03d", i/servers)
		gatedJobs[i] = job{m, targetFor(t, h, m, gates[i%servers].addr)}
	}
	waitJobs := make([]job, limit)
	for i := range waitJobs {
		m := fmt.Sprintf("load_%03d", i/servers)
		waitJobs[i] = job{m, targetFor(t, h, m, silent[i%servers].addr)}
	}

	inFlight := func() int64 { return int64(testutil.ToFloat64(h.Runner.Metrics.InFlight)) }
	// Sample the in-flight gauge while the probes run, and how late the sampling
	// ticker runs.
	var (
		peak atomic.Int64
		late lateness
	)
	stop, sampled := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampled)
		const period = time.Millisecond
		tk := time.NewTicker(period)
		defer tk.Stop()
		prev := time.Now()
		for {
			if v := inFlight(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case now := <-tk.C:
				late.observe(prev, now, period)
				prev = now
			}
		}
	}()

	type answer struct {
		reason  string
		elapsed time.Duration
	}
	run := func(j job, scrape string, at time.Time) answer {
		time.Sleep(time.Until(at))
		out := probeRaw(h, j.module, j.target, scrape)
		reason := "(none)"
		if _, rest, ok := strings.Cut(out.Body, `probe_failure_info{reason="`); ok {
			reason, _, _ = strings.Cut(rest, `"`)
		}
		if out.status != 200 {
			reason = fmt.Sprintf("HTTP %d", out.status)
		}
		return answer{reason, out.elapsed}
	}
	tally := func(as []answer) map[string]int {
		m := map[string]int{}
		for _, a := range as {
			m[a.reason]++
		}
		return m
	}
	began := time.Now()

	// hold: every slot taken.
	var holdWG sync.WaitGroup
	held := make([]answer, limit)
	for i := range limit {
		holdWG.Go(func() { held[i] = run(gatedJobs[i], holdScrape, began) })
	}
	testenv.WaitEvery(t, time.Millisecond, loadBarrier, "every slot taken", func() (bool, string) {
		return inFlight() >= int64(limit), fmt.Sprintf("%d of the first %d probes in flight", inFlight(), limit)
	})

	// wait: each waits its whole timeout for a slot, then fails as overloaded.
	var wg sync.WaitGroup
	waited := make([]answer, limit)
	second := time.Now()
	for i := range limit {
		wg.Go(func() { waited[i] = run(waitJobs[i], loadScrape, second.Add(time.Duration(i)*loadStep)) })
	}
	wg.Wait()
	waitLate := late.get()
	allowed := loadSlack + waitLate
	var worst time.Duration
	for i, a := range waited {
		worst = max(worst, a.elapsed-loadTimeout)
		switch {
		case a.reason != "overloaded":
			t.Errorf("waiting request %d: reason %q, want overloaded", i, a.reason)
		case a.elapsed < loadTimeout:
			t.Errorf("waiting request %d failed after %s, before its %s timeout: it did not wait for a slot", i, a.elapsed, loadTimeout)
		case a.elapsed > loadTimeout+allowed:
			t.Errorf("waiting request %d answered after %s, deadline %s + %s (%s slack, a ticker beside it ran %s late)", i, a.elapsed, loadTimeout, allowed, loadSlack, waitLate)
		}
	}

	// queue + refuse: half wait (the waiting cap), half are refused at once.
	queued := make([]answer, 2*limit)
	var before atomic.Int64 // answers while the slots are held
	released := make(chan struct{})
	refused := make(chan struct{}, 2*limit)
	third := time.Now()
	for i := range 2 * limit {
		wg.Go(func() {
			queued[i] = run(gatedJobs[limit+i], holdScrape, third)
			select {
			case <-released:
			default:
				before.Add(1)
				refused <- struct{}{}
			}
		})
	}
	barrier := time.NewTimer(loadBarrier)
wait:
	for n := range limit {
		select {
		case <-refused:
		case <-barrier.C:
			t.Errorf("only %d of the %d requests past the waiting cap failed within %s", n, limit, loadBarrier)
			break wait
		}
	}
	barrier.Stop()
	refusedIn := time.Since(third)
	close(released)
	openGates()
	holdWG.Wait()
	wg.Wait()
	took := time.Since(began)
	close(stop)
	<-sampled

	heldTally, waitedTally, queuedTally := tally(held), tally(waited), tally(queued)
	t.Logf("%d requests, cap %d in flight and %d waiting: hold %v; wait (%s timeout, started over %s) %v, at most %s past the timeout (allowed %s); queue + refuse %v, %d answered before the gates opened (%s after they started); all done in %s",
		4*limit, limit, limit, heldTally, loadTimeout, time.Duration(limit)*loadStep, waitedTally, worst.Round(time.Millisecond),
		allowed.Round(time.Millisecond), queuedTally, before.Load(), refusedIn.Round(time.Millisecond), took.Round(time.Millisecond))
	t.Logf("peak probes in flight %d (cap %d); sampling ticker at most %s late; peak RSS (VmHWM) %s, RSS now %s",
		peak.Load(), limit, late.get().Round(time.Millisecond), procStatus("VmHWM"), procStatus("VmRSS"))
	if p := peak.Load(); p > int64(limit) {
		t.Errorf("the in-flight gauge reached %d, over the cap of %d", p, limit)
	}
	if heldTally[challenge] != limit {
		t.Errorf("want the %d probes holding the slots to end with reason challenge once the gates opened: %v", limit, heldTally)
	}
	if n := before.Load(); n != int64(limit) {
		t.Errorf("%d of the %d requests sent while every slot was held and the waiting cap %d answered before the gates opened, want %d (refused at once)", n, 2*limit, limit, limit)
	}
	if queuedTally["overloaded"] != limit || queuedTally[challenge] != limit {
		t.Errorf("want %d overloaded (past the waiting cap) and %d challenge (waited, then got a slot): %v", limit, limit, queuedTally)
	}
	if v := testutil.ToFloat64(h.Runner.Metrics.Coalesced); v != 0 {
		t.Errorf("%v requests were coalesced: the load must reach %d distinct (module, target) keys", v, 4*limit)
	}

	waitNoProjectGoroutines(t)
	for i := range servers {
		gates[i].Close()
		silent[i].Close()
	}
	waitGoroutines(t, base)
}
