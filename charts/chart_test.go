package charts

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

const chartDir = "gameserver-exporter"

// kubeVersion is the cluster version lint and template assume: helm built with
// go build (without its release ldflags) would assume 1.20, below the chart's
// kubeVersion.
const kubeVersion = "1.31.0"

// tools builds helm (the version this module pins) and the exporter once per run.
var tools struct {
	once           sync.Once
	dir            string
	helm, exporter string
	helmErr, err   error
}

func buildTools(t *testing.T) {
	t.Helper()
	tools.once.Do(func() {
		tools.dir, tools.err = os.MkdirTemp("", "gse-chart-tools")
		if tools.err != nil {
			return
		}
		tools.helm = filepath.Join(tools.dir, "helm")
		if out, err := exec.Command("go", "build", "-o", tools.helm, "helm.sh/helm/v3/cmd/helm").CombinedOutput(); err != nil {
			tools.helmErr = fmt.Errorf("go build helm: %v\n%s", err, out)
		}
		tools.exporter = filepath.Join(tools.dir, "gameserver_exporter")
		if out, err := exec.Command("go", "build", "-C", "..", "-o", tools.exporter, ".").CombinedOutput(); err != nil {
			tools.err = fmt.Errorf("go build the exporter: %v\n%s", err, out)
		}
	})
	if tools.err != nil {
		t.Fatal(tools.err)
	}
}

