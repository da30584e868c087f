package discovery

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/prometheus/common/expfmt"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// q3Master is a fake dpmaster listing the addresses last set while down is
// false, silent while it is true.
type q3Master struct {
	addr  netip.AddrPort
	addrs atomic.Pointer[[]netip.AddrPort]
	down  atomic.Bool
}

func newQ3Master(t *testing.T, addrs ...string) *q3Master {
	m := &q3Master{}
	m.set(addrs...)
	m.addr = prototest.UDP(t, func(req []byte) [][]byte {
		if m.down.Load() || !prototest.IsGetServers(req) {
			return nil
		}
		return [][]byte{prototest.GetServersResponse(*m.addrs.Load())}
	})
	return m
}

func (m *q3Master) set(addrs ...string) {
	l := make([]netip.AddrPort, len(addrs))
	for i, a := range addrs {
		l[i] = netip.MustParseAddrPort(a)
	}
	m.addrs.Store(&l)
}

// parse compiles a discovery section given as the body of `discovery:`.
func parse(t *testing.T, src string) config.Discovery {
	t.Helper()
	var b strings.Builder
	b.WriteString("discovery:\n")
	for _, l := range strings.Split(strings.TrimPrefix(src, "\n"), "\n") {
		b.WriteString("  " + l + "\n")
	}
	c, err := config.Parse([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return c.Discovery
}

// start applies cfg to a new manager logging to log (nil: nowhere); done
// receives the result of each refresh.
func start(t *testing.T, log io.Writer, cfg config.Discovery) (*Manager, chan error) {
	t.Helper()
	var l *slog.Logger
	if log != nil {
		l = slog.New(slog.NewTextHandler(log, nil))
	}
	m := NewManager(l)
	done := make(chan error, 64)
	m.OnRefresh = func(_ string, err error) { done <- err }
	m.Apply(cfg)
	t.Cleanup(m.Stop)
	return m, done
}

// started is start, once every source has refreshed once.
func started(t *testing.T, log io.Writer, cfg config.Discovery) (*Manager, chan error) {
	t.Helper()
	m, done := start(t, log, cfg)
	for range cfg {
		<-done
	}
	return m, done
}

type sdGroup struct {
	Targets []string          `json:"targets"`
	Labels  map[string]string `json:"labels"`
}

func getSD(t *testing.T, m *Manager, query string) (int, []sdGroup, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	m.SDHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/sd?"+query, nil))
	body := rec.Body.String()
	var groups []sdGroup
	if rec.Code == 200 {
		if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
			t.Fatalf("content type %q", ct)
		}
		if err := json.Unmarshal([]byte(body), &groups); err != nil {
			t.Fatalf("%v: %s", err, body)
		}
	}
	return rec.Code, groups, body
}

// TestFailThenRecover: a source that never fetched has no list yet (and its log
// says so); then it serves its list, keeps it through failed refreshes (and says
// so in its log and metrics), and takes the next good one.
func TestFailThenRecover(t *testing.T) {
	master := newQ3Master(t, "192.0.2.1:27960", "192.0.2.2:27961")
	master.down.Store(true)
	cfg := parse(t, fmt.Sprintf(`
oa:
  type: quake3
  address: %s
  query: getservers 71 full empty
  module: openarena
  refresh: 10m
  timeout: 300ms
`, master.addr))
	var log syncBuffer
	m, done := start(t, &log, cfg)
	if err := <-done; err == nil {
		t.Fatal("the first refresh of a silent master succeeded")
	}
	if got := log.String(); !strings.Contains(got, "no list yet") || strings.Contains(got, "last good list") {
		t.Errorf("first refresh failed, log:\n%s", got)
	}
	master.down.Store(false)
	if _, err := m.Refresh(context.Background(), "oa"); err != nil {
		t.Fatal(err)
	}
	code, groups, body := getSD(t, m, "source=oa")
	if code != 200 || len(groups) != 2 {
		t.Fatalf("%d %s", code, body)
	}
	want := sdGroup{Targets: []string{"192.0.2.1:27960"}, Labels: map[string]string{"source": "oa", "__param_module": "openarena"}}
	if fmt.Sprint(groups[0]) != fmt.Sprint(want) {
		t.Fatalf("group %+v, want %+v", groups[0], want)
	}
	if listed, known := m.Listed("oa", netip.MustParseAddrPort("[::ffff:192.0.2.2]:27961"), ""); !listed || !known {
		t.Fatal("a listed server (IPv4-mapped) not found")
	}
	if listed, known := m.Listed("oa", netip.MustParseAddrPort("192.0.2.3:27960"), ""); listed || !known {
		t.Fatal("an unlisted server found")
	}
	if _, known := m.Listed("nosuch", netip.MustParseAddrPort("192.0.2.1:27960"), ""); known {
		t.Fatal("an unknown source knows")
	}

	master.down.Store(true)
	if _, err := m.Refresh(context.Background(), "oa"); err == nil {
		t.Fatal("refresh of a silent master succeeded")
	}
	if got := log.String(); !strings.Contains(got, "serving the last good list") {
		t.Errorf("a refresh failed after a good one, log:\n%s", got)
	}
	if code, groups, _ := getSD(t, m, "source=oa"); code != 200 || len(groups) != 2 {
		t.Fatalf("after a failure: %d, %d groups; want the last good list", code, len(groups))
	}
	expectMetrics(t, m, `
gameserver_discovery_entries{source="oa"} 2
gameserver_discovery_last_refresh_success{source="oa"} 0
gameserver_discovery_refresh_failures_total{source="oa"} 2
gameserver_discovery_targets{source="oa"} 2
`)

	master.set("198.51.100.9:27960")
	master.down.Store(false)
	if _, err := m.Refresh(context.Background(), "oa"); err != nil {
		t.Fatal(err)
	}
	if _, groups, _ := getSD(t, m, "source=oa"); len(groups) != 1 || groups[0].Targets[0] != "198.51.100.9:27960" {
		t.Fatalf("after recovery: %+v", groups)
	}
	if listed, _ := m.Listed("oa", netip.MustParseAddrPort("192.0.2.1:27960"), ""); listed {
		t.Fatal("a server gone from the list is still listed")
	}
	expectMetrics(t, m, `
gameserver_discovery_entries{source="oa"} 1
gameserver_discovery_last_refresh_success{source="oa"} 1
gameserver_discovery_refresh_failures_total{source="oa"} 2
gameserver_discovery_targets{source="oa"} 1
`)
	if st := m.Statuses(); len(st) != 1 || st[0].LastSuccess.IsZero() || st[0].LastError != "" {
		t.Fatalf("%+v", st)
	}
}

// expectMetrics compares the samples (HELP and TYPE aside) of the metrics that
// want names, and lints all the manager's metrics.
func expectMetrics(t *testing.T, m *Manager, want string) {
	t.Helper()
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(want), "\n") {
		if name, _, _ := strings.Cut(l, "{"); !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	b, err := testutil.CollectAndFormat(m, expfmt.TypeTextPlain, names...)
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if !strings.HasPrefix(l, "#") {
			got = append(got, l)
		}
	}
	if err != nil || strings.Join(got, "\n") != strings.TrimSpace(want) {
		t.Fatalf("%v\n%s\nwant\n%s", err, b, want)
	}
	if probs, err := testutil.CollectAndLint(m); err != nil || len(probs) > 0 {
		t.Fatalf("lint: %v %v", probs, err)
	}
}

