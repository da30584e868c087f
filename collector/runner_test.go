package collector

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func TestRunBadRequests(t *testing.T) {
	r := newTestRunner(t, &prototest.FakeQuerier{Result: &protocols.Result{}}, nil)
	tests := []struct {
		name, module, target, timeout string
		want                          string
	}{
		{"missing module", "", "127.0.0.1", "", "module parameter is missing: add module=NAME; 1 known (listed on /modules)"},
		{"unknown module", "nope", "127.0.0.1", "", `unknown module "nope"; 1 known (listed on /modules)`},
		{"missing target", "fake", "", "", "target parameter is missing"},
		{"bad port", "fake", "127.0.0.1:99999", "", "invalid port"},
		{"zero port", "fake", "host:0", "", "invalid port"},
		{"bad host", "fake", "a/b:27015", "", "invalid host"},
		{"NaN timeout", "fake", "127.0.0.1", "NaN", "invalid X-Prometheus-Scrape-Timeout-Seconds"},
		{"Inf timeout", "fake", "127.0.0.1", "+Inf", "invalid"},
		{"negative timeout", "fake", "127.0.0.1", "-3", "invalid"},
		{"text timeout", "fake", "127.0.0.1", "soon", "invalid"},
	}
	for _, tc := range tests {
		if code, msg := requestError(t, r, tc.module, tc.target, tc.timeout); code != http.StatusBadRequest || !strings.Contains(msg, tc.want) {
			t.Errorf("%s: %d %q, want 400 with %q", tc.name, code, msg, tc.want)
		}
	}
	if got := counterValue(t, r.Metrics.UnknownModule); got != 1 {
		t.Errorf("unknown module counter = %v, want 1", got)
	}
}

func TestRunTargetForms(t *testing.T) {
	tests := []struct{ target, want string }{
		{"127.0.0.1", "127.0.0.1:27015"},
		{"127.0.0.1:27016", "127.0.0.1:27016"},
		{"[::1]:27017", "[::1]:27017"},
		{"::1", "[::1]:27015"},
		{"localhost:27018", "127.0.0.1:27018"},
	}
	for _, tc := range tests {
		t.Run(tc.target, func(t *testing.T) {
			q := &prototest.FakeQuerier{Result: &protocols.Result{}}
			r := newTestRunner(t, q, nil)
			r.Resolver = staticResolver{"localhost": {netip.MustParseAddr("::1"), netip.MustParseAddr("127.0.0.1")}}
			o := run(t, r, "fake", tc.target, "")
			if !o.Success() {
				t.Fatalf("failed: %v", o.Err)
			}
			if q.Queried().String() != tc.want || o.Addr.String() != tc.want {
				t.Errorf("queried %s (outcome %s), want %s", q.Queried(), o.Addr, tc.want)
			}
			if o.Target != tc.target || o.ModuleName != "fake" || o.Timeout != 5*time.Second {
				t.Errorf("outcome names %q %q, timeout %s", o.ModuleName, o.Target, o.Timeout)
			}
		})
	}
}

// TestRunFailure: a failed query, and a name that does not resolve, fail the probe
// with their reasons.
func TestRunFailure(t *testing.T) {
	r := newTestRunner(t, &prototest.FakeQuerier{Err: fmt.Errorf("%w: challenge loop", wire.ErrChallenge)}, nil)
	if o := run(t, r, "fake", "127.0.0.1", ""); o.Success() || o.Reason() != "challenge" {
		t.Errorf("success %v, reason %q", o.Success(), o.Reason())
	}
	if got := counterValue(t, r.Metrics.Failures.WithLabelValues("fake", "challenge")); got != 1 {
		t.Errorf("failure counter = %v", got)
	}
	if got := counterValue(t, r.Metrics.Probes.WithLabelValues("fake", "challenge")); got != 1 {
		t.Errorf("probes counter = %v", got)
	}
	r.Resolver = staticResolver{}
	if o := run(t, r, "fake", "nonexistent.invalid", ""); o.Reason() != "dns" {
		t.Errorf("want a dns failure, got %v", o.Err)
	}
}

