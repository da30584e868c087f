package charts

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"
)

// TestChartDeploymentRuns starts the exporter with the rendered Deployment's
// arguments and environment, its ConfigMap and Secrets written where the pod
// mounts them (under a temporary root), and checks it: the kubelet's liveness and
// readiness probes pass as the kubelet runs them, the modules file's target policy
// keeps probes off the cluster, basic auth or TLS as configured.
func TestChartDeploymentRuns(t *testing.T) {
	for _, f := range valuesFiles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			r := render(t, "-f", f)
			// Discovery sources ask a loopback master (tests stay on loopback).
			p := startPod(t, r, mastersAt(prototest.DPMaster(t)))
			p.checkKubelet(t)
			// The chart's target policy, applied by the exporter: loopback and the
			// cluster's ranges the values give are refused (names below),
			targets := []string{"127.0.0.1:27015", "[::1]:27015"}
			for _, c := range clusterCIDRs(t, f) {
				targets = append(targets, netip.AddrPortFrom(netip.MustParsePrefix(c).Addr().Next(), 443).String())
			}
			for _, target := range targets {
				if code := p.get(t, "/probe?module=a2s&target="+target, true); code != http.StatusForbidden {
					t.Errorf("probe of %s: %d, want 403 from the chart's target policy", target, code)
				}
			}
			checkNamePolicy(t, p.configFile)
			if p.user != "" {
				if code := p.get(t, "/metrics", false); code != http.StatusUnauthorized {
					t.Errorf("/metrics without credentials: %d, want 401", code)
				}
			}
			if code := p.get(t, "/metrics", true); code != http.StatusOK {
				t.Errorf("/metrics: %d", code)
			}
		})
	}
}

// checkNamePolicy: the modules file's target policy, as the exporter loads it,
// refuses the API server's names and every in-cluster service name, and lets a
// public name and address through. (Names are judged once resolved, and these resolve only
// in a cluster: the policy is asked directly.)
func checkNamePolicy(t *testing.T, file string) {
	t.Helper()
	cfg, err := config.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"kubernetes", "kubernetes.default", "kubernetes.default.svc", "Kubernetes.Default.SVC.",
		"grafana.monitoring.svc", "kube-dns.kube-system.svc.cluster.local", "my-pod.example-ns.pod.cluster.local"} {
		if err := cfg.TargetPolicy.Check(name, true, nil); err == nil {
			t.Errorf("target_policy lets %s through", name)
		}
	}
	public := netip.MustParseAddr("203.0.113.7")
	if err := cfg.TargetPolicy.Check("mc.example.org", true, []netip.Addr{public}); err != nil {
		t.Errorf("target_policy refuses mc.example.org: %v", err)
	}
}

// mastersAt points every discovery source of a modules file at master.
func mastersAt(master netip.AddrPort) func(cfg map[string]any) {
	return func(cfg map[string]any) {
		if d, ok := cfg["discovery"].(map[string]any); ok {
			for _, src := range d {
				src.(map[string]any)["address"] = master.String()
			}
		}
	}
}

// clusterSecrets are the Secrets the ci values files name but the chart does not
// make (the operator's: cert-manager's certificate, a module's password), as the
// test's cluster holds them.
func clusterSecrets(t *testing.T) []corev1.Secret {
	// A certificate for the Service's name only, as cert-manager would issue for
	// ci/tls-values.yaml.
	cert, key := prototest.SelfSignedFor(t, []string{serviceHost})
	mk := func(name string, data map[string][]byte) corev1.Secret {
		s := corev1.Secret{Data: data}
		s.Name, s.Namespace = name, namespace
		return s
	}
	return []corev1.Secret{
		mk("gameserver-exporter-tls", map[string][]byte{"tls.crt": cert, "tls.key": key, "ca.crt": cert}),
		mk("palworld-admin", map[string][]byte{"password": []byte("admin-password")}),
		// ci/basic-auth-values.yaml's user, password "gameservers".
		mk("gameserver-exporter-basic-auth", map[string][]byte{"username": []byte("prometheus"), "password": []byte("gameservers")}),
	}
}

