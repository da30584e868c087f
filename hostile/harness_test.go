package hostile

import (
	"bufio"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	probepkg "github.com/gameserver-exporter/gameserver_exporter/collector"
	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/web"
)

const (
	// scrapeTimeout is the X-Prometheus-Scrape-Timeout-Seconds of every probe; with
	// timeoutOffset it leaves probeTimeout for the query.
	scrapeTimeout = "1.0"
	timeoutOffset = 500 * time.Millisecond
	probeTimeout  = 500 * time.Millisecond
	// slack is the one timing bound the project promises: a probe answers within its
	// timeout plus this.
	slack = 100 * time.Millisecond
	// heapBound bounds the heap growth one probe may leave behind (after GC, with
	// the History still holding it).
	heapBound = 32 << 20
	// allocBound bounds what one probe allocates, garbage included (the fake
	// servers' allocations meanwhile count too).
	allocBound = 64 << 20
	// maxReceived bounds the datagrams or segments one query may read: the trace
	// keeps 256 packets, and a probe that reads past that reads without a bound
	// (but see queriesPerProbe).
	maxReceived = 256
	// settle bounds the wait for goroutines to wind down once a probe returned or a
	// fake server closed.
	settle = 3 * time.Second

	modulePath = "github.com/gameserver-exporter/gameserver_exporter"
)

// newHandler builds the /probe handler as main does: built-in modules (plus those
// of extra, YAML), fresh self-metrics, a History, no result caching, and the caps
// on probes in flight and waiting for a slot (0: no cap, no waiting).
func newHandler(t testing.TB, extra string, maxConcurrent, maxWaiting int) *web.ProbeHandler {
	t.Helper()
	cfg, err := config.Parse([]byte(extra))
	if err != nil {
		t.Fatal(err)
	}
	sc := config.NewSafeConfig("")
	sc.Set(cfg)
	return &web.ProbeHandler{
		Runner: &probepkg.Runner{
			Config:        sc,
			Logger:        slog.New(slog.DiscardHandler),
			Metrics:       probepkg.NewMetrics(prometheus.NewRegistry()),
			TimeoutOffset: timeoutOffset,
			MaxConcurrent: maxConcurrent,
			MaxWaiting:    maxWaiting,
			MinInterval:   0,
		},
		History: web.NewHistory(16),
	}
}

// targetFor is the /probe target that makes module query addr: modules that do
// not set port offsets add their protocol's (ASE: +123) to the target's port.
func targetFor(t testing.TB, h *web.ProbeHandler, module string, addr netip.AddrPort) string {
	t.Helper()
	m, ok := h.Runner.Config.Get().Modules[module]
	if !ok {
		t.Fatalf("no module %q", module)
	}
	off := m.Descriptor().PortOffset
	p := int(addr.Port()) - off
	if p <= 0 || p > 65535 {
		t.Fatalf("port %d cannot be reached with offset %d", addr.Port(), off)
	}
	return netip.AddrPortFrom(addr.Addr(), uint16(p)).String()
}

// otherPort is the target port of a module naming the port its querier connects
// to (dialect.module): not the fake server's, so a querier that ignored the
// option would miss it.
const otherPort = 9987

// moduleFor returns the extra YAML of the module probing p against a fake server
// on addr (none, or p's dialect.module) and the target to probe.
func moduleFor(p protocols.Protocol, addr netip.AddrPort) (yaml string, target func(t testing.TB, h *web.ProbeHandler) string) {
	target = func(t testing.TB, h *web.ProbeHandler) string { return targetFor(t, h, p.Name, addr) }
	m := dialects[p.Name].module
	if m == "" {
		return "", target
	}
	if strings.Contains(m, "%d") {
		m = fmt.Sprintf(m, addr.Port())
		target = func(testing.TB, *web.ProbeHandler) string { return netip.AddrPortFrom(addr.Addr(), otherPort).String() }
	}
	return fmt.Sprintf("modules:\n  %s: %s\n", p.Name, m), target
}

