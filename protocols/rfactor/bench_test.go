package rfactor

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecode(b *testing.B) {
	reply := readVec(b, "full")
	b.SetBytes(int64(len(reply)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := decode(reply)
		if err != nil {
			b.Fatal(err)
		}
		r.Result()
	}
}

func BenchmarkQuery(b *testing.B) {
	addr := server(b, readVec(b, "full"))
	q, _ := newQuerier(protocols.Settings{})
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
