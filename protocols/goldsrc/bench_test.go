package goldsrc

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecodeReply(b *testing.B) {
	for _, name := range []string{"info_m_mod.hex", "info_I_goldsrc.hex", "info_C.hex", "infostring.hex"} {
		b.Run(name, func(b *testing.B) {
			prototest.DecodeBench(b, readHex(b, name), func(msg []byte) error { _, err := decodeInfoReply(msg); return err })
		})
	}
}

func BenchmarkDecodePlayers(b *testing.B) {
	prototest.DecodeBench(b, readHex(b, "players_D.hex"), func(msg []byte) error { _, err := decodePlayers(msg, nil); return err })
}

func BenchmarkDecodeRules(b *testing.B) {
	prototest.DecodeBench(b, readHex(b, "rules_E.hex"), func(msg []byte) error { _, err := decodeRules(msg); return err })
}

// BenchmarkQuery runs a whole A2S-dialect query (info, players with challenge,
// split rules) against a loopback fake server.
func BenchmarkQuery(b *testing.B) {
	f := &fake{a2sInfo: one(readHex(b, "info_I_goldsrc.hex")), players: one(readHex(b, "players_D.hex")), rules: steamtest.Frags(b, "rules_split")}
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, f.start(b))
}
