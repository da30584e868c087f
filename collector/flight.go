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
	sweep int // size at which expired entries are next swept
}

type call struct {
	done    chan struct{}
	o       *outcome
	expires time.Time
}

// do returns the outcome for key: a cached one (cached=true), the one a concurrent
// probe is producing (shared=true), or a fresh one from fn. A waiter whose own
// context ends first gets nil.
func (f *flight) do(ctx context.Context, key string, ttl time.Duration, fn func() *outcome) (o *outcome, shared, cached bool) {
	now := time.Now()
	f.mu.Lock()
	if f.calls == nil {
		f.calls = make(map[string]*call)
	}
	if c, ok := f.calls[key]; ok {
		select {
		case <-c.done:
			if now.Before(c.expires) {
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
	} else if len(f.calls) >= f.sweep {
		f.sweepLocked()
	}
	f.mu.Unlock()
	return c.o, false, false
}

// sweepLocked drops expired entries; it runs when the map has doubled since the last
// sweep, so its cost is amortised over the insertions.
func (f *flight) sweepLocked() {
	now := time.Now()
	for k, c := range f.calls {
		select {
		case <-c.done:
			if !now.Before(c.expires) {
				delete(f.calls, k)
			}
		default:
		}
	}
	f.sweep = 2*len(f.calls) + 64
}
