package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/netip"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

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

// qstatNow asks quakestat (protocol flag) about 127.0.0.1:port, or returns nil
// when it is not installed.
func qstatNow(t *testing.T, flag string, port int) *prototest.QstatServer {
	t.Helper()
	if !haveQstat(t) {
		return nil
	}
	qs := prototest.QstatJSON(t, flag, loopback(port))
	return &qs
}

func loopback(port int) netip.AddrPort {
	return netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(port))
}

// exporterClient probes through the exporter under test.
type exporterClient struct {
	base string
	c    *http.Client
}

func clientOf(e *testenv.Exporter) exporterClient {
	return exporterClient{e.Base, &http.Client{Timeout: 10 * time.Second}}
}

// get asks /probe for module and 127.0.0.1:port with extra parameters. The scrape
// timeout header gives the probe 2 s (the default --timeout-offset is 0.5).
func (e exporterClient) get(module string, port int, extra url.Values) ([]byte, error) {
	q := url.Values{"module": {module}, "target": {loopback(port).String()}}
	for k, v := range extra {
		q[k] = v
	}
	req, err := http.NewRequest(http.MethodGet, e.base+"/probe?"+q.Encode(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Prometheus-Scrape-Timeout-Seconds", "2.5")
	req.Header.Set("Accept", "text/plain;version=0.0.4")
	resp, err := e.c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("HTTP %s: %s", resp.Status, body)
	}
	return body, err
}

// probe runs one probe and parses the exposition.
func (e exporterClient) probe(module string, port int) (probeResult, error) {
	body, err := e.get(module, port, nil)
	if err != nil {
		return probeResult{}, err
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		return probeResult{}, fmt.Errorf("parsing the exposition: %v\n%s", err, body)
	}
	return probeResult{fams: fams, body: string(body)}, nil
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

// decoded returns the decoded reply from the probe's debug output (debug=true):
// the "KEY = VALUE" lines of the info reply and the "rule KEY = VALUE" lines.
// Within --probe.min-interval of the module's last probe it is that probe's
// reply; otherwise a new probe, which must succeed.
func (e exporterClient) decoded(t *testing.T, module string, port int) decodedReply {
	t.Helper()
	body, err := e.get(module, port, url.Values{"debug": {"true"}})
	if err != nil {
		t.Fatalf("debug output: %v", err)
	}
	d := decodedReply{info: map[string]string{}, rules: map[string]string{}}
	in := false
	for sc := bufio.NewScanner(bytes.NewReader(body)); sc.Scan(); {
		switch line := sc.Text(); {
		case line == "Decoded reply:":
			in = true
		case in && line == "":
			return d
		case in && !strings.HasPrefix(line, "  player ") && !strings.HasPrefix(line, "  mod ") && !strings.HasPrefix(line, "  phase "):
			to := d.info
			if rule, ok := strings.CutPrefix(line, "  rule "); ok {
				to, line = d.rules, rule
			}
			k, v, ok := strings.Cut(strings.TrimPrefix(line, "  "), " = ")
			if uq, err := strconv.Unquote(v); ok && err == nil {
				to[k] = uq
			}
		}
	}
	t.Fatalf("no decoded reply in the debug output:\n%s", body)
	return decodedReply{}
}

// probeResult is one parsed /probe answer.
type probeResult struct {
	fams map[string]*dto.MetricFamily
	body string
}

// value returns the value of a metric with a single series.
func (r probeResult) value(name string) (float64, bool) {
	if f := r.fams[name]; f != nil && len(f.Metric) == 1 {
		return metricValue(f.Metric[0]), true
	}
	return 0, false
}

// metric is value's value, 0 when absent.
func (r probeResult) metric(name string) float64 {
	v, _ := r.value(name)
	return v
}

// metricValue is a text exposition's series value: one of the three is set.
func metricValue(m *dto.Metric) float64 {
	return m.GetGauge().GetValue() + m.GetCounter().GetValue() + m.GetUntyped().GetValue()
}

func labels(m *dto.Metric) map[string]string {
	out := map[string]string{}
	for _, l := range m.Label {
		out[l.GetName()] = l.GetValue()
	}
	return out
}

// want checks a single-series metric's value.
func (r probeResult) want(t *testing.T, name string, want float64) {
	t.Helper()
	if v, ok := r.value(name); !ok || v != want {
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
func (r probeResult) series(name string) map[string]float64 {
	out := map[string]float64{}
	for _, m := range r.fams[name].GetMetric() {
		out[labels(m)["player"]] = metricValue(m)
	}
	return out
}

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
func (r probeResult) info() map[string]string {
	if f := r.fams["gameserver_info"]; f != nil && len(f.Metric) == 1 {
		return labels(f.Metric[0])
	}
	return nil
}

// failure says why a probe failed, from probe_failure_info.
func (r probeResult) failure() string {
	if m := r.fams["probe_failure_info"].GetMetric(); len(m) > 0 {
		return labels(m[0])["reason"]
	}
	return "no probe_failure_info"
}

// checkUp checks what every successful probe reports: no failure, every query
// phase successful, and the query port.
func (r probeResult) checkUp(t *testing.T, queryPort int) {
	t.Helper()
	bots, hasBots := r.value("gameserver_bots")
	t.Logf("exporter: %v, players %v/%v, bots %v (reported: %v)", r.info(), r.metric("gameserver_players"), r.metric("gameserver_players_max"), bots, hasBots)
	r.want(t, "probe_success", 1)
	r.want(t, "gameserver_query_port", float64(queryPort))
	phases := r.fams["gameserver_query_phase_success"].GetMetric()
	if _, failed := r.fams["probe_failure_info"]; failed || len(phases) == 0 {
		t.Errorf("probe_failure_info, or no gameserver_query_phase_success, on a successful probe:\n%s", r.body)
	}
	for _, m := range phases {
		if metricValue(m) != 1 {
			t.Errorf("phase %v failed:\n%s", labels(m), r.body)
		}
	}
}

// checkInfo checks gameserver_info's labels against want.
func (r probeResult) checkInfo(t *testing.T, want map[string]string) {
	t.Helper()
	info := r.info()
	if info == nil {
		t.Errorf("no single gameserver_info series:\n%s", r.body)
	}
	for k, v := range want {
		if info[k] != v {
			t.Errorf("gameserver_info %s=%q, want %q (all: %v)", k, info[k], v, info)
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
		t.Errorf("quakestat %+v, exporter:\n%s", *qs, r.body)
	}
}
