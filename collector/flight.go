package collector

import (
	"context"
	"sync"
	"time"
)

// flight coalesces probes: concurrent probes of the same key share one query
// (single-flight), and with a ttl a finished probe answers later ones until it
// expires. Game servers rate-limit queries (Satisfactory's anti-DDoS, ioq3's
// one-per-second bucket): several scrapers must not multiply the load.
type flight struct {
	mu    sync.Mutex
	calls map[string]*call
	// sweeper drops expired results; armed while any are kept, so a burst of
	// distinct targets is given back once its ttl passes, traffic or not.
	sweeper *time.Timer
}

type call struct {
	done     chan struct{}
	deadline time.Time // of the probe that runs the query: it ends by then
	o        *Outcome
	at       time.Time // when the query ended
	expires  time.Time // at + the ttl of the probe that ran it: kept until then
}

// do returns the outcome for key: a cached one no older than ttl (cached=true;
// another module's probe of the same query may have left it), the one a concurrent
// probe is producing (shared=true), or a fresh one from fn. A waiter whose own
// context ends first gets nil. A timeout (or overload) of a probe that had less
// time than budget answers neither later scrapes from the cache nor the scrapes
// that waited for it: a scrape that allowed a second must not answer for one that
// allows ten. Such a waiter queries for its own remaining time.
func (f *flight) do(ctx context.Context, key string, ttl, budget time.Duration, fn func() *Outcome) (o *Outcome, shared, cached bool) {
	c, o, shared, cached := f.join(ctx, key, budget, ttl)
	if c == nil {
		return o, shared, cached
	}
	// This frame is lean and join and land are functions of their own: a probe
	// waiting for its server holds it (collector's runner says why).
	c.o = fn()
	f.land(c, key, ttl)
	return c.o, false, false
}

// join returns a call for the caller to run (registered under key), or nil and
// the outcome it got from a cached or running call.
//
//go:noinline
func (f *flight) join(ctx context.Context, key string, budget, ttl time.Duration) (run *call, o *Outcome, shared, cached bool) {
	f.mu.Lock()
	if f.calls == nil {
		f.calls = make(map[string]*call)
	}
	for c, ok := f.calls[key]; ok; c, ok = f.calls[key] {
		select {
		case <-c.done:
			if now := time.Now(); now.Before(c.expires) && now.Sub(c.at) < ttl && !c.o.shortOf(budget) {
				f.mu.Unlock()
				return nil, c.o, false, true
			}
		default:
			f.mu.Unlock()
			if !c.wait(ctx) {
				return nil, nil, true, false
			}
			if !c.o.shortOf(budget) {
				return nil, c.o, true, false
			}
			f.mu.Lock()
			if f.calls[key] != c {
				continue // another waiter started a query meanwhile: join it
			}
		}
		break
	}
	c := &call{done: make(chan struct{})}
	c.deadline, _ = ctx.Deadline()
	f.calls[key] = c
	f.mu.Unlock()
	return c, nil, false, false
}

// wait waits for c to land, or for ctx to end first (false). A probe's context
// (probeCtx) ends only at its deadline: when c's query ends by then (its probe's
// deadline is no later), c alone is waited for, and the waiter makes no context,
// channel and timer for Done (~400 bytes each; ten scrapes of one silent server
// share one query, nine of them waiting).
func (c *call) wait(ctx context.Context) bool {
	if pc, ok := ctx.(*probeCtx); ok && !c.deadline.IsZero() && !pc.deadline.Before(c.deadline) {
		<-c.done
		return true
	}
	select {
	case <-c.done:
		return true
	case <-ctx.Done():
		return false
	}
}

// land publishes a finished call: its waiters get it, and with a ttl later
// probes until it expires.
//
//go:noinline
func (f *flight) land(c *call, key string, ttl time.Duration) {
	f.mu.Lock()
	c.at = time.Now()
	c.expires = c.at.Add(ttl)
	close(c.done)
	if ttl <= 0 {
		delete(f.calls, key)
	} else if f.sweeper == nil {
		f.sweeper = time.AfterFunc(ttl, f.sweep)
	}
	f.mu.Unlock()
}

// sweep drops expired results and re-arms while results are left, for when the
// soonest of them expires.
func (f *flight) sweep() {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := time.Now()
	var next time.Time
	for k, c := range f.calls {
		select {
		case <-c.done:
			if !now.Before(c.expires) {
				delete(f.calls, k)
			} else if next.IsZero() || c.expires.Before(next) {
				next = c.expires
			}
		default:
		}
	}
	f.sweeper = nil
	if !next.IsZero() {
		// At most a sweep a second, however the expiries are spread.
		f.sweeper = time.AfterFunc(max(time.Until(next), time.Second), f.sweep)
	}
}

// size is the number of results kept and queries running.
func (f *flight) size() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}
