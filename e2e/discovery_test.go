package e2e

import (
	"fmt"
	"net/netip"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestPrometheusDiscovery runs a real OpenArena server, a fake Quake 3 server, a
// fake dpmaster listing both, the exporter with compose.yml's modules file (its
// discovery source pointed at that master), and a real Prometheus whose
// gameservers-discovered job (examples/prometheus.yml) finds the servers through
// http_sd_configs on the exporter's /sd: both are discovered and scraped, with up
// and probe_success 1, all on 127.0.0.1.
func TestPrometheusDiscovery(t *testing.T) {
	endToEnd(t, "real servers and Prometheus")
	promBin := testenv.LookTool(t, "prometheus", "prometheus")
	oaPort := serverPort(t, 1)
	game := startOpenArena(t, oaPort)
	fake := prototest.Quake3Server(t, "")
	master := prototest.DPMaster(t, netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), uint16(oaPort)), fake)
	composeModules, _ := composeFiles(t)
	// ioquake3 answers about one query a second per address: the cache keeps
	// the scrapes in between off the server (see TestPrometheusEndToEnd).
	exporter := startExporter(t, "--config.file="+withMaster(t, composeModules, master), "--timeout-offset=0.1", "--probe.min-interval=5s")
	prom := testenv.StartPrometheus(t, promBin, writePromConfig(t, t.TempDir(), testPromSetup{exporter: exporter.Addr, httpSD: true, forTime: "5s"}))
	for _, target := range []string{loopback(oaPort).String(), fake.String()} {
		sel := fmt.Sprintf(`{job="gameservers-discovered", instance=%q, source="community_oa"}`, target)
		prom.WaitValue(t, 90*time.Second, "up"+sel, 1, game)
		prom.WaitValue(t, 90*time.Second, "probe_success"+sel, 1, game)
	}
	prom.WaitValue(t, 30*time.Second, `gameserver_discovery_targets{job="gameserver_exporter", source="community_oa"}`, 2)
}
