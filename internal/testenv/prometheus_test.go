package testenv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestPrometheus(t *testing.T) {
	t.Setenv("GSE_TESTENV_FAKE", "serve")
	p := StartPrometheus(t, os.Args[0], filepath.Join(t.TempDir(), "prometheus.yml"))
	if v, ok, desc := p.Value("one"); !ok || v != 1 || desc != "one = 1" {
		t.Errorf("Value(one) = %v %v %q", v, ok, desc)
	}
	p.WaitValue(t, time.Minute, "one", 1)
	for q, want := range map[string]string{
		"two":    "two: 2 series",
		"matrix": "result type matrix",
		"nan":    "value [1 x]",
		"error":  "bad query",
		"text":   "HTTP 200",
		"short":  "unexpected EOF",
	} {
		if _, ok, desc := p.Value(q); ok || !strings.Contains(desc, want) {
			t.Errorf("Value(%s): ok %v, %q, want %q", q, ok, desc, want)
		}
	}
	if a, err := p.Alerts(); err != nil || len(a) != 1 || a[0].Labels["alertname"] != "A" || a[0].State != "firing" {
		t.Errorf("Alerts: %v %v", a, err)
	}
	if got := p.Targets(); got != "\n  p up http://x/metrics \"\"" {
		t.Errorf("Targets: %q", got)
	}
	gone := StartProc(t, "gone", "", nil, "true")
	WaitFor(t, 10*time.Second, "true to exit", func() (bool, string) { return gone.Exited(), "" })
	wantFail(t, "gone exited", func(tb testing.TB) { p.WaitValue(tb, time.Minute, "two", 2, gone) })
	p.Stop()
	if got := p.Targets(); !strings.Contains(got, "connection refused") {
		t.Errorf("Targets of a stopped Prometheus: %q", got)
	}
	t.Setenv("GSE_TESTENV_FAKE", "exit")
	wantFail(t, "prometheus exited", func(tb testing.TB) { StartPrometheus(tb, os.Args[0], filepath.Join(t.TempDir(), "p.yml")) })
}

func TestCheckConfig(t *testing.T) {
	LookTool(t, "promtool", "prometheus")
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.yml"), filepath.Join(dir, "bad.yml")
	os.WriteFile(good, []byte("scrape_configs: []\n"), 0o644)
	os.WriteFile(bad, []byte("scrape_configs: [{job_name: x, bogus: 1}]\n"), 0o644)
	CheckConfig(t, good)
	wantFail(t, "promtool check config "+bad, func(tb testing.TB) { CheckConfig(tb, bad) })
}
