package web

import (
	"cmp"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// A loopback caller is local only when its Host names the exporter: a loopback
// name or address, the address reached, a listen address's host (DNS rebinding).
func TestLocalCaller(t *testing.T) {
	srv := &http.Server{}
	ListenHosts(srv, []string{":10115", "Exporter.Example.org:10115", "192.0.2.5:10116"})
	for _, tc := range []struct {
		peer, host, local string
		want              bool
	}{
		{"127.0.0.1:5000", "localhost:10115", "127.0.0.1:10115", true},
		{"127.0.0.1:5000", "LOCALHOST.", "127.0.0.1:10115", true},
		{"127.0.0.1:5000", "grafana.localhost:3000", "127.0.0.1:10115", true},
		{"127.0.0.1:5000", "127.0.0.1:10115", "127.0.0.1:10115", true},
		{"127.0.0.1:5000", "127.0.0.2", "127.0.0.1:10115", true},
		{"[::1]:5000", "[::1]:10115", "[::1]:10115", true},
		{"[::ffff:127.0.0.1]:5000", "localhost", "127.0.0.1:10115", true},
		{"127.0.0.1:5000", "", "127.0.0.1:10115", true},
		{"127.0.0.1:5000", "exporter.example.org:10115", "127.0.0.1:10115", true},
		{"127.0.0.1:5000", "198.51.100.9:10115", "198.51.100.9:10115", true}, // the address it reached
		{"127.0.0.1:5000", "rebind.attacker.example", "127.0.0.1:10115", false},
		{"127.0.0.1:5000", "rebind.attacker.example:10115", "127.0.0.1:10115", false},
		{"127.0.0.1:5000", "localhost.attacker.example", "127.0.0.1:10115", false},
		{"127.0.0.1:5000", "198.51.100.9:10115", "127.0.0.1:10115", false},
		{"127.0.0.1:5000", "example.org", "127.0.0.1:10115", false},
		{"192.0.2.7:5000", "localhost", "192.0.2.5:10115", false},
		{"192.0.2.7:5000", "192.0.2.5:10115", "192.0.2.5:10115", false},
	} {
		ctx := context.WithValue(srv.BaseContext(nil), http.LocalAddrContextKey, net.Addr(net.TCPAddrFromAddrPort(netip.MustParseAddrPort(tc.local))))
		req := httptest.NewRequestWithContext(ctx, "GET", "/logs", nil)
		req.RemoteAddr, req.Host = tc.peer, tc.host
		if got := LocalCaller(req); got != tc.want {
			t.Errorf("peer %s, Host %q, reached %s: local %v, want %v", tc.peer, tc.host, tc.local, got, tc.want)
		}
	}
}

// Regression tests for issue 13: what a client may send must not grow memory, reach
// debug output from afar, or poison the cache.

// The handler's Accept cache (collector.Negotiator) stays bounded under churn.
func TestAcceptHeadersBounded(t *testing.T) {
	h := newTestHandler(t, &prototest.FakeQuerier{Result: &protocols.Result{Players: protocols.Known(1)}}, nil)
	h.History = NewHistory(0)
	pad := strings.Repeat("x", 400)
	get(t, h, "/probe?module=fake&target=127.0.0.1", nil) // warm up
	before := prototest.HeapAfterGC()
	const n = 20000
	for i := range n {
		get(t, h, "/probe?module=fake&target=127.0.0.1", map[string]string{
			"Accept": fmt.Sprintf("text/plain;version=0.0.4;q=0.%d;x=%s%d", i%9+1, pad, i),
		})
	}
	after := prototest.HeapAfterGC()
	growth := int64(after) - int64(before)
	t.Logf("heap growth after %d distinct Accept headers: %d KiB", n, growth>>10)
	// Unbounded, each header kept ~0.9 KiB (18 MiB here); bounded, a few KiB in all.
	if growth > 2<<20 {
		t.Errorf("heap grew %d KiB after %d distinct Accept headers", growth>>10, n)
	}
	// Still negotiates right after the churn: OpenMetrics, ending with # EOF.
	resp, body := get(t, h, "/probe?module=fake&target=127.0.0.1", map[string]string{
		"Accept": "application/openmetrics-text;version=1.0.0;q=0.9,text/plain;version=0.0.4;q=0.5",
	})
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/openmetrics-text") || !strings.HasSuffix(body, "# EOF\n") {
		t.Errorf("content type %q, body\n%s", ct, body)
	}
}

func TestDebugAccess(t *testing.T) {
	h := newTestHandler(t, &prototest.FakeQuerier{Result: &protocols.Result{Name: "srv"}}, nil)
	for _, c := range []struct {
		remote, host string // host "": localhost:10115
		open, want   bool
	}{
		{"127.0.0.1:5000", "", false, true},
		{"[::1]:5000", "", false, true},
		{"[::ffff:127.0.0.1]:5000", "", false, true},
		{"127.0.0.1:5000", "rebind.attacker.example:10115", false, false}, // DNS rebinding
		{"192.0.2.7:5000", "", false, false},
		{"[2001:db8::1]:5000", "", false, false},
		{"10.0.0.8:5000", "", false, false},
		{"192.0.2.7:5000", "", true, true},
	} {
		h.RemoteDebug = c.open
		for _, hd := range []struct {
			name    string
			handler http.Handler
			url     string
		}{
			{"probe", h, "/probe?module=fake&target=127.0.0.1&debug=true"},
			{"logs", h.History.DebugHandler(c.open), "/logs?id=1"},
		} {
			rec := serveFrom(hd.handler, "GET", hd.url, c.remote, cmp.Or(c.host, "localhost:10115"), nil)
			got := rec.Code == http.StatusOK
			if got != c.want {
				t.Errorf("%s from %s naming %q (remote debug %v): status %d, want allowed=%v: %s", hd.name, c.remote, c.host, c.open, rec.Code, c.want, rec.Body)
			}
			if !c.want && (!strings.Contains(rec.Body.String(), "--web.enable-remote-debug") || strings.Contains(rec.Body.String(), "world")) {
				t.Errorf("%s refusal must say how to open it and show nothing: %s", hd.name, rec.Body)
			}
			if c.want && rec.Header().Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("%s: no nosniff header", hd.name)
			}
		}
	}
	// Metrics stay open to everyone.
	if rec := serveFrom(h, "GET", "/probe?module=fake&target=127.0.0.1", "192.0.2.7:5000", "x", nil); rec.Code != 200 {
		t.Errorf("plain probe from a remote caller: %d", rec.Code)
	}
}
