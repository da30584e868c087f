package collector

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"strings"
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

// TestWaiterBudget: a scrape with a 10 s budget that joins a probe with 0.5 s of
// the same target does not inherit its timeout (hostile round, row 4: it got the
// short probe's timeout after 0.82 s); it queries for its own remaining time. A
// waiter with no more time than the running probe takes its outcome, timeout
// included (one query for both).
func TestWaiterBudget(t *testing.T) {
	for _, tc := range []struct {
		first, then string // scrape timeouts: 0.5 s after the offset, 10 s
		shared      bool
		queries     int32
	}{{"1", "10", false, 2}, {"1.5", "1.5", true, 1}} {
		q := &firstTimesOut{started: make(chan struct{})}
		r := newTestRunner(t, q, nil)
		first := make(chan *Outcome, 1)
		go func() { o, _ := r.Run(context.Background(), "fake", "127.0.0.1", tc.first); first <- o }()
		<-q.started
		if o := run(t, r, "fake", "127.0.0.1", tc.then); o.Shared != tc.shared || (o.Err == nil) == tc.shared || tc.shared && o.Reason() != "timeout" {
			t.Errorf("%s s, then %s s: shared %v, err %v; want shared %v (the running probe's timeout) or the waiter's own successful query", tc.first, tc.then, o.Shared, o.Err, tc.shared)
		}
		if o := <-first; o.Reason() != "timeout" {
			t.Errorf("%s s, then %s s: the first scrape: %v", tc.first, tc.then, o.Err)
		}
		if n := q.calls.Load(); n != tc.queries {
			t.Errorf("%s s, then %s s: %d queries, want %d", tc.first, tc.then, n, tc.queries)
		}
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
			"fake":    {Protocol: "fake", Description: "one game", ListedIn: []string{"master"}},
			"other":   {Protocol: "fake", Description: "another game on the same protocol"},
			"players": {Protocol: "fake", Players: true},
		}
	}
	r := newTestRunner(t, q, mods())
	r.MinInterval = time.Minute
	r.Lists = fakeLists{"master": {"127.0.0.1:27015"}}
	if o := run(t, r, "fake", "127.0.0.1:27015", ""); len(o.Listed) != 1 || !o.Listed[0].Listed {
		t.Fatalf("listed: %+v", o.Listed)
	}
	// Each module gets its own listed_in, not the one of the module whose probe ran the query.
	if o := run(t, r, "other", "127.0.0.1:27015", ""); !o.Cached || o.ModuleName != "other" || len(o.Listed) != 0 {
		t.Errorf("another module, same query: cached %v, module %q, listed %+v", o.Cached, o.ModuleName, o.Listed)
	}
	// A reload: a new config, the same modules.
	r2 := newTestRunner(t, q, mods())
	r.Config = r2.Config
	if o := run(t, r, "fake", "127.0.0.1:27015", ""); !o.Cached || len(o.Listed) != 1 {
		t.Errorf("a reload with the same module started a new query (cached %v), listed %+v", o.Cached, o.Listed)
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

// TestWaiterArmsNoTimer: a probe waiting for another's query of the same target,
// which ends no later than the waiter's own deadline, waits for that query alone:
// its context makes no context.WithDeadline, channel and timer for Done (~400
// bytes a waiter: issue 38's ten scrapes of each silent server). A waiter whose
// deadline comes first still leaves at it, so it does make them.
func TestWaiterArmsNoTimer(t *testing.T) {
	var f flight
	now := time.Now()
	runner, cancel := newProbeCtx(context.Background(), now.Add(time.Minute))
	defer cancel()
	started, release := make(chan struct{}), make(chan struct{})
	go f.do(runner, "k", 0, time.Minute, func() *Outcome {
		close(started)
		<-release
		return &Outcome{}
	})
	<-started
	later, cancelLater := newProbeCtx(context.Background(), now.Add(2*time.Minute))
	defer cancelLater()
	sooner, cancelSooner := newProbeCtx(context.Background(), now.Add(30*time.Second))
	defer cancelSooner()
	shared := make(chan bool, 2)
	for i, ctx := range []*probeCtx{later, sooner} {
		go func() {
			_, s, _ := f.do(ctx, "k", 0, time.Second, func() *Outcome { return &Outcome{} })
			shared <- s
		}()
		waitForWaiters(t, i+1)
	}
	close(release)
	if first, second := <-shared, <-shared; !first || !second {
		t.Fatal("a waiter did not share the running query")
	}
	if later.real.Load() != nil {
		t.Error("a waiter with more time than the running query made a context and timer for Done")
	}
	if sooner.real.Load() == nil {
		t.Error("a waiter with less time than the running query did not watch its own deadline")
	}
}

// waitForWaiters waits until n goroutines the test started wait in a flight's
// join (a goroutine an earlier test left may still wait in another flight's).
func waitForWaiters(t *testing.T, n int) {
	t.Helper()
	buf := make([]byte, 1<<20)
	mine := regexp.MustCompile(`created by \S+/collector\.` + t.Name() + `[. ]`)
	waitFor(t, func() bool {
		k := 0
		for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
			if strings.Contains(g, "(*flight).join(") && mine.MatchString(g) {
				k++
			}
		}
		return k >= n
	})
}

