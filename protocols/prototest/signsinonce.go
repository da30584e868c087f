package prototest

import (
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// SignsInOnce probes addr with q eight times at once: each probe succeeds with
// a name, and signIns (the fake's count of sign-ins) says one was made: the
// probes of one module share a sign-in.
func SignsInOnce(t testing.TB, q protocols.Querier, addr netip.AddrPort, signIns func() int32) {
	t.Helper()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if res, _, err := QueryWithin(t, q, addr, 5*time.Second); err != nil || res.Name == "" {
				t.Error(res, err)
			}
		})
	}
	wg.Wait()
	if n := signIns(); n != 1 {
		t.Errorf("%d sign-ins, want 1", n)
	}
}
