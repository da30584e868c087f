package collector

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil/promlint"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// fakeQuerier answers every query with a fixed result or error, recording what it was asked.
type fakeQuerier struct {
	res   *protocols.Result
	err   error
	mu    sync.Mutex
	addr  netip.AddrPort
	wait  bool          // block until the context ends
	delay time.Duration // answer after this long
	calls atomic.Int32
}

func (f *fakeQuerier) Query(ctx context.Context, addr netip.AddrPort, tr *wire.Trace) (*protocols.Result, error) {
	f.calls.Add(1)
	f.mu.Lock()
	f.addr = addr
	f.mu.Unlock()
	if f.delay > 0 {
		time.Sleep(f.delay)
	}
	p := tr.Begin("info")
	tr.Sent([]byte("\xff\xff\xff\xffhello"))
	if f.wait {
		<-ctx.Done()
		tr.End(p, ctx.Err())
		return nil, fmt.Errorf("%w: waited out", protocols.ErrTimeout)
	}
	tr.Received([]byte("\xff\xff\xff\xffworld"))
	tr.End(p, f.err)
	return f.res, f.err
}

func newTestHandler(t *testing.T, q *fakeQuerier, mods map[string]*config.Module) *ProbeHandler {
	t.Helper()
	if mods == nil {
		mods = map[string]*config.Module{"fake": {Protocol: "fake", Players: true}}
	}
	for _, m := range mods {
		if q == nil {
			continue
		}
		p := protocols.Protocol{Name: "fake", DefaultPort: 27015, New: func(protocols.Settings) (protocols.Querier, error) { return q, nil }}
		if err := m.Compile(p); err != nil {
			t.Fatal(err)
		}
	}
	sc := config.NewSafeConfig("")
	sc.Set(&config.Config{Modules: mods})
	return &ProbeHandler{
		Config:        sc,
		Logger:        promslogDiscard(),
		Metrics:       NewSelfMetrics(prometheus.NewRegistry()),
		History:       NewHistory(10),
		TimeoutOffset: 500 * time.Millisecond,
	}
}

func get(t *testing.T, h http.Handler, url string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest("GET", url, nil)
	req.RemoteAddr = "127.0.0.1:40000" // the operator on the host; remote callers: TestDebugAccess
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Result(), string(body)
}

func TestProbeBadRequests(t *testing.T) {
	h := newTestHandler(t, &fakeQuerier{res: &protocols.Result{}}, nil)
	tests := []struct {
		name, url string
		hdr       map[string]string
		want      string
	}{
		{"missing module", "/probe?target=127.0.0.1", nil, "module parameter is missing; known modules: fake"},
		{"unknown module", "/probe?target=127.0.0.1&module=nope", nil, `unknown module "nope"; known modules: fake`},
		{"missing target", "/probe?module=fake", nil, "target parameter is missing"},
		{"bad port", "/probe?module=fake&target=127.0.0.1:99999", nil, "invalid port"},
		{"zero port", "/probe?module=fake&target=host:0", nil, "invalid port"},
		{"bad host", "/probe?module=fake&target=a/b:27015", nil, "invalid host"},
		{"NaN timeout", "/probe?module=fake&target=127.0.0.1", map[string]string{"X-Prometheus-Scrape-Timeout-Seconds": "NaN"}, "invalid X-Prometheus-Scrape-Timeout-Seconds"},
		{"Inf timeout", "/probe?module=fake&target=127.0.0.1", map[string]string{"X-Prometheus-Scrape-Timeout-Seconds": "+Inf"}, "invalid"},
		{"negative timeout", "/probe?module=fake&target=127.0.0.1", map[string]string{"X-Prometheus-Scrape-Timeout-Seconds": "-3"}, "invalid"},
		{"text timeout", "/probe?module=fake&target=127.0.0.1", map[string]string{"X-Prometheus-Scrape-Timeout-Seconds": "soon"}, "invalid"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := get(t, h, tc.url, tc.hdr)
			if resp.StatusCode != http.StatusBadRequest {
				t.Fatalf("status %d, want 400 (body %q)", resp.StatusCode, body)
			}
			if !strings.Contains(body, tc.want) {
				t.Fatalf("body %q does not contain %q", body, tc.want)
			}
		})
	}
	if got := counterValue(t, h.Metrics.UnknownModule); got != 1 {
		t.Errorf("unknown module counter = %v, want 1", got)
	}
}

