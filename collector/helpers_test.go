package collector

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// newTestRunner runs the modules mods (nil: one module "fake") with q as the
// querier of each.
func newTestRunner(t *testing.T, q protocols.Querier, mods map[string]*config.Module) *Runner {
	t.Helper()
	if mods == nil {
		mods = map[string]*config.Module{"fake": {Protocol: "fake", Players: true}}
	}
	for _, m := range mods {
		if q != nil {
			compile(t, m, fakeProtocol(q))
		}
	}
	return runnerOf(&config.Config{Modules: mods})
}

// runnerOf runs the modules of cfg.
func runnerOf(cfg *config.Config) *Runner {
	sc := config.NewSafeConfig("")
	sc.Set(cfg)
	return &Runner{
		Config:        sc,
		Logger:        slog.New(slog.NewTextHandler(io.Discard, nil)),
		Metrics:       NewMetrics(prometheus.NewRegistry()),
		TimeoutOffset: 500 * time.Millisecond,
	}
}

// fakeProtocol is protocol "fake" (default port 27015) querying with q.
func fakeProtocol(q protocols.Querier) protocols.Protocol {
	return protocols.Protocol{Name: "fake", DefaultPort: 27015, New: func(protocols.Settings) (protocols.Querier, error) { return q, nil }}
}

func compile(t *testing.T, m *config.Module, p protocols.Protocol) {
	t.Helper()
	if err := m.Compile(p); err != nil {
		t.Fatal(err)
	}
}

// run probes target with module, scrapeTimeout as the scraper's header ("": none),
// and fails t on a request error.
func run(t *testing.T, r *Runner, module, target, scrapeTimeout string) *Outcome {
	t.Helper()
	o, err := r.Run(context.Background(), module, target, scrapeTimeout)
	if err != nil {
		t.Fatalf("%s %s: %v", module, target, err)
	}
	return o
}

// requestError returns the status and message of a request Run refuses.
func requestError(t *testing.T, r *Runner, module, target, scrapeTimeout string) (int, string) {
	t.Helper()
	o, err := r.Run(context.Background(), module, target, scrapeTimeout)
	var re *RequestError
	if !errors.As(err, &re) {
		t.Fatalf("%s %s: want a request error, got %v (outcome %+v)", module, target, err, o)
	}
	return re.Status, re.Message
}

// logged reports whether the probe's trace holds a log line containing s.
func logged(o *Outcome, s string) bool {
	for _, e := range o.Trace.Entries {
		if strings.Contains(e.Msg, s) {
			return true
		}
	}
	return false
}

type staticResolver map[string][]netip.Addr

func (s staticResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := s[host]; ok {
		return a, nil
	}
	return nil, errors.New("no such host")
}

func counterValue(t *testing.T, c prometheus.Collector) float64 {
	t.Helper()
	return testutil.ToFloat64(c)
}

// waitFor waits for cond: up to 10 s of the time the machine let the test run
// (a busy machine's stalls extend it: prototest.SchedulingLag).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	lag := prototest.SchedulingLag(t)
	for start := time.Now(); !cond(); {
		if time.Since(start) > 10*time.Second+lag() {
			t.Fatal("condition never became true")
		}
		time.Sleep(2 * time.Millisecond)
	}
}
