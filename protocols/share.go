package protocols

import (
	"context"
	"time"
)

// Share bounds ctx to 1/n of the time left, for one of n requests (phases,
// stages, attempts) still to come: one that goes unanswered then leaves the
// others their share. Without a deadline, or for the last (n <= 1), it is ctx
// itself, and cancel does nothing.
func Share(ctx context.Context, n int) (context.Context, context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok || n <= 1 {
		return ctx, func() {}
	}
	now := time.Now()
	return context.WithDeadline(ctx, now.Add(dl.Sub(now)/time.Duration(n)))
}
