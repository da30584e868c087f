package collector

import (
	"sort"
	"strings"
	"testing"

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

// TestPhaseSeriesOnce: a phase run twice (retry, second port) is one series.
func TestPhaseSeriesOnce(t *testing.T) {
	tr := wire.NewTrace()
	tr.End(tr.Begin("info"), wire.ErrTimeout)
	tr.End(tr.Begin("info"), nil)
	o := &Outcome{Module: &config.Module{Protocol: "fake"}, Trace: tr, Port: 27015, Result: &protocols.Result{}}
	body := string(Append(nil, o, false))
	for _, s := range []string{`gameserver_query_duration_seconds{phase="info"}`, `gameserver_query_phase_success{phase="info"} 1`} {
		if n := strings.Count(body, s); n != 1 {
			t.Errorf("%s appears %d times:\n%s", s, n, body)
		}
	}
}

// TestPhaseErrorWithoutTracePhase: a protocol that reads players from its info
// reply (ASE) reports their failure as a PhaseError only; it must still show.
func TestPhaseErrorWithoutTracePhase(t *testing.T) {
	tr := wire.NewTrace()
	tr.End(tr.Begin("info"), nil)
	res := &protocols.Result{PhaseErrors: []protocols.PhaseError{{Phase: "players", Err: wire.ErrTooLarge}}}
	o := &Outcome{Module: &config.Module{Protocol: "fake"}, Trace: tr, Port: 27015, Result: res}
	body := string(Append(nil, o, false))
	if !strings.Contains(body, `gameserver_query_phase_success{phase="players"} 0`) || !strings.Contains(body, "probe_success 1") {
		t.Errorf("want the players phase failed and the probe up:\n%s", body)
	}
}

// TestFailedOutcome: a failed probe exposes no server metrics, only why it failed.
func TestFailedOutcome(t *testing.T) {
	o := &Outcome{Module: &config.Module{Protocol: "fake"}, Port: 27015, Err: wire.ErrChallenge,
		Result: &protocols.Result{Players: protocols.Known(3)}}
	body := string(Append(nil, o, true))
	for _, want := range []string{"probe_success 0.0\n", `probe_failure_info{reason="challenge"} 1.0`, "# EOF\n"} {
		if !strings.Contains(body, want) {
			t.Errorf("missing %q in\n%s", want, body)
		}
	}
	if strings.Contains(body, "gameserver_players") {
		t.Errorf("a failed probe exports no server metrics:\n%s", body)
	}
}
