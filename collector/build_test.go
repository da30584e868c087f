package collector

import (
	"bytes"
	"net/netip"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

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

// TestExposition: what one outcome exposes, and what it must not. A phase run
// twice (retry, second port) is one series; a protocol that reads players from its
// info reply (ASE) reports their failure as a PhaseError only, and it still shows;
// a failed probe exposes no server metrics, only why it failed. The reported spans
// become timestamps on the probe's clock (the reply was read at When + Duration),
// in whole seconds; an unreported span, and any span of a failed probe, is absent.
func TestExposition(t *testing.T) {
	when := time.Unix(1_700_000_000, 0)
	twice := wire.NewTrace()
	twice.End(twice.Begin("info"), wire.ErrTimeout)
	twice.End(twice.Begin("info"), nil)
	info := wire.NewTrace()
	info.End(info.Begin("info"), nil)
	for _, tc := range []struct {
		name         string
		trace        *wire.Trace
		res          protocols.Result
		dur          time.Duration
		err          error
		om           bool
		want, absent []string // once each, and never
	}{
		{name: "phase run twice", trace: twice,
			want: []string{`gameserver_query_duration_seconds{phase="info"}`, `gameserver_query_phase_success{phase="info"} 1`}},
		{name: "phase error without its trace phase", trace: info, res: protocols.Result{PhaseErrors: []protocols.PhaseError{{Phase: "players", Err: wire.ErrTooLarge}}},
			want: []string{`gameserver_query_phase_success{phase="players"} 0`, "probe_success 1"}},
		{name: "failed, OpenMetrics", res: protocols.Result{Players: protocols.Known(3)}, err: wire.ErrChallenge, om: true,
			want: []string{"probe_success 0.0\n", `probe_failure_info{reason="challenge"} 1.0`, "# EOF\n"}, absent: []string{"gameserver_players"}},
		{name: "both spans", res: protocols.Result{Uptime: protocols.SpanSeconds(86400), MapTime: protocols.SpanSeconds(90)}, dur: 250 * time.Millisecond,
			want: []string{"gameserver_start_time_seconds 1.6999136e+09\n", "gameserver_map_start_time_seconds 1.69999991e+09\n"}},
		// The reply read .7 s after When: 1699996400.7 rounds to ...401.
		{name: "rounded", res: protocols.Result{Uptime: protocols.SpanSeconds(3600)}, dur: 700 * time.Millisecond,
			want: []string{"gameserver_start_time_seconds 1.699996401e+09\n"}, absent: []string{"gameserver_map_start_time_seconds"}},
		{name: "just started", res: protocols.Result{Uptime: protocols.SpanSeconds(0)},
			want: []string{"gameserver_start_time_seconds 1.7e+09\n"}},
		// A start time the server reports as a moment (StarMade) is exported as is, over any span.
		{name: "started", res: protocols.Result{Started: time.UnixMilli(1_600_000_000_400), Uptime: protocols.SpanSeconds(5)}, dur: time.Second,
			want: []string{"gameserver_start_time_seconds 1.6e+09\n"}, absent: []string{"gameserver_map_start_time_seconds"}},
		{name: "spans not reported", dur: time.Second, absent: []string{"gameserver_start_time_seconds", "gameserver_map_start_time_seconds"}},
		{name: "nonsense spans", res: protocols.Result{Uptime: protocols.SpanSeconds(-5), MapTime: protocols.SpanSeconds(1e300)}, dur: time.Second,
			absent: []string{"gameserver_start_time_seconds", "gameserver_map_start_time_seconds"}},
		{name: "negative counts", res: protocols.Result{Players: protocols.Known(-3), MaxPlayers: protocols.Known(-1), Bots: protocols.Known(-2), Queue: protocols.Known(-4)},
			want: []string{"probe_success 1"}, absent: []string{"gameserver_players", "gameserver_bots"}},
		{name: "spans of a failed probe", res: protocols.Result{Uptime: protocols.SpanSeconds(60)}, dur: time.Second, err: wire.ErrTimeout,
			absent: []string{"gameserver_start_time_seconds"}},
	} {
		o := &Outcome{Module: &config.Module{Protocol: "fake"}, Trace: tc.trace, Port: 27015, When: when, Duration: tc.dur, Err: tc.err, Result: &tc.res}
		body := string(Append(nil, o, tc.om))
		for _, w := range tc.want {
			if n := strings.Count(body, w); n != 1 {
				t.Errorf("%s: %q appears %d times, want once:\n%s", tc.name, w, n, body)
			}
		}
		for _, w := range tc.absent {
			if strings.Contains(body, w) {
				t.Errorf("%s: %s present:\n%s", tc.name, w, body)
			}
		}
	}
}

func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain name", "plain name"},
		{"Café Ünïcode 日本", "Café Ünïcode 日本"},
		{"\x1b]0;pwned\x07title", `\x1b]0;pwned\x07title`},
		{"line\r\nforged", `line\x0d\x0aforged`},
		{"abc\u202edcba", `abc\u202edcba`},
		{"\u2066iso\u2069 \u200f", `\u2066iso\u2069 \u200f`},
		{"c1 \u009b31m", `c1 \u009b31m`},
		{"bad \xff utf8", `bad \xff utf8`},
		{"del\x7f", `del\x7f`},
	}
	for _, tc := range tests {
		if got := Printable(tc.in); got != tc.want {
			t.Errorf("Printable(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	var b bytes.Buffer
	w := PrintableWriter(&b)
	w.Write([]byte("name:\t\x1b[2J\u202eX\n"))
	w.Write([]byte("next line\n"))
	if want := "name:\t\\x1b[2J\\u202eX\nnext line\n"; b.String() != want {
		t.Errorf("writer: %q, want %q", b.String(), want)
	}
}

func TestCleanLabelDropsBidi(t *testing.T) {
	if got := cleanLabel("evil\u202emoc.elgoog\u2066x\u2069"); got != "evilmoc.elgoogx" {
		t.Errorf("cleanLabel kept a bidi control: %q", got)
	}
}

func TestNegotiate(t *testing.T) {
	for _, c := range []struct {
		accept string
		om     bool
		ct     string
	}{
		{"", false, "text/plain"},
		{"application/openmetrics-text;version=1.0.0;q=0.9,text/plain;version=0.0.4;q=0.5", true, "application/openmetrics-text"},
		{"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited", false, "text/plain"},
	} {
		var n Negotiator
		f := n.Negotiate(c.accept)
		if f.OpenMetrics != c.om || !strings.HasPrefix(f.ContentType[0], c.ct) {
			t.Errorf("Accept %q: %+v, want om=%v %s", c.accept, f, c.om, c.ct)
		}
		if n.Negotiate(c.accept) != f {
			t.Errorf("Accept %q: not answered from the cache", c.accept)
		}
	}
}

// BenchmarkNegotiate: what the Accept cache of the handler saves per probe (the
// cached lookup against a full parse of Prometheus' Accept header).
func BenchmarkNegotiate(b *testing.B) {
	const accept = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
	b.Run("cached", func(b *testing.B) {
		var c Negotiator
		b.ReportAllocs()
		for b.Loop() {
			c.Negotiate(accept)
		}
	})
	b.Run("parsed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			negotiate(accept)
		}
	})
}

