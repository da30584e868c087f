package collector

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestSLOMetrics: every answered probe request counts once in probes_total under
// its module and result, and once in the module's duration histogram; requests
// refused before probing count in neither, and no label names a target. A
// module's success series exists from its first probe, so its ratio is 0, not
// absent, while it only fails.
func TestSLOMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	ok := &prototest.FakeQuerier{Result: &protocols.Result{}}
	bad := &prototest.FakeQuerier{Err: fmt.Errorf("%w: reply of 3 bytes", wire.ErrTruncated)}
	mods := map[string]*config.Module{"up": {Protocol: "fake"}, "down": {Protocol: "fake"}}
	for name, q := range map[string]protocols.Querier{"up": ok, "down": bad} {
		compile(t, mods[name], fakeProtocol(q))
	}
	r := newTestRunner(t, nil, mods)
	r.Metrics = NewMetrics(reg)
	r.MinInterval = time.Minute // the third probe of 127.0.0.1 is a cached answer: it counts too
	for _, target := range []string{"127.0.0.1", "127.0.0.2", "127.0.0.1"} {
		run(t, r, "up", target, "")
	}
	run(t, r, "down", "127.0.0.3", "")
	requestError(t, r, "nope", "127.0.0.1", "")
	requestError(t, r, "up", "a/b", "")

	want := `
# HELP gameserver_exporter_probes_total Probe requests answered, by module and result: success or the failure reason.
# TYPE gameserver_exporter_probes_total counter
gameserver_exporter_probes_total{module="down",result="success"} 0
gameserver_exporter_probes_total{module="down",result="truncated"} 1
gameserver_exporter_probes_total{module="up",result="success"} 3
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "gameserver_exporter_probes_total"); err != nil {
		t.Error(err)
	}
	if ok.Calls() != 2 {
		t.Errorf("%d queries of module up, want 2 (the third answered from the cache)", ok.Calls())
	}

	// One duration histogram per module, the module its only label; a native
	// histogram (schema and zero threshold set) beside the classic one, for
	// scrapers that negotiate protobuf.
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var hists []string
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			if h := m.GetHistogram(); mf.GetName() == "gameserver_exporter_probe_duration_seconds" {
				var labels []string
				for _, l := range m.GetLabel() {
					labels = append(labels, l.GetName()+"="+l.GetValue())
				}
				hists = append(hists, fmt.Sprintf("%v: %d observations, %d buckets, native %v, time spent %v",
					labels, h.GetSampleCount(), len(h.GetBucket()), h.Schema != nil && h.ZeroThreshold != nil, h.GetSampleSum() > 0))
			}
		}
	}
	wantHists := fmt.Sprintf(`[module=down]: 1 observations, %[1]d buckets, native true, time spent true
[module=up]: 3 observations, %[1]d buckets, native true, time spent true`, len(durationBuckets))
	if got := strings.Join(hists, "\n"); got != wantHists {
		t.Errorf("histograms:\n%s\nwant\n%s", got, wantHists)
	}
	if problems, err := testutil.GatherAndLint(reg); err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}
