package web

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestReloadErrorStaysLocal: the reload error quotes the modules file (with the
// config symlinked to /etc/shadow, every line of it): only loopback callers get it,
// others a fixed message (hostile round, row 7).
func TestReloadErrorStaysLocal(t *testing.T) {
	h := ReloadHandler(func(context.Context) error {
		return errors.New("modules file:1:1: root:$6$secret-hash:19000:0:99999:7::: is not YAML")
	}, slog.New(slog.DiscardHandler), true, true) // remote callers allowed: they get the fixed message
	for _, tc := range []struct {
		remote string
		detail bool
	}{{"192.0.2.7:40000", false}, {"[2001:db8::7]:40000", false}, {"127.0.0.1:40000", true}, {"[::1]:40000", true}} {
		rec := serveFrom(h, http.MethodPost, "/-/reload", tc.remote, "localhost", nil)
		body := rec.Body.String()
		if rec.Code != http.StatusInternalServerError || strings.Contains(body, "secret-hash") != tc.detail {
			t.Errorf("%s: %d %q (detail wanted: %v)", tc.remote, rec.Code, body, tc.detail)
		}
	}
}

func TestReloadSwitchAndMethod(t *testing.T) {
	calls := 0
	reload := func(context.Context) error { calls++; return nil }
	for _, tc := range []struct {
		enabled bool
		method  string
		code    int
	}{{true, http.MethodPost, 200}, {true, http.MethodGet, 405}, {false, http.MethodPost, 405}} {
		rec := serveFrom(ReloadHandler(reload, slog.New(slog.DiscardHandler), tc.enabled, false), tc.method, "/-/reload", "127.0.0.1:40000", "localhost", nil)
		if rec.Code != tc.code {
			t.Errorf("enabled %v, %s: %d, want %d", tc.enabled, tc.method, rec.Code, tc.code)
		}
	}
	if calls != 1 {
		t.Errorf("%d reloads, want 1", calls)
	}
}

// TestReloadReturnsWhenClientLeaves: the handler passes the request's context, so
// a reload stuck on a file ends with its client.
func TestReloadReturnsWhenClientLeaves(t *testing.T) {
	stuck := make(chan struct{})
	defer close(stuck)
	reload := func(ctx context.Context) error {
		select {
		case <-stuck:
		case <-ctx.Done():
		}
		return ctx.Err()
	}
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequest(http.MethodPost, "/-/reload", nil).WithContext(ctx)
	done := make(chan struct{})
	go func() {
		ReloadHandler(reload, slog.New(slog.DiscardHandler), true, true).ServeHTTP(httptest.NewRecorder(), req)
		close(done)
	}()
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the handler did not return when its client left")
	}
}

// TestPagesTakeTurns: no more than the limit of page renders run at once; the
// rest wait their turn (hostile round, row 3: 2,000 concurrent /config requests
// rendered 4.8 MB each at once, 945 MB).
func TestPagesTakeTurns(t *testing.T) {
	const limit = 3
	var now, peak atomic.Int32
	release := make(chan struct{})
	h := NewPages(limit, time.Minute).Limit(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		n := now.Add(1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		<-release
		now.Add(-1)
	}))
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() { h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil)) })
	}
	for now.Load() < limit {
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if p := peak.Load(); p != limit {
		t.Errorf("%d renders at once, want %d", p, limit)
	}
	// A caller that waits past the wait gets 503, not a render.
	busy := NewPages(1, time.Millisecond)
	hold := make(chan struct{})
	slow := busy.Limit(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-hold }))
	go slow.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	for len(busy.turn) == 0 {
		time.Sleep(time.Millisecond)
	}
	rec := httptest.NewRecorder()
	slow.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	close(hold)
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
		t.Errorf("a caller past the wait: %d", rec.Code)
	}
}

// TestConfigRenderedOnce: /config and /modules are rendered once per loaded
// config: a later request allocates next to nothing.
func TestConfigRenderedOnce(t *testing.T) {
	sc := builtins(t)
	for _, h := range []http.Handler{ConfigHandler(sc), ModulesHandler(sc)} {
		serve := func() {
			rec := httptest.NewRecorder()
			rec.Body = nil // count the render, not the recorder's copy
			h.ServeHTTP(discard{rec}, httptest.NewRequest("GET", "/config", nil))
		}
		serve()
		if a := testing.AllocsPerRun(20, serve); a > 20 {
			t.Errorf("%.0f allocations a request after the first, want a cached page", a)
		}
	}
}

type discard struct{ *httptest.ResponseRecorder }

func (d discard) Write(b []byte) (int, error) { return io.Discard.Write(b) }
