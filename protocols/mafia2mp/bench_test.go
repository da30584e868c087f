package mafia2mp

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecode(b *testing.B) {
	reply := readVec(b, "m2o")
	b.SetBytes(int64(len(reply)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := decode(reply, tagOnline, wire.UTF8)
		if err != nil {
			b.Fatal(err)
		}
		r.Result(true)
	}
}

func BenchmarkQuery(b *testing.B) {
	addr := server(b, tagM2MP, readVec(b, "m2mp"))
	q, _ := newQuerier(protocols.Settings{Players: true})
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
