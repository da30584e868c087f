package cube2

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecodeInfo(b *testing.B) {
	vec := prototest.HexFile(b, "info_sauer_ctf.hex")
	b.ReportAllocs()
	for b.Loop() {
		in, err := decodeInfo(vec, pingWide)
		if err != nil {
			b.Fatal(err)
		}
		_ = in.Result(false, false)
	}
}

func BenchmarkDecodePlayers(b *testing.B) {
	vec := prototest.HexFile(b, "ext_stats_alice.hex")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodePlayers(vec); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkQuery(b *testing.B) {
	f := full(b)
	f.t = b
	addr := prototest.UDP(b, f.handle)
	q := testQuerier(b, protocols.Settings{Players: true, Rules: true})
	tr := wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		res, err := q.Query(prototest.Context(b, 2*time.Second), protocols.At(addr), tr)
		if err != nil || res.PhaseErrors != nil {
			b.Fatal(err, res.PhaseErrors)
		}
	}
}
