package web

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gameserver-exporter/gameserver_exporter/collector"
	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
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
	rec := serveFrom(h, "GET", url, "127.0.0.1:40000", "localhost:10115", hdr) // remote callers: TestDebugAccess
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Result(), string(body)
}

// serveFrom serves one request from peer remote naming host (localhost:10115: the
// exporter as the operator names it, LocalCaller).
func serveFrom(h http.Handler, method, url, remote, host string, hdr map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, url, nil)
	req.RemoteAddr, req.Host = remote, host
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// builtins is a SafeConfig holding the built-in modules.
func builtins(t *testing.T) *config.SafeConfig {
	t.Helper()
	sc := config.NewSafeConfig("")
	if err := sc.Reload(); err != nil {
		t.Fatal(err)
	}
	return sc
}

// waitUntil waits up to 20 s for cond (testenv.WaitEvery), failing t with what
// when it never holds.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testenv.WaitEvery(t, 2*time.Millisecond, 20*time.Second, what, func() (bool, string) { return cond(), "" })
}
