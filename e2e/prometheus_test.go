package e2e

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestPrometheusEndToEnd runs the exporter, a real OpenArena server, fakes (two
// Hytale, one Quake 3, a dpmaster listing it and OpenArena) and a real Prometheus
// configured from examples/, all on 127.0.0.1; it checks what Prometheus stores
// against quakestat, the discovered job's targets, then stops the game server
// and waits for GameServerDown.
func TestPrometheusEndToEnd(t *testing.T) {
	endToEnd(t, "real servers and Prometheus")
	promBin := testenv.LookTool(t, "prometheus", "prometheus")
	qstat := testenv.LookTool(t, "quakestat", "qstat")

	oaPort := testenv.ServerPort(t, 1)
	oaAddr := fmt.Sprintf("127.0.0.1:%d", oaPort)
	game := startOpenArena(t, oaPort)
	fake := prototest.Quake3Server(t, "")
	master := prototest.DPMaster(t, loopback(oaPort), fake)

	// The exporter, with the modules file compose.yml mounts (module openarena, and
	// the source community_oa, here asking master). ioquake3 answers one query a
	// second per source address (after a burst of 10); three jobs (two modules)
	// probe it every second, each probe two queries with bots on the server
	// (getstatus, getinfo): --probe.min-interval=5s serves the scrapes in between
	// from the cache, within the server's limit. A 1s scrape leaves the probe 0.9s.
	modules, _ := composeFiles(t)
	exporter := startExporter(t, "--config.file="+withMaster(t, modules, master),
		"--timeout-offset=0.1", "--probe.min-interval=5s").Addr

	// Hytale has no packaged server: fake serverlistping plugins, one with room and
	// one full (for GameServerFull).
	hytaleOK := prototest.HytaleServer(t, 3, 20)
	hytaleFull := prototest.HytaleServer(t, 20, 20)

	cfg := writePromConfig(t, t.TempDir(), testPromSetup{
		exporter: exporter,
		static: map[string][]string{
			"gameservers-quake3": {oaAddr},
			"gameservers-hytale": {hytaleOK.String()},
		},
		fileSD: []fileSDGroup{
			{Targets: []string{oaAddr}, Labels: map[string]string{"module": "openarena", "title": "openarena"}},
			{Targets: []string{hytaleFull.String()}, Labels: map[string]string{"module": "hytale", "title": "hytale"}},
		},
	})
	// The game server answers quakestat before Prometheus starts scraping it.
	testenv.WaitEvery(t, time.Second, 90*time.Second, "OpenArena to answer quakestat", func() (bool, string) {
		game.FailIfExited(t)
		s, err := quakestat(qstat, "-q3s", "127.0.0.2", oaAddr)
		if err != nil {
			return false, err.Error()
		}
		return s.Status == "online", fmt.Sprintf("%+v", s)
	})
	prom := testenv.StartPrometheus(t, promBin, cfg)
	q3 := fmt.Sprintf(`{job="gameservers-quake3", instance=%q}`, oaAddr)
	prom.WaitValue(t, 60*time.Second, "probe_success"+q3, 1)

	// Bots join within a few seconds: poll until quakestat (humans plus bots),
	// asked before and after Prometheus, agrees with the latest sample and lists
	// every bot; from other loopback addresses than the exporter's, each with its
	// own rate limit at the server, every 2.5s to stay within it.
	var players float64
	testenv.WaitEvery(t, 2500*time.Millisecond, 120*time.Second, "gameserver_players + gameserver_bots to equal quakestat's count", func() (bool, string) {
		before, err := quakestat(qstat, "-q3s", "127.0.0.2", oaAddr)
		if err != nil {
			return false, err.Error()
		}
		v, ok, desc := prom.Value("gameserver_players" + q3 + " + gameserver_bots" + q3)
		after, err := quakestat(qstat, "-q3s", "127.0.0.3", oaAddr)
		if err != nil {
			return false, err.Error()
		}
		players = v
		seen := fmt.Sprintf("quakestat %d then %d players (%v); prometheus %s", before.NumPlayers, after.NumPlayers, after.playerNames(), desc)
		return ok && before.NumPlayers == after.NumPlayers && float64(after.NumPlayers) == v &&
			slices.Equal(after.playerNames(), openArenaBots), seen
	})

	for q, want := range map[string]float64{
		"gameserver_players_max" + q3: openArenaMax,
		"gameserver_players" + q3:     0, // every client is a bot
		"gameserver_bots" + q3:        float64(len(openArenaBots)),
		`count(gameserver_info{job="gameservers-quake3", name="` + openArenaName + `", map="oa_dm1", protocol="quake3"})`: 1,
		`gameserver_players{job="gameservers-hytale"}`:                                                                    3,
		`gameserver_players_max{job="gameservers-hytale"}`:                                                                20,
		`probe_success{job="gameservers-hytale"}`:                                                                         1,
		fmt.Sprintf(`probe_success{job="gameservers-file-sd", module="openarena", instance=%q}`, oaAddr):                  1,
		`probe_success{job="gameservers-file-sd", module="hytale"}`:                                                       1,
		// module openarena (examples/modules.yml) sets players: true: one series per player.
		fmt.Sprintf(`count(gameserver_player_score{job="gameservers-file-sd", instance=%q})`, oaAddr):          players,
		fmt.Sprintf(`count(gameserver_player_info{job="gameservers-file-sd", instance=%q})`, oaAddr):           players,
		`gameserver_exporter_config_last_reload_successful{job="gameserver_exporter"}`:                         1,
		`gameserver_discovery_targets{job="gameserver_exporter", source="community_oa"}`:                       2,
		fmt.Sprintf(`up{job="gameservers-discovered", instance=%q, source="community_oa"}`, oaAddr):            1,
		fmt.Sprintf(`probe_success{job="gameservers-discovered", instance=%q, source="community_oa"}`, oaAddr): 1,
		fmt.Sprintf(`up{job="gameservers-discovered", instance=%q, source="community_oa"}`, fake):              1,
		fmt.Sprintf(`probe_success{job="gameservers-discovered", instance=%q, source="community_oa"}`, fake):   1,
	} {
		prom.WaitValue(t, 30*time.Second, q, want)
	}
	// The operator's target labels (examples/targets: module, title, owner) must not
	// collide with the exporter's own: Prometheus would rename ours to exported_*.
	all, err := prom.Query(`{__name__=~"gameserver_.+|probe_.+", job=~"gameservers.*"}`)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		for k := range s.Metric {
			if strings.HasPrefix(k, "exported_") {
				t.Errorf("label %s on %v: a target label collides with the exporter's", k, s.Metric)
			}
		}
	}
	if info, _ := prom.Query(fmt.Sprintf(`gameserver_info{job="gameservers-file-sd", instance=%q}`, oaAddr)); len(info) == 0 || info[0].Metric["title"] != "openarena" || info[0].Metric["game"] == "openarena" {
		t.Errorf("gameserver_info must keep the server's game and the operator's title: %v", info)
	}
	// The names Prometheus has are those quakestat lists.
	testenv.WaitEvery(t, 2500*time.Millisecond, 60*time.Second, "player series to match quakestat's players", func() (bool, string) {
		series, err := prom.Query(fmt.Sprintf(`gameserver_player_score{job="gameservers-file-sd", instance=%q}`, oaAddr))
		if err != nil {
			return false, err.Error()
		}
		var got []string
		for _, s := range series {
			got = append(got, s.Metric["player"])
		}
		slices.Sort(got)
		qs, err := quakestat(qstat, "-q3s", "127.0.0.2", oaAddr)
		if err != nil {
			return false, err.Error()
		}
		want := qs.playerNames()
		return slices.Equal(got, want), fmt.Sprintf("prometheus %v, quakestat %v", got, want)
	})

	// The full fake Hytale server raises GameServerFull (for: shortened to 5s).
	waitForAlert(t, prom, "GameServerFull", hytaleFull.String(), "firing")

	// Stop the game server: the probe fails and GameServerDown goes pending (then firing).
	game.Stop()
	prom.WaitValue(t, 60*time.Second, "probe_success"+q3, 0)
	waitForAlert(t, prom, "GameServerDown", oaAddr, "pending", "firing")

	// Neither the healthy fake server nor the exporter's config raise an alert.
	alerts, err := prom.Alerts()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range alerts {
		n := a.Labels["alertname"]
		if (a.Labels["instance"] == hytaleOK.String() && (n == "GameServerDown" || n == "GameServerFull")) || n == "ExporterReloadFailed" {
			t.Errorf("unexpected alert %v (%s)", a.Labels, a.State)
		}
	}

	// The server stayed on the LAN: it never looked up a master server.
	if log := game.Tail(1 << 20); strings.Contains(log, "Resolving ") || strings.Contains(strings.ToLower(log), "heartbeat") {
		t.Errorf("openarena-server contacted a master server:\n%s", log)
	}
}

