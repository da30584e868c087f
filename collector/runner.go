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
//
// Run, probe and the functions between them stay lean: a probe waiting for its
// server holds their frames, and 10,000 waiting probes are 10,000 stacks. The work
// before and after the wait is done in callees that have returned by then
// (prepare, settle, locate), so the wait fits a 4 KiB stack, not 8
// (TestProbeWaitFitsSmallStack).
func (r *Runner) Run(ctx context.Context, module, target, scrapeTimeout string) (*Outcome, error) {
	start := time.Now()
	rq, err := r.prepare(module, target, scrapeTimeout)
	if err != nil {
		return nil, err
	}
	// The probe's deadline, not the scraper's connection, ends it: the deadline is
	// already shorter than the scrape timeout, and a query other scrapes share is
	// better finished than dropped when its first scraper leaves. (Detaching also
	// spares registering with the request's context on every probe; probeCtx says
	// why not context.WithTimeout.)
	ctx, cancel := newProbeCtx(ctx, start.Add(rq.timeout))
	defer cancel()
	o, shared, cached := r.flight.do(ctx, rq.key, rq.ttl, rq.timeout, func() *Outcome { return r.probe(ctx, rq) })
	return r.settle(rq, o, shared, cached, start)
}

// request is a validated probe request.
type request struct {
	cfg          *config.Config
	mod          *config.Module
	module       string // the module's name
	target       string // as the request gave it
	host         string
	port         uint16 // the game port (the target's, or the module's default)
	ports        []uint16
	srv          bool // look up the host's SRV record, as the game's client would
	timeout, ttl time.Duration
	key          string // the flight key
	// Room for the usual one or two query ports and one address: no allocation
	// of their own.
	portBuf [2]uint16
	addrBuf [1]netip.Addr
}

