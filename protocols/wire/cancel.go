package wire

import (
	"context"
	"io"
	"sync/atomic"
)

type promptCancelKey struct{}

// WithPromptCancel marks ctx so that a socket dialed under it is closed the moment
// ctx is cancelled, even when ctx has a deadline. By default a deadline bounds the
// socket and a cancellation is only seen between attempts (see watchCancel); a
// querier that races several protocols (protocols/auto) cancels the losers once one
// answered and must not wait for their deadlines to close their sockets.
func WithPromptCancel(ctx context.Context) context.Context {
	return context.WithValue(ctx, promptCancelKey{}, true)
}

// promptCancel reports whether ctx was marked by WithPromptCancel.
func promptCancel(ctx context.Context) bool { return ctx.Value(promptCancelKey{}) != nil }

// closeOnCancel closes c when ctx is cancelled if ctx asked for it (WithPromptCancel),
// setting done first when given; it returns the registration's stop function, or
// nil. Closing rather than moving the deadline: a querier may set a later read
// deadline after the cancellation.
func closeOnCancel(ctx context.Context, c io.Closer, done *atomic.Bool) func() bool {
	if !promptCancel(ctx) {
		return nil
	}
	return context.AfterFunc(ctx, func() {
		if done != nil {
			done.Store(true)
		}
		c.Close()
	})
}