// fakeLists lists the addresses and names of each source; a source absent
// from it has no list yet.
type fakeLists map[string][]string

func (f fakeLists) Listed(source string, addr netip.AddrPort, host string) (bool, bool) {
	l, ok := f[source]
	if !ok {
		return false, false
	}
	for _, s := range l {
		if s == addr.String() || host != "" && s == host {
			return true, true
		}
	}
	return false, true
}

// TestListed: gameserver_listed{source} is 1 or 0 per source of listed_in,
// looked up by the target's port or the queried one, and absent for a source
// without a list.
func TestListed(t *testing.T) {
	q := &prototest.FakeQuerier{Result: &protocols.Result{Name: "x"}}
	mods := map[string]*config.Module{
		"listed": {Protocol: "fake", ListedIn: []string{"master", "other", "nolist"}, PortOffsets: []int{1}},
		"plain":  {Protocol: "fake"},
	}
	r := newTestRunner(t, q, mods)
	r.Lists = fakeLists{
		"master": {"192.0.2.1:27960"}, // the game port, the target's
		"other":  {"192.0.2.2:27961"}, // the query port (offset 1)
	}
	cases := []struct {
		module, target string
		want           []string
		absent         bool
	}{
		{"listed", "192.0.2.1:27960", []string{`gameserver_listed{source="master"} 1`, `gameserver_listed{source="other"} 0`}, false},
		{"listed", "192.0.2.2:27960", []string{`gameserver_listed{source="master"} 0`, `gameserver_listed{source="other"} 1`}, false},
		{"plain", "192.0.2.1:27960", nil, true},
	}
	for _, c := range cases {
		o := run(t, r, c.module, c.target, "")
		text := string(Append(nil, o, false))
		for _, w := range c.want {
			if !strings.Contains(text, w+"\n") {
				t.Errorf("%s %s: no %q in\n%s", c.module, c.target, w, text)
			}
		}
		if strings.Contains(text, `source="nolist"`) {
			t.Errorf("a source without a list has a series:\n%s", text)
		}
		if c.absent && strings.Contains(text, "gameserver_listed") {
			t.Errorf("%s: gameserver_listed without listed_in:\n%s", c.module, text)
		}
	}
}
