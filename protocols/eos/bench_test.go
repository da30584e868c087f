package eos

import (
	"context"
	"net/netip"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecodeSessions(b *testing.B) {
	data := prototest.File(b, "sessions_arksa.json")
	target := netip.MustParseAddrPort("203.0.113.10:7779")
	names := presetAttrs("arksa")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		pk, err := decodeSessions(data, target)
		if err != nil || pk.session == nil {
			b.Fatal(err)
		}
		pk.session.result(names, false)
	}
}

// BenchmarkQuery is a session search over loopback with a kept token (the
// steady state: one sign-in an hour).
func BenchmarkQuery(b *testing.B) {
	f := newFake(b)
	srv, _ := prototest.HTTP(b, f, false)
	q := newFor(b, srv, Options{}, protocols.Settings{})
	tr := wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := q.Query(ctx, protocols.At(target), tr)
		cancel()
		if err != nil {
			b.Fatal(err)
		}
	}
}
