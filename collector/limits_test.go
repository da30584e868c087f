package collector

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/common/model"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func TestCoalescing(t *testing.T) {
	q := &prototest.FakeQuerier{Result: &protocols.Result{Players: protocols.Known(4)}, Delay: 100 * time.Millisecond}
	r := newTestRunner(t, q, nil)
	var wg sync.WaitGroup
	outs := make([]*Outcome, 10)
	for i := range outs {
		wg.Go(func() { outs[i], _ = r.Run(context.Background(), "fake", "127.0.0.1", "") })
	}
	wg.Wait()
	if n := q.Calls(); n != 1 {
		t.Errorf("10 concurrent probes of one target made %d queries, want 1", n)
	}
	shared := 0
	for _, o := range outs {
		if o == nil || o.Result == nil || o.Result.Players.Value != 4 {
			t.Errorf("a coalesced probe lacks the result: %+v", o)
		} else if o.Shared {
			shared++
		}
	}
	if shared != 9 || counterValue(t, r.Metrics.Coalesced) != 9 {
		t.Errorf("%d shared outcomes, coalesced counter %v; want 9", shared, counterValue(t, r.Metrics.Coalesced))
	}
	// Without a ttl the next probe queries again.
	run(t, r, "fake", "127.0.0.1", "")
	if n := q.Calls(); n != 2 {
		t.Errorf("queries = %d, want 2", n)
	}
}

func TestCacheTTL(t *testing.T) {
	q := &prototest.FakeQuerier{Result: &protocols.Result{}}
	mods := map[string]*config.Module{
		"cached": {Protocol: "fake", CacheTTL: model.Duration(time.Hour)},
		"plain":  {Protocol: "fake"},
	}
	r := newTestRunner(t, q, mods)
	first := run(t, r, "cached", "127.0.0.1", "")
	again := run(t, r, "cached", "127.0.0.1:27015", "")
	if n := q.Calls(); n != 1 {
		t.Errorf("cache_ttl: %d queries, want 1", n)
	}
	if first.Cached || !again.Cached || !again.When.Equal(first.When) {
		t.Errorf("cached: %v then %v; when %v then %v", first.Cached, again.Cached, first.When, again.When)
	}
	if again.Target != "127.0.0.1:27015" || first.Target != "127.0.0.1" {
		t.Errorf("a cached outcome must name its own request's target: %q, %q", first.Target, again.Target)
	}
	// Other targets and other modules are not served from that cache.
	run(t, r, "cached", "127.0.0.2", "")
	run(t, r, "plain", "127.0.0.1", "")
	if n := q.Calls(); n != 3 {
		t.Errorf("queries = %d, want 3", n)
	}
}

func TestMaxConcurrent(t *testing.T) {
	q := &prototest.FakeQuerier{Wait: true}
	r := newTestRunner(t, q, nil)
	r.MaxConcurrent = 2
	r.MaxWaiting = 4
	ctx := context.Background()
	var holders sync.WaitGroup
	for i := range 2 {
		holders.Go(func() { r.Run(ctx, "fake", "127.0.1."+string(rune('1'+i)), "2.5") })
	}
	waitFor(t, func() bool { return q.Calls() >= 2 })
	var wg sync.WaitGroup
	outs := make([]*Outcome, 4)
	lag := prototest.SchedulingLag(t)
	start := time.Now()
	for i := range outs {
		wg.Go(func() {
			// distinct targets: no coalescing
			outs[i], _ = r.Run(ctx, "fake", "127.0.0."+string(rune('1'+i)), "0.8")
		})
	}
	wg.Wait()
	if el := time.Since(start); el > 1500*time.Millisecond+lag() {
		t.Errorf("overloaded probes must fail by their deadline; took %s", el)
	}
	for _, o := range outs {
		if o == nil || o.Reason() != "overloaded" {
			t.Errorf("want an overloaded failure: %+v", o)
		}
	}
	if n := q.Calls(); n != 2 {
		t.Errorf("the cap of 2 let %d queries run", n)
	}
	holders.Wait()
}

// TestMaxWaiting: past the waiting cap a probe fails at once instead of holding its
// request (goroutine, connection, buffers) until its deadline.
func TestMaxWaiting(t *testing.T) {
	q := &prototest.FakeQuerier{Wait: true}
	r := newTestRunner(t, q, nil)
	r.MaxConcurrent, r.MaxWaiting = 1, 1
	ctx := context.Background()
	var wg sync.WaitGroup
	wg.Go(func() { r.Run(ctx, "fake", "127.0.1.1", "3") })
	waitFor(t, func() bool { return q.Calls() == 1 })
	waiterDone := make(chan struct{})
	wg.Go(func() { // takes the one waiting place until its deadline
		defer close(waiterDone)
		r.Run(ctx, "fake", "127.0.1.2", "3")
	})
	waitFor(t, func() bool { return r.limit.waiting.Load() == 1 })
	for i := range 20 {
		if o := run(t, r, "fake", fmt.Sprintf("127.0.2.%d", i+1), "3"); o.Reason() != "overloaded" {
			t.Fatalf("probe %d past the waiting cap: want overloaded, got %v", i, o.Err)
		}
		select {
		case <-waiterDone:
			t.Fatal("the waiter ended before the fast failures: they were not fast")
		default:
		}
	}
	if n := r.limit.waiting.Load(); n != 1 {
		t.Errorf("waiting = %d after the rejected probes, want 1", n)
	}
	wg.Wait()
	if n := r.limit.waiting.Load(); n != 0 {
		t.Errorf("waiting = %d at the end, want 0", n)
	}
}
