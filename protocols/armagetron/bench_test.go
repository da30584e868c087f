package armagetron

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecodeReply(b *testing.B) {
	prototest.DecodeBench(b, prototest.HexFile(b, "players_colours.hex"), func(v []byte) error {
		s, err := decodeReply(v)
		if err == nil {
			_ = s.Result(true, false)
		}
		return err
	})
}

// BenchmarkQuery is the full two-request exchange over loopback UDP.
func BenchmarkQuery(b *testing.B) {
	srv := newServer(b, prototest.HexFile(b, "players_colours.hex"))
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true}, prototest.UDP(b, srv.handle(b)))
}
