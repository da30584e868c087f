package eos

import (
	"net/netip"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecodeSessions(b *testing.B) {
	target, names := netip.MustParseAddrPort("203.0.113.10:7779"), presetAttrs("arksa")
	prototest.DecodeBench(b, prototest.File(b, "sessions_arksa.json"), func(data []byte) error {
		pk, err := decodeSessions(data, target)
		if err == nil {
			pk.session.result(names, false)
		}
		return err
	})
}

// BenchmarkQuery is a session search over loopback with a kept token (the
// steady state: one sign-in an hour).
func BenchmarkQuery(b *testing.B) {
	f := newFake(b)
	srv, _ := prototest.HTTP(b, f, false)
	q := newFor(b, srv, Options{}, protocols.Settings{})
	ctx, tr := prototest.Context(b, time.Minute), wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		if _, err := q.Query(ctx, protocols.At(target), tr); err != nil {
			b.Fatal(err)
		}
	}
}