// waitForAlert waits until alert name for instance is in one of states.
func waitForAlert(t *testing.T, prom *testenv.Prometheus, name, instance string, states ...string) string {
	t.Helper()
	return testenv.WaitFor(t, 60*time.Second, fmt.Sprintf("alert %s for %s in state %v", name, instance, states), func() (bool, string) {
		alerts, err := prom.Alerts()
		if err != nil {
			return false, err.Error()
		}
		var seen []string
		for _, a := range alerts {
			seen = append(seen, fmt.Sprintf("%s{instance=%s}=%s", a.Labels["alertname"], a.Labels["instance"], a.State))
			if a.Labels["alertname"] == name && a.Labels["instance"] == instance && slices.Contains(states, a.State) {
				return true, strings.Join(seen, " ")
			}
		}
		return false, fmt.Sprintf("alerts: %v", seen)
	})
}

// qstatServer is quakestat's -json record with -P.
type qstatServer struct{ prototest.QstatRecord }

func (s qstatServer) playerNames() []string {
	var out []string
	for _, p := range s.Players {
		out = append(out, p.Name)
	}
	slices.Sort(out)
	return out
}

// quakestat asks qstat (protocol flag: -q3s, -nexuizs) for addr's status and
// players, sending from srcIP (a loopback address) so that the server's
// per-address rate limit counts its queries apart from the exporter's (127.0.0.1).
func quakestat(bin, flag, srcIP, addr string) (qstatServer, error) {
	out, err := testenv.RunTool(20*time.Second, "", bin, "-json", "-timeout", "3", "-srcip", srcIP, "-P", flag, addr)
	if err != nil {
		return qstatServer{}, fmt.Errorf("quakestat: %v: %s", err, out)
	}
	var recs []qstatServer
	if err := json.Unmarshal([]byte(out), &recs); err != nil {
		return qstatServer{}, fmt.Errorf("quakestat output %q: %v", out, err)
	}
	if len(recs) != 1 { // qstat prints [] when the server did not answer in time
		return qstatServer{}, fmt.Errorf("quakestat from %s: no answer within 3s (%q)", srcIP, out)
	}
	return recs[0], nil
}