// TestSDLabels: what an HTTP list knows becomes __meta labels, hostile strings
// cleaned; filters cut the targets but not what is listed.
func TestSDLabels(t *testing.T) {
	srv, _ := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"servers":[
{"addresses":["tw-0.6+udp://192.0.2.1:8303"],"location":"eu:de","info":{"name":"[EU] \"quoted\" \u0007bell\nline </script>","game_type":"CTF","map":{"name":"ctf5"},"max_clients":16,"passworded":true,"clients":[{},{}]}},
{"addresses":["tw-0.6+udp://192.0.2.2:8303"],"info":{"name":"[US] other","game_type":"CTF","map":{"name":"ctf5"},"max_clients":16,"clients":[{}]}},
{"addresses":["tw-0.6+udp://192.0.2.3:8303"],"info":{"name":"[EU] empty","game_type":"CTF","map":{"name":"ctf5"},"max_clients":16,"clients":[]}},
{"addresses":["tw-0.6+udp://192.0.2.4:8303"],"info":{"name":"`+strings.Repeat("é", 200)+`","clients":[{}]}}
]}`)
	}), false)
	cfg := parse(t, fmt.Sprintf(`
tw:
  type: ddnet
  url: %s
  module: teeworlds
  timeout: 2s
  filters: {name: "^\\[EU\\]|é", not_empty: true}
