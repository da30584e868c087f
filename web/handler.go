// Package web is the exporter's HTTP side of probing: the /probe handler (request
// parameters, debug gating, the probe's metrics in the negotiated format), the
// History of recent probes with the status table the landing page shows, debug
// output (/probe?debug=true, /logs), access control for it, and the JSON report
// of `gameserver_exporter query --json`. Probes are run by collector.Runner and their
// metrics written by package collector.
package web

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"

	"github.com/gameserver-exporter/gameserver_exporter/collector"
)

// ProbeHandler serves /probe.
type ProbeHandler struct {
	Runner  *collector.Runner
	History *History // nil: keep nothing
	// RemoteDebug serves debug output to any caller; by default only to loopback
	// callers (see DebugAllowed).
	RemoteDebug bool
	// Parking, when set, parks probes past its threshold (see Parking).
	Parking *Parking

	formats collector.Negotiator
}

func (h *ProbeHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q, err := probeParams(r.URL.RawQuery)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	pr := probeRequest{
		module:        q.Get("module"),
		target:        q.Get("target"),
		scrapeTimeout: r.Header.Get("X-Prometheus-Scrape-Timeout-Seconds"),
		accept:        r.Header.Get("Accept"),
		debug:         q.Get("debug") == "true",
	}
	if pr.debug && !DebugAllowed(r, h.RemoteDebug) {
		http.Error(w, debugRefused, http.StatusForbidden)
		return
	}
	if p := h.Parking; p != nil {
		if p.enter() {
			if b, ok := p.park(w, r); ok {
				// The request's context ends when this handler returns, now, and is
				// not kept: neither the request nor its context tree (the probe needs
				// none of its values) stays for a probe that may wait seconds.
				ctx := context.Background()
				go p.serve(b, func(w http.ResponseWriter) { h.probe(ctx, w, &pr) })
				return
			}
		}
		defer p.leave()
	}
	h.probe(r.Context(), w, &pr)
}

// probeRequest is what a probe needs of its request.
type probeRequest struct {
	module, target, scrapeTimeout, accept string
	debug                                 bool
}

// probe runs the probe and writes its answer. It is lean, and the answer is
// written by a function of its own: a probe waiting for its server holds this
// frame (collector's runner says why).
func (h *ProbeHandler) probe(ctx context.Context, w http.ResponseWriter, pr *probeRequest) {
	o, err := h.Runner.Run(ctx, pr.module, pr.target, pr.scrapeTimeout)
	h.answer(w, pr, o, err)
}

// answer writes a probe's outcome, or the error that kept it from running.
//
//go:noinline
func (h *ProbeHandler) answer(w http.ResponseWriter, pr *probeRequest, o *collector.Outcome, err error) {
	if err != nil {
		code := http.StatusBadRequest
		var re *collector.RequestError
		if errors.As(err, &re) {
			code = re.Status
		}
		msg := err.Error()
		writeWithin(w, len(msg))
		http.Error(w, msg, code)
		return
	}
	h.History.Add(o)
	if pr.debug {
		setDebugHeaders(w)
		var buf bytes.Buffer
		writeDebug(&buf, o)
		writeWithin(w, buf.Len())
		w.Write(buf.Bytes())
		return
	}
	format := h.formats.Negotiate(pr.accept)
	bp := bufPool.Get().(*[]byte)
	*bp = collector.Append((*bp)[:0], o, format.OpenMetrics)
	hdr := w.Header()
	// Direct map writes with shared values: Header.Set allocates a slice each time.
	// net/http only reads them.
	hdr["Content-Type"] = format.ContentType
	// An explicit length: without it net/http chunks bodies over 2 KiB, which costs
	// an extra write per probe.
	hdr["Content-Length"] = []string{strconv.Itoa(len(*bp))}
	writeWithin(w, len(*bp)) // net/http's connection: the fast path and parking set their own
	w.Write(*bp)
	if cap(*bp) <= maxPooledBuffer {
		bufPool.Put(bp)
	}
}

// bufPool recycles exposition buffers across probes: 8 allocations and 7 KB a probe
// (BenchmarkServeHTTP: 36 -> 28 allocs/op, the buffer grows by doubling otherwise).
// Buffers over maxPooledBuffer are not put back (see ServeHTTP).
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

const maxPooledBuffer = 64 << 10
