package gamespy3

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	gt "github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	v := vector(b, "split3")
	prototest.DecodeBench(b, nil, func([]byte) error {
		_, err := decode(v...)
		return err
	})
}

// BenchmarkDecodeFixture decodes the 3-packet, 54-player Battlefield 2 capture.
func BenchmarkDecodeFixture(b *testing.B) {
	var v [][]byte
	for _, name := range []string{"bf2_full_1.part1.bin", "bf2_full_1.part2.bin", "bf2_full_1.part3.bin"} {
		v = append(v, prototest.Fixture(b, "gamespy3", name))
	}
	prototest.DecodeBench(b, nil, func([]byte) error {
		_, err := decode(v...)
		return err
	})
}

func BenchmarkDecodeJC2MP(b *testing.B) {
	prototest.DecodeBench(b, vector(b, "jc2mp")[0], func(v []byte) error {
		_, err := decodeJC2MP(v)
		return err
	})
}

func BenchmarkQuery(b *testing.B) {
	v := vector(b, "split3")
	addr := prototest.UDP(b, func(req []byte) [][]byte {
		if req[2] == 0x09 {
			return gt.ChallengeReply(req, "123456")
		}
		out := make([][]byte, len(v))
		for i, p := range v {
			out[i] = gt.WithSession(p, req[3:7])
		}
		return out
	})
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, addr)
}
