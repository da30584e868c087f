package prototest

import (
	"net/netip"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// QueryWithin runs one traced probe of addr by q with a deadline of d, and
// fails the test when it returns long after the deadline (a hang, not a
// timing).
func QueryWithin(t testing.TB, q protocols.Querier, addr netip.AddrPort, d time.Duration) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	tr := wire.NewTrace()
	start := time.Now()
	res, err := q.Query(Context(t, d), protocols.At(addr), tr)
	if el := time.Since(start); el > d+3*time.Second+LagSince(start) {
		t.Errorf("returned after %v, deadline %v", el, d)
	}
	return res, tr, err
}

// MustNew is p's querier for s, failing the test when New refuses s.
func MustNew(t testing.TB, p protocols.Protocol, s protocols.Settings) protocols.Querier {
	t.Helper()
	q, err := p.New(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}
