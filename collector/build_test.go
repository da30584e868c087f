package collector

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
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
