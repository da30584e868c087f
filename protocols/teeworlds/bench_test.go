package teeworlds

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecodeInfo07(b *testing.B) {
	payload, _ := connless07(prototest.HexFile(b, "v07_players.hex"), vectorToken)
	prototest.DecodeBench(b, payload, func(v []byte) error {
		in, err := decodeInfo07(v)
		if err == nil {
			_ = in.Result(true)
		}
		return err
	})
}

func BenchmarkDecodeInfo06(b *testing.B) {
	prototest.DecodeBench(b, prototest.HexFile(b, "v06_players.hex"), func(v []byte) error {
		_, err := decode06(v)
		return err
	})
}

// BenchmarkQuery is the full 0.7 exchange (token, then info) over loopback.
func BenchmarkQuery(b *testing.B) {
	f := &fake{body07: body07(b, "v07_players.hex")}
	prototest.QueryBench(b, Protocol, settings(version07, 0), prototest.UDP(b, f.handle))
}