// prepare validates a probe request.
//
//go:noinline
func (r *Runner) prepare(module, target, scrapeTimeout string) (*request, error) {
	cfg := r.Config.Get()
	mod, ok := cfg.Modules[module]
	if !ok {
		if module == "" {
			_, port, _ := parseTarget(target)
			return nil, badRequest("%s", cfg.MissingModule(port))
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
	rq := &request{
		cfg: cfg, mod: mod, module: module, target: target, host: host, port: port, srv: srv,
		timeout: timeout, ttl: max(time.Duration(mod.CacheTTL), r.MinInterval),
	}
	if rq.ports, err = queryPorts(rq.portBuf[:0], port, mod.QueryPortOffsets()); err != nil {
		return nil, badRequest("%v", err)
	}
	r.once.Do(func() { r.limit = newLimiter(r.MaxConcurrent, r.MaxWaiting) })
	rq.key = flightKey(cfg.PolicyKey, mod.QueryKey(), host, rq.ports)
	return rq, nil
}

// settle turns the flight's answer into the request's outcome.
//
//go:noinline
func (r *Runner) settle(rq *request, o *Outcome, shared, cached bool, start time.Time) (*Outcome, error) {
	if o == nil {
		o = &Outcome{Module: rq.mod, ModuleName: rq.module, Target: rq.target, Timeout: rq.timeout,
			Err: fmt.Errorf("%w: waiting for a probe of the same target", wire.ErrTimeout)}
	}
	if o.Policy != nil {
		r.Metrics.PolicyRefusals.Inc()
		return nil, &RequestError{http.StatusForbidden, "target refused by target_policy: " + o.Policy.Error()}
	}
	if shared || cached {
		v := *o // a copy: the outcome belongs to the request that ran the query
		v.Timeout, v.Target, v.Shared, v.Cached = rq.timeout, rq.target, shared, cached
		v.Module, v.ModuleName = rq.mod, rq.module        // it may have been another module's query
		v.Listed = r.listed(rq.mod, &v, rq.host, rq.port) // listed_in is the module's, not the query's
		o = &v
		r.Metrics.Coalesced.Inc()
	}
	r.count(rq.module, o, start)
	return o, nil
}

// flightKey identifies a query for coalescing: the same query (the module's
// QueryKey) of the same host and query ports under the same target policy,
// whichever module asked and across reloads. Built in one allocation.
func flightKey(policy, query, host string, ports []uint16) string {
	var b strings.Builder
	b.Grow(len(policy) + len(query) + len(host) + 2 + 6*len(ports))
	b.WriteString(policy)
	b.WriteByte('|')
	b.WriteString(query)
	b.WriteByte('|')
	b.WriteString(host)
	var num [5]byte
	for _, p := range ports {
		b.WriteByte('|')
		b.Write(strconv.AppendUint(num[:0], uint64(p), 10))
	}
	return b.String()
}

// probe resolves the target and runs the module's query against it: the outcome
// a flight shares.
func (r *Runner) probe(ctx context.Context, rq *request) *Outcome {
	start := time.Now()
	tr := wire.NewTrace()
	o := &Outcome{Module: rq.mod, Trace: tr, When: start, ModuleName: rq.module, Host: rq.host, Port: rq.ports[0], Budget: deadlineLeft(ctx)}
	// Log lines are written from the outcome when debug output is asked for: the
	// hot path formats nothing.
	if err := r.limit.acquire(ctx); err != nil {
		o.Err, o.Duration = err, time.Since(start)
		return o
	}
	defer r.limit.release()
	r.Metrics.InFlight.Inc()
	defer r.Metrics.InFlight.Dec()

	addrs, nameHost, ports, err := r.locate(ctx, rq, o)
	if err != nil || o.Policy != nil {
		o.Err = err
		return r.complete(ctx, rq, o, start)
	}
	q := rq.mod.Querier()
	for i, port := range ports {
		o.Port = port
		o.Addr = netip.AddrPortFrom(addrs[0], port)
		qctx, cancel := protocols.Share(ctx, len(ports)-i) // the last candidate still ends by the deadline
		o.Result, o.Err = q.Query(qctx, protocols.Target{Addr: o.Addr, Host: nameHost}, tr)
		cancel()
		if o.Err == nil || ctx.Err() != nil {
			break
		}
		if i < len(ports)-1 {
			nextPort(tr, port, ports[i+1], o.Err)
		}
	}
	return r.complete(ctx, rq, o, start)
}

// nextPort logs the move to the next query port.
//
//go:noinline
func nextPort(tr *wire.Trace, port, next uint16, err error) {
	tr.Logf("No answer on port %d (%s): trying port %d", port, wire.Reason(err), next)
}

// complete fills in what the outcome needs before other requests can see it.
//
//go:noinline
func (r *Runner) complete(ctx context.Context, rq *request, o *Outcome, start time.Time) *Outcome {
	// Not the time replies waited for a busy CPU after the kernel stamped their
	// arrival (wire.Trace.Waited): that is the exporter's, not the server's.
	o.Duration = time.Since(start)
	o.Duration -= min(o.Trace.WaitedTotal(), o.Duration)
	o.Timeout, o.Target = rq.timeout, rq.target
	o.Listed = r.listed(rq.mod, o, rq.host, rq.port)
	if o.Err != nil && r.Logger.Enabled(ctx, slog.LevelDebug) {
		r.Logger.Debug("Probe failed", "module", rq.module, "target", o.Host, "port", o.Port, "reason", wire.Reason(o.Err), "err", Printable(o.Err.Error()))
	}
	return o
}

// locate resolves the target's host (after its SRV record where the game's client
// would look one up) and applies the target policy (o.Policy) and the module's
// own target list. It returns the addresses, the name the target was given as
// ("" for an address: protocols that send the name get it) and the query ports.
//
//go:noinline
func (r *Runner) locate(ctx context.Context, rq *request, o *Outcome) (addrs []netip.Addr, nameHost string, ports []uint16, err error) {
	tr, host, mod := o.Trace, rq.host, rq.mod
	p := tr.Begin("resolve")
	// The host is parsed once: an address is the one to probe, a name is resolved.
	ip, perr := netip.ParseAddr(host)
	isName := perr != nil
	queryHost, ports := host, rq.ports
	if isName {
		// A name the policy or the module refuses is refused before it is
		// looked up (SRV, DNS): a caller learns nothing of which denied names
		// exist, and a module's secret goes to no name its operator did not list,
		// not even by way of an SRV record that leads to a listed one.
		nameHost = host
		if o.Policy = rq.cfg.TargetPolicy.CheckNameFirst(host); o.Policy == nil {
			if err = mod.CheckTargetName(host); err != nil {
				err = fmt.Errorf("%w: %v", wire.ErrNotAllowed, err)
			} else if queryHost, ports, err = r.lookupSRV(ctx, rq, o); err == nil && o.Policy == nil {
				addrs, err = resolve(ctx, r.resolver(), queryHost, mod.PreferredIPProtocol, mod.Fallback())
			}
		}
	} else {
		addrs = append(rq.addrBuf[:0], ip.Unmap())
	}
	tr.End(p, err)
	if err != nil || o.Policy != nil {
		return nil, "", nil, err
	}
	if o.Policy = checkPolicy(&rq.cfg.TargetPolicy, host, queryHost, isName, addrs); o.Policy != nil {
		return nil, "", nil, nil
	}
	// A module's own target list (a module with a credential has one) is judged on
	// the name actually resolved and the addresses the socket will use.
	if err := mod.CheckTarget(queryHost, isName, addrs); err != nil {
		return nil, "", nil, fmt.Errorf("%w: %v", wire.ErrNotAllowed, err)
	}
	return addrs, nameHost, ports, nil
}

// lookupSRV returns the name and query ports of the name rq.host: its SRV
// record's where the game's client would look one up. The given name was judged
// before (locate); a record's name is judged before it is resolved: o.Policy when
// the target policy refuses it, an error when the module's targets do.
//
//go:noinline
func (r *Runner) lookupSRV(ctx context.Context, rq *request, o *Outcome) (queryHost string, ports []uint16, err error) {
	queryHost, ports = rq.host, rq.ports
	if !rq.srv {
		return queryHost, ports, nil
	}
	target, port, ok := rq.mod.Descriptor().LookupSRV(ctx, rq.host)
	if !ok {
		return queryHost, ports, nil
	}
	sp, err := queryPorts(nil, port, rq.mod.QueryPortOffsets())
	if err != nil {
		return queryHost, ports, nil // a record with an unusable port is ignored
	}
	o.Trace.Logf("SRV record of %s: %s port %d", rq.host, target, port)
	if o.Policy = rq.cfg.TargetPolicy.CheckNameFirst(target); o.Policy != nil {
		return "", nil, nil
	}
	if err := rq.mod.CheckTargetName(target); err != nil {
		return "", nil, fmt.Errorf("%w: %v", wire.ErrNotAllowed, err)
	}
	return target, sp, nil
}

func deadlineLeft(ctx context.Context) time.Duration {
	if d, ok := ctx.Deadline(); ok {
		return time.Until(d).Round(time.Millisecond)
	}
	return 0
}
