package a2s

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecodeInfo(b *testing.B) {
	prototest.DecodeBench(b, readHex(b, "info_edf_all.hex"), func(msg []byte) error {
		var in steam.Info
		err := in.Decode(msg)
		_ = in.Result()
		return err
	})
}

func BenchmarkDecodePlayers(b *testing.B) {
	prototest.DecodeBench(b, readHex(b, "player_basic.hex"), func(msg []byte) error {
		p, err := steam.DecodePlayers(msg, false)
		if err == nil {
			_ = p.Result(0)
		}
		return err
	})
}

func BenchmarkDecodeRules(b *testing.B) {
	prototest.DecodeBench(b, readHex(b, "split_message.hex"), func(msg []byte) error {
		r, err := steam.DecodeRules(msg)
		if err == nil {
			_ = r.Result()
		}
		return err
	})
}

func benchAssembler(b *testing.B, name string) {
	frags := steamtest.Frags(b, name)
	prototest.DecodeBench(b, nil, func([]byte) error {
		var a steam.Assembler
		for i := len(frags) - 1; i >= 0; i-- {
			if _, _, err := a.Add(frags[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

func BenchmarkAssembler(b *testing.B)      { benchAssembler(b, "split_source") }
func BenchmarkAssemblerBzip2(b *testing.B) { benchAssembler(b, "split_bzip2") }

// BenchmarkQuery is the load benchmark's exchange: A2S_INFO against a loopback fake
// server that wants a challenge. The challenge cache sends it at once on every
// probe but the first: one round trip.
func BenchmarkQuery(b *testing.B) { benchQuery(b, protocols.Settings{}) }

// BenchmarkQueryNoCache is the same with challenge_cache: false: every probe pays
// the S2C_CHALLENGE round trip.
func BenchmarkQueryNoCache(b *testing.B) {
	benchQuery(b, protocols.Settings{Options: prototest.OptionsOf(Options{ChallengeCache: new(bool)})})
}

func benchQuery(b *testing.B, s protocols.Settings) {
	f := &fake{info: one(readHex(b, "info_edf_all.hex")), infoChallenge: true, challenge: [4]byte{1, 2, 3, 4}, quiet: true}
	prototest.QueryBench(b, Protocol, s, f.start(b))
}
