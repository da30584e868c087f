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

// TestReloadHandler: POST only, when enabled; local callers only unless remote is
// set; a failed reload's error may quote /etc/shadow through a symlinked modules
// file: only loopback callers get it (hostile round, row 7).
func TestReloadHandler(t *testing.T) {
	for _, tc := range []struct {
		method, peer, host    string
		enabled, remote, fail bool
		code                  int
	}{
		{"POST", "127.0.0.1:40000", "localhost:10115", true, false, false, 200},
		{"GET", "127.0.0.1:40000", "localhost:10115", true, false, false, 405},
		{"POST", "127.0.0.1:40000", "localhost:10115", false, false, false, 405},
		{"POST", "[::1]:40000", "[::1]:10115", true, false, false, 200},
		{"POST", "192.0.2.7:40000", "exporter:10115", true, false, false, 403},
		{"POST", "127.0.0.1:40000", "rebind.attacker.example:10115", true, false, false, 403},
		{"POST", "192.0.2.7:40000", "exporter:10115", true, true, false, 200},
		{"POST", "192.0.2.7:40000", "localhost", true, true, true, 500},
		{"POST", "[2001:db8::7]:40000", "localhost", true, true, true, 500},
		{"POST", "127.0.0.1:40000", "localhost", true, true, true, 500},
		{"POST", "[::1]:40000", "localhost", true, true, true, 500},
	} {
		calls := 0
		h := ReloadHandler(func(context.Context) error {
			if calls++; tc.fail {
				return errors.New("modules file:1:1: root:$6$secret-hash:19000:0:99999:7::: is not YAML")
			}
			return nil
		}, slog.New(slog.DiscardHandler), tc.enabled, tc.remote)
		rec := serveFrom(h, tc.method, "/-/reload", tc.peer, tc.host, nil)
		body := rec.Body.String()
		if ran := tc.code == 200 || tc.code == 500; rec.Code != tc.code || (calls == 1) != ran {
			t.Errorf("%+v: %d after %d reloads", tc, rec.Code, calls)
		}
		if rec.Code == 403 && !strings.Contains(body, "--web.enable-remote-reload") {
			t.Errorf("the refusal does not name the flag: %s", body)
		}
		if local := !strings.HasPrefix(tc.peer, "192.") && !strings.HasPrefix(tc.peer, "[2001:"); strings.Contains(body, "secret-hash") != (local && tc.fail) {
			t.Errorf("%s: %d %q (detail wanted: %v)", tc.peer, rec.Code, body, local && tc.fail)
		}
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

// TestPagesTakeTurns: at most the limit of page renders run at once (hostile round,
// row 3: 2,000 concurrent /config renders of 4.8 MB took 945 MB).
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
	waitUntil(t, "the renders to start", func() bool { return now.Load() >= limit })
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
	waitUntil(t, "the render to start", func() bool { return len(busy.turn) > 0 })
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
