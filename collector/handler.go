package collector

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

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
	// MaxWaiting caps probes waiting for one of the MaxConcurrent slots; past it a
	// probe fails at once as overloaded.
	MaxWaiting int
	// RemoteDebug serves debug output to any caller; by default only to loopback
	// callers (see DebugAllowed).
	RemoteDebug bool
	// MinInterval is the least time between two queries of one target by one
	// module: scrapes in between get the last result. Modules may ask for more
	// with cache_ttl.
	MinInterval time.Duration

	once    sync.Once
	limit   *limiter
	formats formatCache
	flight  flight
	probes  sync.Map // module name -> its probes_total counter, looked up once
}

// probesCounter returns the module's probes_total child: WithLabelValues hashes the
// label on every call, a measurable part of a probe.
func (h *ProbeHandler) probesCounter(module string) prometheus.Counter {
	if c, ok := h.probes.Load(module); ok {
		return c.(prometheus.Counter)
	}
	c := h.Metrics.Probes.WithLabelValues(module)
	h.probes.Store(module, c)
	return c
}

func (h *ProbeHandler) resolver() Resolver {
	if h.Resolver != nil {
		return h.Resolver
	}
	return net.DefaultResolver
}

// requestError is a bad probe request: the HTTP status and the message for the user.
type requestError struct {
	code int
	msg  string
}

func (e *requestError) Error() string { return e.msg }

