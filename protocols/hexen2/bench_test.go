package hexen2

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecode(b *testing.B) {
	info := readVec(b, "info")
	b.SetBytes(int64(len(info)))
	b.ReportAllocs()
	for b.Loop() {
		body, _, err := answer(info, repServerInfo)
		if err != nil {
			b.Fatal(err)
		}
		s, err := decodeServerInfo(body)
		if err != nil {
			b.Fatal(err)
		}
		s.result()
	}
}

func BenchmarkQuery(b *testing.B) {
	addr := prototest.UDP(b, stock(b).handler(b))
	q, _ := newQuerier(all)
	ctx := prototest.Context(b, time.Minute)
	tr := wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		if _, err := q.Query(ctx, protocols.At(addr), tr); err != nil {
			b.Fatal(err)
		}
	}
}