// queriesPerProbe is, for protocols whose probe may run several queries that each
// read up to their own caps, how many. GoldSrc tries four info queries in turn,
// each given half the time left, and takes a query whose split reply is still
// incomplete at the end of its share for silence: a server streaming duplicate
// fragments slower than the caps are reached (or a starved host reading them
// slowly) makes it read up to the caps four times. Hytale tries its three
// flavours (TCP line, UDP, HTTP) in turn, each reading up to its own caps.
var queriesPerProbe = map[string]int{"goldsrc": 4, "hytale": 3}

// receivedBound is the most datagrams or segments a probe of p may read.
func receivedBound(p protocols.Protocol) int {
	return maxReceived * max(queriesPerProbe[p.Name], 1)
}

// probeOut is what one /probe request returned.
type probeOut struct {
	testenv.Probed // the answer; Families set by probe only

	status  int
	elapsed time.Duration // the ServeHTTP call only
	parse   error
}

// success is probe_success, -1 when absent.
func (o probeOut) success() float64 {
	if v, ok := o.Value("probe_success"); ok {
		return v
	}
	return -1
}

// phase is gameserver_query_phase_success for phase, -1 when absent.
func (o probeOut) phase(name string) float64 {
	if v, ok := o.Series("gameserver_query_phase_success", "phase")[name]; ok {
		return v
	}
	return -1
}

// reason is the failure reason, "" on success or when absent.
func (o probeOut) reason() string { return o.Labels("probe_failure_info")["reason"] }

// probe runs one /probe request through the handler, times the call and parses
// the exposition.
func probe(h http.Handler, module, target, scrape string) probeOut {
	o := probeRaw(h, module, target, scrape)
	if o.status == http.StatusOK {
		// The exposition must parse: peer strings must not break it.
		o.Probed, o.parse = testenv.ParseProbed(o.Body)
	}
	return o
}

// probeRaw runs one /probe request and times the call, without parsing the body.
func probeRaw(h http.Handler, module, target, scrape string) probeOut {
	req := httptest.NewRequest(http.MethodGet, "/probe?module="+url.QueryEscape(module)+"&target="+url.QueryEscape(target), nil)
	req.Header.Set("X-Prometheus-Scrape-Timeout-Seconds", scrape)
	req.RemoteAddr = "127.0.0.1:40000"
	req.Host = "localhost:10115" // naming the exporter as the operator does (LocalCaller)
	rec := httptest.NewRecorder()
	start := time.Now()
	h.ServeHTTP(rec, req)
	return probeOut{status: rec.Code, elapsed: time.Since(start), Probed: testenv.Probed{Body: rec.Body.String()}}
}

// canary arms a timer for d; the returned func reports how late after d its
// goroutine ran (0 when called before d): how late the host ran a woken goroutine.
func canary(d time.Duration) func() time.Duration {
	start := time.Now()
	fired := make(chan time.Duration, 1)
	tm := time.AfterFunc(d, func() { fired <- max(time.Since(start)-d, 0) })
	return func() time.Duration {
		if tm.Stop() {
			return 0
		}
		return <-fired
	}
}

var (
	receivedRe = regexp.MustCompile(`(?m)^#\d+ received `)
	droppedRe  = regexp.MustCompile(`(?m)^\((\d+) more packets not kept\)$`)
)

// lastProbeDebug returns the debug page of the newest probe in h's History.
func lastProbeDebug(t testing.TB, h *web.ProbeHandler) string {
	t.Helper()
	list := h.History.List()
	if len(list) == 0 {
		t.Fatal("the probe is not in the History")
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/logs?id="+strconv.FormatInt(list[0].ID, 10), nil)
	req.RemoteAddr = "127.0.0.1:40000" // debug output is for loopback callers
	req.Host = "localhost:10115"       // naming the exporter as the operator does (LocalCaller)
	h.History.DebugHandler(false).ServeHTTP(rec, req)
	return rec.Body.String()
}

// received counts the packets a probe read, from its debug transcript; overflow
// is set when the trace dropped packets (so the count is a lower bound).
func received(debug string) (n int, overflow bool) {
	n = len(receivedRe.FindAllStringIndex(debug, -1))
	if m := droppedRe.FindStringSubmatch(debug); m != nil {
		d, _ := strconv.Atoi(m[1])
		return n + d, true
	}
	return n, false
}

// sharedReader marks the reader of one of wire's shared UDP sockets. Those outlive
// probes by design (a socket serves many); a retired one ends with its last query,
// so once every probe is over at most maxSharedReaders (one per address family) remain.
const (
	sharedReader     = modulePath + "/protocols/wire.(*sharedSocket).readLoop"
	maxSharedReaders = 2
)

// stacks returns the stack of every goroutine.
func stacks() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Split(string(buf[:n]), "\n\n")
		}
		buf = make([]byte, 2*len(buf))
	}
}

