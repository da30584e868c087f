package testenv

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Prometheus is a real Prometheus (Debian package prometheus) a test runs on
// loopback, and a client of its HTTP API.
type Prometheus struct {
	*Proc
	Base string
	c    *http.Client
}

// StartPrometheus runs bin with the configuration file cfg on a free loopback port
// and waits until it is ready.
func StartPrometheus(t testing.TB, bin, cfg string) *Prometheus {
	t.Helper()
	addr := FreeAddr(t)
	p := &Prometheus{Base: "http://" + addr, c: &http.Client{Timeout: 10 * time.Second}}
	p.Proc = StartProc(t, "prometheus", filepath.Dir(cfg), nil, bin, "--config.file="+cfg,
		"--storage.tsdb.path="+filepath.Join(t.TempDir(), "tsdb"), "--web.listen-address="+addr, "--log.level=warn")
	WaitFor(t, 90*time.Second, "prometheus to be ready", func() (bool, string) {
		p.FailIfExited(t)
		return HTTPOK(p.c, p.Base+"/-/ready")
	})
	return p
}

// CheckConfig runs promtool check config on cfg where promtool is installed.
func CheckConfig(t testing.TB, cfg string) {
	t.Helper()
	if pt, err := exec.LookPath("promtool"); err == nil {
		if out, err := RunTool(time.Minute, "", pt, "check", "config", cfg); err != nil {
			t.Fatalf("promtool check config %s: %v\n%s", cfg, err, out)
		}
	}
}

func (p *Prometheus) get(path string, q url.Values, v any) error {
	resp, err := p.c.Get(p.Base + path + "?" + q.Encode())
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return err
	}
	var env struct {
		Status, Error string
		Data          json.RawMessage
	}
	if err := json.Unmarshal(b, &env); err != nil {
		return fmt.Errorf("%s: HTTP %d: %v: %.200s", path, resp.StatusCode, err, b)
	}
	if env.Status != "success" {
		return fmt.Errorf("%s: %s", path, env.Error)
	}
	return json.Unmarshal(env.Data, v)
}

// Sample is one series of an instant vector.
type Sample struct {
	Metric map[string]string
	Value  float64
}

// Query runs an instant PromQL query and returns its vector.
func (p *Prometheus) Query(q string) ([]Sample, error) {
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
	out := make([]Sample, 0, len(data.Result))
	for _, r := range data.Result {
		s, _ := r.Value[1].(string)
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("query %s: value %v", q, r.Value)
		}
		out = append(out, Sample{r.Metric, v})
	}
	return out, nil
}

// Value runs q and returns its single value; ok is false unless there is exactly
// one series. desc says what was seen.
func (p *Prometheus) Value(q string) (v float64, ok bool, desc string) {
	s, err := p.Query(q)
	switch {
	case err != nil:
		return 0, false, err.Error()
	case len(s) != 1:
		return 0, false, fmt.Sprintf("%s: %d series %v", q, len(s), s)
	}
	return s[0].Value, true, fmt.Sprintf("%s = %v", q, s[0].Value)
}

// WaitValue waits until q has the single value want, failing at once when one of
// procs (the exporter the series come from) exits.
func (p *Prometheus) WaitValue(t testing.TB, timeout time.Duration, q string, want float64, procs ...*Proc) {
	t.Helper()
	WaitFor(t, timeout, fmt.Sprintf("%s == %v", q, want), func() (bool, string) {
		for _, pr := range procs {
			pr.FailIfExited(t)
		}
		v, ok, desc := p.Value(q)
		return ok && v == want, desc + "; targets:" + p.Targets()
	})
}

// Alert is one entry of /api/v1/alerts.
type Alert struct {
	Labels map[string]string
	State  string
}

func (p *Prometheus) Alerts() ([]Alert, error) {
	var data struct{ Alerts []Alert }
	err := p.get("/api/v1/alerts", nil, &data)
	return data.Alerts, err
}

// Targets summarises /api/v1/targets, for failure messages.
func (p *Prometheus) Targets() string {
	var data struct {
		ActiveTargets []struct{ ScrapePool, ScrapeURL, Health, LastError string }
	}
	if err := p.get("/api/v1/targets", nil, &data); err != nil {
		return err.Error()
	}
	var b strings.Builder
	for _, tg := range data.ActiveTargets {
		fmt.Fprintf(&b, "\n  %s %s %s %q", tg.ScrapePool, tg.Health, tg.ScrapeURL, tg.LastError)
	}
	return b.String()
}