// TestShardingScaleOut is the README's scale-out on loopback: two Prometheus
// shards split 40 fake game servers with a hashmod relabeling (what the
// prometheus-operator's `shards:` writes), each probing through its own exporter.
// Every target is scraped by one shard; killing one exporter downs only its
// shard's targets: the exporters hold no state another depends on.
func TestShardingScaleOut(t *testing.T) {
	endToEnd(t, "two Prometheus and two exporters")
	promBin := testenv.LookTool(t, "prometheus", "prometheus")

	const shards, nTargets = 2, 40
	var targets []string
	for range nTargets {
		targets = append(targets, prototest.HytaleServer(t, 1, 20).String())
	}
	var exporters []*testenv.Exporter
	var proms []*testenv.Prometheus
	for i := range shards {
		exporters = append(exporters, startExporter(t, "--timeout-offset=0.1"))
		proms = append(proms, testenv.StartPrometheus(t, promBin, writeShardConfig(t, i, shards, exporters[i].Addr, targets)))
	}

	// Each shard's targets, once every target of every shard has been scraped
	// successfully: the union is all 40, the shards disjoint, neither empty.
	owner := map[string]int{}
	testenv.WaitFor(t, 90*time.Second, "every shard to scrape its targets", func() (bool, string) {
		clear(owner)
		var seen []string
		for i, p := range proms {
			s, err := p.Query(`up{job="gameservers-shard"}`)
			if err != nil {
				return false, err.Error()
			}
			for _, x := range s {
				inst := x.Metric["instance"]
				if x.Value != 1 {
					return false, fmt.Sprintf("shard %d: %s up %v", i, inst, x.Value)
				}
				if o, dup := owner[inst]; dup {
					t.Fatalf("%s scraped by shard %d and shard %d", inst, o, i)
				}
				owner[inst] = i
			}
			seen = append(seen, fmt.Sprintf("shard %d: %d targets", i, len(s)))
		}
		return len(owner) == nTargets, strings.Join(seen, ", ")
	})
	count := make([]int, shards)
	for _, o := range owner {
		count[o]++
	}
	if slices.Contains(count, 0) {
		t.Fatalf("targets per shard %v: hashmod left a shard empty", count)
	}
	t.Logf("targets per shard: %v", count)
	// The probes succeeded: each shard's exporter answered for its targets.
	for i, p := range proms {
		if v, ok, desc := p.Value(`count(probe_success{job="gameservers-shard"} == 1)`); !ok || int(v) != count[i] {
			t.Errorf("shard %d: %s, want %d", i, desc, count[i])
		}
	}

	// Kill exporter 0: shard 0's targets go down, shard 1's stay up.
	exporters[0].Stop()
	proms[0].WaitValue(t, 60*time.Second, `count(up{job="gameservers-shard"} == 0)`, float64(count[0]))
	// Shard 1 scraped its targets after the kill too (a fresh sample each), all up.
	killed := time.Now()
	testenv.WaitFor(t, 30*time.Second, "shard 1 to scrape after the kill", func() (bool, string) {
		s, err := proms[1].Query(`timestamp(up{job="gameservers-shard"})`)
		if err != nil {
			return false, err.Error()
		}
		for _, x := range s {
			if x.Value < float64(killed.Unix()+1) {
				return false, fmt.Sprintf("%s last scraped at %v", x.Metric["instance"], x.Value)
			}
		}
		return len(s) == count[1], fmt.Sprintf("%d series", len(s))
	})
	if v, ok, desc := proms[1].Value(`count(up{job="gameservers-shard"} == 1)`); !ok || int(v) != count[1] {
		t.Errorf("shard 1 after exporter 0 died: %s, want all %d up", desc, count[1])
	}
}

