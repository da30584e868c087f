package e2e

import (
	"fmt"
	"math"
	"net/netip"
	"net/url"
	"os/exec"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// haveQstat reports whether the reference client quakestat is installed, and
// says so when it is not: the comparison with it is then left out.
func haveQstat(t *testing.T) bool {
	t.Helper()
	if _, err := exec.LookPath("quakestat"); err != nil {
		t.Log("quakestat (Debian package qstat) is not installed: no comparison with it; `make test` installs it as root")
		return false
	}
	return true
}

func loopback(port int) netip.AddrPort {
	return netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(port))
}

// exporterClient probes through the exporter under test.
type exporterClient struct{ *testenv.Exporter }

// query asks module about 127.0.0.1:port.
func query(module string, port int) url.Values {
	return url.Values{"module": {module}, "target": {loopback(port).String()}}
}

func (e exporterClient) probe(module string, port int) (probeResult, error) {
	p, err := e.Probe(query(module, port))
	return probeResult{p}, err
}

// waitProbe probes module on 127.0.0.1:port until probe_success is 1 and ready
// (when given) holds, failing the test when the server exits or realServerWait
// passes. Polls in between are served from the exporter's cache.
func (e exporterClient) waitProbe(t *testing.T, server *testenv.Proc, module string, port int, ready func(probeResult) (bool, string)) probeResult {
	t.Helper()
	var r probeResult
	testenv.WaitFor(t, realServerWait, fmt.Sprintf("module %s to probe %s successfully", module, loopback(port)), func() (bool, string) {
		server.FailIfExited(t)
		var err error
		if r, err = e.probe(module, port); err != nil {
			return false, err.Error()
		}
		if r.metric("probe_success") != 1 {
			return false, "probe failed: " + r.failure()
		}
		if ready != nil {
			return ready(r)
		}
		return true, ""
	})
	return r
}

// decodedReply is what the debug output lists of a server's reply: the info
// key/values and the rules (what has no metric of its own).
type decodedReply struct{ info, rules map[string]string }

// decoded is the reply of the module's last probe within --probe.min-interval,
// otherwise of a new probe, which must succeed.
func (e exporterClient) decoded(t *testing.T, module string, port int) decodedReply {
	t.Helper()
	info, rules, err := e.Decoded(query(module, port))
	if err != nil {
		t.Fatalf("debug output: %v", err)
	}
	return decodedReply{info, rules}
}

// probeResult is one parsed /probe answer.
type probeResult struct{ testenv.Probed }

// metric is a single-series metric's value, 0 when absent.
func (r probeResult) metric(name string) float64 {
	v, _ := r.Value(name)
	return v
}

// want checks a single-series metric's value.
func (r probeResult) want(t *testing.T, name string, want float64) {
	t.Helper()
	if v, ok := r.Value(name); !ok || v != want {
		t.Errorf("%s = %v (present: %v), want %v", name, v, ok, want)
	}
}

// wantAll checks single-series metrics' values.
func (r probeResult) wantAll(t *testing.T, want map[string]float64) {
	t.Helper()
	for name, v := range want {
		r.want(t, name, v)
	}
}

// series returns the player label and value of each series of a per-player metric.
func (r probeResult) series(name string) map[string]float64 { return r.Series(name, "player") }

// playerStat is one player's score and ping (milliseconds; NaN: not reported).
type playerStat struct{ score, ping float64 }

// players returns gameserver_player_score and gameserver_player_ping_seconds by player.
func (r probeResult) players() map[string]playerStat {
	out := map[string]playerStat{}
	pings := r.series("gameserver_player_ping_seconds")
	for name, score := range r.series("gameserver_player_score") {
		ping, ok := pings[name]
		out[name] = playerStat{score, map[bool]float64{true: math.Round(ping * 1000), false: math.NaN()}[ok]}
	}
	return out
}

// players returns quakestat's player list in the form of probeResult.players.
func (s qstatServer) players() map[string]playerStat {
	out := map[string]playerStat{}
	for _, p := range s.Players {
		out[p.Name] = playerStat{float64(p.Score), float64(p.Ping)}
	}
	return out
}

// info returns the labels of gameserver_info (nil without a single series).
func (r probeResult) info() map[string]string { return r.Labels("gameserver_info") }

// failure says why a probe failed, from probe_failure_info.
func (r probeResult) failure() string {
	if l := r.Labels("probe_failure_info"); l != nil {
		return l["reason"]
	}
	return "no probe_failure_info"
}

// checkUp checks what every successful probe reports: no failure, every query
// phase successful, and the query port.
func (r probeResult) checkUp(t *testing.T, queryPort int) {
	t.Helper()
	bots, hasBots := r.Value("gameserver_bots")
	t.Logf("exporter: %v, players %v/%v, bots %v (reported: %v)", r.info(), r.metric("gameserver_players"), r.metric("gameserver_players_max"), bots, hasBots)
	r.want(t, "probe_success", 1)
	r.want(t, "gameserver_query_port", float64(queryPort))
	phases := r.Series("gameserver_query_phase_success", "phase")
	if _, failed := r.Families["probe_failure_info"]; failed || len(phases) == 0 {
		t.Errorf("probe_failure_info, or no gameserver_query_phase_success, on a successful probe:\n%s", r.Body)
	}
	for phase, v := range phases {
		if v != 1 {
			t.Errorf("phase %s failed:\n%s", phase, r.Body)
		}
	}
}

// checkInfo checks gameserver_info's labels against want.
func (r probeResult) checkInfo(t *testing.T, want map[string]string) {
	t.Helper()
	if r.info() == nil {
		t.Errorf("no single gameserver_info series:\n%s", r.Body)
	}
	wantKeys(t, "gameserver_info", r.info(), want)
}

// wantKeys checks the keys want names against got.
func wantKeys(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s %s = %q, want %q (all: %v)", what, k, got[k], v, got)
		}
	}
}

// checkQstat checks the probe against quakestat's record of the same server
// (nil: none): players, max players and the gameserver_info labels named.
// quakestat counts bots as players: humans plus bots (where reported) is its count.
func (r probeResult) checkQstat(t *testing.T, qs *prototest.QstatServer, labels ...string) {
	t.Helper()
	if qs == nil {
		return
	}
	bad := qs.Status != "online" || float64(qs.NumPlayers) != r.metric("gameserver_players")+r.metric("gameserver_bots") ||
		float64(qs.MaxPlayers) != r.metric("gameserver_players_max")
	for _, l := range labels {
		bad = bad || map[string]string{"name": qs.Name, "map": qs.Map, "game": qs.Game}[l] != r.info()[l]
	}
	if bad {
		t.Errorf("quakestat %+v, exporter:\n%s", *qs, r.Body)
	}
}