// helm runs the pinned helm, or skips the test when it cannot be built (no module
// proxy): the chart is then untested, and the message says why.
func helm(t *testing.T, args ...string) string {
	t.Helper()
	buildTools(t)
	if tools.helmErr != nil {
		t.Skipf("helm could not be built from the module proxy, the chart is not checked: %v", tools.helmErr)
	}
	cmd := exec.Command(tools.helm, args...)
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
	if len(files) < 4 {
		t.Fatalf("ci/ values files: %v, want the default, operator, basic auth and TLS cases", files)
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
}

func render(t *testing.T, args ...string) *rendered {
	t.Helper()
	out := helm(t, append([]string{"template", "rel", chartDir, "--namespace", "monitoring", "--kube-version", kubeVersion}, args...)...)
	r := &rendered{}
	for i, doc := range strings.Split(out, "\n---\n") {
		if strings.TrimSpace(stripComments(doc)) == "" {
			continue
		}
		var meta struct{ APIVersion, Kind string }
		if err := yaml.Unmarshal([]byte(doc), &meta); err != nil {
			t.Fatalf("document %d: %v\n%s", i, err, doc)
		}
		var err error
		switch meta.APIVersion + " " + meta.Kind {
		case "apps/v1 Deployment":
			r.deployments, err = appendStrict(r.deployments, doc)
		case "v1 Service":
			r.services, err = appendStrict(r.services, doc)
		case "v1 ConfigMap":
			r.configMaps, err = appendStrict(r.configMaps, doc)
		case "v1 Secret":
			r.secrets, err = appendStrict(r.secrets, doc)
		case "monitoring.coreos.com/v1 Probe":
			r.probes, err = appendStrict(r.probes, doc)
		case "monitoring.coreos.com/v1 ServiceMonitor":
			r.serviceMonitors, err = appendStrict(r.serviceMonitors, doc)
		case "monitoring.coreos.com/v1 PrometheusRule":
			r.rules, err = appendStrict(r.rules, doc)
		case "monitoring.coreos.com/v1alpha1 ScrapeConfig":
			r.scrapeConfigs, err = appendStrict(r.scrapeConfigs, doc)
		default:
			t.Fatalf("document %d: unexpected %s %s", i, meta.APIVersion, meta.Kind)
		}
		if err != nil {
			t.Fatalf("document %d (%s): %v\n%s", i, meta.Kind, err, doc)
		}
	}
	return r
}

func stripComments(doc string) string {
	var b strings.Builder
	for _, l := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// appendStrict decodes a YAML document into a T, failing on any field T does not
// have (a misspelt or misplaced key the API server or operator would drop).
func appendStrict[T any](list []T, doc string) ([]T, error) {
	j, err := yaml.YAMLToJSON([]byte(doc))
	if err != nil {
		return list, err
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.DisallowUnknownFields()
	var v T
	if err := dec.Decode(&v); err != nil {
		return list, err
	}
	return append(list, v), nil
}

// TestStrictDecodeCatchesUnknownFields: the decoding the chart tests rely on
// rejects a field the type does not have.
func TestStrictDecodeCatchesUnknownFields(t *testing.T) {
	doc := "apiVersion: monitoring.coreos.com/v1\nkind: Probe\nspec:\n  prober: {url: x:1, path: /probe}\n  modules: a2s\n"
	if _, err := appendStrict([]monitoringv1.Probe(nil), doc); err == nil || !strings.Contains(err.Error(), "modules") {
		t.Errorf("spec.modules (for module) decoded without error: %v", err)
	}
}

func TestChartTemplate(t *testing.T) {
	want := map[string]struct{ probes, serviceMonitors, rules, scrapeConfigs, secrets, configMaps int }{
		"default-values.yaml":    {configMaps: 1},
		"operator-values.yaml":   {probes: 2, serviceMonitors: 1, rules: 1, scrapeConfigs: 1, configMaps: 2},
		"basic-auth-values.yaml": {secrets: 1, configMaps: 1},
		"tls-values.yaml":        {probes: 1, serviceMonitors: 1, secrets: 1, configMaps: 1},
	}
	for _, f := range valuesFiles(t) {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			r := render(t, "-f", f)
			w, ok := want[name]
			if !ok {
				t.Fatalf("no expectations for %s", name)
			}
			got := struct{ probes, serviceMonitors, rules, scrapeConfigs, secrets, configMaps int }{
				len(r.probes), len(r.serviceMonitors), len(r.rules), len(r.scrapeConfigs), len(r.secrets), len(r.configMaps)}
			if got != w || len(r.deployments) != 1 || len(r.services) != 1 {
				t.Errorf("rendered %+v and %d deployments, %d services; want %+v and one each", got, len(r.deployments), len(r.services), w)
			}
			checkDeployment(t, &r.deployments[0])
			for _, p := range r.probes {
				if p.Spec.ProberSpec.URL != "rel-gameserver-exporter.monitoring.svc:10115" || p.Spec.ProberSpec.Path != "/probe" ||
					p.Spec.Module == "" || !strings.HasPrefix(p.Spec.JobName, "gameservers") {
					t.Errorf("probe %s: prober %+v, module %q, job %q", p.Name, p.Spec.ProberSpec, p.Spec.Module, p.Spec.JobName)
				}
			}
			for _, sc := range r.scrapeConfigs {
				if len(sc.Spec.HTTPSDConfigs) != 1 || !strings.HasSuffix(string(sc.Spec.HTTPSDConfigs[0].URL), ".monitoring.svc:10115/sd") ||
					sc.Spec.MetricsPath == nil || *sc.Spec.MetricsPath != "/probe" {
					t.Errorf("scrape config %s: %+v", sc.Name, sc.Spec)
				}
			}
			for _, sm := range r.serviceMonitors {
				if len(sm.Spec.Endpoints) != 1 || sm.Spec.Endpoints[0].Path != "/metrics" {
					t.Errorf("service monitor %s: %+v", sm.Name, sm.Spec.Endpoints)
				}
			}
			for _, pr := range r.rules {
				checkRules(t, &pr)
			}
		})
	}
}

// checkDeployment: the locked-down security context the issue asks for.
func checkDeployment(t *testing.T, d *appsv1.Deployment) {
	t.Helper()
	pod := d.Spec.Template.Spec
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

// TestChartDeploymentRuns starts the exporter with the rendered Deployment's
// arguments and environment, its ConfigMap and web-config Secret written where the
// pod mounts them (under a temporary root), and checks it serves: healthy, the
// modules file's target policy in force, basic auth or TLS as configured.
func TestChartDeploymentRuns(t *testing.T) {
	for _, f := range valuesFiles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := render(t, "-f", f)
			runDeployment(t, r)
		})
	}
}

