package openttd

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecodePacket(b *testing.B) {
	prototest.DecodeBench(b, prototest.HexFile(b, "v7_ticks_gamescript.hex"), func(pkt []byte) error {
		g, err := decodePacket(pkt)
		if err == nil {
			_ = g.Result(false)
		}
		return err
	})
}

// BenchmarkQuery is a full exchange over loopback TCP, one connection per query.
func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{}, gameServer(b, prototest.HexFile(b, "v6_password_newgrf.hex"), 0))
}
