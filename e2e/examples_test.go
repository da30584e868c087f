package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// yamlDocs decodes every document of a (multi-document) YAML file.
func yamlDocs(t testing.TB, path string) []any {
	t.Helper()
	var docs []any
	for dec := yaml.NewDecoder(bytes.NewReader(readFile(t, path))); ; {
		var doc any
		if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
			return docs
		} else if err != nil {
			t.Fatalf("%s: document %d: %v", path, len(docs)+1, err)
		} else if doc != nil {
			docs = append(docs, doc)
		}
	}
}

// yamlFile decodes a single-document YAML file into v.
func yamlFile(t testing.TB, path string, v any) {
	t.Helper()
	if err := yaml.Unmarshal(readFile(t, path), v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// writeYAML writes v as YAML into a temporary file named name and returns its path.
func writeYAML(t testing.TB, name string, v any) string {
	return writeYAMLTo(t, filepath.Join(t.TempDir(), name), v)
}

func writeYAMLTo(t testing.TB, p string, v any) string {
	t.Helper()
	b, err := yaml.Marshal(v)
	if err == nil {
		err = os.MkdirAll(filepath.Dir(p), 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	prototest.WriteFile(t, p, string(b))
	return p
}

func examples(t testing.TB, parts ...string) string {
	return filepath.Join(append([]string{repoRoot(t), "examples"}, parts...)...)
}

// Generic accessors for decoded YAML/JSON.
func mapOf(v any) map[string]any { m, _ := v.(map[string]any); return m }
func listOf(v any) []any         { l, _ := v.([]any); return l }
func strOf(v any) string         { s, _ := v.(string); return s }

func strsOf(v any) []string {
	var out []string
	for _, x := range listOf(v) {
		out = append(out, strOf(x))
	}
	return out
}

func promtool(t testing.TB) string { return testenv.LookTool(t, "promtool", "prometheus") }

func TestPromtoolRules(t *testing.T) {
	pt := promtool(t)
	dir := examples(t)
	for _, args := range [][]string{
		{"check", "rules", "alerts.yml"},
		{"test", "rules", "alerts_test.yml"},
		{"check", "rules", "slo.yml"},
		{"test", "rules", "slo_test.yml"},
		{"test", "rules", "paging_test.yml"},
		{"check", "config", "prometheus.yml"}, // also loads alerts.yml and targets/*.yml
	} {
		out, err := testenv.RunTool(time.Minute, dir, append([]string{pt}, args...)...)
		if err != nil {
			t.Errorf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// TestAlertsTested: every alert of alerts.yml and slo.yml (these at least) has a
// unit test that fires it and one that checks it stays quiet.
func TestAlertsTested(t *testing.T) {
	for rules, want := range map[string][]string{
		"alerts.yml": {"GameServerDown", "GameServerFull", "GameServerQueryFailing", "SatisfactoryNotPlaying", "ExporterReloadFailed"},
		"slo.yml":    {"GameServerProbeErrorBudgetFastBurn", "GameServerProbeErrorBudgetSlowBurn", "GameServerProbeLatencyBudgetFastBurn"},
	} {
		var tests struct {
			Tests []struct {
				AlertRuleTest []struct {
					Alertname string
					ExpAlerts []map[string]any `yaml:"exp_alerts"`
				} `yaml:"alert_rule_test"`
			}
		}
		yamlFile(t, examples(t, strings.TrimSuffix(rules, ".yml")+"_test.yml"), &tests)
		fires, quiet := map[string]bool{}, map[string]bool{}
		for _, tc := range tests.Tests {
			for _, a := range tc.AlertRuleTest {
				fires[a.Alertname] = fires[a.Alertname] || len(a.ExpAlerts) > 0
				quiet[a.Alertname] = quiet[a.Alertname] || len(a.ExpAlerts) == 0
			}
		}
		for _, r := range alertRules(t, rules) {
			if !fires[r.Alert] || !quiet[r.Alert] {
				t.Errorf("%s: alert %s: unit tests fire it: %v, check it stays quiet: %v (want both)", rules, r.Alert, fires[r.Alert], quiet[r.Alert])
			}
		}
		for _, a := range want {
			if !fires[a] {
				t.Errorf("%s: alert %s missing or untested", rules, a)
			}
		}
	}
}

// alertRule is a rule of a Prometheus rules file under examples/.
type alertRule struct {
	Group, Alert, For, Expr string
	Labels                  map[string]string
}

// alertRules are the alerting rules of examples/file.
func alertRules(t testing.TB, file string) []alertRule {
	t.Helper()
	var doc struct {
		Groups []struct {
			Name  string
			Rules []alertRule
		}
	}
	yamlFile(t, examples(t, file), &doc)
	var out []alertRule
	for _, g := range doc.Groups {
		for _, r := range g.Rules {
			if r.Alert != "" {
				r.Group = g.Name
				out = append(out, r)
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no alerts in %s", file)
	}
	return out
}

// TestPrometheusConfigModules: every probe job and file_sd target group names a
// module the exporter knows (built-in or of the modules file compose.yml mounts,
// examples/modules.yml), and every probe job has the blackbox-style relabeling.
func TestPrometheusConfigModules(t *testing.T) {
	modules, _ := composeFiles(t)
	c, err := config.Load(modules)
	if err != nil {
		t.Fatal(err)
	}
	mods := c.Names()
	var cfg map[string]any
	yamlFile(t, examples(t, "prometheus.yml"), &cfg)
	var probeJobs, fileSD int
	for _, j := range listOf(cfg["scrape_configs"]) {
		job := mapOf(j)
		name := strOf(job["job_name"])
		if strOf(job["metrics_path"]) != "/probe" {
			continue
		}
		probeJobs++
		if err := checkProbeRelabel(job); err != nil {
			t.Errorf("job %s: %v", name, err)
		}
		for _, m := range listOf(mapOf(job["params"])["module"]) {
			if !slices.Contains(mods, strOf(m)) {
				t.Errorf("job %s: module %q is neither built in nor in modules.yml (known: %v)", name, m, mods)
			}
		}
		for _, sd := range listOf(job["file_sd_configs"]) {
			for _, pat := range listOf(mapOf(sd)["files"]) {
				files, _ := filepath.Glob(examples(t, strOf(pat)))
				if len(files) == 0 {
					t.Errorf("job %s: file_sd pattern %s matches no file", name, pat)
				}
				for _, f := range files {
					fileSD++
					var groups []struct {
						Targets []string
						Labels  map[string]string
					}
					yamlFile(t, f, &groups)
					for i, g := range groups {
						if m := g.Labels["module"]; !slices.Contains(mods, m) {
							t.Errorf("%s group %d: module label %q unknown (known: %v)", f, i, m, mods)
						}
						if len(g.Targets) == 0 {
							t.Errorf("%s group %d: no targets", f, i)
						}
					}
				}
			}
		}
	}
	if probeJobs < 4 || fileSD == 0 {
		t.Errorf("%d probe jobs and %d file_sd files; want one job per module style and a file_sd job", probeJobs, fileSD)
	}
}

// checkProbeRelabel checks the three blackbox relabel steps of a probe job.
func checkProbeRelabel(job map[string]any) error {
	var target, instance, address bool
	for _, r := range listOf(job["relabel_configs"]) {
		rc := mapOf(r)
		src := fmt.Sprint(rc["source_labels"])
		switch strOf(rc["target_label"]) {
		case "__param_target":
			target = src == "[__address__]"
		case "instance":
			instance = src == "[__param_target]"
		case "__address__":
			address = strOf(rc["replacement"]) != ""
		}
	}
	if !target || !instance || !address {
		return fmt.Errorf("relabeling: __address__->__param_target %v, __param_target->instance %v, exporter->__address__ %v", target, instance, address)
	}
	return nil
}

// grafanaVars are the values substituted for dashboard variables so that every
// expression becomes plain PromQL.
var grafanaVars = map[string]string{"job": ".*", "instance": "127.0.0.1:27960", "datasource": "prometheus",
	"__rate_interval": "5m", "__interval": "5m", "__range": "1h"}

var grafanaVarRE = regexp.MustCompile(`\$\{(\w+)(?::\w+)?\}|\[\[(\w+)\]\]|\$(\w+)`)

// substituteVars replaces $var, ${var} and [[var]]; an unknown variable is an error.
func substituteVars(expr string) (string, error) {
	var bad []string
	out := grafanaVarRE.ReplaceAllStringFunc(expr, func(m string) string {
		sub := grafanaVarRE.FindStringSubmatch(m)
		v, ok := grafanaVars[sub[1]+sub[2]+sub[3]]
		if !ok {
			bad = append(bad, m)
			return m
		}
		return v
	})
	if len(bad) > 0 {
		return "", fmt.Errorf("unknown variables %v", bad)
	}
	return out, nil
}

// checkPromQL writes exprs as recording rules and runs promtool check rules.
func checkPromQL(t *testing.T, what string, exprs map[string]string) {
	t.Helper()
	pt := promtool(t)
	var rules []map[string]string
	names := slices.Sorted(maps.Keys(exprs))
	for i, k := range names {
		e, err := substituteVars(exprs[k])
		if err != nil {
			t.Errorf("%s %s: %v in %q", what, k, err, exprs[k])
			continue
		}
		rules = append(rules, map[string]string{"record": fmt.Sprintf("e2e_check:expr_%d", i), "expr": e})
	}
	p := writeYAML(t, "exprs.yml", map[string]any{"groups": []any{map[string]any{"name": what, "rules": rules}}})
	out, err := testenv.RunTool(time.Minute, "", pt, "check", "rules", p)
	if err != nil {
		// Name the failing expressions: promtool only gives the generated rule names.
		for _, m := range regexp.MustCompile(`e2e_check:expr_(\d+)`).FindAllStringSubmatch(out, -1) {
			i, _ := strconv.Atoi(m[1])
			t.Errorf("%s: %s", names[i], exprs[names[i]])
		}
		t.Errorf("promtool check rules on the %s expressions: %v\n%s", what, err, out)
	}
}

// panelsOf walks panels, including the panels of collapsed rows.
func panelsOf(v any, visit func(map[string]any)) {
	for _, p := range listOf(v) {
		pm := mapOf(p)
		visit(pm)
		panelsOf(pm["panels"], visit)
	}
}

func TestGrafanaDashboard(t *testing.T) {
	var dash map[string]any
	yamlFile(t, examples(t, "grafana", "gameserver-dashboard.json"), &dash) // JSON is YAML
	if strOf(dash["uid"]) == "" || strOf(dash["title"]) == "" {
		t.Error("dashboard needs a uid and a title")
	}
	if dash["id"] != nil {
		t.Error(`"id" must be null in an importable dashboard`)
	}
	vars := map[string]map[string]any{}
	for _, v := range listOf(mapOf(dash["templating"])["list"]) {
		vars[strOf(mapOf(v)["name"])] = mapOf(v)
	}
	if ds := vars["datasource"]; strOf(ds["type"]) != "datasource" || strOf(ds["query"]) != "prometheus" {
		t.Errorf("want a Prometheus data source variable named datasource, got %v", ds)
	}
	exprs := map[string]string{}
	labelValues := regexp.MustCompile(`^label_values\((.+),\s*(\w+)\)$`)
	for name, v := range vars {
		if strOf(v["type"]) != "query" {
			continue
		}
		q := strOf(mapOf(v["query"])["query"])
		m := labelValues.FindStringSubmatch(q)
		if m == nil {
			t.Errorf("variable %s: query %q is not label_values(selector, label)", name, q)
			continue
		}
		exprs["variable "+name] = m[1]
	}
	if q := strOf(mapOf(vars["instance"]["query"])["query"]); !strings.HasPrefix(q, "label_values(probe_success") || !strings.HasSuffix(q, ", instance)") {
		t.Errorf("server picker: instance variable query %q, want label_values(probe_success..., instance)", q)
	}
	titles := map[string]bool{}
	panelsOf(dash["panels"], func(p map[string]any) {
		title := strOf(p["title"])
		titles[title] = true
		if strOf(p["type"]) == "row" {
			return
		}
		if ds := mapOf(p["datasource"]); strOf(ds["uid"]) != "${datasource}" {
			t.Errorf("panel %q: datasource %v, want the ${datasource} variable", title, p["datasource"])
		}
		for _, tg := range listOf(p["targets"]) {
			tm := mapOf(tg)
			e := strOf(tm["expr"])
			if e == "" {
				t.Errorf("panel %q target %v: no expr", title, tm["refId"])
				continue
			}
			exprs[fmt.Sprintf("panel %q %v", title, tm["refId"])] = e
		}
	})
	for _, want := range []string{"Servers", "Players vs max slots", "Players on the servers", "Query duration by phase", "Failed probes by reason"} {
		if !titles[want] {
			t.Errorf("dashboard has no panel %q", want)
		}
	}
	all := strings.Join(slices.Collect(maps.Values(exprs)), "\n")
	for _, m := range []string{"probe_success", "gameserver_players_max", "gameserver_player_info", "gameserver_query_duration_seconds", "probe_failure_info"} {
		if !strings.Contains(all, m) {
			t.Errorf("no dashboard expression uses %s", m)
		}
	}
	checkPromQL(t, "dashboard", exprs)
}

// grafanaRuleFile is Grafana's alerting file-provisioning format (the parts checked).
type grafanaRuleFile struct {
	APIVersion int `yaml:"apiVersion"`
	Groups     []struct {
		Name     string
		Folder   string
		Interval string
		Rules    []struct {
			UID       string
			Title     string
			Condition string
			For       string
			Data      []struct {
				RefID         string `yaml:"refId"`
				DatasourceUID string `yaml:"datasourceUid"`
				Model         map[string]any
			}
		}
	}
}

func TestGrafanaAlerting(t *testing.T) {
	files, _ := filepath.Glob(examples(t, "grafana", "alerting", "*.yml"))
	if len(files) == 0 {
		t.Fatal("no Grafana alerting provisioning files")
	}
	promFor := map[string]string{} // alerts.yml's alerts' for
	for _, r := range alertRules(t, "alerts.yml") {
		promFor[r.Alert] = r.For
	}
	exprs := map[string]string{}
	seen := map[string]bool{}
	for _, f := range files {
		var file grafanaRuleFile
		yamlFile(t, f, &file)
		if file.APIVersion != 1 || len(file.Groups) == 0 {
			t.Errorf("%s: apiVersion %d, %d groups", f, file.APIVersion, len(file.Groups))
		}
		for _, g := range file.Groups {
			if g.Folder == "" || g.Name == "" || g.Interval == "" {
				t.Errorf("%s: group %q needs name, folder and interval", f, g.Name)
			}
			for _, r := range g.Rules {
				seen[r.Title] = true
				refs := map[string]bool{}
				for _, d := range r.Data {
					refs[d.RefID] = true
					if d.DatasourceUID == "__expr__" {
						continue
					}
					if !strings.HasPrefix(d.DatasourceUID, "${") {
						t.Errorf("rule %s %s: datasourceUid %q, want a ${VARIABLE} placeholder", r.Title, d.RefID, d.DatasourceUID)
					}
					e := strOf(d.Model["expr"])
					if e == "" {
						t.Errorf("rule %s %s: no model.expr", r.Title, d.RefID)
					}
					// A game server's rules skip those a list found (TestDiscoveredJobsAlertNobody).
					if filepath.Base(f) == "gameservers.yml" && !strings.Contains(e, `alerting!="off"`) {
						t.Errorf("%s: rule %s %s does not skip alerting=\"off\": %s", f, r.Title, d.RefID, e)
					}
					exprs[r.Title+" "+d.RefID] = e
				}
				if r.UID == "" || !refs[r.Condition] {
					t.Errorf("rule %s: uid %q, condition %q not among the refIds %v", r.Title, r.UID, r.Condition, refs)
				}
				if want, ok := promFor[r.Title]; !ok {
					t.Errorf("rule %s: no alert of that name in alerts.yml", r.Title)
				} else if r.For != want {
					t.Errorf("rule %s: for %s, alerts.yml says %s", r.Title, r.For, want)
				}
			}
		}
	}
	for _, want := range []string{"GameServerDown", "GameServerFull"} {
		if !seen[want] {
			t.Errorf("no Grafana rule %s", want)
		}
	}
	checkPromQL(t, "grafana_alerting", exprs)
}

// exporterFlags returns the long flag names `serve --help` lists (the server's flags
// and the app-wide ones).
func exporterFlags(t testing.TB) map[string]bool {
	out, err := testenv.RunTool(time.Minute, "", exporterBinary(t), "serve", "--help")
	if err != nil {
		t.Fatalf("--help: %v\n%s", err, out)
	}
	flags := map[string]bool{}
	for _, m := range regexp.MustCompile(`--(?:\[no-\])?([a-z0-9][a-z0-9.\-]*)`).FindAllStringSubmatch(out, -1) {
		flags[m[1]] = true
	}
	if !flags["config.file"] || !flags["web.listen-address"] {
		t.Fatalf("--help output lacks the known flags:\n%s", out)
	}
	return flags
}

// checkFlags fails for each of args that is no flag the exporter accepts
// (--name, --name=value, --no-name).
func checkFlags(t testing.TB, what string, args []string) {
	t.Helper()
	flags := exporterFlags(t)
	for _, a := range args {
		f, _, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if !strings.HasPrefix(a, "--") || !flags[strings.TrimPrefix(f, "no-")] {
			t.Errorf("%s: %q is no flag of the exporter", what, a)
		}
	}
}

func TestKubernetesManifests(t *testing.T) {
	dir := examples(t, "kubernetes")
	files, _ := filepath.Glob(filepath.Join(dir, "*.yml"))
	kinds := map[string]int{}
	var configMaps []string
	for _, f := range files {
		base := filepath.Base(f)
		for _, d := range yamlDocs(t, f) {
			doc := mapOf(d)
			kind := strOf(doc["kind"])
			kinds[kind]++
			name := base + " " + kind + " " + strOf(mapOf(doc["metadata"])["name"])
			if strOf(doc["apiVersion"]) == "" || kind == "" {
				t.Errorf("%s: no apiVersion or kind", name)
			}
			spec := mapOf(doc["spec"])
			switch kind {
			case "Kustomization":
				for _, r := range listOf(doc["resources"]) {
					if _, err := os.Stat(filepath.Join(dir, strOf(r))); err != nil {
						t.Errorf("%s: resource %v: %v", name, r, err)
					}
				}
			case "Deployment":
				pod := mapOf(mapOf(spec["template"])["spec"])
				var exporters int
				for _, c := range listOf(pod["containers"]) {
					cm := mapOf(c)
					if !strings.Contains(strOf(cm["image"]), "gameserver_exporter") {
						continue
					}
					exporters++
					checkExporterContainer(t, name, cm)
				}
				if exporters == 0 {
					t.Errorf("%s: no gameserver_exporter container", name)
				}
			case "Service":
				var ok bool
				for _, p := range listOf(spec["ports"]) {
					ok = ok || fmt.Sprint(mapOf(p)["port"]) == "10115"
				}
				if !ok {
					t.Errorf("%s: no port 10115", name)
				}
			case "ConfigMap":
				for k, v := range mapOf(doc["data"]) {
					if strings.HasSuffix(k, ".yml") || strings.HasSuffix(k, ".yaml") {
						p := filepath.Join(t.TempDir(), k)
						prototest.WriteFile(t, p, strOf(v))
						configMaps = append(configMaps, p)
					}
				}
			case "Probe":
				u := strOf(mapOf(spec["prober"])["url"])
				if !strings.HasSuffix(u, ":10115") || strOf(mapOf(spec["prober"])["path"]) != "/probe" || strOf(spec["module"]) == "" {
					t.Errorf("%s: prober %v, module %q: want url ...:10115, path /probe and a module", name, spec["prober"], spec["module"])
				}
				if !strings.HasPrefix(strOf(spec["jobName"]), "gameservers") {
					t.Errorf("%s: jobName %q does not match the alerts' job=~\"gameservers.*\"", name, spec["jobName"])
				}
			case "ServiceMonitor", "PodMonitor": // endpoints, podMetricsEndpoints
				var probes int
				for _, e := range append(listOf(spec["endpoints"]), listOf(spec["podMetricsEndpoints"])...) {
					em := mapOf(e)
					if strOf(em["path"]) != "/probe" {
						continue
					}
					probes++
					params := mapOf(em["params"])
					if len(listOf(params["module"])) != 1 || len(listOf(params["target"])) != 1 {
						t.Errorf("%s: /probe endpoint params %v, want one module and one target", name, params)
					}
				}
				if probes == 0 {
					t.Errorf("%s: no /probe endpoint with params", name)
				}
			}
		}
	}
	for _, k := range []string{"Deployment", "Service", "ConfigMap", "Probe", "ServiceMonitor", "PodMonitor"} {
		if kinds[k] == 0 {
			t.Errorf("no %s in examples/kubernetes", k)
		}
	}
	// The modules files the manifests mount, and the example one, pass --config.check.
	for _, p := range append(configMaps, examples(t, "modules.yml")) {
		if out, err := testenv.RunTool(time.Minute, "", exporterBinary(t), "--config.check", "--config.file="+p); err != nil {
			t.Errorf("--config.check %s: %v\n%s", p, err, out)
		}
	}
	if len(configMaps) == 0 {
		t.Error("no modules.yml in a ConfigMap")
	}
}

// checkExporterContainer: known flags, port 10115, health probes and a locked-down
// security context with resource requests and limits.
func checkExporterContainer(t *testing.T, name string, c map[string]any) {
	t.Helper()
	name += " container " + strOf(c["name"])
	checkFlags(t, name, append(strsOf(c["command"]), strsOf(c["args"])...))
	ports := map[string]string{} // name or number -> number
	for _, p := range listOf(c["ports"]) {
		pm := mapOf(p)
		n := fmt.Sprint(pm["containerPort"])
		ports[n] = n
		if s := strOf(pm["name"]); s != "" {
			ports[s] = n
		}
	}
	if ports["10115"] == "" {
		t.Errorf("%s: no containerPort 10115", name)
	}
	for probe, path := range map[string]string{"livenessProbe": "/-/healthy", "readinessProbe": "/-/ready"} {
		g := mapOf(mapOf(c[probe])["httpGet"])
		if strOf(g["path"]) != path || ports[fmt.Sprint(g["port"])] != "10115" {
			t.Errorf("%s: %s %v, want httpGet %s on 10115", name, probe, c[probe], path)
		}
	}
	sc := mapOf(c["securityContext"])
	if sc["runAsNonRoot"] != true || fmt.Sprint(sc["runAsUser"]) != "65534" || sc["readOnlyRootFilesystem"] != true || sc["allowPrivilegeEscalation"] != false {
		t.Errorf("%s: securityContext %v, want runAsNonRoot, runAsUser 65534, readOnlyRootFilesystem, no privilege escalation", name, sc)
	}
	res := mapOf(c["resources"])
	for _, k := range []string{"requests", "limits"} {
		if m := mapOf(res[k]); m["cpu"] == nil || m["memory"] == nil {
			t.Errorf("%s: resources.%s %v, want cpu and memory", name, k, res[k])
		}
	}
}
