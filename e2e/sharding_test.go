package e2e

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
)

// TestShardingScaleOut is the README's scale-out on loopback: two exporter
// processes and two real Prometheus shards that split 40 fake game servers with a
// hashmod relabeling (what the prometheus-operator's `shards:` writes), each shard
// probing through its own exporter. Every target is scraped by exactly one shard;
// killing one exporter turns only its shard's targets' up to 0: the exporters hold
// no state another depends on.
func TestShardingScaleOut(t *testing.T) {
	endToEnd(t, "two Prometheus and two exporters")
	promBin := testenv.LookTool(t, "prometheus", "prometheus")

	const shards, nTargets = 2, 40
	var targets []string
	for range nTargets {
		targets = append(targets, hytaleFake(t, "OK 1 20\n").String())
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
	for _, tg := range targets {
		if _, ok := owner[tg]; !ok {
			t.Errorf("%s scraped by no shard", tg)
		}
	}
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
	if s, err := proms[1].Query(`up{job="gameservers-shard"} == 0`); err != nil || len(s) != 0 {
		t.Errorf("shard 1 has targets down: %v %v", s, err)
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
