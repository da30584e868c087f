package collector

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
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

// TestMinIntervalByQuery: the min-interval holds per query actually sent, not per
// module name or config generation (hostile round: POST /-/reload every 0.1 s took
// one server from 12 to 94 queries per 100 scrapes; 63 A2S modules naming one
// server made 63 queries).
func TestMinIntervalByQuery(t *testing.T) {
	q := &prototest.FakeQuerier{Result: &protocols.Result{Name: "x"}}
	mods := func() map[string]*config.Module {
		return map[string]*config.Module{
			"fake":    {Protocol: "fake", Description: "one game"},
			"other":   {Protocol: "fake", Description: "another game on the same protocol"},
			"players": {Protocol: "fake", Players: true},
		}
	}
	r := newTestRunner(t, q, mods())
	r.MinInterval = time.Minute
	run(t, r, "fake", "127.0.0.1:27015", "")
	if o := run(t, r, "other", "127.0.0.1:27015", ""); !o.Cached || o.ModuleName != "other" {
		t.Errorf("another module, same query: cached %v, module %q", o.Cached, o.ModuleName)
	}
	// A reload: a new config, the same modules.
	r2 := newTestRunner(t, q, mods())
	r.Config = r2.Config
	if o := run(t, r, "fake", "127.0.0.1:27015", ""); !o.Cached {
		t.Error("a reload with the same module started a new query")
	}
	if n := q.Calls(); n != 1 {
		t.Errorf("%d queries, want 1", n)
	}
	run(t, r, "players", "127.0.0.1:27015", "")
	run(t, r, "fake", "127.0.0.1:27016", "")
	if n := q.Calls(); n != 3 {
		t.Errorf("%d queries, want 3: players asked for, or another port, is another query", n)
	}
}
