package hytale

import (
	"context"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecode(b *testing.B) {
	line := []byte("OK 12 100\r\n")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decode(line); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQuery is a full exchange over loopback TCP, one connection per query.
func BenchmarkQuery(b *testing.B) {
	addr := pluginServer(b, func(string) string { return "OK 12 100\n" })
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
