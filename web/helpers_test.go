package web

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gameserver-exporter/gameserver_exporter/collector"
	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

func newTestHandler(t *testing.T, q protocols.Querier, mods map[string]*config.Module) *ProbeHandler {
	t.Helper()
	if mods == nil {
		mods = map[string]*config.Module{"fake": {Protocol: "fake", Players: true}}
	}
	for _, m := range mods {
		if q == nil {
			continue
		}
		p := protocols.Protocol{Name: "fake", DefaultPort: 27015, New: func(protocols.Settings) (protocols.Querier, error) { return q, nil }}
		if err := m.Compile(p); err != nil {
			t.Fatal(err)
		}
	}
	sc := config.NewSafeConfig("")
	sc.Set(&config.Config{Modules: mods})
	return &ProbeHandler{
		Runner: &collector.Runner{
			Config:        sc,
			Logger:        slog.New(slog.DiscardHandler),
			Metrics:       collector.NewMetrics(prometheus.NewRegistry()),
			TimeoutOffset: 500 * time.Millisecond,
		},
		History: NewHistory(10),
	}
}

func get(t *testing.T, h http.Handler, url string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest("GET", url, nil)
	req.RemoteAddr = "127.0.0.1:40000" // the operator on the host; remote callers: TestDebugAccess
	req.Host = "localhost:10115"       // naming the exporter as the operator does (LocalCaller)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Result(), string(body)
}

func counterValue(t *testing.T, c prometheus.Collector) float64 {
	t.Helper()
	return testutil.ToFloat64(c)
}
