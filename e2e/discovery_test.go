package e2e

import (
	"fmt"
	"net/netip"
	"os/exec"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestPrometheusDiscovery runs a real OpenArena server, a fake Quake 3 server, a
// fake dpmaster listing both, the exporter with compose.yml's modules file (its
// discovery source pointed at that master),
// and a real Prometheus whose gameservers-discovered job (examples/prometheus.yml)
// finds the servers through http_sd_configs on the exporter's /sd: both are
// discovered and scraped, with up and probe_success 1, all on 127.0.0.1.
func TestPrometheusDiscovery(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test with real servers: skipped with -short")
	}
	t.Parallel()
	promBin := lookTool(t, "prometheus", "prometheus")

	oaPort := serverPort(t, 1)
	oaAddr := fmt.Sprintf("127.0.0.1:%d", oaPort)
	game := startOpenArena(t, oaPort)
	fake := prototest.Quake3Server(t, "")

	// The master lists both; the exporter runs with the modules file compose.yml
	// mounts (examples/modules.yml), its source pointed at the fake master.
	master := prototest.DPMaster(t, netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), uint16(oaPort)), fake)
	composeModules, _ := composeFiles(t)
	modules := withMaster(t, composeModules, master)
	// ioquake3 answers about one query a second per address: the cache keeps
	// the scrapes in between off the server (see TestPrometheusEndToEnd).
	exporter := startExporter(t, "--config.file="+modules, "--timeout-offset=0.1", "--probe.min-interval=5s")

	cfg := writePromConfig(t, t.TempDir(), testPromSetup{exporter: exporter, httpSD: true, forTime: "5s"})
	if pt, err := exec.LookPath("promtool"); err == nil {
		if out, err := runTool(time.Minute, "", pt, "check", "config", cfg); err != nil {
			t.Fatalf("generated config: %v\n%s", err, out)
		}
	}
	prom := startPrometheus(t, promBin, cfg)
	diag := func() string { return " targets:" + prom.targets() }
	for _, target := range []string{oaAddr, fake.String()} {
		sel := fmt.Sprintf(`{job="gameservers-discovered", instance=%q, source="community_oa"}`, target)
		for _, m := range []string{"up", "probe_success"} {
			waitFor(t, 90*time.Second, m+sel+" == 1", func() (bool, string) {
				if game.exited() {
					t.Fatalf("openarena-server exited: %v\n%s", game.err, game.tail(3000))
				}
				v, ok, desc := prom.value(m + sel)
				return ok && v == 1, desc + diag()
			})
		}
	}
	waitFor(t, 30*time.Second, "the exporter's discovery metrics", func() (bool, string) {
		v, ok, desc := prom.value(`gameserver_discovery_targets{job="gameserver_exporter", source="community_oa"}`)
		return ok && v == 2, desc
	})
}
