package collector

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// firstTimesOut is a querier whose first query waits out its deadline and whose
// later ones answer at once.
type firstTimesOut struct {
	calls   atomic.Int32
	started chan struct{}
}

func (q *firstTimesOut) Query(ctx context.Context, _ protocols.Target, _ *wire.Trace) (*protocols.Result, error) {
	if q.calls.Add(1) == 1 {
		close(q.started)
		<-ctx.Done()
		return nil, fmt.Errorf("%w: waited out", wire.ErrTimeout)
	}
	return &protocols.Result{Name: "up"}, nil
}

// TestWaiterWithMoreTimeQueriesItself: a scrape with a 10 s budget that joins a
// probe with 0.5 s of the same target does not inherit its timeout (hostile round,
// row 4: it got the short probe's timeout after 0.82 s); it queries for its own
// remaining time.
func TestWaiterWithMoreTimeQueriesItself(t *testing.T) {
	q := &firstTimesOut{started: make(chan struct{})}
	r := newTestRunner(t, q, nil)
	short := make(chan *Outcome, 1)
	go func() {
		o, _ := r.Run(context.Background(), "fake", "127.0.0.1", "1") // 0.5 s after the offset
		short <- o
	}()
	<-q.started
	long := run(t, r, "fake", "127.0.0.1", "10")
	if long.Err != nil || long.Shared {
		t.Errorf("the 10 s scrape: err %v, shared %v; want its own successful query", long.Err, long.Shared)
	}
	if o := <-short; o.Reason() != "timeout" {
		t.Errorf("the short scrape: %v", o.Err)
	}
	if n := q.calls.Load(); n != 2 {
		t.Errorf("%d queries, want 2", n)
	}
}

// TestWaiterWithLessTimeShares: a waiter with no more time than the running probe
// takes its outcome, timeout included (one query for both).
func TestWaiterWithLessTimeShares(t *testing.T) {
	q := &firstTimesOut{started: make(chan struct{})}
	r := newTestRunner(t, q, nil)
	first := make(chan *Outcome, 1)
	go func() {
		o, _ := r.Run(context.Background(), "fake", "127.0.0.1", "1.5")
		first <- o
	}()
	<-q.started
	o := run(t, r, "fake", "127.0.0.1", "1.5")
	if !o.Shared || o.Reason() != "timeout" {
		t.Errorf("an equal budget: shared %v, reason %q; want the running probe's timeout", o.Shared, o.Reason())
	}
	<-first
	if n := q.calls.Load(); n != 1 {
		t.Errorf("%d queries, want 1", n)
	}
}
