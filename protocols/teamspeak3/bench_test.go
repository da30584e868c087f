package teamspeak3

import (
	"context"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecodeTranscript(b *testing.B) {
	out := transcript(b, "ok_default")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeTranscript(out, 9987); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQuery is a full exchange over loopback TCP, one connection per query.
func BenchmarkQuery(b *testing.B) {
	f := serve(b, transcript(b, "ok_default"))
	q, _ := newQuerier(withQueryPort(f.addr.Port()))
	tr := wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := q.Query(ctx, protocols.At(voice), tr)
		cancel()
		if err != nil {
			b.Fatal(err)
		}
	}
}
