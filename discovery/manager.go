package discovery

import (
	"context"
	"log/slog"
	"maps"
	"net/netip"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/master"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Manager refreshes every source in the background and serves what the last
// good refresh of each found. Its methods are safe for concurrent use.
type Manager struct {
	Logger *slog.Logger
	// OnRefresh, when set, is called after every refresh (tests wait on it).
	OnRefresh func(source string, err error)

	// Builtin compiles the built-in source of a preset (nil:
	// config.PresetSource at the preset's URL); tests point it at fakes.
	Builtin func(preset string) (*config.DiscoverySource, error)

	mu      sync.RWMutex
	sources map[string]*running
	// retired sources' failure counts and timestamps are gone with them: a
	// source's series disappear with the source.

	// builtin holds the built-in sources started on demand (builtin.go).
	imu     sync.Mutex
	builtin map[string]*running
	// clock and onIdle are the idle stop's, for tests.
	clock  func() time.Time
	onIdle func(source string)
}

// running is one source and its refresh loop.
type running struct {
	name   string
	src    *config.DiscoverySource
	cancel context.CancelFunc
	done   chan struct{}

	list atomic.Pointer[snapshot]

	mu          sync.Mutex
	failures    uint64            // refreshes failed, since the source started
	skipped     map[string]uint64 // entries skipped by reason, since the source started
	lastErr     error
	lastAttempt time.Time

	// A built-in source's (builtin.go): when a probe last read it, and first,
	// closed once its first fetch is done.
	isBuiltin bool
	lastUse   atomic.Int64
	first     chan struct{}
	firstOnce sync.Once
}

// snapshot is one good refresh: every entry (for gameserver_listed), the
// indexes of those that pass the filters (for /sd), and indexes by address.
type snapshot struct {
	at      time.Time
	entries []master.Entry
	targets []int32
	byAddr  map[netip.AddrPort]int32
	byHost  map[string]int32
	capped  bool
	skipped int
	sd      sdBody // its /sd answer, encoded on demand (sd.go)
}

// The Manager is the cache protocol list reads.
var _ master.Cache = (*Manager)(nil)

// NewManager returns a Manager with no sources; Apply gives it some.
func NewManager(logger *slog.Logger) *Manager {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Manager{Logger: logger, sources: map[string]*running{}, builtin: map[string]*running{}, clock: time.Now}
}

// Apply makes cfg's sources the running ones: a source whose settings did not
// change keeps its list and its loop, a new or changed one starts (fetching
// at once), a removed one stops. cfg must be compiled.
func (m *Manager) Apply(cfg config.Discovery) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for name, r := range m.sources {
		if s, ok := cfg[name]; !ok || !s.Same(r.src) {
			r.stop()
			delete(m.sources, name)
		}
	}
	m.shadowBuiltin(cfg)
	for name, s := range cfg {
		if _, ok := m.sources[name]; ok {
			continue
		}
		ctx, cancel := context.WithCancel(context.Background())
		r := &running{name: name, src: s, cancel: cancel, done: make(chan struct{})}
		m.sources[name] = r
		go m.loop(ctx, r)
	}
}

// Stop ends every refresh loop and waits for them.
func (m *Manager) Stop() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for name, r := range m.sources {
		r.stop()
		delete(m.sources, name)
	}
	m.stopBuiltin(func(string) bool { return true })
}

func (r *running) stop() {
	r.cancel()
	<-r.done
}

// loop refreshes r now and then every refresh interval; after a failure it
// tries again sooner, backing off (retryAfter) up to the interval.
func (m *Manager) loop(ctx context.Context, r *running) {
	defer close(r.done)
	defer r.firstDone() // waiters of a source stopped mid-fetch
	failures := 0
	for {
		err := m.refresh(ctx, r)
		if ctx.Err() != nil {
			return
		}
		wait := time.Duration(r.src.Refresh)
		if err != nil {
			failures++
			wait = retryAfter(wait, failures)
		} else {
			failures = 0
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		if r.isBuiltin && m.idle(r) {
			return
		}
	}
}

// retryAfter is the wait after the n-th failure in a row: an eighth of the
// interval (at least a second), doubling, at most the interval.
func retryAfter(interval time.Duration, n int) time.Duration {
	w := max(interval/8, time.Second)
	for i := 1; i < n && w < interval; i++ {
		w *= 2
	}
	return min(w, interval)
}

// refresh fetches r's list once within its timeout and, on success, swaps it
// in; on failure the last good list stays.
func (m *Manager) refresh(ctx context.Context, r *running) error {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, time.Duration(r.src.Timeout))
	defer cancel()
	start := time.Now()
	l, err := r.src.Lister().List(ctx, wire.NewTrace())
	if err != nil && parent.Err() != nil {
		return err // stopped, not failed
	}
	r.mu.Lock()
	r.lastAttempt = start
	r.lastErr = err
	if err != nil {
		r.failures++
	} else {
		for reason, n := range l.Skips {
			if r.skipped == nil {
				r.skipped = map[string]uint64{}
			}
			r.skipped[reason] += uint64(n)
		}
	}
	r.mu.Unlock()
	switch {
	case err != nil && r.list.Load() == nil:
		m.Logger.Warn("Discovery refresh failed; no list yet (/sd answers 503)", "source", r.name, "type", r.src.Type, "err", err)
	case err != nil:
		m.Logger.Warn("Discovery refresh failed; serving the last good list", "source", r.name, "type", r.src.Type, "err", err)
	default:
		r.list.Store(newSnapshot(r.src, l, start))
		if l.Capped {
			m.Logger.Warn("Discovery list capped", "source", r.name, "max_targets", len(l.Entries))
		}
		m.Logger.Debug("Discovery refreshed", "source", r.name, "entries", len(l.Entries), "skipped", l.Skipped, "duration", time.Since(start))
	}
	r.firstDone()
	if m.OnRefresh != nil {
		m.OnRefresh(r.name, err)
	}
	return err
}

