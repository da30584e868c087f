package charts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/registry"
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/yaml"
)

const chartDir = "gameserver-exporter"

// The release the tests render: its Service is serviceHost, port 10115.
const (
	release     = "rel"
	namespace   = "monitoring"
	serviceHost = "rel-gameserver-exporter.monitoring.svc"
)

// kubeVersion is the cluster version lint and template assume: helm built with
// go build (without its release ldflags) would assume 1.20, below the chart's
// kubeVersion.
const kubeVersion = "1.31.0"

// helmPath is the helm this module pins (its go.mod's tool), built into the Go
// build cache once per run.
var helmPath = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("go", "tool", "-n", "helm").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go tool -n helm: %v\n%s", err, out)
	}
	return strings.TrimSpace(string(out)), nil
})

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.RemoveBuilt()
	os.Exit(code)
}

// helm runs the pinned helm, or skips the test when it cannot be built (no module
// proxy): the chart is then untested, and the message says why.
func helm(t *testing.T, args ...string) string {
	t.Helper()
	bin, err := helmPath()
	if err != nil {
		t.Skipf("helm could not be built from the module proxy, the chart is not checked: %v", err)
	}
	cmd := exec.Command(bin, args...)
	// A private home: no repositories or plugins of the machine's user.
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+home, "HELM_CONFIG_HOME="+home, "HELM_DATA_HOME="+home)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("helm %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}

// valuesFiles are the chart's ci/ values files (the cases it is tested with).
func valuesFiles(t *testing.T) []string {
	files, _ := filepath.Glob(filepath.Join(chartDir, "ci", "*-values.yaml"))
	if len(files) < 7 {
		t.Fatalf("ci/ values files: %v, want the default, operator, basic auth (two), TLS, module secret and hardened cases", files)
	}
	return files
}

func TestChartLint(t *testing.T) {
	for _, f := range valuesFiles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			out := helm(t, "lint", "--strict", "--kube-version", kubeVersion, chartDir, "-f", f)
			if !strings.Contains(out, "0 chart(s) failed") {
				t.Errorf("helm lint:\n%s", out)
			}
		})
	}
}

// rendered is one `helm template` output, every object decoded strictly.
type rendered struct {
	deployments     []appsv1.Deployment
	services        []corev1.Service
	configMaps      []corev1.ConfigMap
	secrets         []corev1.Secret
	probes          []monitoringv1.Probe
	serviceMonitors []monitoringv1.ServiceMonitor
	rules           []monitoringv1.PrometheusRule
	scrapeConfigs   []monitoringv1alpha1.ScrapeConfig
	serviceAccounts []corev1.ServiceAccount
	networkPolicies []networkingv1.NetworkPolicy
	pdbs            []policyv1.PodDisruptionBudget
}

func render(t *testing.T, args ...string) *rendered {
	t.Helper()
	out := helm(t, append([]string{"template", release, chartDir, "--namespace", namespace, "--kube-version", kubeVersion}, args...)...)
	r := &rendered{}
	for i, doc := range strings.Split(out, "\n---\n") {
		if j, _ := yaml.YAMLToJSON([]byte(doc)); string(j) == "null" {
			continue // comments only
		}
		var meta struct{ APIVersion, Kind string }
		if err := yaml.Unmarshal([]byte(doc), &meta); err != nil {
			t.Fatalf("document %d: %v\n%s", i, err, doc)
		}
		into, ok := map[string]func(string) error{
			"apps/v1 Deployment":             into(&r.deployments),
			"v1 Service":                     into(&r.services),
			"v1 ConfigMap":                   into(&r.configMaps),
			"v1 Secret":                      into(&r.secrets),
			"monitoring.coreos.com/v1 Probe": into(&r.probes),
			"monitoring.coreos.com/v1 ServiceMonitor":     into(&r.serviceMonitors),
			"monitoring.coreos.com/v1 PrometheusRule":     into(&r.rules),
			"monitoring.coreos.com/v1alpha1 ScrapeConfig": into(&r.scrapeConfigs),
			"v1 ServiceAccount":                           into(&r.serviceAccounts),
			"networking.k8s.io/v1 NetworkPolicy":          into(&r.networkPolicies),
			"policy/v1 PodDisruptionBudget":               into(&r.pdbs),
		}[meta.APIVersion+" "+meta.Kind]
		if !ok {
			t.Fatalf("document %d: unexpected %s %s", i, meta.APIVersion, meta.Kind)
		}
		err := into(doc)
		if err != nil {
			t.Fatalf("document %d (%s): %v\n%s", i, meta.Kind, err, doc)
		}
	}
	return r
}