// projectGoroutines returns the stacks of goroutines running the exporter's code
// (collector, web, config, protocols), the fake servers and tests of this
// package aside, and the shared sockets' readers when no more than maxSharedReaders.
func projectGoroutines() []string {
	var out, readers []string
	for _, g := range stacks() {
		switch {
		case strings.Contains(g, modulePath+"/hostile.") || strings.Contains(g, modulePath+"/protocols/prototest."):
		case strings.Contains(g, sharedReader):
			readers = append(readers, g)
		case strings.Contains(g, modulePath+"/"):
			out = append(out, g)
		}
	}
	if len(readers) > maxSharedReaders {
		out = append(out, readers...)
	}
	return out
}

// liveGoroutines is runtime.NumGoroutine without the shared sockets' readers (at
// most maxSharedReaders of them, which stay between probes).
func liveGoroutines() int {
	n, readers := 0, 0
	for _, g := range stacks() {
		if strings.Contains(g, sharedReader) {
			readers++
		} else {
			n++
		}
	}
	return n + max(readers-maxSharedReaders, 0)
}

// waitNoProjectGoroutines fails t if goroutines of the exporter outlive the probe.
func waitNoProjectGoroutines(t testing.TB) {
	t.Helper()
	testenv.WaitEvery(t, 10*time.Millisecond, settle, "the exporter's goroutines to end", func() (bool, string) {
		left := projectGoroutines()
		return len(left) == 0, fmt.Sprintf("%d goroutine(s) outlived the probe:\n%s", len(left), strings.Join(left, "\n\n"))
	})
}

// waitGoroutines fails t if more than base goroutines are still running once
// everything the test started was closed.
func waitGoroutines(t testing.TB, base int) {
	t.Helper()
	testenv.WaitEvery(t, 10*time.Millisecond, settle, "the goroutines to end", func() (bool, string) {
		if n := liveGoroutines(); n > base {
			return false, fmt.Sprintf("%d goroutines after the fake server closed, %d before it started:\n%s", n, base, strings.Join(stacks(), "\n\n"))
		}
		return true, ""
	})
}

// totalAlloc returns the bytes allocated since the process started: its growth over
// a probe bounds what the probe allocated, garbage included (a decompression bomb
// inflated into a discarded buffer leaves no live heap behind, but shows here).
func totalAlloc() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.TotalAlloc
}

// procStatus reads a field of /proc/self/status (VmHWM, VmRSS), "" when unavailable.
func procStatus(field string) string {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// runDelays reads, per thread of this process, the time it spent runnable but
// waiting for a CPU (the second field of /proc/self/task/TID/schedstat, in ns).
// nil where the kernel does not offer it (not Linux, no CONFIG_SCHED_INFO).
func runDelays() map[string]int64 {
	paths, _ := filepath.Glob("/proc/self/task/*/schedstat")
	if len(paths) == 0 {
		return nil
	}
	out := make(map[string]int64, len(paths))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // the thread exited
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			continue
		}
		if ns, err := strconv.ParseInt(f[1], 10, 64); err == nil {
			out[filepath.Base(filepath.Dir(p))] = ns
		}
	}
	return out
}

// starvation measures the run-queue wait of this process's threads, summed, from
// now until the returned func is called (see the package doc): what a CPU-bound
// probe loses to other jobs, which a timer armed beside it does not show.
func starvation() func() time.Duration {
	before := runDelays()
	return func() time.Duration {
		var d int64
		for tid, ns := range runDelays() {
			d += ns - before[tid] // a thread born meanwhile counts from 0
		}
		return time.Duration(max(d, 0))
	}
}