// pod is the rendered Deployment's exporter, running on loopback.
type pod struct {
	addr       string
	container  corev1.Container
	scheme     string
	ca         []byte // the certificate the exporter serves (self-signed), for TLS
	user       string // basic auth, from the rendered basicAuth Secret
	pass       string
	secrets    []corev1.Secret // the cluster's (clusterSecrets) and the chart's
	configFile string          // the modules file, as the pod mounts it
	proc       *testenv.Proc
}

// startPod runs the exporter as the pod would. edit changes the modules file
// first: test-only rewrites of addresses (discovery's masters to a loopback fake,
// and for the Prometheus test loopback opened to its fake game servers).
func startPod(t *testing.T, r *rendered, edit func(cfg map[string]any)) *pod {
	t.Helper()
	root := t.TempDir()
	spec := r.deployments[0].Spec.Template.Spec
	p := &pod{container: spec.Containers[0], scheme: "http", secrets: clusterSecrets(t)}
	for _, s := range r.secrets {
		s.Data = map[string][]byte{}
		for k, v := range s.StringData {
			s.Data[k] = []byte(v)
		}
		p.secrets = append(p.secrets, s)
	}
	inRoot := func(s string) string {
		return strings.ReplaceAll(s, "/etc/gameserver_exporter", filepath.Join(root, "etc/gameserver_exporter"))
	}
	// The pod's volumes, written under root where the container mounts them.
	for _, v := range spec.Volumes {
		var mount string
		for _, m := range p.container.VolumeMounts {
			if m.Name == v.Name {
				mount = m.MountPath
			}
		}
		if mount == "" {
			t.Fatalf("volume %s is mounted nowhere", v.Name)
		}
		data := map[string]string{}
		switch {
		case v.ConfigMap != nil:
			data = findConfigMap(t, r, v.ConfigMap.Name).Data
		case v.Secret != nil:
			s := p.secret(t, v.Secret.SecretName)
			for k, val := range s.Data {
				data[k] = string(val)
			}
			if c, ok := s.Data["tls.crt"]; ok {
				p.ca = c
			}
		default:
			t.Fatalf("volume %s: only ConfigMaps and Secrets are written", v.Name)
		}
		dir := filepath.Join(root, mount)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for k, val := range data {
			if k == "modules.yml" && edit != nil {
				var cfg map[string]any
				if err := yaml.Unmarshal([]byte(val), &cfg); err != nil {
					t.Fatal(err)
				}
				edit(cfg)
				b, err := yaml.Marshal(cfg)
				if err != nil {
					t.Fatal(err)
				}
				val = string(b)
			}
			prototest.WriteFile(t, filepath.Join(dir, k), inRoot(val))
		}
	}
	p.addr = testenv.FreeAddr(t)
	var args []string
	sawListen := false
	for _, a := range p.container.Args {
		if strings.HasPrefix(a, "--web.listen-address=") {
			// The kubelet's probes name the port: it must be the one listened on.
			_, port, _ := net.SplitHostPort(strings.TrimPrefix(a, "--web.listen-address="))
			if want := strconv.Itoa(int(p.containerPort(t, "http"))); port != want {
				t.Errorf("%s: the container port http is %s", a, want)
			}
			a, sawListen = "--web.listen-address="+p.addr, true
		}
		args = append(args, inRoot(a))
	}
	if !sawListen {
		t.Fatalf("args %v: no --web.listen-address", p.container.Args)
	}
	web := ""
	for _, a := range args {
		if cfg, ok := strings.CutPrefix(a, "--config.file="); ok {
			p.configFile = cfg
			// The modules file passes the exporter's own check first.
			if out, err := exec.Command(testenv.ExporterBinary(t, ".."), "--config.check", "--config.file="+cfg).CombinedOutput(); err != nil {
				t.Fatalf("--config.check: %v\n%s", err, out)
			}
		}
		if w, ok := strings.CutPrefix(a, "--web.config.file="); ok {
			web = string(readFile(t, w))
		}
	}
	if strings.Contains(web, "tls_server_config") {
		p.scheme = "https"
	}
	if strings.Contains(web, "basic_auth_users") {
		// What the chart's scrapers send: the Secret the ServiceMonitor names.
		if len(r.serviceMonitors) == 0 || r.serviceMonitors[0].Spec.Endpoints[0].BasicAuth == nil {
			t.Fatal("basic auth, but no ServiceMonitor with basicAuth to read the credentials from: enable serviceMonitor in the ci file")
		}
		ba := r.serviceMonitors[0].Spec.Endpoints[0].BasicAuth
		p.user = string(p.secret(t, ba.Username.Name).Data[ba.Username.Key])
		p.pass = string(p.secret(t, ba.Password.Name).Data[ba.Password.Key])
	}

	var env []string
	for _, e := range p.container.Env {
		env = append(env, e.Name+"="+e.Value)
	}
	p.proc = testenv.StartProc(t, "exporter", root, env, append([]string{testenv.ExporterBinary(t, "..")}, args...)...)
	// Up when the readiness probe passes.
	testenv.WaitFor(t, 60*time.Second, "the readiness probe to pass", func() (bool, string) {
		p.proc.FailIfExited(t)
		err := kubeletProbe(p.container.ReadinessProbe, p.addr)
		return err == nil, fmt.Sprint(err)
	})
	return p
}

