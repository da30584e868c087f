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
	done    chan struct{}
	o       *Outcome
	expires time.Time
}

// do returns the outcome for key: a cached one (cached=true), the one a concurrent
// probe is producing (shared=true), or a fresh one from fn. A waiter whose own
// context ends first gets nil. A cached timeout from a probe that had less time
// than budget is not reused: a scrape that allowed a nanosecond must not answer
// for the scrapes after it.
func (f *flight) do(ctx context.Context, key string, ttl, budget time.Duration, fn func() *Outcome) (o *Outcome, shared, cached bool) {
	now := time.Now()
	f.mu.Lock()
	if f.calls == nil {
		f.calls = make(map[string]*call)
	}
	if c, ok := f.calls[key]; ok {
		select {
		case <-c.done:
			if now.Before(c.expires) && !c.o.shortOf(budget) {
				f.mu.Unlock()
				return c.o, false, true
			}
		default:
			f.mu.Unlock()
			select {
			case <-c.done:
				return c.o, true, false
			case <-ctx.Done():
				return nil, true, false
			}
		}
	}
	c := &call{done: make(chan struct{})}
	f.calls[key] = c
	f.mu.Unlock()

	c.o = fn()

	f.mu.Lock()
	c.expires = time.Now().Add(ttl)
	close(c.done)
	if ttl <= 0 {
		delete(f.calls, key)
	} else if f.sweeper == nil {
		f.sweeper = time.AfterFunc(ttl, f.sweep)
	}
	f.mu.Unlock()
	return c.o, false, false
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