// writeShardConfig writes shard i of n's Prometheus config: every target listed,
// hashmod of the address keeping this shard's, probed through exporter.
func writeShardConfig(t *testing.T, i, n int, exporter string, targets []string) string {
	t.Helper()
	sorted := slices.Clone(targets)
	sort.Strings(sorted)
	cfg := map[string]any{
		"global": map[string]any{"scrape_interval": "1s", "scrape_timeout": "1s", "evaluation_interval": "1s"},
		"scrape_configs": []any{map[string]any{
			"job_name":       "gameservers-shard",
			"metrics_path":   "/probe",
			"params":         map[string]any{"module": []string{"hytale"}},
			"static_configs": []any{map[string]any{"targets": sorted}},
			"relabel_configs": []any{
				map[string]any{"source_labels": []string{"__address__"}, "modulus": n, "target_label": "__tmp_hash", "action": "hashmod"},
				map[string]any{"source_labels": []string{"__tmp_hash"}, "regex": fmt.Sprint(i), "action": "keep"},
				map[string]any{"source_labels": []string{"__address__"}, "target_label": "__param_target"},
				map[string]any{"source_labels": []string{"__param_target"}, "target_label": "instance"},
				map[string]any{"target_label": "__address__", "replacement": exporter},
			},
		}},
	}
	p := writeYAML(t, "prometheus.yml", cfg)
	testenv.CheckConfig(t, p)
	return p
}