func TestProbeTargetForms(t *testing.T) {
	tests := []struct{ target, want string }{
		{"127.0.0.1", "127.0.0.1:27015"},
		{"127.0.0.1:27016", "127.0.0.1:27016"},
		{"[::1]:27017", "[::1]:27017"},
		{"::1", "[::1]:27015"},
		{"localhost:27018", "127.0.0.1:27018"},
	}
	for _, tc := range tests {
		t.Run(tc.target, func(t *testing.T) {
			q := &fakeQuerier{res: &protocols.Result{}}
			h := newTestHandler(t, q, nil)
			h.Resolver = staticResolver{"localhost": {netip.MustParseAddr("::1"), netip.MustParseAddr("127.0.0.1")}}
			resp, body := get(t, h, "/probe?module=fake&target="+tc.target, nil)
			if resp.StatusCode != 200 || !strings.Contains(body, "probe_success 1") {
				t.Fatalf("status %d body %q", resp.StatusCode, body)
			}
			if q.addr.String() != tc.want {
				t.Errorf("queried %s, want %s", q.addr, tc.want)
			}
		})
	}
}

type staticResolver map[string][]netip.Addr

func (s staticResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := s[host]; ok {
		return a, nil
	}
	return nil, errors.New("no such host")
}

func TestProbeSuccessExposition(t *testing.T) {
	q := &fakeQuerier{res: &protocols.Result{
		Name: "My \x1bServer\xff", Map: "de_dust2", Game: "Counter-Strike", Version: "1.0",
		Players: protocols.Known(3), MaxPlayers: protocols.Known(16), Bots: protocols.Known(1),
		Password: protocols.FlagFalse,
		PlayerList: []protocols.Player{
			{Name: "bob", Score: protocols.Known(5), Duration: 12.5, DurationKnown: true},
			{Name: "bob", Score: protocols.Known(7)},
			{Name: "", Score: protocols.Known(1)},
		},
		PhaseErrors: []protocols.PhaseError{{Phase: "rules", Err: protocols.ErrTimeout}},
	}}
	h := newTestHandler(t, q, nil)
	resp, body := get(t, h, "/probe?module=fake&target=127.0.0.1", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	for _, want := range []string{
		"probe_success 1\n",
		"gameserver_players 3\n",
		"gameserver_players_max 16\n",
		"gameserver_bots 1\n",
		"gameserver_password_required 0\n",
		`gameserver_info{game="Counter-Strike",map="de_dust2",name="My Server` + "\uFFFD" + `",protocol="fake",version="1.0"} 1`,
		`gameserver_player_score{player="bob"} 5`,
		`gameserver_player_score{player="bob (2)"} 7`,
		`gameserver_player_score{player="(unnamed)"} 1`,
		`gameserver_player_connected_seconds{player="bob"} 12.5`,
		`gameserver_query_phase_success{phase="info"} 1`,
		"gameserver_query_port 27015\n",
		"probe_timeout_seconds 5\n",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("missing %q in\n%s", want, body)
		}
	}
	for _, absent := range []string{"probe_failure_info", "gameserver_modded", "gameserver_state"} {
		if strings.Contains(body, absent) {
			t.Errorf("unexpected %q in\n%s", absent, body)
		}
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var list []*dtoFamily
	for _, f := range fams {
		list = append(list, f)
	}
	problems, err := promlint.NewWithMetricFamilies(list).Lint()
	if err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}

func TestProbeFailure(t *testing.T) {
	q := &fakeQuerier{err: fmt.Errorf("%w: challenge loop", protocols.ErrChallenge)}
	h := newTestHandler(t, q, nil)
	resp, body := get(t, h, "/probe?module=fake&target=127.0.0.1", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("a failed probe must be HTTP 200, got %d", resp.StatusCode)
	}
	for _, want := range []string{"probe_success 0\n", `probe_failure_info{reason="challenge"} 1`} {
		if !strings.Contains(body, want) {
			t.Errorf("missing %q in\n%s", want, body)
		}
	}
	if strings.Contains(body, "gameserver_players") {
		t.Errorf("a failed probe exports no server metrics:\n%s", body)
	}
	if got := counterValue(t, h.Metrics.Failures.WithLabelValues("fake", "challenge")); got != 1 {
		t.Errorf("failure counter = %v", got)
	}
}

func TestProbeDNSFailure(t *testing.T) {
	h := newTestHandler(t, &fakeQuerier{res: &protocols.Result{}}, nil)
	h.Resolver = staticResolver{}
	_, body := get(t, h, "/probe?module=fake&target=nonexistent.invalid", nil)
	if !strings.Contains(body, `probe_failure_info{reason="dns"} 1`) {
		t.Errorf("want dns failure, got\n%s", body)
	}
}

func TestProbeNeverOutlivesTimeout(t *testing.T) {
	h := newTestHandler(t, &fakeQuerier{wait: true}, nil)
	start := time.Now()
	_, body := get(t, h, "/probe?module=fake&target=127.0.0.1", map[string]string{"X-Prometheus-Scrape-Timeout-Seconds": "0.7"})
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("probe took %s with a 0.2s budget", el)
	}
	for _, want := range []string{"probe_success 0", `reason="timeout"`, "probe_timeout_seconds 0.2"} {
		if !strings.Contains(body, want) {
			t.Errorf("missing %q in\n%s", want, body)
		}
	}
}