func TestTimeoutArithmetic(t *testing.T) {
	tests := []struct {
		header         string
		module, offset time.Duration
		want           time.Duration
	}{
		{"", 5 * time.Second, 500 * time.Millisecond, 5 * time.Second},
		{"10", 5 * time.Second, 500 * time.Millisecond, 5 * time.Second},
		{"3", 5 * time.Second, 500 * time.Millisecond, 2500 * time.Millisecond},
		{"0.4", 5 * time.Second, 500 * time.Millisecond, 200 * time.Millisecond},
		{"1.5", 5 * time.Second, 0, 1500 * time.Millisecond},
	}
	for _, tc := range tests {
		got, err := probeTimeoutFor(tc.header, tc.module, tc.offset)
		if err != nil || got != tc.want {
			t.Errorf("header %q module %s offset %s: got %s, %v; want %s", tc.header, tc.module, tc.offset, got, err, tc.want)
		}
	}
}

// TestTinyBudgetNotCached: a scrape that allows almost no time fails, and that
// failure must not answer the normal scrapes after it from the cache (issue 13).
func TestTinyBudgetNotCached(t *testing.T) {
	q := &prototest.FakeQuerier{Wait: true}
	r := newTestRunner(t, q, nil)
	r.MinInterval = time.Minute
	if code, msg := requestError(t, r, "fake", "127.0.0.1", "0.000000001"); code != 400 || !strings.Contains(msg, "less than the least") {
		t.Errorf("a 1 ns budget: %d %q, want 400", code, msg)
	}
	// 30 ms less the 500 ms offset leaves nothing: half the scrape's time.
	if o := run(t, r, "fake", "127.0.0.1", "0.03"); o.Reason() != "timeout" || o.Timeout != 15*time.Millisecond {
		t.Fatalf("short probe: %v, timeout %s", o.Err, o.Timeout)
	}
	run(t, r, "fake", "127.0.0.1", "0.8")
	if n := q.Calls(); n != 2 {
		t.Errorf("the longer scrape was answered from the short one's failure (%d queries)", n)
	}
	// A timeout with as much time as the next scrape has is reused.
	if o := run(t, r, "fake", "127.0.0.1", "0.8"); !o.Cached {
		t.Error("not marked as cached")
	}
	if n := q.Calls(); n != 2 {
		t.Errorf("an equal budget's failure was not served from the cache: %d queries", n)
	}
}

// TestFlightSweepsByTime: results are dropped once their ttl passes, with no
// traffic to trigger it. That all 5000 are kept before is only checked when the
// machine inserted them within the ttl (a busy one may not: the sweeper then
// rightly drops the first ones already).
func TestFlightSweepsByTime(t *testing.T) {
	var f flight
	ctx := context.Background()
	const ttl = 200 * time.Millisecond
	start := time.Now()
	for i := range 5000 {
		f.do(ctx, fmt.Sprint("refused-", i), ttl, time.Second, func() *Outcome {
			return &Outcome{Err: wire.ErrRefused}
		})
	}
	n := f.size()
	if took := time.Since(start); took < ttl && n != 5000 {
		t.Fatalf("%d kept after %s, want 5000", n, took)
	} else if took >= ttl {
		t.Logf("inserting took %s, over the ttl: not checking that all were kept", took)
	}
	waitFor(t, func() bool { return f.size() == 0 }) // no further traffic needed
}

func TestParseTarget(t *testing.T) {
	for _, tt := range []struct {
		target string
		host   string
		port   uint16
		bad    bool
	}{
		{target: "127.0.0.1:27015", host: "127.0.0.1", port: 27015},
		{target: "127.0.0.1", host: "127.0.0.1"},
		{target: "::1", host: "::1"},
		{target: "[::1]:27015", host: "::1", port: 27015},
		{target: "[2001:db8::1]", bad: true},
		{target: "::ffff:1.2.3.4", host: "::ffff:1.2.3.4"},
		{target: "[::ffff:1.2.3.4]:7", host: "::ffff:1.2.3.4", port: 7},
		{target: "play.example.com:25565", host: "play.example.com", port: 25565},
		{target: "play.example.com", host: "play.example.com"},
		{target: "127.0.0.1:0", bad: true},
		{target: "127.0.0.1:65536", bad: true},
		{target: "127.0.0.1:x", bad: true},
		{target: "host name:1", bad: true},
		{target: "", bad: true},
		{target: "a:b:c", bad: true},
	} {
		host, port, err := parseTarget(tt.target)
		if (err != nil) != tt.bad || host != tt.host || port != tt.port {
			t.Errorf("parseTarget(%q) = %q, %d, %v; want %q, %d, bad=%v", tt.target, host, port, err, tt.host, tt.port, tt.bad)
		}
	}
}
