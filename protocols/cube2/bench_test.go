package cube2

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecodeInfo(b *testing.B) {
	prototest.DecodeBench(b, prototest.HexFile(b, "info_sauer_ctf.hex"), func(v []byte) error {
		in, err := decodeInfo(v, pingWide)
		if err == nil {
			_ = in.Result(false, false)
		}
		return err
	})
}

func BenchmarkDecodePlayers(b *testing.B) {
	prototest.DecodeBench(b, prototest.HexFile(b, "ext_stats_alice.hex"), func(v []byte) error {
		_, err := decodePlayers(v)
		return err
	})
}

func BenchmarkQuery(b *testing.B) {
	f := full(b)
	f.t = b
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, prototest.UDP(b, f.handle))
}