// strict decodes a YAML document into a T, failing on any field T does not have
// (a misspelt or misplaced key the API server or operator would drop).
func strict[T any](doc string) (T, error) {
	var v T
	j, err := yaml.YAMLToJSON([]byte(doc))
	if err != nil {
		return v, err
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.DisallowUnknownFields()
	return v, dec.Decode(&v)
}

// into appends each document it decodes strictly to *list.
func into[T any](list *[]T) func(string) error {
	return func(doc string) error {
		v, err := strict[T](doc)
		if err == nil {
			*list = append(*list, v)
		}
		return err
	}
}

// TestStrictDecodeCatchesUnknownFields: the decoding the chart tests rely on
// rejects a field the type does not have.
func TestStrictDecodeCatchesUnknownFields(t *testing.T) {
	doc := "apiVersion: monitoring.coreos.com/v1\nkind: Probe\nspec:\n  prober: {url: x:1, path: /probe}\n  modules: a2s\n"
	if _, err := strict[monitoringv1.Probe](doc); err == nil || !strings.Contains(err.Error(), "modules") {
		t.Errorf("spec.modules (for module) decoded without error: %v", err)
	}
}

// TestChartTemplate: what each ci/ values file renders (the Prometheus test
// proves the scrapers work, TestChartDeploymentRuns the Deployment).
func TestChartTemplate(t *testing.T) {
	type counts struct{ probes, serviceMonitors, rules, scrapeConfigs, secrets, configMaps, serviceAccounts, networkPolicies, pdbs int }
	want := map[string]counts{
		"default-values.yaml":           {configMaps: 1, serviceAccounts: 1},
		"operator-values.yaml":          {probes: 2, serviceMonitors: 1, rules: 1, scrapeConfigs: 1, configMaps: 2, serviceAccounts: 1},
		"basic-auth-values.yaml":        {probes: 1, serviceMonitors: 1, scrapeConfigs: 1, secrets: 2, configMaps: 1, serviceAccounts: 1},
		"basic-auth-secret-values.yaml": {probes: 1, serviceMonitors: 1, secrets: 1, configMaps: 1, serviceAccounts: 1},
		"tls-values.yaml":               {probes: 1, serviceMonitors: 1, scrapeConfigs: 1, secrets: 1, configMaps: 1, serviceAccounts: 1},
		"module-secret-values.yaml":     {configMaps: 1, serviceAccounts: 1},
		"hardened-values.yaml":          {configMaps: 1, networkPolicies: 1, pdbs: 1},
	}
	for _, f := range valuesFiles(t) {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			r := render(t, "-f", f)
			w, ok := want[name]
			if !ok {
				t.Fatalf("no expectations for %s", name)
			}
			got := counts{len(r.probes), len(r.serviceMonitors), len(r.rules), len(r.scrapeConfigs), len(r.secrets), len(r.configMaps),
				len(r.serviceAccounts), len(r.networkPolicies), len(r.pdbs)}
			if got != w || len(r.deployments) != 1 || len(r.services) != 1 {
				t.Errorf("rendered %+v and %d deployments, %d services; want %+v and one each", got, len(r.deployments), len(r.services), w)
			}
			checkDeployment(t, &r.deployments[0])
			for _, pr := range r.rules {
				checkRules(t, &pr)
			}
			for _, np := range r.networkPolicies {
				checkNetworkPolicy(t, &np, clusterCIDRs(t, f))
			}
		})
	}
}

