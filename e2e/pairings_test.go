package e2e

import (
	"encoding/json"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// What the repository ships together is tested together: compose.yml's exporter
// with the modules file it mounts and its Prometheus with examples/prometheus.yml,
// the systemd unit with the modules file its comment installs.

// composeFiles returns the repository files compose.yml's services run with: the
// modules file the exporter's --config.file names and the Prometheus
// configuration, through the services' volumes.
func composeFiles(t *testing.T) (modules, prom string) {
	t.Helper()
	var compose struct {
		Services map[string]struct {
			Command []string
			Volumes []string
		}
	}
	yamlFile(t, filepath.Join(repoRoot(t), "compose.yml"), &compose)
	exp, ok1 := compose.Services["gameserver_exporter"]
	pr, ok2 := compose.Services["prometheus"]
	if !ok1 || !ok2 {
		t.Fatalf("compose.yml: services gameserver_exporter and prometheus, got %v", compose.Services)
	}
	checkFlags(t, "compose.yml: exporter", exp.Command)
	return mounted(t, exp.Volumes, flagValue(exp.Command, "config.file")), mounted(t, pr.Volumes, flagValue(pr.Command, "config.file"))
}

// flagValue is the value of --name=VALUE among args, "" when absent.
func flagValue(args []string, name string) string {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v
		}
	}
	return ""
}

// mounted maps a path inside a container to the repository file a volume
// (host:container[:options], host relative to compose.yml) mounts there.
func mounted(t *testing.T, volumes []string, inside string) string {
	t.Helper()
	if inside == "" {
		t.Fatal("compose.yml: a service without --config.file")
	}
	for _, v := range volumes {
		parts := strings.Split(v, ":")
		if len(parts) < 2 {
			continue
		}
		if rest, ok := strings.CutPrefix(inside, parts[1]); ok && (rest == "" || rest[0] == '/') {
			p := filepath.Join(repoRoot(t), parts[0], rest)
			if _, err := os.Stat(p); err != nil {
				t.Fatalf("compose.yml: %s mounts %s: %v", inside, p, err)
			}
			return p
		}
	}
	t.Fatalf("compose.yml: no volume mounts %s (volumes %v)", inside, volumes)
	return ""
}

// withMaster writes a copy of the modules file with every discovery source
// fetched from master (a loopback fake) every 10s within 2s, and returns its path.
func withMaster(t *testing.T, modules string, master netip.AddrPort) string {
	t.Helper()
	var doc map[string]any
	yamlFile(t, modules, &doc)
	srcs := mapOf(doc["discovery"])
	if len(srcs) == 0 {
		t.Fatalf("%s: no discovery section", modules)
	}
	for name, s := range srcs {
		src := mapOf(s)
		if strOf(src["type"]) != "quake3" || src["url"] != nil || src["preset"] != nil {
			t.Fatalf("%s: source %s: the test fakes a quake3 master only", modules, name)
		}
		src["address"], src["refresh"], src["timeout"] = master.String(), "10s", "2s"
	}
	return writeYAML(t, "modules.yml", doc)
}

// TestComposePairing: compose.yml's Prometheus runs examples/prometheus.yml, and
// its exporter, with the modules file compose mounts, answers every /sd URL of it
// with targets (no 404 source) whose module it knows.
func TestComposePairing(t *testing.T) {
	modules, prom := composeFiles(t)
	if prom != examples(t, "prometheus.yml") {
		t.Fatalf("compose.yml's Prometheus runs %s, not examples/prometheus.yml", prom)
	}
	c, err := config.Load(modules)
	if err != nil {
		t.Fatalf("the modules file compose.yml mounts: %v", err)
	}
	var cfg map[string]any
	yamlFile(t, prom, &cfg)
	urls := map[string][]*url.URL{} // the http_sd_configs URLs by job
	for _, j := range listOf(cfg["scrape_configs"]) {
		job := mapOf(j)
		for _, sd := range listOf(job["http_sd_configs"]) {
			u, err := url.Parse(strOf(mapOf(sd)["url"]))
			if err != nil {
				t.Fatalf("job %v: %v", job["job_name"], err)
			}
			urls[strOf(job["job_name"])] = append(urls[strOf(job["job_name"])], u)
		}
	}
	if len(urls) == 0 {
		t.Fatal("examples/prometheus.yml has no http_sd job")
	}
	server := prototest.Quake3Server(t, "")
	ex := startExporter(t, "--config.file="+withMaster(t, modules, prototest.DPMaster(t, server)))
	for job, us := range urls {
		for _, u := range us {
			src := u.Query().Get("source")
			if c.Discovery[src] == nil {
				t.Errorf("job %s: %s names source %q, which %s has not (known: %v)", job, u, src, modules, c.Discovery.Names())
				continue
			}
			var groups []struct {
				Targets []string
				Labels  map[string]string
			}
			testenv.WaitFor(t, 30*time.Second, "/sd?source="+src, func() (bool, string) {
				code, body := ex.Get(t, u.RequestURI())
				if code == http.StatusNotFound {
					t.Fatalf("job %s: %s: 404", job, u)
				}
				return code == http.StatusOK && json.Unmarshal([]byte(body), &groups) == nil, body
			})
			if len(groups) != 1 || !slices.Equal(groups[0].Targets, []string{server.String()}) {
				t.Errorf("job %s: %s: %+v, want the fake master's server", job, u, groups)
				continue
			}
			if m := groups[0].Labels["__param_module"]; !slices.Contains(c.Names(), m) {
				t.Errorf("job %s: source %s: module %q unknown to %s", job, src, m, modules)
			}
		}
	}
}

// TestSystemdUnit: the unit's ExecStart runs the binary where its comment
// installs it, with known flags, and --config.file names where the comment
// installs a modules file that passes --config.check.
func TestSystemdUnit(t *testing.T) {
	b := readFile(t, examples(t, "systemd", "gameserver_exporter.service"))
	installs := map[string]string{} // destination -> repository source
	var exec []string
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "#"); ok {
			cmd, _, _ := strings.Cut(rest, "#") // the line's own comment
			f := strings.Fields(cmd)
			if len(f) >= 3 && f[0] == "install" {
				dst := f[len(f)-1]
				if strings.HasSuffix(dst, "/") {
					dst += filepath.Base(f[len(f)-2])
				}
				installs[dst] = f[len(f)-2]
			}
		}
		if v, ok := strings.CutPrefix(l, "ExecStart="); ok {
			exec = strings.Fields(v)
		}
	}
	if len(exec) == 0 {
		t.Fatal("no ExecStart")
	}
	if installs[exec[0]] != "gameserver_exporter" {
		t.Errorf("ExecStart runs %s; the comment installs the binary at %v", exec[0], installs)
	}
	checkFlags(t, "ExecStart", exec[1:])
	cf := flagValue(exec[1:], "config.file")
	src, ok := installs[cf]
	if !ok {
		t.Fatalf("ExecStart's --config.file=%s is not where the comment installs a modules file (%v)", cf, installs)
	}
	if out, err := testenv.RunTool(time.Minute, repoRoot(t), exporterBinary(t), "--config.check", "--config.file="+src); err != nil {
		t.Errorf("%s (installed as %s): %v\n%s", src, cf, err, out)
	}
}
