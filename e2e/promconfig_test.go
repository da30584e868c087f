package e2e

import (
	"net/url"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// testPromSetup describes the Prometheus of the end-to-end test.
type testPromSetup struct {
	exporter string              // host:port of the exporter
	static   map[string][]string // probe job of examples/prometheus.yml -> its targets
	fileSD   []fileSDGroup       // targets of the file_sd job
}

type fileSDGroup struct {
	Targets []string          `yaml:"targets"`
	Labels  map[string]string `yaml:"labels"`
}

// writePromConfig writes into dir a copy of examples/prometheus.yml with the
// relabeling kept as it is and only the addresses changed: the probe jobs named in
// s.static get those targets, the file_sd job reads dir/targets/*.yml, every
// __address__ replacement, the http_sd URLs and the exporter's own job point at
// s.exporter, and the intervals drop to 1s. Other jobs are left out. alerts.yml is
// copied with every `for:` shortened to 5s. It returns the config's path.
func writePromConfig(t *testing.T, dir string, s testPromSetup) string {
	t.Helper()
	root := repoRoot(t)
	var cfg map[string]any
	yamlFile(t, filepath.Join(root, "examples", "prometheus.yml"), &cfg)
	cfg["global"] = map[string]any{"scrape_interval": "1s", "scrape_timeout": "1s", "evaluation_interval": "1s"}

	rules := readFile(t, filepath.Join(root, "examples", "alerts.yml"))
	forRE := regexp.MustCompile(`(?m)^(\s+for:\s*)\S+\s*$`)
	if len(forRE.FindAll(rules, -1)) == 0 {
		t.Fatal("alerts.yml: no `for:` to shorten")
	}
	rules = forRE.ReplaceAll(rules, []byte("${1}5s"))
	rulesPath := filepath.Join(dir, "alerts.yml")
	prototest.WriteFile(t, rulesPath, string(rules))
	cfg["rule_files"] = []string{rulesPath}
	writeYAMLTo(t, filepath.Join(dir, "targets", "e2e.yml"), s.fileSD)

	var jobs []any
	for _, j := range listOf(cfg["scrape_configs"]) {
		job := mapOf(j)
		name := strOf(job["job_name"])
		delete(job, "scrape_interval") // the global 1s
		delete(job, "scrape_timeout")
		switch {
		case strOf(job["metrics_path"]) != "/probe": // the exporter's own metrics
			job["static_configs"] = []any{map[string]any{"targets": []string{s.exporter}}}
		case job["file_sd_configs"] != nil:
			job["file_sd_configs"] = []any{map[string]any{"files": []string{filepath.Join(dir, "targets", "*.yml")}, "refresh_interval": "1s"}}
		case job["http_sd_configs"] != nil:
			for _, c := range listOf(job["http_sd_configs"]) {
				sd := mapOf(c)
				u, err := url.Parse(strOf(sd["url"]))
				if err != nil {
					t.Fatalf("job %s: %v", name, err)
				}
				u.Host = s.exporter
				sd["url"], sd["refresh_interval"] = u.String(), "1s"
			}
		case s.static[name] != nil:
			sc := listOf(job["static_configs"])
			if len(sc) == 0 {
				t.Fatalf("job %s has no static_configs", name)
			}
			first := mapOf(sc[0])
			first["targets"] = s.static[name]
			job["static_configs"] = []any{first}
		default:
			continue
		}
		if strOf(job["metrics_path"]) == "/probe" {
			if err := checkProbeRelabel(job); err != nil {
				t.Fatalf("examples/prometheus.yml job %s: %v", name, err)
			}
			for _, r := range listOf(job["relabel_configs"]) {
				if rc := mapOf(r); strOf(rc["target_label"]) == "__address__" {
					rc["replacement"] = s.exporter
				}
			}
		}
		jobs = append(jobs, job)
	}
	cfg["scrape_configs"] = jobs
	p := writeYAMLTo(t, filepath.Join(dir, "prometheus.yml"), cfg)
	testenv.CheckConfig(t, p)
	return p
}
