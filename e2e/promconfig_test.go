package e2e

import (
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// testPromSetup describes the Prometheus of the end-to-end test.
type testPromSetup struct {
	exporter string              // host:port of the exporter
	httpSD   bool                // keep the http_sd job, asking the exporter
	static   map[string][]string // probe job of examples/prometheus.yml -> its targets
	fileSD   []fileSDGroup       // targets of the file_sd job
	forTime  string              // replaces every alert's `for`
}

type fileSDGroup struct {
	Targets []string          `yaml:"targets"`
	Labels  map[string]string `yaml:"labels"`
}

// writePromConfig writes into dir a copy of examples/prometheus.yml with the
// relabeling kept as it is and only the addresses changed: the probe jobs named in
// s.static get those targets, the file_sd job reads dir/targets/*.yml, every
// __address__ replacement and the exporter's own job point at s.exporter, and the
// intervals drop to 1s. Other jobs are left out. alerts.yml is copied with every
// `for:` shortened to s.forTime. It returns the config's path.
func writePromConfig(t *testing.T, dir string, s testPromSetup) string {
	t.Helper()
	root := repoRoot(t)
	var cfg map[string]any
	yamlFile(t, filepath.Join(root, "examples", "prometheus.yml"), &cfg)
	cfg["global"] = map[string]any{"scrape_interval": "1s", "scrape_timeout": "1s", "evaluation_interval": "1s"}

	rules, err := os.ReadFile(filepath.Join(root, "examples", "alerts.yml"))
	if err != nil {
		t.Fatal(err)
	}
	forRE := regexp.MustCompile(`(?m)^(\s+for:\s*)\S+\s*$`)
	if len(forRE.FindAll(rules, -1)) == 0 {
		t.Fatal("alerts.yml: no `for:` to shorten")
	}
	rules = forRE.ReplaceAll(rules, []byte("${1}"+s.forTime))
	rulesPath := filepath.Join(dir, "alerts.yml")
	prototest.WriteFile(t, rulesPath, string(rules))
	cfg["rule_files"] = []string{rulesPath}
	if len(s.fileSD) > 0 {
		writeYAMLTo(t, filepath.Join(dir, "targets", "e2e.yml"), s.fileSD)
	}

	var jobs []any
	seen := map[string]bool{}
	for _, j := range listOf(cfg["scrape_configs"]) {
		job := mapOf(j)
		name := strOf(job["job_name"])
		delete(job, "scrape_interval") // the global 1s
		delete(job, "scrape_timeout")
		switch {
		case strOf(job["metrics_path"]) != "/probe": // the exporter's own metrics
			job["static_configs"] = []any{map[string]any{"targets": []string{s.exporter}}}
		case job["file_sd_configs"] != nil:
			if len(s.fileSD) == 0 {
				continue
			}
			job["file_sd_configs"] = []any{map[string]any{"files": []string{filepath.Join(dir, "targets", "*.yml")}, "refresh_interval": "1s"}}
		case job["http_sd_configs"] != nil:
			if !s.httpSD {
				continue
			}
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
		seen[name] = true
		jobs = append(jobs, job)
	}
	for name := range s.static {
		if !seen[name] {
			t.Fatalf("examples/prometheus.yml has no job %s", name)
		}
	}
	cfg["scrape_configs"] = jobs
	p := writeYAMLTo(t, filepath.Join(dir, "prometheus.yml"), cfg)
	testenv.CheckConfig(t, p)
	return p
}