type ctxKey struct{}

// TestProbeCtx: a probe's context behaves as context.WithDeadline over a detached
// base, with or without anyone asking for Done.
func TestProbeCtx(t *testing.T) {
	base, cancelBase := context.WithCancel(context.WithValue(context.Background(), ctxKey{}, "v"))
	cancelBase() // the scraper left: the probe goes on

	t.Run("before the deadline", func(t *testing.T) {
		c, cancel := newProbeCtx(base, time.Now().Add(time.Hour))
		defer cancel()
		if c.Err() != nil || c.Value(ctxKey{}) != "v" {
			t.Fatalf("Err %v, Value %v", c.Err(), c.Value(ctxKey{}))
		}
		if d, ok := c.Deadline(); !ok || time.Until(d) < 59*time.Minute {
			t.Fatalf("Deadline %v %v", d, ok)
		}
		select {
		case <-c.Done():
			t.Fatal("done an hour early")
		default:
		}
	})
	t.Run("past the deadline", func(t *testing.T) {
		c, cancel := newProbeCtx(base, time.Now().Add(20*time.Millisecond))
		defer cancel()
		<-c.Done() // made after the start: closes when the deadline passes
		if !errors.Is(c.Err(), context.DeadlineExceeded) {
			t.Fatalf("Err %v", c.Err())
		}
		c2, cancel2 := newProbeCtx(base, time.Now().Add(-time.Second))
		defer cancel2()
		if !errors.Is(c2.Err(), context.DeadlineExceeded) { // no Done asked for
			t.Fatalf("Err %v", c2.Err())
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		for _, doneFirst := range []bool{false, true} {
			c, cancel := newProbeCtx(base, time.Now().Add(time.Hour))
			if doneFirst {
				c.Done()
			}
			cancel()
			cancel()
			<-c.Done()
			if !errors.Is(c.Err(), context.Canceled) {
				t.Fatalf("done first %v: Err %v", doneFirst, c.Err())
			}
		}
	})
	t.Run("children", func(t *testing.T) {
		c, cancel := newProbeCtx(base, time.Now().Add(time.Hour))
		before := runtime.NumGoroutine()
		var children []context.Context
		for range 50 {
			child, stop := context.WithTimeout(c, time.Hour)
			defer stop()
			children = append(children, child)
		}
		// A parent the context package does not know costs a goroutine per child.
		if n := runtime.NumGoroutine() - before; n > 5 {
			t.Fatalf("%d goroutines for 50 children", n)
		}
		if children[0].Value(ctxKey{}) != "v" {
			t.Fatal("a child lost the base's values")
		}
		cancel()
		for _, child := range children {
			<-child.Done()
		}
	})
}
