package gamespy2

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecode(b *testing.B) {
	v := vector(b, "halo_like")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decode(v...); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkQuery(b *testing.B) {
	v := vector(b, "halo_like")
	addr := prototest.UDP(b, func(req []byte) [][]byte {
		if req[8] == 0xFF {
			return [][]byte{withID(v[1], req)}
		}
		return [][]byte{withID(v[0], req)}
	})
	q, _ := Protocol.New(protocols.Settings{Players: true, Rules: true})
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
