package gamespy1

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecode(b *testing.B) {
	parts := readParts(b, "testdata", "ut_shuffled")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decode(parts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkQuery(b *testing.B) {
	parts := readParts(b, "testdata", "ut_shuffled")
	addr := prototest.UDP(b, func([]byte) [][]byte { return parts })
	q := newQuerier(b, protocols.Settings{Players: true, Rules: true}, nil)
	tr := wire.NewTrace()
	ctx := prototest.Context(b, time.Minute)
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		if _, err := q.Query(ctx, protocols.At(addr), tr); err != nil {
			b.Fatal(err)
		}
	}
}
