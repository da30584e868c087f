package collector

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// probeCtx is a probe's context: a deadline over base's values. Most probes never
// ask for Done (the sockets read the deadline), so the timer and the context tree
// of a context.WithDeadline are made only when something asks for Done: thousands
// of probes waiting on silent servers each held a timerCtx and its timer before,
// about 460 bytes a probe. Once made, that context answers Done, Err and Value,
// and a child context (context.WithTimeout of a querier) registers with it as with
// any cancelCtx: no goroutine per child.
type probeCtx struct {
	context.Context // base: values only (a context.WithoutCancel, or Background)
	deadline        time.Time
	cancelled       atomic.Bool
	mu              sync.Mutex
	real            atomic.Pointer[realCtx]
}

type realCtx struct {
	ctx  context.Context
	stop context.CancelFunc
}

// newProbeCtx returns a context with base's values, no cancellation of base's, and
// the deadline; cancel ends it (as a context.WithDeadline's cancel does).
func newProbeCtx(base context.Context, deadline time.Time) (*probeCtx, context.CancelFunc) {
	if base.Done() != nil {
		base = context.WithoutCancel(base) // a context of its own: Background has no cancellation
	}
	c := &probeCtx{Context: base, deadline: deadline}
	return c, c.cancel
}

func (c *probeCtx) Deadline() (time.Time, bool) { return c.deadline, true }

// made returns the context.WithDeadline behind c, making it on first use.
func (c *probeCtx) made() *realCtx {
	if r := c.real.Load(); r != nil {
		return r
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if r := c.real.Load(); r != nil {
		return r
	}
	ctx, stop := context.WithDeadline(c.Context, c.deadline)
	if c.cancelled.Load() {
		stop()
	}
	r := &realCtx{ctx, stop}
	c.real.Store(r)
	return r
}

func (c *probeCtx) Done() <-chan struct{} { return c.made().ctx.Done() }

func (c *probeCtx) Err() error {
	if r := c.real.Load(); r != nil {
		return r.ctx.Err()
	}
	if c.cancelled.Load() {
		return context.Canceled
	}
	if !time.Now().Before(c.deadline) {
		return context.DeadlineExceeded
	}
	return nil
}

// Value answers from the context made for Done once there is one: the context
// package finds its cancelCtx that way when a child registers.
func (c *probeCtx) Value(key any) any {
	if r := c.real.Load(); r != nil {
		return r.ctx.Value(key)
	}
	return c.Context.Value(key)
}

func (c *probeCtx) cancel() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cancelled.Swap(true) {
		return
	}
	if r := c.real.Load(); r != nil {
		r.stop()
	}
}
