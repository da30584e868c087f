package gamespy4

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	gt "github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// benchFull measures the full-stat decoder and its Result on v.
func benchFull(b *testing.B, v []byte) {
	prototest.DecodeBench(b, v, func(v []byte) error {
		st, err := decodeFull(v)
		if err == nil {
			st.result(true, true)
		}
		return err
	})
}

func BenchmarkDecodeFull(b *testing.B) { benchFull(b, vector(b, "full_vanilla")) }

// BenchmarkDecodeFixture decodes a 1.6 KB Bukkit reply with 15 players and 50 plugins.
func BenchmarkDecodeFixture(b *testing.B) {
	benchFull(b, prototest.Fixture(b, fixtureProto, "minecraft_fullstat_2.bin"))
}

func BenchmarkDecodeBasic(b *testing.B) {
	prototest.DecodeBench(b, vector(b, "basic"), func(v []byte) error {
		_, err := decodeBasic(v)
		return err
	})
}

func BenchmarkQuery(b *testing.B) {
	v := vector(b, "full_vanilla")
	addr := prototest.UDP(b, func(req []byte) [][]byte {
		if req[2] == 0x09 {
			return gt.ChallengeReply(req, "9513307")
		}
		return [][]byte{gt.WithSession(v, req[3:7])}
	})
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, addr)
}