func runDeployment(t *testing.T, r *rendered) {
	root := t.TempDir()
	pod := r.deployments[0].Spec.Template.Spec
	c := pod.Containers[0]
	// The pod's volumes, written under root.
	mounts := map[string]string{}
	for _, v := range pod.Volumes {
		for _, m := range c.VolumeMounts {
			if m.Name == v.Name {
				mounts[v.Name] = m.MountPath
			}
		}
	}
	var tlsCert string
	for _, v := range pod.Volumes {
		dir := filepath.Join(root, mounts[v.Name])
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		data := map[string]string{}
		switch {
		case v.ConfigMap != nil:
			data = findConfigMap(t, r, v.ConfigMap.Name).Data
		case v.Secret != nil:
			if s := findSecret(r, v.Secret.SecretName); s != nil {
				data = s.StringData
			} else {
				// A Secret the chart only mounts (certificates): made here.
				tlsCert = writeCert(t, dir)
			}
		}
		for k, val := range data {
			val = strings.ReplaceAll(val, "/etc/gameserver_exporter", filepath.Join(root, "etc/gameserver_exporter"))
			if err := os.WriteFile(filepath.Join(dir, k), []byte(val), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	addr := freeAddr(t)
	var args []string
	sawListen := false
	for _, a := range c.Args {
		if strings.HasPrefix(a, "--web.listen-address=") {
			a, sawListen = "--web.listen-address="+addr, true
		}
		args = append(args, strings.ReplaceAll(a, "/etc/gameserver_exporter", filepath.Join(root, "etc/gameserver_exporter")))
	}
	if !sawListen {
		t.Fatalf("args %v: no --web.listen-address", c.Args)
	}
	// The modules file passes the exporter's own check first.
	for _, a := range args {
		if cfg, ok := strings.CutPrefix(a, "--config.file="); ok {
			if out, err := exec.Command(tools.exporter, "--config.check", "--config.file="+cfg).CombinedOutput(); err != nil {
				t.Fatalf("--config.check: %v\n%s", err, out)
			}
		}
	}
	cmd := exec.Command(tools.exporter, args...)
	cmd.Env = os.Environ()
	for _, e := range c.Env {
		cmd.Env = append(cmd.Env, e.Name+"="+e.Value)
	}
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
		if t.Failed() {
			t.Logf("exporter log:\n%s", logs.String())
		}
	})

	client := &http.Client{Timeout: 5 * time.Second}
	scheme := "http"
	if tlsCert != "" {
		scheme = "https"
		pool := x509.NewCertPool()
		pool.AppendCertsFromPEM([]byte(tlsCert))
		client.Transport = &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: "gameserver-exporter"}}
	}
	web := findSecret(r, r.deployments[0].Name+"-web-config")
	var user, pass string
	if web != nil && strings.Contains(web.StringData["web-config.yml"], "basic_auth_users") {
		user, pass = "prometheus", "gameservers" // ci/basic-auth-values.yaml's
	}
	get := func(path string, auth bool) int {
		req, _ := http.NewRequest("GET", scheme+"://"+addr+path, nil)
		if auth && user != "" {
			req.SetBasicAuth(user, pass)
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	// Up when /-/healthy answers (the liveness probe's path), or failed if it exits.
	deadline := time.Now().Add(30 * time.Second)
	for get(c.LivenessProbe.HTTPGet.Path, true) != http.StatusOK {
		select {
		case err := <-done:
			done <- err
			t.Fatalf("the exporter exited: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the exporter never became healthy")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if code := get(c.ReadinessProbe.HTTPGet.Path, true); code != http.StatusOK {
		t.Errorf("readiness %s: %d", c.ReadinessProbe.HTTPGet.Path, code)
	}
	// The ConfigMap's target policy keeps probes off loopback.
	if code := get("/probe?module=a2s&target=127.0.0.1:27015", true); code != http.StatusForbidden {
		t.Errorf("probe of loopback: %d, want 403 from the chart's target policy", code)
	}
	if user != "" {
		if code := get("/metrics", false); code != http.StatusUnauthorized {
			t.Errorf("/metrics without credentials: %d, want 401", code)
		}
	}
	if code := get("/metrics", true); code != http.StatusOK {
		t.Errorf("/metrics: %d", code)
	}
}

func findConfigMap(t *testing.T, r *rendered, name string) *corev1.ConfigMap {
	for i := range r.configMaps {
		if r.configMaps[i].Name == name {
			return &r.configMaps[i]
		}
	}
	t.Fatalf("no ConfigMap %s rendered", name)
	return nil
}

func findSecret(r *rendered, name string) *corev1.Secret {
	for i := range r.secrets {
		if r.secrets[i].Name == name {
			return &r.secrets[i]
		}
	}
	return nil
}

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// writeCert writes tls.crt and tls.key (self-signed, for gameserver-exporter and
// 127.0.0.1) into dir, as cert-manager would, and returns the certificate's PEM.
func writeCert(t *testing.T, dir string) string {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "gameserver-exporter"},
		DNSNames: []string{"gameserver-exporter"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	for name, b := range map[string][]byte{"tls.crt": certPEM, "tls.key": pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb})} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return string(certPEM)
}

// TestChartVersion: the chart is released with the exporter (make release packs it
// as gameserver-exporter-VERSION.tgz), so both its versions are VERSION's.
func TestChartVersion(t *testing.T) {
	version := strings.TrimSpace(string(readFile(t, "..", "VERSION")))
	var c struct{ Version, AppVersion string }
	if err := yaml.Unmarshal(readFile(t, chartDir, "Chart.yaml"), &c); err != nil {
		t.Fatal(err)
	}
	if c.Version != version || c.AppVersion != version {
		t.Errorf("Chart.yaml version %q, appVersion %q; want VERSION's %q", c.Version, c.AppVersion, version)
	}
}
