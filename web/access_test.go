package web

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A loopback caller is local only when its Host header names the exporter: a
// loopback name or address, the address it connected to, or a listen address's
// host name (DNS rebinding: a browser page whose name now resolves to 127.0.0.1
// sends its own name).
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
		ctx := context.WithValue(srv.BaseContext(nil), http.LocalAddrContextKey, net.Addr(tcpAddr(t, tc.local)))
		req := httptest.NewRequestWithContext(ctx, "GET", "/logs", nil)
		req.RemoteAddr, req.Host = tc.peer, tc.host
		if got := LocalCaller(req); got != tc.want {
			t.Errorf("peer %s, Host %q, reached %s: local %v, want %v", tc.peer, tc.host, tc.local, got, tc.want)
		}
	}
}

func tcpAddr(t *testing.T, s string) *net.TCPAddr {
	a, err := net.ResolveTCPAddr("tcp", s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// Debug output, /logs, the status page's messages and reload errors are refused
// to a loopback peer naming another host.
func TestDebugRefusesRebinding(t *testing.T) {
	h := fastHandler(t)
	_, body := get(t, h, probePath, nil) // a probe in the history
	if !strings.Contains(body, "probe_success 1") {
		t.Fatal(body)
	}
	for _, tc := range []struct {
		name    string
		handler http.Handler
		url     string
	}{
		{"probe", h, probePath + "&debug=true"},
		{"logs", h.History.DebugHandler(false), "/logs?id=1"},
	} {
		for _, host := range []string{"localhost:10115", "rebind.attacker.example:10115"} {
			rec := serveFrom(tc.handler, "GET", tc.url, "127.0.0.1:40000", host, nil)
			if want := map[bool]int{true: 200, false: 403}[host == "localhost:10115"]; rec.Code != want {
				t.Errorf("%s with Host %s: %d, want %d", tc.name, host, rec.Code, want)
			}
		}
	}
}

// POST /-/reload takes local callers only, unless remote is set; a loopback peer
// naming another host is not local.
func TestReloadLocalOnly(t *testing.T) {
	for _, tc := range []struct {
		peer, host string
		remote     bool
		code       int
	}{
		{"127.0.0.1:40000", "localhost:10115", false, 200},
		{"[::1]:40000", "[::1]:10115", false, 200},
		{"192.0.2.7:40000", "exporter:10115", false, 403},
		{"127.0.0.1:40000", "rebind.attacker.example:10115", false, 403},
		{"192.0.2.7:40000", "exporter:10115", true, 200},
	} {
		calls := 0
		h := ReloadHandler(func(context.Context) error { calls++; return nil }, slog.New(slog.DiscardHandler), true, tc.remote)
		rec := serveFrom(h, http.MethodPost, "/-/reload", tc.peer, tc.host, nil)
		if rec.Code != tc.code || calls != map[bool]int{true: 1, false: 0}[tc.code == 200] {
			t.Errorf("%s naming %s (remote %v): %d after %d reloads, want %d", tc.peer, tc.host, tc.remote, rec.Code, calls, tc.code)
		}
		if rec.Code == 403 && !strings.Contains(rec.Body.String(), "--web.enable-remote-reload") {
			t.Errorf("the refusal does not name the flag: %s", rec.Body)
		}
	}
}