// clusterCIDRs are a values file's clusterPolicy.serviceCIDRs and podCIDRs.
func clusterCIDRs(t *testing.T, valuesFile string) []string {
	var v struct {
		ClusterPolicy struct{ ServiceCIDRs, PodCIDRs []string } `json:"clusterPolicy"`
	}
	if err := yaml.Unmarshal(readFile(t, valuesFile), &v); err != nil {
		t.Fatal(err)
	}
	return append(v.ClusterPolicy.ServiceCIDRs, v.ClusterPolicy.PodCIDRs...)
}

// checkNetworkPolicy: egress is open to every address but the cluster's ranges
// (each under its family's ipBlock) and to DNS on port 53; ingress is the http
// port only.
func checkNetworkPolicy(t *testing.T, np *networkingv1.NetworkPolicy, cidrs []string) {
	t.Helper()
	var except []string
	blocks, dns := 0, false
	for _, e := range np.Spec.Egress {
		for _, to := range e.To {
			if b := to.IPBlock; b != nil {
				blocks++
				if b.CIDR != "0.0.0.0/0" && b.CIDR != "::/0" {
					t.Errorf("egress to %s, want 0.0.0.0/0 and ::/0 with exceptions", b.CIDR)
				}
				for _, x := range b.Except {
					if strings.Contains(x, ":") != strings.Contains(b.CIDR, ":") {
						t.Errorf("egress ipBlock %s excepts %s, another family: the API server rejects it", b.CIDR, x)
					}
				}
				except = append(except, b.Except...)
			}
		}
		for _, p := range e.Ports {
			if p.Port != nil && p.Port.IntValue() == 53 {
				dns = true
			}
		}
	}
	slices.Sort(except)
	cidrs = slices.Sorted(slices.Values(cidrs))
	if blocks != 2 || !slices.Equal(except, cidrs) || !dns {
		t.Errorf("egress %+v: want both families open except %v, and DNS", np.Spec.Egress, cidrs)
	}
	if len(np.Spec.Ingress) != 1 || len(np.Spec.Ingress[0].Ports) != 1 || np.Spec.Ingress[0].Ports[0].Port.String() != "http" || len(np.Spec.Ingress[0].From) == 0 {
		t.Errorf("ingress %+v: want the http port from the selected peers", np.Spec.Ingress)
	}
}

// checkDeployment: the published image and the locked-down security context.
func checkDeployment(t *testing.T, d *appsv1.Deployment) {
	t.Helper()
	pod := d.Spec.Template.Spec
	// The image releases publish (the Makefile's IMAGE), tagged with the chart's appVersion.
	var c struct{ AppVersion string }
	if err := yaml.Unmarshal(readFile(t, chartDir, "Chart.yaml"), &c); err != nil {
		t.Fatal(err)
	}
	if want := "ghcr.io/gameserver-exporter/gameserver_exporter:" + c.AppVersion; pod.Containers[0].Image != want {
		t.Errorf("image %s, want %s", pod.Containers[0].Image, want)
	}
	if pod.SecurityContext == nil || pod.SecurityContext.RunAsNonRoot == nil || !*pod.SecurityContext.RunAsNonRoot ||
		pod.SecurityContext.SeccompProfile == nil || pod.SecurityContext.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("pod security context %+v", pod.SecurityContext)
	}
	if pod.AutomountServiceAccountToken == nil || *pod.AutomountServiceAccountToken {
		t.Error("the service account token is mounted; the exporter needs no API access")
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers", len(pod.Containers))
	}
	sc := pod.Containers[0].SecurityContext
	if sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
		sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation || sc.Capabilities == nil ||
		!slices.Equal(sc.Capabilities.Drop, []corev1.Capability{"ALL"}) || len(sc.Capabilities.Add) != 0 ||
		sc.SeccompProfile == nil || sc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("container security context %+v", sc)
	}
	if d.Spec.Template.Annotations["checksum/config"] == "" {
		t.Error("no checksum/config annotation: a changed modules file would not roll the pods")
	}
}

