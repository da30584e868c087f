package collector

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync/atomic"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// limiter caps probes in flight and the probes waiting for a slot. A probe past the
// in-flight cap waits within its own deadline, then fails as overloaded; once as
// many probes wait as the waiting cap allows, a new one fails at once. Waiting
// requests hold a connection, a goroutine and their buffers: without a cap on them
// a burst of requests grows memory without bound even though probes are capped.
type limiter struct {
	slots      chan struct{} // nil: no cap
	waiting    atomic.Int64
	maxWaiting int64
	// inFlight and peak find the end of a burst, when the memory it took is
	// handed back to the system at once rather than over minutes by the runtime's
	// background scavenger (a Kubernetes memory limit counts it until then).
	inFlight, peak atomic.Int64
	release0       func() // called once a burst is over; nil: nothing
}

// burstProbes is the in-flight peak after which the end of a burst gives memory back.
const burstProbes = 1000

func newLimiter(inFlight, waiting int) *limiter {
	l := &limiter{release0: debug.FreeOSMemory}
	if inFlight > 0 {
		l.slots, l.maxWaiting = make(chan struct{}, inFlight), int64(max(waiting, 0))
	}
	return l
}

func (l *limiter) acquire(ctx context.Context) error {
	if err := l.wait(ctx); err != nil {
		return err
	}
	if n := l.inFlight.Add(1); n > l.peak.Load() {
		l.peak.Store(n) // racy max: a burst's order of magnitude is all that counts
	}
	return nil
}

func (l *limiter) wait(ctx context.Context) error {
	if l.slots == nil {
		return nil
	}
	select {
	case l.slots <- struct{}{}:
		return nil
	default:
	}
	if l.waiting.Add(1) > l.maxWaiting {
		l.waiting.Add(-1)
		return fmt.Errorf("%w: %d probes in flight and %d waiting for a slot", wire.ErrOverloaded, cap(l.slots), l.maxWaiting)
	}
	defer l.waiting.Add(-1)
	select {
	case l.slots <- struct{}{}:
		if ctx.Err() == nil {
			return nil
		}
		<-l.slots // got a slot too late to use it
	case <-ctx.Done():
	}
	return fmt.Errorf("%w: %d probes in flight, none finished before the deadline", wire.ErrOverloaded, cap(l.slots))
}

func (l *limiter) release() {
	if l.slots != nil {
		<-l.slots
	}
	if l.inFlight.Add(-1) == 0 && l.peak.Load() >= burstProbes && l.peak.Swap(0) >= burstProbes && l.release0 != nil {
		go l.release0()
	}
}
