package e2e

import (
	"slices"
	"strings"
	"testing"
)

// TestPagesOnce: paging_test.yml (TestPromtoolRules runs it) has a test that, at
// one evaluation time, checks every critical alert of alerts.yml and slo.yml and
// expects exactly one, GameServerDown, with a discovered server down beside: a
// critical alert added later must join it, so a down server cannot page twice.
func TestPagesOnce(t *testing.T) {
	var critical []string
	for _, f := range []string{"alerts.yml", "slo.yml"} {
		for _, r := range alertRules(t, f) {
			if r.Labels["severity"] == "critical" {
				critical = append(critical, r.Alert)
			}
		}
	}
	if !slices.Contains(critical, "GameServerDown") {
		t.Fatalf("critical alerts %v: no GameServerDown", critical)
	}
	var tests struct {
		RuleFiles []string `yaml:"rule_files"`
		Tests     []struct {
			InputSeries []struct {
				Series string
			} `yaml:"input_series"`
			AlertRuleTest []struct {
				EvalTime  string `yaml:"eval_time"`
				Alertname string
				ExpAlerts []map[string]any `yaml:"exp_alerts"`
			} `yaml:"alert_rule_test"`
		}
	}
	yamlFile(t, examples(t, "paging_test.yml"), &tests)
	for _, f := range []string{"alerts.yml", "slo.yml"} {
		if !slices.Contains(tests.RuleFiles, f) {
			t.Errorf("paging_test.yml does not load %s", f)
		}
	}
	found := false
	for _, tc := range tests.Tests {
		discovered := slices.ContainsFunc(tc.InputSeries, func(s struct{ Series string }) bool {
			return strings.HasPrefix(s.Series, "probe_success{") && strings.Contains(s.Series, `alerting="off"`)
		})
		checked := map[string]map[string]int{} // eval time -> alert -> expected alerts
		for _, a := range tc.AlertRuleTest {
			if checked[a.EvalTime] == nil {
				checked[a.EvalTime] = map[string]int{}
			}
			checked[a.EvalTime][a.Alertname] = len(a.ExpAlerts)
		}
		for _, got := range checked {
			pages := 0
			all := true
			for _, c := range critical {
				n, ok := got[c]
				all = all && ok
				pages += n
			}
			if all && discovered && pages == 1 && got["GameServerDown"] == 1 {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("paging_test.yml: no test with a discovered (alerting=\"off\") server that checks every critical alert %v at one time and expects exactly one, GameServerDown", critical)
	}
}

// TestDiscoveredJobsAlertNobody: every job that takes its targets from the
// exporter's /sd labels them alerting="off", which every alert skips.
func TestDiscoveredJobsAlertNobody(t *testing.T) {
	var cfg map[string]any
	yamlFile(t, examples(t, "prometheus.yml"), &cfg)
	var jobs int
	for _, j := range listOf(cfg["scrape_configs"]) {
		job := mapOf(j)
		if len(listOf(job["http_sd_configs"])) == 0 {
			continue
		}
		jobs++
		if !setsAlertingOff(listOf(job["relabel_configs"]), "target_label") {
			t.Errorf("prometheus.yml: job %s discovers its targets but does not set alerting=\"off\"", strOf(job["job_name"]))
		}
	}
	var sc map[string]any
	yamlFile(t, examples(t, "kubernetes", "scrapeconfig.yml"), &sc)
	jobs++
	if !setsAlertingOff(listOf(mapOf(sc["spec"])["relabelings"]), "targetLabel") {
		t.Errorf("kubernetes/scrapeconfig.yml does not set alerting=\"off\"")
	}
	if jobs < 2 {
		t.Errorf("prometheus.yml: no job discovers its targets from /sd")
	}
	for _, r := range alertRules(t, "alerts.yml") {
		// The exporter's own alerts (reload, discovery) are about no server.
		if r.Group == "gameservers" && !strings.Contains(r.Expr, `alerting!="off"`) {
			t.Errorf("alerts.yml: %s does not skip alerting=\"off\"", r.Alert)
		}
	}
	// The Grafana-managed rules skip them too (TestGrafanaAlerting).
}

func setsAlertingOff(relabels []any, key string) bool {
	for _, r := range relabels {
		m := mapOf(r)
		if strOf(m[key]) == "alerting" && strOf(m["replacement"]) == "off" {
			return true
		}
	}
	return false
}
