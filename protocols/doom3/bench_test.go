package doom3

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func decodeResult(b []byte) error {
	rep, err := decode(b)
	if err == nil {
		rep.Result(true, false)
	}
	return err
}

func BenchmarkDecode(b *testing.B) {
	for _, name := range []string{"doom3_players", "quake4_players", "etqw_infoex"} {
		b.Run(name, func(b *testing.B) { prototest.DecodeBench(b, vector(b, name), decodeResult) })
	}
}

// BenchmarkDecodeFixture decodes the largest real capture (16 ET:QW players with
// statistics), when ../shared is present.
func BenchmarkDecodeFixture(b *testing.B) {
	prototest.DecodeBench(b, prototest.Fixture(b, "doom3", "etqw_infoexresponse_players.bin"), decodeResult)
}

func BenchmarkQuery(b *testing.B) {
	_, addr := newServer(b, vector(b, "doom3_players"), nil)
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true}, addr)
}
