package skycoop

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.HexFile(b, "rcon_counted.hex"), func(vec []byte) error {
		st, err := decodeReply(vec, defaultPacketID)
		if err == nil {
			st.Result(true)
		}
		return err
	})
}

func BenchmarkQuery(b *testing.B) {
	vec := prototest.HexFile(b, "rcon_counted.hex")
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true}, prototest.UDP(b, func([]byte) [][]byte { return [][]byte{vec} }))
}
