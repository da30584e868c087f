package web

import (
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil/promlint"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestProbeBadRequests: the handler passes the query and the scrape timeout header
// to the runner and answers its refusals as 400 (collector's TestRunBadRequests
// holds every refusal), a query string past its bounds or with a parameter twice too.
func TestProbeBadRequests(t *testing.T) {
	h := newTestHandler(t, &prototest.FakeQuerier{Result: &protocols.Result{}}, nil)
	many := "/probe?target=127.0.0.1" + strings.Repeat("&module=fake", 50000)
	for _, tc := range []struct {
		url  string
		hdr  map[string]string
		want string
	}{
		{"/probe?target=127.0.0.1", nil, "module parameter is missing: add module=NAME; 1 known (listed on /modules)"},
		{"/probe?target=127.0.0.1&module=nope", nil, `unknown module "nope"; 1 known (listed on /modules)`},
		{"/probe?module=fake", nil, "target parameter is missing"},
		{"/probe?module=fake&target=a/b:27015", nil, "invalid host"},
		{"/probe?module=fake&target=127.0.0.1", map[string]string{"X-Prometheus-Scrape-Timeout-Seconds": "NaN"}, "invalid X-Prometheus-Scrape-Timeout-Seconds"},
		{many, nil, "invalid query string"},
		{"/probe?module=fake&module=other&target=127.0.0.1", nil, `parameter "module" given 2 times`},
		{"/probe?module=fake&target=127.0.0.1&target=127.0.0.2", nil, `parameter "target" given 2 times`},
		{"/probe?module=fake&target=%zz", nil, "invalid query string"},
	} {
		if resp, body := get(t, h, tc.url, tc.hdr); resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, tc.want) {
			t.Errorf("%.80s: status %d, body %q; want 400 with %q", tc.url, resp.StatusCode, body, tc.want)
		}
	}
}

func TestProbeSuccessExposition(t *testing.T) {
	q := &prototest.FakeQuerier{Result: &protocols.Result{
		Name: "My \x1bServer\xff", Map: "de_dust2", Game: "Counter-Strike", Version: "1.0",
		Players: protocols.Known(3), MaxPlayers: protocols.Known(16), Bots: protocols.Known(1),
		Password: protocols.FlagFalse,
		PlayerList: []protocols.Player{
			{Name: "bob", Score: protocols.Known(5), Duration: 12.5, DurationKnown: true},
			{Name: "bob", Score: protocols.Known(7)},
			{Name: "", Score: protocols.Known(1)},
		},
		PhaseErrors: []protocols.PhaseError{{Phase: "rules", Err: wire.ErrTimeout}},
	}}
	h := newTestHandler(t, q, nil)
	resp, body := get(t, h, "/probe?module=fake&target=127.0.0.1", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	prototest.WantAll(t, body, "probe_success 1\n", "gameserver_players 3\n", "gameserver_players_max 16\n", "gameserver_bots 1\n",
		"gameserver_password_required 0\n",
		`gameserver_info{game="Counter-Strike",map="de_dust2",name="My Server`+"\uFFFD"+`",protocol="fake",version="1.0"} 1`,
		`gameserver_player_score{player="bob"} 5`, `gameserver_player_score{player="bob (2)"} 7`,
		`gameserver_player_score{player="(unnamed)"} 1`, `gameserver_player_connected_seconds{player="bob"} 12.5`,
		`gameserver_query_phase_success{phase="info"} 1`, "gameserver_query_port 27015\n", "probe_timeout_seconds 5\n")
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
	problems, err := promlint.NewWithMetricFamilies(slices.Collect(maps.Values(fams))).Lint()
	if err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}

func TestDebugOutput(t *testing.T) {
	q := &prototest.FakeQuerier{Result: &protocols.Result{Name: "srv", Info: []protocols.KV{{Key: "hostname", Value: "srv"}}}}
	h := newTestHandler(t, q, nil)
	resp, body := get(t, h, "/probe?module=fake&target=127.0.0.1&debug=true", nil)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("content type %q", ct)
	}
	prototest.WantAll(t, body, "Logs for the probe:", "Beginning probe: module=fake", "Probe succeeded",
		"Decoded reply:", `hostname = "srv"`, "Metrics that would have been returned:", "probe_success 1",
		"Module configuration:", "protocol: fake", "Packets:", "#1 sent 9 bytes", "ff ff ff ff 68 65 6c 6c  6f", "#2 received 9 bytes")
	// The same output is kept in the history behind /logs.
	e := h.History.List()[0]
	_, logs := get(t, h.History.DebugHandler(false), fmt.Sprintf("/logs?id=%d", e.ID), nil)
	if !strings.Contains(logs, "Packets:") {
		t.Errorf("history debug output: %s", logs)
	}
}

// TestProbeRefusedAndCached: a target the policy refuses is HTTP 403 with the
// reason; a probe answered from the cache says so in its debug output.
func TestProbeRefusedAndCached(t *testing.T) {
	q := &prototest.FakeQuerier{Result: &protocols.Result{}}
	h := newTestHandler(t, q, nil)
	cfg, err := config.Parse([]byte("target_policy:\n  deny: [\"127.0.0.2/32\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Modules = h.Runner.Config.Get().Modules
	h.Runner.Config.Set(cfg)
	resp, body := get(t, h, "/probe?module=fake&target=127.0.0.2", nil)
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "target refused by target_policy") {
		t.Errorf("refused target: %d %q, want 403 with the reason", resp.StatusCode, body)
	}
	h.Runner.MinInterval = time.Hour
	get(t, h, "/probe?module=fake&target=127.0.0.1", nil)
	_, dbg := get(t, h, "/probe?module=fake&target=127.0.0.1&debug=true", nil)
	if n := q.Calls(); n != 1 || !strings.Contains(dbg, "Served from cache") {
		t.Errorf("%d queries; debug output must say the result was cached:\n%s", n, dbg)
	}
}

// BenchmarkServeHTTP measures the exporter's own cost of a probe: everything but
// the network (the querier answers at once).
func BenchmarkServeHTTP(b *testing.B) {
	q := &prototest.FakeQuerier{Result: &protocols.Result{
		Name: "bench server", Map: "de_dust2", Game: "Counter-Strike", Version: "1.0",
		Players: protocols.Known(12), MaxPlayers: protocols.Known(32), Bots: protocols.Known(0),
		Password: protocols.FlagFalse,
	}}
	h := newTestHandler(&testing.T{}, q, nil)
	h.Runner.MinInterval = 0
	req := httptest.NewRequest("GET", "/probe?module=fake&target=127.0.0.1:27015", nil)
	req.Header.Set("Accept", "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
	}
}
