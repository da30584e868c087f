package collector

import (
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

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Runner runs probes: the /probe pipeline without HTTP. Set its fields before the
// first Run; a Runner is safe for concurrent use.
type Runner struct {
	Config        *config.SafeConfig
	Logger        *slog.Logger
	Metrics       *Metrics
	TimeoutOffset time.Duration
	Resolver      Resolver // nil: net.DefaultResolver
	// MaxConcurrent caps probes in flight (0: no cap).
	MaxConcurrent int
	// MaxWaiting caps probes waiting for one of the MaxConcurrent slots; past it a
	// probe fails at once as overloaded.
	MaxWaiting int
	// MinInterval is the least time between two queries of one target by one
	// module: scrapes in between get the last result. Modules may ask for more
	// with cache_ttl.
	MinInterval time.Duration
	// Lists answers listed_in (gameserver_listed); nil: no module is listed.
	Lists Lists

	once   sync.Once
	limit  *limiter
	flight flight
	probes sync.Map // module name -> *moduleMetrics, looked up once
}

// moduleMetrics are a module's children of the hot-path self-metrics:
// WithLabelValues hashes the labels on every call, a measurable part of a probe.
type moduleMetrics struct {
	success  prometheus.Counter
	duration prometheus.Observer
}

func (r *Runner) moduleMetrics(module string) *moduleMetrics {
	if c, ok := r.probes.Load(module); ok {
		return c.(*moduleMetrics)
	}
	c := &moduleMetrics{
		success:  r.Metrics.Probes.WithLabelValues(module, "success"),
		duration: r.Metrics.Duration.WithLabelValues(module),
	}
	r.probes.Store(module, c)
	return c
}

// count records a probe request's result and how long it waited for it.
func (r *Runner) count(module string, o *Outcome, start time.Time) {
	m := r.moduleMetrics(module)
	m.duration.Observe(time.Since(start).Seconds())
	if o.Err == nil {
		m.success.Inc()
		return
	}
	reason := wire.Reason(o.Err)
	r.Metrics.Probes.WithLabelValues(module, reason).Inc()
	r.Metrics.Failures.WithLabelValues(module, reason).Inc()
}

func (r *Runner) resolver() Resolver {
	if r.Resolver != nil {
		return r.Resolver
	}
	return net.DefaultResolver
}

// RequestError is a probe request that must not be probed: the HTTP status to
// answer with and the message for the user.
type RequestError struct {
	Status  int
	Message string
}

func (e *RequestError) Error() string { return e.Message }

func badRequest(format string, args ...any) *RequestError {
	return &RequestError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

// Run validates one probe request and runs it, the way /probe does: module lookup,
// target parsing, timeout arithmetic (scrapeTimeout is the scraper's header value,
// "" without one), target policy, single-flight and cache. It returns the probe's
// outcome, or a *RequestError for a request that must not be probed.
func (r *Runner) Run(ctx context.Context, module, target, scrapeTimeout string) (*Outcome, error) {
	start := time.Now()
	cfg := r.Config.Get()
	mod, ok := cfg.Modules[module]
	if !ok {
		if module == "" {
			return nil, badRequest("module parameter is missing; known modules: %s", strings.Join(cfg.Names(), ", "))
		}
		r.Metrics.UnknownModule.Inc()
		return nil, badRequest("%s", cfg.UnknownModule(module))
	}
	host, port, err := parseTarget(target)
	if err != nil {
		return nil, badRequest("%v", err)
	}
	timeout, err := probeTimeoutFor(scrapeTimeout, time.Duration(mod.Timeout), r.TimeoutOffset)
	if err != nil {
		return nil, badRequest("%v", err)
	}
	srv := port == 0 && mod.Descriptor().LookupSRV != nil // the game's client would look up SRV
	if port == 0 {
		port = mod.DefaultPort()
	}
	ports, err := queryPorts(port, mod.QueryPortOffsets())
	if err != nil {
		return nil, badRequest("%v", err)
	}

	r.once.Do(func() { r.limit = newLimiter(r.MaxConcurrent, r.MaxWaiting) })
	// The probe's deadline, not the scraper's connection, ends it: the deadline is
	// already shorter than the scrape timeout, and a query other scrapes share is
	// better finished than dropped when its first scraper leaves. (Detaching also
	// spares registering with the request's context on every probe.)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer cancel()
	ttl := max(time.Duration(mod.CacheTTL), r.MinInterval)
	o, shared, cached := r.flight.do(ctx, flightKey(cfg.PolicyKey, mod.QueryKey(), host, ports), ttl, timeout, func() *Outcome {
		o := r.probe(ctx, cfg, module, mod, host, ports, srv)
		o.Timeout, o.Target = timeout, target // before other requests can see it
		o.Listed = r.listed(mod, o, host, port)
		return o
	})
	if o == nil {
		o = &Outcome{Module: mod, ModuleName: module, Target: target, Timeout: timeout,
			Err: fmt.Errorf("%w: waiting for a probe of the same target", wire.ErrTimeout)}
	}
	if o.Policy != nil {
		r.Metrics.PolicyRefusals.Inc()
		return nil, &RequestError{http.StatusForbidden, "target refused by target_policy: " + o.Policy.Error()}
	}
	if shared || cached {
		v := *o // a copy: the outcome belongs to the request that ran the query
		v.Timeout, v.Target, v.Shared, v.Cached = timeout, target, shared, cached
		v.Module, v.ModuleName = mod, module     // it may have been another module's query
		v.Listed = r.listed(mod, &v, host, port) // listed_in is the module's, not the query's
		o = &v
		r.Metrics.Coalesced.Inc()
	}
	r.count(module, o, start)
	return o, nil
}

// flightKey identifies a query for coalescing: the same query (the module's
// QueryKey) of the same host and query ports under the same target policy,
// whichever module asked and across reloads. Built in one allocation.
func flightKey(policy, query, host string, ports []uint16) string {
	b := make([]byte, 0, 48+len(policy)+len(query)+len(host))
	b = append(b, policy...)
	b = append(b, '|')
	b = append(b, query...)
	b = append(b, '|')
	b = append(b, host...)
	for _, p := range ports {
		b = append(b, '|')
		b = strconv.AppendUint(b, uint64(p), 10)
	}
	return string(b)
}

// probe resolves host and runs the module's query against host:port.
func (r *Runner) probe(ctx context.Context, cfg *config.Config, name string, mod *config.Module, host string, ports []uint16, srv bool) *Outcome {
	start := time.Now()
	tr := wire.NewTrace()
	o := &Outcome{Module: mod, Trace: tr, When: start, ModuleName: name, Host: host, Port: ports[0], Budget: deadlineLeft(ctx)}
	// Log lines are written from the outcome when debug output is asked for: the
	// hot path formats nothing.
	if err := r.limit.acquire(ctx); err != nil {
		o.Err, o.Duration = err, time.Since(start)
		return o
	}
	defer r.limit.release()
	r.Metrics.InFlight.Inc()
	defer r.Metrics.InFlight.Dec()

	p := tr.Begin("resolve")
	// The host is parsed once: an address is the one to probe, a name is resolved
	// (after its SRV record where the game's client would look one up).
	ip, err := netip.ParseAddr(host)
	isName := err != nil
	queryHost, nameHost := host, ""
	var addrs []netip.Addr
	if isName {
		nameHost = host // the name the target was given as, for protocols that send it
		if srv {
			if target, port, ok := mod.Descriptor().LookupSRV(ctx, host); ok {
				if sp, err := queryPorts(port, mod.QueryPortOffsets()); err == nil {
					queryHost, ports = target, sp
					tr.Logf("SRV record of %s: %s port %d", host, target, port)
				}
			}
		}
		addrs, err = resolve(ctx, r.resolver(), queryHost, mod.PreferredIPProtocol, mod.Fallback())
	} else {
		addrs = []netip.Addr{ip.Unmap()}
	}
	tr.End(p, err)
	if err != nil {
		o.Err, o.Duration = err, time.Since(start)
		return o
	}
	if o.Policy = checkPolicy(&cfg.TargetPolicy, host, queryHost, isName, addrs); o.Policy != nil {
		return o
	}
	// A module's own target list (a module with a credential has one) is judged on
	// the name actually resolved and the addresses the socket will use.
	if err := mod.CheckTarget(queryHost, isName, addrs); err != nil {
		o.Err, o.Duration = fmt.Errorf("%w: %v", wire.ErrNotAllowed, err), time.Since(start)
		return o
	}
	for i, port := range ports {
		o.Port = port
		o.Addr = netip.AddrPortFrom(addrs[0], port)
		qctx, cancel := candidateContext(ctx, len(ports)-i)
		o.Result, o.Err = mod.Querier().Query(qctx, protocols.Target{Addr: o.Addr, Host: nameHost}, tr)
		cancel()
		if o.Err == nil || ctx.Err() != nil {
			break
		}
		if i < len(ports)-1 {
			tr.Logf("No answer on port %d (%s): trying port %d", port, wire.Reason(o.Err), ports[i+1])
		}
	}
	o.Duration = time.Since(start)
	if o.Err != nil && r.Logger.Enabled(ctx, slog.LevelDebug) {
		r.Logger.Debug("Probe failed", "module", name, "target", host, "port", o.Port, "reason", wire.Reason(o.Err), "err", Printable(o.Err.Error()))
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
