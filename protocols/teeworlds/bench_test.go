package teeworlds

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecodeInfo07(b *testing.B) {
	payload, _ := connless07(prototest.HexFile(b, "v07_players.hex"), vectorToken)
	b.ReportAllocs()
	for b.Loop() {
		in, err := decodeInfo07(payload)
		if err != nil {
			b.Fatal(err)
		}
		_ = in.Result(true)
	}
}

func BenchmarkDecodeInfo06(b *testing.B) {
	vec := prototest.HexFile(b, "v06_players.hex")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decode06(vec); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQuery is the full 0.7 exchange (token, then info) over loopback.
func BenchmarkQuery(b *testing.B) {
	f := &fake{body07: body07(b, "v07_players.hex")}
	addr := prototest.UDP(b, f.handle)
	q, _ := newQuerier(settings(version07, 0))
	tr := wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		if _, err := q.Query(prototest.Context(b, 2*time.Second), protocols.At(addr), tr); err != nil {
			b.Fatal(err)
		}
	}
}
