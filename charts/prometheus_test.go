package charts

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"github.com/prometheus-operator/prometheus-operator/pkg/assets"
	prompkg "github.com/prometheus-operator/prometheus-operator/pkg/prometheus"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// TestChartPrometheus is the chart as its consumers use it: for each ci/ values
// file that renders scrapers, the prometheus-operator's own generator turns the
// rendered Probe, ServiceMonitor and ScrapeConfig objects (and the Secrets they
// name) into a Prometheus configuration, a real Prometheus runs it against the
// exporter started from the rendered Deployment, and every target must be up with
// probe_success 1: the probes' fake game servers, the exporter's own /metrics,
// and every discovery source's servers found through /sd. Addresses become
// loopback ones and intervals seconds (localise, runPrometheus).
func TestChartPrometheus(t *testing.T) {
	promBin := testenv.LookTool(t, "prometheus", "prometheus")
	// The installed Prometheus' version, for the generator.
	out, _ := testenv.RunTool(time.Minute, "", promBin, "--version")
	m := regexp.MustCompile(`version (\d+\.\d+\.\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("%s --version: %s", promBin, out)
	}
	version := "v" + m[1]
	for _, f := range valuesFiles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := render(t, "-f", f)
			if len(r.probes)+len(r.serviceMonitors)+len(r.scrapeConfigs) == 0 {
				t.Skip("renders no scraper")
			}
			t.Parallel()
			runPrometheus(t, r, promBin, version)
		})
	}
}

// fakes are the loopback game servers a probe's module can query, by protocol.
var fakes = map[string]func(testing.TB) netip.AddrPort{
	"a2s":    prototest.A2SServer,
	"quake3": func(t testing.TB) netip.AddrPort { return prototest.Quake3Server(t, "") },
}

func runPrometheus(t *testing.T, r *rendered, promBin, version string) {
	// The modules file says which protocol each module speaks.
	var modules struct {
		Modules   map[string]struct{ Protocol string }
		Discovery map[string]struct{ Module string }
	}
	if err := yaml.Unmarshal([]byte(findConfigMap(t, r, r.deployments[0].Name).Data["modules.yml"]), &modules); err != nil {
		t.Fatal(err)
	}
	fakeFor := func(module string) netip.AddrPort {
		proto := module
		if m, ok := modules.Modules[module]; ok {
			proto = m.Protocol
		}
		start, ok := fakes[proto]
		if !ok {
			t.Fatalf("module %s speaks %s, which no fake here speaks: probe a2s or quake3 in ci/", module, proto)
		}
		return start(t)
	}
	// Every discovery source lists one fake server of its module's protocol.
	master := prototest.DPMaster(t) // listing nothing, unless there are sources
	var listed netip.AddrPort
	if len(modules.Discovery) > 0 {
		listed = fakeFor("quake3")
		for name, src := range modules.Discovery {
			if proto := modules.Modules[src.Module].Protocol; src.Module != "quake3" && proto != "quake3" {
				t.Fatalf("source %s probes with %s: the fake master lists a quake3 server", name, src.Module)
			}
		}
		master = prototest.DPMaster(t, listed)
	}
	p := startPod(t, r, func(cfg map[string]any) {
		// Loopback, where the fakes are, is open for this test only.
		if tp, ok := cfg["target_policy"].(map[string]any); ok {
			tp["deny"] = slices.DeleteFunc(tp["deny"].([]any), func(d any) bool { return d == "127.0.0.0/8" || d == "::1/128" })
		}
		mastersAt(master)(cfg)
	})

	// What the Probes probe: a fake per target.
	probes := map[string]*monitoringv1.Probe{}
	want := map[string]int{} // job -> targets up with probe_success 1
	for i := range r.probes {
		pr := r.probes[i].DeepCopy()
		st := pr.Spec.Targets.StaticConfig
		for j := range st.Targets {
			st.Targets[j] = fakeFor(pr.Spec.Module).String()
		}
		probes[pr.Namespace+"/"+pr.Name] = pr
		want[pr.Spec.JobName] += len(st.Targets)
	}
	sMons := map[string]*monitoringv1.ServiceMonitor{}
	for i := range r.serviceMonitors {
		sm := &r.serviceMonitors[i]
		sMons[sm.Namespace+"/"+sm.Name] = sm
		want["gameserver_exporter"]++
	}
	sCons := map[string]*monitoringv1alpha1.ScrapeConfig{}
	for i := range r.scrapeConfigs {
		sc := &r.scrapeConfigs[i]
		sCons[sc.Namespace+"/"+sc.Name] = sc
		want[*sc.Spec.JobName] += len(modules.Discovery)
		if len(sc.Spec.HTTPSDConfigs) != len(modules.Discovery) {
			t.Errorf("ScrapeConfig %s: %d httpSDConfigs for %d sources", sc.Name, len(sc.Spec.HTTPSDConfigs), len(modules.Discovery))
		}
	}

	cfg := generate(t, version, probes, sMons, sCons, p.secrets)
	dir := t.TempDir()
	cfg = localise(t, cfg, dir, r, p)
	file := filepath.Join(dir, "prometheus.yml")
	prototest.WriteFile(t, file, string(cfg))
	testenv.CheckConfig(t, file)
	api := testenv.StartPrometheus(t, promBin, file)

	// Every target up and probed successfully: the job's count of both.
	for job, n := range want {
		for _, m := range []string{"up", "probe_success"} {
			if m == "probe_success" && job == "gameserver_exporter" {
				continue
			}
			q := fmt.Sprintf(`count(%s{job=%q} == 1)`, m, job)
			api.WaitValue(t, 90*time.Second, q, float64(n), p.proc)
		}
	}
	// A source's servers are probed, labelled alerting="off" (the alert pack
	// skips them: a public list's servers page nobody).
	for src := range modules.Discovery {
		q := fmt.Sprintf(`count(probe_success{source=%q, instance=%q, alerting="off"} == 1)`, src, listed.String())
		api.WaitValue(t, 90*time.Second, q, 1, p.proc)
	}
}

// generate is the operator's configuration for a Prometheus in namespace
// selecting the given objects; the Secrets are what the operator's store reads
// (basic auth credentials, CAs). The generator logs a reference it cannot
// resolve instead of failing: any warning fails the test.
func generate(t *testing.T, version string, probes map[string]*monitoringv1.Probe, sMons map[string]*monitoringv1.ServiceMonitor,
	sCons map[string]*monitoringv1alpha1.ScrapeConfig, secrets []corev1.Secret) []byte {
	t.Helper()
	prom := &monitoringv1.Prometheus{Spec: monitoringv1.PrometheusSpec{CommonPrometheusFields: monitoringv1.CommonPrometheusFields{
		Version: version, ScrapeInterval: "2s",
	}, EvaluationInterval: "30s"}} // the CRD's default, which no API server fills in here
	prom.Name, prom.Namespace = "k8s", namespace
	var warnings bytes.Buffer
	cg, err := prompkg.NewConfigGenerator(slog.New(slog.NewTextHandler(&warnings, &slog.HandlerOptions{Level: slog.LevelWarn})), prom)
	if err != nil {
		t.Fatal(err)
	}
	var objs []any
	for i := range secrets {
		objs = append(objs, &secrets[i])
	}
	out, err := cg.GenerateServerConfiguration(prom, sMons, nil, probes, sCons, assets.NewTestStoreBuilder(objs...), nil, nil, nil, nil)
	if err != nil || warnings.Len() > 0 {
		t.Fatalf("the operator's generator: %v\n%s", err, &warnings)
	}
	return out
}

// localise makes the generated configuration run on this machine: the Service's
// address is the exporter's loopback one, the ServiceMonitor's Kubernetes
// discovery the target it would find, the intervals seconds, and $(SHARD) and
// $(POD_NAME) expanded as the operator's config-reloader does.
func localise(t *testing.T, cfg []byte, dir string, r *rendered, p *pod) []byte {
	t.Helper()
	var doc map[string]any
	if err := yaml.Unmarshal(cfg, &doc); err != nil {
		t.Fatal(err)
	}
	jobs, _ := doc["scrape_configs"].([]any)
	if len(jobs) == 0 {
		t.Fatalf("no scrape_configs generated:\n%s", cfg)
	}
	for _, j := range jobs {
		job := j.(map[string]any)
		job["scrape_interval"], job["scrape_timeout"] = "2s", "2s"
		if _, ok := job["kubernetes_sd_configs"]; ok {
			delete(job, "kubernetes_sd_configs")
			job["static_configs"] = []any{endpointsTarget(t, r, p)}
		}
		if sds, ok := job["http_sd_configs"].([]any); ok {
			for _, sd := range sds {
				sd.(map[string]any)["refresh_interval"] = "2s"
			}
		}
	}
	out, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	// The operator mounts TLS assets here; this test writes them to dir.
	certs := filepath.Join(dir, "certs")
	if err := os.MkdirAll(certs, 0o755); err != nil {
		t.Fatal(err)
	}
	store := assets.NewTestStoreBuilder().ForNamespace(namespace)
	for _, s := range p.secrets {
		for k, v := range s.Data {
			name := store.TLSAsset(monitoringv1.SecretOrConfigMap{Secret: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: s.Name}, Key: k}})
			prototest.WriteFile(t, filepath.Join(certs, name), string(v))
		}
	}
	s := strings.ReplaceAll(string(out), "/etc/prometheus/certs/", certs+"/")
	// What the operator's config-reloader expands in the pod of shard 0.
	s = strings.NewReplacer("$(SHARD)", "0", "$(POD_NAME)", "prometheus-k8s-0").Replace(s)
	svc := fmt.Sprintf("%s:%d", serviceHost, r.services[0].Spec.Ports[0].Port)
	if !strings.Contains(s, svc) {
		t.Errorf("the generated configuration never names the Service %s:\n%s", svc, s)
	}
	return []byte(strings.ReplaceAll(s, svc, p.addr))
}

// endpointsTarget is the target Kubernetes endpoints discovery finds for the
// rendered Service: the pod's address and the labels it sets, as the
// ServiceMonitor's relabeling reads them.
func endpointsTarget(t *testing.T, r *rendered, p *pod) map[string]any {
	svc := &r.services[0]
	tmpl := r.deployments[0].Spec.Template
	port := svc.Spec.Ports[0]
	labels := map[string]any{
		"__meta_kubernetes_namespace":                    namespace,
		"__meta_kubernetes_service_name":                 svc.Name,
		"__meta_kubernetes_endpoints_name":               svc.Name,
		"__meta_kubernetes_endpoint_port_name":           port.Name,
		"__meta_kubernetes_endpoint_port_protocol":       string(port.Protocol),
		"__meta_kubernetes_endpoint_ready":               "true",
		"__meta_kubernetes_endpoint_address_target_kind": "Pod",
		"__meta_kubernetes_endpoint_address_target_name": "pod-0",
		"__meta_kubernetes_pod_name":                     "pod-0",
		"__meta_kubernetes_pod_container_name":           p.container.Name,
		"__meta_kubernetes_pod_container_port_name":      port.TargetPort.String(),
		"__meta_kubernetes_pod_container_port_number":    fmt.Sprint(p.containerPort(t, port.TargetPort.String())),
		"__meta_kubernetes_pod_ready":                    "true",
		"__meta_kubernetes_pod_phase":                    "Running",
	}
	for k, v := range svc.Labels {
		labels["__meta_kubernetes_service_label_"+labelName(k)] = v
		labels["__meta_kubernetes_service_labelpresent_"+labelName(k)] = "true"
	}
	for k, v := range tmpl.Labels {
		labels["__meta_kubernetes_pod_label_"+labelName(k)] = v
		labels["__meta_kubernetes_pod_labelpresent_"+labelName(k)] = "true"
	}
	return map[string]any{"targets": []any{p.addr}, "labels": labels}
}

var invalidLabel = regexp.MustCompile(`[^a-zA-Z0-9_]`)

// labelName is a Kubernetes label's name as Prometheus' Kubernetes discovery
// writes it.
func labelName(s string) string { return invalidLabel.ReplaceAllString(s, "_") }
