package collector

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/common/expfmt"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// acceptedFormats are the exposition formats /probe offers, in order of preference
// when the scraper's Accept header ranks them equally (as promhttp with OpenMetrics).
var acceptedFormats = expfmt.DefaultOpenMetricsAcceptedFormats()

// ProbeHandler serves /probe.
type ProbeHandler struct {
	Config        *config.SafeConfig
	Logger        *slog.Logger
	Metrics       *SelfMetrics
	History       *History
	TimeoutOffset time.Duration
	Resolver      Resolver // nil: net.DefaultResolver
	// MaxConcurrent caps probes in flight (0: no cap); set before the first request.
	MaxConcurrent int
	// MinInterval is the least time between two queries of one target by one
	// module: scrapes in between get the last result. Modules may ask for more
	// with cache_ttl.
	MinInterval time.Duration

	once   sync.Once
	limit  limiter
	flight flight
}

func (h *ProbeHandler) resolver() Resolver {
	if h.Resolver != nil {
		return h.Resolver
	}
	return net.DefaultResolver
}

func (h *ProbeHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	cfg := h.Config.Get()
	q := r.URL.Query()
	name := q.Get("module")
	mod, ok := cfg.Modules[name]
	if !ok {
		if name == "" {
			httpError(w, http.StatusBadRequest, "module parameter is missing; known modules: %s", strings.Join(cfg.Names(), ", "))
			return
		}
		h.Metrics.UnknownModule.Inc()
		httpError(w, http.StatusBadRequest, "unknown module %q; known modules: %s", name, strings.Join(cfg.Names(), ", "))
		return
	}
	target := q.Get("target")
	host, port, err := parseTarget(target)
	if err != nil {
		httpError(w, http.StatusBadRequest, "%v", err)
		return
	}
	timeout, err := probeTimeoutFor(r, time.Duration(mod.Timeout), h.TimeoutOffset)
	if err != nil {
		httpError(w, http.StatusBadRequest, "%v", err)
		return
	}
	if port == 0 {
		port = mod.DefaultPort()
	}
	qport, err := queryPortFor(port, mod.QueryPortOffset())
	if err != nil {
		httpError(w, http.StatusBadRequest, "%v", err)
		return
	}

	h.once.Do(func() { h.limit = newLimiter(h.MaxConcurrent) })
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	ttl := max(time.Duration(mod.CacheTTL), h.MinInterval)
	key := strconv.FormatUint(cfg.ID, 10) + "|" + name + "|" + host + "|" + strconv.Itoa(int(qport))
	o, shared, cached := h.flight.do(ctx, key, ttl, func() *outcome { return h.probe(ctx, cfg, name, mod, host, qport) })
	if o == nil {
		o = &outcome{module: mod, err: fmt.Errorf("%w: waiting for a probe of the same target", protocols.ErrTimeout)}
	}
	if o.policy != nil {
		h.Metrics.PolicyRefusals.Inc()
		httpError(w, http.StatusForbidden, "target refused by target_policy: %v", o.policy)
		return
	}
	v := *o // per-request copy: the outcome may be shared with other requests
	v.timeout, v.shared, v.cached = timeout, shared, cached
	o = &v
	if shared || cached {
		h.Metrics.Coalesced.Inc()
	}
	fams := buildFamilies(o).sorted()

	h.Metrics.Probes.WithLabelValues(name).Inc()
	if o.err != nil {
		h.Metrics.Failures.WithLabelValues(name, protocols.Reason(o.err)).Inc()
	}
	entry := h.History.Add(name, target, o, fams)

	if q.Get("debug") == "true" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		writeDebug(w, entry)
		return
	}
	format := expfmt.NegotiateAccept(r.Header, acceptedFormats...)
	var buf bytes.Buffer
	enc := expfmt.NewEncoder(&buf, format)
	for _, mf := range fams {
		if err := enc.Encode(mf); err != nil {
			http.Error(w, "encoding metrics: "+err.Error(), http.StatusInternalServerError)
			return
		}
	}
	if c, ok := enc.(expfmt.Closer); ok {
		c.Close()
	}
	w.Header().Set("Content-Type", string(format))
	w.Write(buf.Bytes())
}

// probe resolves host and runs the module's query against host:port.
func (h *ProbeHandler) probe(ctx context.Context, cfg *config.Config, name string, mod *config.Module, host string, port uint16) *outcome {
	start := time.Now()
	tr := wire.NewTrace()
	o := &outcome{module: mod, trace: tr, when: start}
	tr.Logf("Beginning probe: module=%s protocol=%s host=%s port=%d timeout=%s", name, mod.Protocol, host, port, deadlineLeft(ctx))
	if err := h.limit.acquire(ctx); err != nil {
		o.err, o.duration = err, time.Since(start)
		tr.Logf("Probe failed: %v", err)
		return o
	}
	defer h.limit.release()
	h.Metrics.InFlight.Inc()
	defer h.Metrics.InFlight.Dec()

	p := tr.Begin("resolve")
	addrs, err := resolve(ctx, h.resolver(), host, mod.PreferredIPProtocol, mod.Fallback())
	tr.End(p, err)
	if err == nil {
		if o.policy = cfg.TargetPolicy.Check(host, addrs); o.policy != nil {
			tr.Logf("Target refused by target_policy: %v", o.policy)
			return o
		}
		addr := netip.AddrPortFrom(addrs[0], port)
		o.port = port
		tr.Logf("Resolved %s to %s", host, addr)
		o.result, o.err = mod.Querier().Query(ctx, addr, tr)
	} else {
		o.err = err
	}
	o.duration = time.Since(start)
	if o.err != nil {
		tr.Logf("Probe failed after %s: reason=%s: %v", o.duration.Round(time.Microsecond), protocols.Reason(o.err), o.err)
		if h.Logger.Enabled(ctx, slog.LevelDebug) {
			h.Logger.Debug("Probe failed", "module", name, "target", host, "port", port, "reason", protocols.Reason(o.err), "err", o.err)
		}
	} else {
		for _, pe := range o.result.PhaseErrors {
			tr.Logf("Phase %s failed (the server is up): %v", pe.Phase, pe.Err)
		}
		tr.Logf("Probe succeeded after %s", o.duration.Round(time.Microsecond))
	}
	return o
}

func deadlineLeft(ctx context.Context) time.Duration {
	if d, ok := ctx.Deadline(); ok {
		return time.Until(d).Round(time.Millisecond)
	}
	return 0
}

func httpError(w http.ResponseWriter, code int, format string, args ...any) {
	http.Error(w, fmt.Sprintf(format, args...), code)
}
