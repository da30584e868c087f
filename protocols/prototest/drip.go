package prototest

import (
	"errors"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// DripTimesOut probes, with a querier p makes of s and a 500 ms deadline,
// a TCP server that writes msg one byte a second (Drip): the deadline ends the
// probe as a timeout, not the peer, within two seconds and what the machine
// could not schedule.
func DripTimesOut(t testing.TB, p protocols.Protocol, s protocols.Settings, msg []byte) {
	t.Helper()
	addr := Drip(t, msg)
	start := time.Now()
	if _, err := MustNew(t, p, s).Query(Context(t, 500*time.Millisecond), protocols.At(addr), wire.NewTrace()); !errors.Is(err, wire.ErrTimeout) {
		t.Errorf("err = %v, want timeout", err)
	}
	if d := time.Since(start); d > 2*time.Second+LagSince(start) {
		t.Errorf("returned after %v", d)
	}
}
