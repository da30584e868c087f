package bedrock

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecode(b *testing.B) {
	v := vec(b, "bds_full")
	b.SetBytes(int64(len(v)))
	b.ReportAllocs()
	for b.Loop() {
		if err := answers(v, vecTime); err != nil {
			b.Fatal(err)
		}
		p, err := decode(v)
		if err != nil {
			b.Fatal(err)
		}
		_ = p.result()
	}
}

// BenchmarkQuery is a full ping/pong over loopback.
func BenchmarkQuery(b *testing.B) {
	addr := prototest.UDP(b, echo(bdsID))
	q := newQuerier(b, protocols.Settings{})
	tr := wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		if _, err := q.Query(prototest.Context(b, 2*time.Second), protocols.At(addr), tr); err != nil {
			b.Fatal(err)
		}
	}
}