// checkRules: the PrometheusRule holds the groups of examples/alerts.yml (and
// slo.yml), and the chart's copies are the examples' byte for byte.
func checkRules(t *testing.T, pr *monitoringv1.PrometheusRule) {
	t.Helper()
	var names []string
	for _, g := range pr.Spec.Groups {
		names = append(names, g.Name)
	}
	var want []string
	for _, f := range []string{"alerts.yml", "slo.yml"} {
		var doc struct{ Groups []struct{ Name string } }
		if err := yaml.Unmarshal(readFile(t, "..", "examples", f), &doc); err != nil {
			t.Fatal(err)
		}
		for _, g := range doc.Groups {
			want = append(want, g.Name)
		}
	}
	if !slices.Equal(names, want) {
		t.Errorf("rule groups %v, want %v", names, want)
	}
}

func readFile(t *testing.T, parts ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(parts...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestChartFilesAreExamples: the chart ships copies of the alert pack, the SLO
// rules and the dashboard (helm reads only files inside the chart); they must not
// drift from examples/, where the promtool and dashboard tests check them.
func TestChartFilesAreExamples(t *testing.T) {
	for chart, example := range map[string]string{
		"alerts.yml":                "alerts.yml",
		"slo.yml":                   "slo.yml",
		"gameserver-dashboard.json": "grafana/gameserver-dashboard.json",
	} {
		if !bytes.Equal(readFile(t, chartDir, "files", chart), readFile(t, "..", "examples", example)) {
			t.Errorf("%s/files/%s differs from examples/%s: cp examples/%s charts/%s/files/%s", chartDir, chart, example, example, chartDir, chart)
		}
	}
}

// TestChartChecksumRollsPods: the pod template's checksum changes with the modules
// file and with nothing else.
func TestChartChecksumRollsPods(t *testing.T) {
	sum := func(args ...string) string {
		r := render(t, args...)
		return r.deployments[0].Spec.Template.Annotations["checksum/config"]
	}
	base := sum()
	if other := sum("--set", "config.modules.q3.protocol=quake3"); other == base {
		t.Error("a new module left the checksum unchanged")
	}
	if same := sum("--set", "replicas=3"); same != base {
		t.Error("the replica count changed the config checksum")
	}
}

// TestChartVersion: the chart is released with the exporter (make release packs it
// as gameserver-exporter-VERSION.tgz), so both its versions are VERSION's; its
// description counts today's protocols and built-in modules (a protocol or
// catalog game added without it fails here).
func TestChartVersion(t *testing.T) {
	version := strings.TrimSpace(string(readFile(t, "..", "VERSION")))
	var c struct{ Version, AppVersion, Description string }
	if err := yaml.Unmarshal(readFile(t, chartDir, "Chart.yaml"), &c); err != nil {
		t.Fatal(err)
	}
	if c.Version != version || c.AppVersion != version {
		t.Errorf("Chart.yaml version %q, appVersion %q; want VERSION's %q", c.Version, c.AppVersion, version)
	}
	m := regexp.MustCompile(`(\d+) protocols .* (\d+) built-in modules`).FindStringSubmatch(c.Description)
	want := []string{strconv.Itoa(len(registry.All())), strconv.Itoa(len(config.Builtin()))}
	if m == nil || m[1] != want[0] || m[2] != want[1] {
		t.Errorf("Chart.yaml description %q: want %s protocols and %s built-in modules", c.Description, want[0], want[1])
	}
}
