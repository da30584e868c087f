package web

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
)

// debugRefused is the answer to a remote caller asking for debug output.
const debugRefused = "debug output (debug=true, /logs) is served to loopback callers only (that name the exporter " +
	"as localhost or by its address): it can show what any service at a probed address sent. " +
	"Start the exporter with --web.enable-remote-debug to serve it to everyone."

// DebugAllowed reports whether r may see debug output: raw replies and log lines of
// probes. Anyone who can reach /probe can point it at any address the target policy
// allows, a non-game service included, and debug output would echo what that
// service said (a greeting, a banner, a page). Local callers (LocalCaller) are the
// operator on the host (or kubectl port-forward); others need remote set. A reverse
// proxy on the same host makes every caller loopback: keep debug behind its
// authentication.
func DebugAllowed(r *http.Request, remote bool) bool {
	return remote || LocalCaller(r)
}

// LocalCaller reports whether r comes from the exporter's own host: a loopback
// peer that names the exporter (its Host header) by a loopback name or address
// (localhost, *.localhost, 127.0.0.1, [::1]), by the address it connected to, or
// by a host name the exporter listens on (ListenHosts). A page in a browser on
// the host whose own name was re-pointed at 127.0.0.1 (DNS rebinding) is a
// loopback peer that names another host: it is not local.
func LocalCaller(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Unmap().IsLoopback() && localHost(r)
}

// localHost reports whether r's Host header names the exporter as LocalCaller
// says.
func localHost(r *http.Request) bool {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = hostName(strings.Trim(host, "[]"))
	switch {
	case host == "":
		return true // HTTP/1.0 without one: no browser sends that
	case host == "localhost" || strings.HasSuffix(host, ".localhost"):
		return true // browsers resolve these to loopback themselves, never by DNS
	}
	if a, err := netip.ParseAddr(host); err == nil {
		a = a.Unmap()
		if a.IsLoopback() {
			return true
		}
		if l, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
			if ap, err := netip.ParseAddrPort(l.String()); err == nil && ap.Addr().Unmap() == a {
				return true
			}
		}
		return false
	}
	names, _ := r.Context().Value(listenHostsKey{}).([]string)
	return slices.Contains(names, host)
}

// hostName is a host name as LocalCaller compares it: lower case, no root dot.
func hostName(h string) string { return strings.ToLower(strings.TrimSuffix(h, ".")) }

type listenHostsKey struct{}

// ListenHosts gives srv's requests the host names of addrs (--web.listen-address
// values, host:port), which LocalCaller takes as naming the exporter.
func ListenHosts(srv *http.Server, addrs []string) {
	var names []string
	for _, a := range addrs {
		if h, _, err := net.SplitHostPort(a); err == nil && h != "" {
			if _, err := netip.ParseAddr(h); err != nil {
				names = append(names, hostName(h))
			}
		}
	}
	ctx := context.WithValue(context.Background(), listenHostsKey{}, names)
	srv.BaseContext = func(net.Listener) context.Context { return ctx }
}

// setDebugHeaders marks debug output as plain text that browsers must not sniff
// into HTML: it quotes what servers sent.
func setDebugHeaders(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
}

// probeParams parses /probe's query string, saying what is wrong with it rather
// than reading a query the parser gave up on as empty (net/url drops every
// parameter past its limit), and refusing a parameter given twice.
func probeParams(raw string) (url.Values, error) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return nil, fmt.Errorf("invalid query string: %v", err)
	}
	for _, k := range []string{"module", "target", "debug"} {
		if n := len(q[k]); n > 1 {
			return nil, fmt.Errorf("parameter %q given %d times: give it once", k, n)
		}
	}
	return q, nil
}