// Refresh fetches a source's list now (the status page's button, tests).
func (m *Manager) Refresh(ctx context.Context, source string) (found bool, err error) {
	r := m.reading(source)
	if r == nil {
		return false, nil
	}
	return true, m.refresh(ctx, r)
}

// snapshot sanitises l's strings once, applies the filters and indexes it.
func newSnapshot(s *config.DiscoverySource, l *master.List, at time.Time) *snapshot {
	sn := &snapshot{
		at: at, entries: l.Entries, capped: l.Capped, skipped: l.Skipped,
		byAddr: make(map[netip.AddrPort]int32, len(l.Entries)),
	}
	for i := range sn.entries {
		e := &sn.entries[i]
		e.Name, e.Map, e.Game, e.Version, e.Country = clean(e.Name), clean(e.Map), clean(e.Game), clean(e.Version), clean(e.Country)
		if e.Host != "" {
			if sn.byHost == nil {
				sn.byHost = map[string]int32{}
			}
			sn.byHost[e.Host] = int32(i)
		} else {
			sn.byAddr[e.Addr] = int32(i)
		}
		if s.Keep(e.Name, e.Game, e.Map, e.Players.Value, e.Players.Known) {
			sn.targets = append(sn.targets, int32(i))
		}
	}
	return sn
}

// source returns a running source of the modules file, or nil.
func (m *Manager) source(name string) *running {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.sources[name]
}

// reading returns the source lookups read: the modules file's, else a
// started built-in one, else nil.
func (m *Manager) reading(name string) *running {
	if r := m.source(name); r != nil {
		return r
	}
	m.imu.Lock()
	defer m.imu.Unlock()
	return m.builtin[name]
}

// Names returns the running sources' names, sorted.
func (m *Manager) Names() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]string, 0, len(m.sources))
	for n := range m.sources {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Lookup finds a server in a source's last good list by its address (or, for
// a list that names servers, by "host:port"). known is false when the source
// does not exist or has no list yet: then nobody can say whether it is listed.
func (m *Manager) Lookup(source string, addr netip.AddrPort, host string) (e master.Entry, listed, known bool) {
	r := m.reading(source)
	if r == nil {
		return master.Entry{}, false, false
	}
	sn := r.list.Load()
	if sn == nil {
		return master.Entry{}, false, false
	}
	addr = netip.AddrPortFrom(addr.Addr().Unmap(), addr.Port())
	if i, ok := sn.byAddr[addr]; ok && addr.IsValid() {
		return sn.entries[i], true, true
	}
	if host != "" {
		if i, ok := sn.byHost[host]; ok {
			return sn.entries[i], true, true
		}
	}
	return master.Entry{}, false, true
}

// Listed says whether addr (or host, "name:port") is in a source's last good
// list (known as Lookup). It implements collector.Lists.
func (m *Manager) Listed(source string, addr netip.AddrPort, host string) (listed, known bool) {
	_, listed, known = m.Lookup(source, addr, host)
	return listed, known
}

// Status is what the status page shows of a source.
type Status struct {
	Name, Type, Module string
	Entries, Targets   int
	Capped             bool
	LastSuccess        time.Time // zero: never
	LastAttempt        time.Time
	LastError          string
	Failures           uint64
	// Skipped counts the entries of the source's lists skipped, by reason
	// (master.Skip*), since the source started.
	Skipped map[string]uint64
	// Builtin says the source is a built-in list started by probes of a
	// list-lookup module (shown only while it runs).
	Builtin bool
}

// Statuses returns every source's status, by name.
func (m *Manager) Statuses() []Status {
	var out []Status
	for _, name := range m.Names() {
		r := m.source(name)
		if r == nil {
			continue
		}
		out = append(out, r.status())
	}
	for _, r := range m.builtins() {
		if m.source(r.name) == nil {
			out = append(out, r.status())
		}
	}
	return out
}

func (r *running) status() Status {
	st := Status{Name: r.name, Type: r.src.Type, Module: r.src.Module, Builtin: r.isBuiltin}
	if sn := r.list.Load(); sn != nil {
		st.Entries, st.Targets, st.Capped, st.LastSuccess = len(sn.entries), len(sn.targets), sn.capped, sn.at
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	st.LastAttempt, st.Failures = r.lastAttempt, r.failures
	if len(r.skipped) > 0 {
		st.Skipped = maps.Clone(r.skipped)
	}
	if r.lastErr != nil {
		st.LastError = r.lastErr.Error()
	}
	return st
}
