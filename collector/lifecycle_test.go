package collector

import (
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestStartTimes: the reported spans become timestamps on the probe's clock (the
// reply was read at When + Duration), in whole seconds; an unreported span, and
// any span of a failed probe, is absent.
func TestStartTimes(t *testing.T) {
	when := time.Unix(1_700_000_000, 0)
	tests := []struct {
		name     string
		res      protocols.Result
		dur      time.Duration
		err      error
		want     []string
		wantNone []string
	}{
		{"both", protocols.Result{Uptime: protocols.SpanSeconds(86400), MapTime: protocols.SpanSeconds(90)}, 250 * time.Millisecond, nil,
			[]string{"gameserver_start_time_seconds 1.6999136e+09\n", "gameserver_map_start_time_seconds 1.69999991e+09\n"}, nil},
		// The reply read .7 s after When: 1699996400.7 rounds to ...401.
		{"rounded", protocols.Result{Uptime: protocols.SpanSeconds(3600)}, 700 * time.Millisecond, nil,
			[]string{"gameserver_start_time_seconds 1.699996401e+09\n"}, []string{"gameserver_map_start_time_seconds"}},
		{"just started", protocols.Result{Uptime: protocols.SpanSeconds(0)}, 0, nil,
			[]string{"gameserver_start_time_seconds 1.7e+09\n"}, nil},
		// A start time the server reports as a moment (StarMade) is exported as is, over any span.
		{"started", protocols.Result{Started: time.UnixMilli(1_600_000_000_400), Uptime: protocols.SpanSeconds(5)}, time.Second, nil,
			[]string{"gameserver_start_time_seconds 1.6e+09\n"}, []string{"gameserver_map_start_time_seconds"}},
		{"not reported", protocols.Result{}, time.Second, nil,
			nil, []string{"gameserver_start_time_seconds", "gameserver_map_start_time_seconds"}},
		{"nonsense", protocols.Result{Uptime: protocols.SpanSeconds(-5), MapTime: protocols.SpanSeconds(1e300)}, time.Second, nil,
			nil, []string{"gameserver_start_time_seconds", "gameserver_map_start_time_seconds"}},
		{"failed", protocols.Result{Uptime: protocols.SpanSeconds(60)}, time.Second, wire.ErrTimeout,
			nil, []string{"gameserver_start_time_seconds"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := &Outcome{Module: &config.Module{Protocol: "fake"}, Port: 27015, When: when, Duration: tc.dur, Err: tc.err, Result: &tc.res}
			body := string(Append(nil, o, false))
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("missing %q in\n%s", w, body)
				}
			}
			for _, w := range tc.wantNone {
				if strings.Contains(body, w) {
					t.Errorf("%s present:\n%s", w, body)
				}
			}
		})
	}
}
