package collector

import (
	"context"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// limiter caps probes in flight. A probe past the cap waits for a slot within its
// own deadline, then fails as overloaded: nothing queues forever.
type limiter chan struct{}

func newLimiter(n int) limiter {
	if n <= 0 {
		return nil
	}
	return make(limiter, n)
}

func (l limiter) acquire(ctx context.Context) error {
	if l == nil {
		return nil
	}
	select {
	case l <- struct{}{}:
		return nil
	default:
	}
	select {
	case l <- struct{}{}:
		if ctx.Err() == nil {
			return nil
		}
		<-l // got a slot too late to use it
	case <-ctx.Done():
	}
	return fmt.Errorf("%w: %d probes in flight, none finished before the deadline", protocols.ErrOverloaded, cap(l))
}

func (l limiter) release() {
	if l != nil {
		<-l
	}
}
