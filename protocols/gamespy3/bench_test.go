package gamespy3

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecode(b *testing.B) {
	v := vector(b, "split3")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decode(v...); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeFixture decodes the 3-packet, 54-player Battlefield 2 capture.
func BenchmarkDecodeFixture(b *testing.B) {
	var v [][]byte
	for _, name := range []string{"bf2_full_1.part1.bin", "bf2_full_1.part2.bin", "bf2_full_1.part3.bin"} {
		v = append(v, prototest.Fixture(b, "gamespy3", name))
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decode(v...); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeJC2MP(b *testing.B) {
	v := vector(b, "jc2mp")[0]
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeJC2MP(v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkQuery(b *testing.B) {
	v := vector(b, "split3")
	addr := prototest.UDP(b, func(req []byte) [][]byte {
		if req[2] == 0x09 {
			return [][]byte{append(append([]byte{0x09}, req[3:7]...), "123456\x00"...)}
		}
		out := make([][]byte, len(v))
		for i, p := range v {
			out[i] = withSession(p, req[3:7])
		}
		return out
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
