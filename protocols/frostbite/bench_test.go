package frostbite

import (
	"context"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecodeReply(b *testing.B) {
	pkt := vector(b, "ok_bf4")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeReply(pkt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQuery is a full exchange over loopback TCP, one connection per query.
func BenchmarkQuery(b *testing.B) {
	addr := rconServer(b, answering(b, vector(b, "ok_bf4")))
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
