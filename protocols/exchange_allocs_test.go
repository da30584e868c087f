//go:build !race

// Allocation counts judge the build users run: -race allocates on its own, so
// make test runs this file in its step for the race set's !race tests.

package protocols_test

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestEchoExchangeAllocs holds the helper to what the exchange it replaces
// costs: wire.DialUDP and wire.Exchange with the same filter and decoder, the
// echo in a closure. Counts only, against that control on the same server.
func TestEchoExchangeAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts: not in -short")
	}
	target := protocols.At(prototest.UDP(t, func(req []byte) [][]byte { return [][]byte{append(req[1:9:9], "srv"...)} }))
	ctx := prototest.Context(t, time.Minute)
	control := func() {
		n := uint64(time.Now().UnixNano())
		conn, err := wire.DialUDP(ctx, target.Addr, nil)
		prototest.NoError(t, err)
		defer conn.Close()
		r, err := wire.Exchange(ctx, conn, echoExchange.Request(n), func(b []byte) (string, error, error) {
			if skip := echoExchange.Answers(b, n); skip != nil {
				return "", skip, nil
			}
			s, err := echoExchange.Decode(b, n)
			return s, nil, err
		})
		prototest.NoError(t, err)
		_ = echoExchange.Result(r, nil)
	}
	helper := func() {
		if _, err := echoExchange.Query(ctx, target, nil); err != nil {
			t.Fatal(err)
		}
	}
	helper()
	control()
	want := testing.AllocsPerRun(200, control)
	if got := testing.AllocsPerRun(200, helper); got > want {
		t.Errorf("EchoExchange.Query: %v allocations a probe, the exchange by hand %v", got, want)
	}
}
