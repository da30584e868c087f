package openttd

import (
	"context"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecodePacket(b *testing.B) {
	pkt := prototest.HexFile(b, "v7_ticks_gamescript.hex")
	b.ReportAllocs()
	for b.Loop() {
		g, err := decodePacket(pkt)
		if err != nil {
			b.Fatal(err)
		}
		_ = g.Result(false)
	}
}

// BenchmarkQuery is a full exchange over loopback TCP, one connection per query.
func BenchmarkQuery(b *testing.B) {
	addr := gameServer(b, prototest.HexFile(b, "v6_password_newgrf.hex"), 0)
	q, _ := Protocol.New(protocols.Settings{})
	tr := wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := q.Query(ctx, protocols.At(addr), tr)
		cancel()
		if err != nil {
			b.Fatal(err)
		}
	}
}
