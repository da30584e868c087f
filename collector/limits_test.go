package collector

import (
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/common/model"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

func TestCoalescing(t *testing.T) {
	q := &fakeQuerier{res: &protocols.Result{Players: protocols.Known(4)}, delay: 100 * time.Millisecond}
	h := newTestHandler(t, q, nil)
	var wg sync.WaitGroup
	bodies := make([]string, 10)
	for i := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, bodies[i] = get(t, h, "/probe?module=fake&target=127.0.0.1", nil)
		}()
	}
	wg.Wait()
	if n := q.calls.Load(); n != 1 {
		t.Errorf("10 concurrent probes of one target made %d queries, want 1", n)
	}
	for _, b := range bodies {
		if !strings.Contains(b, "gameserver_players 4") {
			t.Errorf("a coalesced probe lacks the result:\n%s", b)
		}
	}
	// Without a ttl the next probe queries again.
	get(t, h, "/probe?module=fake&target=127.0.0.1", nil)
	if n := q.calls.Load(); n != 2 {
		t.Errorf("queries = %d, want 2", n)
	}
}

func TestCacheTTL(t *testing.T) {
	q := &fakeQuerier{res: &protocols.Result{}}
	mods := map[string]*config.Module{
		"cached": {Protocol: "fake", CacheTTL: model.Duration(time.Hour)},
		"plain":  {Protocol: "fake"},
	}
	h := newTestHandler(t, q, mods)
	get(t, h, "/probe?module=cached&target=127.0.0.1", nil)
	_, dbg := get(t, h, "/probe?module=cached&target=127.0.0.1&debug=true", nil)
	if n := q.calls.Load(); n != 1 {
		t.Errorf("cache_ttl: %d queries, want 1", n)
	}
	if !strings.Contains(dbg, "Served from cache") {
		t.Errorf("debug output must say the result was cached:\n%s", dbg)
	}
	// Other targets and other modules are not served from that cache.
	get(t, h, "/probe?module=cached&target=127.0.0.2", nil)
	get(t, h, "/probe?module=plain&target=127.0.0.1", nil)
	if n := q.calls.Load(); n != 3 {
		t.Errorf("queries = %d, want 3", n)
	}
	// The global minimum interval acts as a floor for every module.
	h.MinInterval = time.Hour
	get(t, h, "/probe?module=plain&target=127.0.0.9", nil)
	get(t, h, "/probe?module=plain&target=127.0.0.9", nil)
	if n := q.calls.Load(); n != 4 {
		t.Errorf("min interval: queries = %d, want 4", n)
	}
}

func TestTargetPolicyRefusal(t *testing.T) {
	q := &fakeQuerier{res: &protocols.Result{}}
	h := newTestHandler(t, q, nil)
	cfg, err := config.Parse([]byte("target_policy:\n  allow: [\"192.0.2.0/24\", \"*.games.example\"]\n  deny: [\"127.0.0.0/8\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Modules = h.Config.Get().Modules
	h.Config.Set(cfg)
	h.Resolver = staticResolver{
		"evil.games.example": {netip.MustParseAddr("127.0.0.1")},
		"cs.games.example":   {netip.MustParseAddr("198.51.100.7")},
	}
	for _, tc := range []struct {
		target string
		code   int
	}{
		{"192.0.2.1", 200},
		{"cs.games.example", 200},
		{"198.51.100.1", 403},
		{"127.0.0.1", 403},
		{"evil.games.example", 403},
	} {
		resp, body := get(t, h, "/probe?module=fake&target="+tc.target, nil)
		if resp.StatusCode != tc.code {
			t.Errorf("%s: status %d, want %d (%s)", tc.target, resp.StatusCode, tc.code, body)
		}
		if tc.code == http.StatusForbidden && !strings.Contains(body, "target_policy") {
			t.Errorf("%s: 403 body must give the reason: %q", tc.target, body)
		}
	}
	if n := q.calls.Load(); n != 2 {
		t.Errorf("refused targets must not be queried: %d queries, want 2", n)
	}
	if got := counterValue(t, h.Metrics.PolicyRefusals); got != 3 {
		t.Errorf("refusal counter = %v, want 3", got)
	}
}

func TestMaxConcurrent(t *testing.T) {
	q := &fakeQuerier{wait: true}
	h := newTestHandler(t, q, nil)
	h.MaxConcurrent = 2
	h.MaxWaiting = 4
	var holders sync.WaitGroup
	for i := range 2 {
		holders.Add(1)
		go func() {
			defer holders.Done()
			get(t, h, "/probe?module=fake&target=127.0.1."+string(rune('1'+i)), map[string]string{"X-Prometheus-Scrape-Timeout-Seconds": "2.5"})
		}()
	}
	for deadline := time.Now().Add(5 * time.Second); q.calls.Load() < 2; {
		if time.Now().After(deadline) {
			t.Fatal("the first two probes never started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	var wg sync.WaitGroup
	bodies := make([]string, 4)
	start := time.Now()
	for i := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// distinct targets: no coalescing
			_, bodies[i] = get(t, h, "/probe?module=fake&target=127.0.0."+string(rune('1'+i)), map[string]string{"X-Prometheus-Scrape-Timeout-Seconds": "0.8"})
		}()
	}
	wg.Wait()
	if el := time.Since(start); el > 1500*time.Millisecond {
		t.Errorf("overloaded probes must fail by their deadline; took %s", el)
	}
	for _, b := range bodies {
		if !strings.Contains(b, `probe_failure_info{reason="overloaded"} 1`) {
			t.Errorf("want an overloaded failure:\n%s", b)
		}
	}
	if n := q.calls.Load(); n != 2 {
		t.Errorf("the cap of 2 let %d queries run", n)
	}
	holders.Wait()
}

// TestMaxWaiting: past the waiting cap a probe fails at once instead of holding its
// request (goroutine, connection, buffers) until its deadline.
func TestMaxWaiting(t *testing.T) {
	q := &fakeQuerier{wait: true}
	h := newTestHandler(t, q, nil)
	h.MaxConcurrent, h.MaxWaiting = 1, 1
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		get(t, h, "/probe?module=fake&target=127.0.1.1", map[string]string{"X-Prometheus-Scrape-Timeout-Seconds": "3"})
	}()
	waitFor(t, func() bool { return q.calls.Load() == 1 })
	wg.Add(1)
	waiterDone := make(chan struct{})
	go func() { // takes the one waiting place until its deadline
		defer wg.Done()
		defer close(waiterDone)
		get(t, h, "/probe?module=fake&target=127.0.1.2", map[string]string{"X-Prometheus-Scrape-Timeout-Seconds": "3"})
	}()
	waitFor(t, func() bool { return h.limit.waiting.Load() == 1 })
	for i := range 20 {
		_, body := get(t, h, fmt.Sprintf("/probe?module=fake&target=127.0.2.%d", i+1), map[string]string{"X-Prometheus-Scrape-Timeout-Seconds": "3"})
		if !strings.Contains(body, `probe_failure_info{reason="overloaded"} 1`) {
			t.Fatalf("probe %d past the waiting cap: want overloaded:\n%s", i, body)
		}
		select {
		case <-waiterDone:
			t.Fatal("the waiter ended before the fast failures: they were not fast")
		default:
		}
	}
	if n := h.limit.waiting.Load(); n != 1 {
		t.Errorf("waiting = %d after the rejected probes, want 1", n)
	}
	wg.Wait()
	if n := h.limit.waiting.Load(); n != 0 {
		t.Errorf("waiting = %d at the end, want 0", n)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatal("condition never became true")
		}
		time.Sleep(2 * time.Millisecond)
	}
}
