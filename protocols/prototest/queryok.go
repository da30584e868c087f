package prototest

import (
	"net/netip"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// QueryOK is QueryNew for a probe that must succeed: an error fails the test.
func QueryOK(t testing.TB, p protocols.Protocol, addr netip.AddrPort, s protocols.Settings, d time.Duration) (*protocols.Result, *wire.Trace) {
	t.Helper()
	return WithinOK(t, MustNew(t, p, s), addr, d)
}

// WithinOK is QueryWithin for a probe that must succeed: an error fails the
// test.
func WithinOK(t testing.TB, q protocols.Querier, addr netip.AddrPort, d time.Duration) (*protocols.Result, *wire.Trace) {
	t.Helper()
	res, tr, err := QueryWithin(t, q, addr, d)
	if err != nil {
		t.Fatal(err)
	}
	return res, tr
}