func (p *pod) secret(t *testing.T, name string) *corev1.Secret {
	t.Helper()
	for i := range p.secrets {
		if p.secrets[i].Name == name {
			return &p.secrets[i]
		}
	}
	t.Fatalf("no Secret %s (neither rendered nor in clusterSecrets)", name)
	return nil
}

func (p *pod) containerPort(t *testing.T, name string) int32 {
	for _, cp := range p.container.Ports {
		if cp.Name == name {
			return cp.ContainerPort
		}
	}
	t.Fatalf("no container port %q", name)
	return 0
}

// checkKubelet: both kubelet probes name the container's http port and pass.
func (p *pod) checkKubelet(t *testing.T) {
	t.Helper()
	for name, pr := range map[string]*corev1.Probe{"liveness": p.container.LivenessProbe, "readiness": p.container.ReadinessProbe} {
		if pr == nil {
			t.Errorf("no %s probe", name)
			continue
		}
		port := intstr.FromString("http")
		switch {
		case pr.HTTPGet != nil:
			port = pr.HTTPGet.Port
		case pr.TCPSocket != nil:
			port = pr.TCPSocket.Port
		}
		if port != intstr.FromString("http") {
			t.Errorf("%s probe on port %s, want the container's http", name, port.String())
		}
		if err := kubeletProbe(pr, p.addr); err != nil {
			t.Errorf("%s probe: %v", name, err)
		}
	}
}

// kubeletProbe runs pr against addr (the container's port) as the kubelet does:
// an HTTP GET with the probe's scheme and headers, never verifying a certificate
// nor following a redirect elsewhere, passes on 2xx and 3xx; a tcpSocket probe
// passes when the port accepts a connection. The timeout is generous (the
// kubelet's is 1s) because this machine is shared.
func kubeletProbe(pr *corev1.Probe, addr string) error {
	const timeout = 10 * time.Second
	switch {
	case pr.HTTPGet != nil:
		g := pr.HTTPGet
		scheme := strings.ToLower(string(g.Scheme))
		if scheme == "" {
			scheme = "http"
		}
		req, err := http.NewRequest(http.MethodGet, scheme+"://"+addr+g.Path, nil)
		if err != nil {
			return err
		}
		for _, h := range g.HTTPHeaders {
			req.Header.Add(h.Name, h.Value)
		}
		c := &http.Client{
			Timeout:       timeout,
			Transport:     &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}},
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode < 200 || resp.StatusCode >= 400 {
			return fmt.Errorf("%s %s: %s", scheme, g.Path, resp.Status)
		}
		return nil
	case pr.TCPSocket != nil:
		c, err := net.DialTimeout("tcp", addr, timeout)
		if err != nil {
			return err
		}
		return c.Close()
	}
	return fmt.Errorf("probe %+v: neither httpGet nor tcpSocket", pr.ProbeHandler)
}

// get requests path as a scraper does (trusting the exporter's certificate for
// the Service's name), with the chart's credentials when auth is set.
func (p *pod) get(t *testing.T, path string, auth bool) int {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second}
	if p.ca != nil {
		pool := x509.NewCertPool()
		pool.AppendCertsFromPEM(p.ca)
		client.Transport = &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: serviceHost}}
	}
	req, _ := http.NewRequest(http.MethodGet, p.scheme+"://"+p.addr+path, nil)
	if auth && p.user != "" {
		req.SetBasicAuth(p.user, p.pass)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Errorf("GET %s: %v", path, err)
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
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
