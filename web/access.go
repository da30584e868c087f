package web

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
)

// debugRefused is the answer to a remote caller asking for debug output.
const debugRefused = "debug output (debug=true, /logs) is served to loopback callers only: it can show " +
	"what any service at a probed address sent. Start the exporter with --web.enable-remote-debug to serve it to everyone."

// DebugAllowed reports whether r may see debug output: raw replies and log lines of
// probes. Anyone who can reach /probe can point it at any address the target policy
// allows, a non-game service included, and debug output would echo what that
// service said (a greeting, a banner, a page). Loopback callers are the operator on
// the host (or kubectl port-forward); others need remote set. A reverse proxy on the
// same host makes every caller loopback: keep debug behind its authentication.
func DebugAllowed(r *http.Request, remote bool) bool {
	if remote {
		return true
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Unmap().IsLoopback()
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