func TestDebugOutput(t *testing.T) {
	q := &fakeQuerier{res: &protocols.Result{Name: "srv", Info: []protocols.KV{{Key: "hostname", Value: "srv"}}}}
	h := newTestHandler(t, q, nil)
	resp, body := get(t, h, "/probe?module=fake&target=127.0.0.1&debug=true", nil)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("content type %q", ct)
	}
	for _, want := range []string{
		"Logs for the probe:", "Beginning probe: module=fake", "Probe succeeded",
		"Decoded reply:", `hostname = "srv"`,
		"Metrics that would have been returned:", "probe_success 1",
		"Module configuration:", "protocol: fake",
		"Packets:", "#1 sent 9 bytes", "ff ff ff ff 68 65 6c 6c  6f", "#2 received 9 bytes",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("debug output lacks %q:\n%s", want, body)
		}
	}
	// The same output is kept in the history behind /logs.
	e := h.History.List()[0]
	_, logs := get(t, h.History.DebugHandler(false), fmt.Sprintf("/logs?id=%d", e.ID), nil)
	if !strings.Contains(logs, "Packets:") {
		t.Errorf("history debug output: %s", logs)
	}
}

func TestContentNegotiation(t *testing.T) {
	h := newTestHandler(t, &fakeQuerier{res: &protocols.Result{Players: protocols.Known(1)}}, nil)
	resp, body := get(t, h, "/probe?module=fake&target=127.0.0.1", map[string]string{
		"Accept": "application/openmetrics-text;version=1.0.0;q=0.9,text/plain;version=0.0.4;q=0.5",
	})
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/openmetrics-text") {
		t.Fatalf("content type %q", ct)
	}
	if !strings.HasSuffix(body, "# EOF\n") {
		t.Errorf("OpenMetrics output must end with # EOF:\n%s", body)
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

func TestMetricDescs(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range allDescs {
		if seen[d.name] {
			t.Errorf("%s defined twice", d.name)
		}
		seen[d.name] = true
		if !sort.StringsAreSorted(d.labels) {
			t.Errorf("%s: labels %v must be sorted, as a registry exposes them", d.name, d.labels)
		}
	}
}