`, srv.URL))
	m, _ := started(t, nil, cfg)
	code, groups, body := getSD(t, m, "source=tw")
	if code != 200 || len(groups) != 2 {
		t.Fatalf("%d: %s", code, body)
	}
	want := map[string]string{
		"source": "tw", "__param_module": "teeworlds", "__meta_gameserver_name": `[EU] "quoted" bellline </script>`,
		"__meta_gameserver_map": "ctf5", "__meta_gameserver_game": "CTF", "__meta_gameserver_country": "DE",
		"__meta_gameserver_players": "2", "__meta_gameserver_players_max": "16", "__meta_gameserver_password": "true",
	}
	if fmt.Sprint(groups[0].Labels) != fmt.Sprint(want) {
		t.Fatalf("labels %v\nwant %v", groups[0].Labels, want)
	}
	if strings.Contains(body, "</script>") {
		t.Fatal("HTML not escaped in the JSON")
	}
	if n := groups[1].Labels["__meta_gameserver_name"]; len(n) > maxLabel || !strings.HasPrefix(n, "éé") {
		t.Fatalf("long name not capped at a rune: %d bytes", len(n))
	}
	if listed, _ := m.Listed("tw", netip.MustParseAddrPort("192.0.2.3:8303"), ""); !listed {
		t.Fatal("a server the filters cut is not listed")
	}
}

// TestSDHandlerErrors: what /sd answers a wrong request, and a source without a
// list; a key in a source URL's query shows neither in the 503 body, nor on the
// sources table, nor in the log, when the fetch fails (issue 35, M2: net/http's
// error text quotes the URL).
func TestSDHandlerErrors(t *testing.T) {
	cfg := parse(t, fmt.Sprintf(`
silent: {type: quake3, address: %s, timeout: 200ms}
other: {type: quakeworld, address: %s, timeout: 200ms}
keyed: {type: http_json, url: "http://127.0.0.1:1/servers?key=S3CRET", fields: {address: ip}, refresh: 10m}
`, prototest.Silent(t), prototest.Silent(t)))
	var log syncBuffer
	m, _ := started(t, &log, cfg)
	cases := []struct {
		query string
		code  int
		body  string
	}{
		{"source=nosuch", 404, `unknown source "nosuch" (known: keyed, other, silent)`},
		{"", 400, "source parameter is missing: /sd?source=NAME, NAME one of the modules file's discovery sources (keyed, other, silent)"},
		{"source=", 400, "source parameter is missing"},
		{"source=silent", 503, "has no list yet: "},
		{"source=keyed", 503, "refused"},
		{"source=silent&url=http://169.254.169.254/", 400, `unknown parameter "url"`},
		{"source=silent&address=127.0.0.1:1", 400, `unknown parameter "address"`},
	}
	shown := log.String()
	for _, c := range cases {
		code, _, body := getSD(t, m, c.query)
		if code != c.code || !strings.Contains(body, c.body) {
			t.Errorf("%s: %d %q, want %d %q", c.query, code, body, c.code, c.body)
		}
		shown += body
	}
	rec := httptest.NewRecorder()
	m.SDHandler().ServeHTTP(rec, httptest.NewRequest("POST", "/sd?source=silent", nil))
	if rec.Code != 405 {
		t.Fatalf("POST: %d", rec.Code)
	}
	var table strings.Builder
	m.WriteSources(&table)
	if shown += table.String(); strings.Contains(shown, "S3CRET") {
		t.Fatalf("the key shows:\n%s", shown)
	}
}

// TestApply: a reload keeps an unchanged source's list, restarts a changed
// one and stops a removed one.
func TestApply(t *testing.T) {
	master := newQ3Master(t, "192.0.2.1:27960").addr
	src := func(extra string) config.Discovery {
		return parse(t, fmt.Sprintf("a: {type: quake3, address: %s, timeout: 300ms%s}\nb: {type: quake3, address: %s, timeout: 300ms}\n", master, extra, master))
	}
	m, done := started(t, nil, src(""))
	ra, rb := m.source("a"), m.source("b")
	m.Apply(src("")) // unchanged: nothing restarts, nothing fetches
	if m.source("a") != ra || m.source("b") != rb {
		t.Fatal("an unchanged source was restarted")
	}
	m.Apply(src(", max_targets: 10"))
	if <-done; m.source("a") == ra || m.source("b") != rb {
		t.Fatal("a changed source kept, or an unchanged one restarted")
	}
	cfg := src("")
	delete(cfg, "b")
	m.Apply(cfg)
	if <-done; m.source("b") != nil {
		t.Fatal("a removed source still runs")
	}
	select {
	case <-rb.done:
	default:
		t.Fatal("a removed source's loop did not end")
	}
}

func TestRetryAfter(t *testing.T) {
	cases := []struct {
		interval time.Duration
		n        int
		want     time.Duration
	}{
		{time.Minute, 1, 7500 * time.Millisecond},
		{time.Minute, 2, 15 * time.Second},
		{time.Minute, 4, time.Minute},
		{time.Minute, 40, time.Minute},
		{10 * time.Second, 1, 1250 * time.Millisecond},
		{2 * time.Second, 1, time.Second},
	}
	for _, c := range cases {
		if got := retryAfter(c.interval, c.n); got != c.want {
			t.Errorf("retryAfter(%v, %d) = %v, want %v", c.interval, c.n, got, c.want)
		}
	}
}

// syncBuffer is a log sink the manager's goroutines may write to.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestEntriesSkipped (issue 35, L1): entries of a list that do not decode
// (a number in an http_json array, a string where a number belongs) or have
// no address cost themselves: /sd serves the rest, and
// gameserver_discovery_entries_skipped_total counts them by reason, across
// refreshes.
func TestEntriesSkipped(t *testing.T) {
	srv, _ := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`[{"ip":"192.0.2.1","port":1}, 7, {"ip":"192.0.2.2","port":"x"}, {"ip":{}}, {"ip":"192.0.2.3","port":3}]`))
	}), false)
	cfg := parse(t, fmt.Sprintf(`