func badRequest(format string, args ...any) *requestError {
	return &requestError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

// Run validates one probe request and runs it, the way /probe does: module lookup,
// target parsing, timeout arithmetic (scrapeTimeout is the scraper's header value,
// "" without one), target policy, single-flight and cache. It returns the history
// entry of the probe, or a *requestError for a request that must not be probed.
func (h *ProbeHandler) Run(ctx context.Context, module, target, scrapeTimeout string) (*Entry, error) {
	cfg := h.Config.Get()
	mod, ok := cfg.Modules[module]
	if !ok {
		if module == "" {
			return nil, badRequest("module parameter is missing; known modules: %s", strings.Join(cfg.Names(), ", "))
		}
		h.Metrics.UnknownModule.Inc()
		return nil, badRequest("unknown module %q; known modules: %s", module, strings.Join(cfg.Names(), ", "))
	}
	host, port, err := parseTarget(target)
	if err != nil {
		return nil, badRequest("%v", err)
	}
	timeout, err := probeTimeoutFor(scrapeTimeout, time.Duration(mod.Timeout), h.TimeoutOffset)
	if err != nil {
		return nil, badRequest("%v", err)
	}
	srv := port == 0 && mod.Proto().LookupSRV != nil // the game's client would look up SRV
	if port == 0 {
		port = mod.DefaultPort()
	}
	ports, err := queryPorts(port, mod.QueryPortOffsets())
	if err != nil {
		return nil, badRequest("%v", err)
	}

	h.once.Do(func() { h.limit = newLimiter(h.MaxConcurrent, h.MaxWaiting) })
	// The probe's deadline, not the scraper's connection, ends it: the deadline is
	// already shorter than the scrape timeout, and a query other scrapes share is
	// better finished than dropped when its first scraper leaves. (Detaching also
	// spares registering with the request's context on every probe.)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer cancel()
	ttl := max(time.Duration(mod.CacheTTL), h.MinInterval)
	o, shared, cached := h.flight.do(ctx, flightKey(cfg.ID, module, host, port), ttl, timeout, func() *outcome {
		o := h.probe(ctx, cfg, module, mod, host, ports, srv)
		o.timeout = timeout // before other requests can see it
		return o
	})
	if o == nil {
		o = &outcome{module: mod, timeout: timeout, err: fmt.Errorf("%w: waiting for a probe of the same target", protocols.ErrTimeout)}
	}
	if o.policy != nil {
		h.Metrics.PolicyRefusals.Inc()
		return nil, &requestError{http.StatusForbidden, "target refused by target_policy: " + o.policy.Error()}
	}
	if shared || cached {
		v := *o // a copy: the outcome belongs to the request that ran the query
		v.timeout, v.shared, v.cached = timeout, shared, cached
		o = &v
		h.Metrics.Coalesced.Inc()
	}
	h.probesCounter(module).Inc()
	if o.err != nil {
		h.Metrics.Failures.WithLabelValues(module, protocols.Reason(o.err)).Inc()
	}
	return h.History.Add(module, target, o), nil
}

// flightKey identifies a query for coalescing: the same target by the same module
// under the same config. Built in one allocation.
func flightKey(configID uint64, module, host string, port uint16) string {
	b := make([]byte, 0, 48+len(module)+len(host))
	b = strconv.AppendUint(b, configID, 10)
	b = append(b, '|')
	b = append(b, module...)
	b = append(b, '|')
	b = append(b, host...)
	b = append(b, '|')
	b = strconv.AppendUint(b, uint64(port), 10)
	return string(b)
}

func (h *ProbeHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q, err := probeParams(r.URL.RawQuery)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	debug := q.Get("debug") == "true"
	if debug && !DebugAllowed(r, h.RemoteDebug) {
		http.Error(w, debugRefused, http.StatusForbidden)
		return
	}
	entry, err := h.Run(r.Context(), q.Get("module"), q.Get("target"), r.Header.Get("X-Prometheus-Scrape-Timeout-Seconds"))
	if err != nil {
		code := http.StatusBadRequest
		var re *requestError
		if errors.As(err, &re) {
			code = re.code
		}
		http.Error(w, err.Error(), code)
		return
	}
	if debug {
		setDebugHeaders(w)
		writeDebug(w, entry)
		return
	}
	format := h.formats.negotiate(r.Header.Get("Accept"))
	bp := bufPool.Get().(*[]byte)
	fams := buildFamilies(entry.outcome)
	*bp = fams.appendTo((*bp)[:0], format.om)
	fams.release()
	hdr := w.Header()
	// Direct map writes with shared values: Header.Set allocates a slice each time.
	// net/http only reads them.
	hdr["Content-Type"] = format.contentType
	// An explicit length: without it net/http chunks bodies over 2 KiB, which costs
	// an extra write per probe.
	hdr["Content-Length"] = []string{strconv.Itoa(len(*bp))}
	w.Write(*bp)
	if cap(*bp) <= maxPooledBuffer {
		bufPool.Put(bp)
	}
}

// probe resolves host and runs the module's query against host:port.
func (h *ProbeHandler) probe(ctx context.Context, cfg *config.Config, name string, mod *config.Module, host string, ports []uint16, srv bool) *outcome {
	start := time.Now()
	tr := wire.NewTrace()
	o := &outcome{module: mod, trace: tr, when: start, name: name, host: host, port: ports[0], budget: deadlineLeft(ctx)}
	// Log lines are written from the outcome when debug output is asked for: the
	// hot path formats nothing.
	if err := h.limit.acquire(ctx); err != nil {
		o.err, o.duration = err, time.Since(start)
		return o
	}
	defer h.limit.release()
	h.Metrics.InFlight.Inc()
	defer h.Metrics.InFlight.Dec()

	p := tr.Begin("resolve")
	queryHost := host
	if _, err := netip.ParseAddr(host); err != nil {
		ctx = protocols.WithTargetHost(ctx, host)
		if srv {
			if target, port, ok := mod.Proto().LookupSRV(ctx, host); ok {
				if sp, err := queryPorts(port, mod.QueryPortOffsets()); err == nil {
					queryHost, ports = target, sp
					tr.Logf("SRV record of %s: %s port %d", host, target, port)
				}
			}
		}
	}
	addrs, err := resolve(ctx, h.resolver(), queryHost, mod.PreferredIPProtocol, mod.Fallback())
	tr.End(p, err)
	if err != nil {
		o.err, o.duration = err, time.Since(start)
		return o
	}
	if o.policy = checkPolicy(&cfg.TargetPolicy, host, queryHost, addrs); o.policy != nil {
		return o
	}
	for i, port := range ports {
		o.port = port
		o.addr = netip.AddrPortFrom(addrs[0], port)
		qctx, cancel := candidateContext(ctx, len(ports)-i)
		o.result, o.err = mod.Querier().Query(qctx, o.addr, tr)
		cancel()
		if o.err == nil || ctx.Err() != nil {
			break
		}
		if i < len(ports)-1 {
			tr.Logf("No answer on port %d (%s): trying port %d", port, protocols.Reason(o.err), ports[i+1])
		}
	}
	o.duration = time.Since(start)
	if o.err != nil && h.Logger.Enabled(ctx, slog.LevelDebug) {
		h.Logger.Debug("Probe failed", "module", name, "target", host, "port", o.port, "reason", protocols.Reason(o.err), "err", o.err)
	}
	return o
}

// candidateContext gives one of n remaining port candidates an equal share of the
// time left, so the last one still ends by the probe's deadline.
func candidateContext(ctx context.Context, n int) (context.Context, context.CancelFunc) {
	d, ok := ctx.Deadline()
	if n <= 1 || !ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, time.Until(d)/time.Duration(n))
}

func deadlineLeft(ctx context.Context) time.Duration {
	if d, ok := ctx.Deadline(); ok {
		return time.Until(d).Round(time.Millisecond)
	}
	return 0
}
