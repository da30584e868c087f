package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// promAPI is a minimal client of Prometheus' HTTP API.
type promAPI struct {
	base string
	c    *http.Client
}

type promSample struct {
	Metric map[string]string
	Value  float64
}

func (p promAPI) get(path string, q url.Values, v any) error {
	resp, err := p.c.Get(p.base + path + "?" + q.Encode())
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return err
	}
	var env struct {
		Status string
		Error  string
		Data   json.RawMessage
	}
	if err := json.Unmarshal(b, &env); err != nil {
		return fmt.Errorf("%s: HTTP %d: %v: %.200s", path, resp.StatusCode, err, b)
	}
	if env.Status != "success" {
		return fmt.Errorf("%s: %s", path, env.Error)
	}
	return json.Unmarshal(env.Data, v)
}

// query runs an instant PromQL query and returns its vector.
func (p promAPI) query(q string) ([]promSample, error) {
	var data struct {
		ResultType string
		Result     []struct {
			Metric map[string]string
			Value  [2]any
		}
	}
	if err := p.get("/api/v1/query", url.Values{"query": {q}}, &data); err != nil {
		return nil, err
	}
	if data.ResultType != "vector" {
		return nil, fmt.Errorf("query %s: result type %s", q, data.ResultType)
	}
	out := make([]promSample, 0, len(data.Result))
	for _, r := range data.Result {
		s, _ := r.Value[1].(string)
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("query %s: value %v", q, r.Value)
		}
		out = append(out, promSample{r.Metric, v})
	}
	return out, nil
}

// value runs q and returns its single value; ok is false when there is not
// exactly one series. desc says what was seen.
func (p promAPI) value(q string) (v float64, ok bool, desc string) {
	s, err := p.query(q)
	switch {
	case err != nil:
		return 0, false, err.Error()
	case len(s) != 1:
		return 0, false, fmt.Sprintf("%s: %d series %v", q, len(s), s)
	}
	return s[0].Value, true, fmt.Sprintf("%s = %v", q, s[0].Value)
}

type promAlert struct {
	Labels map[string]string
	State  string
}

func (p promAPI) alerts() ([]promAlert, error) {
	var data struct{ Alerts []promAlert }
	err := p.get("/api/v1/alerts", nil, &data)
	return data.Alerts, err
}

// targets summarises /api/v1/targets, for failure messages.
func (p promAPI) targets() string {
	var data struct {
		ActiveTargets []struct {
			ScrapePool string
			ScrapeURL  string
			Health     string
			LastError  string
		}
	}
	if err := p.get("/api/v1/targets", nil, &data); err != nil {
		return err.Error()
	}
	var b strings.Builder
	for _, tg := range data.ActiveTargets {
		fmt.Fprintf(&b, "\n  %s %s %s %s", tg.ScrapePool, tg.Health, tg.ScrapeURL, tg.LastError)
	}
	return b.String()
}

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
	if err := os.WriteFile(rulesPath, rules, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg["rule_files"] = []string{rulesPath}

	if len(s.fileSD) > 0 {
		if err := os.MkdirAll(filepath.Join(dir, "targets"), 0o755); err != nil {
			t.Fatal(err)
		}
		b, err := yaml.Marshal(s.fileSD)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "targets", "e2e.yml"), b, 0o644); err != nil {
			t.Fatal(err)
		}
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
	b, err := yaml.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// startPrometheus runs Debian's prometheus on a free loopback port with the
// config at cfg and waits until it is ready.
func startPrometheus(t *testing.T, bin, cfg string) promAPI {
	t.Helper()
	port := freePort(t, "tcp")
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	p := startProc(t, "prometheus", filepath.Dir(cfg), nil, bin,
		"--config.file="+cfg,
		"--storage.tsdb.path="+filepath.Join(t.TempDir(), "tsdb"),
		"--web.listen-address="+addr,
		"--log.level=warn")
	api := promAPI{base: "http://" + addr, c: &http.Client{Timeout: 10 * time.Second}}
	waitFor(t, 90*time.Second, "prometheus to be ready", func() (bool, string) {
		if p.exited() {
			t.Fatalf("prometheus exited: %v\n%s", p.err, p.tail(3000))
		}
		return httpOK(api.c, api.base+"/-/ready")
	})
	return api
}

// startExporter runs the built exporter on a free loopback port and waits for it.
func startExporter(t *testing.T, args ...string) string {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t, "tcp"))
	p := startProc(t, "exporter", t.TempDir(), nil, append([]string{exporterBinary(t), "--web.listen-address=" + addr}, args...)...)
	c := &http.Client{Timeout: 5 * time.Second}
	waitFor(t, 60*time.Second, "the exporter to be ready", func() (bool, string) {
		if p.exited() {
			t.Fatalf("exporter exited: %v\n%s", p.err, p.tail(3000))
		}
		return httpOK(c, "http://"+addr+"/-/ready")
	})
	return addr
}

func httpOK(c *http.Client, u string) (bool, string) {
	resp, err := c.Get(u)
	if err != nil {
		return false, err.Error()
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK, resp.Status
}