list:
  type: http_json
  url: %s/servers
  fields: {address: ip, port: port}
  refresh: 10m
`, srv.URL))
	m, _ := started(t, nil, cfg)
	if code, groups, body := getSD(t, m, "source=list"); code != 200 || len(groups) != 2 {
		t.Fatalf("%d %s", code, body)
	}
	if _, err := m.Refresh(context.Background(), "list"); err != nil {
		t.Fatal(err)
	}
	expectMetrics(t, m, `
gameserver_discovery_entries_skipped_total{reason="malformed",source="list"} 2
gameserver_discovery_entries_skipped_total{reason="no_address",source="list"} 4
`)
}

// TestSDFile: a file source serves its lines as targets, takes an edit at the
// next refresh, and keeps the last good list through a broken edit, whose
// error names the line and never quotes it (the status is shown on /modules).
func TestSDFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "targets.txt")
	os.WriteFile(p, []byte("# mine\n192.0.2.1:27015\ngame.example.org:27016\n"), 0o600)
	cfg := parse(t, fmt.Sprintf("mine: {type: file, path: %s, module: a2s, refresh: 10m}", p))
	m, _ := started(t, nil, cfg)
	code, groups, body := getSD(t, m, "source=mine")
	if code != 200 || len(groups) != 2 || groups[1].Targets[0] != "game.example.org:27016" || groups[0].Labels["__param_module"] != "a2s" {
		t.Fatalf("%d %s", code, body)
	}
	os.WriteFile(p, []byte("192.0.2.9:27015\n"), 0o600)
	if _, err := m.Refresh(context.Background(), "mine"); err != nil {
		t.Fatal(err)
	}
	if _, groups, _ := getSD(t, m, "source=mine"); len(groups) != 1 || groups[0].Targets[0] != "192.0.2.9:27015" {
		t.Fatalf("after an edit: %+v", groups)
	}
	os.WriteFile(p, []byte("192.0.2.9:27015\nroot:$6$hunter2$abc:19000:0:99999:7:::\n"), 0o600)
	if _, err := m.Refresh(context.Background(), "mine"); err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("a broken edit: %v", err)
	}
	if _, groups, _ := getSD(t, m, "source=mine"); len(groups) != 1 {
		t.Fatalf("after a broken edit: %+v, want the last good list", groups)
	}
	var status strings.Builder
	m.WriteSources(&status)
	if st := m.Statuses(); len(st) != 1 || !strings.Contains(st[0].LastError, "line 2: not host:port") ||
		strings.Contains(st[0].LastError+status.String(), "hunter2") {
		t.Fatalf("%+v\n%s", st, status.String())
	}
}
