package hostile

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/registry"
)

const (
	// holdScrape gives the first wave of probes, which take every slot, a 3 s
	// timeout; loadScrape gives the others 1 s (scrape timeout - the 0.5 s offset).
	holdScrape  = "3.5"
	holdTimeout = 3 * time.Second
	loadScrape  = "1.5"
	loadTimeout = time.Second
	// loadSlack is the scheduling slack a request gets past its deadline when
	// thousands of them end within a few hundred milliseconds under -race on two
	// cores. It is scaled up when other jobs already saturate the host (see
	// hostSlack).
	loadSlack = time.Second
	// loadStep spreads the second wave's start (and so its deadlines), 10 requests
	// per millisecond, as scrapes spread over an interval, rather than waking them
	// all in the same instant.
	loadStep = 100 * time.Microsecond
)

// hostSlack scales d by how oversubscribed the host already is (1-minute load
// average over CPUs, at least 1): other jobs saturating the CPUs delay every
// wake-up, and the test must not fail for their sake.
func hostSlack(d time.Duration) (time.Duration, float64) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return d, 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return d, 0
	}
	load, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return d, 0
	}
	return time.Duration(float64(d) * max(1, load/float64(runtime.NumCPU()))), load
}

// TestLoad fires thousands of concurrent probes at silent UDP servers with a cap on
// probes in flight. A first wave of probes with a 3 s timeout takes every slot;
// once they all run, a second wave with a 1 s timeout can only wait for a slot
// and fail as overloaded by its deadline. Every request must answer by its
// deadline (+ loadSlack), the in-flight gauge must never pass the cap, single-flight
// must merge nothing (every request has its own module and target), and the
// goroutines must return to their baseline.
func TestLoad(t *testing.T) {
	requests, servers, limit := 2000, 50, 500
	if testing.Short() {
		requests, servers, limit = 400, 20, 100
	}
	var protos []protocols.Protocol
	for _, p := range registry.All() {
		if udp(p) {
			protos = append(protos, p)
		}
	}
	// One module per group of servers: each request has its own (module, target)
	// key, so single-flight merges none of them.
	groups := (requests + servers - 1) / servers
	var yaml strings.Builder
	yaml.WriteString("modules:\n")
	for g := range groups {
		fmt.Fprintf(&yaml, "  load_%03d: {protocol: %s}\n", g, protos[g%len(protos)].Name)
	}

	slackNow, load := hostSlack(loadSlack)
	base := runtime.NumGoroutine()
	h := newHandler(t, yaml.String(), limit)
	silent := make([]*udpServer, servers)
	for i := range silent {
		silent[i] = startUDP(t, nil)
	}
	type job struct {
		module, target, scrape string
		timeout                time.Duration
	}
	jobs := make([]job, requests)
	for i := range jobs {
		m := fmt.Sprintf("load_%03d", i/servers)
		jobs[i] = job{m, targetFor(t, h, m, silent[i%servers].addr), loadScrape, loadTimeout}
		if i < limit {
			jobs[i].scrape, jobs[i].timeout = holdScrape, holdTimeout
		}
	}

	// Sample the in-flight gauge while the probes run.
	inFlight := func() int64 {
		var m dto.Metric
		h.Metrics.InFlight.Write(&m)
		return int64(m.GetGauge().GetValue())
	}
	var peak atomic.Int64
	stop, sampled := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampled)
		tk := time.NewTicker(time.Millisecond)
		defer tk.Stop()
		for {
			if v := inFlight(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-tk.C:
			}
		}
	}()

	var (
		mu      sync.Mutex
		reasons = map[string]int{}
		late    time.Duration // the most a request answered past its timeout
		wg      sync.WaitGroup
	)
	run := func(j job, at time.Time) {
		defer wg.Done()
		time.Sleep(time.Until(at))
		out := probeRaw(h, j.module, j.target, j.scrape)
		reason := "(none)"
		if _, rest, ok := strings.Cut(out.body, `probe_failure_info{reason="`); ok {
			reason, _, _ = strings.Cut(rest, `"`)
		}
		if out.status != 200 {
			reason = fmt.Sprintf("HTTP %d", out.status)
		}
		mu.Lock()
		reasons[reason]++
		late = max(late, out.elapsed-j.timeout)
		mu.Unlock()
		if out.elapsed > j.timeout+slackNow {
			t.Errorf("%s %s answered after %s, deadline %s + %s", j.module, j.target, out.elapsed, j.timeout, slackNow)
		}
	}
	began := time.Now()
	for _, j := range jobs[:limit] {
		wg.Add(1)
		go run(j, began)
	}
	// The first wave holds every slot before the second starts.
	for deadline := time.Now().Add(holdTimeout / 2); inFlight() < int64(limit); {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of the first %d probes are in flight after %s", inFlight(), limit, holdTimeout/2)
		}
		time.Sleep(time.Millisecond)
	}
	second := time.Now()
	for i, j := range jobs[limit:] {
		wg.Add(1)
		go run(j, second.Add(time.Duration(i)*loadStep))
	}
	wg.Wait()
	took := time.Since(began)
	close(stop)
	<-sampled

	t.Logf("%d requests (%d holding the cap for %s, then %d with %s started over %s): %v; at most %s past a timeout (allowed %s, host load %.1f); all done in %s",
		requests, limit, holdTimeout, requests-limit, loadTimeout, time.Duration(requests-limit)*loadStep,
		reasons, late.Round(time.Millisecond), slackNow, load, took.Round(time.Millisecond))
	t.Logf("peak probes in flight %d (cap %d); peak RSS (VmHWM) %s, RSS now %s", peak.Load(), limit, procStatus("VmHWM"), procStatus("VmRSS"))
	if p := peak.Load(); p > int64(limit) {
		t.Errorf("the in-flight gauge reached %d, over the cap of %d", p, limit)
	}
	if reasons[timeout] != limit || reasons["overloaded"] != requests-limit {
		t.Errorf("want %d timeouts (the first wave) and %d overloaded (the second): %v", limit, requests-limit, reasons)
	}
	var coalesced dto.Metric
	h.Metrics.Coalesced.Write(&coalesced)
	if v := coalesced.GetCounter().GetValue(); v != 0 {
		t.Errorf("%v requests were coalesced: the load must reach %d distinct (module, target) keys", v, requests)
	}

	waitNoProjectGoroutines(t)
	for _, s := range silent {
		s.Close()
	}
	waitGoroutines(t, base)
}
