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
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	probepkg "github.com/gameserver-exporter/gameserver_exporter/collector"
	"github.com/gameserver-exporter/gameserver_exporter/config"
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

// queryPortOption holds, for protocols whose module rather than the target names
// the port the querier connects to, the module's YAML block setting that port.
var queryPortOption = map[string]string{
	// TeamSpeak 3: the target names the voice port, the querier connects to the
	// same address on the module's query_port.
	"teamspeak3": "teamspeak3: {query_port: %d}",
	"teamspeak2": "teamspeak2: {query_port: %d}",
}

// moduleBlock holds, for protocols whose built-in module cannot query the fake
// (Soldat's admin connection needs a password), the module's YAML block; the
// target stays the fake's address, which a module with a credential lists.
var moduleBlock = map[string]string{
	"soldat": "soldat: {password: hostile}, targets: [127.0.0.1]",
}

// otherPort is the target port given to those protocols: not the fake server's,
// so a querier that ignored its query-port option would miss it.
const otherPort = 9987

// moduleFor returns the extra YAML of the module probing p against a fake server
// on addr (a module named after p, overriding the built-in one when p needs its
// port option set) and the target to probe.
func moduleFor(p protocols.Protocol, addr netip.AddrPort) (yaml string, target func(t testing.TB, h *web.ProbeHandler) string) {
	if blk, ok := moduleBlock[p.Name]; ok {
		yaml = fmt.Sprintf("modules:\n  %s: {protocol: %s, %s}\n", p.Name, p.Name, blk)
		return yaml, func(t testing.TB, h *web.ProbeHandler) string { return targetFor(t, h, p.Name, addr) }
	}
	opt, ok := queryPortOption[p.Name]
	if !ok {
		return "", func(t testing.TB, h *web.ProbeHandler) string { return targetFor(t, h, p.Name, addr) }
	}
	yaml = fmt.Sprintf("modules:\n  %s: {protocol: %s, %s}\n", p.Name, p.Name, fmt.Sprintf(opt, addr.Port()))
	return yaml, func(testing.TB, *web.ProbeHandler) string {
		return netip.AddrPortFrom(addr.Addr(), otherPort).String()
	}
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
	status  int
	body    string
	elapsed time.Duration // the ServeHTTP call only
	fams    map[string]*dto.MetricFamily
	parse   error
}

func (o probeOut) success() float64 { return o.gauge("probe_success") }

func (o probeOut) gauge(name string) float64 {
	mf := o.fams[name]
	if mf == nil || len(mf.Metric) == 0 {
		return -1
	}
	return mf.Metric[0].GetGauge().GetValue()
}

// phase is gameserver_query_phase_success for phase, -1 when absent.
func (o probeOut) phase(name string) float64 {
	mf := o.fams["gameserver_query_phase_success"]
	if mf == nil {
		return -1
	}
	for _, m := range mf.Metric {
		for _, lp := range m.Label {
			if lp.GetName() == "phase" && lp.GetValue() == name {
				return m.GetGauge().GetValue()
			}
		}
	}
	return -1
}

// reason is the failure reason, "" on success or when absent.
func (o probeOut) reason() string {
	return o.label("probe_failure_info", "reason")
}

func (o probeOut) label(family, name string) string {
	mf := o.fams[family]
	if mf == nil || len(mf.Metric) == 0 {
		return ""
	}
	for _, lp := range mf.Metric[0].Label {
		if lp.GetName() == name {
			return lp.GetValue()
		}
	}
	return ""
}

// probe runs one /probe request through the handler, times the call and parses
// the exposition.
func probe(h http.Handler, module, target, scrape string) probeOut {
	o := probeRaw(h, module, target, scrape)
	if o.status == http.StatusOK {
		// The exposition must parse: peer strings must not break it.
		p := expfmt.NewTextParser(model.UTF8Validation)
		o.fams, o.parse = p.TextToMetricFamilies(strings.NewReader(o.body))
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
	return probeOut{status: rec.Code, body: rec.Body.String(), elapsed: time.Since(start)}
}

// canary measures how late the Go scheduler runs a goroutine woken by a timer. It
// arms one for d; the returned func reports how long after d the timer's goroutine
// ran (0 when called before d: nothing was late). A probe that answers late on a
// starved host (other jobs saturating the CPUs) is late by about as much; one that
// overshoots by more than that plus the slack is late by its own fault.
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

// within polls cond until it holds or settle has passed, and says whether it held.
func within(cond func() bool) bool {
	for deadline := time.Now().Add(settle); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// waitNoProjectGoroutines fails t if goroutines of the exporter outlive the probe.
func waitNoProjectGoroutines(t testing.TB) {
	t.Helper()
	var left []string
	if !within(func() bool { left = projectGoroutines(); return len(left) == 0 }) {
		t.Errorf("%d goroutine(s) of the exporter outlived the probe:\n%s", len(left), strings.Join(left, "\n\n"))
	}
}

// waitGoroutines fails t if more than base goroutines are still running once
// everything the test started was closed.
func waitGoroutines(t testing.TB, base int) {
	t.Helper()
	n := 0
	if !within(func() bool { n = liveGoroutines(); return n <= base }) {
		t.Errorf("%d goroutines after the fake server closed, %d before it started:\n%s", n, base, strings.Join(stacks(), "\n\n"))
	}
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

// starvation measures how long the kernel kept this process's threads off the
// CPUs while they were ready to run, from now until the returned func is called:
// the sum over threads of their run-queue wait. Other jobs saturating the host
// (not this process) cause it; a CPU-bound probe (a decompression bomb) is late by
// about as much, which a timer armed beside it does not show (a waking timer is
// favoured by the scheduler over a thread that has used its share). The sum is an
// upper bound of what one probe lost (several threads may wait at once), about 0
// on an idle host, so a probe late by its own fault still fails there.
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
